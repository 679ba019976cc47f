"""Protocol specs: one TOML file per game under `specs/`, validated whole when loaded.

A spec says what is said on the wire and when (templates), the grammar of every answer,
the time limits, the silence rules, how a game ends and how much each fault matters. The
referee (`prototest.judge.referee`) reads only the validated `Spec`; nothing about a protocol
is hard-coded in Python beyond the rules of its game.

Every problem is reported as a `SpecError` naming the file, the key and the problem, in
one line, so the CLI can print it and exit with status 2.

This module holds the validated `Spec` and its loading: the file is read by
`prototest.judge.specfile` (TOML, `extends`, `--set`), each key checked against
`prototest.judge.specschema` (the keys, their checks and defaults), then the rules that join
several keys (`_cross_check`) and the rules module bound (`bind`). Their names are all
importable from here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .specfile import MAX_SPEC_BYTES, _read, apply_overrides, parse_value
from .specschema import (
    MAX_COUNT, MAX_MS, MOVED, MULTILINE_FIELDS, REMOVED, REQUIRED, SCHEMA, SEVERITIES, TEMPLATE_FIELDS, Hint,
    SpecError, _retired,
)
from .specschema import _shown  # noqa: F401 - prototest.commands.config's checks show integers as these do

__all__ = ["MAX_COUNT", "MAX_MS", "MAX_SPEC_BYTES", "MOVED", "MULTILINE_FIELDS", "REMOVED", "REQUIRED", "SCHEMA",
           "SEVERITIES", "TEMPLATE_FIELDS", "Hint", "Section", "Spec", "SpecError", "apply_overrides", "bind",
           "check_answer_format", "load", "parse_value", "spec_path_for"]

#: Section's attribute reading needs it (see there).
assert not any(hasattr(dict, key) for keys in SCHEMA.values() for key in keys), "a spec key named like a dict method"


class Section(dict):
    """A validated table: keys readable as attributes (`spec.time.clock_ms`). The table is
    its own attribute dictionary, so that reading one costs what reading any attribute does
    (the referee reads several per exchange); no key is named like a dict method."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.__dict__ = self

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass(frozen=True)
class Spec:
    path: str
    game: Section
    read: Section
    rules: dict[str, Any]
    start: Section
    turn: Section
    after_move: Section
    time: Section
    end: Section
    severity: Section
    opponent: Section
    envelope: Section
    #: The `--set` overrides applied over the file, as given: a recorded fixture names
    #: them so that it can be replayed against the same spec.
    overrides: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.game.name

    def seat_title(self, seat: int | str) -> str:
        """A seat (its index or its name) as the text for people names it: "white"
        for Impasse's "w", "player 1" for Halma's "1" (game.seat_titles)."""
        seats = list(self.game.seats)
        index = seats.index(seat) if isinstance(seat, str) and seat in seats else seat
        if not isinstance(index, int) or not 0 <= index < len(seats):
            return str(seat)
        titles = list(self.game.seat_titles)
        return titles[index] if len(titles) == len(seats) else seats[index]

    def parse_answer(self, text: str) -> tuple[str, str | None] | None:
        """The move and the comment the referee reads in an answer line (already framed
        and decoded), or None when it does not fit the grammar. The line is cut at the
        first read.comment_separator, and turn.answer reads the part before it; without
        a separator, turn.answer reads the whole line (its `comment` group, if any)."""
        sep = self.read.comment_separator
        comment = None
        if sep:
            text, found, rest = text.partition(sep)
            comment = rest if found else None
        match = self.turn.answer.fullmatch(text)
        if match is None:
            return None
        return match.group("move"), comment if sep else match.groupdict().get("comment")

    def answer_for(self, move: str) -> str:
        """A move written as an answer, as the `moves` command lists it."""
        return self.turn.answer_format.format(move=move)

    @property
    def sends_board(self) -> bool:
        """Whether a template sends `{board}` (the rules' positions then need board_lines)."""
        templates = [*self.start.send, *self.turn.first_send, *self.turn.send]
        return any("{board}" in t for t in templates)

    @property
    def sends_position(self) -> bool:
        """Whether the dialogue tells the bot the position (so it can start from any)."""
        templates = [*self.start.send, *self.turn.first_send, *self.turn.send]
        return any("{position}" in t or "{board}" in t for t in templates)


def _validate(path: str, data: dict[str, Any]) -> Spec:
    sections: dict[str, Any] = {}
    for section, keys in SCHEMA.items():
        raw = data.get(section, {})
        if not isinstance(raw, dict):
            raise SpecError(path, section, f"expected a table, got {raw!r}")
        if section == "rules":
            sections[section] = dict(raw)
            continue
        unknown = sorted(set(raw) - set(keys))
        _retired(path, section, unknown)
        if unknown:
            known = ", ".join(sorted(keys))
            raise SpecError(path, f"{section}.{unknown[0]}", f"unknown key (known: {known})")
        values = Section()
        for key, (check, default) in keys.items():
            if key not in raw:
                if default is REQUIRED:
                    raise SpecError(path, f"{section}.{key}", "missing")
                values[key] = default
                continue
            try:
                values[key] = check(raw[key])
            except ValueError as exc:
                raise SpecError(path, f"{section}.{key}", str(exc)) from None
        sections[section] = values
    unknown_sections = sorted(set(data) - set(SCHEMA))
    for section in unknown_sections:
        if isinstance(data[section], dict):
            _retired(path, section, data[section])
    if unknown_sections:
        known = ", ".join(SCHEMA)
        raise SpecError(path, unknown_sections[0], f"unknown section (known: {known})")
    spec = Spec(path=path, **sections)
    _cross_check(spec)
    return spec


