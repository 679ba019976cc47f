"""Reports of a check run: the readable summary, JSON, and JUnit XML for CI."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
import re
import shlex
import statistics
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from . import answertime
from .findings import CHECK_TITLES, CHECKS, TIMING_KINDS, Finding, show_moves
from .game import CheckRun, GameReport, Stop
from .interrupts import signal_name
from .transcript import show

if TYPE_CHECKING:  # a check's report never imports the fuzz machinery
    from .fuzzrun import FuzzRun


def plural(n: int, noun: str) -> str:
    """'1 game', '2 games'; '1 ply', '2 plies'."""
    if noun == "ply":
        return f"{n} {'ply' if n == 1 else 'plies'}"
    return f"{n} {noun}" + ("" if n == 1 else "s")


def timing(games: list[GameReport]) -> dict[str, float | int | None]:
    """Start-up and answer-time figures over all games, in milliseconds."""
    answers = sorted(ms for g in games for ms in g.answer_ms)
    startups = [g.startup_ms for g in games if g.startup_ms is not None]

    def pct(p: float) -> float | None:
        if not answers:
            return None
        return answers[min(len(answers) - 1, int(round(p * (len(answers) - 1))))]

    return {
        "startup_ms_max": max(startups) if startups else None,  # see startup_label
        "answers": len(answers),
        "median_ms": statistics.median(answers) if answers else None,
        "p95_ms": pct(0.95),
        "max_ms": answers[-1] if answers else None,
    }


def resources(games: list[GameReport]) -> dict[str, Any]:
    """What the bot used, over all games: peak memory, CPU time and run-queue delay per
    answer (median and max, first answers included), the time a CPU quota held it back,
    and the worst answer time the CPU-share model gave."""
    first = games[0] if games else None
    return resource_figures(
        [ms for g in games for ms in g.answer_cpu_ms], [ms for g in games for ms in g.answer_wait_ms],
        [g.peak_memory_mb for g in games if g.peak_memory_mb is not None], sum(g.throttled_ms for g in games),
        [g.share_worst_ms for g in games if g.share_worst_ms is not None],
        first.envelope if first else "", first.enforced if first else "none", first.enforced_missing if first else "")


def resource_figures(cpu: list[float], wait: list[float], peaks: list[float], throttled: float,
                     worst: list[float], envelope: str, enforced: str, missing: str) -> dict[str, Any]:
    cpu, wait = sorted(cpu), sorted(wait)
    return {
        "envelope": envelope,
        "enforced": enforced,
        "enforced_missing": missing,
        "peak_memory_mb": max(peaks) if peaks else None,
        "cpu_median_ms": statistics.median(cpu) if cpu else None,
        "cpu_max_ms": cpu[-1] if cpu else None,
        "wait_median_ms": statistics.median(wait) if wait else None,
        "wait_max_ms": wait[-1] if wait else None,
        "throttled_ms": round(throttled, 3),
        "share_worst_ms": max(worst) if worst else None,
    }


def fuzz_resources(run: FuzzRun) -> dict[str, Any]:
    return resource_figures(run.answer_cpu_ms, run.answer_wait_ms, run.peak_memory_mb, run.throttled_ms,
                            run.share_worst_ms, run.envelope, run.enforced, run.enforced_missing)


def resources_line(r: dict[str, Any]) -> str | None:
    """The resources figures in a line (None when nothing was measured)."""
    if r["cpu_median_ms"] is None and r["peak_memory_mb"] is None:
        return None
    parts = []
    if r["peak_memory_mb"] is not None:
        parts.append(f"peak memory {r['peak_memory_mb']:.0f} MB")
    if r["cpu_median_ms"] is not None:
        parts.append(f"CPU per answer median {_ms(r['cpu_median_ms'])}, max {_ms(r['cpu_max_ms'])}")
        parts.append(f"waited for a CPU (its threads together) median {_ms(r['wait_median_ms'])}, "
                     f"max {_ms(r['wait_max_ms'])}")
    if r["throttled_ms"]:
        parts.append(f"held back by the CPU quota {_ms(r['throttled_ms'])}")
    if r["share_worst_ms"] is not None:
        parts.append(f"worst answer under the CPU share {_ms(r['share_worst_ms'])}")
    return "  resources: " + "; ".join(parts)


def envelope_line(r: dict[str, Any]) -> str | None:
    if not r["envelope"]:
        return None
    how = {"measured": "held by measuring" + (f" ({r['enforced_missing']})" if r["enforced_missing"] else ""),
           "none": "not held"}.get(r["enforced"], f"held by a {r['enforced']}")
    return f"  envelope: {r['envelope']}; {how}"


def game_checks(game: GameReport) -> dict[str, str]:
    """check -> "pass" / "warn" / "fail" for one game; "none" for "moves are legal" in a
    game where the bot played no move (it passed nothing there)."""
    out = {}
    for check in CHECKS:
        severities = {f.severity for f in game.findings if f.check == check}
        out[check] = "fail" if "fail" in severities else "warn" if "warn" in severities else "pass"
    if out["legality"] == "pass" and game.bot_moves == 0:
        out["legality"] = "none"
    return out


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


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
    lines.append(f"  timing: {startup_label(run.spec)} {_ms(t['startup_ms_max'])} (slowest), answers: "
                 f"median {_ms(t['median_ms'])}, p95 {_ms(t['p95_ms'])}, max {_ms(t['max_ms'])} over "
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


#: Findings of one severity and kind shown with all their evidence (the first ones, in game
#: order), then the next ones a line each; the rest only counted, with their games. A run of
#: many games (check's default is 24) stays readable when a fault shows in every game.
SHOWN_IN_FULL = 2
SHOWN_AS_A_LINE = 8


def findings_lines(findings: Sequence[Finding]) -> list[str]:
    """Every finding, failures first, in game order; of each severity and kind the first
    SHOWN_IN_FULL with their evidence, the next SHOWN_AS_A_LINE as their first line, and a
    line that counts the rest and names their games (the JSON report has every one)."""
    lines: list[str] = []
    shown: dict[tuple[str, str], int] = {}
    rest: dict[tuple[str, str], list[Finding]] = {}
    ordered = sorted(findings, key=lambda f: (f.severity != "fail", f.game))
    for i, f in enumerate(ordered):
        key = (f.severity, f.kind)
        shown[key] = shown.get(key, 0) + 1
        if shown[key] <= SHOWN_IN_FULL:
            lines.extend(_finding_lines(f))
        elif shown[key] <= SHOWN_IN_FULL + SHOWN_AS_A_LINE:
            lines.append(_finding_lines(f)[0])
        else:
            rest.setdefault(key, []).append(f)
        if i + 1 == len(ordered) or ordered[i + 1].severity != f.severity:  # the end of this severity's block
            for (severity, kind), more in rest.items():
                games = sorted({m.game for m in more})
                where = {str(Path(m.transcript).parent) for m in more if m.transcript}
                lines.append(f"{severity.upper()} {kind} in {len(games)} more game{'s' if len(games) > 1 else ''}: "
                             f"{game_ranges(games)}" + (f" (transcripts in {where.pop()})" if len(where) == 1 else ""))
            rest.clear()
    return lines


def game_ranges(numbers: Sequence[int]) -> str:
    """'3, 5, 7-24': sorted game numbers, runs of three or more as ranges."""
    parts: list[str] = []
    start = prev = None
    for n in list(numbers) + [None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            parts.append(f"{start}-{prev}" if prev - start >= 2 else
                         f"{start}, {prev}" if prev != start else f"{start}")
        start = prev = n
    return ", ".join(parts)


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


def file_watch_missing(run: CheckRun) -> str:
    """Why file operations went unwatched in a game, when the spec cares about them."""
    if run.spec.severity["file_operation"] == run.spec.severity["runtime_cache"] == "ignore":
        return ""
    return next((g.file_watch_missing for g in run.games
                 if g.file_watch is None and g.file_watch_missing and g.result != "interrupted"), "")


def sandbox(run: CheckRun) -> dict[str, Any]:
    """How the games were watched and contained (see prototest.keeper)."""
    first = run.games[0] if run.games else None
    return {"file_operations": first.file_watch if first else None,
            "file_operations_missing": file_watch_missing(run) or None,
            "containment": first.containment if first else None}


def startup_label(spec) -> str:
    """What the start-up figure measures: the time to the greeting when the protocol has
    one, else the first answer's time (which is not the others' median: it includes the
    bot's start, a JVM's or Node's included)."""
    return f"{spec.start.handshake!r} after" if spec.start.handshake else "first answer"


