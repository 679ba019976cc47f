"""A bot asleep in a read of its input, its time run out, sent its turn's request again to
see what it does (see `AskAgain`): the evidence that tells a bot waiting for more input
than the judge sends from one that holds its answer in an unflushed buffer
(`prototest.judge.timeouts`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .pipes import line_shown, machine_took, unread_bytes
from .refereepart import RefereePart

_MS = 1_000_000
#: How long to wait, after a timeout, for an answer stuck in an unflushed buffer (or a
#: late one), times a time scale over 1: a machine slow enough to scale the limits is slow
#: to finish the answer too (here, and in prototest.judge.timeouts).
FLUSH_PROBE_MS = 300
#: After a waiting bot was sent its request again, how often to look at it, and how long
#: (times a time scale over 1) one that answered is watched for an exit.
AGAIN_STEP_MS = 10
AGAIN_EXIT_MS = 100


@dataclass
class Again:
    """What a bot asleep in a read of its input did when sent its request again (see
    AskAgain)."""
    total: int  # the lines of the request
    sent: int = 0  # how many of them were sent again
    answer: str | None = None  # the first line it wrote, if any
    ms: float = 0.0  # how long after the request the answer came
    exited: bool = False  # it exited (an exit may flush what it held)
    waits_again: bool = False  # it read what was sent and sat waiting again, writing nothing

    def what(self) -> str:
        """What the judge sent, for a message."""
        if self.total == 1:
            return "its request again (one line)"
        if self.sent == 1:
            return "one more line (the first of its request again)"
        return f"its request again ({self.total} lines)"



class AskAgain(RefereePart):
    """The request sent again to a bot that timed out asleep in a read of its input, and
    what it did then (an `Again`); no part of the protocol. Made with the Referee whose
    bot timed out."""

    def __call__(self) -> Again | None:
        """Send a bot asleep in a read of its input (the whole request read, nothing
        written) its turn's request again, as for a next turn, and watch what it does:
        first its first line alone, then, if the bot read it and waits again, the rest.
        Each time, over FLUSH_PROBE_MS at most, it answers (a line comes out, and it reads
        on: an exit would have flushed a held answer), or exits, or reads what it was sent
        and waits again without writing anything. One line first, so that a bot that
        reads one line too many answers and waits for its next turn, in step; then the
        rest, so that a bot that holds its answer stands again where a whole request
        leaves it, at the end of a turn: the end of its input then finds it where it
        would have found it (a Java bot that flushes when its input ends, not when a read
        fails mid-turn). The lines are no part of the protocol: the game is lost already,
        and the transcript says what they are. None: there is no request to send, or it
        could not be sent."""
        assert self.bot is not None
        lines = self.ref._expand(self.spec.turn.send, self.ref._fields())
        if not lines:
            return None
        self.bot.transcript.note("the request again, its first line alone first (no part of the protocol): is "
                                 "the bot waiting for more input than the judge sends?")
        again = Again(len(lines))
        for part in (lines[:1], lines[1:]):
            if not part:
                break
            if not self._watch(again, part):
                return None if again.sent == 0 else again
            if not again.waits_again:
                break
        return again

    def _watch(self, again: Again, part: list[str]) -> bool:
        """Send part of the request again and watch what the bot does (see __call__);
        False if it could not be sent."""
        assert self.bot is not None
        bot = self.bot
        scale = max(1.0, self.cfg.time_scale)
        t0 = time.perf_counter_ns()
        probe = int(FLUSH_PROBE_MS * scale * _MS)
        deadline, cap = t0 + probe, t0 + 4 * probe
        before = bot.usage(fresh=True)
        if bot.send(part, deadline) is None:
            return False
        again.sent += len(part)
        again.waits_again = False
        while True:
            step = min(deadline, time.perf_counter_ns() + AGAIN_STEP_MS * _MS)
            if step >= deadline and deadline < cap:
                # a loaded machine: the time it kept the bot from a CPU is given back (as
                # for an answer: Accounting._read_fair), up to four times the probe
                deadline = min(cap, max(deadline, t0 + probe + machine_took(bot, before)))
                step = min(deadline, time.perf_counter_ns() + AGAIN_STEP_MS * _MS)
            r = bot.read_line(step)
            if r.kind == "line":
                again.answer, again.ms = line_shown(r), (r.t_ns - t0) / _MS
                self.report.transcript.received(again.answer, r.t_ns, r.t_ns - t0)
                again.exited = not self._reads_on(int(AGAIN_EXIT_MS * scale * _MS))
                return True
            if r.kind in ("eof", "overflow") or not bot.alive():
                again.exited = not bot.alive() or r.kind == "eof"
                return True
            if step >= deadline:
                return True
            if not r.data and not unread_bytes(bot) and bot.waiting_for_input() and not bot.peek():
                # Seen waiting again, and only then nothing in its output: what it wrote
                # before that wait is in the pipe by the time the wait is seen (on a busy
                # machine it may have answered and gone back to reading since the read
                # above found nothing: that is an answer, read on the next round).
                again.waits_again = True
                return True

    def _reads_on(self, within_ns: int) -> bool:
        """After answering its request sent again: whether the bot goes on (seen waiting
        for input again, or still alive after `within_ns`) rather than exiting, its
        output kept for the transcript."""
        assert self.bot is not None
        deadline = time.perf_counter_ns() + within_ns
        while True:
            data = self.bot.drain(min(AGAIN_STEP_MS * _MS, max(0, deadline - time.perf_counter_ns())))
            if data:
                self.report.transcript.received(data.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
            if not self.bot.alive():
                return False
            if time.perf_counter_ns() >= deadline or (not unread_bytes(self.bot) and self.bot.waiting_for_input()):
                return True

