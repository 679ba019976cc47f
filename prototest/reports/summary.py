"""The readable summaries of check and match (and of merged shards): the text printed at the
end of a run, and the line each game prints as it ends. fuzz's is prototest.reports.fuzzsummary."""

from __future__ import annotations

from typing import Any, Sequence

from ..judge.findings import CHECK_TITLES, CHECKS, TIMING_KINDS
from ..judge.game import CheckRun, GameReport, Stop
from ..play import match as matchmod, stats
from ..play.match import MatchRun, bot_name
from . import matchshards
from .figures import file_watch_missing, game_checks, resources, startup_label, timing
from .text import (SHOWN_IN_FULL, data_finding_lines, envelope_line, findings_lines, game_ranges, millis, plural,
                   resources_line)


def verdict(game: GameReport) -> str:
    if game.failed:
        return "FAIL"
    if game.interrupted is not None or game.usage_error is not None:
        return "STOP"
    return "WARN" if game.warned else "pass"


def game_line(game: GameReport) -> str:
    """One game in a line: its result and length, and the kinds of its findings."""
    result = game.result + (f" ({game.reason})" if game.reason else "")
    kinds = ", ".join(sorted({f"{f.severity} {f.kind}" for f in game.findings}))
    return f"{result}, {plural(game.plies, 'ply')}" + (f"  [{kinds}]" if kinds else "")


def progress_line(game: GameReport, total: int, spec=None) -> str:
    """A game's line as it ends; with the spec, its seat as the text names it ("as white")."""
    seat = spec.seat_title(game.seat_name) if spec is not None else game.seat_name
    line = f"game {game.index:>{len(str(total))}}/{total} as {seat}: {verdict(game):4}  {game_line(game)}"
    return line + (f"  (opponent: {game.opponent})" if game.opponent else "")


