"""The bot's start: its process launched, its transcript headed (`launch`), then its
start-up as the spec says it goes (`StartUp`): a handshake line awaited within its limit
(start.handshake), a silence kept before the judge's first line (start.silent_ms, counted
from the bot's start: a bot started ahead may have kept it already), then the judge's
first lines (start.send). Whatever the bot writes meanwhile, or its death, is a Forfeit.

Both work for `prototest.judge.referee.Referee`, once a game (`Referee.launch`,
`Referee._start`): they read and time the bot through the referee's dialogue and
accounting, and make their findings through the referee's helpers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import answertime
from ..sandbox import conduct, process
from .crash import Crash
from .game import Forfeit, GameReport
from .pipes import line_shown
from .refereepart import RefereePart
from .resources import ResourceFaults
from .spec import Spec
from ..sandbox.envelope import Envelope
from ..sandbox.transcript import Transcript, show

_MS = 1_000_000


def launch(referee: Any) -> bool:
    """Start `referee`'s bot (a prototest.judge.referee.Referee's, once: Referee.launch), its
    transcript headed and its accounting begun; False when it could not be started (a
    finding says why, or the interrupt that came meanwhile)."""
    report, cfg = referee.report, referee.cfg
    _head(referee)
    try:
        bot = start_bot(referee.spec, cfg.argv, cfg.env, cfg.cwd, referee.envelope, report.transcript)
    except OSError as exc:
        referee._note(referee._finding("crash", "fail", f"the bot could not be started: {exc.strerror or exc}"))
        report.result = "forfeit"
        return False
    except KeyboardInterrupt as exc:  # the Bot killed what it had started
        referee.interrupted(exc)
        return False
    _begin(referee, bot)
    return True


def start_bot(spec: Spec, argv: Sequence[str], env: dict[str, str], cwd: str | None, envelope: Envelope,
              transcript: Transcript) -> process.Bot:
    """The bot's process, as the spec has it read and watched (OSError: it could not be
    started). Before its referee exists too: a bot started ahead of a run that is not
    drawn yet (prototest.play.spare), then given to its referee (`adopt`)."""
    severity = spec.severity
    return process.Bot(argv, env=env, transcript=transcript, max_line=spec.read.max_bytes, cwd=cwd,
                       cr_ends_line=spec.read.line_end == "cr_lf",
                       watch_files=not severity["file_operation"] == severity["runtime_cache"] == "ignore",
                       envelope=envelope)


def adopt(referee: Any, bot: process.Bot, transcript: Transcript) -> None:
    """`referee`'s game is played by `bot`, started by `start_bot` before the referee
    existed, with `transcript` (where the bot's start is): the referee's transcript
    becomes that one, with its header and board (Referee.adopt)."""
    own = referee.report.transcript
    assert not own.events and not transcript.header and referee.seat is None
    transcript.board = own.board
    referee.report.transcript = transcript
    _head(referee)
    _begin(referee, bot)


def _head(referee: Any) -> None:
    report, cfg, spec = referee.report, referee.cfg, referee.spec
    report.transcript.head([
        f"prototest transcript: game {cfg.index}, {spec.game.title or spec.name}",
        f"spec: {_spec_shown(spec)}",
        f"bot: {' '.join(cfg.argv)}",
        f"seat: {report.seat_name} (seat {cfg.seat}), seed {cfg.seed}, time scale {cfg.time_scale}",
    ])


def _begin(referee: Any, bot: process.Bot) -> None:
    """The bot is the referee's: what its start told, and its accounting begun."""
    report = referee.report
    report.file_watch, report.file_watch_missing = bot.file_watch, bot.file_watch_missing
    report.containment = bot.containment
    referee.bot = bot
    referee._start_accounting()


def started_ahead(report: GameReport, ahead_ns: int) -> None:
    """A bot started `ahead_ns` before its game (start.ahead: while the game before it was
    played, runner.Ahead), in its report and transcript."""
    report.started_ahead_ms = round(ahead_ns / _MS, 1)
    report.transcript.note(f"the bot was started {ahead_ns / _MS:.0f} ms before its game "
                           f"(start.ahead: while the game before it was played)")


def _spec_shown(spec: Spec) -> str:
    """The spec as the transcript names it: an installed game's by its name (its path
    is the machine's), another by its path from the current folder when inside it."""
    from .. import games

    try:
        if games.game(spec.name).spec.resolve() == Path(spec.path).resolve():
            return f"{spec.name} (installed)"
    except games.GameError:
        pass
    return conduct.shown_path(os.path.abspath(spec.path), os.getcwd())


class StartUp(RefereePart):
    """The start of one game for the referee's bot, up to the judge's first lines (made
    with the Referee whose bot is starting)."""

    def __call__(self) -> None:
        """The start as the spec says: the handshake awaited, the silence kept, the judge's
        first lines sent."""
        start = self.spec.start
        assert self.bot is not None
        if start.handshake:
            self._handshake(start.handshake, self.ref._scaled(start.handshake_ms))
        silent_ms = start.silent_ms if self.cfg.start_delay_ms is None else self.cfg.start_delay_ms
        silent_ns = self.ref._scaled(silent_ms) if self.cfg.start_delay_ms is None else silent_ms * _MS
        # counted from the bot's start: one started ahead may have been silent long enough
        # (then only what it wrote meanwhile is looked at)
        remaining_ns = self.bot.started_ns + silent_ns - time.perf_counter_ns()
        if silent_ns or self.report.started_ahead_ms is not None:
            self._stay_silent(max(0, remaining_ns))
        self.ref._say(start.send)

    def _handshake(self, expected: str, limit_ns: int) -> None:
        assert self.bot is not None
        before = self.ref._last_usage
        r = self.ref._read_fair(self.bot.started_ns, limit_ns, before)
        used = self.ref._account(before, r, self.bot.started_ns)
        late_ns, what = r.t_ns - self.bot.started_ns, "the handshake limit"
        if r.kind == "line":
            self.ref._share_check(used, limit_ns, what, line_shown(r), figure=False)
            if late_ns > limit_ns and not self.ref._excused(used, late_ns, limit_ns, what, line_shown(r)):
                self.report.transcript.received(line_shown(r), r.t_ns)
                late = self.ref._finding(  # late by itself (the judge waited for the machine's share)
                    "handshake", "fail", "", expected=expected, got=show(line_shown(r)), elapsed_ms=late_ns / _MS,
                    limit_ms=limit_ns / _MS)
                late.message = (f"{line_shown(r)!r} came {late_ns / _MS:.1f} ms after start-up: over the "
                                f"{limit_ns / _MS:.0f} ms the judge waits for {expected!r}"
                                f"{answertime.still_over(late.time_figures())}")
                raise Forfeit(late)
        elif r.kind == "timeout" and used is not None and self.ref.read_capped:
            self.ref._too_busy(used, late_ns, limit_ns, what)
        elapsed = (r.t_ns - self.bot.started_ns) / _MS
        if r.kind == "line":
            shown = line_shown(r)
            self.report.transcript.received(shown, r.t_ns)
            text = self.ref._text_of(r, shown, "handshake", f"the {expected!r} line", elapsed_ms=elapsed)
            if text == expected:
                self.report.startup_ms = elapsed
                return
            if text.strip().lower() == expected.lower():
                raise Forfeit(self.ref._finding(
                    "handshake", "fail", f"the first line must be exactly {expected!r}, got {text!r}",
                    expected=expected, got=show(shown), elapsed_ms=elapsed))
            raise Forfeit(self.ref._finding(
                "early_output", "fail", f"wrote {text!r} before {expected!r}: the first line must be {expected!r}",
                expected=expected, got=show(shown), elapsed_ms=elapsed))
        if r.kind == "eof":
            Crash(self.ref).output_ended("before its handshake")
        fault = ResourceFaults(self.ref).fault(f"said nothing within {limit_ns / _MS:.0f} ms of start-up")
        if fault is not None:
            raise Forfeit(fault, bot_usable=False)
        partial = r.data.decode("utf-8", "replace")
        raise Forfeit(self.ref._finding(
            "handshake", "fail",
            f"no {expected!r} line within {limit_ns / _MS:.0f} ms of start-up"
            + (f" (it sent {partial!r} without a newline)" if partial else ""),
            expected=expected, got=show(partial) if partial else None, elapsed_ms=elapsed, limit_ms=limit_ns / _MS),
            bot_usable=r.kind != "timeout")

    def _stay_silent(self, duration_ns: int) -> None:
        """The judge waits before its first line; the bot must write nothing meanwhile."""
        assert self.bot is not None
        r = self.bot.read_line(time.perf_counter_ns() + duration_ns)
        if r.kind == "timeout" and not r.data:
            return
        if r.kind == "eof" and not r.data:
            Crash(self.ref).output_ended("before the judge's first line")
        text = r.data.decode("utf-8", "replace")
        if r.kind == "line":
            self.report.transcript.received(text, r.t_ns)
        elapsed = (r.t_ns - self.bot.started_ns) / _MS
        raise Forfeit(self.ref._finding(
            "early_output", "fail",
            f"wrote {text!r} {elapsed:.0f} ms after start-up, before the judge's first line "
            f"(the statement demands silence until then)",
            expected="no output before the first line", got=show(text), elapsed_ms=elapsed))
