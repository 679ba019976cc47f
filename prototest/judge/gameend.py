"""How a game ended, as its report states it: played to its end (the rules' outcome, a
rule that calls the result the bot's error), forfeited, stopped by the judge, won by the
other seat's forfeit, interrupted; and the report closed once the bot is dead.

A collaborator of `prototest.judge.referee.Referee`, made when its game ends: nothing here
runs while the game is played.
"""

from __future__ import annotations

import signal

from .findings import fold
from .game import Forfeit, StopGame
from ..games.base import Outcome
from .refereepart import RefereePart


class GameEnd(RefereePart):
    """The end of the referee's game, in its report and transcript."""

    def ended(self, outcome: Outcome) -> None:
        """The game over by the rules (or by prototest's ply cap)."""
        ref, report = self.ref, self.report
        report.result = outcome.result_for(self.cfg.seat)
        report.reason = outcome.reason
        report.transcript.note(f"game over after {ref.position.ply()} plies: {outcome.reason}")
        if self.cfg.seat in outcome.blamed:  # the result stands; the referee calls it the bot's error
            ref._soft("rule_loss", "rule_loss", f"{report.result} by {outcome.fault}", got=outcome.reason)
        if ref.seat is not None and 1 - self.cfg.seat in outcome.blamed:  # the other seat's bot's error
            ref.seat.blamed(ref.position, report.moves, outcome)

    def forfeited(self, forfeit: Forfeit) -> bool:
        """The bot's fault ended the game: its findings noted; whether the bot can still
        be told the game is over (its exit checked)."""
        ref, report = self.ref, self.report
        ref._note(forfeit.finding)
        for finding in forfeit.also:
            ref._note(finding)
        report.result = "forfeit"
        report.reason = forfeit.finding.kind
        return forfeit.bot_usable

    def opponent_forfeited(self, kind: str) -> None:
        """The other seat's bot made a fault (its finding's `kind`): the bot wins."""
        report = self.report
        report.result = "win"
        report.opponent_forfeited = kind
        report.reason = f"the {self.cfg.opponent_label} forfeited: {kind}"
        report.transcript.note(f"game over after {self.ref.position.ply()} plies: {report.reason}")

    def stopped(self, stop: StopGame) -> None:
        """The judge stopped the game (a limit of the run, a busy machine, a usage error)."""
        self.ref._stopped_mid_answer = stop.mid_answer
        self.ref._abandoned = stop.abandon
        report = self.report
        report.result = "stopped"
        report.reason = stop.reason
        report.usage_error = stop.usage
        report.transcript.note(f"game stopped after {self.ref.position.ply()} plies: {stop.reason}")

    def interrupted(self, exc: KeyboardInterrupt) -> None:
        """Ctrl-C or SIGTERM: the game stops here; the bot is killed on the way out."""
        report = self.report
        report.interrupted = getattr(exc, "signum", signal.SIGINT)
        report.result = "interrupted"
        report.reason = signal.Signals(report.interrupted).name
        report.transcript.note(f"interrupted by {report.reason}")

    def close(self) -> None:
        """The bot dead: the game's plies, its findings folded, its result in the transcript."""
        report = self.report
        report.plies = self.ref.position.ply()
        report.findings = fold(report.findings)
        report.transcript.note(f"result: {report.result}" + (f" ({report.reason})" if report.reason else ""))
