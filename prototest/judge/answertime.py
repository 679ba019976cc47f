"""An answer's time in words and in figures, made in one place so that a finding's text
and its JSON say the same thing.

An answer's time is several quantities (see prototest.sandbox.envelope.Spent), and a sentence
that names one must not print another:

* **elapsed**: the wall time from the request's write to the answer's read;
* **machine** (the time excused): what the machine kept from the answer: the longest wait
  of one of the bot's threads for a CPU, less the time its CPU quota held it back
  (`bot_wait`), plus the judge's own wait for a CPU since it last looked for the bot's output
  and found none, or since the look that found it began when that look had to wait for it
  (`judge_wait`: an answer waiting in the pipe while the judge waited to read it; see
  prototest.sandbox.envelope.spent), never more than the CPU time
  the machine's other processes used meanwhile (`others_cpu`), nor than the answer's time
  less the CPU time of the bot's busiest thread (`thread_cpu`: the two waits may overlap,
  and a thread that computed was not kept from a CPU meanwhile);
* **own**: the elapsed time less the machine's: the bot's own time, which its limit is
  held to; against the statement's limit (the bot's own speed) the quota's time is left
  out too;
* **throttled**: the time the bot's CPU quota held it back;
* **cpu**: the bot's CPU time; **wait**: its threads' waits for a CPU, summed over them.

Every figure a message prints is a field of the finding's JSON under the name above with
`_ms` (`AnswerTime.figures`), shown with one decimal; a share of a limit is the finding's
`limit_percent`, of the figure the message says it is of.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..sandbox.envelope import Spent
from .findings import TIME_FIELDS

_MS = 1_000_000


def _ms(ns: int | None) -> float | None:
    return None if ns is None else round(ns / _MS, 3)


def shown(ms: float | None) -> bool:
    """Whether a figure is worth a sentence: it reads as more than 0.0 ms."""
    return ms is not None and f"{ms:.1f}" != "0.0"


def percent(part_ns: float, whole_ns: float) -> int:
    """A share of a limit, as a message prints it (a whole number)."""
    return int(round(100 * part_ns / whole_ns)) if whole_ns else 0


@dataclass(frozen=True)
class AnswerTime:
    """One answer's time: its wall time, and what the bot used meanwhile (None when the
    machine's accounting was not available: then nothing is excused)."""

    elapsed_ns: int
    used: Spent | None = None

    @property
    def elapsed_ms(self) -> float:
        return self.elapsed_ns / _MS  # unrounded, as every finding's elapsed_ms has been

    @property
    def machine_ns(self) -> int:
        return min(self.used.excused_ns, self.elapsed_ns) if self.used is not None else 0

    @property
    def throttled_ns(self) -> int:
        return self.used.throttled_ns if self.used is not None else 0

    def own_ns(self, quota_excused: bool = False) -> int:
        """The answer's time less the machine's; `quota_excused`: less the quota's too."""
        return max(0, self.elapsed_ns - self.machine_ns - (self.throttled_ns if quota_excused else 0))

    def figures(self, quota_excused: bool = False) -> dict[str, Any]:
        """The finding's JSON fields for this answer (findings.TIME_FIELDS)."""
        u = self.used
        figures = {
            "elapsed_ms": self.elapsed_ms,
            "own_ms": _ms(self.own_ns(quota_excused)),
            "machine_ms": _ms(self.machine_ns) if u is not None else None,
            "bot_wait_ms": _ms(u.bot_wait_ns) if u is not None else None,
            "judge_wait_ms": _ms(u.judge_wait_ns) if u is not None else None,
            "others_cpu_ms": _ms(u.others_ns) if u is not None else None,
            "thread_cpu_ms": _ms(u.run_max_ns) if u is not None else None,
            "throttled_ms": _ms(u.throttled_ns) if u is not None else None,
            "cpu_ms": _ms(u.cpu_ns) if u is not None else None,
            "wait_ms": _ms(u.wait_ns) if u is not None else None,
        }
        assert tuple(figures) == TIME_FIELDS
        return figures


