"""Runs the games of one `prototest check` and gathers their reports (a `CheckRun`)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator, Sequence

from .. import games
from ..games.base import Position, Rules
from ..judge import progress
from ..judge.findings import TIMING_KINDS, Finding
from ..judge.game import CheckRun, GameConfig, GameReport, NotPlayed, Stop
from ..judge.referee import Referee
from ..judge.spec import Spec
from ..sandbox import interrupts
from . import failfast, pool
from .forced import GIVEN_OPTION, ForcedOpponent, builtin_opponent, game_seed  # noqa: F401 - the run's, re-exported


#: Games a timing kind must come back in, played alone, before later games that show it
#: beside others are no longer played again alone.
RECHECKS = 2


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "game"


def run_check(
    spec: Spec, rules: Rules, module: ModuleType, argv: Sequence[str], *, games: int, seed: int,
    time_scale: float = 1.0, start_delay_ms: int | None = None, env: dict[str, str],
    transcripts: Path, write_all: bool, progress: Callable[[GameReport, int], None] | None = None,
    seats: Sequence[int] | None = None, start_position: Position | None = None,
    start_moves: Sequence[str] = (), opponent_moves: Sequence[str] | None = None,
    cwd: str | None = None,
    stop: Callable[[GameReport], bool] | None = None,
    stop_when_idle: bool = False,
    jobs: int = 1,
    indices: Sequence[int] | None = None,
    note: Callable[[str], None] | None = None,
    opponent_argv: Sequence[str] | None = None,
    max_fail: int = 0,
    stopping: Callable[[str], None] | None = None,
) -> CheckRun:
    """Play the games, `jobs` at once (see prototest.play.pool). `stop`, asked after each game
    in game order, ends the run early: the bot speaks another protocol; so does the
    fail-fast rule (`max_fail`, see prototest.play.failfast; 0: every game is played). The
    games after the one that stopped the run are not played (`not_played`; one in play
    then has its bot killed); `cwd` is the folder the bot runs in; `stop_when_idle` as
    GameConfig's; `indices` the games of this shard (default all, 1 to `games`). A game
    with a timing finding while other games ran is played again alone, and that game
    stands (see prototest.play.pool; `note` is told). `stopping` is told when the fail-fast
    rule stops the run (stop_note), before the games in play are cancelled."""
    run = CheckRun(spec, list(argv), seed, time_scale)
    run.max_fail = max_fail
    seats = list(seats) if seats else list(range(len(spec.game.seats)))
    indices = list(indices) if indices is not None else list(range(1, games + 1))
    fail_fast = failfast.FailFast(max_fail)
    #: decided in game order: a stop keeps the same games whatever `jobs` is
    ordered = stop is not None or fail_fast.active

    def config(index: int) -> GameConfig:
        seat = seats[(index - 1) % len(seats)]
        forced = None
        if opponent_moves:
            forced = ForcedOpponent(opponent_moves, builtin_opponent(module, spec, game_seed(seed, index)),
                                    given=f"game {index}, the bot as {spec.seat_title(seat)}")
        return GameConfig(spec=spec, rules=rules, rules_module=module, argv=argv, seat=seat,
                          seed=game_seed(seed, index), index=index, time_scale=time_scale,
                          start_delay_ms=start_delay_ms, env=env, start_position=start_position,
                          start_moves=start_moves, cwd=cwd, stop_when_idle=stop_when_idle, opponent=forced,
                          opponent_argv=opponent_argv, opponent_cwd=os.getcwd() if opponent_argv else None)

    in_order = pool.InOrder()
    begun: dict[int, str] = {}  # games with a result that came after the run stopped: how they ended

    def keep(report: GameReport) -> bool:
        """Take one game's report (its transcript, its progress line); True: stop here."""
        run.games.append(report)
        if report.interrupted is not None:
            run.interrupted = signal.Signals(report.interrupted)
        try:
            if opponent_argv and (write_all or worth_keeping(report)):  # replayable against either bot
                report.transcript.header[:0] = opponent_game_header(
                    spec, report, transcripts, seed=seed, time_scale=time_scale, start_delay_ms=start_delay_ms,
                    start_position=start_position, start_moves=start_moves, argv=argv, cwd=cwd or os.getcwd(),
                    opponent_argv=opponent_argv, opponent_cwd=os.getcwd())
            _keep_transcript(run, report, transcripts, write_all)
            if progress is not None:
                progress(report, games)
        except KeyboardInterrupt as exc:
            run.interrupted = _signal_of(exc)
            if report.transcript_path is None:  # later signals do not interrupt (see prototest.sandbox.interrupts)
                _keep_transcript(run, report, transcripts, write_all)
        if run.interrupted:
            return True
        halt = stop_here(report) if report.index < indices[-1] else None
        if halt is None:
            return False
        run.stops.append(halt)
        run.not_played = [NotPlayed(i, spec.game.seats[seats[(i - 1) % len(seats)]]) for i in indices
                          if i > report.index]
        run.skipped = len(run.not_played)
        if stopping is not None and halt.why == "max_fail":
            stopping(stop_note(halt, run.skipped))
        return True

    def stop_here(report: GameReport) -> Stop | None:
        """Why the run stops after this game (kept in game order), if it does."""
        if stop is not None and stop(report):
            return Stop("other_game", after=report.index)
        halt = fail_fast.tally(report)
        if halt is not None:
            halt.unconfirmed = [g for g in halt.games if g in unconfirmed]
        return halt

    def keep_in_order(ready: list[tuple[int, GameReport]]) -> None:
        """A stop is decided in game order: the games after it are not kept (an
        interrupted run keeps every game that was played)."""
        for _, report in ready:
            if not run.skipped:
                keep(report)
            else:
                begun[report.index] = "stopped" if report.interrupted is not None else "ended"

    rechecks = Rechecks()
    told: list[int] = []
    #: held games kept as they were played beside others (the run stopped on them)
    unconfirmed: set[int] = set()

    def again(report: GameReport) -> bool:
        """Whether to play this game again alone (see Rechecks); a game that is not, though
        it has a timing finding, is said once: the games after it are not re-checked either."""
        if rechecks.wanted(report):
            return True
        asleep = rechecks.asleep(report) if jobs > 1 else None
        if asleep is not None:
            report.recheck_skipped = asleep
        if rechecks.kinds(report) and note is not None and not told and report.interrupted is None:
            told.append(report.index)
            note(f"game {report.index}: {first_timing(report)} with {jobs} games at once; not re-checked alone, "
                 f"nor are later games with the same fault: it came back alone in games "
                 f"{', '.join(map(str, rechecks.shown(report)))}")
        return False

    def still(report: GameReport) -> bool:
        """Asked before a held game is played again alone: not when the fail-fast rule
        stops the run on it as it was played (the next game in order, each of its timing
        kinds come back alone already in this run): it is kept as it was, and said so."""
        if run.skipped or not fail_fast.active or in_order.next >= len(tasks):
            return True
        if tasks[in_order.next].index != report.index or not rechecks.came_back_alone(report):
            return True
        if not fail_fast.would_stop(report):
            return True
        unconfirmed.add(report.index)
        shown = ", ".join(map(str, sorted({g for k in rechecks.kinds(report) for g in rechecks.came_back[k]})))
        report.recheck_skipped = (f"the run stops on this game (--max-fail {max_fail}); the same came back alone "
                                  f"in game{'s' if ',' in shown else ''} {shown}")
        if note is not None:
            note(f"game {report.index}: {first_timing(report)} with {jobs} games at once; not re-checked alone: "
                 f"{report.recheck_skipped}")
        return False

    def done(position: int, report: GameReport, first: GameReport | None) -> bool:
        if first is not None:  # a timing finding while other games ran: this is the game alone
            rechecks.alone(report, first)
            if note is not None and not run.skipped:
                outcome = "the same" if timing_bound(report) else "no timing finding alone"
                note(f"game {report.index}: {report.rechecked} with {jobs} games at once; "
                     f"re-checked alone: {outcome}")
        if not ordered:  # progress as games finish
            return keep(report)
        keep_in_order(in_order.feed(position, report))
        return bool(run.skipped or run.interrupted)

    tasks = [config(i) for i in indices]
    # When the bot may speak another protocol (nobody chose the game), the first `jobs`
    # games are played, re-checks alone included, before any other starts: a game held back
    # for its re-check (a bot waiting for a CodinGame board times out) is decided only once
    # the games beside it end, and the stop must come before the other games are.
    first = len(tasks) if stop is None else max(1, jobs)
    with Ahead.for_run(spec, tasks, jobs, fresh=lambda cfg: config(cfg.index), rechecks=rechecks,
                       still=still) as play:
        pool.play_all(tasks[:first], play, jobs, done, again=again, still=still, cancel=True)
        if tasks[first:] and not (run.skipped or run.interrupted):
            pool.play_all(tasks[first:], play, jobs,
                          lambda position, report, alone: done(first + position, report, alone), again=again,
                          still=still, cancel=True)
    if ordered:
        keep_in_order(in_order.rest())
    for game in run.not_played:
        game.begun = begun.get(game.index, "")
    run.games.sort(key=lambda g: g.index)
    run.usage_errors = [g.usage_error + (f"; the game so far: {g.transcript_path}" if g.transcript_path else "")
                        for g in run.games if g.usage_error]
    return run


