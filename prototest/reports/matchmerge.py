"""The shards of one match joined into one: `prototest merge SHARD.json...` of
`match --shard I/N` reports.

Each shard played whole pairs of the match, with the unsharded match's seeds and
openings (`prototest.play.matchshards`); read back here, their games are put in game order
into one `MatchRun`, and its tallies are the shards' added up: the WDL and the pentanomial
are the sums of the shards' (a pair is never split between shards, which is checked), and
Elo, its interval, LOS and the SPRT are computed from them by `prototest.play.stats`, as for
the unsharded match. The reports are then match's (summary, JSON, JUnit, PGN, HTML): each
game keeps the path of the transcript its shard wrote, and both bots' findings are listed.

Shards of different matches (another bot, game, opening, seed, number of games, SPRT) are
refused in one line, naming what differs. With a shared tally (`--tally`) a shard that died
leaves no report: the merge goes on without it and says so, and the latest tally any shard
read (the one with the most pairs recorded and claimed) says which pairs were started and
never finished: the pairs lost.
"""

from __future__ import annotations

import signal
from typing import Any

from ..judge.findings import Finding
from ..judge.game import GameReport
from ..play import match as matchmod, matchshards, runner
from ..play.match import MatchRun
from .merge import MergeError, _spec


def check(reports: list[dict[str, Any]]) -> None:
    """Every report is a shard of the same match, each shard once, the same N; a missing
    shard only with a shared tally (a shard that died)."""
    first = reports[0]
    for data in reports:
        if not isinstance(data.get("identity"), dict) or not isinstance(data.get("shard"), str):
            raise MergeError(f"{data['_path']}: not a match shard's report (match --shard I/N --json FILE)")
    for data in reports[1:]:
        differs = matchshards.difference(first["identity"], data["identity"])
        if differs:
            raise MergeError(f"{data['_path']}: not a shard of the match of {first['_path']}: {differs}")
    seen: dict[int, str] = {}
    counts = set()
    for data in reports:
        index, count = (int(x) for x in data["shard"].split("/"))
        counts.add(count)
        if index in seen:
            raise MergeError(f"{data['_path']}: shard {data['shard']} again (also {seen[index]})")
        seen[index] = data["_path"]
    if len(counts) > 1:
        raise MergeError(f"shards of different splits: {', '.join(sorted(d['shard'] for d in reports))}")
    count = counts.pop()
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing and not all(d.get("tally") for d in reports):
        raise MergeError(f"shard {', '.join(missing)} missing: merge every shard of the match")


def _game(spec, data: dict[str, Any], interrupted: str | None) -> GameReport:
    first, second = data["pairing"]
    seats = list(spec.game.seats)
    seat = seats.index(data["seats"][first]) if data["seats"].get(first) in seats else 0
    report = GameReport(index=data["game"], seat=seat, seat_name=seats[seat], seed=0, result=data["result"],
                        reason=data["reason"], plies=data["plies"], moves=list(data["moves"]),
                        findings=[Finding.from_json(f) for f in data["findings"].get(first, [])],
                        transcript_path=data.get("transcript"), opponent_forfeited=data.get("opponent_forfeited"))
    report.opponent_findings = [Finding.from_json(f) for f in data["findings"].get(second, [])]
    report.rechecked = data.get("rechecked_alone")
    if data["result"] == "interrupted":
        report.interrupted = int(signal.Signals[interrupted or "SIGINT"])
    return report


def _latest(tallies: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The tally read last: its counts only grow, so the one with the most pairs recorded and
    claimed (a shard's snapshot at its end)."""
    return max(tallies, key=lambda t: (t["pairs"], t.get("claimed", 0), -len(t.get("unfinished") or {})), default=None)


def match_run(reports: list[dict[str, Any]]) -> MatchRun:
    """The shards of one match as one run, games in order, the statistics from the sums."""
    first = reports[0]
    spec = _spec({**first, "overrides": first.get("overrides") or []})
    letters = sorted(first["bots"])
    run = MatchRun(spec, [list(first["bots"][x]) for x in letters], first["seed"], first["time_scale"],
                   first["games_per_pairing"], first["opening_plies"],
                   matchmod.pairings(len(letters), first["mode"] == "gauntlet"), first["mode"],
                   first.get("sprt_options"))
    run.book, run.overrides, run.identity = first.get("openings_book"), list(first.get("overrides") or []), \
        first["identity"]
    for data in reports:
        for g in data["games"]:
            report = _game(spec, g, data.get("interrupted"))
            report.seed = runner.game_seed(run.seed, report.index)
            run.games.append(report)
            if g.get("opening") is not None:
                run.openings[g["pair"]] = (g["opening"]["fen"], list(g["opening"]["moves"]))
        if data.get("interrupted") and run.interrupted is None:
            run.interrupted = signal.Signals[data["interrupted"]]
    run.games.sort(key=lambda g: g.index)
    for g in run.games:
        pairing, local = run.where(g.index)
        run.tallies[pairing].add(g, local)
    _check_sums(run, reports)
    tallies = [d["tally"] for d in reports if d.get("tally")]
    run.shared = _latest(tallies)
    decided = run.shared is not None and run.shared.get("decision") is not None
    if run.sprt_options is not None and run.mode == "match":
        run.sprt = run.tally.sprt(run.sprt_options)
    run.stopped_by_sprt = decided
    count = int(first["shard"].split("/")[1])
    given = {d["shard"] for d in reports}
    run.merged = {
        "shards": [{"shard": d["shard"], "pairs_played": d.get("pairs_played", []), "games": len(d["games"]),
                    "stopped_by_sprt": bool((d.get("tally") or {}).get("stopped_here")),
                    "interrupted": d.get("interrupted")} for d in reports],
        "missing": [f"{i}/{count}" for i in range(1, count + 1) if f"{i}/{count}" not in given],
        "tally": run.shared is not None,
        "lost_pairs": dict(run.shared.get("unfinished") or {}) if run.shared is not None else {},
        "unfinished_pairs": [p for p in run.pairs_played()
                             if len(run.tallies[0].pairs.get(p, {})) < 2] if run.mode == "match" else [],
        "recorded_without_report": {o: n for o, n in (run.shared or {}).get("recorded_by", {}).items()
                                    if o not in given},
    }
    return run


def _check_sums(run: MatchRun, reports: list[dict[str, Any]]) -> None:
    """The merged counts are the shards' summed (pairs are whole in each shard)."""
    for pairing, t in enumerate(run.tallies):
        wdl, ptnml = [0, 0, 0], [0] * 5
        for data in reports:
            s = data["pairings"][pairing]["statistics"]
            wdl = [a + b for a, b in zip(wdl, s["wdl"])]
            ptnml = [a + b for a, b in zip(ptnml, s["pentanomial"])]
        if wdl != list(t.wdl) or ptnml != list(t.pentanomial()):
            raise MergeError(f"the shards' counts do not add up to their games' (WDL {wdl} against {list(t.wdl)}, "
                             f"pentanomial {ptnml} against {list(t.pentanomial())}): a report was changed?")