def machine_words(fig: dict[str, Any], *extra: str) -> str:
    """'the machine kept 56.4 ms of it from the answer (a thread of the bot waited 40.0 ms
    for a CPU; the judge waited 16.4 ms for a CPU)', from a finding's figures;
    `extra`: more words for the parentheses (the load)."""
    parts = []
    if shown(fig["bot_wait_ms"]):
        besides = " besides its CPU quota's time" if shown(fig.get("throttled_ms")) else ""
        parts.append(f"a thread of the bot waited {fig['bot_wait_ms']:.1f} ms for a CPU{besides}")
    if shown(fig["judge_wait_ms"]):
        parts.append(f"the judge waited {fig['judge_wait_ms']:.1f} ms for a CPU")
    whole = (fig["bot_wait_ms"] or 0) + (fig["judge_wait_ms"] or 0)
    if parts and fig["machine_ms"] < whole - 0.05:  # counted up to a cap
        others = fig["others_cpu_ms"]
        if others is not None and abs(others - fig["machine_ms"]) < 0.001:
            parts.append(f"counted up to the {others:.1f} ms of CPU the machine's other processes used meanwhile")
        elif shown(fig.get("thread_cpu_ms")):
            parts.append(f"counted up to the answer's time less the {fig['thread_cpu_ms']:.1f} ms of CPU its "
                         f"busiest thread used")
        else:
            parts.append("counted up to the answer's whole time")
    parts.extend(extra)
    return f"the machine kept {fig['machine_ms']:.1f} ms of it from the answer" + (f" ({'; '.join(parts)})"
                                                                                    if parts else "")


def load() -> dict[str, Any]:
    """The machine's load now, as a busy_machine finding states it (load_average, cores)."""
    try:
        one = round(os.getloadavg()[0], 2)
    except OSError:
        one = None
    return {"load_average": one, "cores": os.cpu_count() or 1}


def load_words(fig: dict[str, Any]) -> str:
    if fig.get("load_average") is None:
        return "the machine's load is not known"
    return f"load average {fig['load_average']:.1f} on {fig['cores']} cores"


# -- the messages --------------------------------------------------------------------------------

def slow_near_limit(t: AnswerTime, limit_ns: int) -> tuple[str, dict[str, Any]]:
    """A WARN slow from the spec's near-limit share: its own time's share of the limit."""
    fig = t.figures()
    fig.update(limit_ms=limit_ns / _MS, limit_percent=percent(t.own_ns(), limit_ns))
    limit = f"{fig['limit_percent']}% of the {fig['limit_ms']:.0f} ms it had"
    if not shown(fig["machine_ms"]):
        return f"answered in {fig['elapsed_ms']:.1f} ms, {limit}", fig
    return (f"answered in {fig['elapsed_ms']:.1f} ms, but {machine_words(fig)}: its own time, "
            f"{fig['own_ms']:.1f} ms, is {limit}"), fig


def slow_statement(t: AnswerTime, statement_ns: int, limit_ns: int) -> tuple[str, dict[str, Any]]:
    """A WARN slow over the statement's limit (about the bot's own speed: neither the
    machine's time nor the quota's counts), within the referee's."""
    fig = t.figures(quota_excused=True)
    fig.update(limit_ms=statement_ns / _MS, referee_limit_ms=limit_ns / _MS)
    within = f"over the statement's {fig['limit_ms']:.0f} ms, within the referee's {fig['referee_limit_ms']:.0f} ms"
    excused = []
    if shown(fig["machine_ms"]):
        excused.append(machine_words(fig))
    if shown(fig["throttled_ms"]):
        excused.append(f"its CPU quota held it back {fig['throttled_ms']:.1f} ms")
    if not excused:
        return f"answered in {fig['elapsed_ms']:.1f} ms: {within}", fig
    return (f"answered in {fig['elapsed_ms']:.1f} ms, but {' and '.join(excused)}: its own time, "
            f"{fig['own_ms']:.1f} ms, is {within}"), fig