def _folded(f: Finding) -> str:
    """' [10 times]', with the range of answer times (wall times, elapsed_ms of each
    occurrence) of a timing finding."""
    if f.count <= 1:
        return ""
    span = f.elapsed_range() if f.limit_ms is not None else None  # timing findings only
    if span and f"{span[0]:.1f}" != f"{span[1]:.1f}":
        return f" [{f.count} times, answered in {span[0]:.1f} to {span[1]:.1f} ms]"
    return f" [{f.count} times]"


def _finding_lines(f: Finding) -> list[str]:
    head = f"{f.severity.upper()} {f.kind} (game {f.game}" + (f", turn {f.turn}" if f.turn else "") + ")"
    head += f": {f.message}" + _folded(f)
    lines = [head]
    if f.severity == "fail":
        if f.position:
            lines.append(f"    position: {f.position}")
            lines.extend(f"              {row}" for row in f.diagram)
        if f.moves:
            lines.append(_moves_line(f.moves, 12))
        lines.extend(_evidence_lines(f))
    if f.transcript:
        lines.append(f"    transcript: {f.transcript}")
    return lines


def _moves_line(moves: Sequence[str], last: int) -> str:
    shown = show_moves(moves[-last:]) if moves else "(none)"
    return f"    moves:    {'... ' if len(moves) > last else ''}{shown} ({plural(len(moves), 'ply')})"


