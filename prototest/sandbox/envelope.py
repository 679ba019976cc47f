"""The platform's envelope: what a bot may use besides the protocol, and what it used.

A real judge runs a bot inside limits (Proglad: 0.3 CPU, 128 MB, 100 processes and
threads, no network; CodinGame: 768 MB). A bot over one is killed, throttled or refused
there, whatever its moves. This module holds prototest's side of it:

* **What the spec says** (`Envelope`, from the spec's `[envelope]` table).
* **What the bot used, answer by answer** (`Meter`): its CPU time, the time it was ready
  to run but waited for a CPU (the scheduler's run-queue delay, from each thread's
  `/proc/PID/task/TID/schedstat`), and the time a CPU quota held it back (its cgroup's
  `cpu.stat`), summed over every thread of every process of the bot. The kernel counts a
  throttled thread as waiting, so the wait the *machine* caused is the wait less the
  throttled time. With a cgroup of its own (`prototest.sandbox.cgroups`) the bot's threads are
  listed by the group and its CPU time read from it in one read; without one they are
  found from the bot's pid along the children files.
* **A busy machine is not the bot's fault** (`excused_ns`): an answer over its limit is
  the bot's only while it is over the limit without the time the machine kept from it.
  That time is the longest wait of one of its threads for a CPU (a wait of two threads at
  once is one wait of the answer) and the judge's own wait to read it, never more than
  the CPU time that other processes of the machine used meanwhile (a bot whose own
  threads outnumber the cores waits for itself, and that is no excuse), nor than the
  answer's time less the CPU time of its busiest thread (the waits may overlap; a thread
  that ran was not kept from a CPU).
* **The CPU share where no cgroup enforces it** (`ShareModel`): CFS bandwidth control
  gives the bot `share x period` of CPU time per period, all its threads together; when
  that is spent, it waits for the next period. The model replays the bot's CPU use over
  the game (what it spent between turns counts: turns that come back to back share a
  period's quota) under every phase of the period, and gives the worst wall time an
  answer can take there.
* **Memory where no cgroup enforces it** (`Meter.memory_peak`): the peak resident memory
  of each process of the bot (`VmHWM`, the kernel's own high-water mark, so 200 MB filled
  and freed between two looks is still seen), summed over its processes.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

_MS = 1_000_000
_MB = 1 << 20
#: Without a cgroup, the bot's threads are looked for again at most this often (ms).
WALK_MS = 50


@dataclass(frozen=True)
class Envelope:
    """A platform's limits, as the spec's `[envelope]` table gives them (None: no limit)."""

    platform: str = ""
    memory_bytes: int | None = None
    cpu_share: float | None = None
    cpu_period_ns: int = 100 * _MS
    pids: int | None = None
    network: str = "allowed"
    near_percent: int = 90

    @classmethod
    def from_spec(cls, spec: Any) -> "Envelope":
        e = spec.envelope
        return cls(platform=e.platform or spec.game.title or spec.game.name,
                   memory_bytes=e.memory_mb * _MB or None, cpu_share=e.cpu_share or None,
                   cpu_period_ns=e.cpu_period_ms * _MS, pids=e.pids or None, network=e.network,
                   near_percent=e.near_limit_percent)

    @property
    def limited(self) -> bool:
        return bool(self.memory_bytes or self.cpu_share or self.pids or self.network == "none")

    def lines(self) -> list[str]:
        """The limits in words, one a line (for `prototest games` and the summary)."""
        out = []
        if self.memory_bytes:
            out.append(f"memory {self.memory_bytes // _MB} MB")
        if self.cpu_share:
            out.append(f"CPU {self.cpu_share:g} ({self.cpu_share * self.cpu_period_ns / _MS:g} ms "
                       f"per {self.cpu_period_ns / _MS:g} ms)")
        if self.pids:
            out.append(f"{self.pids} processes and threads")
        out.append("no network" if self.network == "none" else "network not cut off")
        return out

    def describe(self) -> str:
        return f"{self.platform}: " + ", ".join(self.lines())


NO_ENVELOPE = Envelope(platform="no platform")


# -- what the bot used ------------------------------------------------------------------------

@dataclass
class Usage:
    """The bot's use of the machine at one moment (cumulative since it started)."""

    t_ns: int
    cpu_ns: int
    #: per thread id: (run ns, wait ns) from its schedstat
    threads: dict[int, tuple[int, int]]
    throttled_ns: int
    #: every process's CPU time on the machine, when it can be read (else None)
    machine_ns: int | None
    #: the judge's own run-queue delay (the thread that reads the answer): an answer that
    #: waited in the pipe while the judge waited for a CPU is the machine's doing too
    judge_wait_ns: int = 0
    #: that delay as it was when the judge last looked for the bot's output and found none
    #: (a poll that ended by its timeout, or for the bot's stderr): the answer came after,
    #: so only a wait since then can have kept it from being read; the judge's waits at
    #: its wake-ups while the bot worked (a look at its memory, its stderr, a look again
    #: past a deadline) kept nothing from it
    judge_mark_ns: int = 0
    #: how often the judge's thread has been put on a CPU (schedstat's third field), now
    judge_slices: int = 0
    #: the judge's delay and slices as they were when its last look that could wait began
    #: (a poll with a timeout), or at its last look that found none: if it was put on a CPU
    #: again since, that look waited for the answer (the pipe was empty when it began), so
    #: what the judge waited for a CPU before it overlapped the bot's work
    judge_look_ns: int = 0
    judge_look_slices: int = 0