def still_over(fig: dict[str, Any]) -> str:
    """For an answer late by itself: '; less the 12.0 ms the machine kept from it, its
    own time, 112.3 ms, is still over it' ('' when the machine kept nothing)."""
    if fig.get("machine_ms") is None or not shown(fig["machine_ms"]):
        return ""
    return f"; {machine_words(fig)}: its own time, {fig['own_ms']:.1f} ms, is still over it"


def busy_machine(t: AnswerTime, answer: str | None, limit_ns: int, limit_what: str,
                 machine_load: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A WARN busy_machine: late only because of the machine's time (its parts named)."""
    fig = t.figures()
    fig.update(limit_ms=limit_ns / _MS, **machine_load)
    got = (f"{answer!r} after {fig['elapsed_ms']:.1f} ms" if answer is not None
           else f"no answer after {fig['elapsed_ms']:.1f} ms")
    fig["got"] = got
    fig["expected"] = f"an answer within {fig['limit_ms']:.0f} ms"
    return (f"{got}: over the {fig['limit_ms']:.0f} ms it had ({limit_what}), but "
            f"{machine_words(fig, load_words(fig))}: its own time, {fig['own_ms']:.1f} ms, is within the limit, so this is not "
            f"blamed on the bot (CPU {fig['cpu_ms']:.1f} ms)"), fig


def quota_late(t: AnswerTime, answer: str | None, limit_ns: int, limit_what: str, share: str,
               why: str) -> tuple[str, dict[str, Any]]:
    """A cpu_share finding: late because the CPU quota held the bot back (a cgroup's)."""
    fig = t.figures()
    fig["limit_ms"] = limit_ns / _MS
    got = (f"{answer!r} after {fig['elapsed_ms']:.1f} ms" if answer is not None
           else f"no answer within {fig['elapsed_ms']:.1f} ms")
    fig["got"] = got
    machine = f"; {machine_words(fig)}" if shown(fig["machine_ms"]) else ""
    return (f"{got}: over the {fig['limit_ms']:.0f} ms it has ({limit_what}){machine}; it used "
            f"{fig['cpu_ms']:.1f} ms of CPU, and {share} held it back {fig['throttled_ms']:.1f} ms {why}"), fig


def share_model(t: AnswerTime, answer: str, worst_ns: int, limit_ns: int, share: str) -> tuple[str, dict[str, Any]]:
    """The words of a cpu_share finding from the share model (no cgroup): the answer's CPU
    time and own time here, and its worst wall time under the share; the caller adds
    whether that is over the limit or near it (`limit_percent`: the worst time's share)."""
    fig = t.figures()
    fig.update(limit_ms=limit_ns / _MS, share_worst_ms=_ms(worst_ns), limit_percent=percent(worst_ns, limit_ns))
    here = f"{fig['own_ms']:.1f} ms here"
    if shown(fig["machine_ms"]):
        here = (f"{fig['own_ms']:.1f} ms of its own time here (the answer's {fig['elapsed_ms']:.1f} ms less the "
                f"{fig['machine_ms']:.1f} ms the machine kept from it)")
    return (f"{answer!r} took {fig['cpu_ms']:.1f} ms of CPU and {here}; under {share} it takes up to "
            f"{fig['share_worst_ms']:.1f} ms"), fig


def time_line(fig: dict[str, Any]) -> str:
    """A failure's evidence line: '401.3 ms (CPU 0.1 ms; waited for a CPU 0.0 ms, its
    threads together)', with the machine's part and the bot's own time when there is one."""
    line = f"{fig['elapsed_ms']:.1f} ms"
    if shown(fig.get("machine_ms")) and fig.get("own_ms") is not None:
        line += f"; {machine_words(fig)}: its own time {fig['own_ms']:.1f} ms"
    if fig.get("cpu_ms") is None or fig.get("wait_ms") is None:
        return line
    waited = f"waited for a CPU {fig['wait_ms']:.1f} ms, its threads together"
    if shown(fig.get("throttled_ms")):  # the kernel counts a throttled thread as waiting
        waited += f", {fig['throttled_ms']:.1f} ms of it held back by its CPU quota"
    return line + f" (CPU {fig['cpu_ms']:.1f} ms; {waited})"