def _evidence_lines(f: Finding) -> list[str]:
    """What was expected, what came, how long it took, the last stderr lines."""
    lines = []
    if f.expected:
        lines.append(f"    expected: {f.expected}")
    if f.got is not None:
        lines.append(f"    got:      '{f.got}'")
    if f.elapsed_ms is not None:
        lines.append(f"    time:     {answertime.time_line(f.time_figures())}")
    lines.extend(f"    stderr:   {line}" for line in f.stderr_tail[-5:])
    return lines


def to_json(run: CheckRun) -> dict[str, Any]:
    """The run as data; `prototest.merge` reads it back (shards merged into one run)."""
    return {
        "command": "check",
        "game": run.spec.name,
        "spec": run.spec.path,
        "overrides": run.overrides,
        "shard": run.shard,
        "games_total": run.games_total or len(run.games),
        "bot": run.argv,
        "seed": run.seed,
        "time_scale": run.time_scale,
        "passed": not run.failed and run.interrupted is None,
        "config": run.config,
        "game_source": run.game_source,
        "hints": run.hints,
        "skipped": run.skipped,
        "max_fail": run.max_fail,
        "not_played": [{"game": n.index, "seat": n.seat_name, "begun": n.begun or None} for n in run.not_played],
        "stops": [{"why": s.why, "after": s.after, "kind": s.kind, "games": s.games, "max_fail": s.max_fail,
                   "shard": s.shard, "unconfirmed": s.unconfirmed} for s in run.stops],
        "startup_measures": "handshake" if run.spec.start.handshake else "first_answer",
        "interrupted": run.interrupted.name if run.interrupted is not None else None,
        "sandbox": sandbox(run),
        "timing": timing(run.games),
        "resources": resources(run.games),
        "games": [
            {
                "game": g.index, "seat": g.seat_name, "seed": g.seed, "result": g.result,
                "reason": g.reason, "plies": g.plies, "bot_moves": g.bot_moves, "checks": game_checks(g),
                "startup_ms": g.startup_ms, "started_ahead_ms": g.started_ahead_ms, "timing": timing([g]), "transcript": g.transcript_path,
                "opponent": g.opponent, "opponent_forfeited": g.opponent_forfeited,
                "moves": g.moves,
                "answer_ms": [round(ms, 3) for ms in g.answer_ms],
                "interrupted": signal_name(g.interrupted) if g.interrupted is not None else None,
                "rechecked_alone": g.rechecked,
                "recheck_skipped": g.recheck_skipped,
                "file_watch": g.file_watch, "file_watch_missing": g.file_watch_missing,
                "containment": g.containment,
                "resources": resources([g]),
                "answer_cpu_ms": g.answer_cpu_ms, "answer_wait_ms": g.answer_wait_ms,
            }
            for g in run.games
        ],
        "findings": [f.to_json() for g in run.games for f in g.findings],
        "opponent_findings": [f.to_json() for g in run.games for f in g.opponent_findings],
    }


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


def write_json(run: CheckRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")


def junit(run: CheckRun) -> ET.ElementTree:
    """One test case per check per game; warnings go to system-out."""
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.{run.spec.name}")
    _resource_properties(suite, resources(run.games), timing(run.games))
    tests = failures = 0
    errors = 0
    for g in run.games:
        if g.interrupted is not None:
            errors += 1
            case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.game",
                                 name=f"game {g.index} ({g.seat_name}): played to the end")
            ET.SubElement(case, "error", type="interrupted", message=f"interrupted by {g.reason} at ply {g.plies}")
            tests += 1
        for check in CHECKS:
            tests += 1
            case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.{check}",
                                 name=f"game {g.index} ({g.seat_name}): {CHECK_TITLES[check]}")
            findings = [f for f in g.findings if f.check == check]
            fails = [f for f in findings if f.severity == "fail"]
            if fails:
                failures += 1
                failure = ET.SubElement(case, "failure", type=fails[0].kind, message=_xml_text(fails[0].message))
                failure.text = _xml_text("\n".join(line for f in fails for line in _finding_lines(f)))
            if not fails and check == "legality" and game_checks(g)[check] == "none":
                ET.SubElement(case, "skipped", message="the bot played no move in this game")
            warns = [f for f in findings if f.severity == "warn"]
            if warns:
                out = ET.SubElement(case, "system-out")
                out.text = _xml_text("\n".join(line for f in warns for line in _finding_lines(f)))
    for n in run.not_played:  # the run stopped before them: skipped, with why
        tests += 1
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.game",
                             name=f"game {n.index} ({n.seat_name}): played")
        ET.SubElement(case, "skipped", message=_xml_text(not_played_message(run, n)))
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("skipped", str(len(run.not_played)))
    if run.interrupted is not None and not errors:  # stopped before or between games
        errors += 1
        tests += 1
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.run",
                             name="every game played")
        ET.SubElement(case, "error", type="interrupted",
                      message=f"interrupted by {run.interrupted.name} after {len(run.games)} games")
    suite.set("errors", str(errors))
    ET.indent(suites)
    return ET.ElementTree(suites)


