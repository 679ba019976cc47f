"""A spec file read: TOML, at most MAX_SPEC_BYTES, its `extends` followed (its tables merged
over its base's, key by key), then the CLI's `--set` overrides applied, before the whole
is validated (`prototest.judge.spec`).
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from .specschema import SpecError

#: A spec is a short text; anything longer is not one (and is not read into memory).
MAX_SPEC_BYTES = 1 << 20


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
