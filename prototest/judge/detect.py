"""Which other protocol a bot seems to speak, when no one chose the game.

Chess is the default game. A Halma bot run without `--game` fails `early_output` on its
`ready` (`malformed` in fuzz, which sends its first line at once); a CodinGame bot reads
`white` and the first turn line as the start of its board and waits, silent, until its
clock runs out. Both verdicts are right for chess and say nothing about the cause. The
first game's evidence is enough to name the `--game` the bot looks like, and to spare the
remaining games' clocks.

The signs come from the installed games' specs (`prototest.games`), never from a list
here: a game's greeting (`start.handshake`), its answers (`turn.answer`, a move its rules
can read) and a board sent every turn (a bot that waits for one). Only cheap, specific
signs count; a bot that merely fails chess gets no hint.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ..games import DEFAULT_GAME
from .game import GameReport


@dataclass(frozen=True)
class _Game:
    name: str
    title: str
    handshake: str
    spec: Any
    rules: Any
    #: a board every turn, after the seat on the first: the bot reads rows after its colour
    waits_for_board: bool


@functools.cache
def _games(current: str) -> tuple[_Game, ...]:
    """The installed games other than `current` whose spec loads, in name order."""
    from .. import games
    from . import spec as specmod

    found = []
    for name in games.names():
        if name == current:
            continue
        try:
            spec = specmod.load(games.game(name).spec)
            _, rules = specmod.bind(spec)
        except (games.GameError, specmod.SpecError):  # a game that cannot be used gives no sign
            continue
        board = any("{board}" in t for t in spec.turn.send) and any("{seat}" in t for t in spec.turn.first_send)
        found.append(_Game(name, spec.game.title or name, spec.start.handshake, spec, rules, board))
    return tuple(found)


def hint(report: GameReport, current: str = DEFAULT_GAME) -> str | None:
    """The protocol this game's evidence points to, as advice; None without a clear sign."""
    for finding in report.findings:
        if finding.severity != "fail":
            continue
        got = (finding.got or "").strip()
        # fuzz sends its first line at once (no silence first): there `ready` is the first answer
        first_answer = finding.kind == "malformed" and finding.turn == 1
        if finding.kind in ("early_output", "handshake") or first_answer:
            for g in _games(current):
                if g.handshake and got.lower() == g.handshake.lower():
                    return (f"its first line was {got!r}, the greeting of {g.title}: it looks like a bot of "
                            f"that game: choose it with --game {g.name}")
        if finding.kind == "malformed" and got:
            readers = [g for g in _games(current) if _reads(g, got)]
            if readers:
                return (f"it answered {got!r}, a move of {_either(readers, 'title')}: it looks like a bot of "
                        f"that game: choose it with {_either(readers, 'option')}")
        if (finding.kind == "timeout" and finding.rule == "waiting_for_input" and finding.turn == 1
                and not finding.got and not report.answer_ms and report.startup_ms is None):
            waiting = [g for g in _games(current) if g.waits_for_board]
            if waiting:
                return ("it read its colour and the first turn line, then waited silently for more input, "
                        f"as a bot of a game that sends its board every turn waits for it: if it plays "
                        f"{_either(waiting, 'title')}, choose it with {_either(waiting, 'option')}")
    return None


def _reads(game: _Game, answer: str) -> bool:
    """Whether `answer` is an answer of `game`'s grammar whose move its rules can read
    (well formed, if not legal, in the initial position)."""
    from ..games.base import IllegalMove

    parsed = game.spec.parse_answer(answer)
    if parsed is None:
        return False
    move = parsed[0]
    try:
        game.rules.initial().judge(move)
    except IllegalMove as exc:
        return not exc.malformed
    except Exception:  # noqa: BLE001 - a rules module's own trouble is no sign
        return False
    return True


def _either(found: list[_Game], what: str) -> str:
    items = [g.title if what == "title" else f"--game {g.name}" for g in found]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
