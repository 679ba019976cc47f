"""A match game's transcript, played again against either of its bots (`prototest replay`).

`prototest match` writes each game's transcript with both bots' lines in it (the bot in
the other seat's marked "[opponent] ", see prototest.judge.seat). Its first lines say what
playing the game again takes, in the fixtures' `# key: value` form:

    # prototest match game: 1
    # replay: prototest replay THIS-FILE --bot A (or --bot B; after --, a new version of it)
    # from: check --opponent            (only for a `check --opponent` game: A its bot, B the opponent)
    # game: chess                       (or `spec:`, a spec file relative to this folder)
    # set: time.clock_ms=2000           (the run's --set, one a line)
    # seed: 2026                        (the run's seed; with game-index, the game's own)
    # game-index: 3
    # time-scale: 0.1
    # start-delay: 150
    # position: <FEN>                   (an opening book's start position)
    # opening: e2e4,c7c5                (the opening's plies, both seats')
    # bot: A, white: python3 bot.py     (the referee's bot: its lines are unmarked)
    # cwd: ..                           (the folder it ran in, relative to this folder)
    # opponent: B, black: python3 old.py
    # opponent-cwd: ..
    # played: g1f3,d7d6,...             (every move after the opening, both seats')
    # result: win (the opponent forfeited: illegal_move)    (the referee's bot's)
    # opponent-forfeited: illegal_move  (when the opponent bot's fault ended the game)

`fixture_of` turns one bot's side of the game into a `prototest.play.fixtures.Fixture`: its
header (that bot, its seat, the other side's moves as the recorded opponent moves) and its
dialogue as a fixture has it (clock values masked by the spec's own templates, answer
times and stderr left out). `prototest.play.replay` then plays it as it plays any fixture: the
bot live, the other side's moves taken from the record, and the first exchange that
differs, or the verdict, reported. The other bot's forfeit cannot be played again (its
moves are all the record has of it): the replay stops after the live bot's last recorded
answer, as the record's game ended there. An answer's trailing spaces cannot be told from
the transcript's padding before its time: answers compare without them.
"""

from __future__ import annotations

import os
import re
import shlex
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from . import fixtures
from .fixtures import FixtureError, Header, split_moves
from ..judge.spec import Spec
from ..sandbox.transcript import BOARD_PREFIX

VERSION = 1
MAGIC = f"prototest match game: {VERSION}"
#: `# from:` of a `check --opponent` game's transcript (a match game's has no `from` line).
CHECK_ORIGIN = "check --opponent"
#: The referee's bot's lines are unmarked; the other seat's carry this label (GameConfig.opponent_label).
OPPONENT_LABEL = "opponent"
#: Where the transcript's own header begins (prototest.judge.referee): the match game's lines end there.
_TRANSCRIPT_HEADER = "# prototest transcript:"
#: One transcript event: "   12.345 >  text" (prototest.sandbox.transcript.Transcript.render).
_EVENT = re.compile(r"^ *-?\d+\.\d{3} (.)  (.*)$", re.S)
#: An answer's time, after its text: "e2e4          [1.2 ms]".
_ANSWER_TIME = re.compile(r"^(.*?) *\[\d+(?:\.\d+)? ms\]$", re.S)
_STDERR_NOT_KEPT = re.compile(r"^# \d+ more bytes of stderr were not kept$")
_KEYS = ("replay", "from", "game", "spec", "set", "seed", "game-index", "time-scale", "start-delay", "position",
         "opening", "bot", "cwd", "opponent", "opponent-cwd", "played", "result", "opponent-forfeited")


@dataclass
class Side:
    """One bot of the game: its letter in the match, its seat, its command and folder."""

    letter: str
    seat: str
    argv: list[str]
    cwd: str


