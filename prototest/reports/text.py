"""The words every text report shares: plurals, ranges of game numbers, times, a finding
with its evidence, a fuzz reproducer, the resources line. check's, match's and fuzz's
summaries, the JUnit failures' text, the HTML page and fuzz_test's messages say them alike."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

from ..judge import answertime
from ..judge.findings import Finding, show_moves
from ..sandbox.transcript import show


def plural(n: int, noun: str) -> str:
    """'1 game', '2 games'; '1 ply', '2 plies'."""
    if noun == "ply":
        return f"{n} {'ply' if n == 1 else 'plies'}"
    return f"{n} {noun}" + ("" if n == 1 else "s")


def coverage_news(cov: dict[str, Any]) -> str:
    """What a run with coverage counts as new (the summary's and the page's words): new
    code, and with `fuzz --value-profile` a new distance between compared values."""
    return "new code, or a new distance between compared values" if cov.get("values") else "new code"


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


def millis(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


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
            lines.extend(finding_lines(f))
        elif shown[key] <= SHOWN_IN_FULL + SHOWN_AS_A_LINE:
            lines.append(finding_lines(f)[0])
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


def _folded(f: Finding) -> str:
    """' [10 times]', with the range of answer times (wall times, elapsed_ms of each
    occurrence) of a timing finding."""
    if f.count <= 1:
        return ""
    span = f.elapsed_range() if f.limit_ms is not None else None  # timing findings only
    if span and f"{span[0]:.1f}" != f"{span[1]:.1f}":
        return f" [{f.count} times, answered in {span[0]:.1f} to {span[1]:.1f} ms]"
    return f" [{f.count} times]"


def finding_lines(f: Finding) -> list[str]:
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


def resources_line(r: dict[str, Any]) -> str | None:
    """The resources figures in a line (None when nothing was measured)."""
    if r["cpu_median_ms"] is None and r["peak_memory_mb"] is None:
        return None
    parts = []
    if r["peak_memory_mb"] is not None:
        parts.append(f"peak memory {r['peak_memory_mb']:.0f} MB")
    if r["cpu_median_ms"] is not None:
        parts.append(f"CPU per answer median {millis(r['cpu_median_ms'])}, max {millis(r['cpu_max_ms'])}")
        parts.append(f"waited for a CPU (its threads together) median {millis(r['wait_median_ms'])}, "
                     f"max {millis(r['wait_max_ms'])}")
    if r["throttled_ms"]:
        parts.append(f"held back by the CPU quota {millis(r['throttled_ms'])}")
    if r["share_worst_ms"] is not None:
        parts.append(f"worst answer under the CPU share {millis(r['share_worst_ms'])}")
    return "  resources: " + "; ".join(parts)


def envelope_line(r: dict[str, Any]) -> str | None:
    if not r["envelope"]:
        return None
    how = {"measured": "held by measuring" + (f" ({r['enforced_missing']})" if r["enforced_missing"] else ""),
           "none": "not held"}.get(r["enforced"], f"held by a {r['enforced']}")
    return f"  envelope: {r['envelope']}; {how}"


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
    lines.append(f"    sent:     {sent_line(r['sent'])}")
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


def reproducer_text(failure) -> str:
    """A failure's reproducer as text (the message of a failing pytest test)."""
    return "\n".join(reproducer_lines(failure.details, failure.finding))


def sent_line(sent: Sequence[str], limit: int = 14) -> str:
    shown = list(sent[:limit]) + ([f"... ({len(sent) - limit} more lines)"] if len(sent) > limit else [])
    return " | ".join(show(line) for line in shown) if shown else "(nothing)"


def _wrapped(head: str, text: str, width: int = 100) -> list[str]:
    """A long sentence under a label, its lines indented under the first."""
    return textwrap.wrap(text, width, initial_indent=head, subsequent_indent=" " * len(head),
                         break_long_words=False, break_on_hyphens=False) or [head.rstrip()]


def fuzz_warning_lines(f: Finding) -> list[str]:
    """A warning folded over the run: in how many examples, how often in all."""
    spread = ""
    if f.examples and f.examples > 1:
        spread = f" [in {f.examples} examples, {f.count} times]"
    elif f.count > 1:
        spread = f" [{f.count} times]"
    return [f"WARN {f.kind}: {f.message}{spread}"]


def data_finding_lines(data: dict[str, Any]) -> list[str]:
    f = Finding.from_json(data)
    if data.get("reproducer"):
        return reproducer_lines(data["reproducer"], f)
    return finding_lines(f)
