#!/usr/bin/env python3
"""Fault: lists its home's free cells ring by ring from ring 1 around the far corner, so when the corner is the one free cell left for its last piece it finds none and crashes."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import FAR_CORNER, Bot, cell, home, king_distance, points  # noqa: E402


def free_home_cells(position, seat):
    """Free cells of the seat's home, by rings of king distance from its far corner;
    the corner itself is ring 0, which the loop leaves out."""
    corner, cells = FAR_CORNER[seat], home(seat)
    return [c for ring in range(1, 5) for c in sorted(cells)
            if king_distance(c, corner) == ring and cell(position, *c) == "."]


class CornerLastCell(Bot):
    # When its last piece outside home has no move that brings it nearer the far corner,
    # it routes that piece towards the nearest free home cell instead.
    def choose(self, position):
        cells, corner = home(self.seat), FAR_CORNER[self.seat]
        outside = [p for p in self.mine() if p not in cells]
        if len(outside) == 1 and not any(
                king_distance(points(m)[-1], corner) < king_distance(outside[0], corner)
                for m in position.legal_moves() if points(m)[0] == outside[0]):
            free = free_home_cells(position, self.seat)
            self.target = min(free, key=lambda c: king_distance(c, outside[0]))  # ValueError: empty
        return super().choose(position)  # the greedy play heads there too


if __name__ == "__main__":
    CornerLastCell().run()
