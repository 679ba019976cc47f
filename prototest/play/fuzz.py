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
to a few before its best point, then the example's own draws (`Campaign._branch`). The
measures are also passed to `hypothesis.target()`, which records them; Hypothesis's target
phase is not run.

A failure of a timing kind (`findings.TIMING_KINDS`: an answer, the start or the exit too
slow) is first played again alone, nothing else of prototest's running (other workers
pause, see `Campaign.gate`): a busy machine, not the bot, may have made it. If it comes
back, it is the bot's and goes on as any failure; if not, it is a `busy_machine` warning
naming the machine's load, and the search goes on (`Campaign._played_alone`). Timing is
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
(`Campaign._replay_printed`): `reproducible` and `confirmed` say what it did, and where it
did not fail the same way every time, the report says how often it did (k of n tries).

Before a run that would start bots cold, a probe checks whether the bot keeps state
between turns (a fresh bot shown a position that a running bot handled, which then
fails or answers otherwise): such a bot is fuzzed with games from the start only. Where
fresh bots answer one position differently, the probe says it cannot tell (CANNOT_TELL).

A `Campaign` runs in this process; `prototest.play.workers` runs several at once. What a run
is given and leaves is plain data (`prototest.play.fuzzrun`), which `prototest.reports` renders.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import shlex
import signal
import statistics
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed as hypothesis_seed, settings, target
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase, choices_to_bytes
from hypothesis.errors import Flaky

from . import exampledb, strategies
from ..sandbox import interrupts
from ..games import opponents
from ..judge.findings import TIMING_KINDS, Finding, fold
from .fuzzrun import Example, Failure, FuzzRun, Nondeterminism, Options, Plan, StateProbe, Target
from ..judge.game import Exchange, GameConfig, GameReport, StopGame
from ..games.base import IllegalMove, Position, Rules
from ..games.opponents import ScriptedOpponent, Style
from ..judge.referee import Referee
from .forced import ForcedOpponent, game_seed
from ..judge.spec import Spec

MODES = ("position", "game", "mixed")
#: The opponent's script when the rules set no turn limit (chess): longer games reuse it.
DEFAULT_SCRIPT = 400
#: The deepest start position in position mode when the rules set no turn limit.
DEFAULT_START_PLIES = 160
#: Positions per game whose measures and situations are computed (spread evenly, the
#: last one always): enough to steer, cheap beside the game.
SAMPLED_POSITIONS = 16
#: A plan's branch draw ranges over BRANCH_CHOICES values, BRANCHING of which continue a
#: kept game (once there are some): three examples in eight.
BRANCH_CHOICES, BRANCHING = 8, 3
#: Shorter versions of a failure tried (played or found unplayable), per run of the
#: shrink budget: unplayable ones cost no run but still take time.
SHRINK_TRIES = 20
#: Games kept per measure, and how many opponent moves before the best point at most a
#: branch goes back.
ELITES, BRANCH_BACK = 6, 8
#: The first examples of each worker are games from the start drawn as `check` draws its
#: games (a style per game, uniformly random choices), one seat after the other: the run
#: is at least as varied as check's games before the search narrows (branches, Hypothesis).
WARM_UP = 4
#: One position plan in QUIET_SHARE starts at the boundary of the rules that end a game
#: without progress (see Campaign._quiet_stretch).
QUIET_SHARE = 2
#: Fresh bots shown a failing position, at most, before a bot that answers the same input
#: differently is said to need its memory of the game (one, for a bot that does not).
COLD_TRIES = 5
#: Runs of the printed replay command, at most, and at least for a bot that does not fail
#: the same way every time (one run that fails the same way does for a bot that does).
REPLAY_TRIES, REPLAY_MIN = 5, 3
#: The state probe's verdict on a bot whose fresh copies answer one position differently.
CANNOT_TELL = "cannot tell"
#: Failures that a fresh bot shown a position legal play reaches makes a verdict even when
#: the state probe cannot tell whether it keeps state: it died there.
CRASH_KINDS = ("crash",)
#: Where prototest's own draws come from: game seeds far from check's (`game_seed(seed,
#: i)` for i = 1, 2 ...), a block of them per worker stream, so fuzz and check with one seed
#: play different games, and workers and shards never share one.
DRAWN_SEEDS, DRAWN_BLOCK = 1 << 24, 1 << 20


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


def worker_seed(seed: int, worker: int) -> int:
    """The Hypothesis seed of worker `worker` (worker 0 keeps the run's own seed)."""
    return seed if worker == 0 else game_seed(seed, 1_000 + worker)


@dataclass(frozen=True)
class Elite:
    """A game that came near a boundary (a measure's best value): its opponent moves up to
    there, to replay and play on from somewhere before that point."""

    seat: int
    start_moves: tuple[str, ...]
    opponent_moves: tuple[str, ...]
    #: how many of the opponent's moves were played before the position of the best value
    reached_after: int
    value: float


class _Stop(BaseException):
    """Ends the Hypothesis run: a failure was found (Hypothesis saves the example in its
    database on the way out), the budget is spent, or another worker found a failure."""


class BotFault(AssertionError):
    """A failing example, as `prototest.testing` raises it under pytest."""

    def __init__(self, failure: "Failure", text: str) -> None:
        super().__init__(text)
        self.failure = failure


class Alone:
    """The gate of a campaign that runs by itself: every run of its bot is alone already.
    (prototest.play.workers gives its campaigns a gate shared between them.)"""

    def running(self) -> contextlib.AbstractContextManager:
        """Around each run of the bot: waits while another campaign plays alone."""
        return contextlib.nullcontext()

    def alone(self) -> contextlib.AbstractContextManager:
        """Around a run that must have nothing else of prototest's beside it: waits for
        the other campaigns' runs in progress to end, and holds their next ones."""
        return contextlib.nullcontext()


