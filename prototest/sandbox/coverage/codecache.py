"""A Python bot's own files compiled ahead, on prototest's side, as the collector compiles
them before Python 3.12 (a store into the map before each statement: see
`collector._instrumented`), so that the bot's later starts load them and compile nothing.

The collector names each file of the bot's it compiles in the map's index; after that run,
prototest compiles the file the same way and writes it to `<map's folder>/code/<crc32 of
the path, 8 hex digits>`: a header (this interpreter's bytecode magic, the path, the
file's mtime in ns and size, the map's size, each on a line) and the marshalled code. The
collector uses it only where every part of the header is its own (`collector._ahead`), and
compiles the file itself otherwise: another Python, a file changed since, another map.
The folder is prototest's, under /dev/shm: the bot only reads it.
"""

from __future__ import annotations

import ast
import importlib.util
import marshal
import os
import zlib

from . import collector
from .shm import slot


def header(path: str, mtime_ns: int, size: int, map_size: int) -> bytes:
    """What a compiled file starts with (the collector builds the same from its own)."""
    return importlib.util.MAGIC_NUMBER + f"{path}\n{mtime_ns}\n{size}\n{map_size}\n".encode("utf-8", "surrogateescape")


def file_name(path: str) -> str:
    return "%08x" % zlib.crc32(path.encode("utf-8", "surrogateescape"))


def compile_ahead(folder: str, path: str, map_size: int) -> bool:
    """Compile one of the bot's files (as the collector named it) into `folder`/code;
    False where it cannot be (gone, not Python this interpreter compiles): the collector
    then compiles it at each start, as without this."""
    try:
        st = os.stat(path)
        with open(path, "rb") as fh:
            source = fh.read()
        code = collector._instrumented(ast, source, path, lambda line: slot(path, line, map_size))
        data = header(path, st.st_mtime_ns, st.st_size, map_size) + marshal.dumps(code)
        where = os.path.join(folder, "code")
        os.makedirs(where, exist_ok=True)
        target = os.path.join(where, file_name(path))
        partial = f"{target}.{os.getpid()}"
        with open(partial, "wb") as fh:
            fh.write(data)
        os.replace(partial, target)  # a bot starting now reads the whole of it or none
        return True
    except (OSError, SyntaxError, ValueError, TypeError):
        return False
