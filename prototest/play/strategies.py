"""Hypothesis strategies over the games: positions, paths and swarm opponents.

A move is an integer choice that picks `moves[v % len(moves)]` from a fixed order (see
`prototest.games.opponents.pick`): examples shrink towards short games and towards the first
moves of each listing, which is what a bot author wants in a minimal reproducer. Every
choice has the same range whatever the position, so what Hypothesis draws never depends
on what a bot answered: a bot that answers the same input differently changes the game,
never the draws. `prototest fuzz` draws its examples from here.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from hypothesis import strategies as st

from ..games import opponents
from ..games.base import Position, Rules
from ..games.opponents import Style

#: Mean lengths of a move list: each list first picks one (shrinking towards the
#: shortest), so short games are tried as often as long ones.
LENGTH_SCALES = (4, 16, 64)


def choices() -> st.SearchStrategy[int]:
    """One move choice (shrinks towards 0: the first move of the style's list)."""
    return st.integers(0, opponents.CHOICES - 1)


@st.composite
def opponent_styles(draw: Callable, module: ModuleType) -> Style:
    """A swarm configuration: one of the module's STYLES and, for each move class, whether
    the opponent never plays it (half of the time each). Shrinks towards "random" with
    nothing omitted: the plainest opponent."""
    names = opponents.styles(module)
    name = names[draw(st.integers(0, len(names) - 1))]
    omit = frozenset(c for c in opponents.move_classes(module) if draw(st.booleans()))
    return Style(name, omit)


def scripts(length: int) -> st.SearchStrategy[tuple[int, ...]]:
    """`length` move choices for an opponent, all drawn at once (see ScriptedOpponent):
    one byte string, two bytes a choice, so a long game costs Hypothesis one draw."""
    width = opponents.CHOICES.bit_length() - 1
    assert width == 16
    return st.binary(min_size=2 * length, max_size=2 * length).map(
        lambda raw: tuple(int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw), 2)))


@st.composite
def paths(draw: Callable, rules: Rules, module: ModuleType, *, seat: int, max_plies: int,
          styles: tuple[Style, Style]) -> list[str]:
    """Moves from the initial position to one where `seat` is to move and the game goes
    on, about a drawn number of plies deep (up to `max_plies`); `styles[s]` plays seat
    `s`'s moves, so either side can be smothered, thinned out or left behind. Shrinks
    towards the initial position."""
    depth = draw(st.integers(0, max_plies))
    position, moves = rules.initial(), []
    kept = 0  # the longest prefix seen that leaves `seat` to move in a game that goes on
    choice = choices()
    while position.outcome() is None:
        if position.turn() == seat:
            kept = len(moves)
            if kept >= depth:
                break
        move = opponents.pick(module, position, styles[position.turn()], draw(choice))
        position = position.play(move)
        moves.append(move)
    return moves[:kept]


@st.composite
def move_lists(draw: Callable, rules: Rules, *, max_plies: int = 60, playable: bool = True) -> list[str]:
    """Legal move sequences from the initial position, up to `max_plies` long. With
    `playable`, a move that would end the game is left out (the list stops before it),
    so the side to move has a turn; otherwise the list may end with the game.

    Shrinks towards fewer plies and towards the first moves of each listing."""
    go_on = st.integers(0, draw(st.sampled_from(LENGTH_SCALES)))
    position, moves = rules.initial(), []
    for _ in range(max_plies):
        if position.outcome() is not None or draw(go_on) == 0:
            break
        legal = position.legal_moves()
        move = legal[draw(st.integers(0, len(legal) - 1))]
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
