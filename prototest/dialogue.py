"""The referee's side of the pipes: the judge's lines filled in from the spec's templates
and written (clock values masked for comparing runs), the answer read against its
deadline, and every way a bot fails to answer told apart: a timeout (slow, an unflushed
buffer, more input expected than the judge sends, input not read), a crash, output out of
turn, a line too long, and at the end, the bot's exit.

A mixin of `prototest.referee.Referee`: it works on the referee's state and makes its
findings through the referee's helpers (declared below for type checkers).
"""

from __future__ import annotations

import fcntl
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import answertime, conduct, process, traces
from .findings import Finding
from .game import Exchange, Forfeit, GameConfig, GameReport
from .games.base import Position
from .spec import Spec
from .transcript import show

_MS = 1_000_000
#: How long to wait, after a timeout, for an answer stuck in an unflushed buffer (or a
#: late one), times a time scale over 1: a machine slow enough to scale the limits is slow
#: to finish the answer too.
FLUSH_PROBE_MS = 300
#: After a refused answer, how long to look for more lines (see _extra_output).
OUT_OF_TURN_PROBE_MS = 100
#: With no game chosen, the bot's first answer is given up on once the bot has sat idle in
#: a read of its input over this many probes, this far apart (times a time scale over 1).
IDLE_PROBE_MS = 100
IDLE_PROBES = 3
#: After a waiting bot was sent its request again (Dialogue._ask_again), how often to look
#: at it, and how long (times a time scale over 1) one that answered is watched for an exit.
AGAIN_STEP_MS = 10
AGAIN_EXIT_MS = 100
#: A bot slow to exit on a busy machine is given back the time the machine kept it from a CPU,
#: up to this many times its exit grace, or EXIT_GIVEN_MIN_MS, whichever is more (a short
#: grace, at a small time scale, is soon used up by a loaded machine; see Dialogue._judge_exit).
EXIT_GRACE_CAP = 4
EXIT_GIVEN_MIN_MS = 5000
#: A bot that timed out is asleep by its own doing (see Dialogue._asleep) only if it wanted
#: a CPU (ran, or waited for one) for at most this share of the time it was waited for.
ASLEEP_DEMAND_PERCENT = 5


@dataclass
class _Again:
    """What a bot asleep in a read of its input did when sent its request again (see
    Dialogue._ask_again)."""
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


class _Fields(dict):
    """Template fields, computed only when a template asks for them."""

    def __init__(self, compute: dict[str, Any]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: str) -> Any:
        value = self._compute[key]()
        self[key] = value
        return value


