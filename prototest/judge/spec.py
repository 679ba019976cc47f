"""Protocol specs: one TOML file per game under `specs/`, validated whole when loaded.

A spec says what is said on the wire and when (templates), the grammar of every answer,
the time limits, the silence rules, how a game ends and how much each fault matters. The
referee (`prototest.judge.referee`) reads only the validated `Spec`; nothing about a protocol
is hard-coded in Python beyond the rules of its game.

Every problem is reported as a `SpecError` naming the file, the key and the problem, in
one line, so the CLI can print it and exit with status 2.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

SEVERITIES = ("fail", "warn", "ignore")
#: A spec is a short text; anything longer is not one (and is not read into memory).
MAX_SPEC_BYTES = 1 << 20

#: Fields a template may use; "{board}" and "{legal_moves}" may only fill a whole line.
TEMPLATE_FIELDS = frozenset(
    {"seat", "last_move", "move", "clock", "opponent_clock", "position", "legal_count"}
)
MULTILINE_FIELDS = frozenset({"board", "legal_moves"})


class SpecError(ValueError):
    """A spec that cannot be used: `str()` is the one line the CLI prints."""

    def __init__(self, path: str | Path, key: str, problem: str) -> None:
        where = f"{path}: {key}" if key else str(path)
        super().__init__(f"{where}: {problem}")
        self.path = str(path)
        self.key = key
        self.problem = problem


# --- the schema -----------------------------------------------------------------------
# Each key: (checker, default). A default of REQUIRED means the key must be present.

REQUIRED = object()


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"expected a string, got {v!r}")
    return v


def _nonempty_str(v: Any) -> str:
    if not _str(v):
        raise ValueError("must not be empty")
    return v


def _game_name(v: Any) -> str:
    """A game's name: it names files and folders (transcripts, fixtures), so the rule
    --game applies (a spec may come from someone else: `../..` must never put a
    transcript outside its folder)."""
    from ..games.base import name_problem, shown

    problem = name_problem(v)
    if problem:
        raise ValueError(f"{problem}; got {shown(v)}")
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"expected true or false, got {v!r}")
    return v


#: The largest time a spec may give, in milliseconds (a day): anything longer is a typo, and
#: a number beyond a float's range would break the arithmetic of time limits.
MAX_MS = 86_400_000
#: The largest count or size a spec may give (bytes of a line, plies, units).
MAX_COUNT = 1 << 30


def _shown(v: int) -> str:
    """An integer as a message shows it: a 400-digit one is not printed whole."""
    text = str(v)
    return text if len(text) <= 24 else f"a {len(text)}-digit number"


def _int_at_least(low: int, high: int = MAX_COUNT) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"expected an integer, got {v!r}")
        if v < low:
            raise ValueError(f"must be at least {low}, got {_shown(v)}")
        if v > high:
            raise ValueError(f"must be at most {high:,}, got {_shown(v)}")
        return v

    return check


def _ms(low: int = 0) -> Callable[[Any], int]:
    """A time in milliseconds, at most a day."""
    return _int_at_least(low, MAX_MS)


def _choice(*options: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if v not in options:
            raise ValueError(f"must be one of {', '.join(options)}; got {v!r}")
        return v

    return check


def _share(v: Any) -> float:
    """A share of CPUs (0.3: 30 ms of CPU time per 100 ms); 0 for no limit."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"expected a number of CPUs (0.3), got {v!r}")
    if not 0 <= v <= 1024:
        raise ValueError(f"must be between 0 and 1024 CPUs, got {v!r}")
    return float(v)


def _regex(v: Any) -> re.Pattern[str]:
    try:
        return re.compile(_str(v))
    except re.error as exc:
        raise ValueError(f"not a valid regular expression: {exc}") from None


def _answer_regex(v: Any) -> re.Pattern[str]:
    pattern = _regex(v)
    if "move" not in pattern.groupindex:
        raise ValueError("the answer pattern needs a named group (?P<move>...)")
    return pattern


