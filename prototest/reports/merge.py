"""Shards of one run joined into one: `prototest merge REPORT.json...`.

`check --shard I/N` plays every N-th game from the I-th, each game from its own seed, and
writes its JSON report; read back here, the shards' games are put in game order into one
`CheckRun`, which is reported (summary, JSON, JUnit) exactly as the unsharded run would be.
`replay --shard` and `record --update --shard` reports join the same way (fixtures in
their sorted order), `match --shard` reports into one match (`matchmerge`), and
`fuzz --shard` reports (each shard its own seed stream) join into one verdict over all
the examples.

Every problem with the reports (not JSON, shards of different runs, a shard missing or
given twice) is a `MergeError`: one line, and no verdict.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

from ..judge import spec as specmod
from ..judge.findings import Finding
from ..judge.game import CheckRun, GameReport, NotPlayed, Stop

#: What must be the same in every shard of one run, by command.
SAME = {
    "check": ("game", "bot", "seed", "time_scale", "overrides", "games_total", "max_fail"),
    "replay": ("fixtures_total",),
    "record": ("fixtures_total",),
    "fuzz": ("game", "bot", "seed", "mode", "budget_s", "max_plies"),
    "match": (),  # its identity is compared (prototest.reports.matchmerge)
}


class MergeError(Exception):
    """The reports cannot be merged: said in one line."""


def read(paths: list[Path]) -> tuple[str, list[dict[str, Any]]]:
    """The reports, checked to be every shard of one run; and their command."""
    if not paths:
        raise MergeError("merge: give the shards' JSON reports (check --shard I/N --json FILE)")
    reports = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise MergeError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise MergeError(f"{path}: not a JSON report of prototest ({exc})") from None
        command = data.get("command") if isinstance(data, dict) else None
        if command not in SAME:
            raise MergeError(f"{path}: not a JSON report of prototest check, fuzz, match, replay or record --update")
        data["_path"] = str(path)
        reports.append(data)
    command = reports[0]["command"]
    for data in reports[1:]:
        if data["command"] != command:
            raise MergeError(f"{data['_path']}: a {data['command']} report; {reports[0]['_path']} is a "
                             f"{command} report: merge the shards of one run")
    if command == "match":
        from . import matchmerge

        matchmerge.check(reports)
        reports.sort(key=lambda d: int(d["shard"].split("/")[0]))
        return command, reports
    for data in reports[1:]:
        for key in SAME[command]:
            if data.get(key) != reports[0].get(key):
                raise MergeError(f"{data['_path']}: {key} {data.get(key)!r}, but {reports[0]['_path']} has "
                                 f"{reports[0].get(key)!r}: not shards of one run")
    _check_shards(reports)
    reports.sort(key=lambda d: int(d["shard"].split("/")[0]))
    return command, reports


def _check_shards(reports: list[dict[str, Any]]) -> None:
    """Every shard I/N once, the same N."""
    seen: dict[int, str] = {}
    counts = set()
    for data in reports:
        shard = data.get("shard")
        if not isinstance(shard, str) or "/" not in shard:
            raise MergeError(f"{data['_path']}: not a shard's report (run with --shard I/N)")
        index, count = (int(x) for x in shard.split("/"))
        counts.add(count)
        if index in seen:
            raise MergeError(f"{data['_path']}: shard {shard} again (also {seen[index]})")
        seen[index] = data["_path"]
    if len(counts) > 1:
        raise MergeError(f"shards of different splits: {', '.join(sorted(d['shard'] for d in reports))}")
    count = counts.pop()
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing:
        raise MergeError(f"shard {', '.join(missing)} missing: merge every shard of the run")


# -- check ---------------------------------------------------------------------------------

def check_run(reports: list[dict[str, Any]]) -> CheckRun:
    """The shards of one `check` as one run, games in order."""
    first = reports[0]
    spec = _spec(first)
    run = CheckRun(spec, list(first["bot"]), first["seed"], first["time_scale"])
    run.overrides = list(first.get("overrides") or [])
    run.games_total = first["games_total"]
    run.config = first.get("config")
    run.game_source = first.get("game_source", "--game")
    run.hints = list(dict.fromkeys(h for d in reports for h in d.get("hints", [])))
    run.skipped = sum(d.get("skipped", 0) for d in reports)
    run.max_fail = first.get("max_fail") or 0
    run.not_played = sorted((NotPlayed(n["game"], n["seat"], n.get("begun") or "")
                             for d in reports for n in d.get("not_played", [])), key=lambda n: n.index)
    run.stops = [Stop(s["why"], s["after"], s.get("kind"), list(s.get("games", [])), s.get("max_fail", 0),
                      s.get("shard") or d.get("shard"), list(s.get("unconfirmed", [])))
                 for d in reports for s in d.get("stops", [])]
    findings: dict[int, list[Finding]] = {}
    theirs: dict[int, list[Finding]] = {}  # check --opponent: the opponent bot's
    for data in reports:
        for f in data["findings"]:
            findings.setdefault(f["game"], []).append(Finding.from_json(f))
        for f in data.get("opponent_findings", []):
            theirs.setdefault(f["game"], []).append(Finding.from_json(f))
        for g in data["games"]:
            run.games.append(game(spec, g, findings.pop(g["game"], [])))
            run.games[-1].opponent_findings = theirs.pop(g["game"], [])
        if data.get("interrupted") and run.interrupted is None:
            run.interrupted = signal.Signals[data["interrupted"]]
    run.games.sort(key=lambda g: g.index)
    return run


def _spec(data: dict[str, Any]):
    """The spec the shards played: its file where it was, else the bundled one of that name."""
    path = Path(data["spec"]) if data.get("spec") else None
    if path is None or not path.exists():
        try:
            path = specmod.spec_path_for(data["game"])
        except specmod.SpecError:
            raise MergeError(f"{data['_path']}: the spec {data.get('spec')!r} is not here, and "
                             f"{data['game']!r} is not an installed game") from None
    try:
        return specmod.load(path, list(data.get("overrides") or []))
    except specmod.SpecError as exc:
        raise MergeError(f"{data['_path']}: its spec: {exc}") from None


def game(spec, data: dict[str, Any], findings: list[Finding]) -> GameReport:
    seats = list(spec.game.seats)
    report = GameReport(index=data["game"], seat=seats.index(data["seat"]) if data["seat"] in seats else 0,
                        seat_name=data["seat"], seed=data["seed"], result=data["result"], reason=data["reason"],
                        plies=data["plies"], moves=list(data["moves"]), findings=findings,
                        bot_moves=data.get("bot_moves"),
                        answer_ms=list(data.get("answer_ms", [])), startup_ms=data.get("startup_ms"),
                        transcript_path=data.get("transcript"), opponent=data.get("opponent"),
                        opponent_forfeited=data.get("opponent_forfeited"))
    if data.get("interrupted"):
        report.interrupted = int(signal.Signals[data["interrupted"]])
    report.rechecked = data.get("rechecked_alone")
    report.recheck_skipped = data.get("recheck_skipped")
    report.file_watch = data.get("file_watch")
    report.file_watch_missing = data.get("file_watch_missing", "")
    report.containment = data.get("containment", "none")
    report.answer_cpu_ms = list(data.get("answer_cpu_ms", []))
    report.answer_wait_ms = list(data.get("answer_wait_ms", []))
    res = data.get("resources") or {}
    report.envelope = res.get("envelope", "")
    report.enforced = res.get("enforced", "none")
    report.enforced_missing = res.get("enforced_missing", "")
    report.throttled_ms = res.get("throttled_ms") or 0.0
    report.peak_memory_mb = res.get("peak_memory_mb")
    report.share_worst_ms = res.get("share_worst_ms")
    return report


# -- replay and record --update --------------------------------------------------------------

def fixture_reports(command: str, reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The shards of one replay (or record --update) as one report, fixtures in order."""
    fixtures = sorted((f for d in reports for f in d["fixtures"]), key=lambda f: f["number"])
    merged = {k: v for k, v in reports[0].items() if not k.startswith("_")}
    merged.update(shard=None, fixtures=fixtures, failed=sum(d["failed"] for d in reports),
                  errors=[e for d in reports for e in d.get("errors", [])],
                  interrupted=next((d["interrupted"] for d in reports if d.get("interrupted")), None))
    merged["passed"] = not merged["failed"] and not merged["errors"] and merged["interrupted"] is None
    return merged