class Campaign:
    """One fuzzing campaign in this process: the Hypothesis test and what it learns."""

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
        module = target_.module
        self._situations = getattr(module, "situations", None)
        self._measures = getattr(module, "measures", None)
        self._diagram = getattr(module, "diagram", None)
        #: digest of everything sent before an answer -> (answer, run number)
        self._answers: dict[bytes, tuple[str | None, int]] = {}
        #: inputs that got different answers in different runs
        self._unstable: set[bytes] = set()
        self._warned: dict[tuple, Finding] = {}
        self._found: Failure | None = None
        #: the run count when shortening the current failure began, and the shorter
        #: versions tried since (played or not)
        self._shrink_from: int | None = None
        self._shrink_tries = 0
        self._memo: dict[tuple, Example] = {}
        self.deadline: float | None = None
        self._stopping = False
        self.run.modes = self._modes(options.mode)
        #: Hypothesis's modes (position mode stays drawn for a bot that keeps state: its
        #: position examples are played as games from the start)
        self._search_modes = self.run.modes
        #: Whether this campaign runs the state probe (one worker of several does), and
        #: how it learns the verdict when another does (see prototest.play.workers)
        self.may_probe = True
        self.state_verdict: Callable[[], Any] = lambda: self._verdict
        self.publish: Callable[[Any], None] | None = None
        self._verdict: Any = None  # True: keeps state; False: none found; CANNOT_TELL; None: not probed yet
        #: set once a failure was seen after a cold start: the examples that follow are
        #: all games from the start, to confirm it (shared by the workers)
        self.positions_off: Any = threading.Event()
        self._cold_found: Failure | None = None
        #: measure label -> the games that came nearest its boundary, best first
        self._elites: dict[str, list[Elite]] = {}
        self._database: ExampleDatabase | None = None
        #: what lets a run of the bot be alone (see Alone; prototest.play.workers shares one)
        self.gate: Any = Alone()
        #: the failure being shortened, as it was confirmed when played alone (a timing
        #: failure whose shortened version does not come back falls back to it)
        self._confirmed_alone: Failure | None = None
        #: the plans played so far (see _varied), and how many examples the example
        #: database replays first (Hypothesis's reuse phase: those are never replaced)
        self._plans_seen: set[tuple] = set()
        self._saved: int | None = None

    # -- the whole run ------------------------------------------------------------------
    def execute(self) -> FuzzRun:
        """Probe, search, then shorten and confirm what was found."""
        self._start_clock()
        try:
            self.search(self._search_modes)
            if self.run.interrupted is None:
                self.finish()
        except KeyboardInterrupt as exc:
            self._interrupted(exc)
        return self.close()

    def _start_clock(self) -> None:
        self.run.started = time.monotonic()
        if self.options.budget_s is not None and self.deadline is None:
            self.deadline = self.run.started + self.options.budget_s

    def close(self) -> FuzzRun:
        """The run as data: the reproducers described, the warnings folded."""
        self.run.elapsed_s = time.monotonic() - self.run.started
        self.run.warnings = fold(self.run.warnings)
        for problem in exampledb.problems(self._database):
            if problem not in self.run.write_errors:
                self.run.write_errors.append(problem)
        for failure in self.run.failures:
            failure.details = describe(self.run, failure)
        return self.run

    def _modes(self, mode: str) -> tuple[str, ...]:
        return ("game", "position") if mode == "mixed" else (mode,)

    def search(self, modes: tuple[str, ...]) -> None:
        """Hypothesis's generation until a failure, the budget or the examples end it."""
        test = self.test(modes)
        self._stopping = False
        try:
            test()
        except _Stop:
            pass
        except Flaky as exc:
            # Stopping before an example draws anything looks to Hypothesis like a test
            # that draws less than before: that is our stop, not a flaky strategy.
            if not self._stopping:
                self.run.stopped_early = f"Hypothesis stopped: {type(exc).__name__}"
        else:
            self.run.ended = self.run.ended or "examples"

    # -- one example --------------------------------------------------------------------
    def episode(self, data: st.DataObject, modes: tuple[str, ...]) -> None:
        """Play one example; stop the run at its first failure."""
        self._check_stop()
        plan = data.draw(self._plans(modes), label="plan")
        if _simplest(plan.script):
            # Hypothesis opens with "simplest" examples (every choice after a short prefix
            # zero): here the same near-identical game again and again. Refused before any
            # bot runs, five in a row end that phase, and generation proper begins.
            reject()
        plan = self._varied(plan, modes)
        example = self.play_plan(plan)
        for label, value in example.measures.items():
            target(value, label=label)
        fail = first_fail(example)
        if fail is not None and fail.kind in TIMING_KINDS:
            example, fail = self._played_alone(example, fail)
        verdict = self.state_verdict()
        if fail is not None and example.cold and (verdict is False or (verdict == CANNOT_TELL
                                                                       and fail.kind in CRASH_KINDS)):
            # Stateless, by the probe's evidence: a fresh bot in a position reached by legal
            # play is what a running bot sees there, and a real game can reach it. A verdict;
            # shortening shows the failing position cold (the reproducer: the position and
            # one exchange) and shortens the path to it. A crash there is a verdict even when
            # the probe cannot tell (a bot that answers one position differently): a fresh
            # bot died in a position a real game reaches; how often is measured and said.
            self._record(Failure(example, fail))
            self.run.ended = "failure"
            self._stopping = True
            raise _Stop()
        if fail is not None and not example.cold:  # a game from the start: a verdict
            if example.branched or plan.drawn:
                self._save_as_fresh(example, modes)
            self._record(Failure(example, fail))
            self.run.ended = "failure"
            self._stopping = True
            raise _Stop()
        if fail is not None and self._cold_found is None:
            # Seen after a cold start only: it needs confirming in a game from the start,
            # so from now on every example is one (in every worker).
            self._cold_found = Failure(example, fail, confirmed=False)
            self.run.cold_kinds.add(fail.kind)
            self.positions_off.set()
            self._tick()
        self._check_stop()

    def _varied(self, plan: Plan, modes: tuple[str, ...]) -> Plan:
        """The plan to play: Hypothesis's own, or one drawn as check draws its games.

        Hypothesis's generation repeats itself: small configuration numbers (a quarter of
        them 0, the plain random opponent), the same opponent script under another branch
        or configuration, mutations of earlier examples (measured: 81 distinct scripts in
        200 examples). Games from the start are where check finds most faults, so fuzz's
        examples must be at least as varied as check's games. A plan is replaced by one
        drawn from prototest's own seeded stream, exactly as check draws a game (a style,
        each move class omitted half of the time, uniformly random choices), when it
        comes among this worker's first WARM_UP examples (then a game from the start,
        the seats in turn, no branch), repeats an earlier plan, or names the plain
        opponent (its mode then drawn uniformly too: Hypothesis's draws favour the first).
        The examples the example database replays first (earlier runs' failures) are
        never replaced."""
        n = self.run.examples
        if self._saved is None:
            self._saved = exampledb.count(self.database(), self.database_key(modes))
        if n < self._saved:
            return plan
        key = (plan.mode, plan.seat, plan.script[:64])
        warm = n - self._saved < WARM_UP
        if not warm and key not in self._plans_seen and plan.config != 0:
            self._plans_seen.add(key)
            return plan
        self._plans_seen.add(key)
        t = self.target
        stream = self.options.stream
        rng = random.Random(game_seed(self.options.seed, DRAWN_SEEDS + stream * DRAWN_BLOCK + n))
        style = opponents.draw_style(t.module, rng)  # as opponents.Opponent draws a swarm style
        script = tuple(rng.randrange(opponents.CHOICES) for _ in range(len(plan.script)))
        seats = len(t.spec.game.seats)
        if warm:
            seat = (n - self._saved + stream) % seats
            return Plan("game", seat, style, (), script, None, 0, rng.getrandbits(32), drawn=True)
        mode = modes[rng.randrange(len(modes))]  # Hypothesis's own draws favour the first mode
        path: tuple[str, ...] = ()
        path_style = None
        if mode == "position":
            limit = t.rules.max_plies
            start_plies = min(DEFAULT_START_PLIES, max(0, limit - 10)) if limit else DEFAULT_START_PLIES
            path_style = opponents.draw_style(t.module, rng)
            sides = (path_style, style) if plan.seat == 0 else (style, path_style)
            path = tuple(opponents.path(t.rules, t.module, seat=plan.seat, depth=rng.randrange(start_plies + 1),
                                        styles=sides, rng=rng))
            path = self._quiet_stretch(path, plan.seat, random.Random(f"quiet:{self.options.seed}:{stream}:{n}"))
        return Plan(mode, plan.seat, style, path, script, path_style, plan.branch, rng.getrandbits(32),
                    drawn=True)

    def _quiet_stretch(self, path: tuple[str, ...], seat: int, rng: random.Random) -> tuple[str, ...]:
        """One position plan in QUIET_SHARE goes on from its path with moves of both sides
        that make no progress (the rules module's QUIET_CLASSES never played, for a number
        of plies drawn from its QUIET_PLIES): a start position at the boundary of the
        rules that end a game without progress (chess's fifty- and 75-move rules), which
        styled paths seldom reach and where bots break (a halfmove clock past 99); where the
        module names a THINNING_STYLE, its stretch comes after the board was thinned out (a
        long ending). Its own random stream: the other plans' draws are unchanged."""
        module, rules = self.target.module, self.target.rules
        classes, span = getattr(module, "QUIET_CLASSES", ()), getattr(module, "QUIET_PLIES", None)
        if not classes or not span or rng.randrange(QUIET_SHARE):
            return path
        thinning, thin_span = getattr(module, "THINNING_STYLE", None), getattr(module, "THINNING_PLIES", None)
        if thinning and thin_span:  # the board thinned out first: the stretch is an ending
            both = (Style(thinning), Style(thinning))
            path = tuple(opponents.path(rules, module, seat=seat, depth=len(path) + rng.randrange(*thin_span),
                                        styles=both, rng=rng, start=path))
        quiet = Style("random", frozenset(classes))
        return tuple(opponents.path(rules, module, seat=seat, depth=len(path) + rng.randrange(*span),
                                    styles=(quiet, quiet), rng=rng, start=path))

    def _played_alone(self, example: Example, fail: Finding) -> tuple[Example, Finding | None]:
        """A timing failure, played again before anything else (shortening included)
        with nothing else of prototest's running: the same opponent moves from the same
        start, the other campaigns' runs held (see Alone), no time budget to cut it short.
        Back alone, it is the bot's: the run alone is the example from now on. Not back,
        a busy machine made it: a `busy_machine` warning, and the search goes on (a
        failure of another kind that the run alone shows is still a failure)."""
        load = os.getloadavg()  # the machine as the failure found it
        again = self.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                          opponent=ForcedOpponent(example.opponent_moves), max_turns=example.max_turns,
                          plan=example.plan, alone=True)
        again.branched = example.branched
        found = first_fail(again)
        back = _timing(found)
        limit = _limit_ms(fail)
        self.run.rechecked.append({
            "example": self.run.examples, "worker": self.options.worker + 1 if self.options.jobs > 1 else None,
            "jobs": self.options.jobs, "kind": fail.kind, "message": fail.message, "turn": fail.turn,
            "elapsed_ms": fail.elapsed_ms, "limit_ms": limit, "load_average": [round(x, 2) for x in load],
            "alone": "the same" if back else "not again",
            "alone_kind": found.kind if found is not None else None,
            "alone_elapsed_ms": found.elapsed_ms if back and found is not None else None,
        })
        if not back:
            self._keep_warning(self._busy_machine(fail, limit, load))
        return again, found

    def _busy_machine(self, fail: Finding, limit: float | None, load: tuple[float, float, float]) -> Finding:
        jobs = self.options.jobs
        took = f"{fail.elapsed_ms:.1f} ms" if fail.elapsed_ms is not None else "its time"
        held = f"a {limit:.0f} ms limit" if limit is not None else "its limit"
        beside = f"while {jobs} jobs ran at once, " if jobs > 1 else ""
        where = f" on its turn {fail.turn}" if fail.turn else ""
        message = (f"{fail.kind}{where}: {took} for {held} {beside}at a load average of {load[0]:.2f} "
                   f"({load[1]:.2f} over 5 min) on {_cores()} cores; it did not come back when the example "
                   f"was played again alone: put down to a busy machine, not blamed on the bot "
                   f"(first: {fail.message})")
        return Finding(kind="busy_machine", severity="warn", message=message, game=fail.game, turn=fail.turn,
                       ply=fail.ply, position=fail.position, moves=list(fail.moves), elapsed_ms=fail.elapsed_ms,
                       limit_ms=limit, stderr_tail=list(fail.stderr_tail), transcript=fail.transcript,
                       rule="busy_machine")

    def _check_stop(self) -> None:
        if interrupts.signals.first is not None and self.run.interrupted is None:
            # an interrupt came and some layer between here and the game swallowed it:
            # stop at this example all the same (a budget of 0 would run on for ever)
            raise _interrupt(interrupts.signals.first)
        ended = None
        if self._found is not None:
            ended = "failure"
        elif self._out_of_time() and self.run.examples:  # the first example is always played
            ended = "budget"
        elif self.should_stop is not None and self.should_stop():
            ended = "stopped"
        if ended is not None:
            self.run.ended = ended
            self._stopping = True
            raise _Stop()

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _plans(self, modes: tuple[str, ...]) -> st.SearchStrategy[Plan]:
        """Plans: the mode, the bot's seat, a configuration number and the opponent's move
        choices, all drawn by Hypothesis. The configuration number seeds the opponent's
        style, the moves it never plays and, in position mode, the path to the start
        (each side its own style): Hypothesis's own draws of small values repeat a lot,
        a seeded draw spreads the configurations evenly, as swarm testing wants."""
        t = self.target
        seats = range(len(t.spec.game.seats))
        limit = t.rules.max_plies
        script_len = min(1000, limit // 2 + 1) if limit else DEFAULT_SCRIPT
        start_plies = min(DEFAULT_START_PLIES, max(0, limit - 10)) if limit else DEFAULT_START_PLIES

        @st.composite
        def plans(draw: Callable) -> Plan:
            mode = draw(st.sampled_from(modes))
            seat = draw(st.sampled_from(seats))
            config = draw(st.integers(0, 2**32 - 1))
            branch = draw(st.integers(0, BRANCH_CHOICES - 1))
            script = draw(strategies.scripts(script_len))
            rng = random.Random(f"{config}:{script[:4]}")
            style = opponents.draw_style(t.module, rng) if config else Style("random")
            path: list[str] = []
            path_style = None
            if mode == "position":
                path_style = opponents.draw_style(t.module, rng)
                sides = (path_style, style) if seat == 0 else (style, path_style)
                path = opponents.path(t.rules, t.module, seat=seat, depth=rng.randrange(start_plies + 1),
                                      styles=sides, rng=rng)
                path = list(self._quiet_stretch(tuple(path), seat, random.Random(f"quiet:{config}:{script[:4]}")))
            return Plan(mode, seat, style, tuple(path), script, path_style, branch, config)

        return plans()

    def play_plan(self, plan: Plan) -> Example:
        """One example: a position plan starts the bot cold, once the state probe found
        that it keeps no state; until then (or for a bot that does) it is played as a game
        from the start, its path left out. A branch plan continues a kept game."""
        self.run.examples += 1
        self.run.drawn += plan.drawn
        self.run.styles[plan.style.name] += 1
        scripted = ScriptedOpponent(self.target.module, plan.style, plan.script)
        elite = self._branch(plan)
        if elite is not None:
            rng = random.Random(f"branch:{plan.config}:{plan.script[:4]}")
            cut = max(0, elite.reached_after - rng.randrange(BRANCH_BACK))
            self.run.branches += 1
            example = self.play(elite.seat, start_moves=elite.start_moves, plan=plan,
                                mode="position" if elite.start_moves else "game",
                                opponent=ForcedOpponent(elite.opponent_moves[:cut], scripted, soft=True))
            example.branched = True
            return example
        cold = plan.mode == "position" and not self.positions_off.is_set() and self._stateless()
        return self.play(plan.seat, start_moves=plan.path if cold else (), mode="position" if cold else "game",
                         plan=plan, opponent=scripted)

    def _branch(self, plan: Plan) -> Elite | None:
        """The kept game a branch plan continues: one of those that came nearest some
        boundary (a measure's best values), replayed from the start (for a deterministic
        bot, the same game) up to a few opponent moves before that point, then played on
        with the plan's own choices. Games near a boundary are where its faults are."""
        if plan.branch < BRANCH_CHOICES - BRANCHING or not self._elites:
            return None
        cold_ok = not self.positions_off.is_set() and self.state_verdict() in (False, CANNOT_TELL)
        labels = sorted(label for label, kept in self._elites.items()
                        if any(cold_ok or not e.start_moves for e in kept))
        if not labels:
            return None
        rng = random.Random(f"elite:{plan.config}:{plan.script[:4]}")
        kept = [e for e in self._elites[rng.choice(labels)] if cold_ok or not e.start_moves]
        return rng.choice(kept)

    def _save_as_fresh(self, example: Example, modes: tuple[str, ...]) -> None:
        """A failure found by continuing a kept game cannot be replayed from its own plan
        in a later run (the kept games will differ): save, in the example database, the
        plan of a fresh game that plays the same opponent moves (the plain random style:
        a choice is the move's place in its listing), so that the next run replays it
        first as it replays any other failure."""
        database, t = self.database(), self.target
        if database is None or example.start_moves:
            return
        limit = t.rules.max_plies
        script_len = min(1000, limit // 2 + 1) if limit else DEFAULT_SCRIPT
        report, plain = example.report, Style("random")
        values = []
        for i, move in enumerate(report.moves):
            if report.positions[i].turn() == example.seat:
                continue
            allowed, _ = opponents.candidates(t.module, report.positions[i], plain)
            text = getattr(t.module, "move_text", None)
            listed = [text(report.positions[i], m) if text else m for m in allowed]
            if move not in listed:
                return
            values.append(listed.index(move) + len(listed))  # never 0: not a "simplest" script
        if len(values) > script_len:
            return
        values += [0x5555] * (script_len - len(values))
        script = b"".join(v.to_bytes(2, "big") for v in values)
        choices = ((modes.index("game"),) if len(modes) > 1 else ()) + (example.seat, 0, 0, script)
        database.save(self.database_key(modes), choices_to_bytes(choices))

    def _keep_elites(self, example: Example, best_at: dict[str, tuple[float, int]]) -> None:
        """Keep the games with the best values of each measure (ELITES a measure)."""
        if example.mode not in ("game", "position") or example.max_turns is not None:
            return
        report, start = example.report, len(example.start_moves)
        for label, (value, index) in best_at.items():
            kept = self._elites.setdefault(label, [])
            if len(kept) >= ELITES and value <= kept[-1].value:
                continue
            reached = sum(1 for i in range(start, min(index, len(report.moves)))
                          if report.positions[i].turn() != example.seat)
            elite = Elite(example.seat, tuple(example.start_moves), tuple(example.opponent_moves), reached, value)
            kept.append(elite)
            kept.sort(key=lambda e: -e.value)
            del kept[ELITES:]

    def _stateless(self) -> bool:
        """Whether position examples start the bot cold: the probe found no state kept, or
        cannot tell (then a failure seen only after a cold start needs a game from the start
        to be a verdict, a crash aside: see episode)."""
        verdict = self.state_verdict()
        if verdict is None and self.may_probe:
            self.probe_state()
            verdict = self.state_verdict()
        return verdict in (False, CANNOT_TELL)

    def play(self, seat: int, *, start_moves: Sequence[str] = (), mode: str = "game",
             opponent: Callable[[Position], str] | None = None, max_turns: int | None = None,
             plan: Plan | None = None, memo: bool = False, alone: bool = False) -> Example:
        """One run of the bot: a game from the position after `start_moves` (the bot
        starts cold there when there are any) against `opponent`, until the game ends, the
        bot has answered `max_turns` times, or the budget runs out.

        With `alone`, nothing else of prototest's runs beside it (the gate holds the other
        campaigns' runs), and the time budget does not cut it short: it decides a verdict.

        With `memo`, a cold start in a position an earlier run already showed the bot is
        answered from memory: shortening reaches the same position by many paths, and a
        deterministic bot answers it the same way (the reproducer is run again for real at
        the end, which checks that)."""
        spec, rules = self.target.spec, self.target.rules
        key = None
        if memo and start_moves and max_turns == 1:
            final = _replay(rules, start_moves)
            key = (seat, final.notation(), start_moves[-1])
            if key in self._memo:
                return self._memo[key]
        cap = self.options.max_plies
        cfg = GameConfig(
            spec=spec, rules=rules, rules_module=self.target.module, argv=self.target.argv,
            seat=seat, seed=game_seed(self.options.seed, 1), index=self.run.runs + 1,
            time_scale=self.target.time_scale, start_delay_ms=self.target.start_delay_ms,
            env=self.target.env, cwd=self.target.cwd, start_moves=list(start_moves),
            opponent=opponent or ForcedOpponent(()), max_plies=cap + len(start_moves) if cap else None,
            max_bot_turns=max_turns, log_exchanges=True, deadline=None if alone else self.deadline,
            stop_when_idle=self.target.stop_when_idle,
        )
        with self.gate.alone() if alone else self.gate.running():
            report = Referee(cfg).run()
        self.run.runs += 1
        example = Example(self.run.runs, mode, seat, list(start_moves), report, plan, max_turns)
        if report.interrupted is not None:
            self._tick()
            raise _interrupt(report.interrupted)
        self._observe(example)
        self._tick()
        if key is not None:
            self._memo[key] = example
        return example

    def play_cold(self, seat: int, moves: Sequence[str], *, memo: bool = True, turns: int = 1) -> Example:
        """A fresh bot shown the position after `moves`, for one answer; with `turns` 2,
        started a turn earlier (its own move `moves[-2]` expected, the opponent's
        `moves[-1]` then played), so that the position after `moves` is its second turn."""
        if turns == 2 and len(moves) >= 2:
            return self.play(seat, start_moves=moves[:-2], mode="position", max_turns=2,
                             opponent=ForcedOpponent(moves[-1:]))
        return self.play(seat, start_moves=moves, mode="position", max_turns=1, memo=memo)

    # -- what an example teaches --------------------------------------------------------
    def _observe(self, example: Example) -> None:
        report = example.report
        self.run.answer_ms.extend(report.answer_ms)
        if report.startup_ms is not None:
            self.run.first_answer_ms.append(report.startup_ms)
        _tally_resources(self.run, report)
        self._check_determinism(example)
        for f in report.findings:
            if f.severity == "warn":
                self._keep_warning(f)
        seen, best_at = self._walk(example)
        example.measures = {label: value for label, (value, _) in best_at.items()}
        self._keep_elites(example, best_at)
        for name in seen:
            self.run.situations[name] += 1

    def _keep_warning(self, f: Finding) -> None:
        """A warning, folded with the same one of earlier examples."""
        key = f.key()
        if key in self._warned:
            first = self._warned[key]
            first.count += f.count
            first.occurrences.extend(f.occurrences or [f.occurrence()])
            first.examples = (first.examples or 1) + 1
        else:
            f.examples = 1
            self._warned[key] = f
            self.run.warnings.append(f)

    def _walk(self, example: Example) -> tuple[set[str], dict[str, tuple[float, int]]]:
        """The situations met (a sample of the positions shown to the bot, the moves
        played, the end of the game) and the best value of each measure over them, with
        the index of the position where it was first seen."""
        report = example.report
        seen: set[str] = set()
        best: dict[str, tuple[float, int]] = {}
        if report.result not in ("forfeit", "stopped", "aborted", "interrupted") and report.reason:
            seen.add(f"game end: {report.reason}")
        if self._situations is None and self._measures is None:
            return seen, best
        start = len(example.start_moves)
        positions, moves = report.positions, report.moves
        shown = [i for i, position in enumerate(positions)
                 if i >= start and position.turn() == example.seat and position.outcome() is None]
        if len(shown) > SAMPLED_POSITIONS:
            step = len(shown) / SAMPLED_POSITIONS
            shown = sorted({shown[int(k * step)] for k in range(SAMPLED_POSITIONS)} | {shown[-1]})
        for i in shown:
            position = positions[i]
            if self._situations is not None:
                seen.update(self._situations(position))
                # the move that led here (the opponent's) and the bot's answer, if played
                for j in (i - 1, i):
                    if 0 <= j < len(moves):
                        seen.update(self._situations(positions[j], moves[j]))
            if self._measures is not None:
                for label, value in self._measures(position).items():
                    if label not in best or value > best[label][0]:
                        best[label] = (value, i)
        return seen, best

    def _check_determinism(self, example: Example) -> None:
        """Compare every answer with the answer an earlier run gave to the same input.
        Only answers read within their limit count, on either side: no answer (a timeout,
        a crash) and an answer read too late (`Exchange.answer` None) are no evidence of
        a bot that answers otherwise; a busy machine makes them."""
        for key, exchange in _keyed(example.report.exchanges):
            if exchange.answer is None:
                continue
            known = self._answers.get(key)
            if known is None:
                self._answers[key] = (exchange.answer, example.number)
                continue
            if known[0] != exchange.answer:
                self._unstable.add(key)
                if len(self.run.nondeterminism) < 5:
                    self.run.nondeterminism.append(Nondeterminism(
                        exchange.sent, known[0], exchange.answer, known[1], example.number, exchange.ply))
                return  # later inputs differ anyway

    def _answered_differently(self, example: Example) -> bool:
        """Whether some run answered an input of this example differently."""
        return any(key in self._unstable for key, _ in _keyed(example.report.exchanges))

    def _record(self, failure: Failure) -> None:
        if self.run.first_failure_example is None:
            self.run.first_failure_example = self.run.examples
            self.run.first_failure_s = time.monotonic() - self.run.started
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

    # -- the state probe ----------------------------------------------------------------
    def probe_state(self) -> None:
        """Whether the bot keeps state between turns, before starting it cold anywhere: a
        short real game from the start, then fresh bots shown two of the positions the
        running bot answered. Fresh bots that fail there, or agree with each other on
        another answer (three of them), keep state: position mode is turned off. Fresh bots
        that disagree with each other answer the same position differently (a time-bound
        search, a random choice): whether the bot keeps state cannot be told, and the probe
        says so rather than guess (see CANNOT_TELL). A fresh bot that answers as the running
        bot did is the evidence of no state."""
        self.may_probe = False
        if self._out_of_time():
            return  # no verdict: no bot is started cold, every example is a game from the start
        self._verdict = False  # no evidence of state, unless the probe finds some
        try:
            self._probe()
        finally:
            if self.publish is not None:
                self.publish(self._verdict)

    def _probe(self) -> None:
        seat = 1 if len(self.target.spec.game.seats) > 1 else 0
        warm = self.play(seat, mode="probe", max_turns=6,
                         opponent=opponents.Opponent(self.target.module, "random", game_seed(self.options.seed, 0)))
        fail = first_fail(warm)
        if fail is not None:  # a failure in a real game: a verdict, whatever budget is left
            if fail.kind in TIMING_KINDS:
                warm, fail = self._played_alone(warm, fail)
            if fail is not None:
                self._record(Failure(warm, fail))
                self.run.ended, self._stopping = "failure", True
                raise _Stop()
            # put down to a busy machine: the game played again alone is the running bot's
            # game to compare with (it once ended the probe without a verdict)
        exchanges = warm.report.exchanges
        turns = [i for i in (2, len(exchanges) - 1) if 0 < i < len(exchanges)]
        agreed = 0
        for turn in dict.fromkeys(turns):
            moves = _moves_before(warm, turn)
            if moves is None or exchanges[turn].answer is None:
                continue
            outcome = self._cold_verdict(seat, moves, exchanges[turn])
            if outcome is None:
                continue
            verdict, text = outcome
            if verdict is True:
                self._verdict = True
                self.run.probe = StateProbe(True, text + ": it keeps state between turns, so position mode "
                                            "(a fresh bot started mid-game) is switched off for it; every example "
                                            "is a game from the start")
                self.run.modes = ("game",)
                return
            if verdict == CANNOT_TELL:
                self._verdict = CANNOT_TELL
                self.run.probe = StateProbe(None, text + ": it does not answer the same position the same way, so "
                                            "whether it keeps state between turns cannot be told. Position mode "
                                            "stays on; switched off: the verdict on a failure seen only after a "
                                            "cold start, which is a warning until a game from the start shows it "
                                            "(a crash aside: a fresh bot that dies in a position legal play "
                                            "reaches fails, with how often it died)")
                return
            agreed += 1
        if agreed:
            self.run.probe = StateProbe(False, f"fresh bots shown {agreed} position(s) of a running game answered "
                                        f"as the running bot did: position mode stays on")
        else:
            self.run.probe = StateProbe(False, "no fresh bot could be compared with the running bot (none was "
                                        "shown a request it answered in time): no evidence of state, position "
                                        "mode stays on")

    def _cold_verdict(self, seat: int, moves: list[str], warm: Exchange) -> tuple[Any, str] | None:
        """What fresh bots shown exactly the request a running bot answered (`warm`) say:
        (False, "") a fresh bot answers as the running bot did; (True, why) it keeps state:
        a fresh bot fails there, or three agree on another answer; (CANNOT_TELL, why): two
        fresh bots answer it differently. None: no evidence (a fresh bot not shown that very
        request, a timing failure, no answer)."""
        shown = f"shown the position after {len(moves)} plies cold"
        answers: list[str] = []
        for _ in range(3):
            cold = self.play_cold(seat, moves, memo=False)
            if not _same_request(self.target.spec, warm, cold):
                return None
            fail = first_fail(cold)
            if _timing(fail):
                return None  # a busy machine may have made it: no evidence of state
            if fail is not None:
                return True, (f"{shown}, a fresh bot failed ({fail.kind}: {fail.message}) where the running bot "
                              f"answered {warm.answer!r}")
            answer = _given(cold)
            if answer is None:
                return None
            if answers and not self._same_move(answer, answers[0]):
                return CANNOT_TELL, (f"{shown}, fresh bots answered {answers[0]!r} and {answer!r} (the running bot: "
                                     f"{warm.answer!r})")
            answers.append(answer)
            if self._same_move(answer, warm.answer):
                return False, ""
        return True, (f"{shown}, three fresh bots answered {answers[0]!r} where the running bot answered "
                      f"{warm.answer!r}")

    def _same_move(self, one: str | None, other: str | None) -> bool:
        """Two answers that play the same move (their comments may differ)."""
        if one is None or other is None:
            return False
        return _move_of(self.target.spec, one) == _move_of(self.target.spec, other)

    # -- after the first failure --------------------------------------------------------
    def finish(self) -> None:
        """Shorten and replay what was found: the failure of a game from the start, and a
        failure seen only after a cold start (a warning unless a game showed it too)."""
        self.run.shrinking = True
        cold = self._cold_found
        if self._found is not None:
            self.run.failures.append(self._shrink(self._found))
        if cold is not None and (self._found is None or cold.finding.kind != self._found.finding.kind):
            self.run.failures.append(self._shrink(cold))

    def _shrink_budget_left(self, share: float = 1.0) -> bool:
        """Whether shortening this failure may run the bot again (`share`: of its runs;
        the last run of `shrink_examples` is kept for replaying the result). Shorter
        versions that cannot be played cost no run but some time: they are counted too."""
        return (self._shrink_from is not None
                and self.run.runs - self._shrink_from < (self.options.shrink_examples - 1) * share
                and self._shrink_tries < SHRINK_TRIES * self.options.shrink_examples
                and not self._out_of_time())

    def _shrink(self, failure: Failure) -> Failure:
        """Show the failing position cold; search for a shorter path to a position that
        fails the same way; then delete what leads there; then replay it for real. Each
        failure has `shrink_examples` runs of the bot for this."""
        self._shrink_from = self.run.runs
        self._shrink_tries = 0
        self._confirmed_alone = failure
        if self.target.spec.sends_position and failure.example.mode != "probe":
            failure = self._cold_retry(failure)
        if failure.cold == "reproduces":
            failure = self._search_shorter(failure)
        failure = self.reduce(failure)
        failure = self._replayed(failure)
        self.run.shrink_runs += self.run.runs - self._shrink_from
        return self._replay_printed(failure)

    def _replay_printed(self, failure: Failure) -> Failure:
        """The replay command the report prints, run as printed (its JSON report and its
        transcripts written to a scratch folder, which changes nothing it plays), in the
        current folder: what it did decides `reproducible` (every try failed the same way:
        the same kind at the same ply) and the JSON's `confirmed` (at least one did).
        One try that fails the same way does for a bot never seen to answer the same input
        differently; otherwise REPLAY_MIN tries at least (the budget may be spent: a
        failure's claims are worth a few games), up to REPLAY_TRIES while a time budget
        lasts, and the report says how many of them failed the same way."""
        if self.run.interrupted is not None or interrupts.signals.first is not None:
            return failure
        args = replay_args(self.target, failure)
        # a crash may come only sometimes (a race, a buffer filled in time): never claimed
        # reproducible from one try
        flaky = (self._nondeterministic() or failure.finding.kind in CRASH_KINDS
                 or (failure.cold_tries is not None and failure.cold_tries[0] < failure.cold_tries[1]))
        outcomes: list[dict[str, Any]] = []
        while len(outcomes) < REPLAY_TRIES:
            outcome = _run_printed(args, failure.finding)
            if outcome is None:
                break  # interrupted
            outcomes.append(outcome)
            same = sum(1 for o in outcomes if o["same"])
            if not flaky and same == len(outcomes):
                break
            flaky = True
            # past REPLAY_MIN, only while a time budget lasts (none: REPLAY_MIN)
            if len(outcomes) >= REPLAY_MIN and (self.deadline is None or self._out_of_time()):
                break
        same = sum(1 for o in outcomes if o["same"])
        failure.replay = {"command": shlex.join(args), "tries": len(outcomes), "failed_same_way": same,
                          "outcomes": [o["said"] for o in outcomes]}
        failure.reproducible = bool(outcomes) and same == len(outcomes)
        return failure

    def _cold_retry(self, failure: Failure) -> Failure:
        """The failing position shown cold to a fresh bot: the same failure makes it the
        reproducer (one exchange). A timing fault is tried a second way when the first does
        not show it: a fresh bot's first answer has the start-up's longer limit, so the bot
        starts a turn earlier and the failing position is its second turn (two exchanges).
        Otherwise a note says what the fresh bot did, named only from a run of the bot on
        exactly the failing request (colour line and clock values aside): another answer
        means the fault needs the bot's memory of the game; the same move does not (see
        _cold_note)."""
        moves = list(failure.finding.moves)
        example = failure.example
        if moves == example.start_moves and (example.cold or not moves):  # its first answer failed
            return replace(failure, cold="reproduces")
        if not self._shrink_budget_left():
            return failure
        warm = request_of(example.report)
        cold = self.play_cold(example.seat, moves)
        if not _same_request(self.target.spec, warm, cold) and self._shrink_budget_left():
            cold = self.play_cold(example.seat, moves, memo=False)  # a remembered run of another request
        fail = first_fail(cold)
        if fail is None and _cut_short(cold):
            return failure  # the budget ran out: no conclusion
        if _timing(fail) and not _timing(failure.finding):
            return failure  # too slow where the failure is not about time: no conclusion
        if fail is not None and fail.kind == failure.finding.kind:
            return Failure(cold, fail, confirmed=failure.confirmed, cold="reproduces")
        tries = 1
        if not _timing(failure.finding) and (self._nondeterministic() or failure.finding.kind in CRASH_KINDS):
            # A bot that answers the same input differently, or crashes, may fail there only
            # sometimes (a race, a buffer filled in time): one fresh bot that did not is no
            # evidence that the fault needs the game's memory. More fresh bots, and the rate
            # said (k of n).
            same: list[tuple[Example, Finding]] = []
            while tries < COLD_TRIES and self._shrink_budget_left():
                again = self.play_cold(example.seat, moves, memo=False)
                found = first_fail(again)
                if found is None and _cut_short(again):
                    break
                tries += 1
                if found is not None and found.kind == failure.finding.kind and list(found.moves) == moves:
                    same.append((again, found))
            if same:
                return Failure(same[0][0], same[0][1], confirmed=failure.confirmed, cold="reproduces",
                               cold_tries=(len(same), tries))
        if _timing(failure.finding) and len(moves) >= 2 and self._shrink_budget_left():
            second = self.play_cold(example.seat, moves, turns=2)
            fail2 = first_fail(second)
            if fail2 is not None and fail2.kind == failure.finding.kind and list(fail2.moves) == moves:
                return Failure(second, fail2, confirmed=failure.confirmed, cold="reproduces", cold_turns=2)
        if warm is None or not _same_request(self.target.spec, warm, cold):
            return failure  # the fresh bot was not shown the failing request: no conclusion
        return self._cold_note(failure, warm, cold, fail, tries)

    def _nondeterministic(self) -> bool:
        """Whether the bot was seen to answer the same input differently: the state probe's
        fresh copies disagreed, or two runs of this campaign did."""
        return self.state_verdict() == CANNOT_TELL or bool(self._unstable) or bool(self.run.nondeterminism)

    def _cold_note(self, failure: Failure, warm: Exchange, cold: Example, fail: Finding | None,
                   tries: int = 1) -> Failure:
        """What a fresh bot shown the failing request did, where it did not fail the same
        way, said as the evidence shows it. A timing failure is compared in time (the fresh
        bot's first answer includes its start, and may take longer than the running bot's
        answer could): never a memory fault. Otherwise the same move is no memory fault
        either; another answer (or none, where the running bot answered) is."""
        fresh = request_of(cold.report)
        assert fresh is not None
        given, ran = _given_in(fresh), _given_in(warm)
        same = self._same_move(given, ran)
        did = "a fresh bot shown the failing position" + (" (its clock full)" if _clocked(self.target.spec) else "")
        if given is None:
            did += " gave no answer"
        else:
            did += f" answered {given!r}" + (" late" if fresh.answer is None else "")
            if same:
                did += ", the move the running bot " + ("gave late" if warm.answer is None else "answered")
            elif ran is not None:
                did += f" where the running bot answered {ran!r}" + (" late" if warm.answer is None else "")
        if fail is not None:
            did += f", and failed otherwise ({fail.kind}: {fail.message})"
        if _timing(failure.finding):
            limit = _limit_ms(failure.finding)
            if fail is None and fresh.answer is not None and limit is not None and fresh.elapsed_ms is not None:
                took = fresh.elapsed_ms
                if took <= limit:
                    did += (f", in {took:.0f} ms (its start included): within the {limit:.0f} ms the running "
                            f"bot's answer had")
                else:
                    # A first answer includes the start, which takes about the median first answer.
                    start = statistics.median(self.run.first_answer_ms) if self.run.first_answer_ms else 0.0
                    did += (f", after {took:.0f} ms (its start included; first answers in this run took "
                            f"{start:.0f} ms at the median): over the {limit:.0f} ms the running bot's answer had")
                    if took - start > limit:
                        did += ", so it is slow in that position without its memory of the game too"
            return replace(failure, cold="timing", cold_answer=given, cold_note=did)
        if same and fail is None:
            return replace(failure, cold="same answer", cold_answer=given,
                           cold_note=did + ", without the failure")
        if given is None and ran is None and fail is None:
            return failure  # neither answered: nothing to compare
        if tries > 1:
            did += f"; {tries} fresh bots shown it, none failed the same way"
        return replace(failure, cold="needs memory", cold_answer=given, cold_tries=(0, tries) if tries > 1 else None,
                       cold_note=f"the fault needs the bot's memory of the game: {did}")

    def _search_shorter(self, failure: Failure) -> Failure:
        """Hypothesis searches (and shrinks) paths shorter than the reproducer's to a
        position that, shown cold, fails the same way: one exchange a try, half of the
        shrinking runs. The shortest failing path seen wins."""
        seat, kind, turns = failure.example.seat, failure.finding.kind, failure.cold_turns
        best = [failure]
        rules, module = self.target.rules, self.target.module

        def shorter(data: st.DataObject) -> None:
            self._shrink_tries += 1
            if not self._shrink_budget_left(0.5):
                raise _Stop()
            limit = len(best[0].finding.moves) - 1
            if limit < turns - 1:
                raise _Stop()
            styles = (data.draw(strategies.opponent_styles(module)), data.draw(strategies.opponent_styles(module)))
            path = data.draw(strategies.paths(rules, module, seat=seat, max_plies=limit, styles=styles))
            if len(path) > limit or len(path) < turns - 1:
                return
            example = self.play_cold(seat, path, turns=turns)
            fail = first_fail(example)
            if fail is not None and fail.kind == kind and list(fail.moves) == list(path):
                if len(path) < len(best[0].finding.moves):
                    best[0] = Failure(example, fail, confirmed=failure.confirmed, cold="reproduces", cold_turns=turns)
                raise AssertionError(kind)

        test = settings(max_examples=10**6, deadline=None, database=None, phases=(Phase.generate, Phase.shrink),
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        report_multiple_bugs=False, print_blob=False)(
            hypothesis_seed(worker_seed(self.options.seed, self.options.stream))(given(st.data())(shorter)))
        try:
            test()
        except (_Stop, AssertionError, Flaky):
            pass
        return best[0]

    def reduce(self, failure: Failure) -> Failure:
        """Delete moves from a failing example while the bot still fails the same way:
        plies of the path to a cold start (one of each side, so that the bot keeps its
        seat), or the opponent's moves of a game. Two encodings take turns: moves as
        strings (the rest of the game stays as it was) and moves as their places in the
        listing (the rest of the game changes, but stays legal: what Hypothesis's own
        shrinker does). Only sequences that can still be played cost a run of the bot."""
        tried: set[tuple] = set()
        while self._shrink_budget_left():
            for candidate in self._shorter(failure):
                if not self._shrink_budget_left():
                    return failure
                found = self._retry(failure, candidate, tried)
                if found is not None:
                    failure = found
                    break
            else:
                return failure  # no deletion keeps the failure
        return failure

    def _shorter(self, failure: Failure):
        """Shorter versions of a failing example: ("path", moves) for a cold start,
        ("opponent", moves) or ("places", listing places) for a game's opponent."""
        example, rules = failure.example, self.target.rules
        if failure.cold == "reproduces":
            moves = list(failure.finding.moves)
            for cut in _cuts(len(moves), 2):
                yield ("path", tuple(m for i, m in enumerate(moves) if i not in cut))
            places = _places(rules.initial(), moves)
            for cut in _cuts(len(places), 2):
                path = _decode(rules, [p for i, p in enumerate(places) if i not in cut], example.seat)
                if path is not None:
                    yield ("path", path)
            return
        moves = example.opponent_moves
        for cut in _cuts(len(moves), 1):
            yield ("opponent", tuple(m for i, m in enumerate(moves) if i not in cut))
        places = _opponent_places(example)
        for cut in _cuts(len(places), 1):
            yield ("places", tuple(p for i, p in enumerate(places) if i not in cut))

    def _retry(self, failure: Failure, candidate: tuple, tried: set) -> Failure | None:
        """Run a shorter version of a failing example; the failure when it comes back."""
        if candidate in tried:
            return None
        tried.add(candidate)
        self._shrink_tries += 1
        how, moves = candidate
        example = failure.example
        if how == "path":
            if not _playable(self.target.rules, moves) or len(moves) < failure.cold_turns:
                return None
            again = self.play_cold(example.seat, moves, turns=failure.cold_turns)
        else:
            opponent = ForcedOpponent(moves) if how == "opponent" else PlacesOpponent(moves)
            again = self.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                              opponent=opponent, max_turns=example.max_turns, plan=example.plan)
        fail = first_fail(again)
        if fail is None or fail.kind != failure.finding.kind:
            return None
        if how == "path" and list(fail.moves) != list(moves):
            return None  # the fresh bot went another way before the position: not this reproducer
        return replace(failure, example=again, finding=fail)

    def _replayed(self, failure: Failure) -> Failure:
        """Run the minimal example once more, for real: a bot that now passes it, or
        fails it otherwise, is not deterministic and the failure is marked so."""
        if self.run.interrupted is not None or self.options.shrink_examples < 1 or self._out_of_time():
            return failure  # (out of time: the failure stands as found)
        example = failure.example
        if failure.cold == "reproduces":
            again = self.play_cold(example.seat, failure.finding.moves, memo=False, turns=failure.cold_turns)
        else:
            again = self.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                              opponent=ForcedOpponent(example.opponent_moves), max_turns=example.max_turns)
        fail = first_fail(again)
        if fail is None and _cut_short(again):
            return failure  # the budget ran out: no conclusion
        if (_timing(fail) or _timing(failure.finding)) and (fail is None or fail.kind != failure.finding.kind):
            # Timing is no evidence of a bot that is not deterministic. A timing failure
            # that a shortened version no longer shows falls back to the example that
            # showed it when played alone; a timing failure in the replay of another
            # failure concludes nothing.
            if _timing(failure.finding) and self._confirmed_alone is not None:
                return self._confirmed_alone
            return failure
        if fail is None or fail.kind != failure.finding.kind:
            failure.reproducible = False
            return failure
        return replace(failure, example=again, finding=fail,
                       reproducible=not self._answered_differently(again))

    # -- Hypothesis ---------------------------------------------------------------------
    def database(self) -> ExampleDatabase | None:
        """The example database, made where it is first used: a Redis client belongs to
        the process that made it (each worker makes its own, after the fork). Under
        pytest (`test(own_settings=False)`), the active profile's."""
        if self._database is None and self.options.database is not None:
            self._database = exampledb.open_database(self.options.database)
        return self._database

    def settings(self, examples: int | None) -> settings:
        database = self.database()
        return settings(
            max_examples=examples if examples is not None else 10**9, deadline=None, database=database,
            phases=(Phase.explicit, Phase.reuse, Phase.generate),
            suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
            report_multiple_bugs=False, print_blob=False, derandomize=False,
        )

    def test(self, modes: tuple[str, ...] | None = None, *, own_settings: bool = True,
             seed: int | None = None) -> Callable[[], None]:
        """The Hypothesis test: with `own_settings` False it keeps the settings of the
        active profile (its database, derandomize ...) but not its max_examples: the
        budget ends the run, or `options.examples`; `seed` then fixes the draws as
        `prototest fuzz --seed` does (None: Hypothesis's own seed)."""
        modes = modes or self._search_modes

        def fuzz_example(data: st.DataObject) -> None:
            self.episode(data, modes)

        test = given(st.data())(fuzz_example)
        if own_settings:
            left = None
            if self.options.examples is not None:
                left = max(1, self.options.examples - self.run.examples)
            # The seed first: @seed turns the database off, the settings turn it back on.
            seed = worker_seed(self.options.seed, self.options.stream) + (0 if modes == self._search_modes else 1)
            test = self.settings(left)(hypothesis_seed(seed)(test))
        else:
            if seed is not None:
                test = hypothesis_seed(seed)(test)
            # quiet: a failure is told by prototest's reproducer and replay command, never by
            # Hypothesis's "@seed(...)" hint, which would not replay a bot's game
            examples = self.options.examples if self.options.examples is not None else 10**9
            test = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
                            phases=(Phase.explicit, Phase.reuse, Phase.generate), verbosity=Verbosity.quiet,
                            print_blob=False)(test)
            # A failure found by a branch is saved as a fresh game in the profile's database
            # (see _save_as_fresh), as on the command line.
            self._database = settings.default.database
        # Stored failures are per game, modes, bot and move cap, not per this function.
        test._hypothesis_internal_database_key = self.database_key(modes)  # type: ignore[attr-defined]
        return test

    def database_key(self, modes: tuple[str, ...] | None = None) -> bytes:
        """Failures are stored per game, modes, bot command and move cap."""
        t, o = self.target, self.options
        text = "\0".join([t.spec.name, ",".join(modes or self._search_modes), str(o.max_plies), *t.argv])
        return hashlib.sha256(text.encode()).digest()

    def _interrupted(self, exc: KeyboardInterrupt) -> None:
        """Ctrl-C: what was found so far stands."""
        self.run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
        for found in (self._found, self._cold_found):
            if found is not None and all(found.finding.kind != f.finding.kind for f in self.run.failures):
                self.run.failures.append(found)


