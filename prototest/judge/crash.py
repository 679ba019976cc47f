"""A bot gone before it answered, as a `crash` finding: it exited or closed its output
(`Crash.output_ended`), or the judge could not write to it (`Crash.cannot_write`: it is
gone, it closed its input, or it does not read it); its exit status, what it wrote last
and the stack trace its stderr shows (`prototest.judge.traces`), or the platform's reason
when its memory or process limit ended it (`prototest.judge.resources`).

A collaborator of the referee's dialogue (`prototest.judge.dialogue`) and of its start
(`prototest.judge.startup`), made when the bot is gone: it ends in a Forfeit.
"""

from __future__ import annotations

from typing import NoReturn

from . import traces
from ..sandbox import process
from .game import Forfeit
from .refereepart import RefereePart
from .resources import ResourceFaults

_MS = 1_000_000


class Crash(RefereePart):
    """The referee's bot gone before its answer, as a Forfeit."""

    def cannot_write(self, lines: list[str]) -> NoReturn:
        """The judge could not write `lines`: the bot is gone, closed its input, or does not
        read it."""
        assert self.bot is not None
        bot = self.bot
        expected = f"the bot reads {lines[0]!r}"
        if bot.input_closed_by_bot:
            bot.wait_exit(100 * _MS)  # an exiting bot closes its input first: give it a moment
        if not bot.alive():
            trace = traces.find(bot.stderr_since(0))
            raise Forfeit(self.ref._finding(
                "crash", "fail",
                f"the bot {process.describe_end(bot.returncode)} before the judge could send {lines[0]!r}"
                + (f"; stderr shows {trace.describe()}" if trace else ""),
                expected=expected, stderr_error=trace.error if trace else None), bot_usable=False)
        if bot.input_closed_by_bot:
            raise Forfeit(self.ref._finding(
                "crash", "fail",
                f"the bot closed its input (stdin) but still runs: the judge could not send {lines[0]!r}",
                expected=expected), bot_usable=False)
        raise Forfeit(self.ref._finding(
            "timeout", "fail",
            f"the bot does not read its input: the judge could not write {lines[0]!r} (its stdin pipe stayed full)",
            expected="the bot reads each line the judge sends"), bot_usable=False)

    def output_ended(self, when: str, partial: bytes = b"") -> NoReturn:
        """The bot's output ended `when` (it exited, or closed it and runs on); `partial`:
        what it wrote last, without a newline."""
        assert self.bot is not None
        code, _ = self.bot.wait_exit(500 * _MS)
        if code is None:
            message = f"the bot closed its output {when} but is still running"
        else:
            message = f"the bot {process.describe_end(code)} {when}"
        fault = ResourceFaults(self.ref).fault(message.removeprefix("the bot "))
        if fault is not None:
            trace = traces.find(self.bot.stderr_since(0))
            if trace is not None:
                fault.message += f"; stderr shows {trace.describe()}"
                fault.stderr_error = trace.error
            raise Forfeit(fault, bot_usable=False)
        if partial:
            message += f"; its last output was {partial.decode('utf-8', 'replace')!r} without a newline"
        trace = traces.find(self.bot.stderr_since(0))
        if trace is not None:
            message += f"; stderr shows {trace.describe()}"
        raise Forfeit(self.ref._finding("crash", "fail", message, expected=self.spec.turn.answer_help,
                                        stderr_error=trace.error if trace else None), bot_usable=False)