def _cross_check(spec: Spec) -> None:
    """Rules that join several keys."""
    seats = spec.game.seats
    if len(seats) != 2 or seats[0] == seats[1]:
        raise SpecError(spec.path, "game.seats", f"needs exactly two different seat names, got {list(seats)}")
    titles = spec.game.seat_titles
    if titles and (len(titles) != len(seats) or titles[0] == titles[1]):
        raise SpecError(spec.path, "game.seat_titles", f"needs one different title per seat, got {list(titles)}")
    t = spec.time
    if t.clock_ms == 0 and t.answer_ms == 0:
        raise SpecError(spec.path, "time", "needs a clock (clock_ms) or a limit per answer (answer_ms)")
    if t.statement_answer_ms and t.answer_ms and t.statement_answer_ms > t.answer_ms:
        raise SpecError(spec.path, "time.statement_answer_ms", "must not exceed time.answer_ms")
    if t.clock_max and t.clock_ms // t.clock_unit_ms > t.clock_max:
        raise SpecError(
            spec.path, "time.clock_ms",
            f"{t.clock_ms} ms is {t.clock_ms // t.clock_unit_ms} units, over time.clock_max {t.clock_max}",
        )
    if spec.start.handshake and not spec.start.handshake_ms:
        raise SpecError(spec.path, "start.handshake_ms", "a handshake needs a time limit")
    if spec.start.ahead and spec.start.handshake:
        raise SpecError(spec.path, "start.ahead", "a bot started ahead of its game cannot be timed to its "
                                                  "handshake (read when the game starts): not with start.handshake")
    if spec.turn.on_illegal == "forfeit" and not spec.turn.denied and spec.turn.accepted:
        raise SpecError(spec.path, "turn.denied", "accepted replies are sent, so a denied reply is needed too")
    read = spec.read
    if read.strip_cr and read.line_end == "cr_lf":
        raise SpecError(spec.path, "read.strip_cr", 'with read.line_end = "cr_lf" a \\r ends the line: '
                                                    "there is none left to strip")
    if spec.turn.comment_max and not read.comment_separator:
        raise SpecError(spec.path, "turn.comment_max", "a comment needs read.comment_separator")
    if any(c in "\r\n" for c in read.referee_line_ends):
        raise SpecError(spec.path, "read.referee_line_ends", "\\r and \\n are read.line_end's business")


def _has_board(rules: Any) -> bool:
    try:
        return bool(rules.initial().board_lines())
    except NotImplementedError:
        return False


def check_answer_format(spec: Spec, move: str) -> None:
    """turn.answer_format must write a move (`move`, a legal one) as an answer that
    turn.answer reads back as the same move: otherwise `moves` would list answers the
    judge refuses."""
    answer = spec.answer_for(move)
    read = spec.parse_answer(answer)
    if read is None or read[0] != move:
        raise SpecError(spec.path, "turn.answer_format",
                        f"writes the move {move!r} as {answer!r}, which turn.answer does not read back as {move!r}")


def load(path: str | Path, overrides: list[str] | None = None) -> Spec:
    """Read and validate a spec file."""
    path = str(path)
    data = _read(path)
    apply_overrides(data, overrides or [], path)
    return dataclasses.replace(_validate(path, data), overrides=tuple(overrides or ()))


def spec_path_for(game: str) -> Path:
    """The spec of a registered game; SpecError (the game as its path) when there is none."""
    from .. import games

    try:
        return games.game(game).spec
    except games.GameError as exc:
        raise SpecError(game, "", str(exc).removeprefix(f"game {game!r}: ")) from None


def bind(spec: Spec) -> tuple[ModuleType, Any]:
    """The spec's rules module and its rules (configured by `[rules]`); SpecError names
    the key of a bad rules module, rules option or opponent style."""
    from ..games import opponents
    from ..games import OptionError, rules_module
    from ..games.base import rules_problem

    try:
        module = rules_module(spec.game.rules)
        rules = module.make_rules(spec.rules)
    except OptionError as exc:
        raise SpecError(spec.path, f"rules.{exc.key}", exc.problem) from None
    except ValueError as exc:
        raise SpecError(spec.path, "game.rules", str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a plugin's own bug, said in one line
        raise SpecError(spec.path, "game.rules", f"{spec.game.rules}: make_rules raised "
                                                 f"{type(exc).__name__}: {exc}") from None
    problem = rules_problem(rules)
    if not problem and spec.sends_board and not _has_board(rules):
        problem = "its positions lack board_lines(), and the spec sends {board}"
    if problem:
        raise SpecError(spec.path, "game.rules", f"{spec.game.rules}: {problem}")
    problem = opponents.check_style(module, spec.opponent.style)
    if problem:
        raise SpecError(spec.path, "opponent.style", problem)
    check_answer_format(spec, rules.initial().legal_moves()[0])
    return module, rules
