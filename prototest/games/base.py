"""The small interface every rules module implements.

A rules module is pure: no I/O, no clocks, no randomness of its own. The referee
(`prototest.referee`) joins a rules module to a spec and a bot process; the CLI's
`moves` and `perft` commands call the same module, so what a bot author sees at the
command line is exactly what the judge accepts.

Opponents (`prototest.opponents`; both `check` and `fuzz` draw one per game). A module
says what its moves are and what its styles like; `opponents.candidates` does the rest
once for every game: (allowed, preferred), where `allowed` is the moves of no omitted
class (all of them when every move is of an omitted class) and `preferred` those of
`allowed` the style prefers (all of `allowed` when it prefers none, for "random", and
when only one move is allowed), both in the listing's order and never empty while the
game goes on.

    STYLES: tuple[str, ...]
        the opponent's styles, "random" first (random, greedy, smothering, passive ...);
    MOVE_CLASSES: tuple[str, ...]
        classes of moves a swarm opponent may be told never to play ("capture", "jump");
    move_kinds(position, move) -> Set[str]
        the classes a listed move is of (needed when MOVE_CLASSES is not empty). Only
        `isdisjoint(omit)` is asked of it: a Set that works a class out when asked (chess's,
        where a check costs a move played) spares the classes not omitted;
    prefer(position, style, moves) -> list
        the moves of `moves` (two or more, in order) that `style` plays, in their order;
        empty when it finds none. Never asked about "random"; an unknown style raises
        ValueError (needed when STYLES has more than "random");
    opponent_candidates(position) -> list (optional)
        the moves to choose from, in a fixed order (default: `position.legal_moves()`);
    move_text(position, move) -> str (optional)
        the move string of one of those, when they are something else (python-chess's
        moves: only the one played is written out).

Optional, for `prototest fuzz` and the reports:

    SITUATIONS: tuple[str, ...]
        every name `situations` can give (the summary lists those a run never met);
    situations(position, move=None) -> list[str]
        names of the rare situations `position` puts to the side to move ("en passant
        capture available", "pass"), or, given a move, that playing it makes;
    SITUATION_NOTES: dict[str, tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]]
        for a situation a run may well not reach: why (with figures), and `prototest check`
        options (`--seat`, `--position`, `--moves` ...) that put a bot in it directly, each
        with what the bot then meets; the summary prints them beside "not reached";
    measures(position) -> dict[str, float]
        numbers that `hypothesis.target()` raises, one label each: where the rules
        refuse what a simpler reading allows, where a rarely used rule applies, how few
        moves or pieces the side to move has. General measures of a game's boundaries,
        never one per known fault;
    diagram(position) -> list[str]
        the board with its coordinates, as findings and reproducers show it.

Moves are strings exactly as the real referee writes them (`e2e4`, `O-O`, `a1h8c7`,
`pass`, `1 3 3 5`). Positions are immutable: `play` returns a new position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

M = TypeVar("M")


class IllegalMove(ValueError):
    """A move the real referee would refuse. `reason` is written for a bot author."""

    def __init__(self, move: str, reason: str, *, malformed: bool = False) -> None:
        super().__init__(f"{move!r}: {reason}")
        self.move = move
        self.reason = reason
        #: True when the string does not even have the shape of a move (a syntax
        #: error), False when it is well formed but not legal here.
        self.malformed = malformed


class PositionError(ValueError):
    """A position notation that cannot be read; the message says where and why."""


class OptionError(ValueError):
    """A rules option from a spec that is unknown or out of range."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winner` is the seat index (0 moves first) or None for a draw."""

    winner: int | None
    reason: str  # "checkmate", "stalemate", "turn limit", "all checkers off", ...
    #: Seats whose result the real referee reports as that player's error (Proglad's
    #: blocker rule: "blocking another players home"), and the rule they broke, said
    #: for a bot author: the referee adds a warning (severity.rule_loss), the result stands.
    blamed: tuple[int, ...] = ()
    fault: str = ""

    def result_for(self, seat: int) -> str:
        if self.winner is None:
            return "draw"
        return "win" if self.winner == seat else "loss"


@dataclass(frozen=True)
class Judged:
    """The result of judging one answer that the referee accepts."""

    position: "Position"  # the position after the move
    move: str  # the move in the referee's own canonical string
    #: accepted by the referee but forbidden by the statement, or fragile
    warnings: tuple[str, ...] = field(default=())


class Position(Protocol):
    """One game position, immutable."""

    def turn(self) -> int:
        """Seat index of the side to move: 0 is the side that moves first."""

    def ply(self) -> int:
        """Number of plies (moves of either side) played since the initial position."""

    def legal_moves(self) -> Sequence[str]:
        """Every legal move as the referee writes it, in the referee's listing order."""

    def judge(self, move: str) -> Judged:
        """Judge a bot's move string; raise IllegalMove with a reason when refused."""

    def play(self, move: str) -> "Position":
        """Play a move from `legal_moves()` (or any string `judge` accepts)."""

    def outcome(self) -> Outcome | None:
        """None while the game goes on."""

    def notation(self) -> str:
        """The one-line position notation (FEN for chess)."""

    def board_lines(self) -> list[str]:
        """The board as the protocol sends it (CodinGame: eight lines, rank 8 first)."""


class Rules(Protocol):
    """A game's rules, configured by the `[rules]` table of its spec."""

    name: str

    def initial(self) -> Position: ...

    def parse(self, notation: str) -> Position:
        """Read a one-line notation; raise PositionError naming what is wrong."""

    def perft(self, position: Position, depth: int) -> int:
        """Leaf count at `depth` (perft, as engine authors know it)."""

    def divide(self, position: Position, depth: int) -> list[tuple[str, int]]:
        """Perft split by first move, in listing order."""


def generic_perft(position: Position, depth: int) -> int:
    """Perft through the public interface; rules modules may provide a faster one."""
    if depth == 0:
        return 1
    if position.outcome() is not None:
        return 0
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(generic_perft(position.play(m), depth - 1) for m in moves)


def generic_divide(rules: Rules, position: Position, depth: int) -> list[tuple[str, int]]:
    if depth < 1 or position.outcome() is not None:
        return []
    return [(m, rules.perft(position.play(m), depth - 1)) for m in position.legal_moves()]


def take_options(options: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Merge spec options over defaults; reject unknown keys and wrong types by name."""
    merged = dict(defaults)
    for key, value in options.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise OptionError(key, f"unknown rules option (known: {known})")
        want = type(defaults[key])
        if want is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(key, f"expected an integer, got {value!r}")
        if want is not int and not isinstance(value, want):
            raise OptionError(key, f"expected {want.__name__}, got {value!r}")
        merged[key] = value
    return merged


def best_scored(moves: Sequence[M], score: Callable[[M], Any]) -> list[M]:
    """The moves of highest score (a score of None leaves a move out), in their order:
    what an opponent style prefers."""
    scored = [(s, m) for m in moves if (s := score(m)) is not None]
    if not scored:
        return []
    top = max(s for s, _ in scored)
    return [m for s, m in scored if s == top]
