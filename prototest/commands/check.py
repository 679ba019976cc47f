"""`prototest check`: play games against the bot as the judge and report every fault."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import time
from pathlib import Path

import typer

from ..judge import detect
from ..reports import jsonreport, live, summary
from ..play import pool, runner
from ..sandbox import process
from . import settings
from ..judge.game import CheckRun
from .bot import bot_argv
from .common import (check_output, html_writer, check_time_scale, game_start, given_opponent_moves, in_shard, load_settings,
                     load_spec, parse_position, parse_shard, resolve_settings, shard_text)
from .exits import UsageProblem, bots_ahead, conclude, games_begin, plural


def opponent_command(text: str | None, env: dict[str, str], option: str = "--opponent") -> list[str] | None:
    """A bot's command line given as one string (split as a shell would), checked as BOT is."""
    if text is None:
        return None
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise UsageProblem(f"{option} {text!r}: {exc}") from None
    if not argv:
        raise UsageProblem(f"{option}: an empty command")
    try:
        return bot_argv(argv, env)
    except UsageProblem as exc:
        raise UsageProblem(f"{option}: {exc}") from None


def execute(*, bot: list[str], game: str | None, spec_path: Path | None, games: int, seed: int | None,
            time_scale: float | None, start_delay: int | None, json_path: Path | None,
            junit_path: Path | None, transcripts: Path | None, overrides: list[str], env_pairs: list[str],
            seat: str | None, position: str | None, moves: str | None, opponent_moves: str | None,
            quiet: bool, config_path: Path | None, no_config: bool, jobs: int | None = None,
            shard: str | None = None, opponent: str | None = None, html_path: Path | None = None,
            max_fail: int | None = None) -> None:
    """Play games against BOT as the judge and report every fault."""
    bots_ahead()
    s = resolve_settings(bot, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path, no_config)
    part = parse_shard(shard)
    loaded: list = []
    limit = fail_limit(max_fail, s)
    try:
        if html_path is not None:
            check_output("--html", html_path)
        run = _play(s, start_delay, json_path, junit_path, transcripts, seat, position, quiet, loaded,
                    moves, opponent_moves, jobs or pool.default_jobs(), part, opponent, limit)
    except KeyboardInterrupt as exc:  # before the first game: still leave a report for CI
        if not loaded:
            try:  # later signals do not interrupt: loading the spec again is safe
                loaded.append(load_spec(s.game, s.spec_path, s.overrides)[0])
            except Exception:
                raise exc from None
        run = CheckRun(loaded[0], list(s.bot), s.seed, s.time_scale)
        run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
        run.max_fail = limit
    run.config = s.config.where if s.config else None
    run.game_source = s.game_source
    run.overrides = list(s.overrides)
    count = run.games_total or game_count(s, [seat] if seat else run.spec.game.seats,
                                          forced=_forced_start(position, moves, opponent_moves))
    run.shard, run.games_total = shard_text(part), count
    for stop in run.stops:  # a shard's stop is its own (prototest merge keeps each shard's)
        stop.shard = run.shard
    conclude(run, [("--json", json_path, jsonreport.write_json), ("--junit", junit_path, _write_junit),
                   ("--html", html_path, html_writer("write_check"))],
             lambda r: summary.summary(r, findings_first=live.coloured()), quiet,
             f"after {len(run.games)} of {plural(count, 'game')}")


def fail_limit(option: int | None, s: settings.Settings) -> int:
    """The fail-fast rule's K (prototest.play.failfast): --max-fail, else the config file's
    max_fail, else settings.DEFAULT_MAX_FAIL; 0 plays every game."""
    if option is not None:
        return option
    if s.config is not None and s.config.max_fail is not None:
        return s.config.max_fail
    return settings.DEFAULT_MAX_FAIL


def game_count(s: settings.Settings, seats, *, forced: bool) -> int:
    """The games to play: --games (or the config file's `games`); else, for a forced start
    (--moves, --position, --opponent-moves: every game would replay the given moves), one
    per seat; else settings.DEFAULT_CHECK_GAMES, the seats in turn."""
    if s.games:
        return s.games
    return len(seats) if forced else settings.DEFAULT_CHECK_GAMES


def _forced_start(position, moves, opponent_moves) -> bool:
    return any(given is not None for given in (position, moves, opponent_moves))


def _write_junit(run: CheckRun, path: Path) -> None:
    """--junit, its module imported only then (XML: a replay's start-up need not pay it)."""
    from ..reports import junit

    junit.write_junit(run, path)


