"""What fixtures cost: regenerating, replaying, and judging a recorded answer again.

Not a test: it prints figures. Run: `python benchmarks/bench_fixtures.py [FIXTURE|DIR...]`
(default: prototest's own fixtures/).

For each fixture, the wall time of
1. `record --update`: the game played again with the built-in opponent;
2. `replay`: the game played with the recorded opponent moves forced, and compared;
3. the stand-in's judgement of the last answer: what replay adds when an answer differs
   (the stand-in bot plays the fixture's answers up to that one; the last is the worst
   case, a whole game);
all in this process, as the commands run them (the reference bots' own time included).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prototest.play import fixtures, replay
from prototest.sandbox import process  # noqa: E402


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def last_answer(fixture: fixtures.Fixture, report) -> tuple[int, int]:
    """The dialogue index and the bot's turn of the fixture's last answer."""
    index = max(i for i, line in enumerate(fixture.body) if line.startswith("< "))
    turn, _ = replay.exchange_at(report, fixture.body, index)
    return index, turn or 1


def main(argv: list[str]) -> None:
    paths = matchgame.expand([Path(p) for p in argv] or [fixtures.FIXTURES])
    env = process.controlled_env({"PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])})
    print(f"{'fixture':36} {'lines':>6} {'plies':>6} {'update s':>9} {'replay s':>9} {'stand-in s':>11}")
    totals = [0.0, 0.0, 0.0]
    for path in paths:
        fixture = fixtures.load(path)
        setup = fixtures.setup_of(fixture, env)
        t_update, (text, _) = timed(lambda: fixtures.regenerate(fixture, setup))
        t_replay, result = timed(lambda: replay.replay(fixture, setup))
        index, turn = last_answer(fixture, result.report)
        t_stand_in, _ = timed(lambda: replay.judge_recorded(fixture, setup, index, turn))
        same = "" if text == path.read_text() and result.status == "pass" else "  (differs!)"
        print(f"{path.name:36} {len(fixture.body):>6} {result.report.plies:>6} {t_update:>9.2f} "
              f"{t_replay:>9.2f} {t_stand_in:>11.2f}{same}")
        for i, t in enumerate((t_update, t_replay, t_stand_in)):
            totals[i] += t
    print(f"{'total':36} {'':>6} {'':>6} {totals[0]:>9.2f} {totals[1]:>9.2f} {totals[2]:>11.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
