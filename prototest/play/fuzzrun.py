"""What a `prototest fuzz` run is given and what it leaves, as plain data.

The target and options go in; the run comes out with its examples, failures, warnings
and figures (`FuzzRun`). `prototest.play.fuzz` and `prototest.play.workers` fill it in; the reports
(`prototest.reports`), the reproducer fixtures and `prototest.testing` read it, and never
need the fuzzer itself.
"""

from __future__ import annotations

import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..judge.findings import Finding
from ..judge.game import GameReport
from ..games.base import Rules
from ..games.opponents import Style
from ..judge.spec import Spec

if TYPE_CHECKING:
    from .exampledb import RedisLocation

DEFAULT_BUDGET_S = 60.0


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
    #: Nothing chose the game: a bot that sits idle in a read of its input at its first
    #: answer is given up on early, as `check` does (GameConfig.stop_when_idle)
    stop_when_idle: bool = False
    #: The variables the user gave the bot (--env, the config file's env): the printed
    #: replay command passes them on (`env` is the whole environment the bot ran in)
    env_given: dict[str, str] = field(default_factory=dict)
    #: The spec keys the user set (--set; the config file's `set` is read by the replay too)
    overrides_given: list[str] = field(default_factory=list)


@dataclass
class Options:
    mode: str = "mixed"
    #: Examples to run (None: as many as the budget allows)
    examples: int | None = None
    #: Seconds for the whole run, shrinking included (None: no limit)
    budget_s: float | None = DEFAULT_BUDGET_S
    seed: int = 1
    jobs: int = 1
    #: A cap on each game's plies (None: the game's own end and turn limit)
    max_plies: int | None = None
    #: Hypothesis's example database: a folder, or a Redis server (None: none)
    database: Path | RedisLocation | None = None
    #: Runs of the bot after the first failure for shortening it (cold retries, shorter
    #: paths, fewer opponent moves), whatever the time budget leaves.
    shrink_examples: int = 80
    #: This campaign's worker (see worker_seed); set by prototest.play.workers
    worker: int = 0
    #: `fuzz --shard I/N`: this machine runs shard I of N of the seed streams
    shard: tuple[int, int] | None = None
    #: `fuzz --coverage`: "auto" (where the bot gives it), "on" (required), "off"
    coverage: str = "auto"
    #: `fuzz --value-profile`: a Python bot's branches' comparisons steer too (see
    #: prototest.sandbox.coverage.collector._compares)
    values: bool = False

    @property
    def stream(self) -> int:
        """This campaign's seed stream: worker W of shard I/N takes stream W*N + I-1, so
        no two shards share one, whatever --jobs each runs (shard 1's first worker keeps
        the run's own seed, as an unsharded run's does)."""
        if self.shard is None:
            return self.worker
        return self.worker * self.shard[1] + self.shard[0] - 1


@dataclass(frozen=True)
class Plan:
    """What Hypothesis drew for one example, all of it before the game."""

    mode: str  # "game" or "position"
    seat: int
    style: Style  # the opponent's
    path: tuple[str, ...]  # position mode: the moves before the bot's first turn
    script: tuple[int, ...]  # the opponent's move choices, one a move
    path_style: Style | None = None  # position mode: the bot's side of the path
    #: 0: a fresh game; otherwise, where one is kept, the game continues one of the games
    #: that came nearest a boundary (see prototest.play.elites)
    branch: int = 0
    config: int = 0  # the seed of the style, the path and the branch point
    #: drawn by prototest's own seeded stream, as check draws its games, in place of
    #: Hypothesis's draws (see plans.Planner.varied): replayed from the example database only
    #: through a saved copy (elites.Elites.save_as_fresh)
    drawn: bool = False


@dataclass
class Example:
    """One run of the bot."""

    number: int
    mode: str  # "game", "position" (started cold after `start_moves`), "probe"
    seat: int
    start_moves: list[str]
    report: GameReport
    plan: Plan | None = None
    #: the bot's answers after which the judge stopped (None: the game's end)
    max_turns: int | None = None
    #: the moves the judge played for the opponent during the run, in order
    opponent_moves: list[str] = field(default_factory=list)
    #: it continued a kept game (see prototest.play.elites)
    branched: bool = False
    #: the bot ran with coverage (prototest.play.corpus), and the slots it reached first
    coverage: bool = False
    coverage_new: int = 0

    def __post_init__(self) -> None:
        report, start = self.report, len(self.start_moves)
        if report.positions and not self.opponent_moves:
            self.opponent_moves = [move for i, move in enumerate(report.moves)
                                   if i >= start and report.positions[i].turn() != self.seat]

    @property
    def cold(self) -> bool:
        """Whether the bot started in a position a real game never starts it in."""
        return bool(self.start_moves)


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
    #: False when the replay of the shrunk example passed (a non-deterministic bot); once the
    #: printed replay command was run (see `replay`), True only when every try of it failed
    #: the same way
    reproducible: bool = True
    #: The verdict: False when it was seen only after a cold start and no game from the start
    #: showed it (a warning); the JSON's `confirmed` also needs the printed replay to have
    #: failed the same way at least once (see fuzz.describe)
    confirmed: bool = True
    #: "reproduces": the failing position shown cold to a fresh bot fails the same way (the
    #: reproducer is that position); "needs memory": it answers otherwise (or not at all);
    #: "same answer": it plays the running bot's move without the failure; "timing": a
    #: timing failure, the fresh bot's answer compared in time; None: not tried, or no
    #: conclusion (the fresh bot was not shown the failing request)
    cold: str | None = None
    #: what a fresh bot shown exactly the failing request answered (in time or late), when
    #: it did not fail the same way
    cold_answer: str | None = None
    #: the answers a "reproduces" reproducer asks of its fresh bot: 1, the failing one; 2
    #: for a timing fault, the bot started a turn earlier (a first answer has the start-up's
    #: longer limit, so only a second one is held to the limit that was broken)
    cold_turns: int = 1
    #: what the fresh bot did, as the report's note says it
    cold_note: str | None = None
    #: fresh bots shown the failing position: how many failed the same way, of how many
    #: (None: not tried more than once)
    cold_tries: tuple[int, int] | None = None
    #: the printed replay command, run as printed (prototest.play.replaycheck): its
    #: tries, how many failed the same way, and what each did (None: not run)
    replay: dict[str, Any] | None = None
    #: the reproducer as data (see describe), filled in when the run ends
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class StateProbe:
    """What the probe for state kept between turns saw."""

    #: True: keeps state; False: answered as a running bot does; None: cannot tell (two
    #: fresh copies of the bot answered the same position differently)
    stateful: bool | None
    message: str