def _fields_of(text: str) -> list[str]:
    """The field names of a format string; plain `{name}` only (no `!r`, no `:>5`), so
    that filling it can never fail at run time."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise ValueError(f"bad template {text!r}: {exc}") from None
    names = []
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name:
            raise ValueError(f"an empty field {{}} in {text!r}: name the field")
        if spec or conversion:
            raise ValueError(f"field {{{name}}} in {text!r} takes no conversion or format spec")
        names.append(name)
    return names


def _template(v: Any) -> str:
    text = _str(v)
    stripped = text.strip()
    if stripped in ("{board}", "{legal_moves}"):
        return text
    names = _fields_of(text)
    for name in names:
        if name in MULTILINE_FIELDS:
            raise ValueError(f"{{{name}}} must fill a whole line, in {text!r}")
        if name not in TEMPLATE_FIELDS:
            known = ", ".join(sorted(TEMPLATE_FIELDS | MULTILINE_FIELDS))
            raise ValueError(f"unknown field {{{name}}} in {text!r} (known: {known})")
    return text


def _list_of(item: Callable[[Any], Any], *, min_len: int = 0) -> Callable[[Any], tuple]:
    def check(v: Any) -> tuple:
        if not isinstance(v, list):
            raise ValueError(f"expected a list, got {v!r}")
        if len(v) < min_len:
            raise ValueError(f"needs at least {min_len} entries")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(item(x))
            except ValueError as exc:
                raise ValueError(f"entry {i}: {exc}") from None
        return tuple(out)

    return check


def _separator(v: Any) -> str:
    text = _str(v)
    if len(text) > 1:
        raise ValueError(f"one character or none, got {text!r}")
    return text


def _answer_format(v: Any) -> str:
    text = _str(v)
    if _fields_of(text) != ["move"]:
        raise ValueError(f"needs the field {{move}} exactly once and no other, in {text!r}")
    return text


def _table(v: Any) -> dict:
    if not isinstance(v, dict):
        raise ValueError(f"expected a table, got {v!r}")
    return v


@dataclass(frozen=True)
class Hint:
    pattern: re.Pattern[str]
    message: str


def _hints(v: Any) -> tuple[Hint, ...]:
    if not isinstance(v, list):
        raise ValueError("expected an array of tables [[turn.hints]]")
    hints = []
    for i, entry in enumerate(v):
        if not isinstance(entry, dict) or set(entry) != {"pattern", "message"}:
            raise ValueError(f"entry {i}: needs exactly the keys pattern and message")
        try:
            pattern = _regex(entry["pattern"])
        except ValueError as exc:
            raise ValueError(f"entry {i}: {exc}") from None
        message = _str(entry["message"])
        try:
            names = _fields_of(message)
        except ValueError as exc:
            raise ValueError(f"entry {i}: {exc}") from None
        for name in names:
            if name not in pattern.groupindex:
                raise ValueError(f"entry {i}: message uses {{{name}}}, not a group of its pattern")
        hints.append(Hint(pattern, message))
    return tuple(hints)


_severity = _choice(*SEVERITIES)

SCHEMA: dict[str, dict[str, tuple[Callable[[Any], Any], Any]]] = {
    "game": {
        "name": (_game_name, REQUIRED),
        "title": (_str, ""),
        "rules": (_nonempty_str, REQUIRED),
        "seats": (_list_of(_nonempty_str, min_len=2), REQUIRED),
        # The seats as the text for people names them ("white" for the wire's "w",
        # "player 1" for "1"); default: the seat names.
        "seat_titles": (_list_of(_nonempty_str, min_len=2), ()),
    },
    # How the referee reads the bot's output, byte by byte (see docs/games/index.md, "Reading the
    # bot's line"): what ends a line, how long one may be, how bytes become text, where
    # the move ends, and what happens to output written between turns.
    "read": {
        # "lf": only \n ends a line; "cr_lf": \r, \n and \r\n each end one (the \n of a
        # \r\n is skipped), so a lone \r inside a line splits it in two.
        "line_end": (_choice("lf", "cr_lf"), "lf"),
        # With "lf": one \r right before the \n is removed (a warning, severity.crlf);
        # otherwise it stays on the line and the referee sees it.
        "strip_cr": (_bool, False),
        # The most bytes of one answer, its line end included; going over is a timeout
        # (the referee waits for a line end that never counts) or a malformed line.
        "max_bytes": (_int_at_least(8, 1 << 26), 4097),
        "over_max": (_choice("malformed", "timeout"), "malformed"),
        # "strict": bytes that are not UTF-8 are refused; "replace": they become U+FFFD
        # and the move still counts (a warning, severity.invalid_utf8).
        "decode": (_choice("strict", "replace"), "strict"),
        # The character that ends the move and starts a comment ("": no comments).
        "comment_separator": (_separator, ""),
        # Characters the referee's own reader also ends a line at, after decoding: the
        # rest of the line is left for its next read, which it breaks.
        "referee_line_ends": (_str, ""),
        # Output written between the bot's turns: "out_of_turn" (a failure, the referee
        # reads all the time) or "answer" (read as the bot's next answer).
        "between_turns": (_choice("out_of_turn", "answer"), "out_of_turn"),
    },
    "rules": {},  # free-form: checked by the rules module itself
    "start": {
        "silent_ms": (_ms(), 0),
        # The judge's first line comes an unspecified time after the bot's start-up, so a
        # bot may be started before its game: `check` starts the next game's bot while a
        # game is played (one game at a time, a core to spare), its start-up not waited for.
        "ahead": (_bool, False),
        "handshake": (_str, ""),
        "handshake_ms": (_ms(), 0),
        "send": (_list_of(_template), ()),
    },
    "turn": {
        "first_send": (_list_of(_template), ()),
        "send": (_list_of(_template), REQUIRED),
        "no_last_move": (_str, ""),
        "answer": (_answer_regex, REQUIRED),
        "answer_help": (_str, "a move"),
        "match": (_choice("exact", "prefix"), "exact"),
        "random_keyword": (_str, ""),
        "comment_max": (_int_at_least(0, 1 << 26), 0),
        # How the `moves` command writes a move as an answer: "move {move}" for Halma.
        "answer_format": (_answer_format, "{move}"),
        "accepted": (_list_of(_template), ()),
        "denied": (_list_of(_template), ()),
        "on_illegal": (_choice("forfeit", "retry"), "forfeit"),
        "hints": (_hints, ()),
    },
    "after_move": {
        "own": (_list_of(_template), ()),
        "opponent": (_list_of(_template), ()),
    },
    "time": {
        "clock_ms": (_ms(), 0),
        "clock_unit_ms": (_ms(1), 1),
        "clock_max": (_int_at_least(0), 0),
        "first_answer_ms": (_ms(), 0),
        "answer_ms": (_ms(), 0),
        "statement_answer_ms": (_ms(), 0),
        "near_limit_percent": (_int_at_least(1, 100), 90),
        "grace_ms": (_ms(), 0),
        "grace_count": (_int_at_least(0), 0),
    },
    "end": {
        "exit_grace_ms": (_ms(), 1000),
    },
    "severity": {
        "crlf": (_severity, "warn"),
        "trailing_space": (_severity, "warn"),
        "no_exit": (_severity, "warn"),
        "exit_status": (_severity, "warn"),
        "output_after_end": (_severity, "warn"),
        "slow": (_severity, "warn"),
        "prefix_match": (_severity, "warn"),
        "random": (_severity, "warn"),
        "comment_too_long": (_severity, "warn"),
        # An answer that fits the grammar once its whitespace is tidied (leading blanks,
        # two spaces, a tab). "fail" unless the spec says its referee splits on whitespace.
        "loose_whitespace": (_severity, "fail"),
        # Bytes that are not UTF-8, decoded as U+FFFD (read.decode = "replace").
        "invalid_utf8": (_severity, "warn"),
        # A loss the referee reports as the player's error (Halma's blocker rule).
        "rule_loss": (_severity, "warn"),
        # A file the bot (or a process of its) creates, writes, renames or deletes.
        "file_operation": (_severity, "warn"),
        # The same, done by the bot's language runtime for itself: Python's bytecode cache
        # (__pycache__), the JVM's performance data (hsperfdata).
        "runtime_cache": (_severity, "warn"),
        # The platform's envelope ([envelope]): memory over envelope.memory_mb, an answer that
        # would be late under envelope.cpu_share, processes and threads over envelope.pids,
        # and any attempt to reach the network (a connect, a datagram sent).
        "memory": (_severity, "fail"),
        "cpu_share": (_severity, "fail"),
        "processes": (_severity, "fail"),
        "network": (_severity, "warn"),
    },
    # What the platform gives a bot besides the protocol (docs/envelope.md).
    # 0 is no limit. `--platform none` turns the whole table off for a run.
    "envelope": {
        "platform": (_str, ""),                          # named in findings ("Proglad")
        "memory_mb": (_int_at_least(0, 1 << 22), 0),     # the cgroup memory limit (RSS + page cache)
        "cpu_share": (_share, 0.0),                      # CPUs, as docker --cpus: a CFS quota
        "cpu_period_ms": (_int_at_least(1, 1000), 100),  # the CFS period the quota is counted in
        "pids": (_int_at_least(0, 1 << 22), 0),          # processes and threads together
        "network": (_choice("allowed", "none"), "allowed"),  # "none": a network namespace of the bot's own
        "near_limit_percent": (_int_at_least(1, 100), 90),   # a WARN from this share of a limit
    },
    "opponent": {
        # "swarm" draws a style (and move classes never played) per game from the rules
        # module's STYLES; a style's name fixes it (checked against the module at load).
        "style": (_nonempty_str, "swarm"),
    },
}


#: Keys that moved, and what to write instead (a spec of one's own may still use them).
MOVED = {
    ("game", "max_line_bytes"): "read.max_bytes (the line end included: one more byte)",
    ("game", "cr_ends_line"): 'read.line_end = "cr_lf"',
}
#: Keys that are gone, and what to use instead (a spec of one's own may still have them).
REMOVED = {
    ("fuzz", "max_plies"): "a fuzz game ends at the game's end or turn limit (rules.max_plies), or after "
                           "fuzz --max-plies N plies (this key never changed a run); delete the [fuzz] table",
}


def _retired(path: str, section: str, keys: Any) -> None:
    """A SpecError for the first key of `keys` that moved or was removed, if any."""
    for key in sorted(keys):
        if (section, key) in MOVED:
            raise SpecError(path, f"{section}.{key}", f"moved: write {MOVED[section, key]}")
        if (section, key) in REMOVED:
            raise SpecError(path, f"{section}.{key}", f"removed: {REMOVED[section, key]}")


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


def parse_value(text: str) -> Any:
    """Read an override value as TOML (`100`, `"legal"`, `["a"]`); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_overrides(data: dict[str, Any], overrides: list[str], path: str) -> None:
    """Apply `section.key=value` overrides (the CLI's --set) before validation."""
    for item in overrides:
        key, sep, value = item.partition("=")
        section, dot, name = key.strip().partition(".")
        if not sep or not dot or not section or not name:
            raise SpecError(path, key or item, "an override is written section.key=value")
        table = data.setdefault(section, {})
        if not isinstance(table, dict):
            raise SpecError(path, section, "is not a table")
        table[name] = parse_value(value.strip())


