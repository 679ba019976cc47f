"""Fixtures: normalised golden transcripts of a bot's games, to record, replay and regenerate.

A fixture is one game between the judge and a bot, written so that two runs of the same
game give the same bytes (OpenSpiel's playthroughs are the model): what crossed the
pipes, one event a line, without times, pids, stderr or clock values (`<time>`, masked
from the spec's own templates, so for every protocol alike), nor a runtime's cache writes
(a first run's `__pycache__`: what an earlier run left decides them, not the game).
Paths are relative (to the fixture's folder in the header, to the bot's in findings), so
a fixture reads the same in every checkout. A header of `# key: value`
lines carries everything needed to play the game again:

    # prototest fixture: 1
    # game: chess
    # seat: white
    # seed: 2026
    # game-index: 1
    # bot: python3 -m prototest.bots.chess_bot
    # cwd: ..
    # time-scale: 1
    # start-delay: 50
    # opponent-moves: f7f6,h7h5,g7g5,...

    > white
    > NONE <time> <time> rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
    < d2d4
    > A <time>
    ...
    # game over after 163 plies: checkmate
    # result: win (checkmate)

`prototest record` writes them, `prototest record --update` regenerates them in place
(the built-in opponent plays again from the seed, so a change in a spec, a rules module,
the opponent or the bot shows as a diff), and `prototest replay` (prototest.play.replay)
plays the judge's side of one against the bot with the recorded opponent moves forced.
`python -m prototest.fixtures` regenerates prototest's own (FIXTURES; see __main__.py).
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable, Sequence

from ..sandbox import conduct
from .. import games
from ..judge import spec as specmod
from ..judge.game import GameConfig, GameReport
from ..games.base import IllegalMove, Position, PositionError, Rules
from ..judge.referee import Referee
from .forced import ForcedOpponent, builtin_opponent, game_seed
from ..judge.spec import Spec

VERSION = 1
MAGIC = f"# prototest fixture: {VERSION}"
#: prototest's own fixtures (fixtures/ in a checkout): `prototest record --update fixtures/`
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


#: Judge's notes that belong to the dialogue (the others name pids, exit statuses, kills).
_KEPT_NOTES = ("game over after ", "game stopped after ", "result: ")
#: Findings that depend on the machine's speed alone: a fixture leaves them out (check
#: reports them), or it would change from run to run.
_TIMING_WARNINGS = ("slow",)
#: (A runtime's cache writes are left out too, for the same reason: `_cache_writes`.)
_FINDING = re.compile(r"^(?:FAIL|WARN) (?P<kind>\w+): (?P<message>.*)$", re.S)
#: Times measured in a finding's message ("answered in 93.1 ms", "after 12 ms").
_MS = re.compile(r"\b\d+(?:\.\d+)? ms\b")


class FixtureError(Exception):
    """A file that is not a fixture prototest can use; the message names the file (and
    the line) and what is wrong."""

    def __init__(self, path: str | Path, problem: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {problem}")


# -- the format ----------------------------------------------------------------------------

@dataclass
class Header:
    """What `replay` and `record --update` need to play a fixture's game again.

    Paths (`spec`, `cwd`) are relative to the fixture's folder, so fixtures kept in a
    bot's repository replay wherever the repository is checked out."""

    seat: str
    seed: int
    bot: list[str]
    game: str | None = None  # a bundled spec's name ...
    spec: str | None = None  # ... or a spec file of one's own
    index: int = 1  # the game's number in its run: its seed is game_seed(seed, index)
    cwd: str = "."
    time_scale: float = 1.0
    start_delay: int | None = None
    overrides: list[str] = field(default_factory=list)
    position: str | None = None
    moves: list[str] = field(default_factory=list)  # played before the bot's first turn
    max_plies: int | None = None
    max_turns: int | None = None
    #: How many of `opponent_moves` were given (record --opponent-moves, a fuzz example);
    #: `record --update` plays those again and lets the built-in opponent choose the rest.
    opponent_given: int = 0
    opponent_moves: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [MAGIC]
        out.append(f"# spec: {self.spec}" if self.spec is not None else f"# game: {self.game}")
        out += [f"# seat: {self.seat}", f"# seed: {self.seed}", f"# game-index: {self.index}",
                f"# bot: {shlex.join(self.bot)}", f"# cwd: {self.cwd}", f"# time-scale: {_number(self.time_scale)}"]
        if self.start_delay is not None:
            out.append(f"# start-delay: {self.start_delay}")
        out += [f"# set: {item}" for item in self.overrides]
        if self.position is not None:
            out.append(f"# position: {self.position}")
        if self.moves:
            out.append(f"# moves: {','.join(self.moves)}")
        for key, value in (("max-plies", self.max_plies), ("max-turns", self.max_turns)):
            if value is not None:
                out.append(f"# {key}: {value}")
        if self.opponent_given:
            out.append(f"# opponent-given: {self.opponent_given}")
        out.append(f"# opponent-moves: {','.join(self.opponent_moves)}".rstrip())
        out += [f"# note: {note}" for note in self.notes]
        return out


