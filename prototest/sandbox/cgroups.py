"""Per-bot cgroups: the kernel enforces a platform's limits, and counts what the bot used.

A cgroup is a folder in the kernel's cgroup file system; every process belongs to one in
each hierarchy, and its children are born in the same. prototest makes one per bot, and
the bot's own process (the keeper's child) joins it just before its exec, by writing "0"
(the writer itself, also in a PID namespace) to the group's `cgroup.procs`: the bot and
everything it starts are inside from its first instruction, whatever it forks and however
it leaves its session. The keepers stay outside. In the group:

* **Memory** (`memory.limit_in_bytes` in v1, `memory.max` in v2) caps the memory the
  group is charged for (its anonymous memory, the page cache it fills, kernel memory
  made for it), not the address space it merely reserves (a JVM or Go runtime runs).
  Over the limit the kernel first reclaims the group's cache, then its OOM killer kills
  a process of the group (counted: `oom_kill` in memory.oom_control / memory.events).
  Memory a process used before it joined stays charged where it was. Swap cannot dodge
  the limit: v1 sets `memory.memsw.limit_in_bytes` (memory plus swap) to the same value
  when the machine has swap, and swappiness 0; v2 sets `memory.swap.max` to 0. The peak is
  `memory.max_usage_in_bytes` (v1) or `memory.peak` (v2, kernel 5.19 and later).
* **CPU** (`cpu.cfs_quota_us` / `cpu.cfs_period_us` in v1, `cpu.max` in v2) is CFS
  bandwidth: all threads of the group together may run `quota` microseconds in each
  `period`; then they are throttled (taken off the CPU) until the next period begins, as
  Docker's `--cpus` does. `cpu.stat` counts the throttled periods and time; the group's
  CPU time is `cpuacct.usage` (v1) or cpu.stat's `usage_usec` (v2).
* **Tasks** (`pids.max`) counts processes and threads together: the fork or thread
  creation past it fails with EAGAIN (counted: `max` in pids.events), as Docker's
  `--pids-limit` does.

cgroup v1 has a hierarchy per controller (cpu and cpuacct are often mounted together);
the group is a folder in each one used (cpuacct, memory, pids always, for their figures;
cpu when there is a quota). cgroup v2 has one hierarchy, where prototest may have to move
itself into a leaf beside its bots' groups (`prototest-<pid>/judge`) first; otherwise
cgroups are not used and `missing()` says why. Finding and preparing prototest's own
cgroup is `prototest.sandbox.cgroupmount`'s; this module makes, reads and removes groups.

Groups live under prototest's own cgroup of each hierarchy (found from /proc/self/cgroup
and /proc/self/mountinfo, never fixed paths): `<own cgroup>/prototest-<pid>/bot-<n>`,
removed when the bot is done (leftovers of a prototest that died are removed by the next
one, when empty). This needs root, or a delegated subtree (a cgroup of ours, writable,
with the controllers enabled), and Linux; `missing()` tries once per process and says
why not; PROTOTEST_NO_CGROUP=1 turns it off. Reads are cheap: every figure's file stays
open and is read again from offset 0 (one pread, no open or close).
"""

from __future__ import annotations

import errno
import itertools
import os
import signal
import threading
import time
from dataclasses import dataclass

from .cgroupmount import (_PREFIX, _enable_v2, _Place, _prepare_v2, _probe, _read_text, _rmdir_quietly, _write,
                          locate, parse_mountinfo, parse_proc_cgroup)

#: Finding and preparing our own cgroup is cgroupmount's; its names in use stay importable here.
__all__ = ["Limits", "Group", "missing", "locate", "parse_mountinfo", "parse_proc_cgroup", "_prepare_v2"]

_READ = 4096
#: How long remove() waits for the killed processes to leave their group.
_REMOVE_WAIT = 2.0


@dataclass
class Limits:
    memory_bytes: int | None = None
    cpu_quota_us: int | None = None  # with cpu_period_us
    cpu_period_us: int = 100_000
    pids: int | None = None


_lock = threading.Lock()
_probed: tuple[str, _Place | None] | None = None  # (why not, place) once probed
_counter = itertools.count(1)
_cleaned_for: int | None = None  # the pid that cleaned up leftovers (forked workers do it again)


