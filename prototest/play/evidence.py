"""What a played fuzz example shows, read the same way by every part of a campaign (the
search, the state probe, cold retries, shrinking and the printed replay's check): its first
failure, whether that is about time, what the bot answered and to which request.

Plain functions of an `Example` (prototest.play.fuzzrun) and the protocol's `Spec`: no bot
is run here.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..games.base import Position, Rules
from ..judge.findings import TIMING_KINDS, Finding
from ..judge.game import Exchange, GameReport
from ..judge.spec import Spec
from .fuzzrun import Example

#: The state probe's verdict on a bot whose fresh copies answer one position differently.
CANNOT_TELL = "cannot tell"
#: Failures that a fresh bot shown a position legal play reaches makes a verdict even when
#: the state probe cannot tell whether it keeps state: it died there.
CRASH_KINDS = ("crash",)


class Stop(BaseException):
    """Ends the Hypothesis run: a failure was found (Hypothesis saves the example in its
    database on the way out), the budget is spent, or another worker found a failure."""


def first_fail(example: Example) -> Finding | None:
    return next((f for f in example.report.findings if f.severity == "fail"), None)


def cut_short(example: Example) -> bool:
    """Whether the time budget stopped this run before it could show anything."""
    return example.report.result == "stopped" and "budget" in example.report.reason


def timing(finding: Finding | None) -> bool:
    return finding is not None and finding.kind in TIMING_KINDS


def limit_ms(finding: Finding) -> float | None:
    """The limit a timing finding held an answer to: its own figure, or the one its
    message names ("over the 150 ms it had", "no answer within 1000 ms")."""
    if finding.limit_ms is not None:
        return finding.limit_ms
    m = re.search(r"(?:over the|within) (\d+(?:\.\d+)?) ms", finding.message)
    return float(m[1]) if m else None


def request_of(report: GameReport) -> Exchange | None:
    """The last exchange of a game: the request the failing answer (or silence) met."""
    return report.exchanges[-1] if report.exchanges else None


def given(example: Example) -> str | None:
    """What the bot answered to its first request, in time or not (None: nothing)."""
    exchanges = example.report.exchanges
    return given_in(exchanges[0]) if exchanges else None


def given_in(exchange: Exchange | None) -> str | None:
    if exchange is None:
        return None
    return exchange.answer if exchange.answer is not None else exchange.late


def move_of(spec: Spec, answer: str) -> str:
    """The move an answer line plays, as the referee reads it (the line itself when it
    does not fit the grammar)."""
    parsed = spec.parse_answer(answer.rstrip("\r"))
    return parsed[0] if parsed is not None else answer


def same_move(spec: Spec, one: str | None, other: str | None) -> bool:
    """Two answers that play the same move (their comments may differ)."""
    if one is None or other is None:
        return False
    return move_of(spec, one) == move_of(spec, other)


def _request_lines(spec: Spec) -> int:
    """How many lines a cold start sends before its first request proper: the start's and
    the first turn's (the colour), one line a template."""
    return len(spec.start.send) + len(spec.turn.first_send)


def same_request(spec: Spec, warm: Exchange | None, cold: Example) -> bool:
    """Whether a fresh bot's first request (`cold`, its colour line aside) is the request
    a running bot answered (`warm`), line for line, clock values masked: only then does
    what the fresh bot answered say something about that request."""
    fresh = cold.report.exchanges[0] if cold.report.exchanges else None
    if warm is None or fresh is None:
        return False
    count = len(fresh.sent) - _request_lines(spec)
    return count > 0 and len(warm.sent) >= count and tuple(warm.sent[-count:]) == tuple(fresh.sent[-count:])


def clocked(spec: Spec) -> bool:
    """Whether the protocol tells the bot its clock (a fresh bot's is full)."""
    return any("{clock}" in t or "{opponent_clock}" in t for t in (*spec.turn.send, *spec.turn.first_send))


def moves_before(example: Example, turn: int) -> list[str] | None:
    """The moves played before the bot's answer number `turn` (0-based)."""
    report, seen = example.report, -1
    for i, position in enumerate(report.positions[:-1]):
        if position.turn() == example.seat:
            seen += 1
            if seen == turn:
                return list(report.moves[:i])
    return None


def replayed(rules: Rules, moves: Sequence[str]) -> Position:
    """The position after `moves` from the initial one."""
    position = rules.initial()
    for move in moves:
        position = position.play(move)
    return position


def interrupt(signum: int) -> KeyboardInterrupt:
    from ..sandbox.interrupts import Interrupted
    return Interrupted(signum)
