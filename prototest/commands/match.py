"""`prototest match BOT_A BOT_B --game G`: two bots against each other, every answer of
both judged, with the statistics chess testers use (issue 23).

Each bot is one command line, split as a shell would ('python3 bot.py --fast'). Games
come in pairs: each opening (seeded random plies, see prototest.match.opening) is played
twice, the seats swapped. Every game is a `check` game of A with B in the other seat
(prototest.seat): both bots judged, a fault a loss for the bot that made it. The summary
has each bot's findings as `check` prints them, the results and how each game ended, and
fastchess's report lines (prototest.stats).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import shlex
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from .. import live, match as matchmod, pool, process, report, runner, stats
from ..game import GameConfig, GameReport
from ..spec import Spec
from .check import opponent_command
from .common import check_output, check_time_scale, load_settings, resolve_settings
from .exits import UsageProblem, bots_ahead, conclude, games_begin, plural

#: Games when --games is not given: 5 pairs.
DEFAULT_GAMES = 10
#: Matches of up to this many games list every game in the summary; longer ones count how they ended.
GAMES_SHOWN = 40
#: Opening plies when --openings-plies is not given, for a protocol that sends the position.
DEFAULT_OPENING_PLIES = 4


@dataclass
class MatchRun:
    spec: Spec
    bots: list[list[str]]
    seed: int
    time_scale: float
    #: games of each pairing (an even number: pairs of games)
    games_per_pairing: int
    opening_plies: int
    #: who plays whom (indices into `bots`), see prototest.match.pairings
    pairings: list[tuple[int, int]] = field(default_factory=lambda: [(0, 1)])
    mode: str = "match"  # "match" (two bots), "round robin", "gauntlet"
    sprt_options: dict[str, Any] | None = None
    games: list[GameReport] = field(default_factory=list)
    #: pair number (within a pairing) -> its opening, (FEN or None: the initial position,
    #: moves): every pairing plays the same openings
    openings: dict[int, tuple[str | None, list[str]]] = field(default_factory=dict)
    #: the opening book (--openings), if one was read
    book: str | None = None
    tallies: list[matchmod.Tally] = field(default_factory=list)
    sprt: stats.Sprt | None = None
    stopped_by_sprt: bool = False
    interrupted: signal.Signals | None = None
    write_errors: list[str] = field(default_factory=list)
    #: --start-delay, if given (a game's transcript says it, for its replay)
    start_delay: int | None = None

    def __post_init__(self) -> None:
        if not self.tallies:
            self.tallies = [matchmod.Tally() for _ in self.pairings]

    @property
    def games_total(self) -> int:
        return self.games_per_pairing * len(self.pairings)

    @property
    def tally(self) -> matchmod.Tally:
        """The first pairing's tally (the only one of a two-bot match)."""
        return self.tallies[0]

    def where(self, index: int) -> tuple[int, int]:
        """(pairing, game number within it, from 1) of game `index` (from 1)."""
        return (index - 1) // self.games_per_pairing, (index - 1) % self.games_per_pairing + 1

    def names(self, g: GameReport) -> tuple[str, str]:
        """The letters of the game's first bot (the referee's) and of the bot in the other seat."""
        return self.names_of(g.index)

    def names_of(self, index: int) -> tuple[str, str]:
        """The letters of game `index`'s first bot (the referee's) and of the other seat's."""
        first, second = self.pairings[self.where(index)[0]]
        return matchmod.LETTERS[first], matchmod.LETTERS[second]

    def findings_of(self, bot: int) -> list:
        letter = matchmod.LETTERS[bot]
        out = []
        for g in self.games:
            first, second = self.names(g)
            if letter == first:
                out.extend(g.findings)
            elif letter == second:
                out.extend(g.opponent_findings)
        return out

    def failing(self) -> list[str]:
        return [matchmod.LETTERS[i] for i in range(len(self.bots))
                if any(f.severity == "fail" for f in self.findings_of(i))]

    @property
    def failed(self) -> bool:
        """A bot failed a check (a FAIL finding of any)."""
        return any(f.severity == "fail" for g in self.games for f in [*g.findings, *g.opponent_findings])


