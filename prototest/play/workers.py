"""`prototest fuzz --jobs N`: N campaigns at once, one bot each, merged into one run.

Each worker is a forked process running its own `fuzz.Campaign` on its own seed stream
(`fuzz.worker_seed`), so the same `--seed` gives the same examples whatever else runs;
all share the example database (a folder: Hypothesis's directory database is safe across
processes; or a Redis server, of which each worker makes its own client after the fork)
and the run's deadline. The state probe runs once, in worker 0, and its verdict
is shared. The first worker to find a confirmed failure stops the others (their game in
progress is dropped at once, even while its bot thinks or starts: GameConfig.abandon, so
the shortening has the machine) and shortens its failure alone: a failure another worker
found at the same moment is left out (Campaign.owns_failure); its report, the others'
examples, situations, warnings and timings are merged into one `FuzzRun`.

A timing failure is played again alone before it is a verdict (`prototest.play.alone`):
the workers share a `Gate`, so while one worker plays alone, the others finish the run of
their bot in progress and hold their next one until it is done.

A signal reaches the workers as it reaches this process (Ctrl-C goes to the whole
foreground group; anything else is passed on): each stops its game, kills its bot and
sends what it has, so an interrupted run still reports everything found so far.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Callable

from ..sandbox import keeper, process
from . import pool
from ..judge.findings import Finding
from .corpus import SharedCorpus, summarize
from .fuzz import CANNOT_TELL, Campaign
from .fuzzrun import FuzzRun, Options, Target

#: How often the waiting parent refreshes the progress line.
POLL_S = 0.2
#: How often a worker waiting at the gate looks again.
GATE_POLL_S = 0.02


class Gate:
    """The workers' runs of their bots, and one worker's run alone (see fuzz.Alone). Plain
    shared memory under one lock, looked at every GATE_POLL_S: a wait is interrupted by a
    signal as anything else is, and leaves nothing half done behind it."""

    def __init__(self, ctx: Any, jobs: int) -> None:
        self._lock = ctx.Lock()
        self._running = ctx.RawArray("b", jobs)  # 1 while that worker's bot runs
        self._solo = ctx.RawValue("i", -1)  # the worker playing alone, or -1
        self._spare = ctx.RawArray("b", jobs)  # 1 while that worker has a bot started ahead (spare)
        #: this process's worker (set in each worker after the fork)
        self.worker = -1

    def _when(self, ready: Callable[[], bool], then: Callable[[], None] = lambda: None,
              waiting: Callable[[], object] = lambda: None) -> None:
        first = True
        while True:
            with self._lock:
                if ready():
                    then()
                    return
            if first:
                first = False
                waiting()
            time.sleep(GATE_POLL_S)

    def _set_running(self, value: int) -> None:
        self._running[self.worker] = value

    @contextlib.contextmanager
    def running(self, waiting: Callable[[], object] = lambda: None) -> Iterator[None]:
        me = self.worker
        self._when(lambda: self._solo.value in (-1, me), lambda: self._set_running(1), waiting)
        try:
            yield
        finally:
            with self._lock:
                self._set_running(0)

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        me = self.worker

        def take() -> None:
            self._solo.value = me

        self._when(lambda: self._solo.value == -1, take)
        try:
            self._when(lambda: not any(r or self._spare[w] for w, r in enumerate(self._running) if w != me))
            yield
        finally:
            with self._lock:
                if self._solo.value == me:
                    self._solo.value = -1

    def spare_may_start(self) -> bool:
        """See fuzz's Alone.spare_may_start: never while another worker waits to play alone."""
        with self._lock:
            if self._solo.value not in (-1, self.worker):
                return False
            self._spare[self.worker] = 1
            return True

    def spare_gone(self) -> None:
        with self._lock:
            self._spare[self.worker] = 0

    def others_alone(self) -> bool:
        """Whether another worker waits to play a run alone, or plays one: asked by this
        worker's game in progress, which makes way (fuzz.Campaign._abandon). Read without
        the lock: one look at a value a single store sets."""
        solo = self._solo.value
        return solo != -1 and solo != self.worker

    def forget(self, worker: int) -> None:
        """A worker that ended (in the parent): whatever it held is free."""
        with self._lock:
            self._running[worker] = 0
            self._spare[worker] = 0
            if self._solo.value == worker:
                self._solo.value = -1


def share(examples: int | None, jobs: int, worker: int) -> int | None:
    """Worker `worker`'s part of `examples` (the first ones get one more)."""
    if examples is None:
        return None
    return examples // jobs + (1 if worker < examples % jobs else 0)