def stop_note(halt: Stop, not_played: int) -> str:
    """What the run says as the fail-fast rule stops it (the live view and the plain lines)."""
    return (f"stopping: {halt.max_fail} games failed with {halt.kind} (games {', '.join(map(str, halt.games))}); "
            f"the other {not_played} are not played (--max-fail {halt.max_fail}; --max-fail 0 plays every game)")


def play_game(cfg: GameConfig, referee: Referee | None = None) -> GameReport:
    """One game; a signal outside the game's own handler still leaves its report (the bot is dead)."""
    referee = referee or Referee(cfg)
    progress.game_started(cfg.index, cfg.seat)
    try:
        return referee.run()
    except KeyboardInterrupt as exc:
        referee.interrupted(exc)
        return referee.report
    finally:
        progress.game_ended()


class Ahead:
    """Games played one at a time, each bot started during the game before it.

    A spec with `start.ahead` (the chess judge: its colour line comes "an unspecified
    time after startup") lets the judge start a bot before its game. When `check` plays
    one game at a time and a core is to spare, the next game's bot is started as soon as
    this game's bot has given its first answer (their start-ups never compete), so the
    run does not wait for a bot's start-up (an interpreter, a JVM) between games, nor,
    when the game before took long enough, for the spec's silence: the colour line goes
    once the bot has been silent `start.silent_ms` since its own start. What the bot
    wrote meanwhile is early output, as ever. The bot's first answer is then timed from
    the colour line, as the real judge times it, and the transcript says it was started
    ahead. A bot started for a game that is not played (the run stopped) is killed.

    Two copies of the bot are alive at once, the second idle in its first read: a game
    with a timing finding that ran beside another copy (started ahead, or starting) is
    played again alone, as `--jobs 2` re-checks one, until the same kind came back alone
    in RECHECKS games. `--set start.ahead=false` starts every bot at its game."""

    def __init__(self, tasks: Sequence[GameConfig], fresh: Callable[[GameConfig], GameConfig],
                 rechecks: "Rechecks | None" = None, still: Callable[[GameReport], bool] | None = None) -> None:
        self.order = {id(cfg): i for i, cfg in enumerate(tasks)}
        self.tasks = list(tasks)
        #: the game's config anew for its re-check (its forced opponent has played its moves)
        self.fresh = fresh
        self.waiting: tuple[int, Referee] | None = None
        #: the run's re-checks alone: which games, and what came back
        self.rechecks = rechecks or Rechecks()
        #: asked before a re-check alone: False keeps the game as played (pool.play_all's `still`)
        self.still = still or (lambda report: True)

    @classmethod
    @contextlib.contextmanager
    def for_run(cls, spec: Spec, tasks: Sequence[GameConfig], jobs: int, *,
                fresh: Callable[[GameConfig], GameConfig],
                rechecks: "Rechecks | None" = None,
                still: Callable[[GameReport], bool] | None = None) -> Iterator[Callable[[GameConfig], GameReport]]:
        """`play` for pool.play_all: with a bot started ahead when the spec and the run allow it."""
        if not spec.start.ahead or jobs > 1 or len(tasks) < 2 or pool.default_jobs() < 2:
            yield play_game
            return
        ahead = cls(tasks, fresh, rechecks, still)
        try:
            yield ahead.play
        finally:
            ahead.close()

    def play(self, cfg: GameConfig) -> GameReport:
        i = self.order[id(cfg)]
        waiting, self.waiting = self.waiting, None
        referee = waiting[1] if waiting is not None and waiting[0] == i else Referee(cfg)
        if waiting is not None and waiting[0] != i:
            waiting[1].abandon()
        if i + 1 < len(self.tasks):
            following = Referee(self.tasks[i + 1])
            self.waiting = (i + 1, following)
            _once_all_answered(referee, lambda: _launch_ahead(following))
        report = play_game(cfg, referee)
        beside = report.started_ahead_ms is not None or (self.waiting is not None and self.waiting[1].bot is not None)
        if beside and report.interrupted is None:
            report.recheck_skipped = self.rechecks.asleep(report)
        if not (beside and report.interrupted is None and self.rechecks.wanted(report) and self.still(report)):
            return report
        if self.waiting is not None:  # alone now: the next game's bot starts at its game
            self.waiting[1].abandon()
            self.waiting = None
        alone = play_game(self.fresh(cfg))
        self.rechecks.alone(alone, report)
        alone.rechecked_while = ("the next game's two bots were alive (started ahead of their game)"
                                 if referee.seat is not None else
                                 "another copy of the bot was alive (started ahead of its game)")
        return alone

    def close(self) -> None:
        if self.waiting is not None:
            self.waiting[1].abandon()
            self.waiting = None


