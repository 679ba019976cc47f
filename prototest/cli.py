"""The command line: `prototest check | moves | perft | games`.

Library code raises domain exceptions (SpecError, PositionError, OptionError); only this
layer turns them into one line on stderr and an exit code:
0 all passed, 1 the bot failed a check, 2 a usage error (bad spec, bot or option).
"""

from __future__ import annotations

import errno
import math
import os
import re
import shlex
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from . import config as configmod, detect, fixtures, fuzz, interrupts, process, replay as replayer, report, runner
from . import settings, spec as specmod, usage, workers
from .games.base import IllegalMove, PositionError

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Check that a game bot speaks its judge's protocol exactly, plays legal moves, "
    "answers in time and exits cleanly.",
)


class UsageProblem(Exception):
    """A usage error found after parsing: printed as one line, exit status 2."""


_signals = interrupts.signals


def _load(game: str, spec_path: Optional[Path], overrides: List[str]):
    if spec_path is None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", game):
        raise UsageProblem(f"--game {game!r}: a game name is letters, digits, - and _ "
                           f"(a spec file of your own goes to --spec)")
    path = spec_path or specmod.spec_path_for(game)
    if spec_path is None and not path.exists():
        known = ", ".join(specmod.builtin_games())
        raise UsageProblem(f"unknown game {game!r} (known: {known})")
    spec = specmod.load(path, overrides)
    module, rules = specmod.bind(spec)
    return spec, module, rules


def _bot_argv(bot: List[str], env: dict[str, str], cwd: Optional[str] = None) -> list[str]:
    """Check the bot's command before any game; `cwd` is the folder it will run in (a
    config file's), against which a relative path is checked."""
    if not bot:
        raise UsageProblem("no bot given: prototest check ./mybot, or prototest check -- python3 bot.py, "
                           "or bot = [...] in a prototest.toml")
    if cwd is not None:
        checked = _bot_argv([os.path.join(cwd, bot[0]) if os.sep in bot[0] else bot[0], *bot[1:]], env)
        return [bot[0], *checked[1:]]
    program = bot[0]
    if len(bot) == 1 and (quoted := usage.quoted_command(program)):
        raise UsageProblem(f"bot {quoted}")
    if os.sep in program:
        if not os.path.exists(program):
            raise UsageProblem(f"bot {program!r} not found")
        if os.path.isdir(program):
            raise UsageProblem(f"bot {program!r} is a directory")
        if not os.access(program, os.X_OK):
            how = usage.how_to_run(program, env)
            chmod = "" if _not_runnable_alone(program) else "chmod +x it (it needs a #! line), or "
            raise UsageProblem(f"bot {program!r} is not executable: {chmod}{how}")
        _check_interpreter(program, env)
        return list(bot)
    if shutil.which(program, path=env.get("PATH")) is None:
        hint = ""
        if os.path.exists(program):
            found = usage.run_command(program, env)
            hint = (f"; to run the file {program}: prototest check -- {found[0]}" if found
                    else f"; {usage.how_to_run(program, env)}" if usage.compile_command(program)
                    else f"; for a file in this folder write ./{program}")
        raise UsageProblem(f"bot command {program!r} not found on PATH{hint}")
    return list(bot)


def _not_runnable_alone(program: str) -> bool:
    """Files that no #! line or chmod makes a bot: bytecode, archives, sources to compile."""
    ext = os.path.splitext(program)[1].lower()
    return ext in (".class", ".jar", ".java", ".ts", ".mts") or ext in usage.COMPILERS


