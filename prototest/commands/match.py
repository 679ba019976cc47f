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

import json
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from .. import match as matchmod, pool, process, report, runner, stats
from ..findings import TIMING_KINDS
from ..game import GameConfig, GameReport
from ..spec import Spec
from .check import opponent_command
from .common import check_output, check_time_scale, load_settings, resolve_settings
from .exits import UsageProblem, conclude

#: Games when --games is not given: 5 pairs.
DEFAULT_GAMES = 10
#: Opening plies when --openings-plies is not given, for a protocol that sends the position.
DEFAULT_OPENING_PLIES = 4


@dataclass
class MatchRun:
    spec: Spec
    bots: tuple[list[str], list[str]]
    seed: int
    time_scale: float
    games_total: int
    opening_plies: int
    sprt_options: dict[str, Any] | None = None
    games: list[GameReport] = field(default_factory=list)
    openings: dict[int, list[str]] = field(default_factory=dict)
    tally: matchmod.Tally = field(default_factory=matchmod.Tally)
    sprt: stats.Sprt | None = None
    stopped_by_sprt: bool = False
    interrupted: signal.Signals | None = None
    write_errors: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """A bot failed a check (a FAIL finding of either)."""
        return any(f.severity == "fail" for g in self.games for f in [*g.findings, *g.opponent_findings])


def execute(*, bots: list[str], game: str | None, spec_path: Path | None, games: int, seed: int | None,
            time_scale: float | None, start_delay: int | None, json_path: Path | None, pgn_path: Path | None,
            junit_path: Path | None, transcripts: Path | None, overrides: list[str],
            env_pairs: list[str], jobs: int | None, opening_plies: int | None, sprt: str | None, quiet: bool,
            config_path: Path | None, no_config: bool) -> None:
    if len(bots) != 2:
        raise UsageProblem(f"match takes two bots, BOT_A and BOT_B, each one command line "
                           f"('python3 bot.py'), not {len(bots)}")
    s = resolve_settings(None, game, spec_path, games, seed, time_scale, overrides, env_pairs, config_path, no_config)
    check_time_scale(s.time_scale)
    spec, module, rules = load_settings(s)
    env = process.controlled_env(s.env)
    argv_a = opponent_command(bots[0], env, "BOT_A")
    argv_b = opponent_command(bots[1], env, "BOT_B")
    assert argv_a is not None and argv_b is not None
    if len(spec.game.seats) != 2:
        raise UsageProblem(f"match: {spec.name} has {len(spec.game.seats)} seats; a match takes two")
    count = s.games or DEFAULT_GAMES
    if count % 2:
        raise UsageProblem(f"--games {count}: a match plays pairs (each opening with the seats swapped): "
                           f"give an even number")
    if opening_plies is None:
        opening_plies = DEFAULT_OPENING_PLIES if spec.sends_position else 0
    elif opening_plies and not spec.sends_position:
        raise UsageProblem(f"--openings-plies {opening_plies}: the {spec.name} protocol never sends the position, "
                           f"so a bot could not know the opening (give 0)")
    sprt_options = None
    if sprt is not None:
        try:
            sprt_options = matchmod.parse_sprt(sprt)
        except ValueError as exc:
            raise UsageProblem(f"--sprt {sprt!r}: {exc}") from None
    for option, path in (("--json", json_path), ("--junit", junit_path)):
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

    run = MatchRun(spec, (argv_a, argv_b), s.seed, s.time_scale, count, opening_plies, sprt_options)

    def config(index: int) -> GameConfig:
        pair = matchmod.pair_of(index)
        moves = run.openings.setdefault(pair, matchmod.opening(rules, opening_plies, s.seed, pair))
        return GameConfig(spec=spec, rules=rules, rules_module=module, argv=argv_a, seat=matchmod.a_seat(index),
                          seed=runner.game_seed(s.seed, index), index=index, time_scale=s.time_scale, env=env,
                          start_delay_ms=start_delay,
                          start_moves=moves, opponent_argv=argv_b, opponent_cwd=os.getcwd(), opponent_label="opponent")

    tasks = [config(i) for i in range(1, count + 1)]

    def again(game_report: GameReport) -> bool:  # a timing finding of either bot beside other games: alone again
        return any(f.kind in TIMING_KINDS for f in [*game_report.findings, *game_report.opponent_findings])

    def done(position: int, game_report: GameReport, first: GameReport | None) -> bool:
        if first is not None:
            game_report.rechecked = runner.first_timing(first) if runner.timing_bound(first) else "a timing finding"
        run.games.append(game_report)
        run.tally.add(game_report)
        if game_report.interrupted is not None:
            run.interrupted = signal.Signals(game_report.interrupted)
        _keep_transcript(run, game_report, folder, transcripts is not None)
        if not quiet:
            typer.echo(progress_line(run, game_report), err=True)
        if run.interrupted is not None:
            return True
        if sprt_options is not None:
            run.sprt = run.tally.sprt(sprt_options)
            if run.sprt is not None and run.sprt.decision != stats.CONTINUE:
                run.stopped_by_sprt = True
                return True
        return False

    try:
        pool.play_all(tasks, runner.play_game, jobs or pool.default_jobs(), done, again=again)
    except KeyboardInterrupt as exc:
        run.interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    run.games.sort(key=lambda g: g.index)
    if sprt_options is not None:
        run.sprt = run.tally.sprt(sprt_options)
    conclude(run, [("--json", json_path, write_json), ("--junit", junit_path, write_junit),
                  ("--pgn", pgn_path, write_pgn)], summary, quiet, f"after {len(run.games)} of {count} games")


