"""Whether a bot is a Python program the coverage collector can serve, and the
environment that injects it (its `sitecustomize`, first on PYTHONPATH).

A Python bot is a command that runs a Python interpreter (`python3 bot.py`, `env python3
-m bot`) or a script whose #! line names one. The collector cannot serve an interpreter
run with -I or -E (PYTHONPATH ignored) or -S (no `site`, so no sitecustomize), nor a bot
whose PYTHONPATH holds a sitecustomize of its own (it would be shadowed); such a bot runs
as before, and `Injection.off` says why coverage is off. Any other command may be a native
bot built with prototest's runtime: it is given the map's name, and fills it or not.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .shm import CoverageMap

_PYTHON = re.compile(r"^(python|pypy)[0-9.]*$")
#: Short options of python that take a value (the rest of the word, or the next word).
_TAKES_VALUE = set("cmWXQ")


@dataclass(frozen=True)
class Injection:
    """How a bot's coverage can be had: "python" (the collector), "native" (maybe: the
    runtime, if the bot was built with it) or None (off: `off` says why). `root`: the
    folder of the bot's own files; `script`: a Python bot's main script, as its
    interpreter makes it absolute (None for -m and -c)."""

    kind: str | None
    root: str
    off: str | None = None
    pythonpath: str | None = None
    script: str | None = None

    def env(self, cmap: CoverageMap) -> dict[str, str]:
        """The variables the bot gets (none when coverage is off)."""
        if self.kind is None:
            return {}
        env = cmap.env(self.root)
        if self.kind == "python":
            site = os.path.join(cmap.folder, "site")
            collector = os.path.join(site, "sitecustomize.py")
            if not os.path.exists(collector):
                os.makedirs(site, exist_ok=True)
                _install_collector(collector)
            env["PYTHONPATH"] = site + (os.pathsep + self.pythonpath if self.pythonpath else "")
        return env


def injection(argv: Sequence[str], env: dict[str, str], cwd: str | None = None) -> Injection:
    """How coverage can be had from the bot `argv` run with `env` in `cwd`."""
    here = os.path.abspath(cwd or os.getcwd())
    words = list(argv)
    if words and os.path.basename(words[0]) == "env":
        words = _after_env(words[1:])
    if not words:
        return Injection("native", here)
    flags: list[str]
    script: str | None
    if _PYTHON.match(os.path.basename(words[0])):
        flags, script = _python_args(words[1:])
    else:
        shebang = _shebang(words[0], here)
        if shebang is None:
            return Injection("native", here)
        flags, script = shebang, words[0]
    root = os.path.dirname(os.path.abspath(os.path.join(here, script))) if script else here
    letters = "".join(f[1:] for f in flags if f.startswith("-") and not f.startswith("--"))
    for letter, why in (("I", "-I (isolated mode), which ignores PYTHONPATH, where the collector goes"),
                        ("E", "-E, which ignores PYTHONPATH, where the collector goes"),
                        ("S", "-S, which imports no site module, so no sitecustomize (the collector)")):
        if letter in letters:
            return Injection(None, root, f"the bot's python runs with {why}")
    given = env.get("PYTHONPATH")
    for folder in (given or "").split(os.pathsep):
        if folder and os.path.exists(os.path.join(here, folder, "sitecustomize.py")):
            return Injection(None, root, f"the bot has a sitecustomize of its own "
                                         f"({os.path.join(folder, 'sitecustomize.py')}), on its PYTHONPATH")
    return Injection("python", root, pythonpath=given,
                     script=os.path.abspath(os.path.join(here, script)) if script else None)


def _after_env(words: list[str]) -> list[str]:
    """The command `env` runs: its options and VAR=value words left out (-S splits)."""
    out: list[str] = []
    for i, word in enumerate(words):
        if word in ("-S", "--split-string") and i + 1 < len(words):
            return _after_env(words[i + 1].split() + words[i + 2:])
        if word.startswith("-S") and len(word) > 2:
            return _after_env(word[2:].split() + words[i + 1:])
        if word.startswith("-") or "=" in word:
            continue
        out = words[i:]
        break
    return out


def _python_args(words: list[str]) -> tuple[list[str], str | None]:
    """(python's own options, the script) of an interpreter's arguments; no script for
    -m and -c (their code is the current folder's)."""
    flags: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if not word.startswith("-") or word == "-":
            return flags, word if word != "-" else None
        if word.startswith("--"):
            flags.append(word)
            continue
        letters = word[1:]
        for i, letter in enumerate(letters):
            if letter in _TAKES_VALUE:
                flags.append("-" + letters[:i])
                if letter in "cm":
                    return flags, None
                skip = i == len(letters) - 1
                break
        else:
            flags.append(word)
    return flags, None


def _shebang(program: str, cwd: str) -> list[str] | None:
    """A script's python options from its #! line, or None when it names no python."""
    path = os.path.join(cwd, program) if os.sep in program else shutil.which(program) or ""
    try:
        with open(path, "rb") as fh:
            head = fh.readline(512)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].decode("utf-8", "replace").split()
    if words and os.path.basename(words[0]) == "env":
        words = _after_env(words[1:])
    if not words or not _PYTHON.match(os.path.basename(words[0])):
        return None
    return _python_args(words[1:])[0]


def _install_collector(target: str) -> None:
    """collector.py copied as `target` (its mtime kept), with its bytecode beside it for
    this interpreter (a bot's python of another version compiles it itself), so that no
    start of the bot compiles it (about 4 ms): prototest's own compiled copy where it is
    there and up to date (a timestamp .pyc of the same source: it is as valid for the
    copy), else compiled here (about 5 ms, once a map)."""
    import importlib.util

    source = Path(__file__).with_name("collector.py")
    shutil.copy2(source, target)
    with contextlib.suppress(Exception):
        own, pyc = importlib.util.cache_from_source(str(source)), importlib.util.cache_from_source(target)
        st = os.stat(source)
        with open(own, "rb") as fh:
            head = fh.read(16)
        if (head[:4] == importlib.util.MAGIC_NUMBER and head[4:8] == bytes(4)
                and head[8:12] == (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
                and head[12:16] == (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")):
            os.makedirs(os.path.dirname(pyc), exist_ok=True)
            shutil.copyfile(own, pyc)
            return
    with contextlib.suppress(Exception):
        import py_compile

        py_compile.compile(target, doraise=True)
