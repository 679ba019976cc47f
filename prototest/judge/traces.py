"""Stack traces on a bot's stderr: which runtime wrote one, and the line naming the error.

A crash reported as "exited with status 1" sends the bot's author to the transcript, when
the error line ("ReferenceError: board is not defined", "panic: runtime error: index out
of range", a C `assert()`'s "Assertion 'ind != -1' failed.") usually says it all. Each runtime writes its trace its own way, and the error
line is not always the last one: Python writes it after the frames, Node and Java before
them, C++ splits it over two lines. So each runtime has its own rule here, tried in a
fixed order; `find` returns the first that matches.

The lines are stderr as `process.Bot` keeps them: control characters shown escaped, so a
tab arrives as the two characters backslash and t.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

#: Longest error line kept; a runtime may print a whole data structure after the message.
MAX_ERROR = 300


@dataclass(frozen=True)
class Trace:
    runtime: str  # "Python", "Node.js", "Java", "C++", "C/C++" (assert), "Rust", "Go", ".NET", "Deno", or ""
    error: str | None  # the line that names the error, when the trace has one

    def describe(self) -> str:
        """'a Node.js stack trace: ReferenceError: x is not defined'."""
        what = _NAMES.get(self.runtime, f"a {self.runtime} stack trace")
        return what + (f": {self.error}" if self.error else "")


#: What each runtime's report is called, where "stack trace" is not the word.
_NAMES = {
    "Python": "a Python traceback",
    "C++": "an uncaught C++ exception",
    "C/C++": "a failed assert()",
    "Rust": "a Rust panic",
    "Go": "a Go panic",
    ".NET": "an unhandled .NET exception",
    "": "a crash report",
}


def _clean(line: str) -> str:
    return line.replace("\\t", "\t").rstrip()


def _cut(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 3] + "..."


def _unindented(line: str) -> bool:
    return bool(line) and not line[0].isspace()


def _python(lines: list[str]) -> Trace | None:
    """`Traceback (most recent call last):`, frames indented, then the error unindented.
    A chained exception repeats the pattern: the last one is what ended the bot."""
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")]
    if not starts:
        return None
    for line in lines[starts[-1] + 1:]:
        if _unindented(line):
            return Trace("Python", _cut(line))
    return Trace("Python", None)


_NODE_FRAME = re.compile(r"^\s+at (.*[:(])?(node:[\w/]+|\S+\.[cm]?[jt]sx?):\d+:\d+\)?$")
_JAVA_FRAME = re.compile(r"^\s+at [\w$.<>/]+\((.*\.(java|kt|scala)(:\d+)?|Native Method|Unknown Source)\)$")


def _before_frames(lines: list[str], frame: re.Pattern[str]) -> tuple[int, str | None] | None:
    """The first frame's index and the nearest unindented line above it (the error)."""
    first = next((i for i, line in enumerate(lines) if frame.match(line)), None)
    if first is None:
        return None
    error = next((lines[i] for i in range(first - 1, -1, -1) if _unindented(lines[i])), None)
    return first, error


def _node(lines: list[str]) -> Trace | None:
    """Node prints the source line, a caret, a blank line, the error, then `    at` frames
    ending in file:line:column (`node:internal/...` for its own)."""
    found = _before_frames(lines, _NODE_FRAME)
    if found is None:
        return None
    return Trace("Node.js", _cut(found[1]) if found[1] else None)


def _java(lines: list[str]) -> Trace | None:
    """`Exception in thread "main" java.lang.X: message`, then tab-indented `at` frames;
    printStackTrace() writes the same without the thread part."""
    for line in lines:
        if line.startswith("Exception in thread "):
            return Trace("Java", _cut(line))
    found = _before_frames(lines, _JAVA_FRAME)
    if found is None:
        return None
    return Trace("Java", _cut(found[1]) if found[1] else None)


def _cpp(lines: list[str]) -> Trace | None:
    """libstdc++'s `terminate called after throwing an instance of 'std::out_of_range'`
    and, on the next line, `  what():  the message`."""
    for i, line in enumerate(lines):
        if line.startswith("terminate called"):
            error = line
            if i + 1 < len(lines) and lines[i + 1].strip().startswith("what():"):
                error += "; " + " ".join(lines[i + 1].split())
            return Trace("C++", _cut(error))
    return None


#: glibc: `prog: file.c:50: int f(): Assertion 'ind != -1' failed.` (older glibc quotes with
#: a backquote); musl: `Assertion failed: ind != -1 (file.c: f: 50)`.
_ASSERT = re.compile(r"^(?:.+: .+:\d+: .+: Assertion [`'\u2018].*['\u2019] failed\.|Assertion failed: .+ \(.+: .+: \d+\))$")


def _c_assert(lines: list[str]) -> Trace | None:
    """The C library's line for a failed assert(), after which the program aborts."""
    for line in lines:
        if _ASSERT.match(line):
            return Trace("C/C++", _cut(line))
    return None


_RUST = re.compile(r"^thread '[^']*'(?: \(\d+\))? panicked at (.*)$")


def _rust(lines: list[str]) -> Trace | None:
    """`thread 'main' panicked at src/main.rs:4:5:` and the message on the next line
    (Rust 1.73 on), or `panicked at 'message', src/main.rs:4:5` (before)."""
    for i, line in enumerate(lines):
        m = _RUST.match(line)
        if m:
            error = f"panicked at {m.group(1)}"
            if line.endswith(":") and i + 1 < len(lines) and not lines[i + 1].startswith("note:"):
                error += " " + lines[i + 1].strip()
            return Trace("Rust", _cut(error))
    return None


def _go(lines: list[str]) -> Trace | None:
    """`panic: runtime error: ...` or `fatal error: ...`, then `goroutine 1 [running]:`."""
    if not any(re.match(r"^goroutine \d+ \[", line) for line in lines):
        return None
    error = next((line for line in lines if line.startswith(("panic: ", "fatal error: "))), None)
    return Trace("Go", _cut(error) if error else None)


def _dotnet(lines: list[str]) -> Trace | None:
    """`Unhandled exception. System.IndexOutOfRangeException: Index was outside ...`."""
    for line in lines:
        if line.startswith(("Unhandled exception.", "Unhandled Exception:")):
            return Trace(".NET", _cut(line))
    return None


def _deno(lines: list[str]) -> Trace | None:
    for line in lines:
        if line.startswith("error: Uncaught"):
            return Trace("Deno", _cut(line))
    return None


def _signal_report(lines: list[str]) -> Trace | None:
    """A shell or runtime line about a fatal signal, without a trace of its own."""
    for line in lines:
        if re.search(r"Segmentation fault|core dumped|^Aborted\b|stack overflow|Fatal Python error", line):
            return Trace("", _cut(line))
    return None


#: Most specific first: a Python or Java header decides before a frame pattern is tried.
_RULES: tuple[Callable[[list[str]], Trace | None], ...] = (
    _python, _cpp, _c_assert, _rust, _go, _dotnet, _deno, _java, _node, _signal_report,
)


def find(stderr: Sequence[str]) -> Trace | None:
    """The stack trace in these stderr lines, or None."""
    lines = [_clean(line) for line in stderr]
    for rule in _RULES:
        trace = rule(lines)
        if trace is not None:
            return trace
    return None
