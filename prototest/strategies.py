"""Hypothesis strategies over reachable positions of any game.

A position is encoded as a list of integers, each picking `legal_moves()[i % n]` from
the listing order: examples shrink towards short games and early moves, which is what
a bot author wants in a minimal reproducer.
"""

from __future__ import annotations

from hypothesis import strategies as st

from .games.base import Position, Rules


def move_sequences(rules: Rules, *, max_plies: int = 60) -> st.SearchStrategy[list[str]]:
    """Legal move sequences from the initial position (they stop early if the game ends).

    Shrinks towards fewer plies and towards the first moves of each listing.
    """
    def play(choices: list[int]) -> list[str]:
        position, moves = rules.initial(), []
        for choice in choices:
            if position.outcome() is not None:
                break
            legal = position.legal_moves()
            move = legal[choice % len(legal)]
            position = position.play(move)
            moves.append(move)
        return moves

    return st.lists(st.integers(min_value=0, max_value=1 << 16), max_size=max_plies).map(play)


def positions(rules: Rules, *, max_plies: int = 60) -> st.SearchStrategy[Position]:
    """Positions reachable from the initial one; shrinks like `move_sequences`."""
    def replay(moves: list[str]) -> Position:
        position = rules.initial()
        for move in moves:
            position = position.play(move)
        return position

    return move_sequences(rules, max_plies=max_plies).map(replay)
