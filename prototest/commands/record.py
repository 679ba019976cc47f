"""`prototest record`: write fixtures (normalised golden transcripts) of the bot's games;
`record --update` regenerates fixtures in place from their headers."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import typer

from ..play import fixtures, pool
from ..sandbox import process
from ..reports import figures, summary
from ..reports.text import resources_line
from ..sandbox.interrupts import signals
from .bot import bot_argv
from ..play.runner import timing_bound
from .common import (check_output, check_time_scale, fixtures_report, game_start, given_opponent_moves, in_shard,
                     load_fixtures, load_settings, parse_env, parse_shard, resolve_settings, write_fixture_reports)
from .exits import UsageProblem, bots_ahead, fixture_exit, plural


def execute(*, bot: list[str], game: str | None, spec_path: Path | None, games: int, seed: int | None,
            output: Path | None, seat: str | None, position: str | None, moves: str | None,
            opponent_moves: str | None, max_plies: int | None, time_scale: float | None,
            start_delay: int | None, overrides: list[str], env_pairs: list[str], update: bool, quiet: bool,
            config_path: Path | None, no_config: bool, jobs: int | None = None, shard: str | None = None,
            json_path: Path | None = None, junit_path: Path | None = None) -> None:
    """Write normalised golden transcripts (fixtures) of BOT's games; --update regenerates fixtures."""
    bots_ahead()
    if update:
        given = {"--game": game, "--spec": spec_path, "--games": games or None, "--seed": seed, "--output": output,
                 "--seat": seat, "--position": position, "--moves": moves, "--opponent-moves": opponent_moves,
                 "--max-plies": max_plies, "--start-delay": start_delay, "--set": overrides or None,
                 "--config": config_path}
        clash = [name for name, value in given.items() if value is not None]
        if clash:
            raise UsageProblem(f"record --update reads the game, bot, seed and start from each fixture's header: "
                               f"{', '.join(clash)} cannot be given with it")
        _update_fixtures([Path(p) for p in bot or []], env_pairs, time_scale, quiet, jobs or pool.default_jobs(),
                         parse_shard(shard), json_path, junit_path)
        return
    for option, value in (("--shard", shard), ("--json", json_path), ("--junit", junit_path)):
        if value is not None:
            raise UsageProblem(f"{option} goes with record --update (a new recording is one run: "
                               f"check --shard splits games)")
    if bot and all(_holds_fixtures(Path(arg)) for arg in bot):
        raise UsageProblem(f"{' '.join(bot)}: fixtures, not a bot: prototest record --update {' '.join(bot)} "
                           f"regenerates them")
    s = resolve_settings(bot, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path, no_config)
    if not s.bot:
        raise UsageProblem("no bot given: prototest record ./mybot --game G, or prototest record --game G -- "
                           "python3 bot.py, or bot = [...] in a prototest.toml")
    check_time_scale(s.time_scale)
    spec, module, rules = load_settings(s)
    env = process.controlled_env(s.env)
    argv = bot_argv(s.bot, env, cwd=s.bot_cwd)
    seats, start_moves = game_start(spec, rules, seat, position, moves)
    given = given_opponent_moves(opponent_moves, spec, rules, seats, position, start_moves)
    folder = output if output is not None else Path(s.bot_cwd or ".") / "fixtures"
    check_output("--output", folder, folder=True)
    setups = [fixtures.Setup(spec=spec, rules=rules, module=module, argv=argv, cwd=s.bot_cwd, env=env,
                             seat=seats[(index - 1) % len(seats)], seed=s.seed, index=index,
                             time_scale=s.time_scale, start_delay_ms=start_delay, position=position,
                             start_moves=start_moves, given_moves=given, given_by_user=True,
                             max_plies=max_plies)
              for index in range(1, (s.games or len(seats)) + 1)]
    _record_all(setups, folder, quiet, jobs or pool.default_jobs())


def _holds_fixtures(path: Path) -> bool:
    """A fixture file, or a folder with one: what `record --update` takes."""
    if path.is_dir():
        return any(fixtures.is_fixture(p) for p in path.glob("*.txt"))
    return path.is_file() and fixtures.is_fixture(path)


