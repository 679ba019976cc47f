"""Runs the games of one `prototest check` and gathers their reports (a `CheckRun`)."""

from __future__ import annotations

import re
import signal
from pathlib import Path
from types import ModuleType
from typing import Callable, Sequence

from . import opponents
from .game import CheckRun, GameConfig, GameReport, StopGame
from .games.base import Position, Rules
from .referee import Referee
from .spec import Spec


def game_seed(seed: int, index: int) -> int:
    """Each game's own seed: the same run seed gives the same games."""
    return seed * 1_000_003 + index


def _slug(text: str) -> str:
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
) -> CheckRun:
    """Play the games in turn. `stop`, asked after each game, ends the run early (the
    rest are counted in `skipped`); `cwd` is the folder the bot runs in; `stop_when_idle`
    as GameConfig's."""
    run = CheckRun(spec, list(argv), seed, time_scale)
    seats = list(seats) if seats else list(range(len(spec.game.seats)))
    for index in range(1, games + 1):
        seat = seats[(index - 1) % len(seats)]
        cfg = GameConfig(spec=spec, rules=rules, rules_module=module, argv=argv, seat=seat,
                         seed=game_seed(seed, index), index=index, time_scale=time_scale,
                         start_delay_ms=start_delay_ms, env=env, start_position=start_position,
                         start_moves=start_moves, cwd=cwd, stop_when_idle=stop_when_idle,
                         opponent=ForcedOpponent(opponent_moves, builtin_opponent(module, spec, game_seed(seed, index)))
                         if opponent_moves else None)
        referee = Referee(cfg)
        try:
            report = referee.run()
        except KeyboardInterrupt as exc:  # outside the game's own handler: the bot is dead
            referee.interrupted(exc)
            report = referee.report
        run.games.append(report)
        if report.interrupted is not None:
            run.interrupted = signal.Signals(report.interrupted)
        try:
            _keep_transcript(run, report, transcripts, write_all)
            if progress is not None:
                progress(report, games)
        except KeyboardInterrupt as exc:
            run.interrupted = _signal_of(exc)
            if report.transcript_path is None:  # later signals do not interrupt (see prototest.interrupts)
                _keep_transcript(run, report, transcripts, write_all)
        if run.interrupted:
            break
        if stop is not None and index < games and stop(report):
            run.skipped = games - index
            break
    return run


class ForcedOpponent:
    """The opponent plays the given moves in order (a replay); then `then` chooses, or,
    without it, the game stops. A given move that is not legal when its turn comes means
    the game went another way than the one recorded: the game stops there."""

    def __init__(self, moves: Sequence[str], then: Callable[[Position], str] | None = None, *,
                 soft: bool = False) -> None:
        self.moves = list(moves)
        self.then = then
        self.played = 0
        #: a move that is no longer legal hands over to `then` instead of stopping the game
        self.soft = soft

    def __call__(self, position: Position) -> str:
        if self.played >= len(self.moves):
            if self.then is None:
                raise StopGame(f"the {len(self.moves)} recorded opponent moves are played")
            return self.then(position)
        move = self.moves[self.played]
        self.played += 1
        if move not in position.legal_moves():
            if self.soft and self.then is not None:
                self.played = len(self.moves)
                return self.then(position)
            raise StopGame(f"the opponent's recorded move {self.played} {move!r} is not legal here: "
                           f"the game went another way than the one recorded")
        return move


def builtin_opponent(module: ModuleType, spec: Spec, seed: int) -> Callable[[Position], str]:
    """The spec's built-in opponent for a game's seed (what follows a replay's moves)."""
    return opponents.Opponent(module, spec.opponent.style, seed)


def _signal_of(exc: KeyboardInterrupt) -> signal.Signals:
    return signal.Signals(getattr(exc, "signum", signal.SIGINT))


def _keep_transcript(run: CheckRun, report: GameReport, folder: Path, write_all: bool) -> None:
    """Write the game's transcript when it is wanted; a write error is kept, not raised."""
    if not (write_all or report.failed or report.warned or report.interrupted is not None):
        return
    name = f"{_slug(run.spec.name)}-{report.index:03d}-{_slug(report.seat_name)}.txt"
    try:
        path = report.transcript.write(folder / name)
    except OSError as exc:
        run.write_errors.append(f"--transcripts {folder / name}: cannot write: {exc.strerror or exc}")
        return
    report.transcript_path = str(path)
    for finding in report.findings:
        finding.transcript = str(path)