def execute(*, bots: list[str], game: str | None, spec_path: Path | None, games: int, seed: int | None,
            time_scale: float | None, start_delay: int | None, json_path: Path | None, pgn_path: Path | None,
            junit_path: Path | None, transcripts: Path | None, overrides: list[str],
            env_pairs: list[str], jobs: int | None, opening_plies: int | None, sprt: str | None, quiet: bool,
            config_path: Path | None, no_config: bool, gauntlet: bool = False,
            openings: Path | None = None, html_path: Path | None = None) -> None:
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
    run = MatchRun(spec, argvs, s.seed, s.time_scale, count, opening_plies,
                   matchmod.pairings(len(bots), gauntlet), mode, sprt_options)
    run.book = str(openings) if openings is not None else None
    run.start_delay = start_delay

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

    tasks = [config(i) for i in range(1, run.games_total + 1)]

    rechecks = runner.Rechecks(either=True)  # a timing finding of either bot beside other games: alone again

    def done(position: int, game_report: GameReport, first: GameReport | None) -> bool:
        if first is not None:
            rechecks.alone(game_report, first)
        run.games.append(game_report)
        pairing, local = run.where(game_report.index)
        run.tallies[pairing].add(game_report, local)
        if game_report.interrupted is not None:
            run.interrupted = signal.Signals(game_report.interrupted)
        _keep_transcript(run, game_report, folder, transcripts is not None)
        if view is not None:
            scored[:] = score_parts(run)
            view.finished(progress_line(run, game_report), game_verdict(game_report))
        elif not quiet:
            live.say(progress_line(run, game_report))
        if run.interrupted is not None:
            return True
        if sprt_options is not None:
            run.sprt = run.tally.sprt(sprt_options)
            if run.sprt is not None and run.sprt.decision != stats.CONTINUE:
                run.stopped_by_sprt = True
                return True
        return False

    at_once = jobs or pool.default_jobs()
    scored: list[tuple[str, str]] = score_parts(run)  # the view's running score, as of the last game's end
    view = live_view(run, at_once, quiet, lambda: scored)
    games_begin()
    try:  # one game at a time: the next game's two bots start during this one (runner.Ahead)
        with view if view is not None else contextlib.nullcontext(), \
                runner.Ahead.for_run(spec, tasks, at_once, fresh=lambda cfg: config(cfg.index),
                                     rechecks=rechecks) as play:
            pool.play_all(tasks, play, at_once, done, again=rechecks.wanted)
    except KeyboardInterrupt as exc:
        run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    run.games.sort(key=lambda g: g.index)
    if sprt_options is not None:
        run.sprt = run.tally.sprt(sprt_options)
    conclude(run, [("--json", json_path, write_json), ("--junit", junit_path, write_junit),
                  ("--pgn", pgn_path, write_pgn), ("--html", html_path, write_html)], summary, quiet, f"after {len(run.games)} of {run.games_total} games")


def live_view(run: MatchRun, jobs: int, quiet: bool, score) -> "live.View | None":
    """The live view on a terminal, as check's (prototest.live): the header at once, a line
    per game in play (its ply, each bot's last answer time), the progress bar with the
    running score; None when stderr is no terminal, NO_COLOR is set or --quiet (the plain
    lines, as ever)."""
    if not live.wanted(quiet):
        return None
    return live.View(header_lines(run, jobs), run.games_total,
                     [run.spec.seat_title(i) for i in range(len(run.spec.game.seats))], jobs,
                     game_line=lambda game, now: running_line(run, game, now), score=score)