def _check_interpreter(program: str, env: dict[str, str]) -> None:
    """A script whose #! line names a missing interpreter fails to start with a bare
    "No such file or directory", which would blame the script: name the interpreter."""
    try:
        with open(program, "rb") as fh:
            head = fh.readline(512)
    except OSError as exc:
        raise UsageProblem(f"bot {program!r} cannot be read: {exc.strerror}") from None
    if not head.strip():
        raise UsageProblem(f"bot {program!r} is an empty file")
    if head.startswith(b"\xef\xbb\xbf#!"):
        raise UsageProblem(f"bot {program!r} starts with a UTF-8 byte order mark before its #! line, so the "
                           f"system cannot run it: save it without the mark (sed -i '1s/^\\xEF\\xBB\\xBF//' "
                           f"{shlex.quote(program)})")
    if not head.startswith(b"#!"):
        if head[:4] != b"\x7fELF" and _not_runnable_alone(program):
            raise UsageProblem(f"bot {program!r} cannot run by itself: {usage.how_to_run(program, env)}")
        if head[:4] != b"\x7fELF" and b"\0" not in head and head.strip():
            interpreter = usage.INTERPRETERS.get(os.path.splitext(program)[1].lower(), ["python3"])[-1]
            raise UsageProblem(f"bot {program!r} is a text file without a #! line: add one "
                               f"(#!/usr/bin/env {interpreter}), or {usage.how_to_run(program, env)}")
        return
    if head.rstrip(b"\n").endswith(b"\r"):
        raise UsageProblem(f"bot {program!r}: its #! line ends in \\r (the file has Windows line endings), so "
                           f"the system looks for an interpreter whose name ends in \\r: convert the file: "
                           f"sed -i 's/\\r$//' {shlex.quote(program)}")
    words = head[2:].decode("utf-8", "replace").split()
    if not words:
        raise UsageProblem(f"bot {program!r}: its #! line names no interpreter")
    interpreter = words[0]
    if os.path.isdir(interpreter):
        raise UsageProblem(f"bot {program!r}: its #! interpreter {interpreter!r} is a directory, not a program")
    if not os.access(interpreter, os.X_OK):
        raise UsageProblem(f"bot {program!r}: its #! interpreter {interpreter!r} does not exist "
                           f"or is not executable")
    if os.path.basename(interpreter) == "env":
        if len(words) > 2 and not words[1].startswith(("-S", "--split-string")):
            rest = " ".join(words[1:])
            raise UsageProblem(f"bot {program!r}: its #! line gives env {rest!r} as one word (Linux passes the "
                               f"rest of the line as one argument): write #!/usr/bin/env -S {rest}")
        names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        if names and shutil.which(names[0], path=env.get("PATH")) is None:
            raise UsageProblem(f"bot {program!r}: its #! line runs {names[0]!r}, which is not on "
                               f"the bot's PATH")


