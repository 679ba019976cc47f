"""After a refused answer the referee looks for more lines the bot wrote for the same
request (prototest.judge.dialogue: OUT_OF_TURN_PROBE_MS). The look ends as soon as the bot
sits in a read of its input, and only then: a bot still computing or asleep before its
extra line is waited for, and its line is reported.

Real bot processes through the real referee; the look is made 10 minutes long, so that a
look that did not end early would hold the game far past the tests' own wait (60 s), and a
busy machine cannot make it end early."""

from __future__ import annotations

import pytest
from conftest import referee_game

from prototest.judge import dialogue

#: An Impasse bot that answers `b8a7` (not a legal move of white's first turn) and then,
#: as AFTER says: nothing (it reads on), `busy` (computes 40 ms, then writes a second
#: line), `sleep` (sleeps 40 ms, then writes it).
BOT = """
import sys, time
AFTER = sys.argv[1]
first = True
while True:
    if first:
        if not sys.stdin.readline():
            break
        first = False
    board = [sys.stdin.readline() for _ in range(8)]
    last = sys.stdin.readline()
    if not last:
        break
    count = int(sys.stdin.readline())
    moves = [sys.stdin.readline() for _ in range(count)]
    print("b8a7", flush=True)
    if AFTER == "busy":
        end = time.process_time() + 0.04
        while time.process_time() < end:
            pass
    elif AFTER == "sleep":
        time.sleep(0.04)
    if AFTER != "nothing":
        print("thinking more...", flush=True)
"""


def _game(tmp_path, after: str):
    return referee_game(tmp_path, BOT, after, stuck="the look for more lines did not end when the bot sat down to read")


@pytest.fixture(autouse=True)
def _long_look(monkeypatch):
    monkeypatch.setattr(dialogue, "OUT_OF_TURN_PROBE_MS", 600_000)


def test_the_look_for_more_lines_ends_once_the_bot_reads_again(tmp_path):
    report = _game(tmp_path, "nothing")
    kinds = [(f.kind, f.severity) for f in report.findings]
    assert kinds == [("illegal_move", "fail")], [f.message for f in report.findings]


@pytest.mark.parametrize("after", ["busy", "sleep"])
def test_a_line_written_after_computing_or_sleeping_is_still_seen(tmp_path, after):
    report = _game(tmp_path, after)
    kinds = [(f.kind, f.severity) for f in report.findings]
    assert kinds[:2] == [("illegal_move", "fail"), ("unexpected_output", "fail")], \
        [f.message for f in report.findings]
    assert "after 'b8a7' it wrote 'thinking more...' for the same request" in report.findings[1].message