def header_lines(run: MatchRun, jobs: int) -> list[str]:
    """What the live view shows before the first game: the bots, the game, the games, the
    seed, the openings, the games at once, the time limits and the SPRT's bounds."""
    what = "" if run.mode == "match" else f" ({run.mode})"
    lines = [f"prototest match{what}: {run.spec.game.title or run.spec.name}"]
    lines.extend(f"  {matchmod.LETTERS[i]}: {_name(argv)}" for i, argv in enumerate(run.bots))
    games = plural(run.games_total, "game")
    if len(run.pairings) > 1:
        games += f" ({len(run.pairings)} pairings of {run.games_per_pairing})"
    openings = f"openings from {run.book}" if run.book else f"openings of {run.opening_plies} random plies"
    lines.append(f"  {games}, seed {run.seed}, {min(jobs, run.games_total)} at once; "
                 f"time: {live.limits(run.spec, run.time_scale)}")
    lines.append(f"  {openings}, each played twice, the seats swapped")
    if run.sprt_options is not None:
        o = run.sprt_options
        lines.append(f"  SPRT: elo0={o['elo0']:g} elo1={o['elo1']:g} alpha={o['alpha']:g} beta={o['beta']:g} "
                     f"({o['model']} model): the match stops once it decides")
    return lines


def running_line(run: MatchRun, game: "live.Running", now: float) -> str:
    """A game in play: its seats, its ply, each bot's last answer time, who thinks long."""
    first, second = run.names_of(game.index)
    seat = game.seat
    title = run.spec.seat_title
    line = (f"  game {game.index:>{len(str(run.games_total))}}/{run.games_total} "
            f"({first} {title(seat)}, {second} {title(1 - seat)}): ply {game.ply}")
    for letter, s in ((first, seat), (second, 1 - seat)):
        answer = game.answers[s] if s in (0, 1) else -1
        line += f", {letter} " + (f"{answer:.1f} ms" if answer >= 0 else "-")
    if game.asked_at and now - game.asked_at >= 0.5:
        thinking = first if game.asked_seat == seat else second
        line += f", {thinking} thinking for {now - game.asked_at:.1f} s"
    return line + f", {now - game.started:.0f} s"


def score_parts(run: MatchRun) -> list[tuple[str, str]]:
    """The running score as (text, style) parts: A's wins, draws and losses, the points and,
    once its interval is finite and not 0, the Elo so far (Tally.figures: pentanomial once a
    pair is complete); with more bots, the standings."""
    if run.mode != "match":
        return [(", ".join(f"{row['bot']} {row['points']:g}" for row in standings(run)), "")]
    t = run.tally
    mine, theirs = _score(t)
    parts = [("A ", ""), (f"{t.wins} W", "green" if t.wins else ""), (", ", ""),
             (f"{t.draws} D", ""), (", ", ""), (f"{t.losses} L", "red" if t.losses else ""),
             (f", A-B {mine:g}-{theirs:g}", "")]
    figures = t.figures()
    elo, error = figures.get("elo"), figures.get("elo_error")
    # shown once it has a real interval: not infinite (all won), nor +/- 0 (one pair, or all pairs alike)
    if isinstance(elo, float) and isinstance(error, float) and math.isfinite(elo) and math.isfinite(error) \
            and error > 0:
        parts.append((f", Elo {elo + 0.0:+.0f} +/- {error:.0f}", "bold"))
    return parts


def game_verdict(g: GameReport) -> str:
    """A game's verdict for the live view: fail (a FAIL finding of either bot), warn, pass."""
    if g.interrupted is not None:
        return "stop"
    severities = {f.severity for f in [*g.findings, *g.opponent_findings]}
    return "fail" if "fail" in severities else "warn" if "warn" in severities else "pass"


def write_html(run: MatchRun, path: Path) -> None:
    """--html: the summary as printed, and a board for every game with a finding of either bot."""
    from .. import htmlpage

    text = summary(run)
    title = f"prototest match: {run.spec.game.title or run.spec.name}, " + " vs ".join(
        f"{matchmod.LETTERS[i]} ({_name(argv)})" for i, argv in enumerate(run.bots))
    sections = []
    for g in run.games:
        for section in htmlpage.game_sections([g]):
            if section.view is not None:  # the moves said as A's and B's, not "the bot's" and "the opponent's"
                first, second = run.names(g)
                section.view.names = {"bot": first, "opponent": second}
            sections.append(dataclasses.replace(
                section, heading=f"Game {g.index} ({_seats(run, g)}): {section.heading.split(': ', 1)[-1]}"))
    htmlpage.write(path, htmlpage.page(title, text.splitlines()[-1], text, sections))