@dataclass
class Spent:
    """What the bot used between two moments: one answer."""

    wall_ns: int
    cpu_ns: int
    #: run-queue delay summed over threads, and the longest of one thread
    wait_ns: int
    wait_max_ns: int
    #: the time the CPU quota held the bot back (its group throttled while a thread of it
    #: waited to run)
    throttled_ns: int
    #: CPU time of the rest of the machine meanwhile (None when not known)
    others_ns: int | None
    #: the judge's own run-queue delay meanwhile
    judge_wait_ns: int = 0
    #: the CPU time of the bot's busiest thread meanwhile: time it ran, not kept from a CPU
    run_max_ns: int = 0

    @property
    def bot_wait_ns(self) -> int:
        """The longest wait of one of the bot's threads for a CPU, less the quota's time
        (a throttled thread counts as waiting)."""
        return max(0, self.wait_max_ns - self.throttled_ns)

    @property
    def excused_ns(self) -> int:
        """The time the machine (not the bot, not its quota) kept the answer from the
        judge: the bot's longest wait of one thread less the quota's (bot_wait_ns), and
        the judge's own wait to read it, never more than the CPU time the machine's other
        processes used meanwhile, nor than the answer's time less the time its busiest
        thread ran (the bot's wait and the judge's may overlap: an answer is never its own
        for less time than a thread of it computed; prototest.judge.answertime says it in words)."""
        wait = self.bot_wait_ns + self.judge_wait_ns
        if self.others_ns is not None:
            wait = min(wait, self.others_ns)
        return max(0, min(wait, self.wall_ns - self.run_max_ns))

    @property
    def own_ns(self) -> int:
        """The answer's time less what the machine kept from it."""
        return self.wall_ns - self.excused_ns


def spent(before: Usage, after: Usage) -> Spent:
    wait_sum = wait_max = run_sum = run_max = 0
    for tid, (run, wait) in after.threads.items():
        r0, w0 = before.threads.get(tid, (0, 0))
        dw = max(0, wait - w0)
        wait_sum += dw
        wait_max = max(wait_max, dw)
        run_sum += max(0, run - r0)
        if tid in before.threads or not before.threads:  # a thread first seen now: its past is not this answer's
            run_max = max(run_max, run - r0)
    cpu = max(0, after.cpu_ns - before.cpu_ns) if after.cpu_ns or before.cpu_ns else run_sum
    others = None
    if after.machine_ns is not None and before.machine_ns is not None:
        others = max(0, after.machine_ns - before.machine_ns - cpu)
    # The group is throttled for the rest of a period once its quota is spent, whether the
    # bot runs or sleeps then: only the time a thread of it waited meanwhile held it back.
    held = min(max(0, after.throttled_ns - before.throttled_ns), wait_max)
    judge_since = max(before.judge_wait_ns, after.judge_mark_ns)
    if after.judge_slices != after.judge_look_slices:  # its last look waited: the answer came after it began
        judge_since = max(judge_since, after.judge_look_ns)
    return Spent(after.t_ns - before.t_ns, cpu, wait_sum, wait_max, held, others,
                 max(0, after.judge_wait_ns - judge_since), run_max)


class _Pread:
    """A file of /proc or /sys read again and again: opened once, read from offset 0."""

    __slots__ = ("fd",)

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)

    def read(self) -> bytes:
        return os.pread(self.fd, 4096, 0)

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


