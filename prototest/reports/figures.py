"""The figures every report of a run shares: answer times, resources, each game's checks,
how the games were watched. The summary, the JSON and the JUnit properties all read them
here, so that every figure in a text equals the JSON's."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from ..judge.findings import CHECKS
from ..judge.game import CheckRun, GameReport

if TYPE_CHECKING:  # a check's report never imports the fuzz machinery
    from ..play.fuzzrun import FuzzRun


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


def answer_figures(answers: list[float]) -> dict[str, float | None]:
    ordered = sorted(answers)
    if not ordered:
        return {"median_ms": None, "p95_ms": None, "max_ms": None}
    return {"median_ms": statistics.median(ordered),
            "p95_ms": ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))],
            "max_ms": ordered[-1]}


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


def file_watch_missing(run: CheckRun) -> str:
    """Why file operations went unwatched in a game, when the spec cares about them."""
    if run.spec.severity["file_operation"] == run.spec.severity["runtime_cache"] == "ignore":
        return ""
    return next((g.file_watch_missing for g in run.games
                 if g.file_watch is None and g.file_watch_missing and g.result != "interrupted"), "")


def sandbox(run: CheckRun) -> dict[str, Any]:
    """How the games were watched and contained (see prototest.sandbox.keeper)."""
    first = run.games[0] if run.games else None
    return {"file_operations": first.file_watch if first else None,
            "file_operations_missing": file_watch_missing(run) or None,
            "containment": first.containment if first else None}


def startup_label(spec) -> str:
    """What the start-up figure measures: the time to the greeting when the protocol has
    one, else the first answer's time (which is not the others' median: it includes the
    bot's start, a JVM's or Node's included)."""
    return f"{spec.start.handshake!r} after" if spec.start.handshake else "first answer"