def _resource_properties(suite: ET.Element, res: dict[str, Any], times: dict[str, Any]) -> None:
    """The timing and resource figures, as the suite's properties (CI dashboards read them)."""
    props = ET.SubElement(suite, "properties")
    for key, value in [*((f"timing.{k}", v) for k, v in times.items()), *((f"resources.{k}", v) for k, v in res.items())]:
        if value not in (None, ""):
            ET.SubElement(props, "property", name=key, value=_xml_text(str(round(value, 3) if isinstance(value, float) else value)))


_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text: str) -> str:
    """XML 1.0 cannot hold most control characters, even escaped: show them as \\xNN."""
    return _XML_INVALID.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def write_junit(run: CheckRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    junit(run).write(path, encoding="utf-8", xml_declaration=True)


# -- prototest fuzz ------------------------------------------------------------------------

def fuzz_progress(run: FuzzRun, ended: bool = False) -> str:
    """The progress line: runs, failing kinds, runs a second, the time of the budget, and
    what the run does now (searching, shrinking, or `ended` once it is over)."""
    failures = len(run.failing_kinds)
    state = "ended" if ended else "shrinking" if run.shrinking else "searching"
    jobs = f", {run.options.jobs} jobs" if run.options.jobs > 1 else ""
    cold = len(run.cold_kinds - run.failing_kinds)
    cold_text = f" (+{cold} seen only after a cold start)" if cold else ""
    budget = f" of {run.options.budget_s:g} s" if run.options.budget_s else ""
    examples = f", {run.examples} of {run.options.examples} examples" if run.options.examples else ""
    return (f"fuzz: {run.runs} runs{examples}, {failures} failing kind{'s' if failures != 1 else ''}{cold_text}, "
            f"{run.rate:.1f} runs/s, {run.elapsed_s:.0f} s{budget}{jobs} ({state})")


def _situation_lines(run: FuzzRun) -> list[str]:
    known = tuple(getattr(run.target.module, "SITUATIONS", ()))
    names = list(known) + sorted(n for n in run.situations if n not in known)
    if not names:
        return []
    reached = [f"{name} {run.situations[name]}" for name in names if run.situations.get(name)]
    missed = [name for name in names if not run.situations.get(name) and not name.startswith("game end")]
    lines = ["  situations reached (examples): " + (", ".join(reached) if reached else "none")]
    if missed:
        lines.append("  not reached: " + ", ".join(missed))
    notes = getattr(run.target.module, "SITUATION_NOTES", {})
    for name in missed:
        if name in notes:
            lines.extend(_situation_note(run, name, *notes[name]))
    return lines


def _situation_note(run: FuzzRun, name: str, why: str, checks: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Why a situation that the rules module knows to be rare was not reached, and the
    `prototest check` command lines that put this bot in it directly."""
    lines = [f"    {name}: {why}"]
    for what, options in checks:
        command = shlex.join(["prototest", "check", "--game", run.target.spec.name, *options,
                              "--", *run.target.argv])
        lines.append(f"      {what}: {command}")
    return lines


def _ended(run: FuzzRun) -> str:
    o = run.options
    if run.ended == "budget" and o.budget_s is not None:
        return f"the {o.budget_s:g} s budget ran out"
    if run.ended == "examples" and o.examples is not None:
        return f"{o.examples} examples done"
    if run.ended == "failure" or run.failed:
        return "stopped at the first failure"
    return ""


def fuzz_context_lines(run: FuzzRun, pytest: bool = False) -> list[str]:
    """Where the settings came from, and what a failure suggests about the game itself,
    as check says them; with `pytest`, in fuzz_test's words (game='loa', not --game loa)."""
    lines = []
    if run.config:
        lines.append(f"  config: {run.config}")
    if run.game_source == "default":
        chose = "game=, spec=" if pytest else "--game, --spec"
        lines.append(f"  game: {run.target.spec.name}, the default: no {chose} or config file chose one "
                     f"(prototest games lists the others)")
    for hint in run.hints:
        lines.append("  hint: " + (re.sub(r"--game ([A-Za-z0-9_-]+)", r"game='\1'", hint) if pytest else hint))
    return lines


def fuzz_summary(run: FuzzRun) -> str:
    spec, opts = run.target.spec, run.options
    lines = [f"prototest fuzz: {spec.game.title or spec.name}, bot {' '.join(run.target.argv)}, "
             f"{opts.mode} mode, seed {opts.seed}"
             + (f", {run.workers} jobs" if run.workers > 1 else "")
             + (f", time scale {run.target.time_scale}" if run.target.time_scale != 1 else ""), ""]
    lines.extend(fuzz_context_lines(run))
    first, later = _answer_figures(run.first_answer_ms), _answer_figures(run.answer_ms)
    ended = _ended(run)
    lines.append(f"  {run.examples} examples ({run.runs} runs of the bot) in {run.elapsed_s:.1f} s"
                 + (f"; {ended}" if ended else ""))
    if opts.database is not None:
        lines.append(f"  example database: {opts.database} (failures saved there are replayed first)")
    lines.append(f"  answers: {len(run.answer_ms) + len(run.first_answer_ms)} judged; first answers (start-up "
                 f"included): median {_ms(first['median_ms'])}, max {_ms(first['max_ms'])}; later answers: "
                 f"median {_ms(later['median_ms'])}, p95 {_ms(later['p95_ms'])}, max {_ms(later['max_ms'])}")
    res = fuzz_resources(run)
    for line in (resources_line(res), envelope_line(res)):
        if line:
            lines.append(line)
    if run.styles:
        lines.append("  opponent styles (examples): " + ", ".join(f"{n} {c}" for n, c in run.styles.most_common())
                     + (f"; {run.drawn} drawn as check draws its games" if run.drawn else "")
                     + (f"; {run.branches} examples went on from games that came near a boundary" if run.branches else ""))
    lines.extend(_situation_lines(run))
    if run.probe is not None:
        lines.append(f"  state probe: {run.probe.message}")
    lines.extend(_recheck_line(r) for r in run.rechecked[:SHOWN_RECHECKS])
    if len(run.rechecked) > SHOWN_RECHECKS:
        lines.append(f"  re-checked alone: {len(run.rechecked) - SHOWN_RECHECKS} more timing failures "
                     f"(the JSON report lists them all)")
    for failure in run.failures:
        lines.append("")
        lines.extend(reproducer_lines(failure.details, failure.finding))
    for f in run.warnings:
        lines.append("")
        lines.extend(_fuzz_warning_lines(f))
    for n in run.nondeterminism:
        lines.append("")
        lines.append(f"WARN nondeterministic: the same input got {_answer(n.first)} in example {n.first_example} "
                     f"and {_answer(n.second)} in example {n.second_example} (ply {n.ply}): a failure "
                     f"may not come back when replayed")
        lines.append(f"    sent:     {_request(n.sent)}")
    if run.stopped_early:
        lines.append("")
        lines.append(f"WARN nondeterministic: {run.stopped_early}")
    for path in run.saved:
        lines.append(f"saved: {path}")
    lines.append("")
    kinds = sum(1 for f in run.failures if f.confirmed)
    if run.interrupted is not None:
        lines.append(f"INTERRUPTED by {run.interrupted.name} after {run.examples} examples"
                     + (f": {kinds} kind(s) of failure found so far (not fully shrunk)" if kinds else
                        "; no failure so far"))
    elif run.hints:
        lines.append(other_game_verdict(spec.name))
    elif kinds:
        lines.append(f"FAIL: {kinds} kind{'s' if kinds != 1 else ''} of failure in {run.examples} examples")
    elif run.incomplete:
        lines.append(f"INCOMPLETE: no answer of the bot was judged before the {opts.budget_s or 0:g} s budget ran "
                     f"out; give the run more time (--budget)")
    elif run.warnings or run.nondeterminism or run.stopped_early or run.unconfirmed:
        lines.append(f"PASS with warnings: {run.examples} examples, no failure")
    else:
        lines.append(f"PASS: {run.examples} examples, no failure")
    return "\n".join(lines)


#: Timing failures played again alone that the summary lists one a line.
SHOWN_RECHECKS = 5


def _recheck_line(r: dict[str, Any]) -> str:
    """A timing failure played again alone (fuzz.Campaign._played_alone), in one line."""
    worker = f" (worker {r['worker']})" if r.get("worker") else ""
    figures = [r["kind"]]
    if r.get("elapsed_ms") is not None:
        figures.append(f"{r['elapsed_ms']:.1f} ms" + (f" of {r['limit_ms']:.0f} ms" if r.get("limit_ms") is not None
                                                      else ""))
    beside = f" while {r['jobs']} jobs ran at once" if r.get("jobs", 1) > 1 else ""
    if r["alone"] == "the same":
        outcome = "the same: the bot's"
    else:
        outcome = "not again: WARN busy_machine, not blamed on the bot"
        if r.get("alone_kind"):
            outcome += f" (it failed otherwise: {r['alone_kind']})"
    return (f"  re-checked alone: example {r['example']}{worker} had a timing failure ({', '.join(figures)})"
            f"{beside}, load average {r['load_average'][0]:.2f}; played again alone: {outcome}")


def _fuzz_warning_lines(f: Finding) -> list[str]:
    """A warning folded over the run: in how many examples, how often in all."""
    spread = ""
    if f.examples and f.examples > 1:
        spread = f" [in {f.examples} examples, {f.count} times]"
    elif f.count > 1:
        spread = f" [{f.count} times]"
    return [f"WARN {f.kind}: {f.message}{spread}"]


def _answer(text: str | None) -> str:
    return "no answer" if text is None else repr(text)


def reproducer_text(failure) -> str:
    """A failure's reproducer as text (the message of a failing pytest test)."""
    return "\n".join(reproducer_lines(failure.details, failure.finding))


def _answer_figures(answers: list[float]) -> dict[str, float | None]:
    ordered = sorted(answers)
    if not ordered:
        return {"median_ms": None, "p95_ms": None, "max_ms": None}
    return {"median_ms": statistics.median(ordered),
            "p95_ms": ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))],
            "max_ms": ordered[-1]}


