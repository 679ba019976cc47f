"""Several games at once: `check --jobs N`, `record --update --jobs N`, `replay --jobs N`.

`play_all(tasks, play, jobs, done)` plays every task, `jobs` at a time, each in a forked
worker process (the rules are Python: threads would share one core). A worker takes the
next task not yet taken, plays it and sends the result back as data; this process hands
each result to `done` as it comes (in completion order: the progress lines) and returns
them all in task order (the summary, JSON and JUnit). Every task carries what makes it the
same whatever N is (a game's own seed, a fixture's header), so N changes the order things
finish in, never what they are.

`done` may answer True to stop the run: no task is started after that, and the ones in
progress finish; with `cancel`, they are cancelled instead (their workers are sent SIGINT, as
a user's interrupt: each stops its game, its bot killed, and sends that game, interrupted,
which the caller drops: check's fail-fast rule).

`again(result)` picks the results that other games running at once may have spoiled (a
timing finding: the bots beside it took cores it needed). Such a result is held back, and
at once no new task is started; when the tasks in progress have finished, a worker plays
its task again, alone, then the others go on. `done` gets the result of that run with the
first one as `first` (a run that was stopped gets the held ones as they are; so does one
whose `still(result)`, asked right before the task would be played alone, answers False). So the
caller never sees a verdict it would not have had one game at a time, and sees it soon: a
long run (`check --games 1000`) does not keep a failure to its end. A signal (Ctrl-C, SIGTERM) is passed on to the workers: each stops its
game as a run of one game would (the bot killed, the game reported as interrupted) and
sends it, so an interrupted run still reports everything played so far.

With `jobs` 1 (or one task) the tasks are played here, in order, as they always were.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..sandbox import interrupts, keeper, process
from ..sandbox.keeper import _parent as keeper_parent

T = TypeVar("T")
R = TypeVar("R")


class WorkerError(RuntimeError):
    """A worker ended without a result (a bug in prototest: said in one line)."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def play_all(tasks: Sequence[T], play: Callable[[T], R], jobs: int,
             done: Callable[[int, R, R | None], bool | None] | None = None,
             again: Callable[[R], bool] | None = None,
             still: Callable[[R], bool] | None = None, cancel: bool = False) -> list[R]:
    """Every task's result, in task order (fewer when `done` stopped the run, or a signal
    did: the results of the tasks that were played, still in task order). `done(index,
    result, first)`: `first` is the result a re-check alone replaced, else None."""
    if jobs <= 1 or len(tasks) <= 1:
        return _in_turn(tasks, play, done)
    guard = process.signal_guard()
    guard.hold()  # from here signals are read with their senders (a bot's goes to its worker)
    try:
        results, held, stopped = _play_forked(tasks, play, jobs, done, again, guard, still, cancel)
    finally:
        guard.release()
    for index in sorted(held):  # alone now: nothing else runs
        first = held[index]
        if stopped or (still is not None and not still(first)):
            results[index] = first
            stopped = bool(done is not None and done(index, first, None)) or stopped
            continue
        results[index] = play(tasks[index])
        stopped = bool(done is not None and done(index, results[index], first))
    return [results[i] for i in sorted(results)]