def summary(run: CheckRun, findings_first: bool = False) -> str:
    """The run's summary; `findings_first` (the live view on a terminal): the findings
    come first, and the check table and the verdict last, where the eye lands."""
    lines = [f"prototest check: {run.spec.game.title or run.spec.name}, bot {' '.join(run.argv)}, "
             f"{plural(len(run.games), 'game')}" + (f" of {run.games_total}" if run.skipped else "") + f", seed {run.seed}"
             + (f", time scale {run.time_scale}" if run.time_scale != 1 else "")]
    lines.extend(_context_lines(run))
    lines.append("")
    lines.append(f"  {'check':<40} {'pass':>5} {'warn':>5} {'fail':>5}")
    per_game = [game_checks(g) for g in run.games]
    for check in CHECKS:
        counts = {v: sum(1 for c in per_game if c[check] == v) for v in ("pass", "warn", "fail")}
        lines.append(f"  {CHECK_TITLES[check]:<40} {counts['pass']:>5} {counts['warn']:>5} {counts['fail']:>5}")
    t = timing(run.games)
    lines.append("")
    lines.append(f"  timing: {startup_label(run.spec)} {millis(t['startup_ms_max'])} (slowest), answers: "
                 f"median {millis(t['median_ms'])}, p95 {millis(t['p95_ms'])}, max {millis(t['max_ms'])} over "
                 f"{plural(t['answers'], 'answer')}")
    res = resources(run.games)
    for line in (resources_line(res), envelope_line(res)):
        if line:
            lines.append(line)
    results = {}
    for g in run.games:
        results[g.result] = results.get(g.result, 0) + 1
    lines.append("  results: " + ", ".join(f"{n} {r}" for r, n in sorted(results.items())))
    rechecked = [g for g in run.games if g.rechecked]
    for g in rechecked[:SHOWN_IN_FULL]:
        alone = "the same alone" if _timing_finding(g) else "none alone: this game stands as played alone"
        lines.append(f"  re-checked alone: game {g.index} had a timing finding ({g.rechecked}) while "
                     f"{g.rechecked_while}; {alone}")
    if len(rechecked) > SHOWN_IN_FULL:  # many games (check's default is 24) of a bot that is slow in each
        more = rechecked[SHOWN_IN_FULL:]
        same = sum(1 for g in more if _timing_finding(g))
        lines.append(f"  re-checked alone: {len(more)} more games had a timing finding while other games ran at "
                     f"once ({game_ranges([g.index for g in more])}); the same alone in {same}, none alone in "
                     f"{len(more) - same}")
    lines.extend(not_rechecked_lines(run.games))
    if run.shard:
        lines.append(f"  shard {run.shard}: games {', '.join(str(g.index) for g in run.games) or 'none'} "
                     f"of {run.games_total}; prototest merge joins the shards' JSON reports")
    table_end = len(lines)
    findings = [f for g in run.games for f in g.findings]
    if findings:
        lines.append("")
        lines.extend(findings_lines(findings))
    theirs = [f for g in run.games for f in g.opponent_findings]
    if theirs:  # check --opponent: the other bot's faults, never the bot's
        forfeits = sum(1 for g in run.games if g.opponent_forfeited is not None)
        lines.append("")
        lines.append(f"the opponent's findings (the opponent bot's, not the bot's; {forfeits} game"
                     f"{'s' if forfeits != 1 else ''} won by its forfeit):")
        lines.extend("  " + line for line in findings_lines(theirs))
    if findings_first and len(lines) > table_end:
        lines = lines[table_end + 1:] + [""] + lines[:table_end]
    lines.append("")
    fails = sum(1 for g in run.games if g.failed)
    warns = sum(1 for g in run.games if g.warned and not g.failed)
    if run.interrupted is not None:
        done = sum(1 for g in run.games if g.interrupted is None)
        lines.append(f"INTERRUPTED by {run.interrupted.name}: {plural(done, 'game')} complete"
                     + (f", {fails} failed" if fails else "") + "; no verdict on the rest")
    elif run.hints:
        lines.append(other_game_verdict(run.spec.name))
    elif fails:
        lines.append(f"FAIL: {fails} of {plural(len(run.games), 'game')} failed" + _per_seat(run.games, lambda g: g.failed, run.spec)
                     + not_played_clause(run))
    elif run.usage_errors:
        lines.append(f"ERROR: {len(run.usage_errors)} of {plural(len(run.games), 'game')} stopped at an --opponent-moves move "
                     f"that is not legal there (the error below); no verdict on the rest of "
                     f"{'that game' if len(run.usage_errors) == 1 else 'those games'}")
    elif warns:
        lines.append(f"PASS with warnings: {warns} of {plural(len(run.games), 'game')} warned"
                     + _per_seat(run.games, lambda g: g.warned, run.spec))
    else:
        lines.append(f"PASS: {plural(len(run.games), 'game')}" + _per_seat(run.games, spec=run.spec))
    return "\n".join(lines)


def other_game_verdict(game: str) -> str:
    """The last line when no game was chosen and the bot seems to play another one (a
    hint): no verdict on the bot, which was not played its own game."""
    return (f"ERROR: no verdict: the bot seems to play another game than {game}, the default (the hint "
            f"above says which); choose its game and run again")


def _timing_finding(game: GameReport) -> bool:
    return any(f.kind in TIMING_KINDS for f in game.findings)


def _per_seat(games: Sequence[GameReport], counted=None, spec=None) -> str:
    """' (3 of 12 as black, 2 of 12 as white)', or with no `counted` ' (12 as black, 12 as
    white)': a fault of one seat shows at a glance; '' when the games were all in one seat.
    With the spec, the seats as the text names them (Spec.seat_title)."""
    seats: dict[str, list[GameReport]] = {}
    for g in games:
        seats.setdefault(spec.seat_title(g.seat_name) if spec is not None else g.seat_name, []).append(g)
    if len(seats) < 2:
        return ""
    if counted is None:
        return " (" + ", ".join(f"{len(gs)} as {seat}" for seat, gs in seats.items()) + ")"
    return " (" + ", ".join(f"{sum(1 for g in gs if counted(g))} of {len(gs)} as {seat}"
                            for seat, gs in seats.items()) + ")"


