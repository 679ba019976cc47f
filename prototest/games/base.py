"""What a game provides: its rules module, its `Rules` and its `Position`s.

A game is one rules module and one spec, registered in the entry-point group
`prototest.games` (see `games/__init__.py`). A rules module is pure: no I/O, no clocks,
no randomness of its own. The referee (`prototest.judge.referee`) joins it to a spec and a
bot process; `moves` and `perft` call the same module, so what a bot author sees at the
command line is exactly what the judge accepts. `games.game(name)` checks a module when
it is loaded, and `prototest.judge.conformance` tests a game whole: every game, built in or
not, passes the same suite.

The rules module

    make_rules(options) -> Rules                                    required
        the rules, configured by the spec's `[rules]` table (`take_options` checks it);
    SPEC: str | Path                                                required to register
        the game's spec file, relative to the module's folder;
    BOT: str                                                        required to register
        a module that plays the game over its protocol, run as `python -m BOT`: the
        conformance suite plays it in each seat, `record` records prototest's fixtures.

Opponents (`prototest.games.opponents`; `check` and `fuzz` draw one per game). All optional:
without them the opponent plays uniformly random legal moves. A module says what its
moves are and what its styles like; `opponents.candidates` does the rest once for every
game: (allowed, preferred), where `allowed` is the moves of no omitted class (all of them
when every move is of an omitted class) and `preferred` those of `allowed` the style
prefers (all of `allowed` when it prefers none, for "random", and when only one move is
allowed), both in the listing's order and never empty while the game goes on.

    STYLES: tuple[str, ...]
        the opponent's styles, "random" first (random, greedy, smothering, passive ...);
    MOVE_CLASSES: tuple[str, ...]
        classes of moves a swarm opponent may be told never to play ("capture", "jump");
    move_kinds(position, move) -> Set[str]                          with MOVE_CLASSES
        the classes a listed move is of (needed when MOVE_CLASSES is not empty). Only
        `isdisjoint(omit)` is asked of it: a Set that works a class out when asked (chess's,
        where a check costs a move played) spares the classes not omitted;
    without_classes(position, moves, omit) -> list                  optional, with move_kinds
        the moves of `moves` of no class in `omit`, in their order: exactly what
        `move_kinds(...).isdisjoint(omit)` keeps, in one pass (chess's, from the board's
        masks; the conformance suite compares the two);
    prefer(position, style, moves) -> list                          with STYLES
        the moves of `moves` (two or more, in order) that `style` plays, in their order;
        empty when it finds none. Never asked about "random"; an unknown style raises
        ValueError (needed when STYLES has more than "random");
    opponent_candidates(position) -> list
        the moves to choose from, in a fixed order (default: `position.legal_moves()`);
    move_text(position, move) -> str
        the move string of one of those, when they are something else (python-chess's
        moves: only the one played is written out).

For `prototest fuzz` and the reports, all optional:

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
        numbers the fuzz search keeps the furthest games of (prototest.play.elites),
        one label each: where the rules refuse what a simpler reading allows, where a
        rarely used rule applies, how few moves or pieces the side to move has. General
        measures of a game's boundaries, never one per known fault;
    diagram(position) -> list[str]
        the board with its coordinates, as findings and reproducers show it;
    svg(position, *, last=None, bad=None, flipped=False) -> str
        the board as the reports' pages show it: one self-contained `<svg>` element (no
        XML declaration, scripts, external references or fonts to download) with a
        viewBox and no fixed pixel size, its root carrying `class="board"`,
        `data-game="<game name>"` and `data-position="<position.notation()>"` (escaped).
        `last` is the move string (as the referee writes it) that reached `position`,
        highlighted; `bad` a move string the side to move answered here and the judge
        refused, drawn in red where it can be read (else a red caption): any string,
        never an exception; `flipped` shows the board from the second seat.
        `prototest.games.draw` is the drawing layer prototest's games share; their pieces
        carry `data-cell` (the cell as move strings name it) and `data-piece` (a short
        code, the notation's letter).

`Rules` and `Position` below say what the rules and a position provide; subclass them
for the defaults (a generic perft and divide). Moves are strings exactly as the real
referee writes them (`e2e4`, `O-O`, `a1h8c7`, `pass`, `1 3 3 5`). Positions are
immutable: `play` returns a new position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
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
        """The board as the protocol sends it, one line per row (CodinGame: rank 8
        first). Needed only where the spec sends `{board}`; its length is the number of
        rows a bot reads."""
        raise NotImplementedError


class Rules(Protocol):
    """A game's rules, configured by the `[rules]` table of its spec."""

    #: the game's own turn limit in plies (the game ends there), None without one;
    #: `fuzz` sizes its opponent's moves and its start positions by it
    max_plies: int | None = None
    #: "" when perft counts the judge's listed moves (checked against the generic
    #: version); else what it counts instead, for a bot author (chess: every promotion)
    perft_counts: str = ""

    def initial(self) -> Position:
        """The position every game starts from."""

    def parse(self, notation: str) -> Position:
        """Read a one-line notation; raise PositionError naming what is wrong."""

    def perft(self, position: Position, depth: int) -> int:
        """Leaf count at `depth` (perft, as engine authors know it): the game's tree as the
        judge lists its moves (an ended game has none), unless `perft_counts` says what
        it counts instead."""
        return generic_perft(position, depth)

    def divide(self, position: Position, depth: int) -> list[tuple[str, int]]:
        """Perft split by first move (each legal move once, in the module's order)."""
        return generic_divide(self, position, depth)


