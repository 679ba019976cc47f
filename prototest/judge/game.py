"""Games as data: what the referee is given (GameConfig), what it leaves (GameReport,
with its Exchanges), the two ways a game ends early (StopGame, Forfeit), and the games of
one `prototest check` (CheckRun).

Plain data, shared by the referee and the runner that fill it in and the fixtures,
fuzzing and reports that read it. (The rules of each game are in `prototest.games`.)
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .findings import Finding
from ..games.base import Position, Rules
from .spec import Spec
from ..sandbox.transcript import Transcript


def _controlled_env() -> dict[str, str]:
    """The bot's environment by default (process.controlled_env): imported when a game is
    set up, so that the reports' data modules do not import the process machinery."""
    from ..sandbox.process import controlled_env

    return controlled_env()


#: How often a judge waiting for an answer asks GameConfig.abandon (ms)
ABANDON_LOOK_MS = 10
#: A dropped game's reasons (StopGame.abandon): another worker's failure is the run's
#: verdict; another worker plays a run alone (a timing failure's re-check, a cold retry)
ABANDONED = "dropped: another worker found a failure"
MAKE_WAY = "dropped: another worker plays a run alone"


class StopGame(Exception):
    """Raised by a forced opponent (fuzzing, replays) to end the game early: the judge
    closes the bot's input as after a real end, and the result is "stopped"."""

    def __init__(self, reason: str, *, mid_answer: bool = False, usage: str | None = None,
                 abandon: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        #: stopped while the bot was thinking: its answer may still come, and is no finding
        self.mid_answer = mid_answer
        #: the game is dropped as it stands: the bot is killed at once, its input not closed
        #: and its exit not judged (fuzzing: another worker's failure is the run's verdict)
        self.abandon = abandon
        #: the user's input cannot be played (a move given with --opponent-moves is not
        #: legal where it comes): the command ends as a usage error, with this line
        self.usage = usage


class Forfeit(Exception):
    """A fault the real judge would end the game for."""

    def __init__(self, finding: Finding, *, bot_usable: bool = True, also: Sequence[Finding] = ()) -> None:
        super().__init__(finding.message)
        self.finding = finding
        #: False when the bot is dead or unresponsive, so exit checks mean nothing.
        self.bot_usable = bot_usable
        #: Findings that came with it and are reported after it (extra output).
        self.also = list(also)


@dataclass
class GameConfig:
    spec: Spec
    rules: Rules
    rules_module: ModuleType
    argv: Sequence[str]
    seat: int
    seed: int
    index: int = 1
    time_scale: float = 1.0
    start_delay_ms: int | None = None
    env: dict[str, str] = field(default_factory=_controlled_env)
    cwd: str | None = None
    start_position: Position | None = None
    #: Moves played from the start position before the bot's first turn: the bot is
    #: shown the position after them, with the last one as the opponent's last move.
    start_moves: Sequence[str] = ()
    #: Chooses the opponent's moves instead of the spec's built-in opponent; it may
    #: raise StopGame to end the game there.
    opponent: Callable[[Position], str] | None = None
    #: Stop the game (result "stopped") once the position has this many plies, or once
    #: the bot has answered this many turns.
    max_plies: int | None = None
    max_bot_turns: int | None = None
    #: Give up on the first answer once the bot sits idle in a read of its input (no game
    #: was chosen: a bot waiting for another protocol's input must not cost the whole clock).
    stop_when_idle: bool = False
    #: Keep every exchange (what the judge sent, clock values masked, and the answer):
    #: for comparing runs of the same game (fuzzing, replays).
    log_exchanges: bool = False
    #: A `time.monotonic()` after which the game stops (result "stopped"): a fuzzing
    #: budget that covers every game. It is looked at between the bot's answers, from the
    #: first answer on: a game is judged on its first answer at least, and the answer asked
    #: for when the deadline passes is still judged to its own limit (a budget never turns
    #: a failure into a pass), so a game ends at most one answer's limit after it.
    deadline: float | None = None
    #: Asked between the bot's answers and every ABANDON_LOOK_MS while the judge waits for
    #: one: a reason drops the game at once (StopGame.abandon: result "stopped", the bot
    #: killed, its exit not judged); None plays on. Fuzzing: another worker's failure is
    #: the run's verdict, or another worker waits to play a run alone, and this worker's
    #: game in progress would only hold them up (ABANDONED, MAKE_WAY).
    abandon: Callable[[], str | None] | None = None
    #: The other seat is played by this bot (see prototest.judge.seat) instead of `opponent`;
    #: it runs in `opponent_cwd` (default: cwd) and is named `opponent_label` in the
    #: transcript ("[opponent] ...").
    opponent_argv: Sequence[str] | None = None
    opponent_cwd: str | None = None
    opponent_label: str = "opponent"
    #: The bot's coverage map (prototest.sandbox.coverage.CoverageMap), read after each
    #: answer into GameReport.coverage; the bot's environment names it (None: no coverage).
    coverage: Any = None


@dataclass(frozen=True)
class Exchange:
    """One request and its answer. `sent` holds every line the judge sent since the
    previous answer, with clock values shown as `<time>` so that two runs of the same
    game send the same text; `answer` is None when no answer line came in time. `late` is
    the line that came after the limit (read late, or when the judge closed the bot's
    input): what the bot answered, though not in time; it is never compared as an answer."""

    sent: tuple[str, ...]
    answer: str | None
    ply: int
    elapsed_ms: float | None = None
    late: str | None = None


@dataclass
class GameReport:
    index: int
    seat: int
    seat_name: str
    seed: int
    result: str = "aborted"  # win / loss / draw / forfeit
    reason: str = ""
    plies: int = 0
    moves: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    #: Moves of the bot's own played (None: not known, a report read from an older JSON).
    bot_moves: int | None = None
    startup_ms: float | None = None
    #: The bot was started this long before its game (spec start.ahead; see runner.Ahead).
    started_ahead_ms: float | None = None
    transcript: Transcript = field(default_factory=Transcript)
    transcript_path: str | None = None
    #: The built-in opponent's style ("smothering, never capture"), when it played.
    opponent: str | None = None
    #: The signal number that stopped this game (Ctrl-C, SIGTERM), if one did.
    interrupted: int | None = None
    #: The game stopped where the user's input could not be played (StopGame.usage).
    usage_error: str | None = None
    #: With GameConfig.log_exchanges: every request and answer, in order, and the
    #: position before each move and after the last (positions[i] is where moves[i] was played).
    exchanges: list[Exchange] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    #: How the bot's file operations were watched ("seccomp"), or None and why not; what
    #: made its processes die with prototest ("keeper", "pid-namespace", "none").
    file_watch: str | None = None
    file_watch_missing: str = ""
    containment: str = "none"
    #: Played again alone after a timing finding while other games ran at once: the
    #: first finding ("timeout (812 ms)"); this report is the game played alone.
    rechecked: str | None = None
    #: What ran beside the game that was re-checked alone.
    rechecked_while: str = "other games ran at once"
    #: A timing failure while other games ran that was not played again alone, and why
    #: ("the bot was asleep ...": load cannot explain it; or the run stopped there).
    recheck_skipped: str | None = None
    #: The platform's envelope ("Proglad: memory 128 MB, ..."; "" without limits), how it
    #: was held ("cgroup v1", "measured", "none") and why not by a cgroup; what each answer
    #: used (CPU time, run-queue delay, both in ms, the first answer included), the time a
    #: CPU quota held the bot back, its peak memory, and the worst answer time the CPU-share
    #: model gave (where no cgroup held the share).
    envelope: str = ""
    enforced: str = "none"
    enforced_missing: str = ""
    answer_cpu_ms: list[float] = field(default_factory=list)
    answer_wait_ms: list[float] = field(default_factory=list)
    throttled_ms: float = 0.0
    peak_memory_mb: float | None = None
    share_worst_ms: float | None = None
    #: With a bot in the other seat (GameConfig.opponent_argv): its findings (never the
    #: candidate's: its fault ends the game as a win, "the opponent forfeited: <kind>"),
    #: its answer times and its start-up.
    opponent_findings: list[Finding] = field(default_factory=list)
    #: The bot in the other seat forfeited, and the game ended so: the kind of its fault
    #: ("illegal_move"; the game is a win, its reason "the opponent forfeited: <kind>").
    opponent_forfeited: str | None = None
    opponent_answer_ms: list[float] = field(default_factory=list)
    opponent_startup_ms: float | None = None
    #: With GameConfig.coverage: (the ply the bot answered at, the map's slots its code
    #: set since the answer before), after each answer; the last, after its exit.
    coverage: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(f.severity == "fail" for f in self.findings)

    @property
    def warned(self) -> bool:
        return any(f.severity == "warn" for f in self.findings)


@dataclass
class CheckRun:
    spec: Spec
    argv: list[str]
    seed: int
    time_scale: float
    games: list[GameReport] = field(default_factory=list)
    #: The signal that stopped the run (Ctrl-C, SIGTERM), if any: the games so far stand.
    interrupted: signal.Signals | None = None
    #: Output that could not be written (one line each); the verdicts still stand.
    write_errors: list[str] = field(default_factory=list)
    #: Games stopped where a given move was not legal (GameReport.usage_error), one line each.
    usage_errors: list[str] = field(default_factory=list)
    #: Where the run's settings came from (see prototest.commands.settings, prototest.judge.detect).
    config: str | None = None
    game_source: str = "--game"
    #: Advice shown before the findings: which --game the bot looks like.
    hints: list[str] = field(default_factory=list)
    #: Games not played: the run stopped before them (`stops` says why; see NotPlayed).
    skipped: int = 0
    not_played: list["NotPlayed"] = field(default_factory=list)
    #: Why the run (or, merged, each shard) stopped before its last game.
    stops: list["Stop"] = field(default_factory=list)
    #: The fail-fast rule's K (`--max-fail`; 0: every game is played), see prototest.play.failfast.
    max_fail: int = 0
    #: The --set overrides of the spec (a merge of shards loads the same spec again).
    overrides: list[str] = field(default_factory=list)
    #: This run's shard ("2/4") of `games_total` games, or None: all of them.
    shard: str | None = None
    games_total: int = 0

    @property
    def failed(self) -> bool:
        return any(g.failed for g in self.games)


@dataclass
class NotPlayed:
    """A game of the run that has no result: the run stopped before it. `begun` says
    whether it had started by then: "" no; "stopped": it was stopped mid-game, its bot
    killed; "ended": it ended after the game that stopped the run. Either way its result is
    not counted, so that the games kept are the same whatever --jobs is."""

    index: int
    seat_name: str
    begun: str = ""


@dataclass
class Stop:
    """Why a run stopped before its last game: `why` is "max_fail" (the fail-fast rule:
    `games` failed with a finding of `kind`; `--max-fail` was `max_fail`) or "other_game"
    (the first games showed that the bot speaks another protocol). `after`: the last game
    kept; `shard`: the shard that stopped ("2/4"), None for a whole run; `unconfirmed`: the
    games among `games` whose timing failure came while other games ran and was not
    played again alone (the run stopped instead; the same kind had come back alone)."""

    why: str
    after: int
    kind: str | None = None
    games: list[int] = field(default_factory=list)
    max_fail: int = 0
    shard: str | None = None
    unconfirmed: list[int] = field(default_factory=list)
