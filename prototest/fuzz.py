"""`prototest fuzz`: Hypothesis drives a bot through reachable situations and shrinks any
failure to a minimal reproducer.

Every example is one run of a fresh bot process, judged by the same referee, spec and
severities as `prototest check`. What Hypothesis chooses is the *situation*:

* **position** mode (protocols that send the whole state each turn): a list of moves
  from the initial position; the bot starts in the position they reach, answers one
  turn, and the judge closes its input. Deep positions cost one exchange.
* **game** mode (every protocol): a real game from the initial position in which
  Hypothesis plays the opponent's moves; it stops after a drawn number of the bot's
  turns.

Each move is an integer choice `legal_moves()[i]`, drawn with `i < n` (so `i % n` is
`i`): examples shrink towards short games and the first moves of each listing (see
`prototest.strategies`). Three choices in four come from the rules module's `steer()`
list instead (moves towards the game's rare situations; the coin shrinks to "no
steering"), and each module's `measures()` feed `hypothesis.target()`. *mixed* mode
draws one of the two modes per example.

Failures are kept per finding kind and each is shrunk on its own, within a budget of
runs: Hypothesis's shrinker first, then deleting moves by their strings
(`Campaign.reduce`). Failing examples are saved in Hypothesis's example database, so
the next run replays them first.

A bot is assumed to answer the same input the same way; when it does not, the run says
so (with both answers) instead of reporting a failure it cannot reproduce.
"""

from __future__ import annotations

import hashlib
import shlex
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings, target
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Flaky

from . import strategies
from .findings import Finding, fold
from .games.base import Position, Rules
from .referee import Exchange, GameConfig, GameReport, Referee
from .runner import ForcedOpponent, game_seed
from .spec import Spec

MODES = ("position", "game", "mixed")
#: Findings of these kinds depend on timing, not on the position: a run that sees one
#: and a replay that does not is a slow bot, not a non-deterministic one.
TIMING_KINDS = ("timeout", "slow")


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


@dataclass
class Target:
    """What is fuzzed: the protocol, its rules and the bot."""

    spec: Spec
    rules: Rules
    module: ModuleType
    argv: list[str]
    env: dict[str, str]
    time_scale: float = 1.0
    #: Silence before the judge's first line: none by default (start-up is `check`'s
    #: business; here it would only slow every example down).
    start_delay_ms: int = 0
    #: The folder the bot runs in (None: the current one)
    cwd: str | None = None


@dataclass
class Options:
    mode: str = "position"
    examples: int = 100
    seed: int = 1
    max_plies: int = 60
    database: Path | None = None
    #: Runs of the bot for shrinking, from the first failure on: Hypothesis's shrinker
    #: has the first half, the move-deleting pass (`Campaign.reduce`) the rest. A count,
    #: not a time, so that a seed gives the same reproducer on any machine.
    shrink_examples: int = 80


@dataclass
class Example:
    """One run of the bot."""

    number: int
    mode: str
    seat: int
    #: position mode: the moves that reach the bot's position
    start_moves: list[str]
    report: GameReport
    #: game mode: the bot's turns after which the judge stops
    max_turns: int = 1
    #: the best value of each rules measure over the bot's positions (for target())
    measures: dict[str, float] = field(default_factory=dict)

    @property
    def opponent_moves(self) -> list[str]:
        """The moves the judge played for the opponent during the run, in order."""
        report = self.report
        return [move for i, move in enumerate(report.moves)
                if i >= len(self.start_moves) and report.positions[i].turn() != self.seat]


class _Enough(BaseException):
    """Hypothesis's share of the shrinking time is spent: stop it, keep what it has."""


class BotFault(AssertionError):
    """A failing example; one subclass per finding kind, so Hypothesis shrinks each
    kind of fault on its own and reports them side by side."""

    def __init__(self, example: Example, finding: Finding, text: str = "") -> None:
        super().__init__(text or f"{finding.kind}: {finding.message}")
        self.example = example
        self.finding = finding


_FAULTS: dict[str, type[BotFault]] = {}


def fault_class(kind: str) -> type[BotFault]:
    if kind not in _FAULTS:
        _FAULTS[kind] = type(f"BotFault_{kind}", (BotFault,), {})
    return _FAULTS[kind]


@dataclass
class Nondeterminism:
    """The same input answered differently in two runs."""

    sent: tuple[str, ...]
    first: str | None
    second: str | None
    first_example: int
    second_example: int
    ply: int