def _keep_transcript(run: MatchRun, game_report: GameReport, folder: Path, write_all: bool) -> None:
    """Every game's transcript with --transcripts; else those with findings of either bot.
    It starts with what `prototest replay` needs to play it again against either bot."""
    if write_all or runner.worth_keeping(game_report):
        first, second = run.names(game_report)
        name = runner.slug(f"{run.spec.name}-{game_report.index:03d}-{first}-{game_report.seat_name}-{second}")
        game_report.transcript.header[:0] = _replay_header(run, game_report, folder)
        runner.write_transcript(game_report, folder / f"{name}.txt", run.write_errors)


def _replay_header(run: MatchRun, g: GameReport, folder: Path) -> list[str]:
    """The match game's lines of its transcript (see prototest.matchgame)."""
    from ..fixtures import _registered_spec
    from ..matchgame import Side, header_lines

    pairing, local = run.where(g.index)
    first, second = run.pairings[pairing]
    seats = run.spec.game.seats
    fen, opening = run.openings.get(matchmod.pair_of(local)) or (None, [])
    sides = (Side(matchmod.LETTERS[first], seats[g.seat], list(run.bots[first]), os.getcwd()),
             Side(matchmod.LETTERS[second], seats[1 - g.seat], list(run.bots[second]), os.getcwd()))
    bundled = _registered_spec(run.spec.name) == Path(run.spec.path).resolve()
    return header_lines(folder=folder, spec=run.spec, bundled=bundled, seed=run.seed, index=g.index,
                        time_scale=run.time_scale, start_delay=run.start_delay, position=fen, opening=opening,
                        sides=sides, moves=g.moves, result=g.result, reason=g.reason,
                        opponent_forfeited=g.opponent_forfeited)


def _seats(run: MatchRun, g: GameReport) -> str:
    """Who played which seat, by the spec's seat titles as `check` names them ("A white, B black")."""
    title = run.spec.seat_title
    first, second = run.names(g)
    return f"{first} {title(g.seat)}, {second} {title(1 - g.seat)}"


def _seats_width(run: MatchRun) -> int:
    """The seats column's width: its longest entry (seat titles differ in length between games)."""
    title = run.spec.seat_title
    longest = max(len(title(i)) for i in range(len(run.spec.game.seats)))
    return max(18, 2 * (len("A ") + longest) + len(", "))


def _score(t: matchmod.Tally) -> tuple[float, float]:
    return t.wins + t.draws / 2, t.losses + t.draws / 2


def progress_line(run: MatchRun, g: GameReport) -> str:
    pairing, _ = run.where(g.index)
    first, second = (matchmod.LETTERS[i] for i in run.pairings[pairing])
    mine, theirs = _score(run.tallies[pairing])
    width = len(str(run.games_total))
    return (f"game {g.index:>{width}}/{run.games_total} ({_seats(run, g)}): {matchmod.ended(g, run.names(g))}, "
            f"{report.plural(g.plies, 'ply')}   score {first}-{second} {mine:g}-{theirs:g}")


def _name(argv: list[str]) -> str:
    return shlex.join(argv)  # as typed: a path with a space quoted


def standings(run: MatchRun) -> list[dict[str, Any]]:
    """Each bot's points, games, wins, draws and losses over all its pairings, best first."""
    rows = [{"bot": matchmod.LETTERS[i], "points": 0.0, "games": 0, "wins": 0, "draws": 0, "losses": 0}
            for i in range(len(run.bots))]
    for (first, second), t in zip(run.pairings, run.tallies):
        for bot, (w, d, l) in ((first, t.wdl), (second, (t.losses, t.draws, t.wins))):
            row = rows[bot]
            row["wins"] += w
            row["draws"] += d
            row["losses"] += l
            row["games"] += w + d + l
            row["points"] += w + d / 2
    return sorted(rows, key=lambda r: (-r["points"], r["bot"]))