def _record_all(setups: list, folder: Path, quiet: bool, jobs: int = 1) -> None:
    """Play and write each game, `jobs` at once; a signal stops the run (a game in
    progress is not written). A game with a timing finding while others ran is recorded
    again alone."""
    failed, errors, interrupted = 0, [], None

    def write(setup, header, body, game) -> int:
        name = f"{setup.spec.name}-seed{setup.seed}-game{setup.index}-{setup.spec.game.seats[setup.seat]}.txt"
        if game.usage_error is not None:  # the game could not go on as asked: no fixture of it
            errors.append(f"{game.usage_error}; {name} not written")
            return 0
        if game.result == "stopped" and len(header.opponent_moves) < len(setup.given_moves):
            errors.append(f"--opponent-moves: game {setup.index} stopped: {game.reason}; {name} not written")
            return 0
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(fixtures.render(header, body), encoding="utf-8")
        except OSError as exc:
            errors.append(f"--output {folder / name}: cannot write: {exc.strerror or exc}")
            return 0
        if not quiet:
            typer.echo(f"wrote {folder / name}: {summary.verdict(game)}, {summary.game_line(game)}")
        return int(game.failed)

    def done(position: int, result, first) -> bool:
        nonlocal failed, interrupted
        header, body, game = result
        if game.interrupted is not None:
            interrupted = signal.Signals(game.interrupted)
            return True
        failed += write(setups[position], header, body, game)
        return False

    try:
        pool.play_all(setups, lambda setup: fixtures.record(setup, folder), jobs, done,
                      again=lambda result: timing_bound(result[2]))
    except KeyboardInterrupt as exc:
        interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    signals.armed = False
    fixture_exit(plural(len(setups), "game"), "recorded", failed, errors, interrupted, skipped=len(errors))


def _update_fixtures(paths: list[Path], env_pairs: list[str], time_scale: float | None, quiet: bool,
                     jobs: int = 1, shard: tuple[int, int] | None = None, json_path: Path | None = None,
                     junit_path: Path | None = None) -> None:
    """record --update: each fixture regenerated from its header, written when it changed."""
    if not paths:
        raise UsageProblem("record --update: give the fixtures to regenerate (files or folders)")
    if time_scale is not None:
        check_time_scale(time_scale)
    for option, path in (("--json", json_path), ("--junit", junit_path)):
        if path is not None:
            check_output(option, path)
    env = process.controlled_env(parse_env(env_pairs))
    pairs = load_fixtures(paths, env, time_scale)
    mine = [(number, fixture, setup) for number, (fixture, setup) in enumerate(pairs, 1)
            if in_shard(number - 1, shard)]
    for _, fixture, _ in mine:
        if not os.access(fixture.path, os.W_OK):
            raise UsageProblem(f"{fixture.path}: the file is not writable")
    errors: list[str] = []
    entries: dict[int, dict] = {}
    interrupted = None

    def take(number: int, fixture, text: str, game, note: str = "") -> None:
        old = fixture.path.read_text(encoding="utf-8")
        if text != old:
            try:
                fixture.path.write_text(text, encoding="utf-8")
            except OSError as exc:
                errors.append(f"{fixture.path}: cannot write: {exc.strerror or exc}")
                return
        change = "unchanged" if text == old else f"updated, {fixtures.changed_lines(old, text)} lines differ"
        entries[number] = {"number": number, "fixture": str(fixture.path), "status": change,
                           "verdict": summary.verdict(game), "failed": bool(game.failed),
                           "game": summary.game_line(game), "lines": [note] if note else [],
                           "changed": text != old, "rechecked_alone": note or None,
                           "resources": figures.resources([game])}
        if not quiet:
            used = resources_line(figures.resources([game]))
            typer.echo(f"{fixture.path}: {change}: {summary.verdict(game)}, {summary.game_line(game)}"
                       + (f"\n  {note}" if note else "") + (f"\n{used}" if used else ""))

    def done(position: int, result, first) -> bool:
        nonlocal interrupted
        text, game = result
        if game.interrupted is not None:
            interrupted = signal.Signals(game.interrupted)
            return True
        number, fixture, _ = mine[position]
        take(number, fixture, text, game, "" if first is None else
             f"re-checked alone: a timing finding while {jobs} games ran at once; regenerated alone")
        return False

    try:
        pool.play_all(mine, lambda task: fixtures.regenerate(task[1], task[2]), jobs, done,
                      again=lambda result: timing_bound(result[1]))
    except KeyboardInterrupt as exc:
        interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    signals.armed = False
    data = fixtures_report("record", [entries[n] for n in sorted(entries)], len(pairs), shard, errors, interrupted)
    write_fixture_reports(data, json_path, junit_path, errors)
    fixture_exit(plural(len(mine), "fixture"), "regenerated", data["failed"], errors, interrupted,
                 skipped=len(errors))