# -- probing ------------------------------------------------------------------------------

def missing() -> str:
    """"" when per-bot cgroups can be made here, else why not (one line). Tried once per
    process: a test group made, joined by a throwaway child, and removed."""
    global _probed
    if os.environ.get("PROTOTEST_NO_CGROUP"):
        return "turned off by PROTOTEST_NO_CGROUP"
    with _lock:
        if _probed is None:
            _probed = _probe(_try)
        return _probed[0]


def _place() -> _Place:
    why = missing()
    if why or _probed is None or _probed[1] is None:
        raise OSError(errno.ENOTSUP, f"no per-bot cgroups here: {why or 'not probed'}")
    return _probed[1]


def _try(place: _Place) -> None:
    """Make a group with every limit, move a throwaway child into it, remove it."""
    group = Group._make(place, Limits(memory_bytes=256 << 20, cpu_quota_us=50_000, pids=64), probe=True)
    try:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                for path in group.join_files:
                    _write(path, "0")
                code = 0
            except BaseException:  # noqa: BLE001
                pass
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise OSError(errno.EACCES, "a process cannot join the group", group.join_files[0])
        group.cpu_ns(), group.throttled_ns(), group.memory_peak(), group.oom_kills(), group.pids_refused()
    finally:
        group.remove()


# -- a group ------------------------------------------------------------------------------