def _context_lines(run: CheckRun) -> list[str]:
    """Where the settings came from, and what the games suggest about the game itself."""
    lines = []
    if run.config:
        lines.append(f"  config: {run.config}")
    if run.game_source == "default":
        lines.append(f"  game: {run.spec.name}, the default: no --game, --spec or config file chose one "
                     f"(prototest games lists the others)")
    lines.extend(f"  hint: {hint}" for hint in run.hints)
    missing = file_watch_missing(run)
    if missing:
        lines.append(f"  note: the bot's file operations were not watched ({missing}): a file it writes "
                     f"goes unreported")
    if run.skipped and not any(stop.why == "max_fail" for stop in run.stops):
        more = f"{run.skipped} more game" + ("s" if run.skipped > 1 else "")
        lines.append(f"  not played: {more} (the bot seems to speak another protocol; choose its game "
                     f"and run again)")
    elif run.skipped:
        lines.extend(not_played_lines(run))
    return lines


def _stop_words(stop: Stop) -> str:
    """'2 games had failed with timeout (games 1, 2)'."""
    return (f"{plural(len(stop.games), 'game')} had failed with {stop.kind}: "
            f"{'game' if len(stop.games) == 1 else 'games'} {game_ranges(stop.games)}")


def not_played_lines(run: CheckRun) -> list[str]:
    """How many games the fail-fast rule left unplayed, which, and why; the games in play
    then (stopped, their bots killed) or ended after it, and not counted."""
    stops = [s for s in run.stops if s.why == "max_fail"]
    numbers = [n.index for n in run.not_played]
    if len(stops) == 1 and stops[0].shard is None:
        why = f"the run stopped once {_stop_words(stops[0])}"
    else:
        why = "; ".join(f"shard {s.shard} stopped once {_stop_words(s)}" for s in stops)
    limit = stops[0].max_fail if stops else run.max_fail
    lines = [f"  not played: {plural(len(numbers), 'game')} ({game_ranges(numbers)}): {why} "
             f"(--max-fail {limit}; --max-fail 0 plays every game)"]
    for how, words in (("stopped", "in play when the run stopped: stopped, {its} bot killed"),
                       ("ended", "ended after the game that stopped the run")):
        begun = [n.index for n in run.not_played if n.begun == how]
        if begun:
            its = "its" if len(begun) == 1 else "their"
            lines.append(f"  not counted: {'game' if len(begun) == 1 else 'games'} {game_ranges(begun)} "
                         f"{'was' if len(begun) == 1 else 'were'} {words.format(its=its)} (the games kept are the "
                         f"same whatever --jobs is)")
    return lines


def not_played_clause(run: CheckRun) -> str:
    """The verdict line's words on the games the fail-fast rule did not play ('' if none)."""
    stops = [s for s in run.stops if s.why == "max_fail"]
    if not run.skipped or not stops:
        return ""
    limit = stops[0].max_fail
    if len(stops) == 1 and stops[0].shard is None:
        why = f"stopped after {plural(len(stops[0].games), 'game')} failed with {stops[0].kind}"
    else:
        why = "each shard that stopped did so after " + plural(limit, "game") + " failed the same way"
    planned = len(run.games) + run.skipped
    of = f"this shard's {planned} games" if run.shard else plural(run.games_total or planned, "game")
    return f"; {run.skipped} of {of} not played: {why} (--max-fail {limit})"


def not_rechecked_lines(games: Sequence[GameReport]) -> list[str]:
    """The games whose timing failure, while other games ran, stands without a re-check
    alone, and why (the bot was asleep; or the run stopped on the game)."""
    skipped = [g for g in games if g.recheck_skipped]
    lines = [f"  not re-checked alone: game {g.index}: {g.recheck_skipped}" for g in skipped[:SHOWN_IN_FULL]]
    more = skipped[SHOWN_IN_FULL:]
    asleep = [g.index for g in more if "asleep" in (g.recheck_skipped or "")]
    if asleep:
        lines.append(f"  not re-checked alone: {plural(len(asleep), 'more game')} ({game_ranges(asleep)}): its "
                     f"timeout came while the bot was asleep by its own doing, as above")
    others = [g for g in more if g.index not in asleep]
    lines.extend(f"  not re-checked alone: game {g.index}: {g.recheck_skipped}" for g in others)
    return lines


