"""The bot's own settings: `prototest.toml`, or a `[tool.prototest]` table in pyproject.toml.

A bot's repository says once which game its bot plays and how to start it, so that
`prototest check` with no argument does the right thing there and in its CI. The file is
looked for in the current folder and then in each folder above it; the first one found
wins (a prototest.toml before a pyproject.toml in the same folder; a pyproject.toml
without the table is passed over). Every command-line option overrides the file.

    game = "halma"                  # or spec = "specs/mine.toml" (relative to this file)
    bot = ["python3", "bot.py"]     # or one string, split as a shell would: "python3 bot.py"
    games = 4
    max_fail = 2                    # check stops once 2 games failed the same way (0: play them all)
    seed = 7
    time_scale = 2.0
    env = { RUST_BACKTRACE = "1" }
    set = { "time.clock_ms" = 60000 }   # or ["time.clock_ms=60000"], like --set

The file is validated whole when it is read: an unknown key or a wrong type is a
`ConfigError` naming the file and the key, in one line (exit status 2 at the CLI). The
bot named in the file runs in the file's folder, so a relative path in its command means
the same wherever prototest is started.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..judge import spec as specmod

CONFIG_FILE = "prototest.toml"
PYPROJECT = "pyproject.toml"
#: A config is a short text; a bigger file is not one (and is not read into memory).
MAX_BYTES = 1 << 20


class ConfigError(ValueError):
    """A config file that cannot be used: `str()` is the one line the CLI prints."""

    def __init__(self, path: str | Path, key: str, problem: str) -> None:
        super().__init__(f"{path}: {key}: {problem}" if key else f"{path}: {problem}")
        self.path = str(path)
        self.key = key
        self.problem = problem


@dataclass(frozen=True)
class Config:
    path: Path  # the file read
    game: str | None = None
    spec: Path | None = None  # made absolute against the file's folder
    bot: tuple[str, ...] | None = None
    games: int | None = None
    #: check's --max-fail (see prototest.play.failfast)
    max_fail: int | None = None
    seed: int | None = None
    time_scale: float | None = None
    env: dict[str, str] = field(default_factory=dict)
    #: Spec overrides as --set takes them ("section.key=value"), in the file's order.
    overrides: tuple[str, ...] = ()

    @property
    def folder(self) -> Path:
        """Where relative paths in the file point, and where its bot runs."""
        return self.path.parent

    @property
    def where(self) -> str:
        """'/repo/prototest.toml', or '/repo/pyproject.toml [tool.prototest]'."""
        return str(self.path) + (" [tool.prototest]" if self.path.name == PYPROJECT else "")


# --- the schema ---------------------------------------------------------------------------

def _game(v: Any) -> str:
    from .. import games

    problem = games.name_problem(v)
    if problem:
        raise ValueError(f"{problem}; got {games.shown(v)}")
    if v not in games.names():
        raise ValueError(f"unknown game {v!r}{games.did_you_mean(v)} (known: {games.known()}; "
                         f"a spec of your own goes to spec)")
    return v


def _path(v: Any) -> str:
    if not isinstance(v, str) or not v:
        raise ValueError(f"expected a file path, got {v!r}")
    return v


def _bot(v: Any) -> tuple[str, ...]:
    if isinstance(v, str):
        try:
            words = shlex.split(v)
        except ValueError as exc:
            raise ValueError(f"cannot split {v!r} as a shell would: {exc}") from None
    elif isinstance(v, list) and all(isinstance(w, str) for w in v):
        words = list(v)
    else:
        raise ValueError(f"expected a command: a list of strings or one string, got {v!r}")
    if not words or not words[0]:
        raise ValueError("the command is empty")
    return tuple(words)


#: More games than this is a typo (as --games's own limit).
MAX_GAMES = 1_000_000


def _int(low: int | None, high: int | None = None) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"expected an integer, got {v!r}")
        if low is not None and v < low:
            raise ValueError(f"must be at least {low}, got {specmod._shown(v)}")
        if high is not None and v > high:
            raise ValueError(f"must be at most {high:,}, got {specmod._shown(v)}")
        return v

    return check


def _scale(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not 0.01 <= v <= 1000:
        raise ValueError(f"expected a number from 0.01 to 1000, got {v!r}")
    return float(v)


def _env(v: Any) -> dict[str, str]:
    if not isinstance(v, dict):
        raise ValueError(f"expected a table of NAME = \"value\", got {v!r}")
    out = {}
    for name, value in v.items():
        if not name or "=" in name:
            raise ValueError(f"{name!r} is not a variable name")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValueError(f"{name}: expected a string, got {value!r}")
        out[name] = str(value)
    return out


def _toml(value: Any) -> str:
    """A TOML value written back as text, as --set takes it (spec.parse_value reads it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):  # JSON's escapes are TOML's; DEL must be escaped in TOML too
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_toml(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(x)}" for k, x in value.items()) + "}"
    return str(value)  # dates and times print as TOML writes them