class Rechecks:
    """The re-checks alone of one run, one tally for every way a run plays games beside
    each other (`--jobs`, a bot started ahead, a match): a game with a timing finding made
    while something else ran is played again alone, until each of its timing kinds came
    back alone in RECHECKS games of the run (the bot's own fault, shown: a bot that hangs
    in every game must not pay every clock twice). `either`: the findings of the bot in
    the other seat count too (a match), each seat's kinds apart."""

    def __init__(self, either: bool = False) -> None:
        self.either = either
        #: (whose: "bot" or "opponent", timing kind) -> the games where it came back alone
        self.came_back: dict[tuple[str, str], list[int]] = {}

    def kinds(self, report: GameReport) -> set[tuple[str, str]]:
        """The game's timing kinds that load could explain, as (whose, kind): a timeout
        of a bot asleep by its own doing (Finding.asleep) is not one."""
        found = {("bot", f.kind) for f in report.findings if _timing(f) and not f.asleep}
        if self.either:
            found |= {("opponent", f.kind) for f in report.opponent_findings if _timing(f) and not f.asleep}
        return found

    def wanted(self, report: GameReport) -> bool:
        """Whether to play this game again alone (never an interrupted game: it stopped
        for its user, or the run cancelled it)."""
        if report.interrupted is not None:
            return False
        kinds = self.kinds(report)
        if bool(kinds) and not all(len(self.came_back.get(k, ())) >= RECHECKS for k in kinds):
            progress.again_alone(report.index)  # the live view's line of the game says so
            return True
        return False

    def shown(self, report: GameReport) -> list[int]:
        """The games played alone in which the game's timing kinds came back (why it is not re-checked)."""
        return sorted({g for k in self.kinds(report) for g in self.came_back.get(k, [])[:RECHECKS]})

    def asleep(self, report: GameReport) -> str | None:
        """Why a game with a timing failure while other games ran needs no re-check alone:
        its timeouts came while the bot was asleep by its own doing (None: not so)."""
        if report.interrupted is not None or self.kinds(report):
            return None
        asleep = [f for f in [*report.findings, *(report.opponent_findings if self.either else ())]
                  if _timing(f) and f.asleep]
        if not asleep:
            return None
        f = asleep[0]
        used = (f" (CPU {f.cpu_ms:.1f} ms, waited for a CPU {f.wait_ms:.1f} ms)"
                if f.cpu_ms is not None and f.wait_ms is not None else "")
        return (f"its {f.kind}, while other games ran, came with the bot asleep by its own doing (stopped, or "
                f"waiting for ever for its input, a child or a signal, or in a sleep that lasts another whole "
                f"limit){used}: a busy machine cannot cause that")

    def came_back_alone(self, report: GameReport) -> bool:
        """Whether each of the game's timing kinds came back alone in a game of the run."""
        kinds = self.kinds(report)
        return bool(kinds) and all(self.came_back.get(k) for k in kinds)

    def alone(self, report: GameReport, first: GameReport) -> None:
        """`report` is the game played again alone after `first`: what came back is
        counted, and the report names the first finding."""
        for kind in self.kinds(report):
            self.came_back.setdefault(kind, []).append(report.index)
        report.rechecked = first_timing(first, either=self.either)


