"""prototest.play.pool: several games at once, and the re-check alone of a result that games
running beside it may have spoiled."""

from __future__ import annotations

import os
import time
from pathlib import Path

from prototest.play import pool


def _play(task: tuple[int, str]) -> tuple[int, str, int]:
    """Task 0 is 'spoiled' the first time it is played (a marker file tells), fine after;
    every task says how many other tasks were running when it ended (by marker files)."""
    index, folder = task
    running = Path(folder) / f"running-{index}-{os.getpid()}"
    running.touch()
    time.sleep(0.03)
    beside = len(list(Path(folder).glob("running-*"))) - 1
    running.unlink()
    if index == 0:
        marker = Path(folder) / "played-once"
        if not marker.exists():
            marker.touch()
            return index, "spoiled", beside
    return index, "fine", beside


def test_a_held_result_is_played_again_alone_at_once_not_at_the_end(tmp_path):
    """A long run (check --games 1000) must not keep a timing failure to its end: once the
    games in progress end, the held game is played alone, then the others go on."""
    tasks = [(i, str(tmp_path)) for i in range(24)]
    order: list[tuple[int, str, bool]] = []

    def done(index, result, first):
        order.append((index, result[1], first is not None))
        return False

    results = pool.play_all(tasks, _play, 2, done, again=lambda r: r[1] == "spoiled")
    assert [r[0] for r in results] == list(range(24))
    assert results[0][1] == "fine" and results[0][2] == 0, results[0]  # alone: nothing beside it
    replayed = [i for i, (index, _, again) in enumerate(order) if again]
    assert [order[i][0] for i in replayed] == [0]
    assert replayed[0] < 6, order  # soon after the first results, not after all 24
    assert len(order) == 24