def summary(run: MatchRun) -> str:
    what = "" if run.mode == "match" else f" ({run.mode})"
    lines = [f"prototest match{what}: {run.spec.game.title or run.spec.name}, {len(run.games)} of "
             f"{run.games_total} games, seed {run.seed}, "
             + (f"openings from {run.book}" if run.book else f"openings of {run.opening_plies} random plies")
             + (f", time scale {run.time_scale}" if run.time_scale != 1 else "")]
    lines.extend(f"  {matchmod.LETTERS[i]}: {_name(argv)}" for i, argv in enumerate(run.bots))
    lines.append("")
    if len(run.games) <= GAMES_SHOWN:
        width = _seats_width(run)
        lines.append(f"  {'game':>4}  {'pair':>4}  {'seats':<{width}} {'plies':>5}  how it ended")
        for g in run.games:
            lines.append(f"  {g.index:>4}  {matchmod.pair_of(run.where(g.index)[1]):>4}  {_seats(run, g):<{width}} "
                         f"{g.plies:>5}  {matchmod.ended(g, run.names(g))}"
                         + (f"  (re-checked alone after {g.rechecked})" if g.rechecked else ""))
    else:  # a long match: how the games ended, counted (the JSON has every game)
        counts: dict[str, list[int]] = {}
        for g in run.games:
            counts.setdefault(matchmod.ended(g, run.names(g)), []).append(g.index)
        lines.append(f"  how the {len(run.games)} games ended (each game in the JSON report):")
        for how, indices in sorted(counts.items(), key=lambda item: (-len(item[1]), item[0])):
            shown = report.game_ranges(indices) if len(indices) <= 12 else f"{len(indices)} games"
            lines.append(f"  {len(indices):>6}  {how}" + (f"  (games {shown})" if len(indices) <= 12 else ""))
        rechecked = [g.index for g in run.games if g.rechecked]
        if rechecked:
            lines.append(f"  re-checked alone after a timing finding: games {report.game_ranges(rechecked)}")
    for (first, second), t in zip(run.pairings, run.tallies):
        x, y = matchmod.LETTERS[first], matchmod.LETTERS[second]
        played = sum(t.wdl) + t.uncounted
        if not played:
            continue
        lines.append("")
        lines.append(f"  results for {x} against {y}: {t.wins} W, {t.draws} D, {t.losses} L"
                     + (f", {t.uncounted} without a result" if t.uncounted else "")
                     + f"; won by the opponent's forfeit: {x} {t.forfeits[1]} ({y} forfeited), "
                       f"{y} {t.forfeits[0]} ({x} forfeited)")
        title = f"Results of {x} vs {y} ({played} games, {len(t.complete_pairs())} pairs"
        sprt_result = run.sprt if run.mode == "match" else None
        if sprt_result is not None:
            title += f", SPRT {sprt_result.model} model"
        lines.append("")
        lines.append(title + "):")
        lines.extend("  " + line for line in t.report_lines(sprt_result))
        if sprt_result is not None:
            decision = {stats.H0: "H0 accepted (elo <= elo0)", stats.H1: "H1 accepted (elo >= elo1)",
                        stats.CONTINUE: "undecided"}[sprt_result.decision]
            lines.append(f"  SPRT ({sprt_result.model} model, {sprt_result.kind}): {decision}"
                         + (f"; the match stopped after {len(run.games)} games" if run.stopped_by_sprt else ""))
    if run.mode != "match":
        lines.append("")
        lines.append(f"  {'rank':>4}  {'bot':<4} {'points':>7} {'games':>6} {'W':>5} {'D':>5} {'L':>5}")
        for rank, row in enumerate(standings(run), 1):
            lines.append(f"  {rank:>4}  {row['bot']:<4} {row['points']:>7g} {row['games']:>6} {row['wins']:>5} "
                         f"{row['draws']:>5} {row['losses']:>5}")
    for i in range(len(run.bots)):
        name = matchmod.LETTERS[i]
        findings = run.findings_of(i)
        lines.append("")
        if not findings:
            lines.append(f"{name}'s findings: none")
            continue
        fails = len({f.game for f in findings if f.severity == "fail"})
        lines.append(f"{name}'s findings ({fails} game{'s' if fails != 1 else ''} with a failure):")
        lines.extend("  " + line for line in report.findings_lines(findings))
    lines.append("")
    failing = run.failing()
    if run.mode == "match":
        mine, theirs = _score(run.tally)
        score = f"A {mine:g} - B {theirs:g}"
    else:
        score = ", ".join(f"{row['bot']} {row['points']:g}" for row in standings(run))
    everyone = "both bots" if len(run.bots) == 2 else f"all {len(run.bots)} bots"
    if run.interrupted is not None:
        lines.append(f"INTERRUPTED by {run.interrupted.name}: {len(run.games)} games played; {score}")
    elif failing:
        lines.append(f"FAIL: {' and '.join(failing)} failed a check; {score}")
    else:
        lines.append(f"PASS: {everyone} passed every check; {score}")
    return "\n".join(lines)


