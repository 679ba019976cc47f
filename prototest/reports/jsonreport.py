"""The JSON reports of check, match and fuzz (and of replay, record --update and merged
shards): the run as data. `prototest.reports.merge` reads check's and fuzz's back."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..judge.game import CheckRun
from ..play import match as matchmod, stats
from ..play.match import MatchRun
from ..sandbox.interrupts import signal_name
from .figures import answer_figures, fuzz_resources, game_checks, resources, sandbox, timing

if TYPE_CHECKING:  # a check's report never imports the fuzz machinery
    from ..play.fuzzrun import FuzzRun


def to_json(run: CheckRun) -> dict[str, Any]:
    """The run as data; `prototest.reports.merge` reads it back (shards merged into one run)."""
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


def write_json(run: CheckRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")


# -- prototest match ---------------------------------------------------------------------------

def _opening_json(opening: tuple[str | None, list[str]] | None) -> dict[str, Any] | None:
    return None if opening is None else {"fen": opening[0], "moves": opening[1]}


def _sprt_json(sprt_result: stats.Sprt | None, stopped: bool) -> dict[str, Any] | None:
    return None if sprt_result is None else {
        "llr": sprt_result.llr, "lower": sprt_result.lower, "upper": sprt_result.upper,
        "decision": sprt_result.decision, "model": sprt_result.model, "kind": sprt_result.kind,
        "elo0": sprt_result.elo0, "elo1": sprt_result.elo1, "alpha": sprt_result.alpha,
        "beta": sprt_result.beta, "stopped_the_match": stopped}


def _statistics(t: matchmod.Tally, sprt_result: stats.Sprt | None, stopped: bool) -> dict[str, Any]:
    return {
        "wdl": list(t.wdl), "pentanomial": list(t.pentanomial()), "pairs": len(t.complete_pairs()),
        **t.figures(), "lines": t.report_lines(sprt_result), "sprt": _sprt_json(sprt_result, stopped),
    }


def _tally_json(run: MatchRun) -> dict[str, Any] | None:
    """--tally: the shared tally as this shard last read it (a merge: the latest shard's), with
    the statistics and the SPRT over every shard's recorded pairs."""
    if run.shared is None:
        return None
    from ..play.matchtally import Totals

    totals = Totals.of(run.shared)
    sprt_result = totals.sprt(run.sprt_options) if run.sprt_options else None
    return {**run.shared, "statistics": {
        "wdl": list(totals.wdl), "pentanomial": list(totals.pentanomial), "pairs": totals.pairs,
        **totals.figures(), "lines": totals.report_lines(sprt_result),
        "sprt": _sprt_json(sprt_result, run.shared.get("decision") is not None)}}


def _results(t: matchmod.Tally, first: str, second: str) -> dict[str, Any]:
    return {"wins": t.wins, "draws": t.draws, "losses": t.losses, "without_result": t.uncounted,
            "forfeited_by": {first: t.forfeits[0], second: t.forfeits[1]}}


def match_to_json(run: MatchRun) -> dict[str, Any]:
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
            "opponent_forfeited": g.opponent_forfeited,
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
        "overrides": run.overrides,
        "sprt_options": run.sprt_options,
        "identity": run.identity,
        "shard": run.shard,
        "pairs_total": run.games_total // 2,
        "shard_pairs": run.shard_pairs if run.shard else None,
        "pairs_played": run.pairs_played(),
        "tally": _tally_json(run),
        "merged": run.merged,
        "passed": not run.failed and run.interrupted is None,
        "failing": run.failing(),
        "interrupted": run.interrupted.name if run.interrupted is not None else None,
        "games": games,
        "pairings": pairings,
        "standings": run.standings(),
        "findings": {matchmod.LETTERS[i]: [f.to_json() for f in run.findings_of(i)] for i in range(len(run.bots))},
    }
    if run.mode == "match":
        data["results"] = pairings[0]["results"]
        data["statistics"] = pairings[0]["statistics"]
    return data


def write_match_json(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(match_to_json(run), indent=2) + "\n", encoding="utf-8")


# -- prototest fuzz ----------------------------------------------------------------------------

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
        "made_way": run.made_way,
        "started_ahead": run.started_ahead,
        "drawn": run.drawn,
        "ended": run.ended,
        "first_failure_example": run.first_failure_example,
        "first_failure_s": round(run.first_failure_s, 3) if run.first_failure_s is not None else None,
        "first_failure_origin": run.first_failure_origin,
        "elapsed_s": round(run.elapsed_s, 3),
        "examples_per_s": round(run.examples / run.elapsed_s, 2) if run.elapsed_s else 0.0,
        "answers_per_s": round((len(run.answer_ms) + len(run.first_answer_ms)) / run.elapsed_s, 1)
        if run.elapsed_s else 0.0,
        "passed": not run.failed and run.interrupted is None,
        "interrupted": run.interrupted.name if run.interrupted is not None else None,
        "timing": {"answers": len(run.answer_ms), **answer_figures(run.answer_ms),
                   "first_answers": len(run.first_answer_ms),
                   "first_answer_median_ms": answer_figures(run.first_answer_ms)["median_ms"],
                   "first_answer_max_ms": answer_figures(run.first_answer_ms)["max_ms"]},
        "resources": fuzz_resources(run),
        "situations": dict(run.situations),
        "styles": dict(run.styles),
        "coverage": run.coverage or None,
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


# -- replay, record --update, and merged shards ------------------------------------------------

def write_data_json(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