class Dialogue:
    """What the judge sends and reads, and the faults of a bot that does not answer."""

    cfg: GameConfig
    spec: Spec
    report: GameReport
    position: Position
    bot: process.Bot | None
    bot_turns: int
    last_move: str | None
    last_sent: str
    sent_since_answer: int
    clock_ns: list[int] | None
    _unanswered: list[str] | None
    _written_before: bool
    answer_time: Any  # the answer's time in parts (prototest.accounting)

    if TYPE_CHECKING:  # the referee's helpers
        def _scaled(self, ms: float) -> int: ...
        def _finding(self, kind: str, severity: str, message: str, **evidence: Any) -> Finding: ...
        def _soft(self, key: str, kind: str, message: str, **evidence: Any) -> None: ...
        def _mark(self, t_ns: int, turn: int | None, label: str) -> None: ...
        def _conduct(self, final: bool = False) -> None: ...

    # -- what the judge sends ---------------------------------------------------------------
    def _fields(self) -> _Fields:
        pos = self.position
        seat = self.cfg.seat
        unit = self.spec.time.clock_unit_ms * _MS
        cap = self.spec.time.clock_max or None

        def clock(side: int) -> int:
            if self.clock_ns is None:
                return 0
            units = max(0, self.clock_ns[side]) // unit
            return min(units, cap) if cap else units

        return _Fields({
            "seat": lambda: self.spec.game.seats[seat],
            "last_move": lambda: self.last_move if self.last_move is not None else self.spec.turn.no_last_move,
            "clock": lambda: clock(seat),
            "opponent_clock": lambda: clock(1 - seat),
            "position": pos.notation,
            "legal_count": lambda: len(pos.legal_moves()),
            "move": lambda: self.last_move or "",
        })

    def _expand(self, templates: Sequence[str], fields: _Fields) -> list[str]:
        lines: list[str] = []
        for template in templates:
            stripped = template.strip()
            if stripped == "{board}":
                lines.extend(self.position.board_lines())
            elif stripped == "{legal_moves}":
                lines.extend(self.position.legal_moves())
            else:
                lines.append(template.format_map(fields))
        return lines

    def _render(self, templates: Sequence[str]) -> tuple[list[str], list[str]]:
        """The lines of some templates, and the same lines with clock values masked
        (computed only when exchanges are logged)."""
        fields = self._fields()
        lines = self._expand(templates, fields)
        if self._unanswered is None or not any(
                "{clock}" in t or "{opponent_clock}" in t for t in templates):
            return lines, lines
        masked = _Fields({**fields._compute, "clock": lambda: "<time>", "opponent_clock": lambda: "<time>"})
        return lines, self._expand(templates, masked)

    def _say(self, templates: Sequence[str]) -> None:
        """Fill some templates and send them."""
        self._send(*self._render(templates))

    def _send(self, lines: list[str], masked: list[str] | None = None, limit_ns: int | None = None) -> int:
        """Write lines to the bot; a bot gone or not reading is a Forfeit."""
        assert self.bot is not None
        if not lines:
            return time.perf_counter_ns()
        deadline = time.perf_counter_ns() + (limit_ns if limit_ns is not None else self._scaled(1000))
        t = self.bot.send(lines, deadline)
        if t is None:
            self._cannot_write(lines)
        self.last_sent = lines[-1]
        self.sent_since_answer += len(lines)
        if self._unanswered is not None:
            self._unanswered.extend(masked if masked is not None else lines)
            if masked is not None and masked is not lines:
                self.report.transcript.mask_sent(masked)
        return t  # type: ignore[return-value]

    def _cannot_write(self, lines: list[str]) -> None:
        assert self.bot is not None
        bot = self.bot
        expected = f"the bot reads {lines[0]!r}"
        if bot.input_closed_by_bot:
            bot.wait_exit(100 * _MS)  # an exiting bot closes its input first: give it a moment
        if not bot.alive():
            trace = traces.find(bot.stderr_since(0))
            raise Forfeit(self._finding(
                "crash", "fail",
                f"the bot {process.describe_end(bot.returncode)} before the judge could send {lines[0]!r}"
                + (f"; stderr shows {trace.describe()}" if trace else ""),
                expected=expected, stderr_error=trace.error if trace else None), bot_usable=False)
        if bot.input_closed_by_bot:
            raise Forfeit(self._finding(
                "crash", "fail",
                f"the bot closed its input (stdin) but still runs: the judge could not send {lines[0]!r}",
                expected=expected), bot_usable=False)
        raise Forfeit(self._finding(
            "timeout", "fail",
            f"the bot does not read its input: the judge could not write {lines[0]!r} (its stdin pipe stayed full)",
            expected="the bot reads each line the judge sends"), bot_usable=False)

    # -- what the bot answers ---------------------------------------------------------------
    def _read_answer(self, t_sent: int, limit_ns: int, limit_what: str,
                     before: Any = None) -> tuple[process.Read, str, int]:
        """The answer line as read, as shown (decoded with replacement, a \\r line end
        kept), and its time; every way of not answering is a Forfeit. `before`: the bot's use of the machine when the
        request was written (see prototest.accounting). A fuzzing budget
        (GameConfig.deadline) never cuts an answer short: the answer asked for is judged
        to its limit, and the game stops before the next one (see Referee._moves)."""
        assert self.bot is not None
        self.read_capped = False  # set by _read_fair only
        if self.cfg.stop_when_idle and self.bot_turns == 1:
            r = self._read_or_idle(t_sent + limit_ns)
        else:
            r = self._read_fair(t_sent, limit_ns, before)
        # A first answer written before the bot read a byte of what the judge sent: early
        # output (as before the first line), whenever the judge's first line went out.
        unread = _unread_bytes(self.bot) if r.kind == "line" and self.bot_turns == 1 else 0
        if unread and unread >= getattr(self.bot, "sent_bytes", unread + 1):
            self._early(r)
        sent = self.sent_since_answer
        self.sent_since_answer = 0
        elapsed_ns = r.t_ns - t_sent
        used = self._account(before, r, t_sent)
        own_ns = self.answer_time.own_ns() if self.answer_time is not None and r.kind == "line" else elapsed_ns
        shown = line_shown(r) if r.kind == "line" else ""
        if self._unanswered is not None:
            answer = shown if r.kind == "line" and own_ns <= limit_ns else None
            self.report.exchanges.append(
                Exchange(tuple(self._unanswered), answer, self.position.ply(), elapsed_ns / _MS,
                         late=shown if r.kind == "line" and answer is None else None))
            self._unanswered = []
        if r.kind == "line" and elapsed_ns > limit_ns and not self._excused(used, elapsed_ns, limit_ns, limit_what,
                                                                              shown):
            self._too_late(r, elapsed_ns, limit_ns, limit_what)
        if r.kind in ("timeout", "idle"):
            if r.kind == "timeout" and used is not None and self.read_capped:
                self._too_busy(used, elapsed_ns, limit_ns, limit_what)
            self._timed_out(r.data, elapsed_ns, limit_ns, limit_what, idle=r.kind == "idle", used=used,
                            sent=sent)
        if r.kind == "eof":
            self._crashed(f"on its turn {self.bot_turns}, before answering", partial=r.data)
        if r.kind == "overflow":
            self._overflow(r, elapsed_ns)
        self.report.transcript.received(shown, r.t_ns, elapsed_ns)
        if self.bot_turns == 1 and self.report.startup_ms is None:
            self.report.startup_ms = elapsed_ns / _MS
        else:
            self.report.answer_ms.append(elapsed_ns / _MS)
        self._share_check(used, limit_ns, limit_what, shown)
        return r, shown, elapsed_ns

    def _early(self, r: process.Read) -> None:
        """The first answer came while all the judge sent was still unread in the bot's
        input: written at start-up, it came after the judge's first line only because the
        bot was slow to start (a busy machine). The same finding as when it comes before."""
        assert self.bot is not None
        text = r.data.decode("utf-8", "replace")
        self.report.transcript.received(text, r.t_ns)
        elapsed = (r.t_ns - self.bot.started_ns) / _MS
        raise Forfeit(self._finding(
            "early_output", "fail",
            f"wrote {text!r} {elapsed:.0f} ms after start-up, before it read anything the judge sent (the "
            f"judge's first line, sent, was still unread in its input): the statement demands silence until then",
            expected="no output before the first line", got=show(text), elapsed_ms=elapsed))

    def _read_or_idle(self, deadline_ns: int) -> process.Read:
        """Read the answer, but give up early (a Read of kind "idle") once the bot sits
        idle in a read of its input: the whole request read, no CPU time used over
        IDLE_PROBES probes. Nothing but more input can wake it, and none is coming: used
        when no game was chosen, where a bot waiting for another protocol's input would
        otherwise cost the whole clock."""
        assert self.bot is not None
        idle, ticks = 0, -1
        while True:
            probe_ns = int(IDLE_PROBE_MS * max(1.0, self.cfg.time_scale) * _MS)
            step = min(deadline_ns, time.perf_counter_ns() + probe_ns)
            r = self.bot.read_line(step)
            if r.kind != "timeout" or step >= deadline_ns:
                return r
            now = self.bot.cpu_ticks()
            if not r.data and now == ticks and not _unread_bytes(self.bot) and self.bot.waiting_for_input():
                idle += 1
                if idle >= IDLE_PROBES:
                    return process.Read("idle", b"", time.perf_counter_ns())
            else:
                idle = 0
            ticks = now

    def _overflow(self, r: process.Read, elapsed_ns: int) -> None:
        """No line end within read.max_bytes: a timeout or a malformed answer (read.over_max)."""
        limit = self.spec.read.max_bytes
        end = "newline" if self.spec.read.line_end == "lf" else "line end"
        got = show(r.data.decode("utf-8", "replace")) + "..."
        said = f"sent {limit} bytes without a {end}: the referee reads at most {limit} bytes of "
        if self.spec.read.over_max == "timeout":
            raise Forfeit(self._finding(
                "timeout", "fail", said + f"a turn, its {end} included, and counts a turn without one as a timeout",
                expected=self.spec.turn.answer_help, got=got, elapsed_ms=elapsed_ns / _MS, rule="over_max"),
                bot_usable=False)
        raise Forfeit(self._finding(
            "malformed", "fail", said + f"a line, its {end} included ({limit - 1} before it), and refuses a longer one",
            expected=self.spec.turn.answer_help, got=got, elapsed_ms=elapsed_ns / _MS), bot_usable=False)

    def _line_waiting(self) -> bool:
        """With read.between_turns = "answer": whether a whole line already waits in the
        bot's output, written before the request it will be read as the answer to."""
        if self.spec.read.between_turns != "answer" or self.bot is None:
            return False
        waiting = self.bot.peek()
        return b"\n" in waiting or (self.spec.read.line_end == "cr_lf" and b"\r" in waiting)

    # -- faults: no answer, output out of turn, the exit --------------------------------
    def _check_silence(self, when: str, *, always: bool = False) -> None:
        """Output between turns is out of turn; unless the spec's runner reads it as the
        bot's next answer (read.between_turns), which its next turn then judges."""
        assert self.bot is not None
        if self.spec.read.between_turns == "answer" and not always:
            return
        data = self.bot.pending()
        if data:
            text = data.decode("utf-8", "replace").split("\n")[0]
            self.report.transcript.received(data.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
            raise Forfeit(self._finding(
                "unexpected_output", "fail",
                f"wrote {text!r} when it was not its turn ({when})",
                expected="silence until the next request", got=show(text)))

    def _extra_output(self, text: str, t_sent: int) -> list[Finding]:
        """More lines right after a refused answer: the bot writes several lines per
        request (debug output, or a line for every input line). The referee acts on the
        first line, so the refused answer is the main finding; this one, reported after
        it, names the extra lines (the transcript has them all)."""
        assert self.bot is not None
        deadline = time.perf_counter_ns() + OUT_OF_TURN_PROBE_MS * _MS
        extra: list[tuple[str, int]] = []
        while len(extra) < 100:
            r = self.bot.read_line(deadline)
            if r.kind != "line":
                break
            follow = r.data.decode("utf-8", "replace")
            self.report.transcript.received(follow, r.t_ns, r.t_ns - t_sent)
            extra.append((follow, r.t_ns - t_sent))
        if not extra or self._written_before:  # a line written earlier, then the real answer: no extra line
            return []
        follow, elapsed_ns = extra[0]
        more = f" and {len(extra) - 1} more lines" if len(extra) > 1 else ""
        return [self._finding(
            "unexpected_output", "fail",
            f"after {text!r} it wrote {follow!r}{more} for the same request: one line per answer, "
            f"nothing out of turn (debug output belongs on stderr)",
            expected=f"one line: {self.spec.turn.answer_help}", got=show(follow), elapsed_ms=elapsed_ns / _MS)]

    def _timed_out(self, partial: bytes, elapsed_ns: int, limit_ns: int, limit_what: str,
                   idle: bool = False, used: Any = None, sent: int = 0) -> None:
        """A missing answer, its cause told on evidence. A bot not seen waiting for its
        input (it computes, or sleeps on something else, or /proc shows nothing) whose
        answer comes later is "too slow". A bot asleep waiting for its input (a thread
        blocked reading the stdin pipe, or waiting on a set that holds it, and none
        running: see process.Bot.waiting_for_input) looks the same from outside whether
        it expects more input than the judge sends or thinks it has answered and holds
        the answer in an unflushed buffer; and closing its input cannot tell them apart
        either: the end of input completes a read that waits for more (a C++ getline, a
        Python readline give an empty line) as it makes a bot exit and flush. Its request
        sent again does (_ask_again): a bot that then answers, and reads on, reads more
        input than the judge sends (and flushes); one that reads it and waits again,
        writing nothing, was not waiting for more lines, and stands where it stood after
        a whole request, so closing its input then brings a held answer out (an exit
        flushes it): that answer is a missing flush. Without that evidence both causes
        are named. `sent`: the lines the judge wrote since the bot's last answer. `idle`:
        the judge gave up early, the bot sitting idle in a read (see _read_or_idle)."""
        assert self.bot is not None
        asleep = self._asleep(used, limit_ns)  # before anything is sent again, or its input closed
        unread = _unread_bytes(self.bot)
        input_closed = self.bot.input_closed()
        waiting = self.bot.waiting_for_input()
        if waiting and len(self.bot.peek()) > len(partial):
            # It wrote after the limit, then went back to reading: on a busy machine the
            # judge looks late, and finds a slow bot that has answered since: too slow,
            # not a bot waiting for more input (its request sent again would be answered
            # at once by the line already in the pipe).
            waiting = False
        again = None
        if waiting and not partial and not unread and not input_closed:
            again = self._ask_again()
        self.bot.close_stdin()
        # The partial line is still in the buffer, so what comes back starts with it.
        late = self.bot.drain(int(FLUSH_PROBE_MS * max(1.0, self.cfg.time_scale) * _MS))[len(partial):]
        # A bot filling memory is slow before it is killed: the platform's kill may come
        # after the limit (its timer runs out first there too), but memory is the cause.
        late += self._memory_settles(limit_ns)
        fault = self._envelope_fault(f"gave no answer within {limit_ns / _MS:.0f} ms ({limit_what})",
                                     at_limit=True)
        if fault is not None:
            raise Forfeit(fault, bot_usable=False)
        self._throttled(used, elapsed_ns, limit_ns, limit_what, None)  # late by the CPU quota
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
            # (_cannot_write): which one it is depends only on when the bot closed it.
            raise Forfeit(self._finding(
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
        raise Forfeit(self._finding("timeout", "fail", message, expected=self.spec.turn.answer_help,
                                    got=got, elapsed_ms=elapsed_ns / _MS, limit_ms=limit_ns / _MS, rule=cause,
                                    asleep=asleep),
                      bot_usable=False)

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
        since = "since the start" if self.bot_turns <= 1 else "since its last answer"
        if unread:
            return f"it read all but {unread} bytes of the {_lines(sent)} the judge sent {since}"
        return f"it read {'all ' if sent != 1 else ''}{_lines(sent)} the judge sent {since}"

    def _late_answer(self, first: str) -> None:
        """Keep an answer that came after the limit in the exchange it answers."""
        if self._unanswered is not None and self.report.exchanges:
            self.report.exchanges[-1] = replace(self.report.exchanges[-1], late=first)

    def _ask_again(self) -> _Again | None:
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
        lines = self._expand(self.spec.turn.send, self._fields())
        if not lines:
            return None
        self.bot.transcript.note("the request again, its first line alone first (no part of the protocol): is "
                                 "the bot waiting for more input than the judge sends?")
        again = _Again(len(lines))
        for part in (lines[:1], lines[1:]):
            if not part:
                break
            if not self._watch_again(again, part):
                return None if again.sent == 0 else again
            if not again.waits_again:
                break
        return again

    def _watch_again(self, again: _Again, part: list[str]) -> bool:
        """Send part of the request again and watch what the bot does (see _ask_again);
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
                deadline = min(cap, max(deadline, t0 + probe + _machine_took(bot, before)))
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
            if not r.data and not _unread_bytes(bot) and bot.waiting_for_input():
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
            if time.perf_counter_ns() >= deadline or (not _unread_bytes(self.bot) and self.bot.waiting_for_input()):
                return True

    def _silent_wait(self, read: str, again: _Again | None) -> str:
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

    def _too_late(self, r: process.Read, elapsed_ns: int, limit_ns: int, limit_what: str) -> None:
        """A whole answer that was read only after the deadline: the judge had stopped
        waiting, as a real judge would have."""
        text = r.data.decode("utf-8", "replace")
        self.report.transcript.received(text, r.t_ns, elapsed_ns)
        finding = self._finding("timeout", "fail", "", expected=self.spec.turn.answer_help, got=show(text),
                                elapsed_ms=elapsed_ns / _MS, limit_ms=limit_ns / _MS)
        finding.message = (f"answered {text!r} after {elapsed_ns / _MS:.1f} ms: over the {limit_ns / _MS:.0f} ms "
                           f"it had ({limit_what}){answertime.still_over(finding.time_figures())}")
        raise Forfeit(finding, bot_usable=True)

    def _crashed(self, when: str, partial: bytes = b"") -> None:
        assert self.bot is not None
        code, _ = self.bot.wait_exit(500 * _MS)
        if code is None:
            message = f"the bot closed its output {when} but is still running"
        else:
            message = f"the bot {process.describe_end(code)} {when}"
        fault = self._envelope_fault(message.removeprefix("the bot "))
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
        raise Forfeit(self._finding("crash", "fail", message, expected=self.spec.turn.answer_help,
                                    stderr_error=trace.error if trace else None), bot_usable=False)

    def _finish(self, answer_pending: bool = False) -> None:
        """Close the bot's input and check that it exits, as the spec says. With an
        answer pending (after a forfeit, or a game stopped while the bot was thinking)
        the bot may still be answering what came before: its output then goes to the
        transcript but is no finding of its own."""
        self._judge_exit(self._end_input(answer_pending))

    def _end_input(self, answer_pending: bool = False) -> "Ending":
        """The first half of `_finish`: the bot's input closed, its exit grace begun (a
        match closes both bots' inputs, then waits for both exits at once)."""
        assert self.bot is not None
        bot = self.bot
        stderr_mark = bot.stderr_count
        self._conduct(final=True)
        self._mark(time.perf_counter_ns(), None, "after the game ended")
        # Written after the last move, before or after the input was closed: the real
        # referees stop reading at the game's end, so when it came does not matter.
        late = bot.pending()
        before = bot.usage(fresh=True)
        bot.close_stdin()
        grace_ns = self._scaled(self.spec.end.exit_grace_ms)
        now = time.perf_counter_ns()
        return Ending(stderr_mark, late, grace_ns, now + grace_ns, answer_pending, now, before)

    def _judge_exit(self, ending: "Ending") -> None:
        """The second half of `_finish`: the bot's exit waited for until its grace ends,
        and judged."""
        assert self.bot is not None
        bot = self.bot
        answer_pending, grace_ns = ending.answer_pending, ending.grace_ns
        code, more = bot.wait_exit(max(0, ending.deadline_ns - time.perf_counter_ns()))
        deadline = ending.deadline_ns
        cap = ending.closed_ns + max(EXIT_GRACE_CAP * grace_ns, grace_ns + EXIT_GIVEN_MIN_MS * _MS)
        while code is None and deadline < cap:
            # a loaded machine: the time it kept the bot from a CPU since its input was
            # closed is given back (as for an answer, and as _watch_again does), up to
            # the cap: an exit that the machine delayed is no fault
            given = min(cap, ending.deadline_ns + _machine_took(bot, ending.before))
            if given <= deadline:
                break
            deadline = given
            code, again = bot.wait_exit(max(0, deadline - time.perf_counter_ns()))
            more += again
        late = ending.late + more
        if late:
            text = late.decode("utf-8", "replace").split("\n")[0]
            self.report.transcript.received(late.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
        if late and not answer_pending:
            self._soft("output_after_end", "unexpected_output",
                       f"wrote {text!r} after the game ended (the referee reads nothing more: the result stands)",
                       got=show(text))
        if code is None:
            self._soft("no_exit", "no_exit",
                       f"still running {grace_ns / _MS:.0f} ms after its input was closed (killed)",
                       expected=f"exit within {grace_ns / _MS:.0f} ms of end of input",
                       got="still running", limit_ms=grace_ns / _MS)
            return
        trace = traces.find(bot.stderr_since(ending.stderr_mark))
        if code != 0 or trace is not None:
            got = process.describe_status(code) + (f", {trace.describe()}" if trace else "")
            message = f"the bot {process.describe_end(code)} after its input was closed"
            if trace is not None:
                message += f", and its stderr shows {trace.describe()}"
            self._soft("exit_status", "exit_status", message, expected="exit status 0", got=got,
                       stderr_error=trace.error if trace else None)


@dataclass(frozen=True)
class Ending:
    """A bot whose input was closed at the game's end (`Dialogue._end_input`): where its
    stderr stood, what it wrote out of turn, and until when it may take to exit."""

    stderr_mark: int
    late: bytes
    grace_ns: int
    deadline_ns: int
    answer_pending: bool
    closed_ns: int = 0  # when its input was closed
    before: Any = None  # its usage then (the machine's time is given back: _judge_exit)


def _lines(n: int) -> str:
    return "one line" if n == 1 else f"{n} lines"


def line_shown(r: process.Read) -> str:
    """An answer line as it crossed the pipe, for transcripts and messages: decoded with
    replacement, a \\r that ended it kept (the \\n is the line's end)."""
    data = r.data + b"\r" if r.end[:1] == b"\r" else r.data
    return data.decode("utf-8", "replace")


def _unread_bytes(bot: process.Bot) -> int:
    """Bytes the judge wrote that the bot has not read yet (FIONREAD on the pipe)."""
    fd = bot.stdin_fd
    if fd is None:
        return 0
    try:
        buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return 0
    return int.from_bytes(buf, "little")


def _machine_took(bot: "process.Bot", before: Any) -> int:
    """The time (ns) the machine kept the bot from a CPU since `before` (a usage), 0 when
    it is not measured."""
    if before is None:
        return 0
    from . import envelope

    now = bot.usage(fresh=True)
    return envelope.spent(before, now).excused_ns if now is not None else 0