@dataclass
class FuzzRun:
    target: Target
    options: Options
    runs: int = 0
    examples: int = 0
    started: float = field(default_factory=time.monotonic)
    elapsed_s: float = 0.0
    #: situation name -> number of runs that met it
    situations: Counter = field(default_factory=Counter)
    #: opponent style -> examples that used it
    styles: Counter = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    nondeterminism: list[Nondeterminism] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    #: the first answer of each run (start-up included)
    first_answer_ms: list[float] = field(default_factory=list)
    #: what the answers used (prototest.sandbox.envelope): CPU time and run-queue delay per answer,
    #: each run's peak memory, the time a CPU quota held the bot back, the worst answer
    #: time under the CPU-share model; the envelope and how it was held
    answer_cpu_ms: list[float] = field(default_factory=list)
    answer_wait_ms: list[float] = field(default_factory=list)
    peak_memory_mb: list[float] = field(default_factory=list)
    throttled_ms: float = 0.0
    share_worst_ms: list[float] = field(default_factory=list)
    envelope: str = ""
    enforced: str = "none"
    enforced_missing: str = ""
    interrupted: signal.Signals | None = None
    write_errors: list[str] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)
    #: the run (1-based) that met the first failure, and when (seconds from the start)
    first_failure_example: int | None = None
    first_failure_s: float | None = None
    #: what that run played: its mode and where its plan came from ("drawn": prototest's
    #: own draw, as check draws a game; "branch": a kept game continued; "hypothesis")
    first_failure_origin: str | None = None
    #: why the run ended before its examples were all run (besides a signal)
    stopped_early: str | None = None
    #: kinds of failure met so far in games from the start (the progress line), and
    #: after cold starts only
    failing_kinds: set[str] = field(default_factory=set)
    cold_kinds: set[str] = field(default_factory=set)
    shrinking: bool = False
    probe: StateProbe | None = None
    #: the modes examples were drawn from (position mode is off for a bot that keeps state)
    modes: tuple[str, ...] = ()
    #: how the run ended: "failure", "budget", "examples", "stopped" (another worker failed)
    ended: str = ""
    workers: int = 1
    #: a failure in a game from the start was met (the workers stop at it)
    confirmed_found: bool = False
    #: runs of the bot spent shortening failures (each has `shrink_examples` of them)
    shrink_runs: int = 0
    #: examples that continued a kept game near a boundary
    branches: int = 0
    #: examples cut short because another worker played a run alone (fuzz.Campaign._abandon)
    made_way: int = 0
    #: search runs whose bot was started ahead, during the run before (prototest.play.spare)
    started_ahead: int = 0
    #: examples whose plan prototest drew as check draws a game (plans.Planner.varied)
    drawn: int = 0
    #: timing failures played again alone before any verdict (prototest.play.alone):
    #: what was seen, the machine's load, and whether it came back ("the same", "the same, shown
    #: cold": its failing position shown alone to a fresh bot, "not again";
    #: "not without coverage": seen with coverage, back alone with it and not without it)
    rechecked: list[dict[str, Any]] = field(default_factory=list)
    #: the config file read (its path), what chose the game ("--game", "--spec", "config",
    #: "default") and, when nothing did, the other protocol the failure points to
    #: (prototest.judge.detect), as `check` reports them
    config: str | None = None
    game_source: str = "--game"
    hints: list[str] = field(default_factory=list)
    #: the bot's coverage (prototest.play.corpus): the map's slots reached, the bot's files
    #: the collector named, runs with coverage, examples that reached new code, timing
    #: findings seen with coverage that did not come back without it; how it was had
    #: ("python", "native") or why not; the corpus; and the summary the reports show
    coverage_reached: set[int] = field(default_factory=set)
    coverage_files: list[str] = field(default_factory=list)
    coverage_runs: int = 0
    coverage_new: int = 0
    coverage_timing_rechecked: int = 0
    coverage_kind: str | None = None
    coverage_root: str | None = None
    #: the bot's branches' comparisons recorded too (`--value-profile`, a Python bot before 3.12)
    coverage_values: bool = False
    coverage_off: str | None = None
    coverage_corpus: int = 0
    coverage: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """A confirmed failure was found (exit status 1)."""
        return self.confirmed_found or any(f.confirmed for f in self.failures)

    @property
    def incomplete(self) -> bool:
        """Nothing was judged: the budget ran out before the bot's first answer."""
        return (not self.failures and self.interrupted is None
                and not self.answer_ms and not self.first_answer_ms)

    @property
    def unconfirmed(self) -> list[Failure]:
        return [f for f in self.failures if not f.confirmed]

    @property
    def rate(self) -> float:
        return self.runs / self.elapsed_s if self.elapsed_s > 0 else 0.0