@dataclass
class Fixture:
    path: Path
    header: Header
    #: the dialogue, one event a line: "> judge", "< bot", "F kind: ...", "W ...", "# ..."
    body: list[str]
    #: the line number of the body's first line in the file
    first_line: int = 1
    #: the line number of each body line, where the body is not the file's own lines in
    #: order (one bot's side of a match game's transcript, see prototest.play.matchgame)
    numbers: list[int] | None = None
    #: what to tell with its replay (which bot of a match game plays again)
    told: list[str] = field(default_factory=list)
    #: what it is called in replay's output: "fixture", "match game" or "check game" (a game of
    #: `check --opponent`: one bot's side of its transcript, see prototest.play.matchgame)
    kind: str = "fixture"

    @property
    def is_game(self) -> bool:
        """One bot's side of a game's transcript (a match game's, a check --opponent game's)."""
        return self.kind != "fixture"

    @property
    def recorded(self) -> str:
        """The record, as replay's lines name it: "the fixture", "the recorded match game"."""
        return "the fixture" if not self.is_game else f"the recorded {self.kind}"

    @property
    def folder(self) -> Path:
        return self.path.parent

    def line_of(self, i: int) -> int:
        """The line number in the file of body line `i` (past the end: after the last)."""
        if self.numbers is None:
            return self.first_line + i
        return self.numbers[i] if i < len(self.numbers) else (self.numbers[-1] + 1 if self.numbers else 1)


