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
"""

from __future__ import annotations

import ast
import importlib.util
import marshal
import os

from . import collector
from .shm import slot


def header(path: str, mtime_ns: int, size: int, map_size: int) -> bytes:
    """What a compiled file starts with (the collector builds the same from its own)."""
    return importlib.util.MAGIC_NUMBER + f"{path}\n{mtime_ns}\n{size}\n{map_size}\n".encode("utf-8", "surrogateescape")


def file_name(path: str) -> str:
    """The name of a file's compiled code in the folder (the collector's own formula)."""
    return path.replace("%", "%25").replace("/", "%2F")


def compile_ahead(folder: str, path: str, map_size: int, skip: frozenset[int] = frozenset()) -> bool:
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
        code = collector._instrumented(ast, source, path, lambda line: slot(path, line, map_size), skip)
        data = header(path, st.st_mtime_ns, st.st_size, map_size) + marshal.dumps(code)
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
