"""The referee's findings: each made with the game's evidence (its position and moves, the
turn, the answer's time in parts, the bot's last stderr lines, a diagram when it fails),
then noted in the game's report and transcript, or raised as a `Forfeit` when the spec's
[severity] table fails it.

A mixin of `prototest.judge.referee.Referee`, as `prototest.judge.dialogue` is: its
helpers are called by every part of the judge (a warning may come with every answer), so
they stay methods of the referee, at no extra cost.
"""

from __future__ import annotations

from typing import Any, Callable

from ..sandbox import process
from .answertime import AnswerTime
from .findings import Finding
from .game import Forfeit, GameConfig, GameReport
from ..games.base import Position
from .spec import Spec


class Faults:
    """Findings made, noted, or raised as the spec's severity says."""

    cfg: GameConfig
    spec: Spec
    report: GameReport
    position: Position
    bot: process.Bot | None
    bot_turns: int
    answer_ms: float | None
    answer_time: AnswerTime | None
    _diagram: Callable[[Position], Any] | None

    def _finding(self, kind: str, severity: str, message: str, **evidence: Any) -> Finding:
        evidence.setdefault("elapsed_ms", self.answer_ms)
        took = self.answer_time
        if took is not None and evidence["elapsed_ms"] == took.elapsed_ms:  # about this answer's time: its parts
            for name, value in took.figures().items():
                evidence.setdefault(name, value)
        f = Finding(kind=kind, severity=severity, message=message, game=self.cfg.index,
                    turn=self.bot_turns or None, ply=self.position.ply(),
                    position=self.position.notation(), moves=list(self.report.moves), **evidence)
        if self.bot is not None:
            f.stderr_tail = list(self.bot.stderr_tail)[-10:]
        if severity == "fail" and self._diagram is not None:
            f.diagram = self._diagram(self.position)
        return f

    def _note(self, finding: Finding) -> None:
        if finding.severity == "ignore":
            return
        self.report.findings.append(finding)
        mark = "F" if finding.severity == "fail" else "W"
        self.report.transcript.add(mark, f"{finding.severity.upper()} {finding.kind}: {finding.message}")

    def _warn(self, key: str, kind: str, message: str, *, rule: str = "", **evidence: Any) -> None:
        """A fault whose severity the spec's [severity] table sets; `rule` (default: the
        key) says which findings fold together."""
        severity = self.spec.severity[key]
        if severity == "fail":
            raise Forfeit(self._finding(kind, "fail", message, rule=rule or key, **evidence))
        self._note(self._finding(kind, severity, message, rule=rule or key, **evidence))

    def _soft(self, key: str, kind: str, message: str, **evidence: Any) -> None:
        severity = self.spec.severity[key]
        self._note(self._finding(kind, severity, message, **evidence))
