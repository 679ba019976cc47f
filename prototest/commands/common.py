"""What the commands read the same way: the spec and its overrides, the config file under
the options, the bot's environment, the time scale, a start position and moves, output
paths (refused before any game when they cannot be written), and fixture arguments."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from . import config as configmod, settings
from ..judge import spec as specmod
from ..games.base import IllegalMove, PositionError
from .bot import bot_argv
from .exits import UsageProblem


def load_spec(game: str, spec_path: Path | None, overrides: list[str]):
    """The spec of --game (or --spec) with the --set overrides, its rules module and rules."""
    path = spec_path or game_spec(game)
    spec = specmod.load(path, overrides)
    module, rules = specmod.bind(spec)
    return spec, module, rules


def game_spec(game: str, option: str = "--game") -> Path:
    """The spec of a registered game; a usage problem names a bad or unknown one."""
    from .. import games

    problem = games.name_problem(game)
    if problem:
        raise UsageProblem(f"{option} {games.shown(game)}: {problem} (a spec file of your own goes to --spec)")
    try:
        return games.game(game).spec
    except games.GameError as exc:
        raise UsageProblem(str(exc)) from None


def parse_env(pairs: list[str]) -> dict[str, str]:
    """--env KEY=VALUE pairs as a mapping."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageProblem(f"--env takes KEY=VALUE, got {pair!r}")
        out[key] = value
    return out


def resolve_settings(bot, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path,
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
                            time_scale=time_scale, env=parse_env(env_pairs), overrides=list(overrides),
                            config=cfg)


def load_settings(s: settings.Settings):
    """The spec with every override; a bad one from the config file is named as its."""
    if s.config_overrides and s.config is not None:
        try:
            load_spec(s.game, s.spec_path, s.overrides[:s.config_overrides])
        except specmod.SpecError as exc:
            raise configmod.ConfigError(s.config.where, "set", str(exc)) from None
    return load_spec(s.game, s.spec_path, s.overrides)


def check_time_scale(time_scale: float) -> None:
    if not (math.isfinite(time_scale) and 0.01 <= time_scale <= 1000):
        raise UsageProblem(f"--time-scale {time_scale}: expected a number from 0.01 to 1000")


def split_moves(text: str, spec=None) -> list[str]:
    """Moves separated by commas (Halma moves hold spaces: `1 3 3 5,16 14 14 12`); given
    a spec, a move may also be written as `moves` lists it (`move 1 3 3 5`)."""
    moves = [m.strip() for m in text.split(",") if m.strip()]
    if spec is None or spec.turn.answer_format == "{move}":
        return moves
    return [parsed[0] if (parsed := spec.parse_answer(m)) else m for m in moves]


def move_list(option: str, text: str | None, position, spec=None) -> list[str]:
    """Moves played in order from `position`; a usage error names the first that is not legal."""
    if text is None:
        return []
    played = []
    for number, move in enumerate(split_moves(text, spec), 1):
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


def given_opponent_moves(text: str | None, spec, rules, seats: list[int], position: str | None,
                         start_moves: list[str]) -> list[str]:
    """--opponent-moves, refused before any game where it cannot be played: a move that is
    not a move at all (IllegalMove.malformed, judged on the start position), or a first
    move not legal on the start position in a game where the opponent moves first. The
    later moves come after the bot's own, which the game decides: one not legal there
    stops that game, and the command ends as a usage error (runner.ForcedOpponent)."""
    moves = split_moves(text, spec) if text is not None else []
    if not moves:
        return []
    start = parse_position(rules, position) if position is not None else rules.initial()
    for move in start_moves:
        start = start.play(move)
    for number, move in enumerate(moves, 1):
        try:
            start.judge(move)
        except IllegalMove as exc:
            if exc.malformed:
                raise UsageProblem(f"--opponent-moves: move {number} {move!r} is not a move: {exc.reason}") from None
    first_seats = [seat for seat in seats if start.turn() == seat]
    for seat in seats:
        if seat in first_seats:
            continue  # the bot moves first: the opponent's first move answers its own
        try:
            start.judge(moves[0])
        except IllegalMove as exc:
            hint = (f" (--seat {spec.game.seats[first_seats[0]]} plays only the games where the bot moves first)"
                    if first_seats else "")
            raise UsageProblem(f"--opponent-moves: move 1 {moves[0]!r} is not legal on ply {start.ply() + 1}, where "
                               f"the opponent moves first (the bot as {spec.seat_title(seat)}): {exc.reason}{hint}") \
                from None
    return moves


def parse_position(rules, position: str | None):
    if position is None:
        return rules.initial()
    try:
        return rules.parse(position)
    except PositionError as exc:
        raise UsageProblem(f"position {position!r}: {exc}") from None


