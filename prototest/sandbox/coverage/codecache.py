"""A Python bot's own files compiled ahead, on prototest's side, as the collector compiles
them before Python 3.12 (a store into the map before each statement: see
`collector._instrumented`), so that the bot's later starts load them and compile nothing.

The collector names each file of the bot's it compiles in the map's index; after that run,
prototest compiles the file the same way (before the first run already: the main script
and the modules of its own folder it imports, `first_files`) and writes it to
`<map's folder>/code/<the path, its % written %25 and its / %2F>` (no hash the collector
would import zlib for; a path too long to be a file's name is not compiled ahead): a header
(this interpreter's bytecode magic, the path, the file's mtime in ns and size, the map's
size, each on a line) and the marshalled code. The collector uses it only where every part
of the header is its own (`collector._ahead`), and compiles the file itself otherwise:
another Python, a file changed since, another map.
The folder is prototest's, under /dev/shm: the bot only reads it.

The instrumented code of a file compiled with every store (before any run has shown which
lines every run reaches) is also kept between campaigns, as Python keeps a module's
bytecode in __pycache__ (and pytest its rewritten test modules): in the user's cache
folder (`cache_folder`: $PROTOTEST_CACHE_DIR, else $XDG_CACHE_HOME/prototest or
~/.cache/prototest, then `coverage-code`), one file per bot file, holding this
interpreter's magic, the collector's own fingerprint, the path, the map's size and the
whole source it was compiled from, then the marshalled code (after its length and CRC).
A later campaign on the same text of the same file loads it instead of compiling (about
4 ms for a bot of 400 lines, paid before the first game of every worker); any other text,
path, map size, interpreter or collector compiles again. At most CACHE_ENTRIES files are
kept, those used longest ago dropped first (a load marks a file used).
PROTOTEST_CACHE_DIR set empty keeps nothing.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import marshal
import os
import zlib

from . import collector
from .shm import slot


def header(path: str, mtime_ns: int, size: int, map_size: int, values: bool = False) -> bytes:
    """What a compiled file starts with (the collector builds the same from its own); `v`
    after the map's size: compiled with the comparisons recorded (`fuzz --value-profile`)."""
    return importlib.util.MAGIC_NUMBER + f"{path}\n{mtime_ns}\n{size}\n{map_size}{'v' if values else ''}\n".encode(
        "utf-8", "surrogateescape")


def file_name(path: str) -> str:
    """The name of a file's compiled code in the folder (the collector's own formula)."""
    return path.replace("%", "%25").replace("/", "%2F")


def compile_ahead(folder: str, path: str, map_size: int, skip: frozenset[int] = frozenset(),
                  values: bool = False) -> bool:
    """Compile one of the bot's files (as the collector named it) into `folder`/code,
    with no store for the slots in `skip`; False where it cannot be (gone, not Python
    this interpreter compiles): the collector then compiles it at each start, as without
    this. A bot starting meanwhile loads the file as it was or as it is, never a part."""
    if len(os.fsencode(file_name(path))) > 240:  # too long for a file's name, with the temporary tail
        return False
    try:
        st = os.stat(path)
        with open(path, "rb") as fh:
            source = fh.read()
        kept = None if skip else _Kept(path, map_size, source, values)
        body = kept.load() if kept else None
        if body is None:
            code = collector._instrumented(ast, source, path, lambda line: slot(path, line, map_size), skip, values)
            body = marshal.dumps(code)
            if kept:
                kept.store(body)
        data = header(path, st.st_mtime_ns, st.st_size, map_size, values) + body
        where = os.path.join(folder, "code")
        os.makedirs(where, exist_ok=True)
        target = os.path.join(where, file_name(path))
        partial = f"{target}.{os.getpid()}"
        with open(partial, "wb") as fh:
            fh.write(data)
        os.replace(partial, target)  # a bot starting now reads the whole of it or none
        return True
    except Exception:  # noqa: BLE001 - whatever it is, the collector compiles the file itself, as without this
        return False


