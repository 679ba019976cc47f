"""A Python bot's own files compiled on prototest's side: the lines the collector can
record (what `co_lines` lists: the lines a tracer sees run, and the collector records) by function, so that
the map's slots can be named and counted as a coverage report counts them.
"""

from __future__ import annotations

import dis
from dataclasses import dataclass, field
from types import CodeType

from .shm import MAP_SIZE, slot

#: Instructions a function runs before its first line: no line event is ever seen for them.
_PROLOGUE = {dis.opmap[name] for name in ("RESUME", "MAKE_CELL", "COPY_FREE_VARS", "RETURN_GENERATOR", "POP_TOP",
                                          "NOP", "CACHE") if name in dis.opmap}
#: Code objects that are part of the function around them, not functions of their own.
_INNER = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>", "<lambda>")


@dataclass
class Function:
    """A function of the bot's (or a file's module-level code, `<module>`): where it
    starts and the slots of its lines."""

    name: str
    line: int
    slots: set[int] = field(default_factory=set)


@dataclass
class SourceFile:
    path: str
    functions: list[Function]
    #: every line a tracer can see run, and its slot in the map
    line_slots: dict[int, int] = field(default_factory=dict)

    @property
    def slots(self) -> set[int]:
        return set().union(*(f.slots for f in self.functions)) if self.functions else set()


def compiled(path: str, size: int = MAP_SIZE) -> SourceFile | None:
    """The file's functions and their lines' slots; None when it cannot be read or compiled."""
    try:
        with open(path, "rb") as fh:
            source = fh.read()
        code = compile(source, path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return None
    functions: list[Function] = []
    line_slots: dict[int, int] = {}
    _walk(code, path, size, None, functions, line_slots)
    return SourceFile(path, functions, line_slots)


def _walk(code: CodeType, path: str, size: int, into: Function | None, functions: list[Function],
          line_slots: dict[int, int]) -> None:
    if into is None or code.co_name not in _INNER:
        into = Function(getattr(code, "co_qualname", code.co_name), code.co_firstlineno)
        functions.append(into)
    for line in lines(code):
        line_slots[line] = slot(path, line, size)
        into.slots.add(line_slots[line])
    for const in code.co_consts:
        if isinstance(const, CodeType):
            _walk(const, path, size, into, functions, line_slots)


def missing_ranges(source: SourceFile, reached: set[int]) -> str:
    """The lines never reached, as a coverage report's Missing column writes them:
    `12-15, 30` (a span runs on over lines that cannot run, such as comments)."""
    spans: list[list[int]] = []
    joined = False
    for line in sorted(source.line_slots):
        if source.line_slots[line] in reached:
            joined = False
        elif joined:
            spans[-1][1] = line
        else:
            spans.append([line, line])
            joined = True
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in spans)


def lines(code: CodeType) -> set[int]:
    """The lines of a code object a tracer sees run: co_lines, less a function's first
    line when only its prologue (RESUME ...) is there."""
    seen: set[int] = set()
    raw = code.co_code
    for start, end, line in code.co_lines():
        if line is None or line <= 0:  # a module's RESUME is on line 0
            continue
        if code.co_name != "<module>" and line == code.co_firstlineno and all(
                raw[i] in _PROLOGUE for i in range(start, end, 2)):
            continue
        seen.add(line)
    return seen