def not_played_message(run: CheckRun, game) -> str:
    """Why one game was not played (a JUnit skipped test case's message)."""
    stop = next((s for s in run.stops if s.shard is None or s.shard == _shard_of(run, game.index)), None)
    if stop is None or stop.why == "other_game":
        why = "the bot seems to speak another protocol; choose its game and run again"
    else:
        why = (f"the {'run' if stop.shard is None else 'shard ' + stop.shard} stopped once {_stop_words(stop)} "
               f"(--max-fail {stop.max_fail}; --max-fail 0 plays every game)")
    begun = {"stopped": "; it was in play then: stopped, its bot killed, not counted",
             "ended": "; it ended after the game that stopped the run: not counted"}.get(game.begun, "")
    return f"not played: {why}{begun}"


def _shard_of(run: CheckRun, index: int) -> str | None:
    """The shard ("2/4") that game `index` belongs to, from the run's stops' shards."""
    for stop in run.stops:
        if stop.shard is not None:
            i, n = (int(x) for x in stop.shard.split("/"))
            if (index - 1) % n == i - 1:
                return stop.shard
    return None


def merged_summary(command: str, data: dict[str, Any], shards: int) -> str:
    """The readable verdict of merged replay, record --update or fuzz shards."""
    lines = []
    if command == "fuzz":
        lines.append(f"prototest fuzz: {data['game']}, bot {' '.join(data['bot'])}, seed {data['seed']}, "
                     f"{shards} shards merged: {data['examples']} examples, {data['runs']} runs")
        for shard in data["shards"]:
            lines.append(f"  shard {shard['shard']}: {shard['examples']} examples, "
                         f"{'passed' if shard['passed'] else 'FAILED'} ({shard['ended']})")
        res = data.get("resources")
        if res and "cpu_median_ms" in res:
            for line in (resources_line(res), envelope_line(res)):
                if line:
                    lines.append(line.replace("median", "median of the shards' medians"))
        for f in data["findings"]:
            lines.append("")
            lines.extend(data_finding_lines(f))
        lines.append("")
        fails = sum(1 for f in data["findings"] if f["severity"] == "fail")
        if data.get("interrupted"):
            lines.append(f"INTERRUPTED by {data['interrupted']}: no verdict on the rest")
        elif not data["passed"]:
            lines.append(f"FAIL: {fails} failure{'s' if fails != 1 else ''} in {data['examples']} examples")
        else:
            lines.append(f"PASS: {data['examples']} examples" + (" with warnings" if data["findings"] else ""))
        return "\n".join(lines)
    done = "replayed" if command == "replay" else "regenerated"
    lines.append(f"prototest {command}: {shards} shards merged: {len(data['fixtures'])} of "
                 f"{data['fixtures_total']} fixtures")
    for entry in data["fixtures"]:
        lines.append(f"{entry['fixture']}: {entry['verdict']} ({entry['game']})")
        lines.extend(f"  {line}" for line in entry.get("lines", []))
    lines.extend(f"prototest: error: {line}" for line in data.get("errors", []))
    total = f"{len(data['fixtures'])} fixture" + ("" if len(data["fixtures"]) == 1 else "s")
    if data.get("interrupted"):
        lines.append(f"INTERRUPTED by {data['interrupted']}")
    elif data["failed"]:
        lines.append(f"FAIL: {data['failed']} of {total} failed")
    elif data.get("errors"):
        lines.append(f"ERROR: {len(data['errors'])} of {total} not {done}")
    else:
        lines.append(f"PASS: {total} {done}")
    return "\n".join(lines)


# -- prototest match ---------------------------------------------------------------------------

#: Matches of up to this many games list every game in the summary; longer ones count how they ended.
GAMES_SHOWN = 40


