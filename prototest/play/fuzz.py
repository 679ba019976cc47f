"""`prototest fuzz`: Hypothesis plays whole games against a bot with swarm opponents, and
shrinks any failure to a minimal reproducer.

Every example is one game of a fresh bot, judged by the same referee, spec and severities
as `prototest check`, from its start to its end (or the bot's failure):

* **game** mode: a real game from the initial position;
* **position** mode (protocols that send the whole state each turn): the bot starts cold
  in a generated deep position, and play goes on from there to the end.

What Hypothesis draws, all before the game starts (see `prototest.play.strategies`):

* the opponent's configuration, swarm testing style (Groce et al., ISSTA 2012): one of the
  game's opponent styles (random, greedy, smothering, passive ...) and the move classes it
  never plays (never capture, never jump ...). A narrow configuration per game, a wide
  spread over a run: extreme positions arise routinely, without steering for any fault;
* the opponent's every move choice, a script of integers that pick `moves[v % n]`: they
  do not depend on what the bot answers, so a bot that answers the same input differently
  changes the game, never the draws, and gets its whole budget;
* in position mode, the path to the start position, each side played by its own style.

Each rules module's `measures()` gives general measures of the game's boundaries (moves
a simpler reading of the rules allows and the rules refuse, rarely legal moves in the bot's
list, how few moves or pieces it has). The games that went furthest on each measure are
kept, and three examples in eight branch from one of them: its opponent moves replayed up
to a few before its best point, then the example's own draws (`prototest.play.elites`). The
measures are not passed to `hypothesis.target()`: with an example database, Hypothesis
keeps a Pareto front of the examples' targets and orders each new example's draws against
it, its whole script (one byte string of hundreds of choices) read as one big integer,
which took a third to a half of a worker's time in long games; its target phase would
mutate draws, which replays none of a game once the bot answers otherwise.

A failure of a timing kind (`findings.TIMING_KINDS`: an answer, the start or the exit too
slow) is first played again alone, nothing else of prototest's running (other workers
pause, see `Campaign.gate`): a busy machine, not the bot, may have made it. If it comes
back, it is the bot's and goes on as any failure; if not, it is a `busy_machine` warning
naming the machine's load, and the search goes on (`prototest.play.alone`). Timing is
never evidence of non-determinism: only answers read within their limit are compared
between runs, and a shortening run or replay that fails on timing where the failure was
not a timing one (or passes where it was) concludes nothing.

The run ends at the first failure, at the time budget or after `examples` examples. The
budget never cuts an answer short: the answer asked for when it runs out is judged to its
limit (`GameConfig.deadline`), the first example is always played, and no run of the bot
starts after it but the run alone of a timing failure; a failure found in progress or
while shortening stands as found, and so does a failure of the state probe's game (a real
game from the start). A
failure found in a game from the start is confirmed; where the protocol sends the
position, the failing position is then shown cold to a fresh bot: if it fails the same
way, the reproducer is that position and one exchange, and the path to it is shortened;
if not (up to COLD_TRIES fresh bots for a crash, or for a bot seen to answer the same input
differently: the rate said), the fault needs the bot's memory of the game, and the game's
opponent moves are shortened instead. A failure seen only after a cold start is confirmed
by searching real games for the rest of the budget; unconfirmed, it is a warning, never a
failure. Last, the replay command the report prints is run, as printed
(`prototest.play.replaycheck`): `reproducible` and `confirmed` say what it did, and where it
did not fail the same way every time, the report says how often it did (k of n tries).

Before a run that would start bots cold, a probe checks whether the bot keeps state
between turns (a fresh bot shown a position that a running bot handled, which then
fails or answers otherwise): such a bot is fuzzed with games from the start only. Where
fresh bots answer one position differently, the probe says it cannot tell (CANNOT_TELL).

A `Campaign` runs in this process; `prototest.play.workers` runs several at once. What a run
is given and leaves is plain data (`prototest.play.fuzzrun`), which `prototest.reports` renders.

The Campaign runs the search and plays each example; its collaborators, one concern each:
`runs.Runs` (one run of the bot: its config, the gate, the bot started ahead, the memory
of cold starts), `searchtest.SearchTest` (the search: the warm-up games, then the
Hypothesis test, its seed and the example database),
`plans.Planner` (what an example plays), `observe.Observer` (what an example teaches),
`elites.Elites` (the kept games and branching), `alone` (a timing failure played again
alone), `probe.StateProber` (the state probe), `cold.ColdRetry` (the failing position shown
to fresh bots), `shrink.Shrinker` (shortening), `replaycheck` (the printed replay run as
printed) and `replayready.ReadyChecks` (its processes, started while the failure is
shortened); `evidence` reads a played example the same way for all of them.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any, Callable, Sequence

from ..sandbox import interrupts
from ..judge.findings import TIMING_KINDS, Finding, fold
from .fuzzrun import Example, Failure, FuzzRun, Options, Plan, Target
from ..games.opponents import ScriptedOpponent
from .forced import ForcedOpponent
from ..judge.spec import Spec
from .alone import Alone, played_alone
from .runs import Runs
from .cold import COLD_TRIES, ColdRetry
from .corpus import Coverage, summarize
from .elites import BRANCH_BACK, ELITES, Elite, Elites
from .evidence import CANNOT_TELL, CRASH_KINDS, first_fail, interrupt, request_of
from .evidence import Stop as _Stop
from .observe import SAMPLED_POSITIONS, Observer
from .plans import (simplest, BRANCH_CHOICES, BRANCHING, DEFAULT_SCRIPT, DEFAULT_START_PLIES, DRAWN_BLOCK, DRAWN_SEEDS,
                    QUIET_SHARE, WARM_UP, Planner, worker_seed)
from .probe import StateProber
from .searchtest import SearchTest
from .replaycheck import REPLAY_MIN, REPLAY_TRIES, replay_args, replay_command, replay_printed
from .replayready import ReadyChecks
from .shrink import SHRINK_TRIES, PlacesOpponent, Shrinker


#: Names other modules (and earlier versions of this one) take from here: the campaign's
#: collaborators are in their own modules, named in the docstring above.
__all__ = [
    "MODES", "Campaign", "BotFault", "choose_mode", "describe", "Alone", "Elite", "PlacesOpponent", "worker_seed",
    "first_fail", "request_of", "replay_command", "replay_args", "CANNOT_TELL", "CRASH_KINDS", "COLD_TRIES",
    "REPLAY_TRIES", "REPLAY_MIN", "SHRINK_TRIES", "SAMPLED_POSITIONS", "BRANCH_CHOICES", "BRANCHING", "ELITES",
    "BRANCH_BACK", "DEFAULT_SCRIPT", "DEFAULT_START_PLIES", "WARM_UP", "QUIET_SHARE", "DRAWN_SEEDS",
    "DRAWN_BLOCK",
]

MODES = ("position", "game", "mixed")


def choose_mode(spec: Spec, mode: str | None) -> str:
    """The mode asked for, or the default: mixed where the protocol sends the position,
    else game. ValueError for a mode the protocol cannot have."""
    mode = mode or ("mixed" if spec.sends_position else "game")
    if mode not in MODES:
        raise ValueError(f"--mode {mode!r}: expected one of {', '.join(MODES)}")
    if mode != "game" and not spec.sends_position:
        raise ValueError(f"--mode {mode}: the {spec.name} protocol never sends the position, so a bot "
                         f"cannot start in one; use --mode game")
    return mode


class BotFault(AssertionError):
    """A failing example, as `prototest.testing` raises it under pytest."""

    def __init__(self, failure: "Failure", text: str) -> None:
        super().__init__(text)
        self.failure = failure


class Campaign:
    """One fuzzing campaign in this process: the Hypothesis test, the runs of the bot, and
    what is found; its collaborators (see the module's docstring) do the rest."""

    def __init__(self, target_: Target, options: Options,
                 progress: Callable[[FuzzRun], None] | None = None,
                 should_stop: Callable[[], bool] | None = None) -> None:
        if options.mode not in MODES:
            raise ValueError(f"mode {options.mode!r}: expected one of {', '.join(MODES)}")
        self.target = target_
        self.options = options
        self.run = FuzzRun(target_, options)
        self.progress = progress
        #: asked before each example: another worker found a failure
        self.should_stop = should_stop
        self._found: Failure | None = None
        self.deadline: float | None = None
        #: set by stop(): an exception that ends the Hypothesis test is ours, not a flaky strategy
        self.stopping = False
        self.run.modes = self._modes(options.mode)
        #: Hypothesis's modes (position mode stays drawn for a bot that keeps state: its
        #: position examples are played as games from the start)
        self.search_modes = self.run.modes
        self.planner = Planner(self)
        self.elites = Elites(self)
        self.observer = Observer(self)
        self.prober = StateProber(self)
        self.cold = ColdRetry(self)
        self.shrinker = Shrinker(self)
        self.coverage = Coverage(self)
        #: `prototest check` processes started while a failure is shortened, to run its
        #: printed replay (prototest.play.replayready)
        self.ready = ReadyChecks()
        #: Whether this campaign runs the state probe (one worker of several does), and
        #: how it learns the verdict when another does (see prototest.play.workers)
        self.may_probe = True
        self.state_verdict: Callable[[], Any] = lambda: self.prober.verdict
        self.publish: Callable[[Any], None] | None = None
        #: Whether this campaign's failure is the run's verdict to shorten and replay: with
        #: several workers, only the first to find one (prototest.play.workers); the others
        #: end at once and leave it the machine
        self.owns_failure: Callable[[], bool] = lambda: True
        #: set once a failure was seen after a cold start: the examples that follow are
        #: all games from the start, to confirm it (shared by the workers)
        self.positions_off: Any = threading.Event()
        self._cold_found: Failure | None = None
        #: the Hypothesis test that draws the examples, and the example database
        self.search_test = SearchTest(self)
        #: what lets a run of the bot be alone (see Alone; prototest.play.workers shares one)
        self.gate: Any = Alone()
        #: the runs of the bot: their config, the gate, the bot started ahead (see Runs)
        self.runs = Runs(self)

    # -- the whole run ------------------------------------------------------------------
    def execute(self) -> FuzzRun:
        """Probe, search, then shorten and confirm what was found."""
        self._start_clock()
        try:
            self.search(self.search_modes)
            if self.run.interrupted is None:
                self.finish()
        except KeyboardInterrupt as exc:
            self._interrupted(exc)
        finally:
            self.runs.spare.kill()
            self.ready.close()
        return self.close()

    def _start_clock(self) -> None:
        self.run.started = time.monotonic()
        if self.options.budget_s is not None and self.deadline is None:
            self.deadline = self.run.started + self.options.budget_s

    def close(self) -> FuzzRun:
        """The run as data: the reproducers described, the warnings folded."""
        self.run.elapsed_s = time.monotonic() - self.run.started
        self.run.warnings = fold(self.run.warnings)
        self.coverage.close()
        self.run.coverage = summarize(self.run)
        for problem in self.search_test.problems():
            if problem not in self.run.write_errors:
                self.run.write_errors.append(problem)
        for failure in self.run.failures:
            failure.details = describe(self.run, failure)
        return self.run

    def _modes(self, mode: str) -> tuple[str, ...]:
        return ("game", "position") if mode == "mixed" else (mode,)

    def search(self, modes: tuple[str, ...]) -> None:
        """The warm-up games, then Hypothesis's generation (prototest.play.searchtest)."""
        self.search_test.search(modes)

    # -- one example --------------------------------------------------------------------
    def conclude(self, plan: Plan, modes: tuple[str, ...]) -> Example:
        """Play a plan and act on what it shows; stop the run at its first failure."""
        example = self.play_plan(plan)
        if example.coverage:
            if self.options.coverage == "on" and self.coverage.off is not None:
                self.stop("coverage")  # required, and the bot gives none: the command says so
            self.coverage.recheck_warnings(example)
        fail = first_fail(example)
        played = example  # as the search played it (a run alone may take its place)
        if fail is not None and fail.kind in TIMING_KINDS:
            if self.should_stop is not None and self.should_stop():
                self.stop("stopped")  # another worker's failure: not played alone, which would hold it up
            example, fail = self.played_alone(example, fail)
        verdict = self.state_verdict()
        if fail is not None and example.cold and (verdict is False or (verdict == CANNOT_TELL
                                                                       and fail.kind in CRASH_KINDS)):
            # Stateless, by the probe's evidence: a fresh bot in a position reached by legal
            # play is what a running bot sees there, and a real game can reach it. A verdict;
            # shortening shows the failing position cold (the reproducer: the position and
            # one exchange) and shortens the path to it. A crash there is a verdict even when
            # the probe cannot tell (a bot that answers one position differently): a fresh
            # bot died in a position a real game reaches; how often is measured and said.
            if played.branched or plan.drawn:
                self.elites.save_as_fresh(played, modes)  # a game from the start, shown cold alone
            self.record(Failure(example, fail), found_in=played)
            self.stop("failure")
        if fail is not None and not example.cold:  # a game from the start: a verdict
            if example.branched or plan.drawn:
                self.elites.save_as_fresh(example, modes)
            self.record(Failure(example, fail))
            self.stop("failure")
        if fail is not None and self._cold_found is None:
            # Seen after a cold start only: it needs confirming in a game from the start,
            # so from now on every example is one (in every worker).
            self._cold_found = Failure(example, fail, confirmed=False)
            self.run.cold_kinds.add(fail.kind)
            self.positions_off.set()
            self._tick()
        self.check_stop()
        return example

    def played_alone(self, example: Example, fail: Finding) -> tuple[Example, Finding | None]:
        """A timing failure played again alone (see prototest.play.alone)."""
        return played_alone(self, example, fail)

    def stop(self, ended: str) -> None:
        """End the Hypothesis run, for `ended` (the run's `ended`)."""
        self.run.ended = ended
        self.stopping = True
        raise _Stop()

    def check_stop(self) -> None:
        if interrupts.signals.first is not None and self.run.interrupted is None:
            # an interrupt came and some layer between here and the game swallowed it:
            # stop at this example all the same (a budget of 0 would run on for ever)
            raise interrupt(interrupts.signals.first)
        ended = None
        if self._found is not None:
            ended = "failure"
        elif self.out_of_time() and self.run.examples:  # the first example is always played
            ended = "budget"
        elif self.should_stop is not None and self.should_stop():
            ended = "stopped"
        if ended is not None:
            self.stop(ended)

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def play_plan(self, plan: Plan) -> Example:
        """One example: a position plan starts the bot cold, once the state probe found
        that it keeps no state; until then (or for a bot that does) it is played as a game
        from the start, its path left out. A branch plan continues a kept game."""
        self.run.examples += 1
        self.run.drawn += plan.drawn
        self.run.styles[plan.style.name] += 1
        scripted = ScriptedOpponent(self.target.module, plan.style, plan.script)
        elite = self.elites.branch(plan)
        if elite is not None:
            cut = self.elites.cut(elite, plan)
            self.run.branches += 1
            example = self.play(elite.seat, start_moves=elite.start_moves, plan=plan,
                                mode="position" if elite.start_moves else "game",
                                opponent=ForcedOpponent(elite.opponent_moves[:cut], scripted, soft=True),
                                coverage=True, make_way=True)
            example.branched = True
            return example
        cold = plan.mode == "position" and not self.positions_off.is_set() and self._stateless()
        return self.play(plan.seat, start_moves=plan.path if cold else (), mode="position" if cold else "game",
                         plan=plan, opponent=scripted, coverage=True, make_way=True)

    def _stateless(self) -> bool:
        """Whether position examples start the bot cold: the probe found no state kept, or
        cannot tell (then a failure seen only after a cold start needs a game from the start
        to be a verdict, a crash aside: see episode)."""
        verdict = self.state_verdict()
        if verdict is None and self.may_probe:
            self.probe_state()
            verdict = self.state_verdict()
        return verdict in (False, CANNOT_TELL)

    def probe_state(self) -> None:
        """Whether the bot keeps state between turns (see prototest.play.probe)."""
        self.prober.probe_state()

    def play(self, seat: int, **how: Any) -> Example:
        """One run of the bot (see prototest.play.runs.Runs.play: its options)."""
        return self.runs.play(seat, **how)

    def play_cold(self, seat: int, moves: Sequence[str], **how: Any) -> Example:
        """A fresh bot shown the position after `moves` (see Runs.play_cold)."""
        return self.runs.play_cold(seat, moves, **how)

    def nondeterministic(self) -> bool:
        """Whether the bot was seen to answer the same input differently: the state probe's
        fresh copies disagreed, or two runs of this campaign did."""
        return (self.state_verdict() == CANNOT_TELL or bool(self.observer.unstable)
                or bool(self.run.nondeterminism))

    def record(self, failure: Failure, found_in: Example | None = None) -> None:
        """A verdict to shorten; `found_in`: the example the search found it in, when a
        run alone took its place (see prototest.play.alone)."""
        if self.run.first_failure_example is None:
            self.run.first_failure_example = self.run.examples
            self.run.first_failure_s = time.monotonic() - self.run.started
            self.run.first_failure_origin = origin(found_in or failure.example)
        if failure.confirmed:  # the progress line counts the failures that are verdicts
            self.run.failing_kinds.add(failure.finding.kind)
        self.run.confirmed_found = self.run.confirmed_found or failure.confirmed
        self._found = failure
        self._tick()  # said at once (the progress line; the other workers stop)

    def _tick(self) -> None:
        self.run.elapsed_s = time.monotonic() - self.run.started
        self.run.shrinking = self._found is not None
        if self.progress is not None:
            self.progress(self.run)

    # -- after the first failure --------------------------------------------------------
    def finish(self) -> None:
        """Shorten and replay what was found: the failure of a game from the start, and a
        failure seen only after a cold start (a warning unless a game showed it too)."""
        self.run.shrinking = True
        self.runs.spare.kill()  # the search's alone
        if not self.owns_failure():
            return  # another worker's failure is the verdict: it shortens and replays it alone
        cold = self._cold_found
        found = self._found or cold
        if found is not None and found.finding.kind not in TIMING_KINDS:
            # the printed replay's processes start now, their imports done while the bot runs
            # (a timing failure's replay runs alone: nothing starts beside it)
            self.ready.start(REPLAY_MIN if found.finding.kind in CRASH_KINDS or self.nondeterministic() else 1)
        if self._found is not None:
            self.run.failures.append(self._shrink(self._found))
        if cold is not None and (self._found is None or cold.finding.kind != self._found.finding.kind):
            self.run.failures.append(self._shrink(cold))

    def _shrink(self, failure: Failure) -> Failure:
        """Shorten a failure (prototest.play.shrink), then run the replay command the
        report prints, as printed (prototest.play.replaycheck)."""
        return replay_printed(self, self.shrinker.shrink(failure))

    def _interrupted(self, exc: KeyboardInterrupt) -> None:
        """Ctrl-C: what was found so far stands."""
        self.run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
        for found in (self._found, self._cold_found):
            if found is not None and all(found.finding.kind != f.finding.kind for f in self.run.failures):
                self.run.failures.append(found)


_simplest = simplest  # (its name here before)


def origin(example: Example) -> str:
    """An example's mode and where its plan came from (see FuzzRun.first_failure_origin)."""
    plan = example.plan
    source = ("branch" if example.branched else "drawn" if plan is not None and plan.drawn
              else "hypothesis" if plan is not None else "other")
    return f"{example.mode}, {source}"


def describe(run: FuzzRun, failure: Failure) -> dict[str, Any]:
    """The reproducer as data: what the reports (console, JSON, JUnit, pytest) show."""
    example, finding = failure.example, failure.finding
    spec = run.target.spec
    exchange = request_of(example.report)
    plan = example.plan
    return {
        "game": spec.name,
        "mode": example.mode,
        "seed": run.options.seed,
        "worker": run.options.worker + 1 if run.options.jobs > 1 or run.options.worker else None,
        "seat": spec.game.seats[example.seat],
        "seat_title": spec.seat_title(example.seat),
        "kind": finding.kind,
        "reason": finding.message,
        "plies": len(finding.moves),
        # the plies the reproducer plays from where the bot starts, its failing answer
        # included (1: a fresh bot shown the failing position, one exchange)
        "plays": len(finding.moves) - len(example.start_moves) + 1,
        "moves": list(finding.moves),
        "start_moves": list(example.start_moves),
        "opponent_moves": example.opponent_moves,
        "opponent": plan.style.describe() if plan is not None else None,
        "position": finding.position,
        "diagram": list(finding.diagram),
        "sent": list(exchange.sent) if exchange else [],
        "expected": finding.expected,
        "got": finding.got,
        "elapsed_ms": finding.elapsed_ms,
        # the printed replay, run as printed (None: not run): reproducible when every try
        # failed the same way, confirmed (a verdict whose replay failed the same way) when
        # at least one did
        "replay": failure.replay,
        "reproducible": failure.replay is not None and failure.reproducible,
        "confirmed": failure.confirmed and failure.replay is not None and failure.replay["failed_same_way"] > 0,
        "verdict": "fail" if failure.confirmed else "warn",
        "cold_tries": list(failure.cold_tries) if failure.cold_tries is not None else None,
        "cold": failure.cold,
        "cold_answer": failure.cold_answer,
        "cold_turns": failure.cold_turns,
        "cold_note": failure.cold_note,
        "command": replay_command(run.target, failure),
        "transcript": finding.transcript,
    }