@dataclass
class Failure:
    """A minimal failing example and what to tell the bot author."""

    example: Example
    finding: Finding
    #: False when the replay of the shrunk example passed (a non-deterministic bot)
    reproducible: bool = True


@dataclass
class FuzzRun:
    target: Target
    options: Options
    runs: int = 0
    started: float = field(default_factory=time.monotonic)
    elapsed_s: float = 0.0
    #: situation name -> number of runs that met it
    situations: Counter = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    nondeterminism: list[Nondeterminism] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    #: the first answer of each run (start-up included)
    first_answer_ms: list[float] = field(default_factory=list)
    interrupted: signal.Signals | None = None
    write_errors: list[str] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)
    #: the run (1-based) that met the first failure
    first_failure_example: int | None = None
    #: why the run ended before its examples were all run (besides a signal)
    stopped_early: str | None = None
    #: kinds of failure met so far (the progress line)
    failing_kinds: set[str] = field(default_factory=set)
    shrinking: bool = False

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    @property
    def rate(self) -> float:
        return self.runs / self.elapsed_s if self.elapsed_s > 0 else 0.0


class Campaign:
    """The body of the Hypothesis test, and what it learns across examples."""

    def __init__(self, target_: Target, options: Options,
                 progress: Callable[[FuzzRun], None] | None = None) -> None:
        if options.mode not in MODES:
            raise ValueError(f"mode {options.mode!r}: expected one of {', '.join(MODES)}")
        self.target = target_
        self.options = options
        self.run = FuzzRun(target_, options)
        self.progress = progress
        module = target_.module
        self._steer = getattr(module, "steer", None)
        self._situations = getattr(module, "situations", None)
        self._measures = getattr(module, "measures", None)
        #: digest of everything sent before an answer -> (answer, run number)
        self._answers: dict[bytes, tuple[str | None, int]] = {}
        #: inputs that got different answers in different runs
        self._unstable: set[bytes] = set()
        self._warned: dict[tuple, Finding] = {}
        self._smallest: dict[str, Failure] = {}
        self._first_failure_at: int | None = None  # the run count then
        self._memo: dict[tuple, Example] = {}
        #: False under pytest (`prototest.testing`): Hypothesis shrinks as it likes there
        self.budgeted = True

    # -- one example --------------------------------------------------------------------
    def episode(self, data: st.DataObject) -> None:
        """Play one example; raise a BotFault when the bot fails it."""
        spec = self.target.spec
        mode = self.options.mode
        if mode == "mixed":
            mode = data.draw(st.sampled_from(("position", "game")), label="mode")
        if mode == "position":
            example = self.play(None, start_moves=self._draw_position(data))
        else:
            seat = data.draw(st.sampled_from(range(len(spec.game.seats))), label="seat")
            turns = data.draw(st.integers(1, max(1, self.options.max_plies // 2)), label="bot turns")
            example = self.play(seat, opponent=self._opponent(data), max_turns=turns)
        for label, value in example.measures.items():
            target(value, label=label)
        fail = _first_fail(example)
        if fail is not None:
            self._keep_smallest(example, fail)
            if self.budgeted and self._hypothesis_budget_spent():
                raise _Enough()
            raise fault_class(fail.kind)(example, fail, self.explain(Failure(example, fail)))

    def play(self, seat: int | None, *, start_moves: Sequence[str] = (),
             opponent: Callable[[Position], str] | None = None, max_turns: int = 1,
             fresh: bool = False) -> Example:
        """One run of the bot: from the position after `start_moves` (position mode,
        one answer; the seat is the side to move there when None), or a game against
        `opponent` (game mode).

        While shrinking, a position-mode input that an earlier run already showed the
        bot is answered from memory: shrinking reaches the same position by many paths,
        and a deterministic bot answers it the same way (the minimal failure is replayed
        for real at the end, which checks that)."""
        spec, rules = self.target.spec, self.target.rules
        key = None
        if opponent is None:
            final = _replay(rules, start_moves)
            seat = final.turn() if seat is None else seat
            key = (seat, final.notation(), start_moves[-1] if start_moves else None)
            if self._first_failure_at is not None and key in self._memo and not fresh:
                return self._memo[key]
        cfg = GameConfig(
            spec=spec, rules=rules, rules_module=self.target.module, argv=self.target.argv,
            seat=seat, seed=game_seed(self.options.seed, 1), index=self.run.runs + 1,
            time_scale=self.target.time_scale, start_delay_ms=self.target.start_delay_ms,
            env=self.target.env, cwd=self.target.cwd, start_moves=list(start_moves), opponent=opponent,
            max_plies=self.options.max_plies + len(start_moves), max_bot_turns=max_turns,
            log_exchanges=True,
        )
        report = Referee(cfg).run()
        self.run.runs += 1
        mode = "position" if opponent is None else "game"
        example = Example(self.run.runs, mode, seat, list(start_moves), report, max_turns)
        if report.interrupted is not None:
            self._tick()
            raise _interrupt(report.interrupted)
        self._observe(example)
        self._tick()
        if key is not None:
            self._memo[key] = example
        return example

    def _draw_position(self, data: st.DataObject) -> list[str]:
        """A playable position: the bot must have a turn."""
        return data.draw(strategies.move_lists(self.target.rules, max_plies=self.options.max_plies,
                                               steer=self._steer), label="moves")

    def _opponent(self, data: st.DataObject) -> Callable[[Position], str]:
        def choose(position: Position) -> str:
            return data.draw(strategies.plies(position, steer=self._steer), label="opponent move")
        return choose

    # -- what an example teaches --------------------------------------------------------
    def _observe(self, example: Example) -> None:
        report = example.report
        self.run.answer_ms.extend(report.answer_ms)
        if report.startup_ms is not None:
            self.run.first_answer_ms.append(report.startup_ms)
        self._check_determinism(example)
        for f in report.findings:
            if f.severity == "warn":
                key = f.key()
                if key in self._warned:
                    self._warned[key].count += f.count
                else:
                    self._warned[key] = f
                    self.run.warnings.append(f)
        seen, example.measures = self._walk(example)
        for name in seen:
            self.run.situations[name] += 1

    def _walk(self, example: Example) -> tuple[set[str], dict[str, float]]:
        """The situations met (positions shown to the bot, moves played, the end of the
        game) and the best value of each measure over the bot's positions."""
        report = example.report
        seen: set[str] = set()
        best: dict[str, float] = {}
        if report.result not in ("forfeit", "stopped", "aborted", "interrupted") and report.reason:
            seen.add(f"game end: {report.reason}")
        if self._situations is None and self._measures is None:
            return seen, best
        start = len(example.start_moves)
        for i, (position, move) in enumerate(zip(report.positions, report.moves + [None])):
            if i >= start and position.turn() == example.seat and position.outcome() is None:
                if self._situations is not None:
                    seen.update(self._situations(position))
                if self._measures is not None:
                    for label, value in self._measures(position).items():
                        best[label] = max(value, best.get(label, value))
            if move is not None and self._situations is not None and i >= start - 1:
                seen.update(self._situations(position, move))
        return seen, best

    def _check_determinism(self, example: Example) -> None:
        """Compare every answer with the answer an earlier run gave to the same input."""
        for key, exchange in _keyed(example.report.exchanges):
            known = self._answers.get(key)
            if known is None:
                self._answers[key] = (exchange.answer, example.number)
                continue
            if known[0] != exchange.answer and not _timing_only(example, exchange):
                self._unstable.add(key)
                if len(self.run.nondeterminism) < 5:
                    self.run.nondeterminism.append(Nondeterminism(
                        exchange.sent, known[0], exchange.answer, known[1], example.number, exchange.ply))
                return  # later inputs differ anyway

    def _answered_differently(self, example: Example) -> bool:
        """Whether some run answered an input of this example differently."""
        return any(key in self._unstable for key, _ in _keyed(example.report.exchanges))

    def explain(self, failure: Failure) -> str:
        """The reproducer as text (the message of a failing pytest test)."""
        return _explain(self.run, failure)

    def _hypothesis_budget_spent(self) -> bool:
        return (self._first_failure_at is not None
                and self.run.runs - self._first_failure_at >= self.options.shrink_examples // 2)

    def _keep_smallest(self, example: Example, finding: Finding) -> None:
        if self._first_failure_at is None:
            self._first_failure_at = self.run.runs
            self.run.first_failure_example = example.number
        self.run.failing_kinds.add(finding.kind)
        kept = self._smallest.get(finding.kind)
        if kept is None or _size(example) < _size(kept.example):
            self._smallest[finding.kind] = Failure(example, finding)

    def _tick(self) -> None:
        self.run.elapsed_s = time.monotonic() - self.run.started
        self.run.shrinking = bool(self._smallest)
        if self.progress is not None:
            self.progress(self.run)

    # -- the whole run ------------------------------------------------------------------
    def settings(self) -> settings:
        database = None
        if self.options.database is not None:
            database = DirectoryBasedExampleDatabase(str(self.options.database))
        return settings(
            max_examples=self.options.examples, deadline=None, database=database,
            phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
            suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
            report_multiple_bugs=True, print_blob=False, derandomize=False,
        )

    def test(self, *, own_settings: bool = True) -> Callable[[], None]:
        """The Hypothesis test: with `own_settings` False it keeps the settings of the
        active profile (max_examples, database), as a pytest test should."""
        def fuzz_example(data: st.DataObject) -> None:
            self.episode(data)

        test = given(st.data())(fuzz_example)
        if own_settings:
            # The seed first: @seed turns the database off, the settings turn it back on.
            test = self.settings()(hypothesis_seed(self.options.seed)(test))
        else:
            self.budgeted = False
            test = settings(deadline=None, suppress_health_check=list(HealthCheck))(test)
        # Stored failures are per game, mode, bot and move limit, not per this function.
        test.hypothesis.inner_test._hypothesis_internal_add_digest = self.database_key()  # type: ignore[attr-defined]
        return test

    def database_key(self) -> bytes:
        """Failures are stored per game, mode, bot command and move limit."""
        t, o = self.target, self.options
        text = "\0".join([t.spec.name, o.mode, str(o.max_plies), *t.argv])
        return hashlib.sha256(text.encode()).digest()

    def execute(self) -> FuzzRun:
        """Run the campaign: generate, shrink, and gather the minimal failures."""
        try:
            self.test()()
        except _Enough:
            self.run.failures = list(self._smallest.values())
        except KeyboardInterrupt as exc:
            self._interrupted(exc)
        except Flaky as exc:  # a failure that did not come back: non-deterministic bot
            self.run.failures = self._from(exc)
            for failure in self.run.failures:
                failure.reproducible = False
        except BaseExceptionGroup as group:
            self.run.failures = self._from(group)
        except BotFault as fault:
            self.run.failures = [Failure(fault.example, fault.finding)]
        if self.run.interrupted is None and self._first_failure_at is not None:
            last_run = self._first_failure_at + self.options.shrink_examples
            try:
                self.run.failures = [self._confirm(self.reduce(f, last_run)) if f.reproducible else f
                                     for f in self.run.failures]
            except KeyboardInterrupt as exc:
                self._interrupted(exc)
        self.run.elapsed_s = time.monotonic() - self.run.started
        self.run.warnings = fold(self.run.warnings)
        return self.run

    def _interrupted(self, exc: KeyboardInterrupt) -> None:
        """Ctrl-C: the smallest failures seen so far stand."""
        self.run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
        if not self.run.failures:
            self.run.failures = list(self._smallest.values())

    def _from(self, exc: BaseException) -> list[Failure]:
        faults = _faults_in(exc)
        if faults:
            return [Failure(f.example, f.finding) for f in faults]
        if isinstance(exc, Flaky):  # the games changed under Hypothesis's feet
            self.run.stopped_early = ("Hypothesis stopped: replaying an example gave another game, "
                                      "because the bot answered the same input differently")
            return list(self._smallest.values())
        if self._smallest:
            return list(self._smallest.values())
        raise exc

    # -- deleting moves -----------------------------------------------------------------
    def reduce(self, failure: Failure, last_run: int) -> Failure:
        """Delete moves from a failing example while the bot still fails the same way:
        plies of the move list (position mode; one of each side, so that the bot keeps
        its seat) or the opponent's moves (game mode). Moves are kept as strings, so the
        rest of the game stays the same where an index-based encoding would change it.
        Only sequences that can still be played cost a run of the bot."""
        example = failure.example
        position_mode = example.mode == "position"
        moves = list(example.start_moves) if position_mode else example.opponent_moves
        step = 2 if position_mode else 1
        tried: set[tuple[str, ...]] = {tuple(moves)}
        while self.run.runs < last_run:
            for cut in _cuts(len(moves), step):
                if self.run.runs >= last_run:
                    return failure
                candidate = [m for i, m in enumerate(moves) if i not in cut]
                found = self._retry(failure, candidate, tried)
                if found is not None:
                    failure, moves = found, candidate
                    break
            else:
                return failure  # no deletion keeps the failure
        return failure

    def _confirm(self, failure: Failure) -> Failure:
        """Run the minimal example once more, for real: a bot that now passes it, or
        fails it otherwise, is not deterministic and the failure is marked so."""
        example = failure.example
        if example.mode == "position":
            again = self.play(example.seat, start_moves=example.start_moves, fresh=True)
        else:
            again = self.play(example.seat, opponent=ForcedOpponent(example.opponent_moves),
                              max_turns=example.max_turns)
        fail = _first_fail(again)
        if fail is None or fail.kind != failure.finding.kind:
            failure.reproducible = False
            return failure
        return Failure(again, fail, reproducible=not self._answered_differently(again))

    def _retry(self, failure: Failure, moves: list[str], tried: set) -> Failure | None:
        """Run a shorter version of a failing example; the failure when it comes back."""
        if tuple(moves) in tried:
            return None
        tried.add(tuple(moves))
        example = failure.example
        if example.mode == "position":
            if not _playable(self.target.rules, moves):
                return None
            again = self.play(example.seat, start_moves=moves)
        else:
            again = self.play(example.seat, opponent=ForcedOpponent(moves), max_turns=example.max_turns)
        fail = _first_fail(again)
        if fail is None or fail.kind != failure.finding.kind:
            return None
        return Failure(again, fail)


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
        for gap in range(3, n, 2):
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


def _first_fail(example: Example) -> Finding | None:
    return next((f for f in example.report.findings if f.severity == "fail"), None)


def _playable(rules: Rules, moves: Sequence[str]) -> bool:
    """Whether the moves can be played in order and leave a game still going."""
    position = rules.initial()
    for move in moves:
        if position.outcome() is not None or move not in position.legal_moves():
            return False
        position = position.play(move)
    return position.outcome() is None


def _faults_in(exc: BaseException) -> list[BotFault]:
    if isinstance(exc, BotFault):
        return [exc]
    if isinstance(exc, BaseExceptionGroup):
        return [f for inner in exc.exceptions for f in _faults_in(inner)]
    return []


def _interrupt(signum: int) -> KeyboardInterrupt:
    from .interrupts import Interrupted
    return Interrupted(signum)


def _replay(rules: Rules, moves: Sequence[str]) -> Position:
    position = rules.initial()
    for move in moves:
        position = position.play(move)
    return position


def _size(example: Example) -> tuple[int, int]:
    return (len(example.report.moves), example.number)


def _timing_only(example: Example, exchange: Exchange) -> bool:
    """A missing answer beside a timing finding: a slow bot, not a changing one."""
    return exchange.answer is None and any(f.kind in TIMING_KINDS for f in example.report.findings)


# -- the reproducer ------------------------------------------------------------------------

def _explain(run: FuzzRun, failure: Failure) -> str:
    from .report import reproducer_text
    return reproducer_text(run, failure)


def replay_command(target_: Target, failure: Failure) -> str:
    """A `prototest check` command line that plays the failing example again."""
    example = failure.example
    spec = target_.spec
    args = ["prototest", "check", "--game", spec.name, "--seat", spec.game.seats[example.seat],
            "--games", "1"]
    if example.mode == "position":
        if example.start_moves:
            args += ["--moves", ",".join(example.start_moves)]
    else:
        args += ["--opponent-moves", ",".join(example.opponent_moves)]
    if target_.time_scale != 1:
        args += ["--time-scale", str(target_.time_scale)]
    args += ["--", *target_.argv]
    return shlex.join(args)


def request_of(report: GameReport) -> Exchange | None:
    """The last exchange of a game: the request the failing answer (or silence) met."""
    return report.exchanges[-1] if report.exchanges else None


def describe(run: FuzzRun, failure: Failure) -> dict[str, Any]:
    """The reproducer as data (JSON), shared by the console summary."""
    example, finding = failure.example, failure.finding
    spec = run.target.spec
    exchange = request_of(example.report)
    return {
        "game": spec.name,
        "mode": example.mode,
        "seed": run.options.seed,
        "seat": spec.game.seats[example.seat],
        "kind": finding.kind,
        "reason": finding.message,
        "plies": len(finding.moves),
        "moves": list(finding.moves),
        "start_moves": list(example.start_moves),
        "opponent_moves": example.opponent_moves if example.mode == "game" else [],
        "position": finding.position,
        "sent": list(exchange.sent) if exchange else [],
        "expected": finding.expected,
        "got": finding.got,
        "elapsed_ms": finding.elapsed_ms,
        "reproducible": failure.reproducible,
        "command": replay_command(run.target, failure),
        "transcript": finding.transcript,
    }