def render(header: Header, body: Sequence[str]) -> str:
    return "\n".join([*header.lines(), "", *body]) + "\n"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def is_fixture(path: Path) -> bool:
    """Whether the file starts as a fixture does (for picking fixtures out of a folder)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline().rstrip("\n").startswith("# prototest fixture:")
    except OSError:
        return False


def load(path: Path) -> Fixture:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FixtureError(path, "no such file") from None
    except IsADirectoryError:
        raise FixtureError(path, "is a folder; give fixture files (record --update also takes a folder)") from None
    except UnicodeDecodeError:
        raise FixtureError(path, "not UTF-8 text: not a prototest fixture") from None
    except OSError as exc:
        raise FixtureError(path, f"cannot read: {exc.strerror or exc}") from None
    return parse(text, path)


def parse(text: str, path: Path) -> Fixture:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].startswith("# prototest fixture:"):
        raise FixtureError(path, f"not a prototest fixture (its first line is not {MAGIC!r})")
    if lines[0].strip() != MAGIC:
        raise FixtureError(path, f"fixture format {lines[0].split(':', 1)[1].strip()!r}: this prototest "
                                 f"reads format {VERSION}", line=1)
    try:
        end = lines.index("")
    except ValueError:
        raise FixtureError(path, "no blank line after the header") from None
    values: dict[str, list[tuple[int, str]]] = {}
    for number, line in enumerate(lines[1:end], 2):
        m = re.fullmatch(r"# ([a-z-]+): ?(.*)", line)
        if m is None or m[1] not in _KEYS:
            raise FixtureError(path, f"not a header line ('# key: value' with a known key): {line!r}", number)
        values.setdefault(m[1], []).append((number, m[2]))
    header = _header(values, path)
    body = [line + " " if line in (">", "<") else line for line in lines[end + 1:]]  # an editor's strip
    for number, line in enumerate(body, end + 2):
        if line[:2] not in ("> ", "< ", "# ", "F ", "W "):
            raise FixtureError(path, f"not a dialogue line ('> ', '< ', '# ', 'F ' or 'W ' first): {line!r}", number)
    return Fixture(path, header, body, end + 2)


_KEYS = ("game", "spec", "seat", "seed", "game-index", "bot", "cwd", "time-scale", "start-delay", "set",
         "position", "moves", "max-plies", "max-turns", "opponent-given", "opponent-moves", "note")
_REPEATABLE = ("set", "note")


def _header(values: dict[str, list[tuple[int, str]]], path: Path) -> Header:
    read = _HeaderReader(values, path)
    if read.one("game") is not None and read.one("spec") is not None:
        raise FixtureError(path, "game and spec: a fixture names one of them", values["spec"][0][0])
    if read.one("game") is None and read.one("spec") is None:
        raise FixtureError(path, "the header names no game (a 'game' or 'spec' line)")
    header = Header(
        seat=read.need("seat"), seed=read.integer("seed", None, required=True), bot=read.command("bot"),
        game=read.one("game"), spec=read.one("spec"), index=read.integer("game-index", 1) or 1,
        cwd=read.one("cwd") or ".", time_scale=read.scale("time-scale"), start_delay=read.integer("start-delay", 0),
        overrides=read.every("set"), position=read.one("position"), moves=split_moves(read.one("moves") or ""),
        max_plies=read.integer("max-plies", 1), max_turns=read.integer("max-turns", 1),
        opponent_given=read.integer("opponent-given", 0) or 0,
        opponent_moves=split_moves(read.one("opponent-moves") or ""), notes=read.every("note"))
    if header.opponent_given > len(header.opponent_moves):
        raise FixtureError(path, f"opponent-given: {header.opponent_given}, but the header lists "
                                 f"{len(header.opponent_moves)} opponent moves", values["opponent-given"][0][0])
    return header


class _HeaderReader:
    """Typed values of the header's lines; a bad one is a FixtureError naming its line."""

    def __init__(self, values: dict[str, list[tuple[int, str]]], path: Path) -> None:
        self.values = values
        self.path = path

    def _found(self, key: str) -> tuple[int, str] | None:
        found = self.values.get(key)
        if found and len(found) > 1 and key not in _REPEATABLE:
            raise FixtureError(self.path, f"{key}: given twice", found[1][0])
        return found[0] if found else None

    def one(self, key: str) -> str | None:
        found = self._found(key)
        return found[1].strip() if found else None

    def need(self, key: str) -> str:
        value = self.one(key)
        if value is None:
            raise FixtureError(self.path, f"the header has no {key!r} line")
        return value

    def every(self, key: str) -> list[str]:
        return [value.strip() for _, value in self.values.get(key, [])]

    def integer(self, key: str, least: int | None, required: bool = False) -> int | None:
        found = self._found(key)
        if found is None:
            return self.need(key) if required else None  # type: ignore[return-value]
        line, text = found
        if not re.fullmatch(r"-?\d+", text.strip()) or (least is not None and int(text) < least):
            expected = f"an integer from {least}" if least is not None else "an integer"
            raise FixtureError(self.path, f"{key}: expected {expected}, got {text!r}", line)
        return int(text)

    def scale(self, key: str) -> float:
        found = self._found(key)
        if found is None:
            return 1.0
        line, text = found
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not 0.01 <= value <= 1000:
            raise FixtureError(self.path, f"{key}: expected a number from 0.01 to 1000, got {text!r}", line)
        return value

    def command(self, key: str) -> list[str]:
        text = self.need(key)
        line = self.values[key][0][0]
        try:
            argv = shlex.split(text)
        except ValueError as exc:
            raise FixtureError(self.path, f"{key}: {exc}", line) from None
        if not argv:
            raise FixtureError(self.path, f"{key}: no command", line)
        return argv


def split_moves(text: str) -> list[str]:
    """Moves separated by commas (Halma moves hold spaces: `1 3 3 5,16 14 14 12`)."""
    return [m.strip() for m in text.split(",") if m.strip()]


# -- the dialogue --------------------------------------------------------------------------

def dialogue(report: GameReport) -> list[str]:
    """A game as fixture lines: judge and bot lines, findings and the result; clock values
    masked (the game must have been played with `log_exchanges`), times and stderr left out."""
    out = []
    masked: dict[str, str] = {}  # a sent line with its clock values -> the line masked
    for (_, _, raw), (mark, text) in zip(report.transcript.events, report.transcript.dialogue()):
        if mark in "<>":
            out.append(f"{mark} {text}")
            if mark == ">" and raw != text:
                masked[raw] = text
        elif mark in "FW":
            m = _FINDING.match(text)
            if m is None or left_out(mark, m):
                continue
            out.append(f"{mark} {m['kind']}: {_steady(m['message'], masked)}")
        elif mark == "#" and text.startswith(_KEPT_NOTES):
            out.append(f"# {text}")
    return out


def left_out(mark: str, finding: re.Match) -> bool:
    """Whether a fixture leaves this finding out (a timing warning, a runtime's cache
    writes); `finding` is `_FINDING`'s match of its text. prototest.play.matchgame asks too."""
    return mark == "W" and (finding["kind"] in _TIMING_WARNINGS or _cache_writes(finding))


