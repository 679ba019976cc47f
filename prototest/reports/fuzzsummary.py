"""fuzz's readable summary and its progress line: the examples run, the answers judged,
the situations reached, each minimal failing example's reproducer, the verdict."""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, Any, Sequence

from .figures import answer_figures, fuzz_resources
from .summary import other_game_verdict
from .text import coverage_news, envelope_line, fuzz_warning_lines, millis, reproducer_lines, resources_line, sent_line

if TYPE_CHECKING:  # a check's report never imports the fuzz machinery
    from ..play.fuzzrun import FuzzRun


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


def coverage_lines(cov: dict) -> list[str]:
    """What the run reached of the bot's own code (prototest.play.corpus.summarize): none
    when the user turned coverage off."""
    if not cov or cov.get("reason") == "--coverage off":
        return []
    if cov["state"] != "on":
        return [f"  coverage off: {cov['reason']}"]
    if cov["kind"] == "python":
        total = cov["lines_total"]
        share = f" ({100 * cov['lines'] / total:.0f}%)" if total else ""
        files = len(cov["files"])
        head = (f"  coverage: {cov['lines']} of {total} lines{share} of the bot's own code in {files} "
                f"file{'s' if files != 1 else ''}")
    else:
        head = f"  coverage (native): {cov['slots']} slots of the map reached (edges; no total is known)"
    head += (f"; {cov['new_examples']} of {cov['runs']} runs with it reached {coverage_news(cov)} "
             f"({cov['corpus']} kept to go on from)")
    lines = [head]
    if cov.get("unreached_count"):
        shown = cov["unreached_functions"]
        more = cov["unreached_count"] - len(shown)
        lines.append(f"  never reached: {cov['unreached_count']} function{'s' if cov['unreached_count'] != 1 else ''}: "
                     + ", ".join(shown) + (f" and {more} more (the JSON report lists {len(shown)})" if more else ""))
    if cov.get("timing_rechecked"):
        lines.append(f"  coverage's cost: {cov['timing_rechecked']} timing finding(s) seen with coverage on did not "
                     f"come back without it: not counted against the bot")
    return lines


def fuzz_summary(run: FuzzRun) -> str:
    spec, opts = run.target.spec, run.options
    lines = [f"prototest fuzz: {spec.game.title or spec.name}, bot {' '.join(run.target.argv)}, "
             f"{opts.mode} mode, seed {opts.seed}"
             + (f", {run.workers} jobs" if run.workers > 1 else "")
             + (f", time scale {run.target.time_scale}" if run.target.time_scale != 1 else ""), ""]
    lines.extend(fuzz_context_lines(run))
    first, later = answer_figures(run.first_answer_ms), answer_figures(run.answer_ms)
    ended = _ended(run)
    lines.append(f"  {run.examples} examples ({run.runs} runs of the bot) in {run.elapsed_s:.1f} s"
                 + (f"; {ended}" if ended else ""))
    if opts.database is not None:
        lines.append(f"  example database: {opts.database} (failures saved there are replayed first)")
    lines.append(f"  answers: {len(run.answer_ms) + len(run.first_answer_ms)} judged; first answers (start-up "
                 f"included): median {millis(first['median_ms'])}, max {millis(first['max_ms'])}; later answers: "
                 f"median {millis(later['median_ms'])}, p95 {millis(later['p95_ms'])}, max {millis(later['max_ms'])}")
    res = fuzz_resources(run)
    for line in (resources_line(res), envelope_line(res)):
        if line:
            lines.append(line)
    if run.styles:
        lines.append("  opponent styles (examples): " + ", ".join(f"{n} {c}" for n, c in run.styles.most_common())
                     + (f"; {run.drawn} drawn as check draws its games" if run.drawn else "")
                     + (f"; {run.branches} examples went on from games that came near a boundary" if run.branches else ""))
    lines.extend(_situation_lines(run))
    lines.extend(coverage_lines(run.coverage))
    if run.probe is not None:
        lines.append(f"  state probe: {run.probe.message}")
    lines.extend(_recheck_line(r) for r in run.rechecked[:SHOWN_RECHECKS])
    if run.made_way:
        lines.append(f"  cut short: {run.made_way} example{'s' if run.made_way > 1 else ''} of other workers, "
                     f"dropped as they stood while a run was played alone (their bots killed, nothing judged)")
    if len(run.rechecked) > SHOWN_RECHECKS:
        lines.append(f"  re-checked alone: {len(run.rechecked) - SHOWN_RECHECKS} more timing failures "
                     f"(the JSON report lists them all)")
    for failure in run.failures:
        lines.append("")
        lines.extend(reproducer_lines(failure.details, failure.finding))
    for f in run.warnings:
        lines.append("")
        lines.extend(fuzz_warning_lines(f))
    for n in run.nondeterminism:
        lines.append("")
        lines.append(f"WARN nondeterministic: the same input got {_answer(n.first)} in example {n.first_example} "
                     f"and {_answer(n.second)} in example {n.second_example} (ply {n.ply}): a failure "
                     f"may not come back when replayed")
        lines.append(f"    sent:     {sent_line(n.sent)}")
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
    """A timing failure played again alone (prototest.play.alone), in one line."""
    worker = f" (worker {r['worker']})" if r.get("worker") else ""
    figures = [r["kind"]]
    if r.get("elapsed_ms") is not None:
        figures.append(f"{r['elapsed_ms']:.1f} ms" + (f" of {r['limit_ms']:.0f} ms" if r.get("limit_ms") is not None
                                                      else ""))
    beside = f" while {r['jobs']} jobs ran at once" if r.get("jobs", 1) > 1 else ""
    if r["alone"] == "not needed: asleep":
        return (f"  not re-checked alone: example {r['example']}{worker} had a timing failure ({', '.join(figures)})"
                f"{beside} with the bot asleep by its own doing when its time ran out (in a sleep that lasts "
                f"another whole limit, stopped, or waiting for ever): a busy machine cannot cause that")
    if r["alone"] == "the same":
        outcome = "the same: the bot's"
    elif r["alone"] == "the same, shown cold":
        outcome = "its failing position shown to a fresh bot failed the same way: the bot's"
    elif r["alone"] == "not without coverage":
        outcome = ("again with coverage, not without it: the collector's cost, not blamed on the bot"
                   + (f" (it failed otherwise: {r['alone_kind']})" if r.get("alone_kind") else ""))
    else:
        outcome = "not again: WARN busy_machine, not blamed on the bot"
        if r.get("alone_kind"):
            outcome += f" (it failed otherwise: {r['alone_kind']})"
    return (f"  re-checked alone: example {r['example']}{worker} had a timing failure ({', '.join(figures)})"
            f"{beside}, load average {r['load_average'][0]:.2f}; played again alone: {outcome}")


def _answer(text: str | None) -> str:
    return "no answer" if text is None else repr(text)
