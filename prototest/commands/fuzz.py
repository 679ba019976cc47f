"""`prototest fuzz`: the options checked, the campaign run (in this process, or in
workers), its report rendered and written, and the reproducers saved as fixtures."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import typer

from ..judge import detect
from ..play import exampledb, lazy, pool
from ..reports import fuzzsummary, jsonreport, live
from ..sandbox import process
from ..sandbox.coverage import injection
from . import settings
from ..play.fuzz import Campaign, choose_mode
from ..play.fuzzrun import FuzzRun, Options, Target
from ..sandbox.interrupts import signals
from ..play.workers import run_workers
from .bot import bot_argv
from .common import check_output, html_writer, check_time_scale, load_settings, parse_shard, resolve_settings
from .exits import UsageProblem, bots_ahead, conclude


def execute(*, bot: list[str], game: str | None, spec_path: Path | None, budget: str, examples: int | None,
            jobs: int | None, seed: int | None, max_plies: int | None, mode: str | None, save: Path | None,
            database: str, no_database: bool, json_path: Path | None, junit_path: Path | None,
            shrink_examples: int, time_scale: float | None, start_delay: int, overrides: list[str],
            env_pairs: list[str], quiet: bool, config_path: Path | None, no_config: bool,
            shard: str | None = None, html_path: Path | None = None, coverage: str = "auto",
            value_profile: bool = False) -> None:
    """Play whole games against BOT with swarm opponents drawn by Hypothesis; shrink any failure to a minimal reproducer."""
    bots_ahead()
    lazy.command_only = True  # this process is prototest's own (see lazy.no_local_constants)
    s = resolve_settings(bot, game, spec_path, 0, seed, time_scale, overrides, env_pairs, config_path, no_config)
    check_time_scale(s.time_scale)
    part = parse_shard(shard)
    budget_s = _duration("--budget", budget)
    spec, module, rules = load_settings(s)
    env = process.controlled_env(s.env)
    argv = bot_argv(s.bot, env, cwd=s.bot_cwd)
    try:
        mode = choose_mode(spec, mode)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    for option, path in (("--json", json_path), ("--junit", junit_path), ("--html", html_path)):
        if path is not None:
            check_output(option, path)
    where = None if no_database else _database(database)
    for option, path in (("--save", save), ("--database", where if isinstance(where, Path) else None)):
        if path is not None:
            check_output(option, path, folder=True)
    _reachable(where)
    _coverage_possible(coverage, argv, env, s.bot_cwd)
    if value_profile and coverage == "off":
        raise UsageProblem("--value-profile: it steers by coverage, which --coverage off turns off")
    # Nobody chose the game: a bot idle in a read of its input at its first answer is given
    # up on early, and the failure names the game it looks like (as check does).
    target = Target(spec, rules, module, argv, env, s.time_scale, start_delay, cwd=s.bot_cwd,
                    stop_when_idle=not s.game_chosen, env_given=dict(s.env),
                    overrides_given=list(s.overrides[s.config_overrides:]))
    options = Options(mode=mode, examples=examples, budget_s=budget_s, seed=s.seed,
                      jobs=jobs or pool.default_jobs(), max_plies=max_plies,
                      database=where, shrink_examples=shrink_examples, shard=part, coverage=coverage,
                      values=value_profile)
    ticker = _Ticker(quiet)
    run = _execute(target, options, ticker)
    run.config = s.config.where if s.config else None
    run.game_source = s.game_source
    if not s.game_chosen:
        run.hints = list(dict.fromkeys(h for f in run.failures if (h := detect.hint(f.example.report))))
    ticker.done(run)
    if coverage == "on" and run.coverage_off is not None:
        raise UsageProblem(f"--coverage on: coverage off: {run.coverage_off}")
    signals.armed = False  # the verdict is complete: a late signal is ignored
    if save is not None:
        _save_reproducers(run, save)
    conclude(run, [("--json", json_path, jsonreport.write_fuzz_json), ("--junit", junit_path, _write_junit),
                   ("--html", html_path, html_writer("write_fuzz"))],
             fuzzsummary.fuzz_summary, quiet, f"after {run.examples} examples")


def _write_junit(run, path: Path) -> None:
    """--junit, its module imported only then (XML)."""
    from ..reports import junit

    junit.write_fuzz_junit(run, path)


def _execute(target: Target, options: Options, progress: Callable[[FuzzRun], None]) -> FuzzRun:
    """The whole run: one campaign in this process, or `options.jobs` at once (prototest.play.workers)."""
    if options.jobs <= 1:
        return Campaign(target, options, progress).execute()
    return run_workers(target, options, progress)


def _coverage_possible(coverage: str, argv: list[str], env: dict[str, str], cwd: str | None) -> None:
    """--coverage: auto, on or off; `on` for a Python bot the collector cannot serve is an
    error before any game (a native bot shows whether it gives coverage in its first game)."""
    if coverage not in ("auto", "on", "off"):
        raise UsageProblem(f"--coverage {coverage!r}: expected auto, on or off")
    if coverage == "on":
        off = injection(argv, env, cwd).off
        if off is not None:
            raise UsageProblem(f"--coverage on: coverage off: {off}")


def _database(text: str) -> exampledb.Location:
    """--database: a folder, or a Redis server (redis://host:port/n)."""
    try:
        return exampledb.parse(text)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None


def _reachable(where: exampledb.Location | None) -> None:
    """A Redis server answers before any game (its client is closed again: the campaign,
    or each worker after the fork, makes its own)."""
    if where is None:
        return
    try:
        exampledb.check(where)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None


def _duration(option: str, text: str) -> float | None:
    try:
        return settings.parse_duration(text)
    except ValueError as exc:
        raise UsageProblem(f"{option} {text!r}: {exc}") from None


class _Ticker:
    """Progress on stderr: rewritten in place on a terminal, a line every 10 s otherwise."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = time.monotonic()
        self.kinds = 0

    def __call__(self, run: FuzzRun) -> None:
        now = time.monotonic()
        news = len(run.failing_kinds) != self.kinds  # a new kind of failure is said at once
        self.kinds = len(run.failing_kinds)
        if self.quiet or (not news and now - self.last < (0.2 if self.tty else 10.0)):
            return
        self.last = now
        line = fuzzsummary.fuzz_progress(run)
        if self.tty:
            sys.stderr.write("\r" + live.fit(line) + "\x1b[K")
            sys.stderr.flush()
        else:
            typer.echo(line, err=True)

    def done(self, run: FuzzRun) -> None:
        """The last progress line says that the run has ended (it said "searching"): in
        place on a terminal, a line of its own otherwise."""
        if self.quiet:
            return
        line = fuzzsummary.fuzz_progress(run, ended=True)
        if self.tty:
            sys.stderr.write("\r" + live.fit(line) + "\x1b[K\n")
            sys.stderr.flush()
        else:
            typer.echo(line, err=True)


def _save_reproducers(run: FuzzRun, folder: Path) -> None:
    """Each minimal failing example as a fixture (see prototest.play.fixtures), whose header
    holds what replays it: `prototest replay FILE` says whether the failure comes back."""
    from ..play import fixtures  # only when saving: not on the way to the first example

    for failure in run.failures:
        name = f"{run.target.spec.name}-{failure.details['mode']}-{failure.finding.kind}.txt"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(fixtures.from_fuzz(run, failure, folder), encoding="utf-8")
        except OSError as exc:
            run.write_errors.append(f"--save {folder / name}: cannot write: {exc.strerror or exc}")
            continue
        failure.finding.transcript = failure.details["transcript"] = str(path)
        run.saved.append(str(path))