def _keep_transcript(run: MatchRun, game_report: GameReport, folder: Path, write_all: bool) -> None:
    """Every game's transcript with --transcripts; else those with findings of either bot."""
    if not (write_all or game_report.findings or game_report.opponent_findings or game_report.interrupted):
        return
    name = f"{run.spec.name}-{game_report.index:03d}-A-{game_report.seat_name}.txt"
    try:
        path = game_report.transcript.write(folder / name)
    except OSError as exc:
        run.write_errors.append(f"--transcripts {folder / name}: cannot write: {exc.strerror or exc}")
        return
    game_report.transcript_path = str(path)
    for finding in [*game_report.findings, *game_report.opponent_findings]:
        finding.transcript = str(path)


def _seats(run: MatchRun, game_report: GameReport) -> str:
    seats = run.spec.game.seats
    return f"A {seats[game_report.seat]}, B {seats[1 - game_report.seat]}"


def progress_line(run: MatchRun, g: GameReport) -> str:
    t = run.tally
    width = len(str(run.games_total))
    return (f"game {g.index:>{width}}/{run.games_total} ({_seats(run, g)}): {matchmod.ended(g, run.spec.game.seats)}, "
            f"{g.plies} plies   score A-B {t.wins + t.draws / 2:g}-{t.losses + t.draws / 2:g}")


def _name(argv: list[str]) -> str:
    return " ".join(argv)


def summary(run: MatchRun) -> str:
    t = run.tally
    lines = [f"prototest match: {run.spec.game.title or run.spec.name}, {len(run.games)} of {run.games_total} games, "
             f"seed {run.seed}, openings of {run.opening_plies} random plies"
             + (f", time scale {run.time_scale}" if run.time_scale != 1 else ""),
             f"  A: {_name(run.bots[0])}", f"  B: {_name(run.bots[1])}", ""]
    lines.append(f"  {'game':>4}  {'pair':>4}  {'seats':<18} {'plies':>5}  how it ended")
    for g in run.games:
        lines.append(f"  {g.index:>4}  {matchmod.pair_of(g.index):>4}  {_seats(run, g):<18} {g.plies:>5}  "
                     f"{matchmod.ended(g, run.spec.game.seats)}"
                     + (f"  (re-checked alone after {g.rechecked})" if g.rechecked else ""))
    lines.append("")
    lines.append(f"  results for A: {t.wins} W, {t.draws} D, {t.losses} L"
                 + (f", {t.uncounted} without a result" if t.uncounted else "")
                 + f"; won by the opponent's forfeit: A {t.forfeits[1]} (B forfeited), B {t.forfeits[0]} (A forfeited)")
    lines.append("")
    title = f"Results of A vs B ({len(run.games)} games, {len(t.complete_pairs())} pairs"
    if run.sprt is not None:
        title += f", SPRT {run.sprt.model} model"
    lines.append(title + "):")
    lines.extend("  " + line for line in t.report_lines(run.sprt))
    if run.sprt is not None:
        decision = {stats.H0: "H0 accepted (elo <= elo0)", stats.H1: "H1 accepted (elo >= elo1)",
                    stats.CONTINUE: "undecided"}[run.sprt.decision]
        lines.append(f"  SPRT ({run.sprt.model} model, {run.sprt.kind}): {decision}"
                     + (f"; the match stopped after {len(run.games)} games" if run.stopped_by_sprt else ""))
    for name, key in (("A", "findings"), ("B", "opponent_findings")):
        findings = [f for g in run.games for f in getattr(g, key)]
        lines.append("")
        if not findings:
            lines.append(f"{name}'s findings: none")
            continue
        fails = sum(1 for g in run.games if any(f.severity == "fail" for f in getattr(g, key)))
        lines.append(f"{name}'s findings ({fails} game{'s' if fails != 1 else ''} with a failure):")
        lines.extend("  " + line for line in report.findings_lines(findings))
    lines.append("")
    failing = [n for n, key in (("A", "findings"), ("B", "opponent_findings"))
               if any(f.severity == "fail" for g in run.games for f in getattr(g, key))]
    score = f"A {t.wins + t.draws / 2:g} - B {t.losses + t.draws / 2:g}"
    if run.interrupted is not None:
        lines.append(f"INTERRUPTED by {run.interrupted.name}: {len(run.games)} games played; {score}")
    elif failing:
        lines.append(f"FAIL: {' and '.join(failing)} failed a check; {score}")
    else:
        lines.append(f"PASS: both bots passed every check; {score}")
    return "\n".join(lines)