def first_files(script: str) -> list[str]:
    """The files a first run of a Python bot compiles, as far as its main script's text
    says: the script, and the modules it imports that are files of its own folder
    (`import helper`, `from helper import x`: `<folder>/helper.py`), in the order named.
    Compiled before the first run, the bot compiles none of them itself (a bot whose CPU
    the platform shares out pays a compile several times over in wall time)."""
    folder = os.path.dirname(script)
    try:
        with open(script, "rb") as fh:
            tree = ast.parse(fh.read(), script)
    except (OSError, SyntaxError, ValueError):
        return []
    files = [script]
    for node in ast.walk(tree):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
        for name in names:
            path = os.path.join(folder, name.split(".")[0] + ".py")
            if path not in files and os.path.isfile(path):
                files.append(path)
    return files


#: Files the cache between campaigns keeps at most (see the module's docstring).
CACHE_ENTRIES = 256


def cache_folder() -> str | None:
    """Where instrumented code is kept between campaigns; None: nowhere
    (PROTOTEST_CACHE_DIR set empty, or no home folder to put it in)."""
    env = os.environ
    base = env.get("PROTOTEST_CACHE_DIR")
    if base is None:
        xdg = env.get("XDG_CACHE_HOME")
        home = os.path.expanduser("~")
        if not xdg and home == "~":
            return None
        base = os.path.join(xdg or os.path.join(home, ".cache"), "prototest")
    return os.path.join(base, "coverage-code") if base else None


@functools.cache
def _fingerprint() -> bytes:
    """What decides the instrumented code besides the file: the interpreter's magic and the
    text of the collector's compiler and of the slot formula."""
    from . import shm

    parts = [importlib.util.MAGIC_NUMBER]
    for module in (collector, shm):
        with open(module.__file__ or "", "rb") as fh:
            parts.append(b"%08x" % zlib.crc32(fh.read()))
    return b"".join(parts)


class _Kept:
    """One file's instrumented code in the cache between campaigns: found only for the very
    same source text (compared whole, not by a hash), path, map size, comparisons recorded
    or not, and fingerprint."""

    def __init__(self, path: str, map_size: int, source: bytes, values: bool = False) -> None:
        self.folder = cache_folder()
        about = (_fingerprint() + b"\n" + os.fsencode(path)
                 + b"\n%d%s\n%d\n" % (map_size, b"v" if values else b"", len(source)))
        self.head = about + source
        name = "%08x-%08x" % (zlib.crc32(about), zlib.crc32(source))
        self.file = os.path.join(self.folder, name) if self.folder else None

    def load(self) -> bytes | None:
        if self.file is None:
            return None
        try:
            with open(self.file, "rb") as fh:
                data = fh.read()
        except OSError:
            return None
        if not data.startswith(self.head):
            return None
        check, _, body = data[len(self.head):].partition(b"\n")
        if not body or check != _check(body):
            return None
        try:
            os.utime(self.file)  # used now: the last to be dropped (_prune)
        except OSError:
            pass
        return body

    def store(self, body: bytes) -> None:
        if self.file is None or self.folder is None:  # (both or neither)
            return
        try:
            os.makedirs(self.folder, exist_ok=True)
            partial = f"{self.file}.{os.getpid()}"
            with open(partial, "wb") as fh:
                fh.write(self.head + _check(body) + b"\n" + body)
            os.replace(partial, self.file)
            _prune(self.folder)
        except OSError:
            pass


def _check(body: bytes) -> bytes:
    """What a kept body is checked by: its length and CRC (a file cut short is compiled again)."""
    return b"%d:%08x" % (len(body), zlib.crc32(body))


def _prune(folder: str) -> None:
    """The files used longest ago (their mtimes) dropped past CACHE_ENTRIES."""
    try:
        with os.scandir(folder) as it:
            entries = [(e.stat().st_mtime_ns, e.path) for e in it if e.is_file()]
    except OSError:
        return
    if len(entries) <= CACHE_ENTRIES:
        return
    for _, path in sorted(entries)[:len(entries) - CACHE_ENTRIES]:
        try:
            os.unlink(path)
        except OSError:
            pass
