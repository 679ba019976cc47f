#!/usr/bin/env python3
"""Fault: computes its own moves with the count of each line kept in tables, one diagonal too few, so a checker of its own on h1 crashes it (IndexError)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import LINES, Bot, name, own_choice  # noqa: E402

# The board has 15 diagonals each way; the author counted 14. The diagonal index
# file - rank + 7 runs from 0 (a8) to 14 (h1, a diagonal of one square).
DIAGONALS = 14


def line_slot(f, r, line):
    """The table and the slot in it of the line through (f, r) in the direction `line`."""
    df, dr = line[0]
    if dr == 0:
        return "rank", r
    if df == 0:
        return "file", f
    return ("diagonal", f - r + 7) if df == dr else ("anti-diagonal", f + r)


def count_line(turn, f, r, line):
    """Checkers of both colours on the whole line through (f, r)."""
    n = 1
    for df, dr in line:
        x, y = f + df, r + dr
        while 0 <= x < 8 and 0 <= y < 8:
            n += turn.at(x, y) != "."
            x, y = x + df, y + dr
    return n


class CornerDiagonalTable(Bot):
    def choose(self, turn):
        counts = {"rank": [None] * 8, "file": [None] * 8, "diagonal": [None] * DIAGONALS,
                  "anti-diagonal": [None] * 15}
        moves = []
        for f, r in turn.own_squares():
            for line in LINES:
                table, slot = line_slot(f, r, line)
                if counts[table][slot] is None:  # IndexError for a checker on h1
                    counts[table][slot] = count_line(turn, f, r, line)
                n = counts[table][slot]
                for df, dr in line:
                    tx, ty = f + df * n, r + dr * n
                    if not (0 <= tx < 8 and 0 <= ty < 8) or turn.at(tx, ty) == turn.colour:
                        continue
                    path = [turn.at(f + df * i, r + dr * i) for i in range(1, n)]
                    if any(c not in (".", turn.colour) for c in path):
                        continue
                    moves.append(name(f, r) + name(tx, ty))
        return own_choice(turn, sorted(moves))


if __name__ == "__main__":
    CornerDiagonalTable().run()