def to_json(run: MatchRun) -> dict[str, Any]:
    t = run.tally
    seats = run.spec.game.seats
    return {
        "command": "match",
        "game": run.spec.name,
        "spec": run.spec.path,
        "bots": {"A": run.bots[0], "B": run.bots[1]},
        "seed": run.seed,
        "time_scale": run.time_scale,
        "games_total": run.games_total,
        "opening_plies": run.opening_plies,
        "passed": not run.failed and run.interrupted is None,
        "interrupted": run.interrupted.name if run.interrupted is not None else None,
        "games": [
            {"game": g.index, "pair": matchmod.pair_of(g.index), "opening": run.openings.get(matchmod.pair_of(g.index)),
             "seats": {"A": seats[g.seat], "B": seats[1 - g.seat]}, "result": g.result, "reason": g.reason,
             "score_a": matchmod.score_of(g), "ended": matchmod.ended(g, seats), "plies": g.plies, "moves": g.moves,
             "transcript": g.transcript_path, "rechecked_alone": g.rechecked,
             "findings": {"A": [f.to_json() for f in g.findings], "B": [f.to_json() for f in g.opponent_findings]}}
            for g in run.games
        ],
        "results": {"wins": t.wins, "draws": t.draws, "losses": t.losses, "without_result": t.uncounted,
                    "forfeited_by": {"A": t.forfeits[0], "B": t.forfeits[1]}},
        "findings": {"A": [f.to_json() for g in run.games for f in g.findings],
                     "B": [f.to_json() for g in run.games for f in g.opponent_findings]},
        "statistics": {
            "wdl": list(t.wdl), "pentanomial": list(t.pentanomial()), "pairs": len(t.complete_pairs()),
            **t.figures(), "lines": t.report_lines(run.sprt),
            "sprt": None if run.sprt is None else {
                "llr": run.sprt.llr, "lower": run.sprt.lower, "upper": run.sprt.upper,
                "decision": run.sprt.decision, "model": run.sprt.model, "kind": run.sprt.kind,
                "elo0": run.sprt.elo0, "elo1": run.sprt.elo1, "alpha": run.sprt.alpha, "beta": run.sprt.beta,
                "stopped_the_match": run.stopped_by_sprt},
        },
    }


def pgn_games(run: MatchRun) -> list:
    """Chess games as python-chess PGN games: the bots' names, the result, how it ended."""
    import chess.pgn

    from ..games import chess as chess_rules

    out = []
    names = (_name(run.bots[0]), _name(run.bots[1]))
    for g in run.games:
        game = chess.pgn.Game()
        white, black = (names[0], names[1]) if g.seat == 0 else (names[1], names[0])
        score = matchmod.score_of(g)
        white_score = None if score is None else score if g.seat == 0 else 1 - score
        result = {None: "*", 1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_score]
        termination, how = _termination(g)
        game.headers.update({"Event": "prototest match", "Site": "?", "Round": str(g.index),
                             "White": white, "Black": black, "Result": result, "Termination": termination,
                             "Ended": how})
        node, position = game, run_rules(run).initial()
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
    for A and B ("Black won by White's forfeit: crash")."""
    colour = {"A": "White" if g.seat == 0 else "Black", "B": "Black" if g.seat == 0 else "White"}
    text = matchmod.ended(g, ("", ""))
    for letter in ("A", "B"):
        text = text.replace(f"{letter} won", f"{colour[letter]} won").replace(f"{letter}'s forfeit",
                                                                             f"{colour[letter]}'s forfeit")
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
    """One test suite per bot, one test case per check per game, as `check --junit` has them."""
    import xml.etree.ElementTree as ET

    suites = ET.Element("testsuites", name="prototest")
    for name, key in (("A", "findings"), ("B", "opponent_findings")):
        suite = ET.SubElement(suites, "testsuite", name=f"prototest.match.{run.spec.name}.{name}")
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="bot", value=report._xml_text(_name(run.bots[0 if name == "A" else 1])))
        tests = failures = 0
        for g in run.games:
            seat = run.spec.game.seats[g.seat if name == "A" else 1 - g.seat]
            for check in report.CHECKS:
                tests += 1
                case = ET.SubElement(suite, "testcase", classname=f"prototest.match.{run.spec.name}.{name}.{check}",
                                     name=f"game {g.index} ({name} as {seat}): {report.CHECK_TITLES[check]}")
                findings = [f for f in getattr(g, key) if f.check == check]
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


def write_junit(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    junit(run).write(path, encoding="utf-8", xml_declaration=True)


def write_json(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")