def _launch_ahead(following: Referee) -> None:
    """Start the next game's bots during this game (Referee.launch_all). An interrupt that
    comes while one starts, Referee.launch takes as that game's (it reports it when its
    turn comes): it is this game's too, raised here, or this game would go on to its end
    with the user's Ctrl-C spent (later signals are only noted)."""
    following.launch_all()
    for each in [following] + ([following.seat.referee] if following.seat is not None else []):
        if each.report.interrupted is not None:
            raise interrupts.Interrupted(each.report.interrupted)


def _once_all_answered(referee: Referee, start: Callable[[], object]) -> None:
    """Call `start` once every bot of `referee`'s game has given its first answer (the
    candidate's, and the other seat's when a bot plays it): the next game's bots then
    start, and their start-ups never compete with this game's."""
    referees = [referee] + ([referee.seat.referee] if referee.seat is not None else [])
    left = len(referees)

    def answered() -> None:
        nonlocal left
        left -= 1
        if left == 0:
            start()

    for each in referees:
        each.after_first_answer = answered


def timing_bound(report: GameReport) -> bool:
    """A finding that other games running at once could have caused: an answer, the
    start or the exit too slow."""
    return any(_timing(f) for f in report.findings)


def _timing(f: Finding) -> bool:
    return f.kind in TIMING_KINDS


