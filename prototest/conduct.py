"""What the bot did outside the dialogue: signals it sent its judge, files it touched.

`prototest.process` collects these as events (from the keeper and the signalfd, each
with the time it happened); this module says what each one means and when in the game
it happened. The referee turns them into findings: `signal` (always a FAIL: a bot that
signals its judge tries to stop it or to pass a failure off as an interruption) and
`file_operation` (as severe as the spec's `severity.file_operation`, or
`severity.runtime_cache` for a language runtime's own cache files).

Paths inside the bot's folder are shown relative to it (`./debug.log`), so that a
transcript or a fixture reads the same on every machine. A runtime's cache writes (a
first run's `__pycache__`, the JVM's perf data) are one finding a game, with a count
and the folders (`cache_message`), not one a file: their number depends on what an
earlier run left, and their names on temporary suffixes (`x.pyc.140598084899472`).
"""

from __future__ import annotations

import bisect
import os
import re
from typing import Any, NamedTuple

from .interrupts import signal_name

#: Files a language runtime writes for itself, and how to keep it from doing so.
RUNTIME_CACHES = (
    (re.compile(r"(^|/)__pycache__(/|$)|\.py[co](\.\d+)?$"),
     "Python's bytecode cache: run python3 -B, or compile it before the run (python3 -m compileall)"),
    (re.compile(r"(^|/)hsperfdata_[^/]*(/|$)"), "the JVM's performance data: run java -XX:-UsePerfData"),
)

_VERBS = {"create": "created", "write": "opened for writing", "delete": "deleted", "create folder": "created the folder",
          "delete folder": "deleted the folder", "rename": "renamed"}


class Mark(NamedTuple):
    """A moment of the game: from `t_ns` on, the bot works on `turn` (None: start-up or
    after the game), in `position` (a rules Position, shown only if a finding needs it)
    after `moves` plies. (A tuple: one is made every exchange.)"""

    t_ns: int
    turn: int | None
    position: Any
    moves: int
    label: str


def when(marks: list[Mark], t_ns: int) -> Mark | None:
    """The mark in force at `t_ns` (None before the first one)."""
    index = bisect.bisect_right([m.t_ns for m in marks], t_ns)
    return marks[index - 1] if index else None


def moment(mark: Mark | None) -> str:
    if mark is None:
        return "at start-up"
    return mark.label


def runtime_cache(path: str) -> str | None:
    """What writes this file when it is a runtime's own cache, else None."""
    for pattern, hint in RUNTIME_CACHES:
        if pattern.search(path):
            return hint
    return None


def shown_path(path: str, folder: str | None) -> str:
    """A path as findings show it: relative to the bot's folder `folder` when inside it
    (`./debug.log`), as the bot named it (made absolute) elsewhere."""
    if not folder or not path.startswith("/"):
        return path
    for base in {os.path.abspath(folder), os.path.realpath(folder)}:
        if path == base:
            return "."
        if path.startswith(base.rstrip("/") + "/"):
            return "./" + path[len(base.rstrip("/")) + 1:]
    return path


def file_operation(event: dict[str, Any], folder: str | None = None) -> tuple[str, str, str, str]:
    """(what the bot did, in words, its paths shown from the bot's folder `folder`; the
    severity key; the folding rule; the runtime's cache it was and how to avoid it, or "")
    of a file event."""
    op = event.get("op", "write")
    path = event.get("path", "?")
    what = f"{_VERBS.get(op, op)} {shown_path(path, folder)}"
    if op == "rename":
        what += f" to {shown_path(event.get('to', '?'), folder)}"
    hint = runtime_cache(path) or (runtime_cache(event.get("to", "")) if op == "rename" else None)
    if hint:
        return what, "runtime_cache", f"file_operation:runtime_cache:{cache_name(hint)}", hint
    return what, "file_operation", f"file_operation:{op}:{path}", ""


def cache_name(hint: str) -> str:
    """"Python's bytecode cache" of a RUNTIME_CACHES hint."""
    return hint.partition(": ")[0]


#: A temporary name a runtime writes a cache file under before renaming it into place
#: (Python: `x.cpython-311.pyc.140598084899472`).
_TEMPORARY = re.compile(r"(\.py[co])\.\d+$")


