"""Findings: what a check saw, how much it matters, and the evidence.

A *kind* names what happened; a *severity* says how much it matters under the spec:
`fail` (the real judge would forfeit the bot) or `warn` (the real judge probably accepts
it, but the statement forbids it or it is fragile). Kinds are grouped into *checks*,
the units a report and a JUnit file show per game.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

#: kind -> check. The order of CHECKS is the order of the report.
KINDS: dict[str, str] = {
    "early_output": "handshake",
    "handshake": "handshake",
    "malformed": "protocol",
    "unexpected_output": "protocol",
    "illegal_move": "legality",
    "random_move": "legality",
    "timeout": "timing",
    "slow": "timing",
    "crash": "stability",
    "no_exit": "exit",
    "exit_status": "exit",
}
CHECKS = ("handshake", "protocol", "legality", "timing", "stability", "exit")

CHECK_TITLES = {
    "handshake": "start-up and handshake",
    "protocol": "answers follow the grammar, in turn",
    "legality": "moves are legal",
    "timing": "answers in time",
    "stability": "no crash mid-game",
    "exit": "exits when input closes",
}


@dataclass
class Finding:
    kind: str
    severity: str  # "fail" or "warn"
    message: str
    game: int = 0
    turn: int | None = None  # the bot's own turn number, 1-based
    ply: int | None = None
    position: str | None = None
    moves: list[str] = field(default_factory=list)
    expected: str | None = None
    got: str | None = None
    elapsed_ms: float | None = None
    stderr_tail: list[str] = field(default_factory=list)
    transcript: str | None = None
    count: int = 1  # identical findings in one game are folded into one
    rule: str = ""  # the spec rule or cause behind it ("crlf", "slow", ...), for folding

    @property
    def check(self) -> str:
        return KINDS.get(self.kind, "protocol")

    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.severity, self.rule or _shape(self.message))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["check"] = self.check
        del data["rule"]
        return data


def _shape(message: str) -> str:
    """A message with its numbers blanked, so 'answered in 93 ms' repeats fold."""
    return re.sub(r"\d+", "#", message)


def fold(findings: list[Finding]) -> list[Finding]:
    """Keep the first of each repeated finding, counting the rest."""
    seen: dict[tuple[str, str, str], Finding] = {}
    out = []
    for f in findings:
        first = seen.get(f.key())
        if first is None:
            seen[f.key()] = f
            out.append(f)
        else:
            first.count += 1
    return out