def _play_forked(tasks, play, jobs: int, done, again, guard, still=None, cancel=False) -> tuple[dict, dict, bool]:
    """The results as they came, those held back for a re-check, and whether the run stopped."""
    import multiprocessing  # here: a run of one game at a time never needs it
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork")
    taken = ctx.Value("i", 0)  # the next task to take
    #: a task to play alone (-1: none); `go` cleared: no new task is taken
    solo = ctx.Value("i", -1)
    go = ctx.Event()
    go.set()
    stop = ctx.Event()
    workers = []
    for _ in range(min(jobs, len(tasks))):
        recv, send = ctx.Pipe(duplex=False)
        worker = ctx.Process(target=_worker, args=(tasks, play, taken, stop, send, go, solo), daemon=True)
        worker.start()
        send.close()
        workers.append((worker, recv))
    results: dict[int, Any] = {}
    held: dict[int, Any] = {}
    queue: list[int] = []  # held tasks not yet played alone, in task order
    alone: dict[int, Any] = {}  # held task -> its first result, once played alone
    received = 0  # results of tasks taken from the list
    error: str | None = None
    interrupt: KeyboardInterrupt | None = None
    pending = {recv: worker for worker, recv in workers}

    def next_alone() -> None:
        """Once nothing runs, hand the next held task to a worker, alone (unless `still`
        keeps it as it was played); when none is left, let the workers go on."""
        with taken.get_lock():
            running = min(taken.value, len(tasks)) - received
            if running > 0 or solo.value != -1 or stop.is_set():
                return
        while queue and still is not None and not still(held[queue[0]]):
            index = queue.pop(0)
            results[index] = held.pop(index)
            if done is not None and done(index, results[index], None):
                halt()
                return
        with taken.get_lock():
            if queue:
                solo.value = queue.pop(0)
            else:
                go.set()

    def halt() -> None:
        """The run stops: no task is taken any more; with `cancel`, the ones in play are
        cancelled."""
        if not stop.is_set():
            stop.set()
            if cancel:
                forward(signal.SIGINT, pending.values())

    while pending:
        try:
            for recv in wait(list(pending) + ([guard.fd] if guard.active else [])):
                if recv == guard.fd:
                    route_signals(guard.read(), [w for w in pending.values()])
                    continue
                try:
                    message = recv.recv()
                except EOFError:
                    worker = pending.pop(recv)
                    worker.join()
                    if worker.exitcode != 0 and error is None:
                        error = f"a worker ended without its results (exit status {worker.exitcode})"
                    continue
                kind, index, value = message
                if kind == "error":
                    error = error or value
                    stop.set()
                    continue
                if kind == "alone":
                    with taken.get_lock():
                        solo.value = -1
                    first = held.pop(index)
                    results[index] = value
                    if done is not None and done(index, value, first):
                        halt()
                    next_alone()
                    continue
                received += 1
                if again is not None and again(value):
                    held[index] = value
                    queue.append(index)
                    queue.sort()  # the first task first, whichever finished first
                    with taken.get_lock():
                        go.clear()
                    next_alone()
                    continue
                results[index] = value
                if done is not None and done(index, value, None):
                    halt()
                if not go.is_set():
                    next_alone()
        except KeyboardInterrupt as exc:
            stop.set()
            if interrupt is None:  # pass it on once; the workers report their games
                interrupt = exc
                forward(getattr(exc, "signum", signal.SIGINT), pending.values())
    if error is not None:
        raise WorkerError(root_cause(error))
    return results, held, stop.is_set()


def root_cause(trace: str) -> str:
    """The line of a worker's traceback that names what went wrong: the first exception
    of a chain (Python prints the cause first), not the wrapper a library added last
    ("while generating 'Draw 1 (plan)' from plans()" hides a rules module's own error)."""
    lines = trace.strip().splitlines()
    for line in lines:
        if line and not line[0].isspace() and not line.startswith(("Traceback", "The above", "During handling")) \
                and not line.startswith("+") and ":" in line:
            return line
    return lines[-1] if lines else "no traceback"


def forward(signum: int, workers) -> None:
    """A user's interrupt, passed on to every worker still running."""
    for worker in workers:
        if worker.is_alive() and worker.pid is not None:
            try:
                os.kill(worker.pid, signum)
            except ProcessLookupError:
                pass


def route_signals(infos: list, workers: list) -> None:
    """Signals sent to this process while workers play. One that a worker's bot sent
    (a process below that worker) is passed on to that worker, sender and all, which
    reports it against its bot as a run of one game would; any other acts as it would
    have (the first interrupt stops the run, and is passed on to every worker)."""
    from ..sandbox import linux

    pids = {w.pid: w for w in workers if w.pid is not None}
    for info in infos:
        worker = _worker_of(info.pid, pids) if info.sent_by_a_process else None
        if worker is not None:
            try:
                linux.pass_on(worker.pid, info)
                continue
            except OSError:
                pass
        process.outside_signal(info.signo)