def pgn_games(run: MatchRun) -> list:
    """Chess games as python-chess PGN games: the bots' names, the result, how it ended."""
    import chess.pgn

    from ..games import chess as chess_rules

    out = []
    rules = run_rules(run)
    for g in run.games:
        game = chess.pgn.Game()
        first, second = run.pairings[run.where(g.index)[0]]
        names = (_name(run.bots[first]), _name(run.bots[second]))
        white, black = (names[0], names[1]) if g.seat == 0 else (names[1], names[0])
        score = matchmod.score_of(g)
        white_score = None if score is None else score if g.seat == 0 else 1 - score
        result = {None: "*", 1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_score]
        termination, how = _termination(g)
        game.headers.update({"Event": "prototest match", "Site": "?", "Round": str(g.index),
                             "White": white, "Black": black, "Result": result, "Termination": termination,
                             "Ended": how})
        fen = (run.openings.get(matchmod.pair_of(run.where(g.index)[1])) or (None, []))[0]
        position = rules.parse(fen) if fen is not None else rules.initial()
        if fen is not None:
            game.setup(fen)
        node = game
        for move in g.moves:
            parsed = position._parse(move) if isinstance(position, chess_rules.ChessPosition) else None
            if parsed is None:
                break
            node = node.add_variation(parsed)
            position = position.play(move)
        out.append(game)
    return out


def _termination(g: GameReport) -> tuple[str, str]:
    """PGN's Termination (its standard words) and how the game ended, with White and Black
    for the bots ("Black won by White's forfeit: crash")."""
    first = "White" if g.seat == 0 else "Black"
    text = matchmod.ended(g, (first, "Black" if first == "White" else "White"))
    if matchmod.score_of(g) is None:
        return "unterminated", text
    if "forfeit: " in text:
        return ("time forfeit" if text.endswith(": timeout") else "rules infraction"), text
    return "normal", text


def run_rules(run: MatchRun):
    from ..spec import bind

    return bind(run.spec)[1]


def write_pgn(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(str(game) + "\n\n" for game in pgn_games(run)), encoding="utf-8")


def junit(run: MatchRun):
    """One test suite per bot, one test case per check per game it played, as `check --junit` has them."""
    import xml.etree.ElementTree as ET

    suites = ET.Element("testsuites", name="prototest")
    for bot, argv in enumerate(run.bots):
        name = matchmod.LETTERS[bot]
        suite = ET.SubElement(suites, "testsuite", name=f"prototest.match.{run.spec.name}.{name}")
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="bot", value=report._xml_text(_name(argv)))
        tests = failures = 0
        for g in run.games:
            first, second = run.names(g)
            if name not in (first, second):
                continue
            mine = g.findings if name == first else g.opponent_findings
            seat = run.spec.seat_title(g.seat if name == first else 1 - g.seat)
            for check in report.CHECKS:
                tests += 1
                case = ET.SubElement(suite, "testcase", classname=f"prototest.match.{run.spec.name}.{name}.{check}",
                                     name=f"game {g.index} ({name} as {seat}): {report.CHECK_TITLES[check]}")
                findings = [f for f in mine if f.check == check]
                fails = [f for f in findings if f.severity == "fail"]
                if fails:
                    failures += 1
                    failure = ET.SubElement(case, "failure", type=fails[0].kind,
                                            message=report._xml_text(fails[0].message))
                    failure.text = report._xml_text("\n".join(line for f in fails for line in report._finding_lines(f)))
                warns = [f for f in findings if f.severity == "warn"]
                if warns:
                    out = ET.SubElement(case, "system-out")
                    out.text = report._xml_text("\n".join(line for f in warns for line in report._finding_lines(f)))
        suite.set("tests", str(tests))
        suite.set("failures", str(failures))
        suite.set("errors", "1" if run.interrupted is not None else "0")
    ET.indent(suites)
    return ET.ElementTree(suites)