def _read(path: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """Read a TOML file, following `extends = "base.toml"` (relative to the file):
    the file's tables are merged over its base's, key by key."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise SpecError(path, "", "not a regular file: a spec is a TOML file")
        if info.st_size > MAX_SPEC_BYTES:
            raise SpecError(path, "", f"{info.st_size} bytes: a spec is at most {MAX_SPEC_BYTES} bytes")
        with open(path, "rb") as fh:
            data = tomllib.loads(fh.read(MAX_SPEC_BYTES + 1).decode("utf-8"))
    except FileNotFoundError:
        raise SpecError(path, "", "no such spec file") from None
    except OSError as exc:
        raise SpecError(path, "", f"cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(path, "", f"not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SpecError(path, "", f"not UTF-8 text (byte {exc.start}): a spec is a TOML file") from None
    base = data.pop("extends", None)
    if base is None:
        return data
    if not isinstance(base, str):
        raise SpecError(path, "extends", f"expected a file name, got {base!r}")
    base_path = str(Path(path).parent / base)
    if base_path in seen:
        raise SpecError(path, "extends", f"{base!r} extends itself in a cycle")
    merged = _read(base_path, seen + (path,))
    for section, table in data.items():
        if isinstance(table, dict) and isinstance(merged.get(section), dict):
            merged[section] = {**merged[section], **table}
        else:
            merged[section] = table
    return merged


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
