"""Runs of the bot alone: a fuzz campaign's timing failure played again with nothing else
of prototest's running beside it, before it is a verdict.

Back alone, it is the bot's; not back, a busy machine made it: a `busy_machine` warning
naming the machine's load, and the search goes on. `Alone` is the gate of a campaign that
runs by itself; prototest.play.workers gives its campaigns one gate shared between them.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Callable

from ..judge.findings import Finding
from .evidence import first_fail, limit_ms, timing
from .forced import ForcedOpponent
from .fuzzrun import Example

if TYPE_CHECKING:
    from .fuzz import Campaign


class Alone:
    """The gate of a campaign that runs by itself: every run of its bot is alone already.
    (prototest.play.workers gives its campaigns a gate shared between them.)"""

    def running(self, waiting: Callable[[], object] = lambda: None) -> contextlib.AbstractContextManager:
        """Around each run of the bot: waits while another campaign plays alone (having
        called `waiting` once, when it must wait: the campaign's spare bot is killed)."""
        return contextlib.nullcontext()

    def spare_may_start(self) -> bool:
        """Whether this campaign may start a bot ahead of its next run (prototest.play.spare):
        not while another plays alone; True counts that bot as this campaign's until
        `spare_gone` (a run alone waits for it)."""
        return True

    def spare_gone(self) -> None:
        """This campaign's bot started ahead was adopted by its run, or killed."""

    def alone(self) -> contextlib.AbstractContextManager:
        """Around a run that must have nothing else of prototest's beside it: waits for
        the other campaigns' runs in progress to end, and holds their next ones."""
        return contextlib.nullcontext()

    def others_alone(self) -> bool:
        """Whether another campaign waits to play a run alone, or plays one."""
        return False


def played_alone(campaign: "Campaign", example: Example, fail: Finding) -> tuple[Example, Finding | None]:
    """A timing failure, played again before anything else (shortening included)
    with nothing else of prototest's running: the same opponent moves from the same
    start, the other campaigns' runs held (see Alone), no time budget to cut it short.
    Back alone, it is the bot's: the run alone is the example from now on. Not back,
    a busy machine made it: a `busy_machine` warning, and the search goes on (a
    failure of another kind that the run alone shows is still a failure). A timeout that
    came with the bot asleep by its own doing (Finding.asleep) is the bot's as it stands:
    it is not played again.

    Where the protocol sends the position and the state probe found that the bot keeps
    no state, the failing position is shown alone to a fresh bot first (as shortening's
    cold retry would show it next): the same failure there is both the re-check and the
    reproducer (one exchange), and the game is not played again; a bot that needs its
    memory of the game, or a fault that a fresh bot's first answer does not show, gets
    the game played again alone as before."""
    run, options = campaign.run, campaign.options
    load = os.getloadavg()  # the machine as the failure found it
    limit = limit_ms(fail)
    record = {
        "example": run.examples, "worker": options.worker + 1 if options.jobs > 1 else None,
        "jobs": options.jobs, "kind": fail.kind, "message": fail.message, "turn": fail.turn,
        "elapsed_ms": fail.elapsed_ms, "limit_ms": limit, "load_average": [round(x, 2) for x in load],
        "alone": "not needed: asleep", "alone_kind": None, "alone_elapsed_ms": None, "coverage": example.coverage,
    }
    if fail.asleep:
        # The bot was asleep by its own doing when its time ran out (in a sleep that lasts
        # another whole limit, stopped, or waiting for ever): neither a busy machine nor the
        # collector's cost can cause that, and `check` re-checks no such game either.
        run.rechecked.append(record)
        return example, fail
    cold = shown_cold_alone(campaign, example, fail)
    if cold is not None:
        found = first_fail(cold)
        assert found is not None
        record.update(alone="the same, shown cold", alone_kind=found.kind, alone_elapsed_ms=found.elapsed_ms)
        run.rechecked.append(record)
        return cold, found
    again = campaign.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                          opponent=ForcedOpponent(example.opponent_moves), max_turns=example.max_turns,
                          plan=example.plan, alone=True)
    again.branched = example.branched
    found = first_fail(again)
    back = timing(found)
    # played without the coverage collector: its cost is never a timing fault
    record.update(alone="the same" if back else "not again", alone_kind=found.kind if found is not None else None,
                  alone_elapsed_ms=found.elapsed_ms if back and found is not None else None)
    run.rechecked.append(record)
    if not back and example.coverage and collector_cost(campaign, example):
        # back alone with the collector, not without it: its cost, not the bot's, nor the machine's
        record["alone"] = "not without coverage"
        campaign.coverage.timing_not_back()
    elif not back:
        campaign.observer.keep_warning(busy_machine(fail, limit, load, options.jobs))
    return again, found


def shown_cold_alone(campaign: "Campaign", example: Example, fail: Finding) -> Example | None:
    """The failing position shown alone to a fresh bot for one answer, when that is
    evidence (the protocol sends the position, the probe found no state kept) and the
    failure is not a fresh bot's first answer already: the run, if it failed the same
    way at the same ply; else None. Its run is remembered (Campaign.play's memo), so the
    cold retry that shortening starts with does not play it again."""
    moves = list(fail.moves)
    if (not campaign.target.spec.sends_position or campaign.state_verdict() is not False or not moves
            or (example.cold and moves == example.start_moves)):
        return None
    cold = campaign.play_cold(example.seat, moves, alone=True)
    found = first_fail(cold)
    if found is None or found.kind != fail.kind or list(found.moves) != moves:
        return None
    cold.plan, cold.branched = example.plan, example.branched
    return cold


def collector_cost(campaign: "Campaign", example: Example) -> bool:
    """Whether a timing failure seen with coverage, not back alone without it, comes back
    alone with it: then the collector's cost made it (no warning); if not, the machine did."""
    again = campaign.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                          opponent=ForcedOpponent(example.opponent_moves), max_turns=example.max_turns,
                          plan=example.plan, alone=True, coverage=True)
    return timing(first_fail(again))


def busy_machine(fail: Finding, limit: float | None, load: tuple[float, float, float], jobs: int) -> Finding:
    """The warning of a timing failure that did not come back alone."""
    took = f"{fail.elapsed_ms:.1f} ms" if fail.elapsed_ms is not None else "its time"
    held = f"a {limit:.0f} ms limit" if limit is not None else "its limit"
    beside = f"while {jobs} jobs ran at once, " if jobs > 1 else ""
    where = f" on its turn {fail.turn}" if fail.turn else ""
    message = (f"{fail.kind}{where}: {took} for {held} {beside}at a load average of {load[0]:.2f} "
               f"({load[1]:.2f} over 5 min) on {_cores()} cores; it did not come back when the example "
               f"was played again alone: put down to a busy machine, not blamed on the bot "
               f"(first: {fail.message})")
    return Finding(kind="busy_machine", severity="warn", message=message, game=fail.game, turn=fail.turn,
                   ply=fail.ply, position=fail.position, moves=list(fail.moves), elapsed_ms=fail.elapsed_ms,
                   limit_ms=limit, stderr_tail=list(fail.stderr_tail), transcript=fail.transcript,
                   rule="busy_machine")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