def _opening_json(opening: tuple[str | None, list[str]] | None) -> dict[str, Any] | None:
    return None if opening is None else {"fen": opening[0], "moves": opening[1]}


def _statistics(t: matchmod.Tally, sprt_result: stats.Sprt | None, stopped: bool) -> dict[str, Any]:
    return {
        "wdl": list(t.wdl), "pentanomial": list(t.pentanomial()), "pairs": len(t.complete_pairs()),
        **t.figures(), "lines": t.report_lines(sprt_result),
        "sprt": None if sprt_result is None else {
            "llr": sprt_result.llr, "lower": sprt_result.lower, "upper": sprt_result.upper,
            "decision": sprt_result.decision, "model": sprt_result.model, "kind": sprt_result.kind,
            "elo0": sprt_result.elo0, "elo1": sprt_result.elo1, "alpha": sprt_result.alpha,
            "beta": sprt_result.beta, "stopped_the_match": stopped},
    }


def _results(t: matchmod.Tally, first: str, second: str) -> dict[str, Any]:
    return {"wins": t.wins, "draws": t.draws, "losses": t.losses, "without_result": t.uncounted,
            "forfeited_by": {first: t.forfeits[0], second: t.forfeits[1]}}


def to_json(run: MatchRun) -> dict[str, Any]:
    """The run as data. A game's `scores` and a pairing's `results` (wins, draws, losses) are
    from the side of the pairing's first bot; with two bots, `results` and `statistics` are
    also given at the top level."""
    seats = run.spec.game.seats
    games = []
    for g in run.games:
        first, second = run.names(g)
        score = matchmod.score_of(g)
        games.append({
            "game": g.index, "pairing": [first, second], "pair": matchmod.pair_of(run.where(g.index)[1]),
            "opening": _opening_json(run.openings.get(matchmod.pair_of(run.where(g.index)[1]))),
            "seats": {first: seats[g.seat], second: seats[1 - g.seat]}, "result": g.result, "reason": g.reason,
            "scores": None if score is None else {first: score, second: 1 - score},
            "ended": matchmod.ended(g, (first, second)), "plies": g.plies, "moves": g.moves,
            "transcript": g.transcript_path, "rechecked_alone": g.rechecked,
            "findings": {first: [f.to_json() for f in g.findings],
                         second: [f.to_json() for f in g.opponent_findings]}})
    pairings = []
    for (i, j), t in zip(run.pairings, run.tallies):
        x, y = matchmod.LETTERS[i], matchmod.LETTERS[j]
        sprt_result = run.sprt if run.mode == "match" else None
        pairings.append({"bots": [x, y], "results": _results(t, x, y),
                         "statistics": _statistics(t, sprt_result, run.stopped_by_sprt)})
    data: dict[str, Any] = {
        "command": "match",
        "mode": run.mode,
        "game": run.spec.name,
        "spec": run.spec.path,
        "bots": {matchmod.LETTERS[i]: argv for i, argv in enumerate(run.bots)},
        "seed": run.seed,
        "time_scale": run.time_scale,
        "games_total": run.games_total,
        "games_per_pairing": run.games_per_pairing,
        "opening_plies": run.opening_plies,
        "openings_book": run.book,
        "passed": not run.failed and run.interrupted is None,
        "failing": run.failing(),
        "interrupted": run.interrupted.name if run.interrupted is not None else None,
        "games": games,
        "pairings": pairings,
        "standings": standings(run),
        "findings": {matchmod.LETTERS[i]: [f.to_json() for f in run.findings_of(i)] for i in range(len(run.bots))},
    }
    if run.mode == "match":
        data["results"] = pairings[0]["results"]
        data["statistics"] = pairings[0]["statistics"]
    return data


def write_junit(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    junit(run).write(path, encoding="utf-8", xml_declaration=True)


def write_json(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")
