"""Which other protocol a bot seems to speak, when no one chose the game.

Chess is the default game. A Halma bot run without `--game` fails `early_output` on its
`ready` (`malformed` in fuzz, which sends its first line at once); a CodinGame bot reads `white` and the first turn line as the start of its
board and waits, silent, until its clock runs out. Both verdicts are right for chess and
say nothing about the cause. The first game's evidence is enough to name the `--game`
the bot looks like, and to spare the remaining games' clocks.

Only cheap, specific signs count; a bot that merely fails chess gets no hint.
"""

from __future__ import annotations

import re

from .game import GameReport

#: A Halma answer, `move x1 y1 x2 y2 ...`.
_HALMA_MOVE = re.compile(r"move( [+-]?\d+){4,}")


def hint(report: GameReport) -> str | None:
    """The protocol this game's evidence points to, as advice; None without a clear sign."""
    for finding in report.findings:
        if finding.severity != "fail":
            continue
        got = (finding.got or "").strip()
        # fuzz sends its first line at once (no silence first): there `ready` is the first answer
        first_answer = finding.kind == "malformed" and finding.turn == 1
        if (finding.kind in ("early_output", "handshake") or first_answer) and got.lower() == "ready":
            return (f"its first line was {got!r}, the greeting of Halma (Proglad): it looks like a "
                    "Halma bot: choose it with --game halma")
        if finding.kind in ("malformed", "illegal_move") and _HALMA_MOVE.fullmatch(got):
            return f"it answered {got!r}, a Halma move: it looks like a Halma bot: choose it with --game halma"
        if (finding.kind == "timeout" and finding.rule == "waiting_for_input" and finding.turn == 1
                and not finding.got and not report.answer_ms and report.startup_ms is None):
            return ("it read its colour and the first turn line, then waited silently for more input, "
                    "as a CodinGame bot waits for its board: if it plays Impasse or Lines of Action, "
                    "choose it with --game impasse or --game loa")
    return None
