"""Cold retries of a failing position: the position a fuzz failure happened in, shown to a
fresh bot (`prototest.play.fuzz`, where the protocol sends the position).

The same failure makes that position the reproducer (one exchange, or two for a timing
fault seen only on a fresh bot's second turn). A crash, or a bot seen to answer the same
input differently, is shown to up to COLD_TRIES fresh bots, and the rate said (k of n).
Otherwise a note says what the fresh bot did: another answer means the fault needs the
bot's memory of the game; the same move does not.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from typing import TYPE_CHECKING

from ..judge.findings import Finding
from ..judge.game import Exchange
from .evidence import (CRASH_KINDS, clocked, cut_short, first_fail, given_in, limit_ms, request_of, same_move,
                       same_request, timing)
from .fuzzrun import Example, Failure

if TYPE_CHECKING:
    from .fuzz import Campaign

#: Fresh bots shown a failing position, at most, before a bot that answers the same input
#: differently is said to need its memory of the game (one, for a bot that does not).
COLD_TRIES = 5


class ColdRetry:
    """Shows a campaign's failing position cold, within its shrinking budget."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign

    def retry(self, failure: Failure) -> Failure:
        """The failing position shown cold to a fresh bot: the same failure makes it the
        reproducer (one exchange). A timing fault is tried a second way when the first does
        not show it: a fresh bot's first answer has the start-up's longer limit, so the bot
        starts a turn earlier and the failing position is its second turn (two exchanges).
        Otherwise a note says what the fresh bot did, named only from a run of the bot on
        exactly the failing request (colour line and clock values aside): another answer
        means the fault needs the bot's memory of the game; the same move does not (see
        note)."""
        c = self.campaign
        budget_left = c.shrinker.budget_left
        spec = c.target.spec
        moves = list(failure.finding.moves)
        example = failure.example
        if moves == example.start_moves and (example.cold or not moves):  # its first answer failed
            return replace(failure, cold="reproduces")
        if not budget_left():
            return failure
        warm = request_of(example.report)
        cold = c.play_cold(example.seat, moves)
        if not same_request(spec, warm, cold) and budget_left():
            cold = c.play_cold(example.seat, moves, memo=False)  # a remembered run of another request
        fail = first_fail(cold)
        if fail is None and cut_short(cold):
            return failure  # the budget ran out: no conclusion
        if timing(fail) and not timing(failure.finding):
            return failure  # too slow where the failure is not about time: no conclusion
        if fail is not None and fail.kind == failure.finding.kind:
            return Failure(cold, fail, confirmed=failure.confirmed, cold="reproduces")
        tries = 1
        if not timing(failure.finding) and (c.nondeterministic() or failure.finding.kind in CRASH_KINDS):
            # A bot that answers the same input differently, or crashes, may fail there only
            # sometimes (a race, a buffer filled in time): one fresh bot that did not is no
            # evidence that the fault needs the game's memory. More fresh bots, and the rate
            # said (k of n).
            same: list[tuple[Example, Finding]] = []
            while tries < COLD_TRIES and budget_left():
                again = c.play_cold(example.seat, moves, memo=False)
                found = first_fail(again)
                if found is None and cut_short(again):
                    break
                tries += 1
                if found is not None and found.kind == failure.finding.kind and list(found.moves) == moves:
                    same.append((again, found))
            if same:
                return Failure(same[0][0], same[0][1], confirmed=failure.confirmed, cold="reproduces",
                               cold_tries=(len(same), tries))
        if timing(failure.finding) and len(moves) >= 2 and budget_left():
            second = c.play_cold(example.seat, moves, turns=2)
            fail2 = first_fail(second)
            if fail2 is not None and fail2.kind == failure.finding.kind and list(fail2.moves) == moves:
                return Failure(second, fail2, confirmed=failure.confirmed, cold="reproduces", cold_turns=2)
        if warm is None or not same_request(spec, warm, cold):
            return failure  # the fresh bot was not shown the failing request: no conclusion
        return self.note(failure, warm, cold, fail, tries)

    def note(self, failure: Failure, warm: Exchange, cold: Example, fail: Finding | None,
             tries: int = 1) -> Failure:
        """What a fresh bot shown the failing request did, where it did not fail the same
        way, said as the evidence shows it. A timing failure is compared in time (the fresh
        bot's first answer includes its start, and may take longer than the running bot's
        answer could): never a memory fault. Otherwise the same move is no memory fault
        either; another answer (or none, where the running bot answered) is."""
        c = self.campaign
        spec = c.target.spec
        fresh = request_of(cold.report)
        assert fresh is not None
        given, ran = given_in(fresh), given_in(warm)
        same = same_move(spec, given, ran)
        did = "a fresh bot shown the failing position" + (" (its clock full)" if clocked(spec) else "")
        if given is None:
            did += " gave no answer"
        else:
            did += f" answered {given!r}" + (" late" if fresh.answer is None else "")
            if same:
                did += ", the move the running bot " + ("gave late" if warm.answer is None else "answered")
            elif ran is not None:
                did += f" where the running bot answered {ran!r}" + (" late" if warm.answer is None else "")
        if fail is not None:
            did += f", and failed otherwise ({fail.kind}: {fail.message})"
        if timing(failure.finding):
            limit = limit_ms(failure.finding)
            if fail is None and fresh.answer is not None and limit is not None and fresh.elapsed_ms is not None:
                took = fresh.elapsed_ms
                if took <= limit:
                    did += (f", in {took:.0f} ms (its start included): within the {limit:.0f} ms the running "
                            f"bot's answer had")
                else:
                    # A first answer includes the start, which takes about the median first answer.
                    first = c.run.first_answer_ms
                    start = statistics.median(first) if first else 0.0
                    did += (f", after {took:.0f} ms (its start included; first answers in this run took "
                            f"{start:.0f} ms at the median): over the {limit:.0f} ms the running bot's answer had")
                    if took - start > limit:
                        did += ", so it is slow in that position without its memory of the game too"
            return replace(failure, cold="timing", cold_answer=given, cold_note=did)
        if same and fail is None:
            return replace(failure, cold="same answer", cold_answer=given,
                           cold_note=did + ", without the failure")
        if given is None and ran is None and fail is None:
            return failure  # neither answered: nothing to compare
        if tries > 1:
            did += f"; {tries} fresh bots shown it, none failed the same way"
        return replace(failure, cold="needs memory", cold_answer=given, cold_tries=(0, tries) if tries > 1 else None,
                       cold_note=f"the fault needs the bot's memory of the game: {did}")
