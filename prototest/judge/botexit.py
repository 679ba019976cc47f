"""The bot's exit at the game's end: its input closed, then its exit waited for within the
spec's grace (end.exit_grace_ms) and judged: output after the end, no exit, an exit status
other than 0 or an error on its stderr. A match closes both bots' inputs first, then waits
for both exits at once (`prototest.judge.seat`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from . import traces
from ..sandbox import process
from ..sandbox.transcript import show
from .pipes import machine_took

_MS = 1_000_000
#: A bot slow to exit on a busy machine is given back the time the machine kept it from a CPU,
#: up to this many times its exit grace, or EXIT_GIVEN_MIN_MS, whichever is more (a short
#: grace, at a small time scale, is soon used up by a loaded machine; see Ending.judge).
EXIT_GRACE_CAP = 4
EXIT_GIVEN_MIN_MS = 5000


@dataclass(frozen=True)
class Ending:
    """A bot whose input was closed at the game's end (`Ending.begin`): where its
    stderr stood, what it wrote out of turn, and until when it may take to exit."""

    stderr_mark: int
    late: bytes
    grace_ns: int
    deadline_ns: int
    answer_pending: bool
    closed_ns: int = 0  # when its input was closed
    before: Any = None  # its usage then (the machine's time is given back: Ending.judge)

    @classmethod
    def begin(cls, referee: Any, answer_pending: bool = False) -> Ending:
        """The first half of `Dialogue._finish`: `referee`'s bot's input closed, its exit
        grace begun (a match closes both bots' inputs, then waits for both exits at once)."""
        assert referee.bot is not None
        bot = referee.bot
        stderr_mark = bot.stderr_count
        referee._conduct(final=True)
        referee._mark(time.perf_counter_ns(), None, "after the game ended")
        # Written after the last move, before or after the input was closed: the real
        # referees stop reading at the game's end, so when it came does not matter.
        late = bot.pending()
        before = bot.usage(fresh=True)
        bot.close_stdin()
        grace_ns = referee._scaled(referee.spec.end.exit_grace_ms)
        now = time.perf_counter_ns()
        return cls(stderr_mark, late, grace_ns, now + grace_ns, answer_pending, now, before)

    def judge(self, referee: Any) -> None:
        """The second half of `Dialogue._finish`: `referee`'s bot's exit waited for until
        its grace ends, and judged (its findings noted through the referee's helpers)."""
        assert referee.bot is not None
        bot = referee.bot
        answer_pending, grace_ns = self.answer_pending, self.grace_ns
        code, more = bot.wait_exit(max(0, self.deadline_ns - time.perf_counter_ns()))
        deadline = self.deadline_ns
        cap = self.closed_ns + max(EXIT_GRACE_CAP * grace_ns, grace_ns + EXIT_GIVEN_MIN_MS * _MS)
        while code is None and deadline < cap:
            # a loaded machine: the time it kept the bot from a CPU since its input was
            # closed is given back (as for an answer, and as AskAgain does), up to the
            # cap: an exit that the machine delayed is no fault
            given = min(cap, self.deadline_ns + machine_took(bot, self.before))
            if given <= deadline:
                break
            deadline = given
            code, again = bot.wait_exit(max(0, deadline - time.perf_counter_ns()))
            more += again
        late = self.late + more
        if late:
            text = late.decode("utf-8", "replace").split("\n")[0]
            referee.report.transcript.received(late.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
        if late and not answer_pending:
            referee._soft("output_after_end", "unexpected_output",
                          f"wrote {text!r} after the game ended (the referee reads nothing more: the result stands)",
                          got=show(text))
        if code is None:
            referee._soft("no_exit", "no_exit",
                          f"still running {grace_ns / _MS:.0f} ms after its input was closed (killed)",
                          expected=f"exit within {grace_ns / _MS:.0f} ms of end of input",
                          got="still running", limit_ms=grace_ns / _MS)
            return
        trace = traces.find(bot.stderr_since(self.stderr_mark))
        if code != 0 or trace is not None:
            got = process.describe_status(code) + (f", {trace.describe()}" if trace else "")
            message = f"the bot {process.describe_end(code)} after its input was closed"
            if trace is not None:
                message += f", and its stderr shows {trace.describe()}"
            referee._soft("exit_status", "exit_status", message, expected="exit status 0", got=got,
                          stderr_error=trace.error if trace else None)