#: What `rules_problem` checks: the members a game's rules and positions must have.
RULES_MEMBERS = ("initial", "parse", "perft", "divide")
POSITION_MEMBERS = ("turn", "ply", "legal_moves", "judge", "play", "outcome", "notation")
#: A game's name: it names files and folders (transcripts, fixtures), so letters,
#: digits, - and _ only, a letter or digit first, and not too long for a file name.
NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"


def bundled_spec(filename: str) -> Path:
    """A spec prototest bundles: the package data once installed, `specs/` in a checkout
    (the built-in games' SPEC)."""
    packaged = Path(__file__).resolve().parent.parent / "specs" / filename
    return packaged if packaged.is_file() else Path(__file__).resolve().parents[2] / "specs" / filename


def name_problem(name: object) -> str:
    """Why `name` cannot be a game's name ("" when it can): `--game`, a spec's
    `game.name` and a plugin's entry point all follow this rule, so nothing prototest
    writes under a game's name lands outside the folder it was meant for."""
    import re

    if isinstance(name, str) and re.fullmatch(NAME, name):
        return ""
    return "a game name is letters, digits, - and _, a letter or digit first, at most 64 characters"


def shown(text: object, limit: int = 80) -> str:
    """`repr(text)`, cut short: a hostile name in a one-line error stays one short line."""
    r = repr(text)
    return r if len(r) <= limit else r[:limit - 4] + "...'"


def rules_problem(rules: object) -> str:
    """What a rules object (or its initial position) lacks, in words ("" when nothing)."""
    missing = [m for m in RULES_MEMBERS if not callable(getattr(rules, m, None))]
    if missing:
        hint = " (subclass prototest.games.base.Rules for the generic perft and divide)" \
            if set(missing) <= {"perft", "divide"} else ""
        return f"its rules lack {', '.join(m + '()' for m in missing)}{hint}"
    limit = getattr(rules, "max_plies", None)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        return f"its rules' max_plies is {limit!r}: a number of plies (at least 1) or None"
    try:
        position = rules.initial()  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - said in one line by the caller
        return f"its rules' initial() raised {type(exc).__name__}: {exc}"
    missing = [m for m in POSITION_MEMBERS if not callable(getattr(position, m, None))]
    if missing:
        return f"its positions lack {', '.join(m + '()' for m in missing)}"
    return ""


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