def _request(sent: Sequence[str], limit: int = 14) -> str:
    shown = list(sent[:limit]) + ([f"... ({len(sent) - limit} more lines)"] if len(sent) > limit else [])
    return " | ".join(show(line) for line in shown) if shown else "(nothing)"


def reproducer_lines(r: dict[str, Any], f: Finding) -> list[str]:
    """A reproducer (fuzz.describe's data) as the console, JUnit and pytest show it."""
    warn = r["verdict"] == "warn" if "verdict" in r else not r["confirmed"]
    if warn:
        head = (f"WARN {f.kind} (seen only when started cold): {f.message}")
    else:
        head = f"FAIL {f.kind}: {f.message}"
    replayed = r.get("replay")
    if replayed is None and "replay" not in r and not r["reproducible"]:  # a report of an earlier version
        head += " (did not happen again when replayed: the bot is not deterministic)"
    elif replayed is not None and replayed["failed_same_way"] < replayed["tries"]:
        head += f" (its replay failed the same way {replayed['failed_same_way']} of {replayed['tries']} tries)"
    lines = [head]
    if r["cold"] == "reproduces" and not r["plies"]:
        how = "a game from the start, at the bot's first answer"
    elif r["cold"] == "reproduces" and r.get("cold_turns", 1) > 1:
        how = (f"a fresh bot started a turn before this position ({r['plies'] - 2} plies in) plays its move "
               f"there and fails the same way on its second answer (a first answer has the start-up's limit)")
    elif r["cold"] == "reproduces":
        how = f"a fresh bot shown this position, {r['plies']} plies in, fails the same way at once"
    elif r["mode"] == "position":
        how = f"a fresh bot started in a generated position after {len(r['start_moves'])} plies"
    else:
        how = "a game from the start"
    worker = f" (worker {r['worker']})" if r.get("worker") else ""
    lines.append(f"    game:     {r['game']}, {how}; seed {r['seed']}{worker}, the bot as {r.get('seat_title') or r['seat']}")
    if r.get("opponent"):
        lines.append(f"    opponent: {r['opponent']}")
    lines.append(_moves_line(r["moves"], 24))
    if r["position"]:
        lines.append(f"    position: {r['position']}")
        lines.extend(f"              {row}" for row in r.get("diagram") or [])
    lines.append(f"    sent:     {_request(r['sent'])}")
    lines.extend(_evidence_lines(f))
    if r.get("cold_note"):
        lines.extend(_wrapped("    note:     ", r["cold_note"]))
    tries = r.get("cold_tries")
    if tries and r["cold"] == "reproduces":
        lines.extend(_wrapped("    note:     ", f"fresh bots shown this position failed the same way {tries[0]} of "
                              f"{tries[1]} tries: it fails there only sometimes"))
    if warn:
        lines.append("    note:     no game from the start showed it within the budget: a bot that relies on its")
        lines.append("              memory of earlier turns may fail here and not in a real game")
    lines.append(f"    replay:   {r['command']}")
    if replayed is not None:
        lines.extend(_wrapped("    replayed: ", _replayed_words(replayed)))
    elif "replay" in r:
        lines.append("    replayed: not run (interrupted): nothing is claimed about it")
    if r["transcript"]:
        lines.append(f"    transcript: {r['transcript']}")
    return lines