def _cache_writes(finding: re.Match) -> bool:
    """A warning about a runtime's cache writes: they depend on what an earlier run left
    in the folder (a fresh clone's first game writes `__pycache__`, the next none), not
    on the game, so a fixture leaves them out as it does timing warnings (check and the
    full transcript report them)."""
    return finding["kind"] == "file_operation" and conduct.is_cache_message(finding["message"])


def _steady(message: str, masked: dict[str, str]) -> str:
    """A finding's message without what changes between runs: the sent lines it quotes
    ("after the judge sent 'A 987'") masked as they were sent, measured times as <ms>."""
    for raw in sorted(masked, key=len, reverse=True):
        if raw in message:
            message = message.replace(raw, masked[raw])
    return _MS.sub("<ms>", message).replace("\n", "\\n")


# -- playing a fixture's game --------------------------------------------------------------

@dataclass
class Setup:
    """One game to record or replay: the protocol, the bot, and where the game starts."""

    spec: Spec
    rules: Rules
    module: ModuleType
    argv: list[str]
    #: the folder the bot runs in (None: the current one)
    cwd: str | None
    env: dict[str, str]
    seat: int
    seed: int
    index: int = 1
    time_scale: float = 1.0
    start_delay_ms: int | None = None
    position: str | None = None
    start_moves: list[str] = field(default_factory=list)
    #: opponent moves the judge plays first (record --opponent-moves); the built-in after
    given_moves: list[str] = field(default_factory=list)
    #: given_moves come from the user (record --opponent-moves), not from a fixture's
    #: header: one that is not legal where it comes is a usage error, not another game
    given_by_user: bool = False
    max_plies: int | None = None
    max_turns: int | None = None
    notes: list[str] = field(default_factory=list)

    def start(self) -> Position | None:
        return self.rules.parse(self.position) if self.position is not None else None

    def play(self, opponent: Callable[[Position], str]) -> GameReport:
        """Play the game with this opponent, every exchange logged (so clocks are masked)."""
        cfg = GameConfig(
            spec=self.spec, rules=self.rules, rules_module=self.module, argv=self.argv, seat=self.seat,
            seed=game_seed(self.seed, self.index), index=self.index, time_scale=self.time_scale,
            start_delay_ms=self.start_delay_ms, env=self.env, cwd=self.cwd, start_position=self.start(),
            start_moves=self.start_moves, opponent=opponent, max_plies=self.max_plies,
            max_bot_turns=self.max_turns, log_exchanges=True)
        return Referee(cfg).run()

    def builtin(self) -> Callable[[Position], str]:
        """The spec's seeded opponent, after any given moves. Its own generator (not the
        referee's, which also draws the moves of a `random` answer), so that a replay with
        the recorded moves forced sees the same random draws."""
        seeded = builtin_opponent(self.module, self.spec, game_seed(self.seed, self.index))
        if not self.given_moves:
            return seeded
        given = f"game {self.index}, the bot as {self.spec.seat_title(self.seat)}" if self.given_by_user else None
        return ForcedOpponent(self.given_moves, seeded, given=given)


class _Recording:
    """An opponent that notes the moves it plays (the header's opponent-moves)."""

    def __init__(self, choose: Callable[[Position], str]) -> None:
        self.choose = choose
        self.moves: list[str] = []

    def __call__(self, position: Position) -> str:
        move = self.choose(position)
        self.moves.append(move)
        return move


def record(setup: Setup, folder: Path) -> tuple[Header, list[str], GameReport]:
    """Play the game against the built-in opponent (after any given moves): the
    fixture's header (paths relative to `folder`), its dialogue, and the report."""
    opponent = _Recording(setup.builtin())
    report = setup.play(opponent)
    return header_for(setup, folder, opponent.moves), dialogue(report), report


def header_for(setup: Setup, folder: Path, opponent_moves: Sequence[str]) -> Header:
    spec_path = Path(setup.spec.path)
    bundled = games.registered_spec(setup.spec.name) == spec_path.resolve()
    return Header(
        seat=setup.spec.game.seats[setup.seat], seed=setup.seed, bot=list(setup.argv),
        game=setup.spec.name if bundled else None, spec=None if bundled else _relative(spec_path, folder),
        index=setup.index, cwd=_relative(Path(setup.cwd or os.getcwd()), folder),
        time_scale=setup.time_scale, start_delay=setup.start_delay_ms, overrides=list(setup.spec.overrides),
        position=setup.position, moves=list(setup.start_moves), max_plies=setup.max_plies,
        max_turns=setup.max_turns, opponent_given=min(len(setup.given_moves), len(opponent_moves)),
        opponent_moves=list(opponent_moves), notes=list(setup.notes))