# -- fuzz ----------------------------------------------------------------------------------

def merged_resources(shards: list[dict[str, Any]]) -> dict[str, Any]:
    """The shards' resource figures as one: the largest of the maxima and peaks, the time
    held back added up, and the median of the shards' medians (each shard has only its own)."""
    import statistics

    def values(key: str) -> list[float]:
        return [r[key] for r in shards if r.get(key) is not None]

    first = shards[0] if shards else {}
    out: dict[str, Any] = {k: first.get(k) for k in ("envelope", "enforced", "enforced_missing")}
    for key in ("peak_memory_mb", "cpu_max_ms", "wait_max_ms", "share_worst_ms"):
        out[key] = max(values(key)) if values(key) else None
    for key in ("cpu_median_ms", "wait_median_ms"):
        out[key] = statistics.median(values(key)) if values(key) else None
    out["throttled_ms"] = round(sum(values("throttled_ms")), 3)
    return out


def fuzz_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The shards of one fuzz campaign as one report: every shard's examples and findings."""
    merged = {k: v for k, v in reports[0].items() if not k.startswith("_")}
    total = ("examples", "runs", "shrink_runs", "branches", "drawn", "made_way", "started_ahead")
    for key in total:
        merged[key] = sum(d.get(key) or 0 for d in reports)
    merged["jobs"] = sum(d.get("jobs") or 0 for d in reports)
    merged["shard"] = None
    merged["shards"] = [{k: d.get(k) for k in ("shard", "seed_stream", "examples", "passed", "ended",
                                                "first_failure_s", "elapsed_s")} for d in reports]
    merged["elapsed_s"] = max(d.get("elapsed_s") or 0 for d in reports)
    merged["findings"] = [f for d in reports for f in d.get("findings", [])]
    merged["nondeterministic"] = [n for d in reports for n in d.get("nondeterministic", [])][:5]
    merged["saved"] = [s for d in reports for s in d.get("saved") or []]
    merged["hints"] = list(dict.fromkeys(h for d in reports for h in d.get("hints") or []))
    merged["interrupted"] = next((d["interrupted"] for d in reports if d.get("interrupted")), None)
    merged["passed"] = all(d.get("passed") for d in reports)
    situations: dict[str, int] = {}
    for d in reports:
        for key, n in (d.get("situations") or {}).items():
            situations[key] = situations.get(key, 0) + n
    merged["situations"] = situations
    merged["resources"] = merged_resources([d.get("resources") or {} for d in reports])
    merged["coverage"] = merged_coverage([d.get("coverage") for d in reports])
    failed = [d for d in reports if not d.get("passed") and not d.get("interrupted")]
    merged["ended"] = "failure" if failed else reports[0].get("ended")
    first = [d for d in failed if d.get("first_failure_s") is not None]
    if first:
        earliest = min(first, key=lambda d: d["first_failure_s"])
        merged["first_failure_s"] = earliest["first_failure_s"]
        merged["first_failure_example"] = earliest.get("first_failure_example")
        merged["first_failure_origin"] = earliest.get("first_failure_origin")
    return merged