def _worker_of(pid: int, workers: dict):
    """The worker that `pid` descends from, if one does."""
    for _ in range(256):
        if pid in workers:
            return workers[pid]
        parent = keeper_parent(pid)
        if parent is None or parent <= 1:
            return None
        pid = parent
    return None


def _in_turn(tasks: Sequence[T], play: Callable[[T], R], done) -> list[R]:
    results = []
    for index, task in enumerate(tasks):
        result = play(task)
        results.append(result)
        if done is not None and done(index, result, None):
            break
    return results


def _worker(tasks, play, taken, stop, conn, go, solo) -> None:
    """Take tasks until none is left or the run stops; send each result; exit at once.
    While `go` is cleared (a result is held for a re-check), take none, except the task
    handed over in `solo`, which is played alone. The run's interrupt (a user's, passed on,
    or the run cancelling its games) is let in only while a game is played: elsewhere it
    would cut a lock of the shared state in half (Python's multiprocessing waits are not
    safe against it), or a result being sent; one that came meanwhile comes as the next
    game would begin, which is then not played."""
    status = 0
    try:
        worker_start()
        open_mask = interrupts.sigmask(signal.SIG_BLOCK, interrupts.INTERRUPTS)
        while not stop.is_set():
            kind = "result"
            with taken.get_lock():
                if stop.is_set():  # the run stopped meanwhile: no new task
                    break
                if solo.value >= 0:
                    index, kind = solo.value, "alone"
                    solo.value = -2  # taken: nothing else starts until its result is in
                elif not go.is_set():
                    index = None
                else:
                    index = taken.value
                    taken.value += 1
            if index is None:
                go.wait(0.01)  # paused: a held task is played alone meanwhile
                continue
            if index >= len(tasks):
                if not go.is_set() or solo.value != -1:
                    continue  # a held task may still come this way
                break
            try:
                interrupts.sigmask(signal.SIG_SETMASK, open_mask)  # one pending is raised here: no game
                result = play(tasks[index])
            except KeyboardInterrupt:  # between games: nothing of this task was played
                break
            finally:
                interrupts.sigmask(signal.SIG_BLOCK, interrupts.INTERRUPTS)
            conn.send((kind, index, result))
            if interrupts.signals.first is not None:  # this game was interrupted: no other
                break
    except KeyboardInterrupt:  # passed on before this worker's first game began: nothing played
        pass
    except BaseException:  # noqa: BLE001 - reported to the parent, which says it in one line
        status = 1
        try:
            conn.send(("error", -1, traceback.format_exc()))
        except Exception:
            pass
    finally:
        try:
            conn.close()
            keeper.close_hosts()
            process.reap_orphans(0.5)
        finally:
            os._exit(status)


def worker_start() -> None:
    """What a forked worker sets up first: a process group of its own; death with this
    process (a SIGKILL of prototest leaves no worker playing on, and each worker's bots die
    with it); its bots' orphans. (SIGPIPE stays ignored: a write to a bot that has exited
    must be a broken pipe, which the judge reports, not the worker's death.)"""
    parent = os.getppid()
    process.signal_guard().forget()  # the parent's held signals are its own business
    try:  # a group of its own: a signal to prototest's group reaches prototest alone, which
        os.setpgid(0, 0)  # tells a bot's from a user's and passes it on (see _route)
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        from ..sandbox import linux
        try:
            linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
        except OSError:
            pass
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)
    if process._subreaper:  # not inherited across fork: the bots' orphans are ours
        process.become_subreaper()


class InOrder:
    """For `done` callbacks that must act in task order (a stop decided on the first
    games): `feed` each (index, result) as it comes; it answers the ones now complete in
    order, from the lowest not yet answered. `rest` answers what is left held back (a gap
    that will not be filled: the run stopped before that task)."""

    def __init__(self) -> None:
        self.held: dict[int, Any] = {}
        self.next = 0

    def feed(self, index: int, result: Any) -> list[tuple[int, Any]]:
        self.held[index] = result
        ready = []
        while self.next in self.held:
            ready.append((self.next, self.held.pop(self.next)))
            self.next += 1
        return ready

    def rest(self) -> list[tuple[int, Any]]:
        ready, self.held = sorted(self.held.items()), {}
        return ready