def run_workers(target: Target, options: Options, progress: Callable[[FuzzRun], None] | None = None) -> FuzzRun:
    """Run `options.jobs` campaigns at once and merge them."""
    main = Campaign(target, options, progress)
    main._start_clock()
    process.signal_guard().hold()  # read with their senders: a bot's is passed on to its worker
    ctx = multiprocessing.get_context("fork")
    jobs = options.jobs
    runs = ctx.Array("i", jobs)  # runs of each worker, for the progress line
    owner = ctx.Value("i", -1)  # the worker that found a confirmed failure first
    state = ctx.Value("i", -1)  # the state probe's verdict: -1 not known yet, 0 no state, 1 keeps state
    positions_off = ctx.Event()  # a failure after a cold start: from now on, games from the start
    gate = Gate(ctx, jobs)  # a timing failure is played again alone
    shared = tempfile.mkdtemp(prefix="prototest-corpus-")  # the workers' coverage corpus (see SharedCorpus)
    news_r, news_w = os.pipe()  # a byte: a worker found a failure (not inherited by a bot's exec)
    for fd in (news_r, news_w):
        os.set_blocking(fd, False)
    try:
        children = []
        for worker in range(jobs):
            if options.examples is not None and not share(options.examples, jobs, worker):
                continue
            opts = replace(options, worker=worker, examples=share(options.examples, jobs, worker))
            recv, send = ctx.Pipe(duplex=False)
            child = ctx.Process(target=_worker, args=(target, opts, main.deadline, send, runs, owner, state, positions_off, gate,
                                                      worker, shared, news_w), daemon=True)
            child.start()
            send.close()
            children.append((worker, child, recv))
        os.close(news_w)
        news_w = -1
        results = _gather(children, main, runs, owner, gate, news_r)
    finally:
        shutil.rmtree(shared, ignore_errors=True)
        for fd in (news_r, news_w):
            if fd >= 0:
                os.close(fd)
    return _merge(main, results)


def _gather(children, main: Campaign, runs, owner, gate: Gate, news: int = -1) -> dict[int, Any]:
    """Each worker's result, with the merged progress line while they run; a signal here
    is passed on to the workers, which stop and still send what they have. The wait ends
    at once when a worker sends its result, a signal comes, or a worker writes to `news`
    (it found a failure: the progress line says so when check's game line would), and at
    the latest after POLL_S, for the line's figures."""
    results: dict[int, Any] = {}
    forwarded = False
    pending = {worker: (child, recv) for worker, child, recv in children}
    guard = process.signal_guard()
    while pending:
        try:
            if guard.active:
                pool.route_signals(guard.read(), [child for child, _ in pending.values()])
            woken = [recv for _, recv in pending.values()] + [fd for fd in (news, guard.fd if guard.active else None)
                                                              if fd is not None and fd >= 0]
            multiprocessing.connection.wait(woken, POLL_S)
            if news >= 0:
                with contextlib.suppress(BlockingIOError):
                    os.read(news, 64)
            for worker, (child, recv) in list(pending.items()):
                if recv.poll(0):
                    try:
                        results[worker] = recv.recv()
                    except EOFError:
                        results[worker] = ("error", f"worker {worker} ended without a report "
                                           f"(exit status {child.exitcode})")
                    child.join()
                    del pending[worker]
                    gate.forget(worker)
                elif not child.is_alive() and not recv.poll(0):
                    results[worker] = ("error", f"worker {worker} ended without a report "
                                       f"(exit status {child.exitcode})")
                    del pending[worker]
                    gate.forget(worker)
            main.run.runs = sum(runs[:])
            main.run.failing_kinds |= {"failure"} if owner.value >= 0 else set()
            main._tick()
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            main.run.interrupted = signal.Signals(signum)
            if not forwarded:
                forwarded = True
                pool.forward(signum, [child for child, _ in pending.values()])
    guard.release()
    return results


def _worker(target: Target, options: Options, deadline, conn, runs, owner, state, positions_off, gate: Gate,
            worker: int, shared: str | None = None, news: int = -1) -> None:
    """A worker process: one campaign, its run sent back as data, then a quick exit.
    Worker 0 runs the state probe (when a position example first comes up) and publishes
    its verdict; until then the others play their position examples as whole games."""
    status = 0
    try:
        pool.worker_start()

        def progress(run: FuzzRun) -> None:
            runs[worker] = run.runs
            if run.failed and owner.value < 0:
                with owner.get_lock():
                    if owner.value < 0:
                        owner.value = worker
                if news >= 0:
                    with contextlib.suppress(OSError):
                        os.write(news, b"!")  # the parent says it now, not at its next look

        def publish(stateful: Any) -> None:
            state.value = 2 if stateful == CANNOT_TELL else int(stateful)

        campaign = Campaign(target, options, progress, should_stop=lambda: owner.value not in (-1, worker))
        campaign.deadline = deadline
        campaign.may_probe = worker == 0
        campaign.owns_failure = lambda: owner.value in (-1, worker)
        campaign.publish = publish
        campaign.state_verdict = lambda: None if state.value < 0 else (False, True, CANNOT_TELL)[state.value]
        campaign.positions_off = positions_off
        gate.worker = worker
        campaign.gate = gate
        if shared is not None:
            campaign.coverage.shared = SharedCorpus(shared, worker)
        run = campaign.execute()
        run.target = None  # type: ignore[assignment]  # the parent has it (and a module does not pickle)
        for failure in run.failures:
            failure.example.report.positions = []  # long games nest deeply: described already
            failure.example.report.exchanges = failure.example.report.exchanges[-3:]
        conn.send(("run", run))
    except BaseException:  # noqa: BLE001 - reported to the parent, which says it in one line
        status = 1
        try:
            conn.send(("error", traceback.format_exc()))
        except Exception:
            pass
    finally:
        try:
            keeper.close_hosts()
            process.reap_orphans(0.5)
        finally:
            os._exit(status)


