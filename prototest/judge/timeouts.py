"""A missing answer, its cause told on evidence (see `TimeoutDiagnosis.forfeit`): too slow,
an answer stuck in an unflushed buffer, more input expected than the judge sends, input
not read or closed, memory at its limit, a CPU quota; and whether the bot sleeps by its
own doing.

A collaborator of the referee's dialogue (`prototest.judge.dialogue`), made when an
answer's time has run out: it reads the referee's state and makes its finding through the
referee's helpers, and ends in a Forfeit. Nothing here runs while a bot answers in time.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, NoReturn

from ..sandbox import conduct, process
from .askagain import FLUSH_PROBE_MS, Again, AskAgain
from .game import Forfeit
from .pipes import unread_bytes
from .refereepart import RefereePart
from .resources import ResourceFaults
from ..sandbox.transcript import show

_MS = 1_000_000
#: A bot that timed out is asleep by its own doing (see TimeoutDiagnosis._asleep) only if
#: it wanted a CPU (ran, or waited for one) for at most this share of the time it was
#: waited for.
ASLEEP_DEMAND_PERCENT = 5
#: How many times, and how far apart, a timed-out bot's threads are looked at for one
#: blocked reading its input with nothing running (see TimeoutDiagnosis._waiting).
WAIT_LOOKS = 5
WAIT_LOOK_MS = 5


class TimeoutDiagnosis(RefereePart):
    """Why the referee's bot gave no answer in time, as a timeout finding (made with the
    Referee whose bot gave no answer in time)."""

    def forfeit(self, partial: bytes, elapsed_ns: int, limit_ns: int, limit_what: str,
                idle: bool = False, used: Any = None, sent: int = 0) -> NoReturn:
        """A missing answer, its cause told on evidence. A bot not seen waiting for its
        input (it computes, or sleeps on something else, or /proc shows nothing) whose
        answer comes later is "too slow". A bot asleep waiting for its input (a thread
        blocked reading the stdin pipe, or waiting on a set that holds it, and none
        running: see process.Bot.waiting_for_input) looks the same from outside whether
        it expects more input than the judge sends or thinks it has answered and holds
        the answer in an unflushed buffer; and closing its input cannot tell them apart
        either: the end of input completes a read that waits for more (a C++ getline, a
        Python readline give an empty line) as it makes a bot exit and flush. Its request
        sent again does (`AskAgain`): a bot that then answers, and reads on, reads more
        input than the judge sends (and flushes); one that reads it and waits again,
        writing nothing, was not waiting for more lines, and stands where it stood after
        a whole request, so closing its input then brings a held answer out (an exit
        flushes it): that answer is a missing flush. Without that evidence both causes
        are named. `sent`: the lines the judge wrote since the bot's last answer. `idle`:
        the judge gave up early, the bot sitting idle in a read (see Dialogue._read_or_idle)."""
        assert self.bot is not None
        asleep = self._asleep(used, limit_ns)  # before anything is sent again, or its input closed
        if asleep and len(self.bot.peek()) > len(partial):
            # It wrote after the limit, and only then sat down to read again: a judge that
            # looks late (a busy machine) finds a slow bot that has answered, not one asleep
            # by its own doing. Looked at after the probe, so no answer can slip between.
            asleep = False
        unread = unread_bytes(self.bot)
        input_closed = self.bot.input_closed()
        waiting = self._waiting()
        if waiting and len(self.bot.peek()) > len(partial):
            # It wrote after the limit, then went back to reading: on a busy machine the
            # judge looks late, and finds a slow bot that has answered since: too slow,
            # not a bot waiting for more input (its request sent again would be answered
            # at once by the line already in the pipe).
            waiting = False
        again = None
        if waiting and not partial and not unread and not input_closed:
            again = AskAgain(self.ref)()
        self.bot.close_stdin()
        # The partial line is still in the buffer, so what comes back starts with it.
        late = self.bot.drain(int(FLUSH_PROBE_MS * max(1.0, self.cfg.time_scale) * _MS))[len(partial):]
        # A bot filling memory is slow before it is killed: the platform's kill may come
        # after the limit (its timer runs out first there too), but memory is the cause.
        resources = ResourceFaults(self.ref)
        late += resources.memory_settles(limit_ns)
        fault = resources.fault(f"gave no answer within {limit_ns / _MS:.0f} ms ({limit_what})", at_limit=True)
        if fault is not None:
            raise Forfeit(fault, bot_usable=False)
        self.ref._throttled(used, elapsed_ns, limit_ns, limit_what, None)  # late by the CPU quota
        message = f"no answer within {limit_ns / _MS:.0f} ms ({limit_what})"
        if idle:
            message = (f"no answer: {elapsed_ns / _MS:.0f} ms after the request the bot sat idle in a read of "
                       f"its input, so the judge stopped waiting before its {limit_ns / _MS:.0f} ms "
                       f"({limit_what}) ran out (no game was chosen)")
        got = None
        cause = ""  # kept as the finding's rule: protocol detection reads it
        read = self._read_all(sent, unread)
        if partial:
            got = show(partial.decode("utf-8", "replace"))
            message += f"; it sent {partial.decode('utf-8', 'replace')!r} without a newline"
        if again is not None and again.answer is not None:
            self._late_answer(again.answer)
            asked = again.what()
            if again.exited:
                cause = "answer_at_exit"
                message += (f"; {read} and waited for more input; sent {asked}, it wrote {again.answer!r} and "
                            f"{process.describe_end(self.bot.returncode)}: either it reads more input than the "
                            f"judge sends, or it held its answer in an output buffer it does not flush (an exit "
                            f"flushes it)")
            else:
                cause = "more_input"
                message += (f"; {read}, then waited for more input that the protocol does not send: when the "
                            f"judge sent {asked}, it answered {again.answer!r} {again.ms:.1f} ms later and read "
                            f"on: it reads {'one line more' if again.sent == 1 else 'more lines'} than the judge "
                            f"sends")
        elif late.strip():
            first = (partial + late).decode("utf-8", "replace").split("\n")[0]
            self.report.transcript.received(late.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
            self._late_answer(first)
            if waiting and (partial or (again is not None and again.waits_again)):
                cause = "no_flush"
                held = (f"; the answer {first!r}" if partial else
                        f"; {read} and waited for more; sent {again.what()}, it wrote nothing; the answer "
                        f"{first!r}")
                message += (f"{held} arrived only when its input was closed: the bot probably does not flush "
                            f"its output (a terminal would have shown it): flush after every line"
                            f"{self._reader_named()}")
            elif waiting:
                cause = "answer_at_eof"
                when = (f"after the judge sent {again.what()} and closed its input" if again is not None
                        else "when its input was closed")
                message += (f"; {read} and waited for more input; its answer {first!r} came only {when}: "
                            f"either it reads more input than the judge sends, or it held its answer in an "
                            f"output buffer it does not flush (an exit flushes it)")
            elif waiting is None:
                cause = "late"
                message += (f"; its answer {first!r} came after the limit: too slow, or held in an output "
                            f"buffer until its input was closed (the system shows nothing of what the bot "
                            f"was doing)")
            else:
                cause = "too_slow"
                message += f"; its answer {first!r} came later: too slow"
        elif waiting and not partial:
            cause = "waiting_for_input"
            message += self._silent_wait(read, again)
        elif input_closed and self.bot.alive():
            # The same fault as when the judge finds it closed before it writes
            # (Crash.cannot_write): which one it is depends only on when the bot closed it.
            raise Forfeit(self.ref._finding(
                "crash", "fail", f"the bot closed its input (stdin) but still runs: {message}, and the judge "
                f"can send it nothing more", expected=self.spec.turn.answer_help, got=got,
                elapsed_ms=elapsed_ns / _MS, limit_ms=limit_ns / _MS, rule="closed_input", asleep=asleep),
                bot_usable=False)
        elif input_closed:
            cause = "closed_input"
            message += "; it closed its input (stdin) without reading the request"
        elif unread:
            cause = "not_reading"
            message += f"; it has not read its input ({unread} bytes of the request are still unread)"
        raise Forfeit(self.ref._finding("timeout", "fail", message, expected=self.spec.turn.answer_help,
                                    got=got, elapsed_ms=elapsed_ns / _MS, limit_ms=limit_ns / _MS, rule=cause,
                                    asleep=asleep),
                      bot_usable=False)

    def _waiting(self) -> bool | None:
        """Whether the bot sleeps until more input comes (process.Bot.waiting_for_input),
        looked at up to WAIT_LOOKS times WAIT_LOOK_MS apart while a thread is seen to run:
        a JVM's compiler or collector thread may run a moment after its main thread
        blocked in a read, most of all on a busy machine. One look with nothing running
        and a thread blocked reading its input is the evidence; a bot that computes is
        seen running at every look (and one that answered meanwhile is told apart by
        what it wrote, below)."""
        assert self.bot is not None
        waiting = self.bot.waiting_for_input()
        for _ in range(WAIT_LOOKS - 1):
            if waiting is not False or not self.bot.alive():
                break
            time.sleep(WAIT_LOOK_MS / 1000)
            waiting = self.bot.waiting_for_input()
        return waiting

    def _reader_named(self) -> str:
        """When the process seen waiting for the judge's lines is not the bot's command
        itself (a wrapper's child, or a program a script exec'd), advice about its
        output is for that process: ' in python3 engine.py, the process that reads the
        judge's lines (the bot's command, sh adapter.sh, started it)'; else ''."""
        assert self.bot is not None
        command = self.bot.input_reader
        if not command or conduct.is_the_bots_command(command, self.cfg.argv):
            return ""
        return (f" in {conduct.command_shown(command, self.cfg.cwd)}, the process that reads the judge's lines "
                f"(the bot's command, {conduct.command_shown(' '.join(self.cfg.argv), self.cfg.cwd)}, started it)")

    def _asleep(self, used: Any, limit_ns: int) -> bool | None:
        """Whether the bot, its time run out, sleeps by its own doing: every thread of it
        stopped, or asleep for ever (a wait for its input, its child, a signal, another of
        its threads) or in a sleep that lasts another whole `limit_ns` at least (see
        process.Bot.asleep), and it wanted a CPU (ran, or waited for one) for at most
        ASLEEP_DEMAND_PERCENT of the wait. A busy machine slows a bot only by keeping it
        from a CPU (or a disk, a lock: not such a sleep), and a bot that waits out a moment
        (a short sleep, a poll) may wait for something the game beside it holds: no load can
        explain this timeout, and it stands without a re-check alone. None: the bot's use of
        the machine is not measured here."""
        assert self.bot is not None
        if used is None or used.wall_ns <= 0:
            return None
        wanted = used.cpu_ns + used.wait_ns
        return wanted * 100 <= used.wall_ns * ASLEEP_DEMAND_PERCENT and self.bot.asleep(limit_ns)

    def _read_all(self, sent: int, unread: int) -> str:
        """What the bot read of its input, for a message: all `sent` lines the judge wrote
        since its last answer (since the start on its first turn), or how much is left."""
        since = "since the start" if self.ref.bot_turns <= 1 else "since its last answer"
        if unread:
            return f"it read all but {unread} bytes of the {_lines(sent)} the judge sent {since}"
        return f"it read {'all ' if sent != 1 else ''}{_lines(sent)} the judge sent {since}"

    def _late_answer(self, first: str) -> None:
        """Keep an answer that came after the limit in the exchange it answers."""
        if self.ref._unanswered is not None and self.report.exchanges:
            self.report.exchanges[-1] = replace(self.report.exchanges[-1], late=first)

    def _silent_wait(self, read: str, again: Again | None) -> str:
        """A bot asleep in a read of its input that wrote nothing, not when sent its
        request again, nor when its input was closed: no answer was seen in a buffer, so
        both causes stay open unless its exit settled it (an exit flushes the buffers:
        nothing came, so none was held)."""
        assert self.bot is not None
        tried = ""
        if again is not None:
            tried = f"; sent {again.what()}, it wrote nothing"
            if again.exited:
                return (f"; {read} and waited for more input; sent {again.what()}, it "
                        f"{process.describe_end(self.bot.returncode)} and wrote nothing: either it expects other "
                        f"input than the judge sends, or it held its output in a buffer that its exit did not "
                        f"flush")
        if not self.bot.alive():
            return (f"; {read} and waited for more input{tried}, and when its input was closed it "
                    f"{process.describe_end(self.bot.returncode)} without an answer: it expects more (or other) "
                    f"input than the judge sends")
        return (f"; {read} and is waiting for more input{tried}: either it expects more (or other) input than "
                f"the judge sends, or its answer is stuck in an output buffer it never flushes "
                f"(closing its input brought nothing out)")



def _lines(n: int) -> str:
    return "one line" if n == 1 else f"{n} lines"