def first_timing(report: GameReport, *, either: bool = False) -> str:
    """The first timing finding, as the re-check alone names it: "timeout (1006 ms)";
    `either`: the bot's or, after them, the opponent bot's (a match)."""
    findings = [*report.findings, *(report.opponent_findings if either else ())]
    f = next((f for f in findings if _timing(f)), None)
    if f is None:
        return "a timing finding"
    return f"{f.kind}" + (f" ({f.elapsed_ms:.0f} ms)" if f.elapsed_ms is not None else "")


def _signal_of(exc: KeyboardInterrupt) -> signal.Signals:
    return signal.Signals(getattr(exc, "signum", signal.SIGINT))


def _keep_transcript(run: CheckRun, report: GameReport, folder: Path, write_all: bool) -> None:
    """Write the game's transcript when it is wanted; a write error is kept, not raised."""
    if not (write_all or worth_keeping(report)):
        return
    write_transcript(report, folder / f"{slug(run.spec.name)}-{report.index:03d}-{slug(report.seat_name)}.txt",
                     run.write_errors)


def opponent_game_header(spec: Spec, report: GameReport, folder: Path, *, seed: int, time_scale: float,
                         start_delay_ms: int | None, start_position: Position | None, start_moves: Sequence[str],
                         argv: Sequence[str], cwd: str, opponent_argv: Sequence[str], opponent_cwd: str) -> list[str]:
    """A `check --opponent` game's lines of its transcript, as a match game has them (see
    prototest.play.matchgame): `prototest replay` plays it again against the checked bot (A)
    or the opponent bot (B)."""
    from .matchgame import CHECK_ORIGIN, Side, header_lines

    seats = spec.game.seats
    sides = (Side("A", seats[report.seat], list(argv), cwd),
             Side("B", seats[1 - report.seat], list(opponent_argv), opponent_cwd))
    bundled = games.registered_spec(spec.name) == Path(spec.path).resolve()
    return header_lines(folder=folder, spec=spec, bundled=bundled, seed=seed, index=report.index,
                        time_scale=time_scale, start_delay=start_delay_ms,
                        position=start_position.notation() if start_position is not None else None,
                        opening=list(start_moves), sides=sides, moves=report.moves, result=report.result,
                        reason=report.reason, opponent_forfeited=report.opponent_forfeited, origin=CHECK_ORIGIN)


def worth_keeping(report: GameReport) -> bool:
    """A game whose transcript is written without --transcripts: a finding of the bot or of
    the bot in the other seat, an interrupt, a usage error (an --opponent-moves move)."""
    return bool(report.findings or report.opponent_findings or report.interrupted is not None
                or report.usage_error is not None)


def write_transcript(report: GameReport, path: Path, errors: list[str]) -> None:
    """Write a game's transcript to `path` and name it in the report and in every finding
    (the opponent bot's too); a write error goes to `errors`, not raised."""
    try:
        written = report.transcript.write(path)
    except OSError as exc:
        errors.append(f"--transcripts {path}: cannot write: {exc.strerror or exc}")
        return
    report.transcript_path = str(written)
    for finding in [*report.findings, *report.opponent_findings]:
        finding.transcript = str(written)
