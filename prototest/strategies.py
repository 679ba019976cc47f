"""Hypothesis strategies over reachable positions of any game.

A move is an integer choice `legal_moves()[i]`, with `i` drawn below the number of
legal moves (so `i % n` is `i`, and no two choices name the same move): examples shrink
towards short games and the first moves of each listing, which is what a bot author
wants in a minimal reproducer. `prototest fuzz` draws its positions and its opponent's
moves from here.
"""

from __future__ import annotations

from typing import Callable, Sequence

from hypothesis import strategies as st

from .games.base import Position, Rules

#: Mean lengths of a move list: each list first picks one (shrinking towards the
#: shortest), so short games are tried as often as long ones.
LENGTH_SCALES = (4, 16, 64)
#: Whether a move comes from a steering list: three times in four (0, the simplest
#: value, means "from the whole listing").
STEER = st.integers(0, 3)

Steer = Callable[[Position], Sequence[str]]


@st.composite
def plies(draw: Callable, position: Position, *, steer: Steer | None = None,
          go_on: st.SearchStrategy[int] | None = None) -> str | None:
    """One move of `position`, as one span of choices (so the shrinker deletes whole
    plies): `legal_moves()[i]`, or, three times in four, a move of `steer(position)` (the
    moves towards a game's rare situations; see games/base.py). With `go_on`, first
    whether a list goes on: 0 stops it (None), which shrinks a list from its end."""
    if go_on is not None and draw(go_on) == 0:
        return None
    if steer is not None and draw(STEER) != 0:
        lure = steer(position)
        if lure:
            return lure[draw(st.integers(0, len(lure) - 1))]
    legal = position.legal_moves()
    return legal[draw(st.integers(0, len(legal) - 1))]


@st.composite
def move_lists(draw: Callable, rules: Rules, *, max_plies: int = 60, steer: Steer | None = None,
               playable: bool = True) -> list[str]:
    """Legal move sequences from the initial position, up to `max_plies` long. With
    `playable`, a move that would end the game is left out (the list stops before it),
    so the side to move has a turn; otherwise the list may end with the game.

    Shrinks towards fewer plies and towards the first moves of each listing."""
    go_on = st.integers(0, draw(st.sampled_from(LENGTH_SCALES)))
    position, moves = rules.initial(), []
    for _ in range(max_plies):
        if position.outcome() is not None:
            break
        move = draw(plies(position, steer=steer, go_on=go_on))
        if move is None:
            break
        after = position.play(move)
        if playable and after.outcome() is not None:
            break
        position = after
        moves.append(move)
    return moves


def move_sequences(rules: Rules, *, max_plies: int = 60) -> st.SearchStrategy[list[str]]:
    """Legal move sequences from the initial position; they stop when the game ends."""
    return move_lists(rules, max_plies=max_plies, playable=False)


def positions(rules: Rules, *, max_plies: int = 60) -> st.SearchStrategy[Position]:
    """Positions reachable from the initial one; shrinks like `move_sequences`."""
    def replay(moves: list[str]) -> Position:
        position = rules.initial()
        for move in moves:
            position = position.play(move)
        return position

    return move_sequences(rules, max_plies=max_plies).map(replay)
