"""The keeper's watch over the bot's calls: what its seccomp filter stops (see
`prototest.sandbox.keeper` for what is watched and why)."""

from __future__ import annotations

import errno
import os
import time
from typing import TYPE_CHECKING, Any

from . import syscalls
from .keeperprocs import _signed, _read_text, _processes_below, _threads, _command

if TYPE_CHECKING:
    from .keepermain import _Keeper

#: Forks and threads refused past the pids limit that are reported one by one; after
#: these, the keeper counts them and reports the last one (with the total) at the end.
_REFUSALS_SHOWN = 5


class CallWatch:
    """The calls the keeper's seccomp filter stops in the bot's processes: file operations
    and network calls are reported and go on; a SIGKILL or SIGSTOP to the judge's side is
    reported and not sent; a fork or thread past `pids_limit` is refused. `k` is the
    keeper, whose listener, watches and report pipe these use."""

    def __init__(self, k: _Keeper) -> None:
        self.k = k
        self.refused = 0  # forks and threads refused past the pids limit
        #: The bot's processes as last found (None: walk the tree again). Every new process
        #: passes through the keeper (a fork, or a clone without CLONE_THREAD): between
        #: those, a count reads only their num_threads, not every thread's children file.
        self.task_processes: list[int] | None = None
        self.refusal_unreported: dict[str, Any] | None = None

    # -- file operations and the network ---------------------------------------------------
    def notification(self) -> None:
        from . import linux

        assert self.k.listener is not None
        try:
            note = linux.receive(self.k.listener)
        except OSError:
            return
        if note is None:
            return
        t_ns = time.perf_counter_ns()
        kind = syscalls.kind_of_call(note)
        if kind is not None and kind[0] == "procs":
            self._new_task(note, kind[1], t_ns)
            return
        if kind is not None and kind[0] == "sig":
            self._signal_call(note, kind[1], t_ns)
            return
        try:
            event = syscalls.describe_net(note, kind[1]) if kind is not None and kind[0] == "net" else syscalls.describe(note)
            if event is not None and linux.still_valid(self.k.listener, note.id):
                event.update(t=t_ns, pid=note.pid, cmd=_command(note.pid))
                self.k._report(event)
        except Exception:  # noqa: BLE001 - a report lost, never the bot's call
            pass
        finally:
            linux.let_it_continue(self.k.listener, note.id)

    # -- SIGKILL and SIGSTOP to the judge ----------------------------------------------------
    def _signal_call(self, note: Any, call: str, t_ns: int) -> None:
        """A SIGKILL or SIGSTOP the bot sends (the filter lets no other signal stop here):
        to a process of its own it goes on; to the judge's side (this keeper, the PID
        namespace's first process, prototest, anything outside the bot) it is reported, as
        a signal read from the signalfd is, and not obeyed, as those are not: the call
        returns 0 and nothing is sent (the keeper cannot catch these two: a SIGKILL would
        end it, and so the game, or be dropped without a trace by the kernel, a namespace's
        first process ignoring it). The bot plays on, as after any other signal to its judge."""
        from . import linux

        try:
            target = self._signal_target(note, call)
        except Exception:  # noqa: BLE001 - not known: the call goes on, as it would without us
            target = None
        if target is None or not linux.still_valid(self.k.listener, note.id):  # type: ignore[arg-type]
            linux.let_it_continue(self.k.listener, note.id)  # type: ignore[arg-type]
            return
        signo = note.args[2 if call in ("tgkill", "rt_tgsigqueueinfo") else 1] & 0xFFFFFFFF
        self.k._report({"e": "signal", "t": t_ns, "sig": signo, "pid": note.pid, "cmd": _command(note.pid),
                      "to": target})
        linux.skip_as_done(self.k.listener, note.id)  # type: ignore[arg-type]

    def _signal_target(self, note: Any, call: str) -> str | None:
        """"keeper" or "prototest" when the signal would reach the judge's side, None when
        it reaches only the bot's own processes. Pids in the call are the bot's: in its PID
        namespace, 1 is the namespace's first process and every other one is the bot's."""
        if call == "pidfd_send_signal":
            return self._pidfd_target(note.pid, _signed(note.args[0]))
        pid = _signed(note.args[0])
        if self.k.pidns.inner is not None:  # the bot's namespace holds only its own processes and PID 1
            return "keeper" if pid == 1 else None
        if pid == 0:  # its own process group
            return None
        if pid == -1:  # every process it may signal: prototest among them
            return "prototest"
        if pid < -1:  # a process group: the bot's own (led by one of its processes) or another
            return None if self.k._ours(-pid) and -pid != os.getpid() else "prototest"
        if pid == os.getpid():
            return "keeper"
        if not os.path.exists(f"/proc/{pid}"):  # no such process: the call fails by itself (ESRCH)
            return None
        return None if self.k._ours(pid) else "prototest"

    def _pidfd_target(self, caller: int, fd: int) -> str | None:
        """The target of a pidfd_send_signal: the process its pidfd (the caller's `fd`) names."""
        info = _read_text(f"/proc/{caller}/fdinfo/{fd}")
        line = next((line for line in info.splitlines() if line.startswith("Pid:")), None)
        if line is None:
            return None
        pid = int(line.split()[1])
        if pid in (os.getpid(), self.k.pidns.inner):
            return "keeper"
        return None if self.k._ours(pid) else "prototest"

    # -- processes and threads past the limit ------------------------------------------------
    def _new_task(self, note: Any, call: str, t_ns: int) -> None:
        """A fork or a thread of the bot's: let it be, unless the bot has `pids_limit`
        tasks already; then refuse it with EAGAIN, as the kernel's pids controller does."""
        from . import linux

        limit = self.k.watches.pids_limit
        count = 0
        try:
            if limit is not None:
                count = self._task_count()
        except Exception:  # noqa: BLE001 - uncounted: never refuse by mistake
            count = 0
        if limit is None or count < limit:
            if syscalls.makes_a_process(note, call):
                self.task_processes = None  # walk the tree again at the next count
            linux.let_it_continue(self.k.listener, note.id)  # type: ignore[arg-type]
            return
        event = {"e": "pids", "t": t_ns, "pid": note.pid, "cmd": _command(note.pid), "call": call,
                 "count": count, "limit": limit}
        linux.refuse(self.k.listener, note.id, errno.EAGAIN)  # type: ignore[arg-type]
        self.refused += 1
        event["refused"] = self.refused
        if self.refused <= _REFUSALS_SHOWN:
            self.k._report(event)
            self.refusal_unreported = None
        else:  # a flood: counted, and the last one reported at the end
            self.refusal_unreported = event

    def _task_count(self) -> int:
        """The bot's tasks (the threads of all its processes): what a pids cgroup holding
        it would count; in the namespace, everything there but its PID 1."""
        for _ in range(2):
            if self.task_processes is None:
                self.task_processes = _processes_below(self.k.pidns.inner or self.k.keeper)
            counts = [_threads(pid) for pid in self.task_processes]
            if all(counts):
                return sum(counts)
            self.task_processes = None  # one is gone (its pid could come back as another's)
        return sum(counts)