class PlacesOpponent:
    """Plays `legal_moves()[place % n]` for each of its places in turn; then stops the
    game (a shortened game keeps the listing places of the opponent's moves)."""

    def __init__(self, places: Sequence[int]) -> None:
        self.places = list(places)
        self.played = 0

    def __call__(self, position: Position) -> str:
        if self.played >= len(self.places):
            raise StopGame(f"the {len(self.places)} opponent moves are played")
        legal = position.legal_moves()
        self.played += 1
        return legal[self.places[self.played - 1] % len(legal)]


def _places(position: Position, moves: Sequence[str]) -> list[int]:
    """Each move's place in the listing of the position it was played in."""
    places = []
    for move in moves:
        legal = list(position.legal_moves())
        places.append(legal.index(move) if move in legal else 0)
        position = position.play(move)
    return places


def _opponent_places(example: Example) -> list[int]:
    report, start = example.report, len(example.start_moves)
    return [list(report.positions[i].legal_moves()).index(move)
            for i, move in enumerate(report.moves)
            if i >= start and report.positions[i].turn() != example.seat
            and move in report.positions[i].legal_moves()]


def _decode(rules: Rules, places: Sequence[int], seat: int) -> tuple[str, ...] | None:
    """The moves that listing places name from the initial position; None when the game
    ends on the way or leaves the other side to move."""
    position, moves = rules.initial(), []
    for place in places:
        if position.outcome() is not None:
            return None
        legal = position.legal_moves()
        move = legal[place % len(legal)]
        moves.append(move)
        position = position.play(move)
    if position.outcome() is not None or position.turn() != seat:
        return None
    return tuple(moves)