@dataclass
class MatchGame:
    path: Path
    game: str | None
    spec: str | None
    overrides: list[str]
    seed: int
    index: int
    time_scale: float
    start_delay: int | None
    position: str | None
    opening: list[str]
    #: the referee's bot (unmarked lines), then the bot in the other seat ("[opponent] ")
    sides: tuple[Side, Side]
    played: list[str]
    result: str
    opponent_forfeited: str | None
    #: the transcript's events after its header: (line number, mark, text)
    events: list[tuple[int, str, str]] = field(default_factory=list)
    #: "match", or CHECK_ORIGIN: a game of `check --opponent`
    origin: str = "match"

    @property
    def kind(self) -> str:
        """What the game is called in replay's output."""
        return "check game" if self.origin == CHECK_ORIGIN else "match game"


# -- writing --------------------------------------------------------------------------------

def header_lines(*, folder: Path, spec: Spec, bundled: bool, seed: int, index: int, time_scale: float,
                 start_delay: int | None, position: str | None, opening: Sequence[str],
                 sides: tuple[Side, Side], moves: Sequence[str], result: str, reason: str,
                 opponent_forfeited: str | None, origin: str = "match") -> list[str]:
    """The match game's lines of a transcript written in `folder` (without the "# "):
    `moves` are all the game's moves, the opening's included; `sides[i].cwd` an absolute
    folder (written relative to `folder`). `origin`: "match", or CHECK_ORIGIN for a game of
    `check --opponent` (its bot is A, the opponent bot B)."""
    bot, other = sides
    if origin == CHECK_ORIGIN:
        replay = (f"replay: prototest replay THIS-FILE --bot {bot.letter} (the checked bot) or --bot {other.letter} "
                  f"(the opponent); after --, a new version of it plays in its place")
    else:
        replay = (f"replay: prototest replay THIS-FILE --bot {bot.letter} (or --bot {other.letter}; after --, "
                  f"a new version of it plays in its place)")
    out = [MAGIC, replay]
    if origin != "match":
        out.append(f"from: {origin}")
    out.append(f"game: {spec.name}" if bundled else f"spec: {_relative(Path(spec.path), folder)}")
    out += [f"set: {item}" for item in spec.overrides]
    out += [f"seed: {seed}", f"game-index: {index}", f"time-scale: {fixtures._number(time_scale)}"]
    if start_delay is not None:
        out.append(f"start-delay: {start_delay}")
    if position is not None:
        out.append(f"position: {position}")
    if opening:
        out.append(f"opening: {','.join(opening)}")
    for key, side in (("bot", bot), ("opponent", other)):
        out.append(f"{key}: {side.letter}, {side.seat}: {shlex.join(side.argv)}")
        out.append(f"{'cwd' if key == 'bot' else 'opponent-cwd'}: {_relative(Path(side.cwd), folder)}")
    out.append(f"played: {','.join(moves[len(opening):])}".rstrip())
    out.append(f"result: {result}" + (f" ({reason})" if reason else ""))
    if opponent_forfeited is not None:
        out.append(f"opponent-forfeited: {opponent_forfeited}")
    return out


def _relative(path: Path, folder: Path) -> str:
    return os.path.relpath(os.path.abspath(path), os.path.abspath(folder))


# -- reading --------------------------------------------------------------------------------