def _overrides(v: Any) -> tuple[str, ...]:
    """`set`: like --set, a list of "section.key=value", or a table: {"time.clock_ms" = 60000}
    or a table of tables, [set.time] clock_ms = 60000."""
    if isinstance(v, list):
        for item in v:
            if not isinstance(item, str) or "=" not in item or "." not in item.split("=", 1)[0]:
                raise ValueError(f"expected \"section.key=value\" entries, got {item!r}")
        return tuple(v)
    if not isinstance(v, dict):
        raise ValueError(f"expected a table or a list of \"section.key=value\", got {v!r}")
    out = []
    for key, value in v.items():
        if "." in key:
            out.append(f"{key}={_toml(value)}")
        elif isinstance(value, dict):
            out.extend(f"{key}.{name}={_toml(x)}" for name, x in value.items())
        else:
            raise ValueError(f"{key!r}: name a spec key as section.key (e.g. \"time.clock_ms\")")
    return tuple(out)


SCHEMA: dict[str, Callable[[Any], Any]] = {
    "game": _game,
    "spec": _path,
    "bot": _bot,
    "games": _int(1, MAX_GAMES),
    "max_fail": _int(0, MAX_GAMES),
    "seed": _int(None),
    "time_scale": _scale,
    "env": _env,
    "set": _overrides,
}


# --- reading ------------------------------------------------------------------------------

def _read(path: Path) -> dict[str, Any]:
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(path, "", "not a regular file")
        if info.st_size > MAX_BYTES:
            raise ConfigError(path, "", f"{info.st_size} bytes: a config is at most {MAX_BYTES} bytes")
        with open(path, "rb") as fh:
            return tomllib.loads(fh.read(MAX_BYTES + 1).decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(path, "", "no such file") from None
    except OSError as exc:
        raise ConfigError(path, "", f"cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "", f"not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(path, "", f"not UTF-8 text (byte {exc.start})") from None


def _table(path: Path) -> dict[str, Any] | None:
    """The settings in a file: all of a prototest.toml, the [tool.prototest] table of a
    pyproject.toml (None when it has none)."""
    data = _read(path)
    if path.name != PYPROJECT:
        return data
    tool = data.get("tool", {})
    table = tool.get("prototest") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(path, "tool.prototest", f"expected a table, got {table!r}")
    return table


def _validate(path: Path, table: dict[str, Any]) -> Config:
    prefix = "tool.prototest." if path.name == PYPROJECT else ""
    values: dict[str, Any] = {}
    for key, raw in table.items():
        check = SCHEMA.get(key)
        if check is None:
            raise ConfigError(path, prefix + key, f"unknown key (known: {', '.join(SCHEMA)})")
        try:
            values[key] = check(raw)
        except ValueError as exc:
            raise ConfigError(path, prefix + key, str(exc)) from None
    if "game" in values and "spec" in values:
        raise ConfigError(path, prefix + "spec", "give game or spec, not both")
    path = path.resolve()
    spec = values.pop("spec", None)
    return Config(path=path, spec=(path.parent / spec) if spec else None,
                  overrides=values.pop("set", ()), **values)


def load(path: str | Path) -> Config:
    """Read and validate one config file (of a pyproject.toml, its [tool.prototest] table)."""
    path = Path(path)
    table = _table(path)
    if table is None:
        raise ConfigError(path, "", "has no [tool.prototest] table")
    return _validate(path, table)


def find(start: str | Path) -> Config | None:
    """The config for a run started in `start`: the nearest prototest.toml, or pyproject.toml
    with a [tool.prototest] table, in `start` or a folder above it; None if there is none."""
    folder = Path(start).resolve()
    while True:
        for name in (CONFIG_FILE, PYPROJECT):
            candidate = folder / name
            if candidate.is_file():
                table = _table(candidate)
                if table is not None:
                    return _validate(candidate, table)
        if folder.parent == folder:
            return None
        folder = folder.parent