def game_start(spec, rules, seat: str | None, position: str | None, moves: str | None):
    """The seats to play and the moves before the bot's first turn (check and record)."""
    seats = list(range(len(spec.game.seats)))
    if seat is not None:
        titles = [spec.seat_title(i) for i in seats]
        if seat not in spec.game.seats and seat not in titles:
            raise UsageProblem(f"--seat {seat!r}: {spec.name} has the seats {', '.join(spec.game.seats)}"
                               + (f" ({', '.join(titles)})" if titles != list(spec.game.seats) else ""))
        seats = [spec.game.seats.index(seat) if seat in spec.game.seats else titles.index(seat)]
    for option, value in (("--position", position), ("--moves", moves)):
        if value is not None and not spec.sends_position:
            raise UsageProblem(f"{option}: the {spec.name} protocol never sends the position, "
                               f"so a bot could not know it starts from {value!r}")
    start = parse_position(rules, position) if position is not None else None
    if start is not None and start.outcome() is not None:
        raise UsageProblem(f"position {position!r}: the game is already over ({start.outcome().reason})")
    return seats, move_list("--moves", moves, start or rules.initial(), spec)


def check_output(option: str, path: Path, *, folder: bool = False) -> None:
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


def html_writer(name: str):
    """--html's writer for conclude(): prototest.reports.htmlpage's `name`, imported when a page is written."""
    def write(run, path: Path) -> None:
        from ..reports import htmlpage

        getattr(htmlpage, name)(run, path)
    return write


def load_fixtures(paths: list[Path], env: dict[str, str], time_scale: float | None,
                  argv: list[str] | None = None, *, matches: bool = False, bot: str | None = None,
                  seat: str | None = None) -> list:
    """Every fixture read and its game checked (spec, position, bot) before any is played.
    With `matches` (replay), a match game's transcript is one too: the side of the bot
    that `bot` (its letter) or `seat` names (see prototest.play.matchgame)."""
    from ..play import fixtures, matchgame  # the judge with it: record and replay only

    def load(path: Path):
        if not matchgame.is_match_game(path):
            fixture = fixtures.load(path)
            if bot is not None or seat is not None:
                raise fixtures.FixtureError(path, f"{'--bot' if bot is not None else '--seat'} picks a bot of a "
                                                  f"match game's transcript; a fixture has one bot")
            return fixture
        if not matches:
            raise fixtures.FixtureError(path, "a match game's transcript, not a fixture: `prototest replay` "
                                              "plays it again (--bot A or --bot B)")
        game = matchgame.load(path)
        try:
            side = matchgame.pick(game, bot, seat, matchgame.seat_titles(game) if seat is not None else None)
        except ValueError as exc:
            raise fixtures.FixtureError(path, str(exc)) from None
        return matchgame.fixture_of(game, side)

    try:
        loaded = [load(path) for path in matchgame.expand(paths, matches)]
        setups = [fixtures.setup_of(fixture, env, argv=argv, time_scale=time_scale) for fixture in loaded]
    except fixtures.FixtureError as exc:
        raise UsageProblem(str(exc)) from None
    for fixture, setup in zip(loaded, setups):
        try:
            setup.argv = bot_argv(setup.argv, env, cwd=setup.cwd)
        except UsageProblem as exc:
            raise UsageProblem(f"{fixture.path}: {exc}" + ("" if argv else " (the header's bot and cwd; "
                                                                   "cwd is relative to the fixture's folder)")) from None
    return list(zip(loaded, setups))


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """--shard I/N: shard I (from 1) of N."""
    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*", text)
    if not match:
        raise UsageProblem(f"--shard {text!r}: expected I/N, e.g. 2/4 (shard 2 of 4)")
    index, count = int(match[1]), int(match[2])
    if not 1 <= index <= count:
        raise UsageProblem(f"--shard {text}: I must be from 1 to N ({count})")
    return index, count


def in_shard(position: int, shard: tuple[int, int] | None) -> bool:
    """Whether item `position` (from 0: a game's index - 1, a fixture's place in the
    sorted list) belongs to the shard: every N-th item, from the I-th."""
    return shard is None or position % shard[1] == shard[0] - 1


def shard_text(shard: tuple[int, int] | None) -> str | None:
    return None if shard is None else f"{shard[0]}/{shard[1]}"


def fixtures_report(command: str, entries: list[dict], total: int, shard: tuple[int, int] | None,
                    errors: list[str], interrupted) -> dict:
    """The JSON report of a replay or a record --update: one entry per fixture played."""
    failed = sum(1 for e in entries if e["failed"])
    return {"command": command, "shard": shard_text(shard), "fixtures_total": total, "fixtures": entries,
            "failed": failed, "errors": list(errors),
            "interrupted": interrupted.name if interrupted is not None else None,
            "passed": not failed and not errors and interrupted is None}


def write_fixture_reports(data: dict, json_path: Path | None, junit_path: Path | None, errors: list[str],
                          junit=None) -> None:
    """--json and --junit of replay and record --update (and of their merged shards, or
    with `junit` of merged fuzz shards); a write error joins `errors`."""
    from ..reports import jsonreport, junit as junitreport

    for option, path, write in (("--json", json_path, jsonreport.write_data_json),
                                ("--junit", junit_path, junit or junitreport.write_fixture_junit)):
        if path is None:
            continue
        try:
            write(data, path)
        except OSError as exc:
            errors.append(f"{option} {path}: cannot write: {exc.strerror or exc}")
