"""The coverage map: a file under /dev/shm that the bot maps shared and fills (a byte a
slot, set to nonzero when the code the slot stands for ran), and the names index beside
it (the collector's "F\\t<file>" and "X\\t<reason>" lines).

They live under /dev/shm because writes there are no file operations of the bot's (see
prototest.sandbox.syscalls): the collector's own work never becomes a finding.
"""

from __future__ import annotations

import mmap
import os
import shutil
import tempfile
import zlib

#: The map's size: AFL's, 64 KiB (few bots have more than a few thousand lines or edges).
MAP_SIZE = 1 << 16
ENV_MAP, ENV_INDEX, ENV_ROOT = "PROTOTEST_COVERAGE_MAP", "PROTOTEST_COVERAGE_INDEX", "PROTOTEST_COVERAGE_ROOT"
SHM = "/dev/shm"
#: A map's folder: PREFIX, the pid of the prototest process that made it, a random tail.
PREFIX = "prototest-cov-"
#: The map is compared in chunks of these sizes, each level only where the one above differs.
_CHUNKS = (2048, 64)


def sweep() -> None:
    """Remove the maps of prototest processes that are gone (one killed outright, SIGKILL,
    could not remove its own): each folder is named by the pid of the process that made it."""
    try:
        names = os.listdir(SHM)
    except OSError:
        return
    for name in names:
        pid = name[len(PREFIX):].split("-", 1)[0]
        if not name.startswith(PREFIX) or not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(SHM, name), ignore_errors=True)
        except OSError:  # another user's process: alive, and not ours to touch
            pass


def line_slots(size: int = MAP_SIZE) -> int:
    """How many of a Python bot's map slots stand for lines: the first three quarters; the
    rest are the values its comparisons compared (collector._compares), so a line is never
    counted reached for a value's slot."""
    return size - size // 4


def slot(path: str, line: int, size: int = MAP_SIZE) -> int:
    """The slot of a line of a Python file: the collector's own formula."""
    return zlib.crc32(f"{path}:{line}".encode("utf-8", "surrogateescape")) % line_slots(size)


class CoverageMap:
    """One campaign's map: read after each answer, zeroed after each run of the bot."""

    def __init__(self, folder: str | None = None, size: int = MAP_SIZE) -> None:
        """A folder of its own under /dev/shm (OSError where there is none)."""
        if folder is None:
            if not os.path.isdir(SHM) or not os.access(SHM, os.W_OK):
                raise OSError(f"no writable {SHM} on this machine")
            sweep()
            folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=SHM)
        self.folder = folder
        self.size = size
        self.map_path = os.path.join(folder, "map")
        self.index_path = os.path.join(folder, "index")
        with open(self.map_path, "wb") as fh:
            fh.truncate(size)
        open(self.index_path, "ab").close()
        fd = os.open(self.map_path, os.O_RDWR)
        try:
            self._mm: mmap.mmap | None = mmap.mmap(fd, size)
        finally:
            os.close(fd)
        self._last = bytes(size)
        self._zero = bytes(size)
        self._index_read = 0
        #: the files the collector named (in the order first seen), and why it could not serve
        self.files: list[str] = []
        self.off: str | None = None

    def env(self, root: str) -> dict[str, str]:
        """The variables that name the map to the bot (its collector or runtime)."""
        return {ENV_MAP: self.map_path, ENV_INDEX: self.index_path, ENV_ROOT: root}

    def reset(self) -> None:
        """After a run of the bot: every slot zero."""
        if self._mm is not None:
            self._mm[:] = self._zero
        self._last = self._zero

    def take(self) -> tuple[int, ...]:
        """The slots set since the last take (or reset): what the bot's code reached since."""
        if self._mm is None:
            return ()
        now = self._mm[:]
        last = self._last
        if now == last:
            return ()
        new: list[int] = []
        _differing(now, last, 0, self.size, _CHUNKS, new)
        self._last = now
        return tuple(new)

    def read_index(self) -> None:
        """What the collector appended to the names index since the last read."""
        try:
            with open(self.index_path, "rb") as fh:
                fh.seek(self._index_read)
                data = fh.read()
        except OSError:
            return
        complete = data.rfind(b"\n") + 1
        self._index_read += complete
        for raw in data[:complete].decode("utf-8", "surrogateescape").splitlines():
            kind, _, value = raw.partition("\t")
            if kind == "F" and value not in self.files:
                self.files.append(value)
            elif kind == "X" and self.off is None:
                self.off = value

    def close(self) -> None:
        if self._mm is not None:
            try:
                self._mm.close()
            except (BufferError, ValueError):
                pass
            self._mm = None
        shutil.rmtree(self.folder, ignore_errors=True)


def _differing(now: bytes, last: bytes, start: int, end: int, chunks: tuple[int, ...], out: list[int]) -> None:
    """The slots set in `now` and not in `last`, between start and end."""
    if not chunks:
        out.extend(i for i in range(start, end) if now[i] and not last[i])
        return
    step = chunks[0]
    for lo in range(start, end, step):
        hi = min(end, lo + step)
        if now[lo:hi] != last[lo:hi]:
            _differing(now, last, lo, hi, chunks[1:], out)