def match_summary(run: MatchRun) -> str:
    """match's summary: the bots, every game (or how the games ended, counted), each
    pairing's results and statistics, the standings, each bot's findings, the verdict."""
    what = "" if run.mode == "match" else f" ({run.mode})"
    lines = [f"prototest match{what}: {run.spec.game.title or run.spec.name}, {len(run.games)} of "
             f"{run.games_total} games, seed {run.seed}, "
             + (f"openings from {run.book}" if run.book else f"openings of {run.opening_plies} random plies")
             + (f", time scale {run.time_scale}" if run.time_scale != 1 else "")]
    lines.extend(f"  {matchmod.LETTERS[i]}: {bot_name(argv)}" for i, argv in enumerate(run.bots))
    lines.extend(matchshards.head_lines(run))
    lines.append("")
    if len(run.games) <= GAMES_SHOWN:
        width = match_seats_width(run)
        lines.append(f"  {'game':>4}  {'pair':>4}  {'seats':<{width}} {'plies':>5}  how it ended")
        for g in run.games:
            lines.append(f"  {g.index:>4}  {matchmod.pair_of(run.where(g.index)[1]):>4}  {match_seats(run, g):<{width}} "
                         f"{g.plies:>5}  {matchmod.ended(g, run.names(g))}"
                         + (f"  (re-checked alone after {g.rechecked})" if g.rechecked else ""))
    else:  # a long match: how the games ended, counted (the JSON has every game)
        counts: dict[str, list[int]] = {}
        for g in run.games:
            counts.setdefault(matchmod.ended(g, run.names(g)), []).append(g.index)
        lines.append(f"  how the {len(run.games)} games ended (each game in the JSON report):")
        for how, indices in sorted(counts.items(), key=lambda item: (-len(item[1]), item[0])):
            shown = game_ranges(indices) if len(indices) <= 12 else f"{len(indices)} games"
            lines.append(f"  {len(indices):>6}  {how}" + (f"  (games {shown})" if len(indices) <= 12 else ""))
        rechecked = [g.index for g in run.games if g.rechecked]
        if rechecked:
            lines.append(f"  re-checked alone after a timing finding: games {game_ranges(rechecked)}")
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
        whose = "this shard's " if run.shard else ""
        title = f"Results of {x} vs {y} ({whose}{played} games, {len(t.complete_pairs())} pairs"
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
    lines.extend(matchshards.tally_lines(run))
    if run.mode != "match":
        lines.append("")
        lines.append(f"  {'rank':>4}  {'bot':<4} {'points':>7} {'games':>6} {'W':>5} {'D':>5} {'L':>5}")
        for rank, row in enumerate(run.standings(), 1):
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
        lines.extend("  " + line for line in findings_lines(findings))
    lines.append("")
    failing = run.failing()
    if run.mode == "match":
        mine, theirs = points(run.tally)
        score = f"A {mine:g} - B {theirs:g}"
    else:
        score = ", ".join(f"{row['bot']} {row['points']:g}" for row in run.standings())
    everyone = "both bots" if len(run.bots) == 2 else f"all {len(run.bots)} bots"
    if run.interrupted is not None:
        lines.append(f"INTERRUPTED by {run.interrupted.name}: {len(run.games)} games played; {score}")
    elif failing:
        lines.append(f"FAIL: {' and '.join(failing)} failed a check; {score}")
    else:
        lines.append(f"PASS: {everyone} passed every check; {score}")
    return "\n".join(lines)


def match_progress_line(run: MatchRun, g: GameReport) -> str:
    """A match game's line as it ends: its seats, how it ended, its length, the score so far."""
    pairing, _ = run.where(g.index)
    first, second = (matchmod.LETTERS[i] for i in run.pairings[pairing])
    mine, theirs = points(run.tallies[pairing])
    width = len(str(run.games_total))
    return (f"game {g.index:>{width}}/{run.games_total} ({match_seats(run, g)}): {matchmod.ended(g, run.names(g))}, "
            f"{plural(g.plies, 'ply')}   score {first}-{second} {mine:g}-{theirs:g}")


def match_seats(run: MatchRun, g: GameReport) -> str:
    """Who played which seat, by the spec's seat titles as `check` names them ("A white, B black")."""
    title = run.spec.seat_title
    first, second = run.names(g)
    return f"{first} {title(g.seat)}, {second} {title(1 - g.seat)}"


def match_seats_width(run: MatchRun) -> int:
    """The seats column's width: its longest entry (seat titles differ in length between games)."""
    title = run.spec.seat_title
    longest = max(len(title(i)) for i in range(len(run.spec.game.seats)))
    return max(18, 2 * (len("A ") + longest) + len(", "))


def points(t: matchmod.Tally) -> tuple[float, float]:
    """The points of a pairing's first bot and of its second (a draw is half a point each)."""
    return t.wins + t.draws / 2, t.losses + t.draws / 2
