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

_MS = 1_000_000


@dataclass(frozen=True)
class Ending:
    """A bot whose input was closed at the game's end (`Ending.begin`): where its
    stderr stood, what it wrote out of turn, and until when it may take to exit."""

    stderr_mark: int
    late: bytes
    grace_ns: int
    deadline_ns: int
    answer_pending: bool

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
        bot.close_stdin()
        grace_ns = referee._scaled(referee.spec.end.exit_grace_ms)
        return cls(stderr_mark, late, grace_ns, time.perf_counter_ns() + grace_ns, answer_pending)

    def judge(self, referee: Any) -> None:
        """The second half of `Dialogue._finish`: `referee`'s bot's exit waited for until
        its grace ends, and judged (its findings noted through the referee's helpers)."""
        assert referee.bot is not None
        bot = referee.bot
        answer_pending, grace_ns = self.answer_pending, self.grace_ns
        code, more = bot.wait_exit(max(0, self.deadline_ns - time.perf_counter_ns()))
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
