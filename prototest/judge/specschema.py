"""The keys a spec may have: each key's check and default (`SCHEMA`), the fields a template
may use, and the keys that moved or were removed. A check turns a TOML value into the
value the referee reads, or says in a ValueError what is wrong with it; the spec's loading
(`prototest.judge.spec`) names the file and the key.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

SEVERITIES = ("fail", "warn", "ignore")
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