def is_match_game(path: Path) -> bool:
    """Whether the file is a match game's transcript (its first line says so)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline().rstrip("\n") == f"# {MAGIC}"
    except OSError:
        return False


def load(path: Path) -> MatchGame:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FixtureError(path, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    lines = text.split("\n")
    if not lines or lines[0] != f"# {MAGIC}":
        raise FixtureError(path, f"not a match game's transcript (its first line is not '# {MAGIC}')")
    values: dict[str, list[tuple[int, str]]] = {}
    number = 1
    for number, line in enumerate(lines[1:], 2):
        if line.startswith(_TRANSCRIPT_HEADER) or not line.startswith("# "):
            break
        m = re.fullmatch(r"# ([a-z-]+): ?(.*)", line)
        if m is None or m[1] not in _KEYS:
            raise FixtureError(path, f"not a match game's header line ('# key: value' with a known key): {line!r}",
                               number)
        values.setdefault(m[1], []).append((number, m[2]))
    read = fixtures._HeaderReader(values, path)
    if (read.one("game") is None) == (read.one("spec") is None):
        raise FixtureError(path, "the header names no game, or two (one 'game' or 'spec' line)")
    sides = (_side(read, "bot", "cwd", path), _side(read, "opponent", "opponent-cwd", path))
    game = MatchGame(
        path=path, game=read.one("game"), spec=read.one("spec"), overrides=read.every("set"),
        seed=read.integer("seed", None, required=True), index=read.integer("game-index", 1) or 1,  # type: ignore[arg-type]
        time_scale=read.scale("time-scale"), start_delay=read.integer("start-delay", 0),
        position=read.one("position"), opening=split_moves(read.one("opening") or ""), sides=sides,
        played=split_moves(read.one("played") or ""), result=read.need("result"),
        opponent_forfeited=read.one("opponent-forfeited"), origin=read.one("from") or "match")
    if game.result.startswith(("interrupted", "aborted")):
        raise FixtureError(path, f"game {game.index} was {game.result.split(' ')[0]}: its transcript holds part "
                                 f"of a game, nothing to play again")
    game.events = _events(lines, number)
    return game


def _side(read: "fixtures._HeaderReader", key: str, cwd_key: str, path: Path) -> Side:
    text = read.need(key)
    m = re.fullmatch(r"([A-Z]), (\S+): (.+)", text)
    if m is None:
        raise FixtureError(path, f"{key}: expected 'LETTER, SEAT: COMMAND', got {text!r}")
    try:
        argv = shlex.split(m[3])
    except ValueError as exc:
        raise FixtureError(path, f"{key}: {exc}") from None
    return Side(m[1], m[2], argv, read.one(cwd_key) or ".")


def _events(lines: list[str], start: int) -> list[tuple[int, str, str]]:
    """(line number, mark, text) of each event; a line that is none continues the one before
    (a finding's message over several lines), but for the lines the transcript ends with
    after its events (stderr not kept, the `# board:` line for viewers)."""
    out: list[tuple[int, str, str]] = []
    for number, line in enumerate(lines[start - 1:], start):
        m = _EVENT.match(line)
        if m is not None:
            out.append((number, m[1], m[2]))
        elif out and line and not _STDERR_NOT_KEPT.match(line) and not line.startswith(BOARD_PREFIX):
            n, mark, text = out[-1]
            out[-1] = (n, mark, text + "\n" + line)
    return out


# -- one bot's side, as a fixture -------------------------------------------------------------

def pick(game: MatchGame, bot: str | None, seat: str | None, titles: dict[str, str] | None = None) -> int:
    """The side (0: the referee's bot, 1: the other seat's) that --bot or --seat names;
    `titles`: seat title -> seat name (--seat takes either, as check's does); ValueError
    says what is wrong."""
    letters = [s.letter for s in game.sides]
    seats = [s.seat for s in game.sides]
    if seat is not None and titles and seat.lower() not in seats:
        seat = titles.get(seat.lower(), seat)
    if bot is None and seat is None:
        raise ValueError(f"a match game has two bots: --bot {letters[0]} or --bot {letters[1]} (or --seat "
                         f"{seats[0]} or --seat {seats[1]}) says which plays again")
    if bot is not None and bot.upper() not in letters:
        raise ValueError(f"--bot {bot}: the bots of this game are {letters[0]} and {letters[1]}")
    if seat is not None and seat.lower() not in seats:
        named = {name: title for title, name in (titles or {}).items() if title != name}
        shown = [f"{s} ({named[s]})" if s in named else s for s in seats]
        raise ValueError(f"--seat {seat}: the seats of this game are {shown[0]} and {shown[1]}")
    side = letters.index(bot.upper()) if bot is not None else seats.index(seat.lower())  # type: ignore[union-attr]
    if bot is not None and seat is not None and seats[side] != seat.lower():
        raise ValueError(f"--bot {bot} --seat {seat}: {letters[side]} played {seats[side]} in this game")
    return side


def seat_titles(game: MatchGame) -> dict[str, str]:
    """The game's seat titles (lower case) -> seat names ("white" -> "w" in Impasse); {}
    when its spec cannot be read (fixture_of says why)."""
    from ..judge.spec import load as load_spec

    try:
        spec_path = game.path.parent / game.spec if game.spec is not None else _bundled(game)
        spec = load_spec(spec_path, list(game.overrides))
    except Exception:  # the spec's error is told by fixture_of, with the file's name
        return {}
    return {spec.seat_title(i).lower(): name for i, name in enumerate(spec.game.seats)}


def fixture_of(game: MatchGame, side: int) -> fixtures.Fixture:
    """One bot's side of the game as a fixture (the other side's moves are its recorded
    opponent moves), what to tell about it in `told`."""
    from ..judge.spec import bind, load as load_spec

    me, other = game.sides[side], game.sides[1 - side]
    spec_path = game.path.parent / game.spec if game.spec is not None else _bundled(game)
    spec = load_spec(spec_path, list(game.overrides))
    _, rules = bind(spec)
    if me.seat not in spec.game.seats:
        raise FixtureError(game.path, f"seat {me.seat!r}: {spec.name} has the seats {', '.join(spec.game.seats)}")
    seat = spec.game.seats.index(me.seat)
    position = rules.parse(game.position) if game.position is not None else rules.initial()
    for move in game.opening:
        position = position.play(move)
    mine, theirs = [], []
    for move in game.played:
        (mine if position.turn() == seat else theirs).append(move)
        position = position.play(move)
    # the other bot's forfeit ended the game: the replay stops after the live bot's last answer
    other_forfeited = game.opponent_forfeited is not None if side == 0 else game.result.startswith("forfeit")
    header = Header(
        seat=me.seat, seed=game.seed, bot=list(me.argv), game=game.game, spec=game.spec, index=game.index,
        cwd=me.cwd, time_scale=game.time_scale, start_delay=game.start_delay, overrides=list(game.overrides),
        position=game.position, moves=list(game.opening), opponent_moves=theirs,
        max_turns=len(mine) if other_forfeited else None)
    numbers, body = _dialogue(game, spec, side, len(mine) if other_forfeited else None)
    mine_title, other_title = spec.seat_title(me.seat), spec.seat_title(other.seat)
    if game.origin == CHECK_ORIGIN:  # A is the checked bot, B the opponent
        roles = ("the checked bot", "the opponent's") if side == 0 else ("the opponent", "the checked bot's")
        told = [f"{me.letter} ({mine_title}, {roles[0]}) plays again; {other.letter}'s moves ({other_title}, "
                f"{roles[1]}) are the record's"]
    else:
        told = [f"{me.letter} ({mine_title}) plays again; {other.letter}'s moves ({other_title}) are the record's"]
    if other_forfeited:
        told.append(f"{other.letter} forfeited the recorded game: the replay stops after {me.letter}'s "
                    f"{len(mine)} recorded answer(s)")
    return fixtures.Fixture(game.path, header, body, first_line=numbers[0] if numbers else 1, numbers=numbers,
                            told=told, kind=game.kind)


def _bundled(game: MatchGame) -> Path:
    from .. import games

    try:
        return games.game(game.game or "").spec
    except games.GameError as exc:
        raise FixtureError(game.path, str(exc)) from None


def _dialogue(game: MatchGame, spec: Spec, side: int, stop_after: int | None) -> tuple[list[int], list[str]]:
    """The side's dialogue as `fixtures.dialogue` writes a game of its own, and the line
    number of each line in the transcript."""
    prefix = f"[{OPPONENT_LABEL}] "
    masks = _clock_masks(spec)
    masked: dict[str, str] = {}
    numbers: list[int] = []
    out: list[str] = []
    end: list[str] = []  # the game's end as the side's own game would say it

    def keep(number: int, line: str) -> None:
        numbers.append(number)
        out.append(line)

    for number, mark, text in game.events:
        marked = text.startswith(prefix)
        mine = marked == (side == 1)
        if marked:
            text = text[len(prefix):]
        if mark == "#" and not marked:  # the referee's notes: the game's end
            if text.startswith(("game over after ", "game stopped after ")):
                if stop_after is not None or (side == 1 and game.opponent_forfeited is not None):
                    plies = text.split(" plies", 1)[0].rsplit(" ", 1)[-1]
                    if stop_after is not None:
                        end.append(f"game stopped after {plies} plies: "
                                   f"the judge stops after {stop_after} answer(s) of the bot")
                    continue
                keep(number, f"# {text}")
            continue
        if not mine:
            continue
        if mark == ">":
            line = _masked(text, masks)
            if line != text:
                masked[text] = line
            keep(number, f"> {line}")
        elif mark == "<":
            m = _ANSWER_TIME.match(text)
            keep(number, f"< {m[1] if m else text}")
        elif mark in "FW":
            m = fixtures._FINDING.match(text)
            if m is None or fixtures.left_out(mark, m):  # as fixtures.dialogue leaves them out
                continue
            keep(number, f"{mark} {m['kind']}: {fixtures._steady(m['message'], masked)}")
    if stop_after is not None and not end:  # the other bot forfeited before the game began
        plies = len(game.opening) + len(game.played)
        end.append(f"game stopped after {plies} plies: the judge stops after {stop_after} answer(s) of the bot")
    last = numbers[-1] if numbers else 1
    for line in end:
        keep(last, f"# {line}")
    keep(last, f"# result: {_result(game, side, stop_after)}")
    return numbers, out


def _result(game: MatchGame, side: int, stop_after: int | None) -> str:
    """The result note of the side's own game: the referee's bot's result as recorded, the
    other seat's turned round."""
    if stop_after is not None:
        return f"stopped (the judge stops after {stop_after} answer(s) of the bot)"
    if side == 0:
        return game.result
    if game.opponent_forfeited is not None:
        return f"forfeit ({game.opponent_forfeited})"
    result, _, reason = game.result.partition(" ")
    return {"win": "loss", "loss": "win"}.get(result, result) + (f" {reason}" if reason else "")


def _clock_masks(spec: Spec) -> list[tuple[re.Pattern[str], tuple[int, ...]]]:
    """A pattern for each of the spec's templates that sends a clock value, and which of
    its groups are clock values (masked as `<time>`, as a fixture has them)."""
    templates: list[str] = []
    for section in (spec.start, spec.turn, spec.after_move, spec.end):
        for value in section.values():
            for item in ([value] if isinstance(value, str) else value if isinstance(value, (list, tuple)) else []):
                if isinstance(item, str) and ("{clock}" in item or "{opponent_clock}" in item):
                    templates.append(item)
    out = []
    for template in dict.fromkeys(templates):
        pattern, clocks, group = "", [], 0
        for literal, name, _, _ in string.Formatter().parse(template):
            pattern += re.escape(literal)
            if name is None:
                continue
            group += 1
            if name in ("clock", "opponent_clock"):
                pattern += r"(-?\d+)"
                clocks.append(group)
            else:
                pattern += r"(.*?)"
        out.append((re.compile(pattern, re.S), tuple(clocks)))
    return out


def _masked(line: str, masks: list[tuple[re.Pattern[str], tuple[int, ...]]]) -> str:
    for pattern, clocks in masks:
        m = pattern.fullmatch(line)
        if m is None:
            continue
        for group in sorted(clocks, reverse=True):
            line = line[:m.start(group)] + "<time>" + line[m.end(group):]
        return line
    return line


def expand(paths: Sequence[Path], matches: bool = False) -> list[Path]:
    """Files as given; for a folder, the fixtures in it (files that start as one does), and
    with `matches` the match games' transcripts."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.glob("*.txt")
                            if p.is_file() and (fixtures.is_fixture(p) or matches and is_match_game(p)))
            if not inside:
                raise FixtureError(path, "no fixtures in this folder (*.txt files starting with "
                                         f"{fixtures.MAGIC!r}" + (", or match games' transcripts)" if matches else ")"))
            found.extend(inside)
        else:
            found.append(path)
    return found