def _env_pairs(pairs: List[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageProblem(f"--env takes KEY=VALUE, got {pair!r}")
        out[key] = value
    return out


@app.command()
def check(
    bot: List[str] = typer.Argument(None, metavar="BOT...", help="The bot: an executable path, or a command line after --."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The protocol: a spec under specs/ (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    games: int = typer.Option(0, "--games", "-n", min=0, max=configmod.MAX_GAMES, help="Games to play; default: one per seat (both colours)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The same seed gives the same games and opponent moves (default 1)."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (e.g. 3 on a slow CI machine; default 1)."),
    start_delay: Optional[int] = typer.Option(None, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line (default: the spec's)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write a JUnit XML report here."),
    transcripts: Optional[Path] = typer.Option(None, "--transcripts", help="Write every game's transcript here (default: only games with findings, to ./prototest-transcripts)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key: --set time.clock_ms=60000 (repeatable)."),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable)."),
    seat: Optional[str] = typer.Option(None, "--seat", help="Play only this seat (e.g. white, b, 2); default: alternate."),
    position: Optional[str] = typer.Option(None, "--position", help="Start every game from this position (the game's one-line notation)."),
    moves: Optional[str] = typer.Option(None, "--moves", help="Moves played from the start position before the bot's first turn, comma-separated (the last one is shown as the opponent's last move)."),
    opponent_moves: Optional[str] = typer.Option(None, "--opponent-moves", help="The judge plays these moves for the opponent, comma-separated, in order; then its own."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
) -> None:
    """Play games against BOT as the judge and report every fault."""
    s = _settings(bot, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path, no_config)
    loaded: list = []
    try:
        run = _play(s, start_delay, json_path, junit_path, transcripts, seat, position, quiet, loaded,
                    moves, opponent_moves)
    except KeyboardInterrupt as exc:  # before the first game: still leave a report for CI
        if not loaded:
            try:  # later signals do not interrupt: loading the spec again is safe
                loaded.append(_load(s.game, s.spec_path, s.overrides)[0])
            except Exception:
                raise exc from None
        run = runner.CheckRun(loaded[0], list(s.bot), s.seed, s.time_scale)
        run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    run.config = s.config.where if s.config else None
    run.game_source = s.game_source
    count = s.games or len(run.spec.game.seats)
    _conclude(run, [("--json", json_path, report.write_json), ("--junit", junit_path, report.write_junit)],
              report.summary, quiet, f"after {len(run.games)} of {count} games")


def _conclude(run, writers, summary, quiet: bool, progress: str) -> None:
    """The end of a command that ran a bot: reports written (a write error is kept, not
    raised), the summary, and the exit status: 128 + signal, 1 failed, 2 unwritable, 0."""
    _signals.armed = False  # the verdict is complete: a late signal is ignored
    for option, path, write in writers:
        if path is None:
            continue
        try:
            write(run, path)
        except OSError as exc:
            run.write_errors.append(f"{option} {path}: cannot write: {exc.strerror or exc}")
    text = summary(run)
    typer.echo(text if not quiet else text.splitlines()[-1])
    for line in run.write_errors:
        typer.echo(f"prototest: error: {line}", err=True)
    if run.interrupted:
        _signals.told = True
        typer.echo(f"prototest: interrupted ({run.interrupted.name}) {progress}; "
                   f"the bot's processes were killed", err=True)
        raise typer.Exit(128 + run.interrupted)
    if run.failed:
        raise typer.Exit(EXIT_FAIL)
    incomplete = getattr(run, "incomplete", False)  # fuzz: no answer judged within the budget
    raise typer.Exit(EXIT_USAGE if run.write_errors or incomplete else EXIT_PASS)


def _settings(bot, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path,
              no_config) -> settings.Settings:
    """The command line over the config file (found from here upwards, or --config)."""
    if config_path is not None and no_config:
        raise UsageProblem("--config and --no-config: give one of them")
    cfg = None
    if config_path is not None:
        cfg = configmod.load(config_path)
    elif not no_config:
        try:
            cfg = configmod.find(Path.cwd())
        except configmod.ConfigError as exc:
            raise UsageProblem(f"{exc} (--no-config reads no config file)") from None
    return settings.resolve(bot=bot, game=game, spec_path=spec_path, games=games, seed=seed,
                            time_scale=time_scale, env=_env_pairs(env_pairs), overrides=list(overrides),
                            config=cfg)


def _load_settings(s: settings.Settings):
    """The spec with every override; a bad one from the config file is named as its."""
    if s.config_overrides and s.config is not None:
        try:
            _load(s.game, s.spec_path, s.overrides[:s.config_overrides])
        except specmod.SpecError as exc:
            raise configmod.ConfigError(s.config.where, "set", str(exc)) from None
    return _load(s.game, s.spec_path, s.overrides)


def _play(s: settings.Settings, start_delay, json_path, junit_path, transcripts, seat, position, quiet,
          loaded: list, moves=None, opponent_moves=None) -> runner.CheckRun:
    """Validate everything, then play the games (the body of `check`)."""
    _check_time_scale(s.time_scale)
    spec, module, rules = _load_settings(s)
    loaded.append(spec)
    env = process.controlled_env(s.env)
    argv = _bot_argv(s.bot, env, cwd=s.bot_cwd)
    seats, start_moves = _record_start(spec, rules, seat, position, moves)
    start = _position(rules, position) if position is not None else None
    forced = _split_moves(opponent_moves, spec) if opponent_moves is not None else None
    count = s.games or len(seats or spec.game.seats)
    for option, path in (("--json", json_path), ("--junit", junit_path)):
        if path is not None:
            _check_output(option, path)
    if transcripts is not None:
        transcript_dir = transcripts
    else:  # one folder per run: runs side by side never overwrite each other's transcripts
        stamp = time.strftime("%Y%m%d-%H%M%S")
        beside = s.config.folder if s.config is not None else Path(".")  # the bot's repository
        transcript_dir = beside / "prototest-transcripts" / f"{spec.name}-{stamp}-{os.getpid()}"
    _check_output("--transcripts", transcript_dir, folder=True)

    def progress(game_report, total):
        if not quiet:
            typer.echo(report.progress_line(game_report, total), err=True)

    # Nobody chose the game: once a game shows the bot speaks another protocol, stop.
    stop = None if s.game_chosen else (lambda game_report: detect.hint(game_report) is not None)
    run = runner.run_check(
        spec, rules, module, argv, games=count, seed=s.seed, time_scale=s.time_scale,
        start_delay_ms=start_delay, env=env, transcripts=transcript_dir,
        write_all=transcripts is not None, progress=progress, seats=seats, start_position=start,
        start_moves=start_moves, opponent_moves=forced, cwd=s.bot_cwd, stop=stop,
        stop_when_idle=not s.game_chosen,
    )
    if not s.game_chosen:
        run.hints = list(dict.fromkeys(h for g in run.games if (h := detect.hint(g))))
    return run


def _check_time_scale(time_scale: float) -> None:
    if not (math.isfinite(time_scale) and 0.01 <= time_scale <= 1000):
        raise UsageProblem(f"--time-scale {time_scale}: expected a number from 0.01 to 1000")


def _split_moves(text: str, spec=None) -> list[str]:
    """Moves separated by commas (Halma moves hold spaces: `1 3 3 5,16 14 14 12`); given
    a spec, a move may also be written as `moves` lists it (`move 1 3 3 5`)."""
    moves = [m.strip() for m in text.split(",") if m.strip()]
    if spec is None or spec.turn.answer_format == "{move}":
        return moves
    return [parsed[0] if (parsed := spec.parse_answer(m)) else m for m in moves]


def _move_list(option: str, text: Optional[str], position, spec=None) -> list[str]:
    """Moves played in order from `position`; a usage error names the first that is not legal."""
    if text is None:
        return []
    played = []
    for number, move in enumerate(_split_moves(text, spec), 1):
        if position.outcome() is not None:
            raise UsageProblem(f"{option}: move {number} {move!r} comes after the end of the game "
                               f"({position.outcome().reason})")
        try:
            judged = position.judge(move)
        except IllegalMove as exc:
            raise UsageProblem(f"{option}: move {number} {move!r} is not legal: {exc.reason}") from None
        position = judged.position
        played.append(judged.move)
    if position.outcome() is not None:
        raise UsageProblem(f"{option}: the game is over after these moves ({position.outcome().reason})")
    return played


def _check_output(option: str, path: Path, *, folder: bool = False) -> None:
    """Refuse an output file (or folder) that could not be written, before any game."""
    try:
        if folder and path.exists() and not path.is_dir():
            raise UsageProblem(f"{option} {path}: not a folder")
        if not folder and path.is_dir():
            raise UsageProblem(f"{option} {path}: is a directory; give a file name")
        nearest = path if folder else path.parent  # the nearest folder that exists
        while not nearest.exists() and nearest != nearest.parent:
            nearest = nearest.parent
        if not nearest.is_dir() or not os.access(nearest, os.W_OK | os.X_OK):
            raise UsageProblem(f"{option} {path}: cannot write there ({nearest} is not a writable folder)")
        if not folder and path.exists() and not os.access(path, os.W_OK):
            raise UsageProblem(f"{option} {path}: the file is not writable")
    except OSError as exc:  # a name too long, a loop of links...
        raise UsageProblem(f"{option} {path}: {exc.strerror or exc}") from None


def _position(rules, position: Optional[str]):
    if position is None:
        return rules.initial()
    try:
        return rules.parse(position)
    except PositionError as exc:
        raise UsageProblem(f"position {position!r}: {exc}") from None


@app.command()
def moves(
    position: Optional[str] = typer.Argument(None, help="A position in the game's one-line notation (default: the initial one)."),
    game: str = typer.Option("chess", "--game", "-g"),
    spec_path: Optional[Path] = typer.Option(None, "--spec"),
    overrides: List[str] = typer.Option([], "--set"),
) -> None:
    """List the legal moves, one a line, exactly as the judge accepts them."""
    spec, _, rules = _load(game, spec_path, overrides)
    pos = _position(rules, position)
    for move in pos.legal_moves():
        typer.echo(spec.answer_for(move))


@app.command()
def perft(
    position: Optional[str] = typer.Argument(None, help="A position in the game's one-line notation (default: the initial one)."),
    depth: int = typer.Option(..., "--depth", "-d", min=0, max=12),
    divide: bool = typer.Option(False, "--divide", help="Also print the count under each first move."),
    game: str = typer.Option("chess", "--game", "-g"),
    spec_path: Optional[Path] = typer.Option(None, "--spec"),
    overrides: List[str] = typer.Option([], "--set"),
) -> None:
    """Count the leaf positions at DEPTH (perft); --divide splits it by first move."""
    spec, _, rules = _load(game, spec_path, overrides)
    pos = _position(rules, position)
    if divide:
        total = 0
        for move, count in rules.divide(pos, depth):
            typer.echo(f"{spec.answer_for(move)}: {count}")
            total += count
        typer.echo("")
        typer.echo(f"total: {total}" if depth else f"total: {rules.perft(pos, depth)}")
    else:
        typer.echo(str(rules.perft(pos, depth)))


@app.command("fuzz")
def fuzz_command(
    bot: List[str] = typer.Argument(None, metavar="BOT...", help="The bot: an executable path, or a command line after --."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The protocol: a spec under specs/ (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    budget: str = typer.Option("60s", "--budget", "-b", help="Time for the whole run, shrinking included: 90s, 5m, 1h30m, or 0 for no limit (default 60s)."),
    examples: Optional[int] = typer.Option(None, "--examples", "-n", min=1, max=10_000_000, help="Stop after this many examples (each is one game of a fresh bot); default: as many as the budget allows."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help="Bots fuzzed at once, each in its own worker (default: the number of cores)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The same seed gives the same examples (default 1)."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", min=1, max=20_000, help="Stop every game after this many plies (default: the game's own end and turn limit)."),
    mode: Optional[str] = typer.Option(None, "--mode", help="game: every example a game from the start; position: the bot starts cold in a generated deep position and plays on; mixed: either, example by example. Default: mixed when the protocol sends the position, else game."),
    save: Optional[Path] = typer.Option(None, "--save", help="Write each minimal failing example's transcript to this folder."),
    database: Path = typer.Option(Path(".hypothesis") / "prototest", "--database", help="Hypothesis example database: failures found here are replayed first next time."),
    no_database: bool = typer.Option(False, "--no-database", help="Neither replay nor save failures (the run depends on --seed alone)."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here."),
    junit_path: Optional[Path] = typer.Option(None, "--junit", help="Write a JUnit XML report here."),
    shrink_examples: int = typer.Option(80, "--shrink-examples", min=0, max=10_000_000, help="Runs of the bot after the first failure, to shorten it (cold retries, shorter paths, fewer opponent moves)."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (default 1)."),
    start_delay: int = typer.Option(0, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line (default 0: start-up is check's business)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key (repeatable)."),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
) -> None:
    """Play whole games against BOT with swarm opponents drawn by Hypothesis; shrink any failure to a minimal reproducer."""
    s = _settings(bot, game, spec_path, 0, seed, time_scale, overrides, env_pairs, config_path, no_config)
    _check_time_scale(s.time_scale)
    budget_s = _duration("--budget", budget)
    spec, module, rules = _load_settings(s)
    env = process.controlled_env(s.env)
    argv = _bot_argv(s.bot, env, cwd=s.bot_cwd)
    try:
        mode = fuzz.choose_mode(spec, mode)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    for option, path in (("--json", json_path), ("--junit", junit_path)):
        if path is not None:
            _check_output(option, path)
    for option, path in (("--save", save), ("--database", None if no_database else database)):
        if path is not None:
            _check_output(option, path, folder=True)
    target = fuzz.Target(spec, rules, module, argv, env, s.time_scale, start_delay, cwd=s.bot_cwd)
    options = fuzz.Options(mode=mode, examples=examples, budget_s=budget_s, seed=s.seed,
                           jobs=jobs or default_jobs(), max_plies=max_plies,
                           database=None if no_database else database, shrink_examples=shrink_examples)
    ticker = _Ticker(quiet)
    run = (fuzz.Campaign(target, options, ticker).execute() if options.jobs <= 1
           else workers.run_workers(target, options, ticker))
    ticker.done()
    _signals.armed = False  # the verdict is complete: a late signal is ignored
    if save is not None:
        _save_reproducers(run, save)
    _conclude(run, [("--json", json_path, report.write_fuzz_json), ("--junit", junit_path, report.write_fuzz_junit)],
              report.fuzz_summary, quiet, f"after {run.examples} examples")


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


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
        self.shown = False
        self.kinds = 0

    def __call__(self, run: fuzz.FuzzRun) -> None:
        now = time.monotonic()
        news = len(run.failing_kinds) != self.kinds  # a new kind of failure is said at once
        self.kinds = len(run.failing_kinds)
        if self.quiet or (not news and now - self.last < (0.2 if self.tty else 10.0)):
            return
        self.last = now
        line = report.fuzz_progress(run)
        if self.tty:
            sys.stderr.write("\r" + line + "\x1b[K")
            sys.stderr.flush()
            self.shown = True
        else:
            typer.echo(line, err=True)

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _save_reproducers(run: fuzz.FuzzRun, folder: Path) -> None:
    """Each minimal failing example as a fixture (see prototest.fixtures), whose header
    holds what replays it: `prototest replay FILE` says whether the failure comes back."""
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


@app.command("games")
def list_games() -> None:
    """List the bundled protocols."""
    for name in specmod.builtin_games():
        try:
            spec = specmod.load(specmod.spec_path_for(name))
            typer.echo(f"{name:10} {spec.game.title}")
        except specmod.SpecError as exc:
            typer.echo(f"{name:10} (invalid: {exc})")


# -- fixtures: record, replay, regenerate ------------------------------------------------------

@app.command("record")
def record_command(
    bot: List[str] = typer.Argument(None, metavar="BOT... | --update FIXTURE...", help="The bot: an executable path, or a command line after --; with --update, fixture files or folders."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="The protocol: a spec under specs/ (default: the config file's, else chess)."),
    spec_path: Optional[Path] = typer.Option(None, "--spec", help="A spec file of your own instead of the bundled one."),
    games: int = typer.Option(0, "--games", "-n", min=0, max=configmod.MAX_GAMES, help="Games to record; default: one per seat."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="The games of `prototest check --seed S` (default 1)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The folder to write into (default: fixtures/ beside the bot's config file, else ./fixtures)."),
    seat: Optional[str] = typer.Option(None, "--seat", help="Record only this seat; default: alternate."),
    position: Optional[str] = typer.Option(None, "--position", help="Start from this position (the game's one-line notation)."),
    moves: Optional[str] = typer.Option(None, "--moves", help="Moves played before the bot's first turn, comma-separated."),
    opponent_moves: Optional[str] = typer.Option(None, "--opponent-moves", help="The judge plays these moves for the opponent, comma-separated; then its own."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", min=1, max=20_000, help="Stop the game (result 'stopped') when the position has this many plies."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit (default 1; with --update, for this run only)."),
    start_delay: Optional[int] = typer.Option(None, "--start-delay", min=0, max=3_600_000, help="Milliseconds of silence before the judge's first line (default: the spec's)."),
    overrides: List[str] = typer.Option([], "--set", help="Override a spec key (repeatable); written in the header."),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable; not written in the header)."),
    update: bool = typer.Option(False, "--update", help="Regenerate the given fixtures (files or folders) in place, from their headers."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="Read this config file (default: prototest.toml or pyproject.toml's [tool.prototest], from here upwards)."),
    no_config: bool = typer.Option(False, "--no-config", help="Read no config file."),
) -> None:
    """Write normalised golden transcripts (fixtures) of BOT's games; --update regenerates fixtures."""
    if update:
        given = {"--game": game, "--spec": spec_path, "--games": games or None, "--seed": seed, "--output": output,
                 "--seat": seat, "--position": position, "--moves": moves, "--opponent-moves": opponent_moves,
                 "--max-plies": max_plies, "--start-delay": start_delay, "--set": overrides or None,
                 "--config": config_path}
        clash = [name for name, value in given.items() if value is not None]
        if clash:
            raise UsageProblem(f"record --update reads the game, bot, seed and start from each fixture's header: "
                               f"{', '.join(clash)} cannot be given with it")
        _update_fixtures([Path(p) for p in bot or []], env_pairs, time_scale, quiet)
        return
    if bot and all(_holds_fixtures(Path(arg)) for arg in bot):
        raise UsageProblem(f"{' '.join(bot)}: fixtures, not a bot: prototest record --update {' '.join(bot)} "
                           f"regenerates them")
    s = _settings(bot, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path, no_config)
    if not s.bot:
        raise UsageProblem("no bot given: prototest record ./mybot --game G, or prototest record --game G -- "
                           "python3 bot.py, or bot = [...] in a prototest.toml")
    _check_time_scale(s.time_scale)
    spec, module, rules = _load_settings(s)
    env = process.controlled_env(s.env)
    argv = _bot_argv(s.bot, env, cwd=s.bot_cwd)
    seats, start_moves = _record_start(spec, rules, seat, position, moves)
    folder = output if output is not None else Path(s.bot_cwd or ".") / "fixtures"
    _check_output("--output", folder, folder=True)
    setups = [fixtures.Setup(spec=spec, rules=rules, module=module, argv=argv, cwd=s.bot_cwd, env=env,
                             seat=seats[(index - 1) % len(seats)], seed=s.seed, index=index,
                             time_scale=s.time_scale, start_delay_ms=start_delay, position=position,
                             start_moves=start_moves,
                             given_moves=_split_moves(opponent_moves, spec) if opponent_moves else [],
                             max_plies=max_plies)
              for index in range(1, (s.games or len(seats)) + 1)]
    _record_all(setups, folder, quiet)


def _holds_fixtures(path: Path) -> bool:
    """A fixture file, or a folder with one: what `record --update` takes."""
    if path.is_dir():
        return any(fixtures.is_fixture(p) for p in path.glob("*.txt"))
    return path.is_file() and fixtures.is_fixture(path)


def _record_start(spec, rules, seat: Optional[str], position: Optional[str], moves: Optional[str]):
    """The seats to play and the moves before the bot's first turn (check and record)."""
    seats = list(range(len(spec.game.seats)))
    if seat is not None:
        if seat not in spec.game.seats:
            raise UsageProblem(f"--seat {seat!r}: {spec.name} has the seats {', '.join(spec.game.seats)}")
        seats = [spec.game.seats.index(seat)]
    for option, value in (("--position", position), ("--moves", moves)):
        if value is not None and not spec.sends_position:
            raise UsageProblem(f"{option}: the {spec.name} protocol never sends the position, "
                               f"so a bot could not know it starts from {value!r}")
    start = _position(rules, position) if position is not None else None
    if start is not None and start.outcome() is not None:
        raise UsageProblem(f"position {position!r}: the game is already over ({start.outcome().reason})")
    return seats, _move_list("--moves", moves, start or rules.initial(), spec)


def _record_all(setups: list, folder: Path, quiet: bool) -> None:
    """Play and write each game; a signal stops the run (the game in progress is not written)."""
    failed, errors, interrupted = 0, [], None
    try:
        for setup in setups:
            header, body, game = fixtures.record(setup, folder)
            if game.interrupted is not None:
                interrupted = signal.Signals(game.interrupted)
                break
            name = f"{setup.spec.name}-seed{setup.seed}-game{setup.index}-{setup.spec.game.seats[setup.seat]}.txt"
            if game.result == "stopped" and len(header.opponent_moves) < len(setup.given_moves):
                errors.append(f"--opponent-moves: game {setup.index} stopped: {game.reason}; {name} not written")
                continue
            try:
                folder.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(fixtures.render(header, body), encoding="utf-8")
            except OSError as exc:
                errors.append(f"--output {folder / name}: cannot write: {exc.strerror or exc}")
                continue
            failed += game.failed
            if not quiet:
                typer.echo(f"wrote {folder / name}: {report.verdict(game)}, {report.game_line(game)}")
    except KeyboardInterrupt as exc:
        interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    _signals.armed = False
    _fixture_exit(_count(len(setups), "game"), "recorded", failed, errors, interrupted, skipped=len(errors))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _fixture_exit(total: str, done: str, failed: int, errors: list[str], interrupted, skipped: int = 0) -> None:
    """The last line and the exit status of record and replay, as check's; `skipped`
    counts the games that were not written (their errors say why)."""
    for line in errors:
        typer.echo(f"prototest: error: {line}", err=True)
    if interrupted is not None:
        _signals.told = True
        typer.echo(f"prototest: interrupted ({interrupted.name}); the bot's processes were killed", err=True)
        raise typer.Exit(128 + interrupted)
    if failed:
        typer.echo(f"FAIL: {failed} of {total} failed")
    else:
        typer.echo(f"ERROR: {skipped} of {total} not {done}" if skipped else f"PASS: {total} {done}")
    raise typer.Exit(EXIT_FAIL if failed else EXIT_USAGE if errors else EXIT_PASS)


def _load_fixtures(paths: List[Path], env: dict[str, str], time_scale: Optional[float],
                   argv: Optional[List[str]] = None) -> list:
    """Every fixture read and its game checked (spec, position, bot) before any is played."""
    try:
        loaded = [fixtures.load(path) for path in fixtures.expand(paths)]
        setups = [fixtures.setup_of(fixture, env, argv=argv, time_scale=time_scale) for fixture in loaded]
    except fixtures.FixtureError as exc:
        raise UsageProblem(str(exc)) from None
    for fixture, setup in zip(loaded, setups):
        try:
            setup.argv = _bot_argv(setup.argv, env, cwd=setup.cwd)
        except UsageProblem as exc:
            raise UsageProblem(f"{fixture.path}: {exc}" + ("" if argv else " (the header's bot and cwd; "
                                                                   "cwd is relative to the fixture's folder)")) from None
    return list(zip(loaded, setups))


def _update_fixtures(paths: List[Path], env_pairs: List[str], time_scale: Optional[float], quiet: bool) -> None:
    """record --update: each fixture regenerated from its header, written when it changed."""
    if not paths:
        raise UsageProblem("record --update: give the fixtures to regenerate (files or folders)")
    if time_scale is not None:
        _check_time_scale(time_scale)
    env = process.controlled_env(_env_pairs(env_pairs))
    pairs = _load_fixtures(paths, env, time_scale)
    for fixture, _ in pairs:
        if not os.access(fixture.path, os.W_OK):
            raise UsageProblem(f"{fixture.path}: the file is not writable")
    failed, errors, interrupted = 0, [], None
    try:
        for fixture, setup in pairs:
            text, game = fixtures.regenerate(fixture, setup)
            if game.interrupted is not None:
                interrupted = signal.Signals(game.interrupted)
                break
            old = fixture.path.read_text(encoding="utf-8")
            if text != old:
                try:
                    fixture.path.write_text(text, encoding="utf-8")
                except OSError as exc:
                    errors.append(f"{fixture.path}: cannot write: {exc.strerror or exc}")
                    continue
            failed += game.failed
            if not quiet:
                change = "unchanged" if text == old else f"updated, {fixtures.changed_lines(old, text)} lines differ"
                typer.echo(f"{fixture.path}: {change}: {report.verdict(game)}, {report.game_line(game)}")
    except KeyboardInterrupt as exc:
        interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    _signals.armed = False
    _fixture_exit(_count(len(pairs), "fixture"), "regenerated", failed, errors, interrupted, skipped=len(errors))


@app.command("replay")
def replay_command(
    args: List[str] = typer.Argument(None, metavar="FIXTURE... [-- BOT...]", help="Fixture files or folders; after --, a bot to play instead of the one in each header."),
    time_scale: Optional[float] = typer.Option(None, "--time-scale", help="Multiply every time limit, for this run (default: each header's)."),
    env_pairs: List[str] = typer.Option([], "--env", help="Pass KEY=VALUE to the bot's environment (repeatable)."),
    transcripts: Optional[Path] = typer.Option(None, "--transcripts", help="Write every replay's transcript here (default: only replays that fail, to ./prototest-transcripts)."),
    exact_lines: bool = typer.Option(False, "--exact-lines", help="Compare whole answer lines: a comment that differs fails too (by default, where the protocol has comments, answers compare by their move and comment changes are noted)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final verdict line."),
) -> None:
    """Play the judge's side of each fixture against the bot; report the first difference."""
    paths, bot = _after_dashes(list(args or []), "replay")
    if not paths:
        raise UsageProblem("replay: give the fixtures to replay (files or folders), and after -- a bot if "
                           "not the one each fixture names")
    if time_scale is not None:
        _check_time_scale(time_scale)
    env = process.controlled_env(_env_pairs(env_pairs))
    pairs = _load_fixtures([Path(p) for p in paths], env, time_scale, argv=bot)
    folder = transcripts or Path("prototest-transcripts") / f"replay-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    _check_output("--transcripts", folder, folder=True)
    failed, errors, interrupted = 0, [], None
    try:
        for number, (fixture, setup) in enumerate(pairs, 1):
            result = replayer.replay(fixture, setup, exact_lines=exact_lines)
            if result.status == "interrupted":
                interrupted = signal.Signals(result.report.interrupted)
                break
            failed += result.failed
            kept = _keep_replay(result, folder, number, transcripts is not None, errors)
            if not quiet:
                typer.echo(_replay_lines(result, kept))
    except KeyboardInterrupt as exc:
        interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    _signals.armed = False
    _fixture_exit(_count(len(pairs), "fixture"), "replayed", failed, errors, interrupted)


def _after_dashes(args: List[str], command: str) -> tuple[List[str], Optional[List[str]]]:
    """Split the arguments at the `--` the user typed (click drops it): fixtures, then a bot."""
    raw = _RAW_ARGS or sys.argv[1:]
    if command not in raw or "--" not in raw[raw.index(command):]:
        return args, None
    after = len(raw) - raw.index("--", raw.index(command)) - 1
    if after == 0:
        raise UsageProblem(f"{command}: nothing after --: give the bot's command there, or leave out the --")
    return args[:len(args) - after], args[len(args) - after:]


_RAW_ARGS: List[str] = []


def _keep_replay(result, folder: Path, number: int, write_all: bool, errors: list[str]) -> Optional[Path]:
    """The replay's full transcript (times, stderr) as evidence: for a failure, or every one."""
    if not (write_all or result.failed):
        return None
    path = folder / f"{number:03d}-{result.fixture.path.stem}.txt"
    try:
        return result.report.transcript.write(path)
    except OSError as exc:
        errors.append(f"--transcripts {path}: cannot write: {exc.strerror or exc}")
        return None


def _replay_lines(result, kept: Optional[Path]) -> str:
    verdict = {"pass": "pass", "differs": "DIFFERS", "came back": "FAIL", "fails": "FAIL",
               "did not come back": "pass"}[result.status]
    lines = [f"{result.fixture.path}: {verdict} ({report.game_line(result.report)})"]
    lines += [f"  {line}" for line in result.lines]
    if kept is not None:
        lines.append(f"  transcript: {kept}")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point: parse, run, and turn every problem into one line and an exit code."""
    _signals.install()
    _RAW_ARGS[:] = list(sys.argv[1:] if argv is None else argv)  # replay's `--` (click drops it)
    try:
        process.become_subreaper()
        command = typer.main.get_command(app)
        code = command.main(args=argv, prog_name="prototest", standalone_mode=False)
    except typer.TyperException as exc:  # usage errors from option parsing
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help(), err=True)
        else:
            typer.echo(f"prototest: error: {exc.format_message()}{_option_hint(exc, argv)}", err=True)
        code = EXIT_USAGE
    except typer.Abort:
        typer.echo("prototest: aborted", err=True)
        code = 130
    except (UsageProblem, specmod.SpecError, configmod.ConfigError) as exc:
        typer.echo(f"prototest: error: {exc}", err=True)
        code = EXIT_USAGE
    except KeyboardInterrupt as exc:
        code = 128 + getattr(exc, "signum", signal.SIGINT)
    except SystemExit as exc:  # typer's answer to a closed stdout pipe (EPIPE)
        code = 128 + signal.SIGPIPE if exc.code == 1 else exc.code
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # the reader went away (| head): nothing more to say
            code = 128 + signal.SIGPIPE
            _drop_stdout()
        elif exc.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EBADF):
            _drop_stdout()
            _say(f"prototest: error: cannot write the output: {exc.strerror}")
            code = EXIT_USAGE
        else:
            code = _internal(exc)
    except Exception as exc:
        code = _internal(exc)
    if _signals.first is not None and not _signals.told:  # typer makes Ctrl-C a silent 130
        code = 128 + _signals.first
        _say(f"prototest: interrupted ({interrupts.signal_name(_signals.first)})")
    process.reap_orphans(0.2)
    try:
        sys.stdout.flush()
    except OSError:  # what typer could not write is lost; do not fail again at exit
        _drop_stdout()
    _signals.ignore_all()  # all is said: do not die now
    sys.exit(code if isinstance(code, int) else 0)


def _option_hint(exc: Exception, argv: Optional[List[str]]) -> str:
    """An unknown option that follows the bot's program (`java -cp DIR P`) belongs to the
    bot's command: say to put the command after --."""
    ctx = getattr(exc, "ctx", None)
    if not getattr(exc, "option_name", None) or ctx is None or ctx.command.name != "check":
        return ""
    args = list(sys.argv[1:] if argv is None else argv)
    if "check" not in args:
        return ""
    return usage.option_hint(ctx.command.params, args[args.index("check") + 1:])


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _internal(exc: Exception) -> int:
    """A bug in prototest itself: one line, unless debugging."""
    if os.environ.get("PROTOTEST_DEBUG"):
        raise exc
    _say(f"prototest: internal error: {type(exc).__name__}: {exc} (set PROTOTEST_DEBUG=1 for the traceback)")
    return EXIT_INTERNAL


def _say(line: str) -> None:
    """One line on stderr, if stderr can still be written."""
    try:
        typer.echo(line, err=True)
    except OSError:
        pass


if __name__ == "__main__":
    main()