def _relative(path: Path, folder: Path) -> str:
    """A path as seen from the fixture's folder: fixtures move with their repository."""
    return os.path.relpath(os.path.abspath(path), os.path.abspath(folder))


def setup_of(fixture: Fixture, env: dict[str, str], *, argv: Sequence[str] | None = None,
             time_scale: float | None = None) -> Setup:
    """The game a fixture's header describes; `argv` replaces its bot (which then runs
    in the current folder), `time_scale` its time scale for this run."""
    h = fixture.header
    spec_path = fixture.folder / h.spec if h.spec is not None else _bundled(fixture, h.game or "")
    spec = specmod.load(spec_path, list(h.overrides))
    module, rules = specmod.bind(spec)
    if h.seat not in spec.game.seats:
        raise FixtureError(fixture.path, f"seat {h.seat!r}: {spec.name} has the seats {', '.join(spec.game.seats)}")
    setup = Setup(
        spec=spec, rules=rules, module=module, argv=list(argv) if argv else list(h.bot),
        cwd=None if argv else os.path.normpath(fixture.folder.resolve() / h.cwd), env=env,
        seat=spec.game.seats.index(h.seat), seed=h.seed, index=h.index,
        time_scale=time_scale if time_scale is not None else h.time_scale, start_delay_ms=h.start_delay,
        position=h.position, start_moves=list(h.moves), given_moves=h.opponent_moves[:h.opponent_given],
        max_plies=h.max_plies, max_turns=h.max_turns, notes=list(h.notes))
    _check_start(fixture, setup)
    return setup


def _bundled(fixture: Fixture, game: str) -> Path:
    try:
        return games.game(game).spec
    except games.GameError as exc:
        raise FixtureError(fixture.path, str(exc)) from None


def _check_start(fixture: Fixture, setup: Setup) -> None:
    """The header's position and moves must be playable: name the first that is not."""
    try:
        position = setup.start() or setup.rules.initial()
    except PositionError as exc:
        raise FixtureError(fixture.path, f"position {setup.position!r}: {exc}") from None
    for number, move in enumerate(setup.start_moves, 1):
        try:
            if position.outcome() is not None:
                raise IllegalMove(move, f"the game is over ({position.outcome().reason})")
            position = position.judge(move).position
        except IllegalMove as exc:
            raise FixtureError(fixture.path, f"moves: move {number} {move!r} is not legal: {exc.reason}") from None


def regenerate(fixture: Fixture, setup: Setup) -> tuple[str, GameReport]:
    """`record --update`: the fixture recorded again from its header (`setup_of`: same
    bot, game, seat, seed and start); a time scale given for this run is not written."""
    header, body, report = record(setup, fixture.folder)
    header.time_scale = fixture.header.time_scale
    return render(header, body), report


def changed_lines(old: str, new: str) -> int:
    """How many lines a regeneration added or removed (what `git diff` will show)."""
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
    return sum(1 for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---"))


# -- fuzz reproducers ----------------------------------------------------------------------

def _replayed_note(failure) -> str:
    """What running the printed replay command did, as the fixture's header says it."""
    replayed = failure.replay
    if replayed is None:
        return "" if failure.reproducible else " (did not come back when run again)"
    if replayed["failed_same_way"] == replayed["tries"]:
        return ""
    return f" (its replay failed the same way {replayed['failed_same_way']} of {replayed['tries']} tries)"


def from_fuzz(run, failure, folder: Path) -> str:
    """A `prototest fuzz --save` reproducer in the fixture format: `prototest replay`
    plays it again and says whether the failure comes back."""
    target, example, info = run.target, failure.example, failure.details
    cap = run.options.max_plies
    cold = info["cold"] == "reproduces"
    how = ("a fresh bot shown the failing position" if cold else
           "a game from a cold start" if example.start_moves else "a game from the start")
    setup = Setup(
        spec=target.spec, rules=target.rules, module=target.module, argv=list(target.argv),
        cwd=target.cwd, env=target.env, seat=example.seat, seed=run.options.seed, index=1,
        time_scale=target.time_scale, start_delay_ms=target.start_delay_ms,
        start_moves=list(example.start_moves),
        given_moves=[] if cold else list(example.opponent_moves),
        max_plies=cap + len(example.start_moves) if cap else None, max_turns=example.max_turns,
        notes=[f"prototest fuzz: {how}, seed {info['seed']}, example {example.number}: "
               f"{'FAIL' if failure.confirmed else 'WARN'} {failure.finding.kind}"
               + _replayed_note(failure),
               f"also replayed by: {info['command']}"])
    header = header_for(setup, folder, setup.given_moves)
    return render(header, dialogue(example.report))
