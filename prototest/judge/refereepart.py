"""What the referee's collaborators share: each is made for one step of a game (the bot's
start, a missing answer's diagnosis, the game's end...), reads the referee's state and
makes its findings through the referee's helpers (`_finding`, `_note`, `_soft`).
"""

from __future__ import annotations

from typing import Any

from ..sandbox import process
from .game import GameConfig, GameReport
from .spec import Spec


class RefereePart:
    """A collaborator of one prototest.judge.referee.Referee (not imported here: the
    referee imports its parts), with the names of the referee's state it works on."""

    def __init__(self, referee: Any) -> None:
        """`referee`: the prototest.judge.referee.Referee this part works for."""
        self.ref = referee
        self.bot: process.Bot | None = referee.bot
        self.cfg: GameConfig = referee.cfg
        self.spec: Spec = referee.spec
        self.report: GameReport = referee.report
