"""The referee's side of the pipes: the judge's lines filled in from the spec's templates
and written (clock values masked for comparing runs), the answer read against its
deadline, and every way a bot fails to answer told apart: a timeout (its cause told by
`prototest.judge.timeouts`), a crash (`prototest.judge.crash`), output out of turn, a line
too long, and at the end, the bot's exit (`prototest.judge.botexit`).

A mixin of `prototest.judge.referee.Referee`: it works on the referee's state and makes its
findings through the referee's helpers (declared below for type checkers).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import answertime
from ..sandbox import process
from .findings import Finding
from .game import Exchange, Forfeit, GameConfig, GameReport
from ..games.base import Position
from .pipes import line_shown, unread_bytes
from .spec import Spec
from .botexit import Ending
from .crash import Crash
from .timeouts import TimeoutDiagnosis
from ..sandbox.transcript import show

__all__ = ["Dialogue", "Ending", "line_shown"]

_MS = 1_000_000
#: After a refused answer, how long to look for more lines (see _extra_output), and how
#: often to look whether the bot already waits for its next input (then none can come).
OUT_OF_TURN_PROBE_MS = 100
OUT_OF_TURN_STEP_MS = 2
#: With no game chosen, the bot's first answer is given up on once the bot has sat idle in
#: a read of its input over this many probes, this far apart (times a time scale over 1).
IDLE_PROBE_MS = 100
IDLE_PROBES = 3


class _Fields(dict):
    """Template fields, computed only when a template asks for them."""

    def __init__(self, compute: dict[str, Any]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: str) -> Any:
        value = self._compute[key]()
        self[key] = value
        return value


#: The fields a logged exchange masks ("<time>"): the clocks change from run to run.
_CLOCKS = ("{clock}", "{opponent_clock}")


class _Masked(dict):
    """The fields of a logged line: the clocks masked, every other field the one the
    line sent had (computed once for both)."""

    def __init__(self, fields: _Fields) -> None:
        super().__init__(clock="<time>", opponent_clock="<time>")
        self._fields = fields

    def __missing__(self, key: str) -> Any:
        return self._fields[key]


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
    answer_time: Any  # the answer's time in parts (prototest.judge.accounting)

    if TYPE_CHECKING:  # the referee's helpers
        def _scaled(self, ms: float) -> int: ...
        def _finding(self, kind: str, severity: str, message: str, **evidence: Any) -> Finding: ...

    # -- what the judge sends ---------------------------------------------------------------
    def _fields(self) -> _Fields:
        """The template fields, each computed when a template asks for it, from the game as
        it is then (the way to compute each is made once a game)."""
        compute = self.__dict__.get("_field_compute")
        if compute is None:
            compute = self._field_compute = self._make_field_compute()
        return _Fields(compute)

    def _make_field_compute(self) -> dict[str, Any]:
        seat = self.cfg.seat
        unit = self.spec.time.clock_unit_ms * _MS
        cap = self.spec.time.clock_max or None

        def clock(side: int) -> int:
            if self.clock_ns is None:
                return 0
            units = max(0, self.clock_ns[side]) // unit
            return min(units, cap) if cap else units

        return {
            "seat": lambda: self.spec.game.seats[seat],
            "last_move": lambda: self.last_move if self.last_move is not None else self.spec.turn.no_last_move,
            "clock": lambda: clock(seat),
            "opponent_clock": lambda: clock(1 - seat),
            "position": lambda: self.position.notation(),
            "legal_count": lambda: len(self.position.legal_moves()),
            "move": lambda: self.last_move or "",
        }

    def _expand(self, templates: Sequence[str], fields: _Fields) -> list[str]:
        lines: list[str] = []
        for template in templates:
            lines.extend(self._expand_one(template, fields))
        return lines

    def _expand_one(self, template: str, fields: _Fields) -> list[str]:
        stripped = template.strip()
        if stripped == "{board}":
            return self.position.board_lines()
        if stripped == "{legal_moves}":
            return self.position.legal_moves()
        return [template.format_map(fields)]

    def _render(self, templates: Sequence[str]) -> tuple[list[str], list[str]]:
        """The lines of some templates, and the same lines with clock values masked
        (computed only when exchanges are logged): only the templates that name a clock
        are filled twice, and the second time every other field is the first's."""
        fields = self._fields()
        if self._unanswered is None or not any(_CLOCKS[0] in t or _CLOCKS[1] in t for t in templates):
            plain = self._expand(templates, fields)
            return plain, plain
        masked_fields = _Masked(fields)
        lines: list[str] = []
        masked: list[str] = []
        for template in templates:
            filled = self._expand_one(template, fields)
            lines.extend(filled)
            masked.extend(self._expand_one(template, masked_fields)
                          if _CLOCKS[0] in template or _CLOCKS[1] in template else filled)
        return lines, masked

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
            Crash(self).cannot_write(lines)
        self.last_sent = lines[-1]
        self.sent_since_answer += len(lines)
        if self._unanswered is not None:
            self._unanswered.extend(masked if masked is not None else lines)
            if masked is not None and masked is not lines:
                self.report.transcript.mask_sent(masked)
        return t  # type: ignore[return-value]

    # -- what the bot answers ---------------------------------------------------------------
    def _read_answer(self, t_sent: int, limit_ns: int, limit_what: str,
                     before: Any = None) -> tuple[process.Read, str, int]:
        """The answer line as read, as shown (decoded with replacement, a \\r line end
        kept), and its time; every way of not answering is a Forfeit. `before`: the bot's use of the machine when the
        request was written (see prototest.judge.accounting). A fuzzing budget
        (GameConfig.deadline) never cuts an answer short: the answer asked for is judged
        to its limit, and the game stops before the next one (see Referee._moves)."""
        assert self.bot is not None
        self.read_capped = False  # set by _read_fair only
        if self.cfg.stop_when_idle and self.bot_turns == 1:
            r = self._read_or_idle(t_sent + limit_ns)
        else:
            r = self._read_fair(t_sent, limit_ns, before)
        if self.cfg.coverage is not None:  # the bot's code this answer reached (a copy of a small map)
            self.report.coverage.append((self.position.ply(), self.cfg.coverage.take()))
        # A first answer written before the bot read a byte of what the judge sent: early
        # output (as before the first line), whenever the judge's first line went out.
        unread = unread_bytes(self.bot) if r.kind == "line" and self.bot_turns == 1 else 0
        if unread and unread >= getattr(getattr(self.bot, "stdin", None), "sent_bytes", unread + 1):
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
            TimeoutDiagnosis(self).forfeit(r.data, elapsed_ns, limit_ns, limit_what, idle=r.kind == "idle",
                                           used=used, sent=sent)
        if r.kind == "eof":
            Crash(self).output_ended(f"on its turn {self.bot_turns}, before answering", partial=r.data)
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
            if not r.data and now == ticks and not unread_bytes(self.bot) and self.bot.waiting_for_input():
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
        it, names the extra lines (the transcript has them all). The look ends as soon as
        the bot sits in a read of its input with nothing of the request left unread and no
        line begun: until more input comes it writes nothing (a bot that writes several
        lines writes them before it reads again), and the verdict need not wait the whole
        OUT_OF_TURN_PROBE_MS (three times over in a fuzz verdict: the find, the cold
        retry, the printed replay)."""
        assert self.bot is not None
        deadline = time.perf_counter_ns() + OUT_OF_TURN_PROBE_MS * _MS
        extra: list[tuple[str, int]] = []
        while len(extra) < 100:
            step = min(deadline, time.perf_counter_ns() + OUT_OF_TURN_STEP_MS * _MS)
            r = self.bot.read_line(step)
            if r.kind == "timeout" and step < deadline:
                if r.data or unread_bytes(self.bot) or not self.bot.waiting_for_input():
                    continue
                r = self.bot.read_line(0)  # what it wrote before it sat down to read
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

    def _finish(self, answer_pending: bool = False) -> None:
        """Close the bot's input and check that it exits, as the spec says. With an
        answer pending (after a forfeit, or a game stopped while the bot was thinking)
        the bot may still be answering what came before: its output then goes to the
        transcript but is no finding of its own."""
        Ending.begin(self, answer_pending).judge(self)