class Group:
    """One bot's cgroup (a folder in each hierarchy used)."""

    version: int
    #: Files the bot's own process writes "0" into before its exec.
    join_files: list[str]
    #: The group's folders (v1: one a hierarchy; v2: one).
    folders: list[str]
    limits: Limits

    @classmethod
    def create(cls, limits: Limits) -> Group:
        """A new group with these limits (a unique name per bot); OSError when it cannot."""
        return cls._make(_place(), limits)

    @classmethod
    def _make(cls, place: _Place, limits: Limits, probe: bool = False) -> Group:
        global _cleaned_for
        if not probe and _cleaned_for != os.getpid():
            _cleaned_for = os.getpid()
            _clean_leftovers(place)
        self = cls.__new__(cls)
        self.version = place.version
        self.limits = limits
        self.folders, self.join_files, self._parents = [], [], []
        self._fds: dict[str, int] = {}
        self._removed = False
        name = f"probe-{os.getpid()}" if probe else f"bot-{next(_counter)}"
        try:
            if place.version == 2:
                self._make_v2(place.bases[""], name, limits)
            else:
                self._make_v1(place.bases, name, limits)
        except BaseException:
            self.remove()
            raise
        return self

    def _folder(self, base: str, name: str) -> str:
        parent = os.path.join(base, f"{_PREFIX}{os.getpid()}")
        try:
            os.mkdir(parent)
        except FileExistsError:
            pass
        if parent not in self._parents:
            self._parents.append(parent)
        return os.path.join(parent, name)

    def _mkdir(self, folder: str) -> None:
        for attempt in range(3):  # another process of ours may remove the parent, empty, meanwhile
            try:
                os.mkdir(folder)
                break
            except FileNotFoundError:
                if attempt == 2:
                    raise
                os.makedirs(os.path.dirname(folder), exist_ok=True)
        self.folders.append(folder)

    def _make_v1(self, bases: dict[str, str], name: str, limits: Limits) -> None:
        used = ["cpuacct", "memory", "pids"] + (["cpu"] if limits.cpu_quota_us else [])
        made: dict[str, str] = {}  # base -> folder: co-mounted controllers share one
        where: dict[str, str] = {}
        for controller in used:
            base = bases[controller]
            if base not in made:
                made[base] = self._folder(base, name)
                self._mkdir(made[base])
                self.join_files.append(os.path.join(made[base], "cgroup.procs"))
            where[controller] = made[base]
        cpu, memory, pids = where["cpuacct"], where["memory"], where["pids"]
        if limits.memory_bytes:
            _write(os.path.join(memory, "memory.limit_in_bytes"), str(limits.memory_bytes))
            memsw = os.path.join(memory, "memory.memsw.limit_in_bytes")
            if _swap_exists() and os.path.exists(memsw):
                _write(memsw, str(limits.memory_bytes))
            try:
                _write(os.path.join(memory, "memory.swappiness"), "0")
            except OSError:
                pass
        if limits.cpu_quota_us:
            _write(os.path.join(where["cpu"], "cpu.cfs_period_us"), str(limits.cpu_period_us))
            _write(os.path.join(where["cpu"], "cpu.cfs_quota_us"), str(limits.cpu_quota_us))
        if limits.pids:
            _write(os.path.join(pids, "pids.max"), str(limits.pids))
        self._open_v1(cpu, memory, pids, where.get("cpu"))

    def _open_v1(self, cpu: str, memory: str, pids: str, quota: str | None) -> None:
        if quota:
            self._open("cpu.stat", os.path.join(quota, "cpu.stat"))
        self._open("usage", os.path.join(cpu, "cpuacct.usage"))
        self._open("tasks", os.path.join(cpu, "tasks"))
        self._open("procs", os.path.join(cpu, "cgroup.procs"))
        self._open("peak", os.path.join(memory, "memory.max_usage_in_bytes"), needed=False)
        self._open("now", os.path.join(memory, "memory.usage_in_bytes"), needed=False)
        self._open("oom", os.path.join(memory, "memory.oom_control"), needed=False)
        self._open("pids.events", os.path.join(pids, "pids.events"), needed=False)
        self._open("pids.peak", os.path.join(pids, "pids.peak"), needed=False)

    def _make_v2(self, base: str, name: str, limits: Limits) -> None:
        folder = self._folder(base, name)
        _enable_v2(os.path.dirname(folder))  # the per-process parent has no processes of its own
        self._mkdir(folder)
        self.join_files.append(os.path.join(folder, "cgroup.procs"))
        if limits.memory_bytes:
            _write(os.path.join(folder, "memory.max"), str(limits.memory_bytes))
            try:
                _write(os.path.join(folder, "memory.swap.max"), "0")
            except OSError:  # no swap accounting: then no swap for anyone's limit to dodge
                pass
        if limits.cpu_quota_us:
            _write(os.path.join(folder, "cpu.max"), f"{limits.cpu_quota_us} {limits.cpu_period_us}")
        if limits.pids:
            _write(os.path.join(folder, "pids.max"), str(limits.pids))
        self._open_v2(folder)

    def _open_v2(self, folder: str) -> None:
        self._open("cpu.stat", os.path.join(folder, "cpu.stat"))
        self._open("tasks", os.path.join(folder, "cgroup.threads"))
        self._open("procs", os.path.join(folder, "cgroup.procs"))
        self._open("peak", os.path.join(folder, "memory.peak"), needed=False)
        self._open("now", os.path.join(folder, "memory.current"), needed=False)
        self._open("oom", os.path.join(folder, "memory.events"), needed=False)
        self._open("pids.events", os.path.join(folder, "pids.events"), needed=False)
        self._open("pids.peak", os.path.join(folder, "pids.peak"), needed=False)

    @classmethod
    def _attach(cls, version: int, folders: dict[str, str]) -> Group:
        """A Group over folders made elsewhere (for tests: v1 {"cpuacct", "memory", "pids",
        "cpu"}, v2 {"": folder}); remove() does not kill or remove anything of them."""
        self = cls.__new__(cls)
        self.version, self.limits, self._removed = version, Limits(), False
        self.folders, self.join_files, self._parents, self._fds = [], [], [], {}
        if version == 2:
            self._open_v2(folders[""])
        else:
            self._open_v1(folders["cpuacct"], folders["memory"], folders["pids"], folders.get("cpu"))
        return self

    def _open(self, key: str, path: str, needed: bool = True) -> None:
        try:
            self._fds[key] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            if needed:
                raise

    def _read(self, key: str) -> bytes:
        fd = self._fds.get(key)
        if fd is None:
            return b""
        try:
            return os.pread(fd, _READ, 0)
        except OSError:
            return b""

    # -- figures ----------------------------------------------------------------------------
    def cpu_ns(self) -> int:
        """CPU time of everything in the group, in nanoseconds."""
        if self.version == 1:
            return _int(self._read("usage"))
        return _field(self._read("cpu.stat"), b"usage_usec") * 1000

    def throttled_ns(self) -> int:
        """Time the group was throttled by its CPU quota (0 without one)."""
        if self.version == 1:
            return _field(self._read("cpu.stat"), b"throttled_time")
        return _field(self._read("cpu.stat"), b"throttled_usec") * 1000

    def nr_throttled(self) -> int:
        """Periods in which the group was throttled."""
        return _field(self._read("cpu.stat"), b"nr_throttled")

    def memory_peak(self) -> int | None:
        """The most memory the group was charged for at once (None where not shown)."""
        data = self._read("peak")
        return _int(data) if data.strip() else None

    def memory_now(self) -> int | None:
        data = self._read("now")
        return _int(data) if data.strip() else None

    def oom_kills(self) -> int:
        """Processes of the group killed by the OOM killer."""
        return _field(self._read("oom"), b"oom_kill")

    def pids_refused(self) -> int:
        """Forks and thread creations refused by pids.max."""
        return _field(self._read("pids.events"), b"max")

    def pids_peak(self) -> int | None:
        data = self._read("pids.peak")
        return _int(data) if data.strip() else None

    def tids(self) -> list[int]:
        """Every thread in the group (ids as this process sees them)."""
        return [int(t) for t in self._read_all("tasks").split()]

    def pids(self) -> list[int]:
        """Every process in the group."""
        return [int(t) for t in self._read_all("procs").split()]

    def _read_all(self, key: str) -> bytes:
        fd = self._fds.get(key)
        if fd is None:
            return b""
        data = b""
        try:  # one read unless the list is long (a short read is its end)
            while len(chunk := os.pread(fd, 65536, len(data))) == 65536:
                data += chunk
            data += chunk
        except OSError:
            pass
        return data

    # -- the end ----------------------------------------------------------------------------
    def remove(self) -> None:
        """Kill what is left in the group (SIGKILL), wait briefly for it to be gone, and
        remove the group's folders (and our per-process parent when empty). Never raises."""
        if self._removed:
            return
        self._removed = True
        try:
            for fd in self._fds.values():
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._fds = {}
            pending = list(self.folders)
            deadline = time.monotonic() + _REMOVE_WAIT
            while pending:
                for folder in list(pending):
                    _kill_all(folder)
                    try:
                        os.rmdir(folder)
                        pending.remove(folder)
                    except FileNotFoundError:
                        pending.remove(folder)
                    except OSError:
                        pass
                if not pending or time.monotonic() > deadline:
                    break
                time.sleep(0.002)
            for parent in self._parents:
                _rmdir_quietly(parent)
        except Exception:  # noqa: BLE001 - never raises
            pass

    def __enter__(self) -> Group:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def _kill_all(folder: str) -> None:
    try:  # v2 (5.14 and later): the kernel kills every process of the group at once
        _write(os.path.join(folder, "cgroup.kill"), "1")
    except OSError:
        pass
    try:
        pids = _read_text(os.path.join(folder, "cgroup.procs")).split()
    except OSError:
        return
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def _clean_leftovers(place: _Place) -> None:
    """Remove empty prototest-<pid> folders whose prototest is gone."""
    for base in set(place.bases.values()):
        try:
            names = os.listdir(base)
        except OSError:
            continue
        for name in names:
            if not name.startswith(_PREFIX) or not name[len(_PREFIX):].isdigit():
                continue
            pid = int(name[len(_PREFIX):])
            if pid == os.getpid() or _alive(pid):
                continue
            top = os.path.join(base, name)
            for folder, _, _ in sorted(os.walk(top), key=lambda entry: -entry[0].count("/")):
                _rmdir_quietly(folder)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


_swap: bool | None = None


def _swap_exists() -> bool:
    global _swap
    if _swap is None:
        try:
            _swap = len(_read_text("/proc/swaps").strip().splitlines()) > 1
        except OSError:
            _swap = True  # not known: set the limit anyway
    return _swap


def _int(data: bytes) -> int:
    try:
        return int(data.split()[0])
    except (IndexError, ValueError):
        return 0


def _field(data: bytes, key: bytes) -> int:
    """The number after `key` on its line ("oom_kill 3", "max 2")."""
    for line in data.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            try:
                return int(parts[1])
            except ValueError:
                return 0
    return 0