def _play(s: settings.Settings, start_delay, json_path, junit_path, transcripts, seat, position, quiet,
          loaded: list, moves=None, opponent_moves=None, jobs: int = 1,
          shard: tuple[int, int] | None = None, opponent: str | None = None, max_fail: int = 0) -> CheckRun:
    """Validate everything, then play the games (the body of `check`)."""
    check_time_scale(s.time_scale)
    spec, module, rules = load_settings(s)
    loaded.append(spec)
    env = process.controlled_env(s.env)
    argv = bot_argv(s.bot, env, cwd=s.bot_cwd)
    seats, start_moves = game_start(spec, rules, seat, position, moves)
    start = parse_position(rules, position) if position is not None else None
    forced = given_opponent_moves(opponent_moves, spec, rules, seats, position, start_moves) or None
    opponent_argv = opponent_command(opponent, env)
    if opponent_argv is not None and forced:
        raise UsageProblem("--opponent and --opponent-moves: the opponent bot chooses its own moves; give one of them")
    count = game_count(s, seats, forced=_forced_start(position, moves, opponent_moves))
    for option, path in (("--json", json_path), ("--junit", junit_path)):
        if path is not None:
            check_output(option, path)
    if transcripts is not None:
        transcript_dir = transcripts
    else:  # one folder per run: runs side by side never overwrite each other's transcripts
        stamp = time.strftime("%Y%m%d-%H%M%S")
        beside = s.config.folder if s.config is not None else Path(".")  # the bot's repository
        transcript_dir = beside / "prototest-transcripts" / f"{spec.name}-{stamp}-{os.getpid()}"
    check_output("--transcripts", transcript_dir, folder=True)

    indices = [i for i in range(1, count + 1) if in_shard(i - 1, shard)]
    view = live_view(spec, s, count, seats, jobs, quiet, shard_text(shard), indices, opponent_argv)

    def say(text: str, verdict: str | None = None) -> None:
        if view is not None:
            view.finished(text, verdict) if verdict is not None else view.note(text)
        elif not quiet:
            typer.echo(text, err=True)

    #: No game chosen: a game's notes wait for its line, and go unsaid when it shows that the
    #: bot plays another game (the hint is said first, in plain words; the summary has the rest).
    held: list[str] = []

    def progress(game_report, total):
        hint = None if s.game_chosen else detect.hint(game_report, spec.name)
        if hint is not None:
            say(other_game(spec.name, hint))
            held.clear()
        for text in held:
            say(text)
        held.clear()
        say(summary.progress_line(game_report, total, spec), summary.verdict(game_report))

    def note(text: str) -> None:
        if s.game_chosen:
            say(text)
        else:
            held.append(text)

    # Nobody chose the game: once a game shows the bot speaks another protocol, stop.
    stop = None if s.game_chosen else (lambda game_report: detect.hint(game_report) is not None)
    games_begin()
    with view if view is not None else contextlib.nullcontext():
        run = runner.run_check(
            spec, rules, module, argv, games=count, seed=s.seed, time_scale=s.time_scale,
            start_delay_ms=start_delay, env=env, transcripts=transcript_dir,
            write_all=transcripts is not None, progress=progress, seats=seats, start_position=start,
            start_moves=start_moves, opponent_moves=forced, cwd=s.bot_cwd, stop=stop,
            stop_when_idle=not s.game_chosen, jobs=jobs, note=note, opponent_argv=opponent_argv,
            indices=indices, max_fail=max_fail, stopping=say,
        )
    run.games_total = count
    if not s.game_chosen:
        run.hints = list(dict.fromkeys(h for g in run.games if (h := detect.hint(g))))
    return run


def live_view(spec, s: settings.Settings, count: int, seats: list[int], jobs: int, quiet: bool,
              shard: str | None, indices: list[int], opponent_argv: list[str] | None = None):
    """The live view on a terminal (see prototest.reports.live), its header shown at once; None
    when stderr is no terminal, NO_COLOR is set or --quiet: the plain lines, as ever."""
    if not live.wanted(quiet):
        return None
    planned = len(indices)
    names = list(dict.fromkeys(spec.seat_title(seats[(i - 1) % len(seats)]) for i in indices))
    seats_text = f"as {' and '.join(names)} in turn" if len(names) > 1 else f"as {names[0]}" if names else ""
    games = plural(count, "game") + (f" (shard {shard}: {planned} of them)" if shard else "")
    header = [f"prototest check: {spec.game.title or spec.name}, bot {' '.join(s.bot)}",
              f"  {games} {seats_text}, seed {s.seed}, {min(jobs, max(planned, 1))} at once; "
              f"time: {live.limits(spec, s.time_scale)}"]
    if opponent_argv:
        header.append(f"  opponent: {' '.join(opponent_argv)} (a bot in the other seat; only the bot is judged)")
    return live.View(header, count, [spec.seat_title(i) for i in range(len(spec.game.seats))], jobs, planned)


def other_game(game: str, hint: str) -> str:
    """The first thing said when no game was chosen and the bot plays another one."""
    return (f"prototest: this bot seems to play another game: no game was chosen, so it was checked as a "
            f"{game} bot (the default), and {hint}")