def cache_files(events: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(the folders, the files) a runtime's cache events touched, in the order first
    seen; a temporary name counts as the file it becomes."""
    folders: dict[str, None] = {}
    files: dict[str, None] = {}
    for event in events:
        path = event.get("to") if event.get("op") == "rename" else event.get("path")
        path = _TEMPORARY.sub(r"\1", path or "?")
        if event.get("op", "").endswith("folder"):
            folders.setdefault(path)
        else:
            folders.setdefault(os.path.dirname(path) or ".")
            files.setdefault(path)
    return list(folders), list(files)


def cache_message(hint: str, events: list[dict[str, Any]], folder: str | None, when: str) -> str:
    """The one finding of a game's writes to a runtime's cache: how many, in which
    folders, from when, and how to avoid them."""
    folders, files = cache_files(events)
    where = " and ".join(shown_path(f, folder) for f in folders)
    ops = f"{len(events)} file operation{'s' if len(events) != 1 else ''}"
    count = f" ({len(files)} file{'s' if len(files) != 1 else ''})" if files else ""
    name, _, advice = hint.partition(": ")
    return (f"{name}: {ops} in {where}{count}, the first {when}: written by the runtime; a judge that allows "
            f"no file operations may kill the bot for it: {advice}")


def is_cache_message(message: str) -> bool:
    """Whether a file_operation finding's message is a runtime's cache writes (`cache_message`)."""
    return message.startswith(tuple(f"{cache_name(hint)}: " for _, hint in RUNTIME_CACHES))


#: The advice of RUNTIME_CACHES for Python, made for the bot's own command (python_advice).
_PYTHON_CACHE = RUNTIME_CACHES[0][1]


def python_advice(cache: str, argv, cwd: str | None = None) -> str:
    """Python's bytecode cache advice for this bot's command line: -B goes to the python
    that runs the bot (the one its command names, or its #! line's), not prototest's.
    `cwd`: the folder the bot runs in, where a relative command is found."""
    if cache != _PYTHON_CACHE or not argv:
        return cache
    program = str(argv[0])
    name = program.rsplit("/", 1)[-1]
    if re.fullmatch(r"python[\d.]*", name):
        rest = " ".join(str(a) for a in argv[1:3]) + (" ..." if len(argv) > 3 else "")
        return (f"Python's bytecode cache: add -B after {program} in the bot's command line ({program} -B "
                f"{rest}), or compile its files before the run ({program} -m compileall)")
    try:
        with open(os.path.join(cwd or "", program), "rb") as fh:
            head = fh.readline(256).decode("utf-8", "replace").strip()
    except OSError:
        return cache
    words = head[2:].split() if head.startswith("#!") else []
    if words and words[0].endswith("/env") and len(words) == 2:  # #!/usr/bin/env python3
        return (f"Python's bytecode cache: add -B to the bot's #! line (#!{words[0]} -S {words[1]} -B), or "
                f"compile its files before the run ({words[1]} -m compileall)")
    if words and len(words) == 1:  # #!/usr/bin/python3
        return (f"Python's bytecode cache: add -B to the bot's #! line (#!{words[0]} -B), or compile its files "
                f"before the run ({words[0]} -m compileall)")
    return cache


def file_message(what: str, when: str, severity: str) -> str:
    """The message of a file_operation finding (not a runtime's cache: `cache_message`)."""
    if severity == "fail":
        return f"{what} {when}: the judge allows no file operations (reading files is allowed)"
    return f"{what} {when}: the judge's sandbox may refuse it (reading files is fine)"


def sender(event: dict[str, Any]) -> str:
    """'pid 4242 (python3 bot.py)'."""
    command = event.get("cmd") or ""
    return f"pid {event.get('pid')}" + (f" ({command})" if command else "")


def signal_message(event: dict[str, Any]) -> str:
    name = signal_name(int(event.get("sig", 0)))
    target = ("prototest, its judge" if event.get("to") == "prototest"
              else "its parent, the judge's process that started it")
    return (f"sent {name} to {target}, from {sender(event)}: a bot must never signal its judge "
            f"(prototest was not stopped; the game's verdict stands)")