def merged_coverage(shards: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """The shards' coverage as one run's (prototest.play.corpus.summarize): a Python bot's
    lines reached are the union of the shards', file by file, and a function is never
    reached when no shard reached it; runs and corpus entries add up. A native bot's slots
    are not listed in a report: the most any shard reached stands for the union."""
    on = [c for c in shards if c and c.get("state") == "on"]
    if not on:
        return next((c for c in shards if c), None)
    out = dict(on[0])
    for key in ("runs", "new_examples", "corpus", "timing_rechecked"):
        out[key] = sum(c.get(key) or 0 for c in on)
    if out.get("kind") != "python":
        out["slots"] = max(c.get("slots") or 0 for c in on)
        return out
    files: dict[str, dict[str, Any]] = {}
    for c in on:
        for f in c.get("files") or []:
            into = files.setdefault(f["path"], {**f, "reached": set()})
            into["reached"] |= set(f.get("reached") or ())
            into["lines"] = max(into["lines"], f["lines"])
    for f in files.values():
        f["lines"] = max(f["lines"], len(f["reached"]))
        f["reached"] = sorted(f["reached"])
        if "missing" in f:  # the lines every shard missed (a span's lines that cannot run included)
            missed = [_spans(g["missing"]) for c in on for g in c.get("files") or ()
                      if g["path"] == f["path"] and "missing" in g]  # a shard that does not say is left out
            f["missing"] = _ranges(set.intersection(*missed) if missed else set())
    shown = [set(c.get("unreached_functions") or ()) for c in on]
    unreached = [name for name in on[0].get("unreached_functions") or () if all(name in s for s in shown)]
    complete = all(len(c.get("unreached_functions") or ()) == (c.get("unreached_count") or 0) for c in on)
    out.update(files=[files[p] for p in sorted(files)], lines=sum(f["lines"] for f in files.values()),
               lines_total=sum(f["total"] for f in files.values()), unreached_functions=unreached,
               unreached_count=len(unreached) if complete else min(c.get("unreached_count") or 0 for c in on),
               slots=sum(f["lines"] for f in files.values()))
    if complete:
        for f in out["files"]:
            f["unreached_functions"] = sum(1 for name in unreached if name.startswith(f["path"] + ":"))
    else:  # a shard named only some of its functions never reached: the fewest any shard counted
        for f in out["files"]:
            f["unreached_functions"] = min((g["unreached_functions"] for c in on for g in c.get("files") or ()
                                            if g["path"] == f["path"]), default=0)
    return out


def _spans(text: str) -> set[int]:
    """The lines a coverage report's Missing column names (`12-15, 30`)."""
    out: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def _ranges(lines: set[int]) -> str:
    spans: list[list[int]] = []
    for line in sorted(lines):
        if spans and line == spans[-1][1] + 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in spans)