def _replayed_words(replayed: dict[str, Any]) -> str:
    """What the printed replay command did when run as printed, try by try."""
    tries, same = replayed["tries"], replayed["failed_same_way"]
    if tries == 0:
        return "not run: nothing is claimed about it"
    if same == tries:
        return (f"run as printed, it failed the same way "
                + ("(1 try)" if tries == 1 else f"in all {tries} tries"))
    others = Counter(o for o in replayed["outcomes"] if not o.startswith("failed the same way"))
    return (f"run as printed, it failed the same way {same} of {tries} tries; otherwise: "
            + "; ".join(f"{o}" + (f" ({n} tries)" if n > 1 else "") for o, n in others.items()))


def _wrapped(head: str, text: str, width: int = 100) -> list[str]:
    """A long sentence under a label, its lines indented under the first."""
    return textwrap.wrap(text, width, initial_indent=head, subsequent_indent=" " * len(head),
                         break_long_words=False, break_on_hyphens=False) or [head.rstrip()]


def fuzz_to_json(run: FuzzRun) -> dict[str, Any]:
    findings = []
    for failure in run.failures:
        data = failure.finding.to_json()
        if not failure.confirmed:
            data["severity"] = "warn"
        data["reproducer"] = failure.details
        findings.append(data)
    findings.extend(f.to_json() for f in run.warnings)
    o = run.options
    return {
        "command": "fuzz",
        "game": run.target.spec.name,
        "spec": run.target.spec.path,
        "bot": run.target.argv,
        "mode": o.mode,
        "modes": list(run.modes),
        "seed": o.seed,
        "shard": f"{o.shard[0]}/{o.shard[1]}" if o.shard else None,
        "seed_streams": [replace(o, worker=w).stream for w in range(max(1, run.workers))],
        "jobs": run.workers,
        "budget_s": o.budget_s,
        "max_plies": o.max_plies,
        "database": None if o.database is None else str(o.database),
        "examples": run.examples,
        "runs": run.runs,
        "shrink_runs": run.shrink_runs,
        "branches": run.branches,
        "drawn": run.drawn,
        "ended": run.ended,
        "first_failure_example": run.first_failure_example,
        "first_failure_s": round(run.first_failure_s, 3) if run.first_failure_s is not None else None,
        "elapsed_s": round(run.elapsed_s, 3),
        "examples_per_s": round(run.examples / run.elapsed_s, 2) if run.elapsed_s else 0.0,
        "answers_per_s": round((len(run.answer_ms) + len(run.first_answer_ms)) / run.elapsed_s, 1)
        if run.elapsed_s else 0.0,
        "passed": not run.failed and run.interrupted is None,
        "interrupted": run.interrupted.name if run.interrupted is not None else None,
        "timing": {"answers": len(run.answer_ms), **_answer_figures(run.answer_ms),
                   "first_answers": len(run.first_answer_ms),
                   "first_answer_median_ms": _answer_figures(run.first_answer_ms)["median_ms"],
                   "first_answer_max_ms": _answer_figures(run.first_answer_ms)["max_ms"]},
        "resources": fuzz_resources(run),
        "situations": dict(run.situations),
        "styles": dict(run.styles),
        "state_probe": None if run.probe is None else {"stateful": run.probe.stateful, "message": run.probe.message},
        "findings": findings,
        "nondeterministic": [
            {"sent": list(n.sent), "first": n.first, "second": n.second, "first_example": n.first_example,
             "second_example": n.second_example, "ply": n.ply}
            for n in run.nondeterminism
        ],
        "saved": run.saved,
        "stopped_early": run.stopped_early,
        "rechecked_alone": run.rechecked,
        "config": run.config,
        "game_source": run.game_source,
        "hints": run.hints,
    }


