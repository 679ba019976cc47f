"""The referee's side of the platform's envelope: every answer accounted for, and the
faults of a bot that goes over what its platform gives it.

* **Every answer's use of the machine** (its CPU time, the time it waited for a CPU, the
  time a quota held it back), from `prototest.sandbox.envelope.Meter` readings taken at the write
  of the request and at the read of the answer.
* **A busy machine is never blamed on the bot.** When the answer's limit passes, the
  judge asks how long the machine kept the answer from it meanwhile (the bot's threads
  waiting for a CPU, or the judge's own reader: prototest.judge.answertime), and waits that much
  longer (up to a cap): an answer is late only when it is late without that time. An
  answer that came after its limit only because of it is a WARN `busy_machine` naming
  the machine's load; the game goes on.
* **The CPU share where no cgroup enforces it:** `envelope.ShareModel` replays the bot's
  CPU use under the platform's quota; an answer whose worst wall time there is over its
  limit is a `cpu_share` finding (the platform's timer would have run out), with its CPU
  time, its own time here and the worst case under the share.
* **Memory, processes, the network:** `prototest.judge.resources` (a bot killed by its
  memory limit is a `memory` finding, never a timeout or a crash).

A mixin of `prototest.judge.referee.Referee`, as `prototest.judge.dialogue` is.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from . import answertime
from ..sandbox import envelope, process
from .answertime import AnswerTime
from ..sandbox.envelope import Envelope, Spent, Usage
from .findings import Finding
from .game import ABANDON_LOOK_MS, Forfeit, GameReport, StopGame
from .resources import ResourceFaults

_MS = 1_000_000
#: The longest the judge waits past an answer's limit for time the machine took from the
#: bot: this many times the limit (at least CAP_MIN_MS).
CAP_FACTOR = 3
CAP_MIN_MS = 2000
#: While a thread of the bot waits for a CPU past its limit, the judge looks again this often.
WAIT_STEP_MS = 10
#: Why a CPU share makes an answer late that a free core would not.
SHARED_QUOTA = ("(the quota is shared by turns that come back to back, and the CPU the bot used since its last "
                "answer counts)")


def load_words() -> str:
    return answertime.load_words(answertime.load())


class Accounting:
    """What each answer used, and the envelope's findings."""

    report: GameReport
    bot: process.Bot | None
    bot_turns: int

    if TYPE_CHECKING:  # provided by Referee
        spec: Any
        cfg: Any

        def _finding(self, kind: str, severity: str, message: str, **evidence: Any) -> Finding: ...
        def _note(self, finding: Finding) -> None: ...

    envelope: Envelope = envelope.NO_ENVELOPE
    _share: envelope.ShareModel | None = None
    _last_usage: Usage | None = None
    #: a memory finding was made (prototest.judge.resources): the game's end adds none
    _reported_memory = False
    #: the last read gave up at its cap with the bot still within its own time
    read_capped = False
    #: what the answer being judged used (its findings carry it), None before it is read
    answer_used: Spent | None = None
    #: the answer's time, in the parts its findings name (see prototest.judge.answertime)
    answer_time: AnswerTime | None = None

    def _start_accounting(self) -> None:
        bot = self.bot
        assert bot is not None
        self.report.envelope = self.envelope.describe() if self.envelope.limited else ""
        self.report.enforced = bot.hold.enforced
        self.report.enforced_missing = bot.hold.enforced_missing
        self._reported_memory = False
        self._last_usage = None
        self._share = None
        if bot.hold.meter is not None:
            start = bot.hold.meter.start
            start.t_ns = bot.started_ns
            self._last_usage = start
            if self.envelope.cpu_share and bot.hold.group is None:
                self._share = envelope.ShareModel(self.envelope.cpu_share, self.envelope.cpu_period_ns)

    # -- one answer ---------------------------------------------------------------------------
    def _usage_at_request(self) -> Usage | None:
        """The bot's use of the machine right before a request is written; the stretch
        since its last answer goes to the CPU-share model."""
        assert self.bot is not None
        self.answer_used = None
        self.answer_time = None
        now = self.bot.usage()
        if now is not None and self._share is not None and self._last_usage is not None:
            gap = envelope.spent(self._last_usage, now)
            self._share.gap(gap.wall_ns, gap.cpu_ns)
        return now

    def _read_fair(self, t_sent: int, limit_ns: int, before: Usage | None) -> process.Read:
        """Read the answer by its limit, extended by the time the machine kept the bot
        from a CPU meanwhile (never past the cap)."""
        bot = self.bot
        assert bot is not None
        deadline = t_sent + limit_ns
        cap = t_sent + limit_ns + max(CAP_FACTOR * limit_ns, CAP_MIN_MS * _MS)
        self.read_capped = False
        while True:
            r = self._read_line(deadline)
            if r.kind != "timeout" or before is None:
                return r
            now = bot.usage(fresh=True)
            if now is None:
                return r
            used = envelope.spent(before, now)
            waiting = bot.hold.meter is not None and used.others_ns != 0 and bot.hold.meter.waiting_threads()
            # The time the CPU quota held the bot back is waited for too, not excused: an
            # answer that comes in it is late by the quota (a cpu_share finding, _throttled);
            # no answer even then is a timeout, not the quota's.
            owed = used.excused_ns + used.throttled_ns
            if (used.own_ns - used.throttled_ns >= limit_ns or not owed) and not waiting:
                return r
            if deadline >= cap:  # at the cap: the machine's doing only if the bot is within its own time
                self.read_capped = used.own_ns < limit_ns
                return r
            # a wait going on now is counted once the thread runs: look again shortly
            step = WAIT_STEP_MS * _MS if waiting else 0
            deadline = min(cap, max(t_sent + limit_ns + owed, time.perf_counter_ns() + step))

    def _read_line(self, deadline: int) -> process.Read:
        """The bot's next line by `deadline`; with GameConfig.abandon, asked every
        ABANDON_LOOK_MS meanwhile, a StopGame that drops the game when it says so."""
        bot, abandon = self.bot, self.cfg.abandon
        assert bot is not None
        while abandon is not None:
            look = time.perf_counter_ns() + ABANDON_LOOK_MS * _MS
            if look >= deadline:
                break
            r = bot.read_line(look)
            if r.kind != "timeout":
                return r
            why = abandon()
            if why:
                raise StopGame(why, mid_answer=True, abandon=True)
        return bot.read_line(deadline)

    def _account(self, before: Usage | None, r: process.Read, since_ns: int) -> Spent | None:
        """What the answer used, recorded with the game's figures; its time (from
        `since_ns`: the request's write, or the bot's start for a handshake) in parts
        (answer_time) for every finding about it."""
        self.answer_time = None
        if before is None or self.bot is None:
            return None
        after = self.bot.usage()
        if after is None:
            return None
        after.t_ns = r.t_ns  # the answer's time is the read's
        used = envelope.spent(before, after)
        self._last_usage = after
        report = self.report
        report.answer_cpu_ms.append(round(used.cpu_ns / _MS, 3))
        report.answer_wait_ms.append(round(used.wait_ns / _MS, 3))
        report.throttled_ms += used.throttled_ns / _MS
        self.answer_used = used
        self.answer_time = AnswerTime(r.t_ns - since_ns, used)
        return used

    def _busy_machine(self, used: Spent, elapsed_ns: int, limit_ns: int, limit_what: str,
                      answer: str | None) -> Finding:
        message, figures = answertime.busy_machine(AnswerTime(elapsed_ns, used), answer, limit_ns, limit_what,
                                                   answertime.load())
        return self._finding("busy_machine", "warn", message, rule="busy_machine", **figures)

    def _excused(self, used: Spent | None, elapsed_ns: int, limit_ns: int, limit_what: str, answer: str) -> bool:
        """A line read after its limit: True (and a WARN busy_machine) when it is late only
        because of the time the machine kept from it; False when it is late by itself (a
        quota that made it late is a `cpu_share` finding, raised or noted here)."""
        if used is not None and AnswerTime(elapsed_ns, used).own_ns() <= limit_ns:
            self._note(self._busy_machine(used, elapsed_ns, limit_ns, limit_what, answer))
            return True
        self._throttled(used, elapsed_ns, limit_ns, limit_what, answer)
        return False

    def _too_busy(self, used: Spent, elapsed_ns: int, limit_ns: int, limit_what: str) -> None:
        """No answer by the cap, but the bot's own time is still within its limit: the
        machine, not the bot, cannot play this game now."""
        self._note(self._busy_machine(used, elapsed_ns, limit_ns, limit_what, None))
        raise StopGame(f"the busy machine held the answer up too long ({load_words()})", mid_answer=True)

    def _throttled(self, used: Spent | None, elapsed_ns: int, limit_ns: int, limit_what: str,
                   answer: str | None) -> None:
        """With a cgroup's CPU quota: an answer late only because the quota held the bot
        back is a `cpu_share` finding (the same verdict as the model's without a cgroup)."""
        if used is None or not used.throttled_ns:
            return
        own_ns = AnswerTime(elapsed_ns, used).own_ns(quota_excused=True)  # the quota's time given back
        if own_ns > limit_ns or (answer is None and own_ns >= limit_ns):
            return  # late by itself; given the quota's time back, still no answer: a timeout, not the quota's
        env = self.envelope
        share = envelope.share_words(env) if env.cpu_share else "the CPU quota"
        message, figures = answertime.quota_late(AnswerTime(elapsed_ns, used), answer, limit_ns, limit_what, share,
                                                 SHARED_QUOTA)
        self._cpu_share(self._finding(
            "cpu_share", self.spec.severity["cpu_share"], message,
            expected=f"an answer within {limit_ns / _MS:.0f} ms under the share", rule="cpu_share", **figures),
            bot_usable=answer is not None)

    def _cpu_share(self, finding: Finding, bot_usable: bool = True) -> None:
        """A cpu_share finding: the end of the game when it fails (the platform's timer ran
        out), else a warning (`severity.cpu_share = "warn"`: the answer is then judged as if
        no quota had held it back)."""
        if finding.severity == "fail":
            raise Forfeit(finding, bot_usable=bot_usable)
        self._note(finding)

    def _share_check(self, used: Spent | None, limit_ns: int, limit_what: str, answer: str,
                     figure: bool = True) -> None:
        """Without a cgroup: the worst wall time of this answer under the platform's CPU
        share, against its limit (`figure`: kept as the game's worst answer; the start-up's
        is not, its limit is another)."""
        took = self.answer_time
        if self._share is None or used is None or took is None:
            return
        worst = self._share.answer(took.own_ns(), used.cpu_ns)
        if figure:
            self.report.share_worst_ms = max(self.report.share_worst_ms or 0.0, worst / _MS)
        env = self.envelope
        near = worst * 100 > limit_ns * env.near_percent
        if worst <= limit_ns and not near:
            return
        words, figures = answertime.share_model(took, answer, worst, limit_ns, envelope.share_words(env))
        evidence: dict[str, Any] = dict(expected=f"an answer within {limit_ns / _MS:.0f} ms under the share",
                                        got=f"up to {worst / _MS:.1f} ms", **figures)
        if worst > limit_ns:
            self._cpu_share(self._finding(
                "cpu_share", self.spec.severity["cpu_share"],
                f"{words}, over the {limit_ns / _MS:.0f} ms it has ({limit_what}): the platform's timer runs "
                f"out {SHARED_QUOTA}", rule="cpu_share", **evidence))
            return
        self._note(self._finding("cpu_share", "warn",
                                 f"{words}, {figures['limit_percent']}% of the {limit_ns / _MS:.0f} ms it has "
                                 f"({limit_what})", rule="cpu_share:near", **evidence))

    def _envelope_end(self) -> None:
        """At the game's end: the peak memory, a memory kill not reported yet, a WARN near a
        limit (see prototest.judge.resources)."""
        ResourceFaults(self).at_end()
