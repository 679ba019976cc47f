"""A bot in the other seat: the opponent played by a second bot instead of the built-in
opponent (`check --opponent CMD`, and every game of `prototest match`).

The other seat is a second `Referee` on the same game, driven turn by turn by the first
one: the same dialogue (`prototest.judge.dialogue`), the same judging of each answer
(`prototest.judge.judging`), the same accounting of its time (`prototest.judge.accounting`), its own
`process.Bot`, its own clock and its own findings. Nothing of the referee is copied: the
seat's referee is told the candidate's moves (`observe`) and asked for its own (`move`),
and its faults come back as `OpponentForfeit`, which the first referee turns into a win
of its bot ("the opponent forfeited: <kind>"). The candidate is judged exactly as against
the built-in opponent.

Both bots' lines go to one transcript: the seat's are marked with a prefix
(`Transcript.seat`: "[opponent] " by default).
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from typing import Any

from .botexit import Ending
from .findings import Finding, fold
from .game import Forfeit, StopGame
from ..games.base import Position
from .startup import started_ahead

_MS = 1_000_000


class OpponentForfeit(Exception):
    """The bot in the other seat made a fault its judge would end the game for."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


class BotSeat:
    """The other seat of `referee`'s game, played by the bot `referee.cfg.opponent_argv`."""

    def __init__(self, referee: Any) -> None:
        """`referee`: the candidate's prototest.judge.referee.Referee, which owns the seat
        (not imported here: the referee imports this module)."""
        cfg = referee.cfg
        assert cfg.opponent_argv
        seat_cfg = dataclasses.replace(
            cfg, argv=list(cfg.opponent_argv), seat=1 - cfg.seat, cwd=cfg.opponent_cwd or cfg.cwd,
            opponent=None, opponent_argv=None, max_plies=None, max_bot_turns=None, stop_when_idle=False,
            log_exchanges=False, deadline=None, coverage=None)
        #: the candidate's referee, which owns the seat: held weakly, so that a finished game
        #: (its positions, boards and transcript) is freed at once, not by the cycle collector
        self.main = weakref.proxy(referee)
        self.referee = type(referee)(seat_cfg)  # the seat's referee is of the same class
        self.prefix = f"[{cfg.opponent_label}] "
        self.referee.report.transcript = referee.report.transcript.seat(self.prefix)
        self.label = cfg.opponent_label
        #: the seat's bot can still be told the game is over (its exit checked)
        self.usable = True
        self.started = False
        self.forfeited: Finding | None = None
        self._stopped_mid_answer = False
        #: its input closed at the game's end (see end_input)
        self._ending: Ending | None = None

    # -- the game ---------------------------------------------------------------------------
    def launch(self) -> bool:
        """Start the seat's bot, if it is not running yet (it may be started ahead of its
        game with the candidate's: runner.Ahead; then, as for the candidate, its report
        and transcript say so, and what it wrote meanwhile is looked at before the first
        line)."""
        r = self.referee
        ahead_ns = None if r.bot is None else time.perf_counter_ns() - r.bot.started_ns
        if not r.launch():
            return False
        if ahead_ns is not None and r.report.started_ahead_ms is None:
            started_ahead(r.report, ahead_ns)
        return True

    def start(self) -> None:
        """Start the seat's bot and its dialogue (handshake, silence, first lines)."""
        r = self.referee
        if not r.launch():
            if r.report.interrupted is not None:  # Ctrl-C while it started: the run's, not its crash
                stop = KeyboardInterrupt()
                stop.signum = r.report.interrupted  # type: ignore[attr-defined]
                raise stop
            finding = r.report.findings[-1] if r.report.findings else r._finding(
                "crash", "fail", "the opponent could not be started")
            self.usable = False
            self._forfeit(finding)
        self.started = True
        self._guarded(r._start)

    def observe(self, position: Position, moves: list[str], clock_ns: list[int] | None) -> None:
        """The candidate's moves since the seat's last turn, told as its judge tells them."""
        r = self.referee
        known = len(r.report.moves)
        for number, move in enumerate(moves[known:], known + 1):
            # the referee's own position after the last move (positions are values): not played twice
            r._played(position if number == len(moves) else r.position.play(move), move)
            if r.spec.after_move.opponent:
                self._guarded(lambda: (r._check_silence(f"after the judge sent {r.last_sent!r}"),
                                       r._say(r.spec.after_move.opponent)))
        if clock_ns is not None and r.clock_ns is not None:  # the candidate's clock as the judge keeps it
            r.clock_ns[self.main.cfg.seat] = clock_ns[self.main.cfg.seat]

    def move(self, position: Position, moves: list[str], clock_ns: list[int] | None) -> str:
        """The seat's move: its bot asked and its answer judged (OpponentForfeit on a fault)."""
        self.observe(position, moves, clock_ns)
        r = self.referee
        self._guarded(r._bot_turn)
        if clock_ns is not None and r.clock_ns is not None:
            clock_ns[r.cfg.seat] = r.clock_ns[r.cfg.seat]
        assert r.last_move is not None
        return r.last_move

    def blamed(self, position: Position, moves: list[str], outcome: Any) -> None:
        """The game ended by a rule that calls it the seat's error (Halma's blocker): its
        result stands, and the finding is the seat bot's, as it would be the bot's."""
        r = self.referee
        for move in moves[len(r.report.moves):]:  # its position brought up to the end, nothing sent
            r._played(r.position.play(move), move)
        r.report.result = outcome.result_for(r.cfg.seat)
        r._soft("rule_loss", "rule_loss", f"{r.report.result} by {outcome.fault}", got=outcome.reason)

    def _guarded(self, step: Any) -> None:
        r = self.referee
        try:
            step()
        except Forfeit as forfeit:
            r._note(forfeit.finding)
            for finding in forfeit.also:
                r._note(finding)
            self.usable = forfeit.bot_usable
            self._forfeit(forfeit.finding)
        except StopGame as stop:
            self._stopped_mid_answer = stop.mid_answer
            raise StopGame(f"the {self.label}: {stop.reason}", usage=stop.usage) from None

    def _forfeit(self, finding: Finding) -> None:
        r = self.referee
        r.report.result, r.report.reason = "forfeit", finding.kind
        self.forfeited = finding
        raise OpponentForfeit(finding)

    def end_input(self) -> None:
        """The game is over: the seat's bot told so (its input closed), unless it forfeited
        unusable; its exit is waited for by `close`, its grace running meanwhile (the
        referee closes its own bot's input after this one's, then waits for both)."""
        r = self.referee
        if (self._ending is None and r.bot is not None and self.started and self.usable
                and self.main.report.interrupted is None):
            self._ending = Ending.begin(r, answer_pending=self.forfeited is not None or self._stopped_mid_answer)

    def close(self) -> None:
        """The seat's bot's exit checked (its input closed first, if `end_input` did not),
        then it is killed; its findings go to the game's report."""
        r = self.referee
        bot = r.bot
        try:
            if bot is not None:
                with bot:
                    self.end_input()
                    if self._ending is not None and self.main.report.interrupted is None:
                        try:
                            self._ending.judge(r)
                        except Forfeit as forfeit:  # not raised by Ending.judge; kept safe
                            r._note(forfeit.finding)
                r._conduct(final=True)
                r._envelope_end()
        finally:
            report = self.main.report
            report.opponent_findings = fold(r.report.findings)
            report.opponent_answer_ms = list(r.report.answer_ms)
            if r.report.startup_ms is not None:
                report.opponent_startup_ms = r.report.startup_ms
            r.report.plies = r.position.ply()

