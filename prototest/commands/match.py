"""`prototest match BOT_A BOT_B --game G`: two bots against each other, every answer of
both judged, with the statistics chess testers use (issue 23).

Each bot is one command line, split as a shell would ('python3 bot.py --fast'). Games
come in pairs: each opening (seeded random plies, see prototest.play.match.opening) is played
twice, the seats swapped. Every game is a `check` game of A with B in the other seat
(prototest.judge.seat): both bots judged, a fault a loss for the bot that made it. The summary
has each bot's findings as `check` prints them, the results and how each game ended, and
fastchess's report lines (prototest.play.stats).

This module resolves the options, starts the run and ends it. The run's data is
prototest.play.match's MatchRun; its reports are check's modules' (prototest.reports:
summary, jsonreport, junit, pgn, htmlpage, and matchview for the live view).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import time
from pathlib import Path

from ..reports import jsonreport, junit, live, matchview, pgn, summary
from ..play import match as matchmod, matchshards, pool, runner, stats
from ..sandbox import process
from ..judge.game import GameConfig, GameReport
from .check import opponent_command
from .common import (check_output, check_time_scale, html_writer, load_settings, parse_shard, resolve_settings,
                     shard_text)
from .exits import UsageProblem, bots_ahead, conclude, games_begin

#: Games when --games is not given: 5 pairs.
DEFAULT_GAMES = 10
#: Opening plies when --openings-plies is not given, for a protocol that sends the position.
DEFAULT_OPENING_PLIES = 4


def execute(*, bots: list[str], game: str | None, spec_path: Path | None, games: int, seed: int | None,
            time_scale: float | None, start_delay: int | None, json_path: Path | None, pgn_path: Path | None,
            junit_path: Path | None, transcripts: Path | None, overrides: list[str],
            env_pairs: list[str], jobs: int | None, opening_plies: int | None, sprt: str | None, quiet: bool,
            config_path: Path | None, no_config: bool, gauntlet: bool = False,
            openings: Path | None = None, html_path: Path | None = None, shard: str | None = None,
            tally: str | None = None) -> None:
    part = parse_shard(shard)
    if len(bots) < 2:
        raise UsageProblem(f"match takes two bots or more, BOT_A BOT_B [BOT...], each one command line "
                           f"('python3 bot.py'), not {len(bots)}")
    if len(bots) > len(matchmod.LETTERS):
        raise UsageProblem(f"match takes at most {len(matchmod.LETTERS)} bots")
    if gauntlet and len(bots) < 3:
        raise UsageProblem("--gauntlet: the first bot against each of the others takes three bots or more")
    s = resolve_settings(None, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path, no_config)
    check_time_scale(s.time_scale)
    spec, module, rules = load_settings(s)
    env = process.controlled_env(s.env)
    argvs = []
    for i, text in enumerate(bots):
        argv = opponent_command(text, env, f"BOT_{matchmod.LETTERS[i]}")
        assert argv is not None
        argvs.append(argv)
    if len(spec.game.seats) != 2:
        raise UsageProblem(f"match: {spec.name} has {len(spec.game.seats)} seats; a match takes two")
    bots_ahead()  # the reaper of the bots' orphans, before the first bot and any worker
    count = s.games or DEFAULT_GAMES
    if count % 2:
        raise UsageProblem(f"--games {count}: a match plays pairs (each opening with the seats swapped): "
                           f"give an even number")
    book = None
    if openings is not None:
        if spec.game.rules != "chess":
            raise UsageProblem(f"--openings: opening books (EPD, PGN) are chess's; {spec.name} plays seeded random "
                               f"openings (--openings-plies)")
        try:
            book = matchmod.chess_book(str(openings), opening_plies)
        except matchmod.BookError as exc:
            raise UsageProblem(f"--openings {exc}") from None
    if opening_plies is None:
        opening_plies = DEFAULT_OPENING_PLIES if spec.sends_position and book is None else 0
    elif opening_plies and not spec.sends_position:
        raise UsageProblem(f"--openings-plies {opening_plies}: the {spec.name} protocol never sends the position, "
                           f"so a bot could not know the opening (give 0)")
    sprt_options = None
    if sprt is not None:
        if len(bots) != 2:
            raise UsageProblem("--sprt: the SPRT decides between two bots; give two")
        try:
            sprt_options = matchmod.parse_sprt(sprt)
        except ValueError as exc:
            raise UsageProblem(f"--sprt {sprt!r}: {exc}") from None
    where = _tally_location(tally, part, sprt_options)
    for option, path in (("--json", json_path), ("--junit", junit_path), ("--html", html_path)):
        if path is not None:
            check_output(option, path)
    if pgn_path is not None:
        if spec.game.rules != "chess":
            raise UsageProblem(f"--pgn: PGN records chess games; {spec.name} is not chess")
        check_output("--pgn", pgn_path)
    if transcripts is not None:
        folder = transcripts
    else:
        folder = Path("prototest-transcripts") / f"match-{spec.name}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    check_output("--transcripts", folder, folder=True)

    mode = "match" if len(bots) == 2 else "gauntlet" if gauntlet else "round robin"
    run = matchmod.MatchRun(spec, argvs, s.seed, s.time_scale, count, opening_plies,
                   matchmod.pairings(len(bots), gauntlet), mode, sprt_options)
    run.book = str(openings) if openings is not None else None
    run.start_delay = start_delay
    run.overrides, run.shard = list(s.overrides), shard_text(part)
    run.identity = matchshards.identity(run, run.overrides)
    indices = matchshards.shard_games(run.games_total, part)
    run.shard_pairs = matchshards.shard_pairs(run.games_total, part) if part is not None else []
    shared = None
    if where is not None:
        from ..play.matchtally import SharedTally

        shared = SharedTally(where, run.identity, run.shard or "1/1")
        if shared.start().decision is not None:
            indices = []  # the SPRT over all shards decided before this shard began

    def config(index: int) -> GameConfig:
        pairing, local = run.where(index)
        first, second = run.pairings[pairing]
        pair = matchmod.pair_of(local)
        if pair not in run.openings:  # the book's openings in order (cycling), else seeded random plies
            run.openings[pair] = (book[(pair - 1) % len(book)] if book is not None else
                                  (None, matchmod.opening(rules, opening_plies, s.seed, pair)))
        fen, moves = run.openings[pair]
        return GameConfig(spec=spec, rules=rules, rules_module=module, argv=argvs[first], seat=matchmod.a_seat(local),
                          seed=runner.game_seed(s.seed, index), index=index, time_scale=s.time_scale, env=env,
                          start_position=rules.parse(fen) if fen is not None else None,
                          start_delay_ms=start_delay, start_moves=moves, opponent_argv=argvs[second],
                          opponent_cwd=os.getcwd(), opponent_label="opponent")

    tasks = [config(i) for i in indices]

    rechecks = runner.Rechecks(either=True)  # a timing finding of either bot beside other games: alone again

    def done(position: int, game_report: GameReport, first: GameReport | None) -> bool:
        if first is not None:
            rechecks.alone(game_report, first)
        run.games.append(game_report)
        pairing, local = run.where(game_report.index)
        run.tallies[pairing].add(game_report, local)
        if game_report.interrupted is not None:
            run.interrupted = signal.Signals(game_report.interrupted)
        matchmod.keep_transcript(run, game_report, folder, transcripts is not None)
        if view is not None:
            scored[:] = matchview.score_parts(run)
            view.finished(summary.match_progress_line(run, game_report), matchview.game_verdict(game_report))
        elif not quiet:
            live.say(summary.match_progress_line(run, game_report))
        if run.interrupted is not None:
            return True
        if shared is not None:  # the SPRT over every shard's pairs
            run.stopped_by_sprt = shared.after_game(run.tallies[pairing], game_report.index)
            return run.stopped_by_sprt
        if sprt_options is not None and part is None:  # a shard alone sees only its part: merge decides
            run.sprt = run.tally.sprt(sprt_options)
            if run.sprt is not None and run.sprt.decision != stats.CONTINUE:
                run.stopped_by_sprt = True
                return True
        return False

    def claiming(cfg: GameConfig) -> GameReport:
        """A game of a pair claimed in the tally as it starts (in the worker that plays it)."""
        assert shared is not None
        shared.claim(matchmod.pair_of(cfg.index))
        return play(cfg)

    at_once = jobs or pool.default_jobs()
    scored: list[tuple[str, str]] = matchview.score_parts(run)  # the view's running score, as of the last game's end
    view = matchview.live_view(run, at_once, quiet, lambda: scored)
    games_begin()
    try:  # one game at a time: the next game's two bots start during this one (runner.Ahead)
        with view if view is not None else contextlib.nullcontext(), \
                runner.Ahead.for_run(spec, tasks, at_once, fresh=lambda cfg: config(cfg.index),
                                     rechecks=rechecks) as play:
            pool.play_all(tasks, play if shared is None else claiming, at_once, done, again=rechecks.wanted)
    except KeyboardInterrupt as exc:
        run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    run.games.sort(key=lambda g: g.index)
    if sprt_options is not None and part is None:
        run.sprt = run.tally.sprt(sprt_options)
    if shared is not None:
        from ..play.matchtally import pair_scores

        run.shared = shared.snapshot([p for p in run.pairs_played() if pair_scores(run.tally, p) is None])
        run.write_errors.extend(shared.problems)
    conclude(run, [("--json", json_path, jsonreport.write_match_json), ("--junit", junit_path, junit.write_match_junit),
                  ("--pgn", pgn_path, pgn.write_pgn), ("--html", html_path, html_writer("write_match"))],
             summary.match_summary, quiet, f"after {len(run.games)} of {run.games_total} games")


def _tally_location(tally: str | None, part: tuple[int, int] | None, sprt_options: dict | None):
    """--tally redis://HOST:PORT/N, checked (the server answers) before any game; None without."""
    if tally is None:
        return None
    if part is None:
        raise UsageProblem("--tally: the shards of one match share a tally; give each its --shard I/N "
                           "(--shard 1/1 for a match on one machine)")
    if sprt_options is None:
        raise UsageProblem("--tally: the shards share the SPRT's totals and stop once it decides; give --sprt")
    from ..play import exampledb, matchtally

    if not tally.strip().lower().startswith("redis://"):
        raise UsageProblem(f"--tally {tally!r}: expected redis://HOST:PORT/N (the Redis server the shards share)")
    try:
        where = exampledb.parse(tally)
    except ValueError as exc:
        raise UsageProblem(str(exc).replace("--database", "--tally", 1)) from None
    assert isinstance(where, exampledb.RedisLocation)
    try:
        matchtally.check(where)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    return where