def write_fuzz_json(run: FuzzRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fuzz_to_json(run), indent=2) + "\n", encoding="utf-8")


def fuzz_junit(run: FuzzRun) -> ET.ElementTree:
    """One test case per check over the whole run; a failure holds its reproducer."""
    name = run.target.spec.name
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.fuzz.{name}")
    _resource_properties(suite, fuzz_resources(run), {"answers": len(run.answer_ms), **_answer_figures(run.answer_ms)})
    failures = 0
    for check in CHECKS:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.fuzz.{name}.{check}",
                             name=f"{run.options.mode} mode, {run.examples} examples: {CHECK_TITLES[check]}")
        fails = [fl for fl in run.failures if fl.finding.check == check and fl.confirmed]
        if fails:
            failures += 1
            first = fails[0].finding
            element = ET.SubElement(case, "failure", type=first.kind, message=_xml_text(first.message))
            element.text = _xml_text("\n".join(
                line for fl in fails for line in reproducer_lines(fl.details, fl.finding)))
        warns = [f for f in run.warnings if f.check == check]
        cold = [fl for fl in run.failures if fl.finding.check == check and not fl.confirmed]
        if warns or cold:
            out = ET.SubElement(case, "system-out")
            out.text = _xml_text("\n".join([line for f in warns for line in _fuzz_warning_lines(f)]
                                           + [line for fl in cold for line in reproducer_lines(fl.details, fl.finding)]))
    errors = 0
    if run.interrupted is not None:
        errors = 1
        case = ET.SubElement(suite, "testcase", classname=f"prototest.fuzz.{name}.run", name="every example run")
        ET.SubElement(case, "error", type="interrupted",
                      message=f"interrupted by {run.interrupted.name} after {run.examples} examples")
    suite.set("tests", str(len(CHECKS) + errors))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_fuzz_junit(run: FuzzRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fuzz_junit(run).write(path, encoding="utf-8", xml_declaration=True)


# -- replay, record --update, and merged shards -----------------------------------------------

def write_data_json(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def fixture_junit(data: dict[str, Any]) -> ET.ElementTree:
    """replay / record --update: one test case per fixture; a difference or a fault fails it."""
    command = data["command"]
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.{command}")
    failures = 0
    for entry in data["fixtures"]:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{command}", name=entry["fixture"])
        if entry.get("resources"):
            _resource_properties(case, entry["resources"], {})
        text = "\n".join([entry["game"], *entry.get("lines", [])])
        if entry["failed"]:
            failures += 1
            failure = ET.SubElement(case, "failure", type=entry.get("status", "failed"),
                                    message=_xml_text(f"{entry['verdict']}: {entry['game']}"))
            failure.text = _xml_text(text)
        else:
            ET.SubElement(case, "system-out").text = _xml_text(text)
    errors = [*data.get("errors", [])]
    if data.get("interrupted"):
        errors.append(f"interrupted by {data['interrupted']}")
    for line in errors:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{command}.run", name=line[:80])
        ET.SubElement(case, "error", type="error", message=_xml_text(line))
    suite.set("tests", str(len(data["fixtures"]) + len(errors)))
    suite.set("failures", str(failures))
    suite.set("errors", str(len(errors)))
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_fixture_junit(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fixture_junit(data).write(path, encoding="utf-8", xml_declaration=True)


def merged_fuzz_junit(data: dict[str, Any]) -> ET.ElementTree:
    """Shards of one fuzz campaign: one test case per check over every shard's examples."""
    name = data["game"]
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.fuzz.{name}")
    _resource_properties(suite, data.get("resources") or {}, data.get("timing") or {})
    failures = 0
    for check in CHECKS:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.fuzz.{name}.{check}",
                             name=f"{data['mode']} mode, {data['examples']} examples in {len(data['shards'])} "
                                  f"shards: {CHECK_TITLES[check]}")
        mine = [f for f in data["findings"] if f.get("check") == check]
        fails = [f for f in mine if f["severity"] == "fail"]
        if fails:
            failures += 1
            element = ET.SubElement(case, "failure", type=fails[0]["kind"], message=_xml_text(fails[0]["message"]))
            element.text = _xml_text("\n".join(line for f in fails for line in _data_finding_lines(f)))
        warns = [f for f in mine if f["severity"] != "fail"]
        if warns:
            ET.SubElement(case, "system-out").text = _xml_text(
                "\n".join(line for f in warns for line in _data_finding_lines(f)))
    errors = 1 if data.get("interrupted") else 0
    if errors:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.fuzz.{name}.run", name="every example run")
        ET.SubElement(case, "error", type="interrupted", message=f"interrupted by {data['interrupted']}")
    suite.set("tests", str(len(CHECKS) + errors))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_merged_fuzz_junit(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    merged_fuzz_junit(data).write(path, encoding="utf-8", xml_declaration=True)


def _data_finding_lines(data: dict[str, Any]) -> list[str]:
    f = Finding.from_json(data)
    if data.get("reproducer"):
        return reproducer_lines(data["reproducer"], f)
    return _finding_lines(f)


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
            lines.extend(_data_finding_lines(f))
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
