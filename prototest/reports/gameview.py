"""One game as a viewer shows it, ply by ply: the position after each move, the move
that led there, the transcript lines of each ply, the bot's answer times and where it
failed. Built from a saved transcript (its `# board:` line, see prototest.sandbox.transcript), a
fixture (its header and dialogue, the moves found again by the rules) or a game report
still in memory; `prototest show` prints one ply of it, and prototest.reports.htmlpage draws it.

"Ply N" is the position after N moves from the game's start (the start is ply 0); the
transcript lines of ply N are those written from its move until the next move.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

from ..sandbox.transcript import BOARD_PREFIX

#: An event line of a saved transcript: "    1.031 <  e2e4" (time, mark, text).
_EVENT = re.compile(r"^\s*(?P<t>-?\d+\.\d+) (?P<mark>.)  ?(?P<text>.*)$")
#: The answer time a transcript writes after an answer: "e2e4      [28.9 ms]".
_ANSWER_TIME = re.compile(r"^(?P<text>.*?)\s*\[(?P<ms>\d+(?:\.\d+)?) ms\]$")
#: The prefix of the other seat's lines (a bot as the opponent; see prototest.judge.seat).
_SEAT_LINE = re.compile(r"^\[[^\]]+\] ")


class ViewError(Exception):
    """A file that cannot be shown: one line naming it and what is wrong."""


@dataclass
class Line:
    """One transcript line: its mark (`>`, `<`, `!`, `#`, `F`, `W`, or `h` for a header
    line), the text as written in the file, and the ply it belongs to."""

    mark: str
    text: str
    ply: int


@dataclass
class View:
    """A game ready to be shown (see the module's docstring)."""

    title: str
    game: str
    module: ModuleType | None
    rules: Any
    seat: int | None
    seat_name: str
    moves: list[str]
    #: positions[p]: the position after p moves (ply p); len(moves) + 1 of them
    positions: list[Any]
    lines: list[Line] = field(default_factory=list)
    #: (ply, move): a move of the bot the judge refused at that ply
    refused: list[tuple[int, str]] = field(default_factory=list)
    #: the bot's answer times: (ply answered at, ms)
    answers: list[tuple[int, float]] = field(default_factory=list)
    #: name -> the limit in ms ("answer", "first answer", "clock")
    limits: dict[str, float] = field(default_factory=dict)
    #: the ply of the first failure (else of the first warning), if any
    failing_ply: int | None = None
    #: the first FAIL (else WARN) line's text
    verdict: str | None = None
    #: what the failing ply marks: "failure" (a FAIL line, the bot's or its opponent's),
    #: "warning", "difference" (a replay's first difference), "" none
    marked: str = ""
    #: why the moves stop early (a move the rules refused on the way), else ""
    problem: str = ""
    #: the first `given` moves were played before the game (check --moves, a fixture's moves)
    given: int = 0
    #: what the page calls the bot and the other seat (a match: the bots' letters)
    names: dict[str, str] = field(default_factory=lambda: {"bot": "the bot", "opponent": "the opponent"})

    @property
    def last(self) -> int:
        return len(self.positions) - 1

    @property
    def opening_ply(self) -> int:
        """The ply a viewer opens at: the failing one, else the last."""
        return self.failing_ply if self.failing_ply is not None else self.last

    def mover(self, ply: int) -> str:
        """Who played the move that led to ply `ply` (1 or more): "bot", "opponent", or
        "given" (played before the game)."""
        if ply <= self.given:
            return "given" if ply >= 1 else ""
        if self.seat is None or ply < 1:
            return ""
        return "bot" if self.positions[ply - 1].turn() == self.seat else "opponent"

    def refused_by(self, ply: int) -> str:
        """Who answered the move refused at ply `ply`: "bot", or "opponent" (a bot in the
        other seat: a match's B)."""
        if self.seat is None or not 0 <= ply <= self.last:
            return "bot"
        return "bot" if self.positions[ply].turn() == self.seat else "opponent"

    def who(self, mover: str) -> str:
        """The words for "bot" or "opponent": "the bot", "the opponent" (a match's "A", "B")."""
        return self.names.get(mover, mover)

    def bad_at(self, ply: int) -> str | None:
        """The bot's refused move at this ply, if any (the first)."""
        return next((move for p, move in self.refused if p == ply), None)

    @property
    def result(self) -> str:
        """How the game ended, as its transcript says ("draw (insufficient material)"), or ""."""
        for line in reversed(self.lines):
            found = re.search(r"#  ?result: (.*)$", line.text)
            if found:
                return found[1]
        return ""

    def lines_at(self, ply: int) -> list[Line]:
        return [line for line in self.lines if line.ply == ply]

    def notation(self, ply: int) -> str:
        return self.positions[ply].notation()

    def diagram(self, ply: int) -> list[str]:
        """The position as the game's `diagram` draws it (else its board lines)."""
        position = self.positions[ply]
        draw = getattr(self.module, "diagram", None)
        return list(draw(position)) if draw is not None else list(position.board_lines())


# -- building views -------------------------------------------------------------------------

def load(path: Path) -> View:
    """A saved transcript or a fixture, as a view; ViewError says why not."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ViewError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ViewError(f"{path}: is a folder; give a transcript or a fixture file") from None
    except UnicodeDecodeError:
        raise ViewError(f"{path}: not UTF-8 text: not a transcript or a fixture") from None
    except OSError as exc:
        raise ViewError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if text.startswith("# prototest fixture:"):
        return from_fixture(path)
    if text.startswith("# prototest transcript:") or BOARD_PREFIX in text:
        return from_transcript(text, title=path.name)
    raise ViewError(f"{path}: not a prototest transcript or fixture (its first line is neither "
                    f"'# prototest transcript: ...' nor '# prototest fixture: 1')")


def from_transcript(text: str, *, title: str = "", module: ModuleType | None = None, rules: Any = None) -> View:
    """A saved transcript (or a report's `transcript.render()`) as a view. The rules come
    from its `# board:` line, unless given."""
    raw = text.splitlines()
    board = _board_data(raw)
    if board is None:
        raise ViewError(f"{title or 'the transcript'}: it has no '# board:' line (written by an older "
                        f"prototest, or cut short): its moves cannot be shown")
    if module is None or rules is None:
        module, rules = _rules(board, title)
    moves, problem, positions = _positions(rules, board["start"], board["moves"], title)
    at = board.get("at", [])[:len(moves)]
    view = View(title=title or _title(raw), game=board.get("game", ""), module=module, rules=rules,
                seat=board.get("seat"), seat_name=_seat_name(board), moves=moves, positions=positions,
                refused=[(p, m) for p, m in board.get("refused", [])],
                limits={k: float(v) for k, v in board.get("limits", {}).items()}, problem=problem,
                given=int(board.get("given", 0)))
    events = 0
    moved = 0
    for text_line in raw:
        if text_line.startswith(BOARD_PREFIX):
            continue
        m = _EVENT.match(text_line)
        if m is None:
            view.lines.append(Line("h", text_line, min(moved, view.last)))
            continue
        while moved < len(at) and at[moved] <= events:
            moved += 1
        ply = min(moved, view.last)
        mark, body = m["mark"], m["text"]
        view.lines.append(Line(mark, text_line, ply))
        events += 1
        if mark == "<" and not _SEAT_LINE.match(body):
            timed = _ANSWER_TIME.match(body)
            if timed:
                view.answers.append((ply, float(timed["ms"])))
        _verdict(view, mark, body, ply)
    return view


def from_report(report, module: ModuleType | None = None, rules: Any = None, *, title: str = "") -> View:
    """A game report still in memory (check, fuzz, replay, match) as a view."""
    return from_transcript(report.transcript.render(), title=title, module=module, rules=rules)


def from_fixture(path: Path) -> View:
    """A fixture as a view: its moves found again by walking its dialogue with the rules
    (the opponent's from the header, the bot's from its answer lines)."""
    from ..play import fixtures
    from ..judge import spec as specmod

    try:
        fixture = fixtures.load(path)
        h = fixture.header
        spec_path = fixture.folder / h.spec if h.spec is not None else fixtures._bundled(fixture, h.game or "")
        spec = specmod.load(spec_path, list(h.overrides))
        module, rules = specmod.bind(spec)
    except (fixtures.FixtureError, specmod.SpecError) as exc:
        raise ViewError(str(exc)) from None
    if h.seat not in spec.game.seats:
        raise ViewError(f"{path}: seat {h.seat!r}: {spec.name} has the seats {', '.join(spec.game.seats)}")
    seat = spec.game.seats.index(h.seat)
    start = rules.parse(h.position) if h.position is not None else rules.initial()
    moves, problem, positions = _positions(rules, start.notation(), list(h.moves), path.name)
    view = View(title=path.name, game=spec.name, module=module, rules=rules, seat=seat, seat_name=spec.seat_title(seat),
                moves=moves, positions=positions, problem=problem, given=len(moves))
    view.lines = [Line("h", line, view.last) for line in h.lines()]
    opponent = iter(h.opponent_moves)

    def opponents_turns() -> None:
        position = view.positions[-1]
        while not view.problem and position.outcome() is None and position.turn() != seat:
            move = next(opponent, None)
            if move is None:
                return
            if not _play(view, move):
                return
            position = view.positions[-1]

    opponents_turns()
    last_answer = None
    for text_line in fixture.body:
        mark, body = text_line[0], text_line[2:]
        ply = view.last
        if mark == "<" and not view.problem:
            last_answer = body
            if view.positions[-1].outcome() is None and view.positions[-1].turn() == seat:
                move = _answered_move(spec, view.positions[-1], body)
                if move is not None:
                    view.lines.append(Line(mark, text_line, ply))
                    _play(view, move)
                    opponents_turns()
                    continue
        if mark == "F" and last_answer is not None and body.startswith(("illegal_move:", "malformed:")):
            parsed = spec.parse_answer(last_answer)
            view.refused.append((ply, parsed[0] if parsed else last_answer))
        view.lines.append(Line(mark, text_line, ply))
        if mark in "FW":
            _verdict(view, mark, ("FAIL " if mark == "F" else "WARN ") + body, ply)
    return view


def _play(view: View, move: str) -> bool:
    try:
        view.positions.append(view.positions[-1].play(move))
    except Exception as exc:  # noqa: BLE001 - a rules module's refusal, whatever its type
        view.problem = f"move {len(view.moves) + 1} {move!r} cannot be played here ({exc}): the moves stop before it"
        return False
    view.moves.append(move)
    return True


def _answered_move(spec, position, answer: str) -> str | None:
    """The move the referee plays for an answer line of a fixture, or None when it
    refuses it (as prototest.judge.judging judges it: the grammar, the move, a prefix)."""
    parsed = spec.parse_answer(answer.rstrip(" \t") if not spec.read.comment_separator else answer)
    if parsed is None:
        parsed = spec.parse_answer(answer.strip())
    if parsed is None:
        return None
    move = parsed[0]
    try:
        return position.judge(move).move
    except Exception:  # noqa: BLE001 - IllegalMove, or a rules module's own error
        pass
    if spec.turn.match == "prefix":
        for candidate in position.legal_moves():
            if move.startswith(candidate):
                return candidate
    return None


def _verdict(view: View, mark: str, body: str, ply: int) -> None:
    """The first FAIL line sets the failing ply; a WARN line does until then."""
    if mark == "F" and view.marked != "failure":
        view.failing_ply, view.verdict, view.marked = ply, body, "failure"
    elif mark == "W" and view.verdict is None:
        view.failing_ply, view.verdict, view.marked = ply, body, "warning"


def _board_data(raw: Sequence[str]) -> dict | None:
    for line in reversed(raw):
        if line.startswith(BOARD_PREFIX):
            try:
                data = json.loads(line[len(BOARD_PREFIX):])
            except ValueError:
                return None
            return data if isinstance(data, dict) and "start" in data and "moves" in data else None
    return None


def _rules(board: dict, title: str) -> tuple[ModuleType, Any]:
    from ..games import rules_module

    try:
        module = rules_module(board["rules"])
        return module, module.make_rules(board.get("options") or {})
    except Exception as exc:  # noqa: BLE001 - an unknown game, a plugin not installed
        raise ViewError(f"{title or 'the transcript'}: its rules {board.get('rules')!r} cannot be loaded: {exc}") from None


def _positions(rules: Any, start: str, moves: Sequence[str], title: str) -> tuple[list[str], str, list[Any]]:
    """The positions after each move; a move the rules refuse ends them (said in the problem)."""
    try:
        positions = [rules.parse(start)]
    except Exception as exc:  # noqa: BLE001
        raise ViewError(f"{title or 'the transcript'}: its start position {start!r} cannot be read: {exc}") from None
    played: list[str] = []
    for number, move in enumerate(moves, 1):
        try:
            positions.append(positions[-1].play(move))
        except Exception as exc:  # noqa: BLE001
            return played, f"move {number} {move!r} cannot be played here ({exc}): the moves stop before it", positions
        played.append(move)
    return played, "", positions


def _seat_name(board: dict) -> str:
    """The bot's seat as people name it ("white" for Impasse's "w"; older lines: the seat)."""
    seats, seat = board.get("titles") or board.get("seats") or [], board.get("seat")
    return seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""


def _title(raw: Sequence[str]) -> str:
    first = raw[0] if raw else ""
    return first.removeprefix("# prototest transcript: ") or "game"