def _merge(main: Campaign, results: dict[int, Any]) -> FuzzRun:
    """One run: each worker's figures, in worker order."""
    run = main.run
    run.workers = len(results)
    errors = [value for kind, value in results.values() if kind == "error"]
    if errors:
        raise RuntimeError(pool.root_cause(errors[0]))
    parts: list[FuzzRun] = [value for _, (kind, value) in sorted(results.items())]
    run.runs = sum(p.runs for p in parts)
    run.probe = next((p.probe for p in parts if p.probe is not None), None)
    if run.probe is not None and run.probe.stateful:
        run.modes = ("game",)
    run.examples = sum(p.examples for p in parts)
    run.shrink_runs = sum(p.shrink_runs for p in parts)
    run.branches = sum(p.branches for p in parts)
    run.made_way = sum(p.made_way for p in parts)
    run.started_ahead = sum(p.started_ahead for p in parts)
    run.drawn = sum(p.drawn for p in parts)
    run.rechecked = [r for p in parts for r in p.rechecked]
    for p in parts:  # the bot's coverage: what any worker reached (prototest.play.corpus)
        run.coverage_reached |= p.coverage_reached
        run.coverage_files.extend(f for f in p.coverage_files if f not in run.coverage_files)
        run.coverage_runs += p.coverage_runs
        run.coverage_new += p.coverage_new
        run.coverage_timing_rechecked += p.coverage_timing_rechecked
        run.coverage_corpus += p.coverage_corpus
    on = [p for p in parts if p.coverage_off is None and p.coverage_kind]
    first = on[0] if on else (parts[0] if parts else None)
    if first is not None:
        run.coverage_kind, run.coverage_root = first.coverage_kind, first.coverage_root
        run.coverage_values = first.coverage_values
        run.coverage_off = None if on else first.coverage_off
    run.coverage = summarize(run)
    for p in parts:
        run.situations.update(p.situations)
        run.styles.update(p.styles)
        run.answer_ms.extend(p.answer_ms)
        run.first_answer_ms.extend(p.first_answer_ms)
        run.answer_cpu_ms.extend(p.answer_cpu_ms)
        run.answer_wait_ms.extend(p.answer_wait_ms)
        run.peak_memory_mb.extend(p.peak_memory_mb)
        run.throttled_ms += p.throttled_ms
        run.share_worst_ms.extend(p.share_worst_ms)
        if p.enforced != "none" or p.envelope:
            run.envelope, run.enforced, run.enforced_missing = p.envelope, p.enforced, p.enforced_missing
        run.nondeterminism.extend(p.nondeterminism[:5 - len(run.nondeterminism)])
        run.failing_kinds |= p.failing_kinds
        run.cold_kinds |= p.cold_kinds
        run.warnings = _merge_warnings(run.warnings, p.warnings)
        if p.interrupted is not None and run.interrupted is None:
            run.interrupted = p.interrupted
        run.stopped_early = run.stopped_early or p.stopped_early
        run.write_errors.extend(e for e in p.write_errors if e not in run.write_errors)
        if p.first_failure_s is not None and (run.first_failure_s is None or p.first_failure_s < run.first_failure_s):
            run.first_failure_s = p.first_failure_s
            run.first_failure_example = p.first_failure_example
            run.first_failure_origin = p.first_failure_origin
    confirmed = [f for p in parts for f in p.failures if f.confirmed]
    kinds = {f.finding.kind for f in confirmed}
    unconfirmed = [f for p in parts for f in p.failures if not f.confirmed and f.finding.kind not in kinds]
    run.failures = confirmed[:1] + unconfirmed[:1] if confirmed else unconfirmed[:1]
    ends = [p.ended for p in parts]
    run.ended = "failure" if confirmed else ("budget" if "budget" in ends else ends[0] if ends else "")
    run.elapsed_s = time.monotonic() - run.started
    return run


def _merge_warnings(into: list[Finding], more: list[Finding]) -> list[Finding]:
    by_key = {f.key(): f for f in into}
    for f in more:
        first = by_key.get(f.key())
        if first is None:
            by_key[f.key()] = f
            into.append(f)
            continue
        first.count += f.count
        first.occurrences.extend(f.occurrences)
        first.examples = (first.examples or 1) + (f.examples or 1)
    return into
