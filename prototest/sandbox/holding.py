"""How one bot is held to the platform's limits, and what it uses of the machine.

A cgroup of the bot's own holds the limits where the machine allows one; else the judge
holds them by measuring: the meter reads the bot's use, and without a cgroup the judge
looks at its peak memory while it waits and kills it over the limit, as the platform's
OOM killer would. Once the bot is dead its last figures are kept (`final_*`): its meter
and cgroup are gone by then.
"""

from __future__ import annotations

import math
import os
import signal
import time

from . import envelope as envelopemod

_MS = 1_000_000
#: Without a cgroup, how often the judge looks at the bot's peak memory while it waits
#: (the peak is the kernel's high-water mark: a peak between two looks is still seen).
MEMORY_LOOK_MS = 10
#: Without a memory limit, the peak is read for the figures at most this often (at answers).
MEMORY_FIGURE_MS = 100


class EnvelopeHold:
    """The platform's limits for one bot (None: none), how they are held ("cgroup v1",
    "measured"), the bot's cgroup when it has one, and the meter that reads its use."""

    #: The figures kept when the bot is dead (its meter and cgroup are gone by then).
    final_peak: int | None = None
    final_tasks = 0
    final_oom = False
    final_pids_refused = 0

    def __init__(self, envelope: envelopemod.Envelope | None) -> None:
        self.envelope = envelope
        self.enforced = "none"
        self.enforced_missing = ""
        self.group = None
        self.meter: envelopemod.Meter | None = None
        #: Without a cgroup: the memory limit the judge holds the bot to by looking
        #: (its peak resident memory, every MEMORY_LOOK_MS while it runs), and the finding
        #: event once it went over (the bot is then killed, as the OOM killer would).
        self.memory_limit: int | None = None
        self._memory_next_ns = 0
        self.memory_event: dict | None = None

    def make_group(self, env: dict[str, str]) -> tuple[str, ...]:
        """A cgroup of the bot's own with the platform's limits, where the machine allows
        one; else the limits are held by measuring (memory, the CPU share) and by the
        keeper (processes and threads). Returns the files the bot joins the group by."""
        e = self.envelope
        if e is None or os.environ.get("PROTOTEST_NO_ACCOUNTING"):
            return ()
        if not (e.memory_bytes or e.cpu_share or e.pids):  # nothing to hold: /proc accounts for it
            return ()
        from . import cgroups

        why = cgroups.missing()
        if not why:
            try:
                self.group = cgroups.Group.create(cgroups.Limits(
                    memory_bytes=e.memory_bytes,
                    cpu_quota_us=int(e.cpu_share * e.cpu_period_ns / 1000) if e.cpu_share else None,
                    cpu_period_us=e.cpu_period_ns // 1000, pids=e.pids))
                self.enforced = f"cgroup v{self.group.version}"
                return tuple(self.group.join_files)
            except OSError as exc:
                why = f"the bot's cgroup could not be made ({exc.strerror or exc})"
        self.enforced, self.enforced_missing = "measured", why
        self.memory_limit = e.memory_bytes
        if e.memory_bytes and not any(k.startswith("JAVA_TOOL_OPTIONS") for k in env):
            # A JVM sizes its heap from its container's memory limit; without a cgroup it
            # is told the limit, so that it sizes the heap as it would on the platform.
            # (The JVM says "Picked up JAVA_TOOL_OPTIONS" on stderr.) With a CPU share, it is
            # told the CPUs it would see, so it chooses its collector and threads as there.
            options = f"-XX:MaxRAM={e.memory_bytes // (1 << 20)}m"
            if e.cpu_share:
                options += f" -XX:ActiveProcessorCount={max(1, math.ceil(e.cpu_share))}"
            env["JAVA_TOOL_OPTIONS"] = options
        return ()

    def outside_group(self, why: str) -> None:
        """The bot could not join its cgroup: measure instead."""
        self.enforced_missing = why
        self.drop_group()
        self.enforced = "measured"
        self.memory_limit = self.envelope.memory_bytes if self.envelope is not None else None

    def no_keeper(self) -> None:
        """No keeper on this system: the limits are held by measuring."""
        if self.envelope is not None:
            self.enforced, self.enforced_missing = "measured", "no keeper on this system"
            self.memory_limit = self.envelope.memory_bytes

    def start_meter(self, pid: int) -> None:
        if self.envelope is not None and not os.environ.get("PROTOTEST_NO_ACCOUNTING") and os.path.isdir("/proc/self/task"):
            self.meter = envelopemod.Meter(pid, self.group)

    def end(self) -> None:
        """Once the bot is dead: keep its last figures, remove its cgroup, close the meter."""
        if self.meter is None and self.group is None:
            return
        self.final_peak = self.memory_peak()
        self.final_oom = self.oom_killed()
        self.final_pids_refused = self.pids_refused()
        self.final_tasks = self.tasks_peak()
        self.drop_group()
        if self.meter is not None:
            self.meter.close()
            self.meter = None

    def tasks_peak(self) -> int:
        """The most processes and threads of the bot seen at once (its cgroup's count, or
        the meter's at its readings)."""
        peak = self.meter.peak_tasks if self.meter is not None else self.final_tasks
        if self.group is not None:
            try:
                peak = max(peak, self.group.pids_peak() or 0)
            except (OSError, ValueError):
                pass
        return peak

    def drop_group(self) -> None:
        if self.group is not None:
            self.group.remove()
            self.group = None

    def usage(self, fresh: bool = False) -> envelopemod.Usage | None:
        """The bot's use of the machine so far (None when it is not measured); `fresh`:
        every thread of the bot looked for now, not at the last walk."""
        if self.meter is None:
            return None
        try:
            used = self.meter.usage(fresh)
            if used.t_ns >= self._memory_next_ns and not self.memory_limit:  # the peak, for the figures
                self._memory_next_ns = used.t_ns + MEMORY_FIGURE_MS * _MS
                self.meter.memory_peak(recent=True)
            return used
        except (OSError, ValueError):
            return None

    def look_at_memory(self) -> None:
        """Without a cgroup: the bot's peak memory against the platform's limit; over it,
        the bot is killed, as the platform's OOM killer would."""
        now = time.perf_counter_ns()
        if now < self._memory_next_ns or self.meter is None or self.memory_event is not None:
            return
        self._memory_next_ns = now + MEMORY_LOOK_MS * _MS
        assert self.memory_limit is not None
        try:
            peak = self.meter.memory_peak()
        except (OSError, ValueError):
            return
        if peak > self.memory_limit:
            self.memory_event = {"e": "memory", "t": now, "peak": peak, "limit": self.memory_limit}
            for pid in reversed(self.meter.processes()):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def memory_peak(self) -> int | None:
        if self.meter is None:
            return self.final_peak
        try:
            return self.meter.memory_peak()
        except (OSError, ValueError):
            return self.meter.peak_bytes or None

    def oom_killed(self) -> bool:
        """Whether the platform's memory limit killed a process of the bot (its cgroup's
        OOM killer, or the judge's look at its memory)."""
        if self.memory_event is not None or self.final_oom:
            return True
        if self.group is not None:
            try:
                return self.group.oom_kills() > 0
            except (OSError, ValueError):
                return False
        return False

    def pids_refused(self) -> int:
        """Forks and threads refused by the cgroup's pids limit (the keeper's refusals
        come as events)."""
        if self.group is not None:
            try:
                return self.group.pids_refused()
            except (OSError, ValueError):
                return 0
        return self.final_pids_refused
