"""The command line: `prototest check | match | moves | perft | fuzz | games | record | replay | merge | show`.

This module declares the commands and their options and passes them on: each command's
body is its own module in `prototest.commands`. Library code raises domain exceptions
(SpecError, PositionError, OptionError); `prototest.commands.exits` turns them into one
line on stderr and an exit code: 0 all passed, 1 the bot failed a check, 2 a usage error
(bad spec, bot or option).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from .commands import config as configmod
from .commands import exits
from .commands.settings import DEFAULT_CHECK_GAMES, DEFAULT_MAX_FAIL

# Each command's body (prototest.commands.NAME) is imported by that command alone: `moves`,
# `perft`, `games` and --help never import the judge (processes, the keeper, reports), and
# no command but `fuzz` imports Hypothesis and the fuzz machinery (tests/test_imports.py).

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Check that a game bot speaks its judge's protocol exactly, plays legal moves, "
    "answers in time and exits cleanly.",
)

JOBS_HELP = ("Games played at once, each bot in its own worker (default: the number of cores; 1 plays "
             "them in turn). A game with a timing finding is played again alone before it is reported.")
SHARD_HELP = ("Play only shard I of N (I/N, e.g. 2/4) of the {what}, for a CI matrix; "
              "`prototest merge` joins the shards' JSON reports.")

HTML_HELP = ("Also write one self-contained HTML page here (no network needed): the report, and for every game "
             "with a finding a board to step through, move by move, opening at the failure.")
PLATFORM_HELP = ("'none' turns the platform's envelope off for this run (its memory, CPU share, process "
                 "and network limits: the spec's [envelope]); --set envelope.KEY=VALUE changes one limit.")
#: --platform none, as the spec overrides it stands for.
PLATFORM_NONE = ["envelope.memory_mb=0", "envelope.cpu_share=0", "envelope.pids=0", "envelope.network=allowed"]


def _platform(value: Optional[str], overrides: List[str]) -> List[str]:
    """The --set overrides with --platform's in front (a --set after it still wins)."""
    if value is None or value == "spec":
        return list(overrides)
    if value != "none":
        raise exits.UsageProblem(f"--platform: expected 'none' (or 'spec', the spec's own), got {value!r}")
    return PLATFORM_NONE + list(overrides)


#: The command line as typed: `replay` splits its arguments at the `--` (click drops it).
_TYPED: List[str] = []