def _machine_reader() -> _Pread | None:
    """The whole machine's CPU time: the root cpuacct group's usage (ns), where readable."""
    for path in ("/sys/fs/cgroup/cpuacct/cpuacct.usage", "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage"):
        try:
            return _Pread(path)
        except OSError:
            continue
    return None


_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _machine_from_stat() -> int | None:
    """The machine's CPU time from /proc/stat (clock ticks: 10 ms steps)."""
    try:
        with open("/proc/stat", "rb") as fh:
            first = fh.readline().split()
    except OSError:
        return None
    if len(first) < 8 or first[0] != b"cpu":
        return None
    busy = sum(int(v) for i, v in enumerate(first[1:9]) if i not in (3, 4))  # less idle, iowait
    return busy * (1_000_000_000 // _CLK_TCK)


class Meter:
    """Reads one bot's use of the machine: CPU time, run-queue delay, throttling, memory."""

    def __init__(self, pid: int, group: Any = None) -> None:
        self.pid = pid
        self.group = group  # a prototest.sandbox.cgroups.Group, or None
        self._sched: dict[int, _Pread] = {}
        self._machine = _machine_reader()
        try:  # this thread's: the meter is read by the thread that reads the bot's answers
            self._judge: _Pread | None = _Pread("/proc/thread-self/schedstat")
        except OSError:
            self._judge = None
        self._use_stat = self._machine is None
        self._status: dict[int, _Pread] = {}
        self._tids: list[int] = []
        self._pids: list[int] = []  # the processes the last walk found
        self._walked_ns = 0
        #: the bot's main process's stat and children files, open for the walk's quick look
        self._main_stat: _Pread | None = None
        self._main_children: _Pread | None = None
        #: those files could not be opened: every walk lists the folders
        self._no_quick_look = False
        self.peak_bytes = 0
        #: the most threads (of all its processes) seen at once
        self.peak_tasks = 0
        #: the judge's run-queue delay at its last look that found no output, and its delay
        #: and slices when its last look that could wait began (see Usage)
        self._judge_mark, slices = self._judge_sched()
        self._judge_look = (self._judge_mark, slices)
        self.start = Usage(0, 0, {}, 0, self._machine_now(), self._judge_mark, self._judge_mark, slices,
                           self._judge_mark, slices)

    def _judge_sched(self) -> tuple[int, int]:
        """The judge thread's run-queue delay (ns) and how often it was put on a CPU."""
        if self._judge is not None:
            try:
                fields = self._judge.read().split()
                return int(fields[1]), int(fields[2])
            except (OSError, ValueError, IndexError):
                pass
        return 0, 0

    def judge_looking(self) -> None:
        """The judge begins a look that may wait for the bot's output (a poll with a
        timeout). If it waits, the pipe was empty: what the judge waited for a CPU until
        now overlapped the bot's work and kept nothing from the answer. If it finds the
        answer at once, the judge was never off a CPU meanwhile, and the answer may have
        waited in the pipe while the judge waited before (Usage.judge_look_slices tells)."""
        self._judge_look = self._judge_sched()

    def judge_looked(self) -> None:
        """The judge looked for the bot's output and found none: what it waited for a CPU
        until now cannot have kept an answer still to come from being read. (A look that
        found output marks nothing: the answer may have waited in the pipe meanwhile.)"""
        self._judge_look = self._judge_sched()
        self._judge_mark = self._judge_look[0]

    def _machine_now(self) -> int | None:
        if self._machine is not None:
            try:
                return int(self._machine.read())
            except (OSError, ValueError):
                return None
        return _machine_from_stat() if self._use_stat else None

    # -- threads ----------------------------------------------------------------------------
    def tids(self, fresh: bool = False) -> list[int]:
        """Every thread of the bot: its cgroup's list, or (without one) a walk along the
        children files, done again at most every WALK_MS (a thread born meanwhile is
        counted from the next walk on) unless `fresh`."""
        if self.group is not None:
            try:
                return self.group.tids()
            except OSError:
                pass
        now = _now()
        if fresh or now - self._walked_ns > WALK_MS * _MS or not self._tids:
            tasks = self._tasks()
            self._tids = [tid for _, tid in tasks]
            self._pids = sorted({pid for pid, _ in tasks})
            self._walked_ns = now
        return self._tids

    def _lone(self) -> bool:
        """Whether the bot is one process of one thread now (no child, no other thread):
        two reads of files kept open (its stat's thread count, its children file), where
        the walk lists a folder and opens a file; most bots are so, at every walk."""
        if self._main_stat is None or self._main_children is None:
            if self._no_quick_look:
                return False
            try:
                stat_file = _Pread(f"/proc/{self.pid}/stat")
            except OSError:
                self._no_quick_look = True
                return False
            try:
                children_file = _Pread(f"/proc/{self.pid}/task/{self.pid}/children")
            except OSError:  # a kernel without the children file: the walk lists the folders
                stat_file.close()
                self._no_quick_look = True
                return False
            self._main_stat, self._main_children = stat_file, children_file
        try:
            stat = self._main_stat.read()
            if stat[stat.rfind(b")") + 2:].split()[17] != b"1":  # num_threads, the 20th field
                return False
            return not self._main_children.read().strip()
        except (OSError, ValueError, IndexError):
            return False

    def _tasks(self) -> list[tuple[int, int]]:
        """(pid, tid) of every thread of the bot's processes, along the children files."""
        if self._lone():
            return [(self.pid, self.pid)]
        out: list[tuple[int, int]] = []
        stack = [self.pid]
        seen: set[int] = set()
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for entry in tasks:
                tid = int(entry)
                out.append((pid, tid))
                try:
                    fd = os.open(f"/proc/{pid}/task/{tid}/children", os.O_RDONLY | os.O_CLOEXEC)
                    try:
                        stack.extend(int(c) for c in os.read(fd, 65536).split())
                    finally:
                        os.close(fd)
                except OSError:
                    pass
        return out

    def waiting_threads(self, probe_ns: int = 2 * _MS) -> bool:
        """Whether a thread of the bot is ready to run but gets no CPU now: runnable (R),
        and its CPU time grew by less than half of a short probe. (A thread's run-queue
        delay is counted only once it runs again: a wait going on now is seen this way.)"""
        runnable = []
        for tid in self.tids(fresh=True):
            try:
                with open(f"/proc/{tid}/stat", "rb") as fh:
                    stat = fh.read()
                if stat[stat.rfind(b")") + 2: stat.rfind(b")") + 3] != b"R":
                    continue
                with open(f"/proc/{tid}/schedstat", "rb") as fh:
                    runnable.append((tid, int(fh.read().split()[0])))
            except (OSError, ValueError, IndexError):
                continue
        if not runnable:
            return False
        time.sleep(probe_ns / 1e9)
        for tid, run in runnable:
            try:
                with open(f"/proc/{tid}/schedstat", "rb") as fh:
                    if int(fh.read().split()[0]) - run < probe_ns // 2:
                        return True
            except (OSError, ValueError, IndexError):
                continue
        return False

    def processes(self) -> list[int]:
        return sorted({pid for pid, _ in self._tasks()})

    def usage(self, fresh: bool = False) -> Usage:
        """The bot's use so far (`fresh`: every thread looked for now)."""
        threads: dict[int, tuple[int, int]] = {}
        sched = self._sched
        tids = self.tids(fresh)
        for tid in tids:
            reader = sched.get(tid)
            if reader is None:
                try:
                    reader = sched[tid] = _Pread(f"/proc/{tid}/schedstat")
                except OSError:
                    continue
            try:
                fields = reader.read().split()
                threads[tid] = (int(fields[0]), int(fields[1]))
            except (OSError, ValueError, IndexError):
                continue
        if len(tids) > self.peak_tasks:
            self.peak_tasks = len(tids)
        if len(sched) > len(tids) + 8:  # threads gone: close their files
            for tid in set(sched) - set(tids):
                sched.pop(tid).close()
        cpu = throttled = 0
        if self.group is not None:
            try:
                cpu, throttled = self.group.cpu_ns(), self.group.throttled_ns()
            except (OSError, ValueError):
                cpu = throttled = 0
        judge_wait, judge_slices = self._judge_sched()
        return Usage(_now(), cpu, threads, throttled, self._machine_now(), judge_wait, self._judge_mark, judge_slices,
                     *self._judge_look)

    # -- memory -----------------------------------------------------------------------------
    def memory_peak(self, recent: bool = False) -> int:
        """The most memory the bot has used so far (bytes): its cgroup's peak, or the sum
        of its processes' resident high-water marks (a process gone takes its mark with it:
        the peak seen before it went is kept). `recent`: the processes of the last walk
        of the threads when it is at most WALK_MS old (the figure taken between answers),
        else walked now."""
        if self.group is not None:
            try:
                peak = self.group.memory_peak()
            except OSError:
                peak = None
            if peak is not None:
                self.peak_bytes = max(self.peak_bytes, peak)
                return self.peak_bytes
        total = 0
        if recent and self._pids and _now() - self._walked_ns <= WALK_MS * _MS:
            pids = self._pids
        else:
            pids = self.processes()
        for pid in pids:
            reader = self._status.get(pid)
            if reader is None:
                try:
                    reader = self._status[pid] = _Pread(f"/proc/{pid}/status")
                except OSError:
                    continue
            try:
                data = reader.read()
            except OSError:
                continue
            at = data.find(b"VmHWM:")
            if at >= 0:
                total += int(data[at + 6: data.index(b"kB", at)]) * 1024
        for pid in set(self._status) - set(pids):
            self._status.pop(pid).close()
        self.peak_bytes = max(self.peak_bytes, total)
        return self.peak_bytes

    def close(self) -> None:
        for reader in (*self._sched.values(), *self._status.values()):
            reader.close()
        for reader in (self._main_stat, self._main_children):
            if reader is not None:
                reader.close()
        self._main_stat = self._main_children = None
        self._sched.clear()
        self._status.clear()
        if self._machine is not None:
            self._machine.close()
            self._machine = None
        if self._judge is not None:
            self._judge.close()
            self._judge = None


_now = time.perf_counter_ns


# -- the CPU share, predicted --------------------------------------------------------------------

@dataclass
class _Phase:
    t: float  # simulated time the bot has run up to, ns (period boundaries at multiples of the period)
    used: float  # CPU used in the current period, ns
    period: int  # the index of that period
    req: float  # when the current stretch began (the request's write, in simulated time)


@dataclass
class ShareModel:
    """CFS bandwidth control replayed over the bot's CPU use, for every phase of the period.

    The bot's use comes as a sequence of stretches, each a wall time and the CPU time
    spent in it: an answer (from the request's write to the answer's read) or a gap
    between answers (the judge's and the opponent's time; what the bot spends there,
    thinking on the opponent's time, uses the quota too). Within an answer, the bot runs
    at the parallelism it showed (CPU time / wall time, at least one CPU); the time it
    spent not using a CPU (waiting for I/O, sleeping) comes first. Under the quota it runs
    until `share x period` of CPU is spent in the current period, then waits for the next.
    A gap's CPU time is placed at its end (the worst case: right before the request)."""

    share: float
    period_ns: int
    phases: int = 20
    _state: list[_Phase] = field(default_factory=list)

    def __post_init__(self) -> None:
        step = self.period_ns / self.phases
        self._state = [_Phase(i * step, 0.0, 0, i * step) for i in range(self.phases)]

    def _run(self, p: _Phase, cpu: float, rate: float) -> None:
        quota = self.share * self.period_ns
        while cpu > 1e-6:
            index = int(p.t // self.period_ns)
            if index != p.period:
                p.period, p.used = index, 0.0
            left = quota - p.used
            end = (index + 1) * self.period_ns
            if left <= 1e-6:
                p.t = end
                continue
            dt = min(end - p.t, left / rate, cpu / rate)
            if dt <= 0:
                p.t = end
                continue
            p.t += dt
            p.used += dt * rate
            cpu -= dt * rate

    def gap(self, wall_ns: int, cpu_ns: int) -> None:
        """A stretch between answers (or from the bot's start to its first request)."""
        for p in self._state:
            begin = p.req
            p.t = max(p.t, begin + max(0.0, wall_ns - cpu_ns))
            self._run(p, cpu_ns, 1.0)
            p.req = begin + wall_ns

    def answer(self, wall_ns: int, cpu_ns: int) -> int:
        """An answer from its request: the worst wall time it takes under the share (ns),
        and never less than the time it took here."""
        rate = max(1.0, cpu_ns / wall_ns) if wall_ns > 0 else 1.0
        idle = max(0.0, wall_ns - cpu_ns / rate)
        worst = 0.0
        for p in self._state:
            begin = p.req
            p.t = max(p.t, begin + idle)
            self._run(p, cpu_ns, rate)
            worst = max(worst, p.t - begin)
            p.req = max(p.t, begin + wall_ns)
        return int(max(worst, wall_ns))


def share_words(env: Envelope) -> str:
    assert env.cpu_share
    return (f"{env.platform}'s {env.cpu_share:g} CPU ({env.cpu_share * env.cpu_period_ns / _MS:g} ms of CPU "
            f"per {env.cpu_period_ns / _MS:g} ms)")


def mb(n: int | float) -> str:
    return f"{n / _MB:.0f} MB"