def _cuts(n: int, step: int):
    """Sets of indices to delete from a list of n moves, big cuts first: halves,
    quarters ... of consecutive moves (of `step` granularity), then, with step 2, any
    two moves of different sides."""
    size = n // 2 // step * step
    while size >= step:
        for start in range(0, n - size + 1, step if size == step else size // 2 or 1):
            yield frozenset(range(start, start + size))
        size = size // 2 // step * step
    if step == 2:
        for gap in range(1, n, 2):
            for i in range(n - gap):
                yield frozenset((i, i + gap))


def _keyed(exchanges: Sequence[Exchange]):
    """(key, exchange) pairs: the key digests everything sent before the answer and the
    earlier answers, so two runs share a key exactly when the bot saw the same input."""
    digest = hashlib.blake2b(digest_size=16)
    for exchange in exchanges:
        for line in exchange.sent:
            digest.update(line.encode("utf-8", "replace") + b"\n")
        yield digest.digest(), exchange
        digest.update(b"< " + (exchange.answer or "").encode("utf-8", "replace") + b"\n")


def _simplest(script: Sequence[int]) -> bool:
    """A script of mostly zero choices: Hypothesis's simplest extension of a prefix (a
    uniform draw has one chance in 65,536 a choice of being zero)."""
    return len(script) > 1 and script.count(0) * 2 > len(script)


def _cut_short(example: Example) -> bool:
    """Whether the time budget stopped this run before it could show anything."""
    return example.report.result == "stopped" and "budget" in example.report.reason


def first_fail(example: Example) -> Finding | None:
    return next((f for f in example.report.findings if f.severity == "fail"), None)


def _answer_of(example: Example) -> str | None:
    answers = [e.answer for e in example.report.exchanges]
    return answers[0] if answers else None


def _given(example: Example) -> str | None:
    """What the bot answered to its first request, in time or not (None: nothing)."""
    exchanges = example.report.exchanges
    return _given_in(exchanges[0]) if exchanges else None


def _given_in(exchange: Exchange | None) -> str | None:
    if exchange is None:
        return None
    return exchange.answer if exchange.answer is not None else exchange.late


def _move_of(spec: Spec, answer: str) -> str:
    """The move an answer line plays, as the referee reads it (the line itself when it
    does not fit the grammar)."""
    parsed = spec.parse_answer(answer.rstrip("\r"))
    return parsed[0] if parsed is not None else answer


def _request_lines(spec: Spec) -> int:
    """How many lines a cold start sends before its first request proper: the start's and
    the first turn's (the colour), one line a template."""
    return len(spec.start.send) + len(spec.turn.first_send)


def _same_request(spec: Spec, warm: Exchange | None, cold: Example) -> bool:
    """Whether a fresh bot's first request (`cold`, its colour line aside) is the request
    a running bot answered (`warm`), line for line, clock values masked: only then does
    what the fresh bot answered say something about that request."""
    fresh = cold.report.exchanges[0] if cold.report.exchanges else None
    if warm is None or fresh is None:
        return False
    count = len(fresh.sent) - _request_lines(spec)
    return count > 0 and len(warm.sent) >= count and tuple(warm.sent[-count:]) == tuple(fresh.sent[-count:])


def _clocked(spec: Spec) -> bool:
    """Whether the protocol tells the bot its clock (a fresh bot's is full)."""
    return any("{clock}" in t or "{opponent_clock}" in t for t in (*spec.turn.send, *spec.turn.first_send))


def _moves_before(example: Example, turn: int) -> list[str] | None:
    """The moves played before the bot's answer number `turn` (0-based)."""
    report, seen = example.report, -1
    for i, position in enumerate(report.positions[:-1]):
        if position.turn() == example.seat:
            seen += 1
            if seen == turn:
                return list(report.moves[:i])
    return None


def _playable(rules: Rules, moves: Sequence[str]) -> bool:
    """Whether the moves can be played in order and leave a game still going."""
    position = rules.initial()
    for move in moves:
        if position.outcome() is not None:
            return False
        try:
            position = position.judge(move).position
        except IllegalMove:
            return False
    return position.outcome() is None


def _interrupt(signum: int) -> KeyboardInterrupt:
    from ..sandbox.interrupts import Interrupted
    return Interrupted(signum)


def _replay(rules: Rules, moves: Sequence[str]) -> Position:
    position = rules.initial()
    for move in moves:
        position = position.play(move)
    return position


def _tally_resources(run: FuzzRun, report: GameReport) -> None:
    """An example's use of the machine, added to the run's figures."""
    run.answer_cpu_ms.extend(report.answer_cpu_ms)
    run.answer_wait_ms.extend(report.answer_wait_ms)
    if report.peak_memory_mb is not None:
        run.peak_memory_mb.append(report.peak_memory_mb)
    run.throttled_ms += report.throttled_ms
    if report.share_worst_ms is not None:
        run.share_worst_ms.append(report.share_worst_ms)
    if report.enforced != "none" or report.envelope:
        run.envelope, run.enforced, run.enforced_missing = report.envelope, report.enforced, report.enforced_missing


def _timing(finding: Finding | None) -> bool:
    return finding is not None and finding.kind in TIMING_KINDS


def _limit_ms(finding: Finding) -> float | None:
    """The limit a timing finding held an answer to: its own figure, or the one its
    message names ("over the 150 ms it had", "no answer within 1000 ms")."""
    if finding.limit_ms is not None:
        return finding.limit_ms
    m = re.search(r"(?:over the|within) (\d+(?:\.\d+)?) ms", finding.message)
    return float(m[1]) if m else None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# -- the reproducer, as data ----------------------------------------------------------------

def replay_command(target_: Target, failure: Failure) -> str:
    """A `prototest check` command line that plays the failing example again."""
    return shlex.join(replay_args(target_, failure))


def _run_printed(args: Sequence[str], finding: Finding) -> dict[str, Any] | None:
    """One run of a printed replay command (`prototest check ...`, as this Python runs
    prototest), its JSON report and transcripts in a scratch folder: whether it failed the
    same way (the same kind at the same ply), and what it did in a few words. None when
    interrupted."""
    import json
    import subprocess
    import sys
    import tempfile
    with tempfile.TemporaryDirectory(prefix="prototest-replay-") as folder:
        out = os.path.join(folder, "replay.json")
        argv = [sys.executable, "-m", "prototest", args[1], "--json", out, "--transcripts",
                os.path.join(folder, "transcripts"), "--quiet", *args[2:]]
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, errors="replace", timeout=3600)
        except subprocess.TimeoutExpired:
            return {"same": False, "status": None, "said": "did not end within an hour"}
        if interrupts.signals.first is not None:
            return None
        try:
            with open(out, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            data = None
    if data is None:
        last = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or [""])[-1]
        return {"same": False, "status": done.returncode, "said": f"status {done.returncode}: {last[:200]}"}
    fails = [f for f in data.get("findings", []) if f.get("severity") == "fail"]
    same = any(f.get("kind") == finding.kind and f.get("ply") == finding.ply for f in fails)
    if same:
        said = f"failed the same way ({finding.kind} at ply {finding.ply})"
    elif fails:
        f = fails[0]
        said = f"{f.get('kind')} at ply {f.get('ply')} ({str(f.get('message'))[:120]})"
    else:
        said = "passed" if done.returncode == 0 else f"status {done.returncode}, no failure"
    return {"same": same, "status": done.returncode, "said": said}


def replay_args(target_: Target, failure: Failure) -> list[str]:
    """The arguments of `replay_command` (the first one `prototest`)."""
    example = failure.example
    spec = target_.spec
    args = ["prototest", "check", "--game", spec.name, "--seat", spec.game.seats[example.seat],
            "--games", "1"]
    if example.start_moves:
        args += ["--moves", ",".join(example.start_moves)]
    if (failure.cold != "reproduces" or failure.cold_turns > 1) and example.opponent_moves:
        args += ["--opponent-moves", ",".join(example.opponent_moves)]
    if target_.time_scale != 1:
        args += ["--time-scale", str(target_.time_scale)]
    for key, value in target_.env_given.items():
        args += ["--env", f"{key}={value}"]
    for override in target_.overrides_given:
        args += ["--set", override]
    args += ["--", *target_.argv]
    return args


def request_of(report: GameReport) -> Exchange | None:
    """The last exchange of a game: the request the failing answer (or silence) met."""
    return report.exchanges[-1] if report.exchanges else None


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
