"""A bot whose answer came after its limit is not "asleep by its own doing", even when
the judge looks at it only after that answer, once the bot sits in a read of its input
again (a busy machine can make the judge look that late). Such a timeout is re-checked
alone like any slow answer (prototest.judge.timeouts: TimeoutDiagnosis._asleep).

CI once caught it: a bot that sleeps 500 ms on a 498 ms clock answered before the judge's
look, and the look found it blocked reading its input, "asleep for ever". Here the look
is made late on purpose: the real probe runs once the bot has answered and reads again,
through the real referee and a real bot process."""

from __future__ import annotations

import time

from conftest import referee_game

from prototest.sandbox import process

#: An Impasse bot that sleeps 1.3 s on its first turn (its limit is 1 s), then answers
#: the first legal move it was given, and reads on.
BOT = """
import sys, time
sys.stdin.readline()
while True:
    board = [sys.stdin.readline() for _ in range(8)]
    last = sys.stdin.readline()
    if not last:
        break
    moves = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    time.sleep(1.3)
    print(moves[0], flush=True)
"""


def test_an_answer_written_before_the_judge_looks_is_not_a_sleep(tmp_path, monkeypatch):
    real = process.Bot.asleep
    looked: list[bool] = []

    def late_look(bot, min_left_ns):
        # looked at only once the bot has answered (at 1.3 s) and sits in a read of its
        # input again: then the probe alone calls it asleep, as it did in CI
        end = time.monotonic() + 30
        while not (bot.peek() and real(bot, min_left_ns)) and time.monotonic() < end:
            time.sleep(0.01)
        looked.append(real(bot, min_left_ns))
        return looked[-1]

    monkeypatch.setattr(process.Bot, "asleep", late_look)
    report = referee_game(tmp_path, BOT)
    assert looked == [True], looked  # the look found what CI's did
    timeouts = [f for f in report.findings if f.kind == "timeout"]
    assert len(timeouts) == 1, [f.message for f in report.findings]
    assert "came later: too slow" in timeouts[0].message, timeouts[0].message
    assert not timeouts[0].asleep, timeouts[0].message
