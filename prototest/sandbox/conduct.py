"""What the bot did outside the dialogue: signals it sent its judge, files it touched.

`prototest.sandbox.process` collects these as events (from the keeper and the signalfd, each
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
    who = "written by the runtime"
    if advice.startswith("written by "):  # a process the bot's command started (cache_advice)
        who, _, advice = advice.partition("; ")
    return (f"{name}: {ops} in {where}{count}, the first {when}: {who}; a judge that allows "
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


#: The advice of RUNTIME_CACHES for the JVM.
_JVM_CACHE = RUNTIME_CACHES[1][1]


def cache_advice(cache: str, event: dict[str, Any], argv, cwd: str | None = None) -> str:
    """A runtime's cache advice (a RUNTIME_CACHES hint) for the process that wrote the
    file (the event's `cmd`): the bot's own command (python_advice: -B where the bot's
    command names its python), or a process that command started (a wrapper's or an
    adapter's child, `python3 engine.py`), which an option on the bot's command line does
    not reach: then the advice is for that process, and for the environment it inherits.
    A writer not known (gone before it was named) gets the hint as it is. `cwd`: the
    folder the bot runs in (its files and paths are shown from there)."""
    writer = str(event.get("cmd") or "")
    if not cache or not argv or not writer or writer.endswith("..."):  # unnamed, or cut short: not known
        return cache
    if is_the_bots_command(writer, argv):
        return python_advice(cache, argv, cwd)
    if cache == _PYTHON_CACHE:
        return _python_child_advice(writer, argv, cwd)
    if cache == _JVM_CACHE:
        return _jvm_child_advice(writer, argv, cwd)
    return cache


def is_the_bots_command(writer: str, argv) -> bool:
    """Whether a process's command line (`writer`, its words joined by spaces) is the
    bot's command: the same words, or, for a #! script, 'INTERPRETER [ARG] SCRIPT ARGS'
    where SCRIPT is the bot's program as given, or found on the PATH."""
    bot = [str(a) for a in argv]
    if writer == " ".join(bot):
        return True
    tail = " ".join(bot[1:])
    if tail and not writer.endswith(" " + tail):
        return False
    head = writer[: len(writer) - len(tail) - 1] if tail else writer
    interpreter, _, script = head.rpartition(" ")
    return bool(interpreter) and (script == bot[0] or os.path.basename(script) == os.path.basename(bot[0]))


def command_shown(command: str, folder: str | None) -> str:
    """A command line with the paths inside the bot's folder shown from there."""
    return " ".join(shown_path(word, folder or os.getcwd()) for word in command.split(" "))


def _started(writer: str, argv, cwd: str | None) -> str:
    """'python3 engine.py, a process the bot's command (python3 adapter.py) started'."""
    bot = command_shown(" ".join(str(a) for a in argv), cwd)
    return f"{command_shown(writer, cwd)}, a process the bot's command ({bot}) started"


def _python_child_advice(writer: str, argv, cwd: str | None) -> str:
    program, _, rest = command_shown(writer, cwd).partition(" ")
    how = ""
    if re.fullmatch(r"python[\d.]*", program.rsplit("/", 1)[-1]):
        how = f"start it with -B ({program} -B {rest}), or "
    compiled = f", or compile its files before the run ({program} -m compileall)" if how else ""
    return (f"Python's bytecode cache: written by the runtime of {_started(writer, argv, cwd)}, not by the "
            f"bot's command itself; -B on the bot's command line does not reach that process: {how}set "
            f"PYTHONDONTWRITEBYTECODE=1 in the environment it is started with (a child process inherits it from "
            f"the bot){compiled}")


def _jvm_child_advice(writer: str, argv, cwd: str | None) -> str:
    program, _, rest = command_shown(writer, cwd).partition(" ")
    return (f"the JVM's performance data: written by {_started(writer, argv, cwd)}, not by the bot's command "
            f"itself; -XX:-UsePerfData on the bot's command line does not reach that process: start it with "
            f"-XX:-UsePerfData ({program} -XX:-UsePerfData {rest}), or set "
            f"JAVA_TOOL_OPTIONS=-XX:-UsePerfData in the environment it is started with (a child process "
            f"inherits it from the bot)")


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