@app.command("check")
def check_command(
    bot: List[str] = typer.Argument(None, metavar="BOT...", help="The bot: an executable path, or a command line after --."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The game: one `prototest games` lists (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    games: int = typer.Option(0, "--games", "-n", min=0, max=configmod.MAX_GAMES, show_default=False, help=f"Games to play, the seats in turn; default {DEFAULT_CHECK_GAMES} (one per seat after --moves, --position or --opponent-moves)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The same seed gives the same games and opponent moves (default 1)."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (e.g. 3 on a slow CI machine; default 1)."),
    start_delay: Optional[int] = typer.Option(None, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line (default: the spec's)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write a JUnit XML report here."),
    html_path: Optional[Path] = typer.Option(None, "--html", help=HTML_HELP),
    transcripts: Optional[Path] = typer.Option(None, "--transcripts", help="Write every game's transcript here (default: only games with findings, to ./prototest-transcripts)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key: --set time.clock_ms=60000 (repeatable)."),
    platform: Optional[str] = typer.Option(None, "--platform", metavar="none", help=PLATFORM_HELP),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable)."),
    seat: Optional[str] = typer.Option(None, "--seat", help="Play only this seat (e.g. white, b, 2); default: alternate."),
    position: Optional[str] = typer.Option(None, "--position", help="Start every game from this position (the game's one-line notation)."),
    moves: Optional[str] = typer.Option(None, "--moves", help="Moves played from the start position before the bot's first turn, comma-separated (the last one is shown as the opponent's last move)."),
    opponent_moves: Optional[str] = typer.Option(None, "--opponent-moves", help="The judge plays these moves for the opponent, comma-separated, in order; then its own. One not legal where it comes is a usage error (status 2)."),
    opponent: Optional[str] = typer.Option(None, "--opponent", metavar="CMD", help="Another bot plays the opponent's seat instead of the built-in opponent: one command line, split as a shell would (--opponent 'python3 old_bot.py'). Only BOT is judged; the opponent's faults are listed apart, and its forfeit is a win for BOT."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    shard: Optional[str] = typer.Option(None, "--shard", help=SHARD_HELP.format(what="games")),
    max_fail: Optional[int] = typer.Option(None, "--max-fail", min=0, max=configmod.MAX_GAMES, metavar="K", help=f"Stop once K games have failed with the same kind of fault; the games left are not played, and the reports say so (default {DEFAULT_MAX_FAIL}, or the config file's max_fail; 0 plays every game)."),
) -> None:
    """Play games against BOT as the judge and report every fault."""
    from .commands import check

    check.execute(bot=bot, game=game, spec_path=spec_path, games=games, seed=seed, time_scale=time_scale,
                  start_delay=start_delay, json_path=json_path, junit_path=junit_path,
                  transcripts=transcripts, overrides=_platform(platform, overrides), env_pairs=env_pairs, seat=seat,
                  position=position, moves=moves, opponent_moves=opponent_moves, opponent=opponent, quiet=quiet,
                  config_path=config_path, no_config=no_config, jobs=jobs, shard=shard, html_path=html_path,
                  max_fail=max_fail)


@app.command("match")
def match_command(
    bots: List[str] = typer.Argument(None, metavar="BOT_A BOT_B [BOT...]", help="The bots, each one command line split as a shell would: 'python3 new.py' 'python3 old.py'; three or more play a round robin (or --gauntlet)."),
    gauntlet: bool = typer.Option(False, "--gauntlet", help="With three bots or more: the first bot against each of the others (default: every bot against every other)."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The game: one `prototest games` lists (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    games: int = typer.Option(0, "--games", "-n", min=0, max=configmod.MAX_GAMES, help="Games of each pairing, an even number: each opening twice, the seats swapped (default 10)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The same seed gives the same openings (default 1)."),
    openings: Optional[Path] = typer.Option(None, "--openings", metavar="BOOK.epd|BOOK.pgn", help="Chess: the openings from this book, in its order (cycling), each played twice: an EPD file (.epd: a position a line) or a PGN file (each game's start and moves; --openings-plies K keeps the first K)."),
    openings_plies: Optional[int] = typer.Option(None, "--openings-plies", min=0, max=200, help="Random plies (both seats' moves) drawn from the seed for each opening (default 4 where the protocol sends the position, else 0); with a PGN book, the plies kept of each game."),
    sprt: Optional[str] = typer.Option(None, "--sprt", metavar="'elo0=0 elo1=5 alpha=0.05 beta=0.05'", help="Stop as soon as the SPRT decides (after each complete pair); model=normalized (default), logistic, bayesian or cutechess."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (default 1)."),
    start_delay: Optional[int] = typer.Option(None, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line to each bot (default: the spec's)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here: games, results, each bot's findings, the statistics."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write a JUnit XML report here: a test suite per bot, a test case per check per game."),
    html_path: Optional[Path] = typer.Option(None, "--html", help=HTML_HELP),
    pgn_path: Optional[Path] = typer.Option(None, "--pgn", help="Chess: write every game here as PGN (python-chess's writer), with the bots' names, the result and how it ended."),
    transcripts: Optional[Path] = typer.Option(None, "--transcripts", help="Write every game's transcript here (default: only games with findings, to ./prototest-transcripts)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key (repeatable)."),
    platform: Optional[str] = typer.Option(None, "--platform", metavar="none", help=PLATFORM_HELP),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to both bots' environment (repeatable)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
    shard: Optional[str] = typer.Option(None, "--shard", help=SHARD_HELP.format(what="pairs of games (pair k to shard (k-1) mod N + 1, each with the unsharded match's seeds and openings)")),
    tally: Optional[str] = typer.Option(None, "--tally", metavar="redis://HOST:PORT/N", help="With --shard and --sprt: every shard adds its finished pairs to a tally on this Redis server, and all stop once the SPRT over all of them decides."),
) -> None:
    """Play BOT_A against BOT_B in pairs of games, both judged; results, findings and Elo/LOS/pentanomial/SPRT."""
    from .commands import match

    match.execute(bots=list(bots or []), game=game, spec_path=spec_path, games=games, seed=seed,
                  time_scale=time_scale, start_delay=start_delay, json_path=json_path, pgn_path=pgn_path, junit_path=junit_path, transcripts=transcripts,
                  overrides=_platform(platform, overrides), env_pairs=env_pairs, jobs=jobs,
                  opening_plies=openings_plies, sprt=sprt, quiet=quiet, config_path=config_path,
                  no_config=no_config, gauntlet=gauntlet, openings=openings, html_path=html_path, shard=shard,
                  tally=tally)


@app.command("moves")
def moves_command(
    position: Optional[str] = typer.Argument(None, help="A position in the game's one-line notation (default: the initial one)."),
    game: str = typer.Option("chess", "--game", "-g"),
    spec_path: Optional[Path] = typer.Option(None, "--spec"),
    overrides: List[str] = typer.Option([], "--set"),
) -> None:
    """List the legal moves, one a line, exactly as the judge accepts them."""
    from .commands import moves

    moves.execute(position=position, game=game, spec_path=spec_path, overrides=overrides)


@app.command("perft")
def perft_command(
    position: Optional[str] = typer.Argument(None, help="A position in the game's one-line notation (default: the initial one)."),
    depth: int = typer.Option(..., "--depth", "-d", min=0, max=12),
    divide: bool = typer.Option(False, "--divide", help="Also print the count under each first move."),
    game: str = typer.Option("chess", "--game", "-g"),
    spec_path: Optional[Path] = typer.Option(None, "--spec"),
    overrides: List[str] = typer.Option([], "--set"),
) -> None:
    """Count the leaf positions at DEPTH (perft); --divide splits it by first move."""
    from .commands import perft

    perft.execute(position=position, depth=depth, divide=divide, game=game, spec_path=spec_path,
                  overrides=overrides)


@app.command("fuzz")
def fuzz_command(
    bot: List[str] = typer.Argument(None, metavar="BOT...", help="The bot: an executable path, or a command line after --."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The game: one `prototest games` lists (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    budget: str = typer.Option("60s", "--budget", "-b", help="Time for the whole run, shrinking included: 90s, 5m, 1h30m, or 0 for no limit (default 60s)."),
    examples: Optional[int] = typer.Option(None, "--examples", "-n", min=1, max=10_000_000, help="Stop after this many examples (each is one game of a fresh bot); default: as many as the budget allows."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help="Bots fuzzed at once, each in its own worker (default: the number of cores)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The same seed gives the same examples (default 1)."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", min=1, max=20_000, help="Stop every game after this many plies (default: the game's own end and its turn limit, the spec's rules.max_plies)."),
    mode: Optional[str] = typer.Option(None, "--mode", help="game: every example a game from the start; position: the bot starts cold in a generated deep position and plays on; mixed: either, example by example. Default: mixed when the protocol sends the position, else game."),
    save: Optional[Path] = typer.Option(None, "--save", help="Write each minimal failing example's transcript to this folder."),
    database: str = typer.Option(".hypothesis/prototest", "--database", metavar="DIR|redis://HOST:PORT/N", help="Hypothesis example database, a folder or a Redis server shared between machines (redis://host:port/n): failures found there are replayed first next time."),
    no_database: bool = typer.Option(False, "--no-database", help="Neither replay nor save failures (the run depends on --seed alone)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write a JUnit XML report here."),
    html_path: Optional[Path] = typer.Option(None, "--html", help=HTML_HELP),
    shrink_examples: int = typer.Option(80, "--shrink-examples", min=0, max=10_000_000, help="Runs of the bot after the first failure, to shorten it (cold retries, shorter paths, fewer opponent moves)."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (default 1)."),
    start_delay: int = typer.Option(0, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line (default 0: start-up is check's business)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key (repeatable)."),
    platform: Optional[str] = typer.Option(None, "--platform", metavar="none", help=PLATFORM_HELP),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
    shard: Optional[str] = typer.Option(None, "--shard", help=SHARD_HELP.format(what="seed streams (each shard fuzzes its own examples, for the whole budget)")),
    coverage: str = typer.Option("auto", "--coverage", metavar="auto|on|off", help="Steer the search by the bot's own code coverage: auto (default) where the bot gives it (a Python bot; a native bot built with `prototest coverage-runtime`), on: required (an error where it cannot be had), off: never."),
    value_profile: bool = typer.Option(False, "--value-profile", help="Also steer by how far apart the integers compared in the bot's branch tests were (`if len(moves) > 340`): a Python bot before 3.12; each comparison then costs the bot CPU."),
) -> None:
    """Play whole games against BOT with swarm opponents drawn by Hypothesis; shrink any failure to a minimal reproducer."""
    from .commands import fuzz  # Hypothesis itself only where the search needs it (play.lazy)

    fuzz.execute(bot=bot, game=game, spec_path=spec_path, budget=budget, examples=examples, jobs=jobs,
                 seed=seed, max_plies=max_plies, mode=mode, save=save, database=database,
                 no_database=no_database, json_path=json_path, junit_path=junit_path,
                 shrink_examples=shrink_examples, time_scale=time_scale, start_delay=start_delay,
                 overrides=_platform(platform, overrides), env_pairs=env_pairs, quiet=quiet,
                 config_path=config_path, no_config=no_config, shard=shard, html_path=html_path,
                 coverage=coverage, value_profile=value_profile)


@app.command("coverage-runtime")
def coverage_runtime_command() -> None:
    """Print the path of the C runtime a native bot links to give fuzz its coverage:
    gcc -O1 -fsanitize-coverage=trace-pc bot.c $(prototest coverage-runtime) -o bot"""
    from .sandbox.coverage import runtime_path

    typer.echo(str(runtime_path()))


@app.command("games")
def games_command() -> None:
    """List the bundled protocols."""
    from .commands import games

    games.execute()


# -- fixtures: record, replay, regenerate ------------------------------------------------------

@app.command("record")
def record_command(
    bot: List[str] = typer.Argument(None, metavar="BOT... | --update FIXTURE...", help="The bot: an executable path, or a command line after --; with --update, fixture files or folders."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The game: one `prototest games` lists (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    games: int = typer.Option(0, "--games", "-n", min=0, max=configmod.MAX_GAMES, help="Games to record; default: one per seat."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The games of `prototest check --seed S` (default 1)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The folder to write into (default: fixtures/ beside the bot's config file, else ./fixtures)."),
    seat: Optional[str] = typer.Option(None, "--seat", help="Record only this seat; default: alternate."),
    position: Optional[str] = typer.Option(None, "--position", help="Start from this position (the game's one-line notation)."),
    moves: Optional[str] = typer.Option(None, "--moves", help="Moves played before the bot's first turn, comma-separated."),
    opponent_moves: Optional[str] = typer.Option(None, "--opponent-moves", help="The judge plays these moves for the opponent, comma-separated; then its own. One not legal where it comes is a usage error (status 2)."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", min=1, max=20_000, help="Stop the game (result 'stopped') when the position has this many plies."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (default 1; with --update, for this run only)."),
    start_delay: Optional[int] = typer.Option(None, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line (default: the spec's)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key (repeatable); written in the header."),
    platform: Optional[str] = typer.Option(None, "--platform", metavar="none", help=PLATFORM_HELP),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable; not written in the header)."),
    update: bool = typer.Option(False, "--update", help="Regenerate the given fixtures (files or folders) in place, from their headers."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    shard: Optional[str] = typer.Option(None, "--shard", help="With --update: " + SHARD_HELP.format(what="fixtures (in sorted order)")),
    json_path: Optional[Path] = typer.Option(None, "--json", help="With --update: write a JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="With --update: write a JUnit XML report here."),
) -> None:
    """Write normalised golden transcripts (fixtures) of BOT's games; --update regenerates fixtures."""
    from .commands import record

    record.execute(bot=bot, game=game, spec_path=spec_path, games=games, seed=seed, output=output, seat=seat,
                   position=position, moves=moves, opponent_moves=opponent_moves, max_plies=max_plies,
                   time_scale=time_scale, start_delay=start_delay, overrides=_platform(platform, overrides),
                   env_pairs=env_pairs, update=update, quiet=quiet, config_path=config_path, no_config=no_config, jobs=jobs,
                   shard=shard, json_path=json_path, junit_path=junit_path)


@app.command("replay")
def replay_command(
    args: List[str] = typer.Argument(None, metavar="FIXTURE... [-- BOT...]", help="Fixture files or folders, or match games' transcripts; after --, a bot to play instead of the one in each header."),
    bot_letter: Optional[str] = typer.Option(None, "--bot", metavar="A|B", help="A match game's transcript: the bot that plays again (its letter in the match); the other's moves are the record's. After --, a new version of it plays in its place."),
    seat: Optional[str] = typer.Option(None, "--seat", help="A match game's transcript: the bot that played this seat plays again (instead of --bot)."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit, for this run (default: each header's)."),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable)."),
    transcripts: Optional[Path] = typer.Option(None, "--transcripts", help="Write every replay's transcript here (default: only replays that fail, to ./prototest-transcripts)."),
    exact_lines: bool = typer.Option(False, "--exact-lines", help="Compare whole answer lines: a comment that differs fails too (by default, where the protocol has comments, answers compare by their move and comment changes are noted)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    shard: Optional[str] = typer.Option(None, "--shard", help=SHARD_HELP.format(what="fixtures (in sorted order)")),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write a JUnit XML report here (a test case per fixture)."),
    html_path: Optional[Path] = typer.Option(None, "--html", help=HTML_HELP),
) -> None:
    """Play the judge's side of each fixture against the bot; report the first difference."""
    from .commands import replay

    replay.execute(args=args, time_scale=time_scale, env_pairs=env_pairs, transcripts=transcripts,
                   exact_lines=exact_lines, quiet=quiet, typed=_TYPED, jobs=jobs, shard=shard,
                   json_path=json_path, junit_path=junit_path, bot_letter=bot_letter, seat=seat,
                   html_path=html_path)


@app.command("merge")
def merge_command(
    reports: List[Path] = typer.Argument(None, metavar="REPORT.json...", help="The JSON reports of every shard of one run (--shard I/N --json FILE)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the merged JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write the merged JUnit XML report here."),
    html_path: Optional[Path] = typer.Option(None, "--html", help=HTML_HELP),
    pgn_path: Optional[Path] = typer.Option(None, "--pgn", help="A chess match's shards: write every game here as PGN, as match --pgn does."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
) -> None:
    """Join the shards of one check, fuzz, match, replay or record --update run into one verdict (exit status as the command's)."""
    from .commands import merge

    merge.execute(reports=list(reports or []), json_path=json_path, junit_path=junit_path, quiet=quiet,
                  html_path=html_path, pgn_path=pgn_path)


@app.command("show")
def show_command(
    path: Path = typer.Argument(..., metavar="TRANSCRIPT|FIXTURE", help="A saved transcript (check, fuzz, replay, match) or a fixture."),
    ply: Optional[int] = typer.Option(None, "--ply", min=0, help="The ply to print: the position after this many moves (default: the failing ply, else the last)."),
    html_path: Optional[Path] = typer.Option(None, "--html", help="Also write a self-contained HTML page of the whole game here, to step through move by move."),
) -> None:
    """Print the board of a saved game at a ply, with the move that led there and that ply's transcript lines."""
    from .commands import show

    show.execute(path=path, ply=ply, html_path=html_path)


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point: parse, run, and turn every problem into one line and an exit code."""
    _TYPED[:] = list(sys.argv[1:] if argv is None else argv)
    exits.run_app(app, argv)


if __name__ == "__main__":
    main()
