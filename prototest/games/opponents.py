"""Swarm opponents: the judge's side of a game, in many styles.

Swarm testing (Groce et al., ISSTA 2012): instead of one opponent that plays every kind
of move with fixed odds, each game gets its own *configuration*: a style (random,
greedy, smothering, passive, ...) and a set of move classes the opponent never plays
(never capture, never jump, ...). One configuration is narrow, but a run draws many, and
the positions they lead to are far apart: extreme positions (a side with no move, a
board emptied of pieces, a game at its turn limit) arise routinely, without steering
towards any particular fault.

Each rules module names its styles and move classes, says which classes a move is of
(`move_kinds`) and which moves a style prefers (`prefer`); see `games/base.py`. This
module writes the contract once (`candidates`: the classes left out, the fallbacks), draws
configurations and turns them into opponents: `Opponent` for `prototest check` (one
configuration per game, from the game's seed) and `ScriptedOpponent` for `prototest fuzz`
(Hypothesis draws the configuration and every move choice, so examples shrink).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Sequence

from .base import Position

#: `[opponent] style` that draws a style per game (a name of the module's STYLES fixes one).
SWARM = "swarm"
#: The range of one move choice: a choice `v` picks `moves[v % len(moves)]`.
CHOICES = 1 << 16
#: Choices at or above this value pick among all allowed moves instead of the style's
#: preferred ones (one in eight): a style keeps some variety, and shrinking a choice
#: towards 0 leads back to the style's own moves.
OFF_STYLE = CHOICES - CHOICES // 8


@dataclass(frozen=True)
class Style:
    """One opponent configuration: a style and the move classes it never plays."""

    name: str
    omit: frozenset[str] = frozenset()

    def describe(self) -> str:
        if not self.omit:
            return self.name
        return f"{self.name}, never {' / '.join(sorted(self.omit))}"


def styles(module: ModuleType) -> tuple[str, ...]:
    return tuple(getattr(module, "STYLES", ("random",)))


def move_classes(module: ModuleType) -> tuple[str, ...]:
    return tuple(getattr(module, "MOVE_CLASSES", ()))


def draw_style(module: ModuleType, rng: random.Random) -> Style:
    """A configuration drawn as fuzzing draws one: a style, and each move class omitted
    with probability 1/2 (the swarm testing default)."""
    names = styles(module)
    name = names[rng.randrange(len(names))]
    return Style(name, frozenset(c for c in move_classes(module) if rng.random() < 0.5))


def path(rules: Any, module: ModuleType, *, seat: int, depth: int, styles: tuple[Style, Style],
         rng: random.Random, start: Sequence[str] = ()) -> list[str]:
    """Moves from the initial position to one where `seat` is to move and the game goes
    on, about `depth` plies deep (fewer when the game ends sooner); `styles[s]` plays seat
    `s`'s moves, so either side can be smothered, thinned out or left behind. With
    `start`, the path goes on from those moves (a position where `seat` is to move)."""
    position, moves, kept = rules.initial(), list(start), len(start)
    for move in start:
        position = position.play(move)
    while position.outcome() is None:
        if position.turn() == seat:
            kept = len(moves)
            if kept >= depth:
                break
        move = pick(module, position, styles[position.turn()], rng.randrange(CHOICES))
        position = position.play(move)
        moves.append(move)
    return moves[:kept]


def listing(module: ModuleType, position: Position) -> Sequence[Any]:
    """The moves an opponent chooses from, in the module's fixed order: its
    `opponent_candidates(position)`, or the position's `legal_moves()`."""
    listed = getattr(module, "opponent_candidates", None)
    return listed(position) if listed is not None else position.legal_moves()


def allowed_moves(module: ModuleType, position: Position, style: Style) -> Sequence[Any]:
    """The moves of no class in `style.omit`, in the listing's order (all of them when
    every move is of an omitted class)."""
    moves = listing(module, position)
    if not style.omit:
        return moves
    without = getattr(module, "without_classes", None)
    if without is not None:  # the module's own pass over the whole list (chess's masks)
        return without(position, moves, style.omit) or moves
    kinds, omit = module.move_kinds, style.omit
    # isdisjoint asks a lazy Set (chess's) only for the omitted classes
    return [m for m in moves if kinds(position, m).isdisjoint(omit)] or moves


def preferred_moves(module: ModuleType, position: Position, style: Style, allowed: Sequence[Any]) -> Sequence[Any]:
    """Those of `allowed` the style prefers (all of them when it prefers none, for
    "random", and when only one move is allowed)."""
    if style.name == "random" or len(allowed) <= 1:
        return allowed
    return module.prefer(position, style.name, allowed) or allowed


def candidates(module: ModuleType, position: Position, style: Style) -> tuple[Sequence[Any], Sequence[Any]]:
    """(allowed, preferred) moves of `position` for an opponent of `style`, both in the
    listing's order and never empty while the game goes on.

    `allowed`: the moves of no class in `style.omit` (all of them when every move is of an
    omitted class); `preferred`: those of `allowed` that the module's `prefer` gives for
    the style (all of `allowed` when it gives none, for "random", and when only one move
    is allowed: LOA's lone `pass` has no squares to score)."""
    allowed = allowed_moves(module, position, style)
    return allowed, preferred_moves(module, position, style, allowed)


def move_text(module: ModuleType, position: Position, move: Any) -> str:
    """The move string of an element of `candidates`' lists (see `games/base.py`)."""
    text = getattr(module, "move_text", None)
    return text(position, move) if text is not None else move


def pick(module: ModuleType, position: Position, style: Style, choice: int) -> str:
    """The move that choice `choice` (0 <= choice < CHOICES) names for this style (the
    style's preference is worked out only when the choice is one of its moves)."""
    moves = allowed_moves(module, position, style)
    if choice < OFF_STYLE:
        moves = preferred_moves(module, position, style, moves)
    return move_text(module, position, moves[choice % len(moves)])


class Opponent:
    """`prototest check`'s built-in opponent for one game: a configuration drawn from the
    game's seed (or the spec's fixed style), then seeded choices."""

    def __init__(self, module: ModuleType, style: str, seed: int) -> None:
        self.module = module
        self.rng = random.Random(seed)
        if style == SWARM:
            self.style = draw_style(module, self.rng)
        else:
            self.style = Style(style)

    def __call__(self, position: Position) -> str:
        return pick(self.module, position, self.style, self.rng.randrange(CHOICES))


class ScriptedOpponent:
    """`prototest fuzz`'s opponent: the n-th move it plays uses `script[n]` (cyclically,
    should a game outlast the script). The script is drawn before the game, whatever the
    bot answers, so a bot that answers differently never changes what Hypothesis draws."""

    def __init__(self, module: ModuleType, style: Style, script: Sequence[int]) -> None:
        self.module = module
        self.style = style
        self.script = script
        self.played = 0

    def __call__(self, position: Position) -> str:
        choice = self.script[self.played % len(self.script)] if self.script else 0
        self.played += 1
        return pick(self.module, position, self.style, choice)


def check_style(module: ModuleType, style: str) -> str | None:
    """A problem with a spec's `[opponent] style` for this rules module, or None."""
    known = styles(module)
    if style == SWARM or style in known:
        return None
    return f"unknown style {style!r} (known: {SWARM}, {', '.join(known)})"


Choose = Callable[[Position], str]
