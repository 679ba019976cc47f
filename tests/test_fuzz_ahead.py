"""Fuzz's search runs with their bot started ahead (prototest.play.spare): on a spec with
start.ahead (chess) and a core to spare (`--jobs 1`), the next search run takes a bot
started during the run before it. Its early output is still judged, a timing failure seen
beside it is played again alone, and no bot outlives the run."""

from __future__ import annotations

import copy
import multiprocessing
import sys
import threading
import time
import uuid

import pytest

from conftest import BOTS, none_alive_with, run_cli
from prototest.play import pool
from prototest.play.workers import Gate

ahead_possible = pytest.mark.skipif(pool.default_jobs() < 2, reason="a bot is started ahead only with a core to spare")
REFERENCE = ("--", sys.executable, "-m", "prototest.bots.chess_bot")
FUZZ = ("fuzz", "--game", "chess", "--no-database", "--seed", "2")


@ahead_possible
def test_search_runs_take_a_bot_started_ahead_and_the_switch_turns_it_off(tmp_path):
    token = f"PROTOTEST_AHEAD_TEST={uuid.uuid4().hex}"
    ahead = run_cli(*FUZZ, "--jobs", "1", "--examples", "6", "--env", token, *REFERENCE, tmp_path=tmp_path / "one")
    assert ahead.code == 0, ahead.stdout + ahead.stderr
    assert ahead.report["passed"] and ahead.report["started_ahead"] >= 3, ahead.report
    assert none_alive_with(token) == []  # the bot started for a run that never came: killed
    off = run_cli(*FUZZ, "--jobs", "1", "--examples", "6", "--set", "start.ahead=false", *REFERENCE,
                  tmp_path=tmp_path / "off")
    both = run_cli(*FUZZ, "--jobs", "2", "--examples", "6", *REFERENCE, tmp_path=tmp_path / "two")
    assert off.code == both.code == 0, off.stdout + both.stdout
    assert off.report["started_ahead"] == 0  # the spec's switch
    assert both.report["started_ahead"] == 0  # a worker per core: no core to spare


@ahead_possible
def test_output_written_by_a_bot_started_ahead_is_early_output(tmp_path):
    """Every bot after the first writes a line at its start: the second, started ahead
    during the first run, has written it before its colour line."""
    counter, bot = tmp_path / "count", tmp_path / "bot.py"
    bot.write_text("#!/usr/bin/env python3\nimport os, runpy\n"
                   f"path = {str(counter)!r}\n"
                   "n = int(open(path).read()) if os.path.exists(path) else 0\n"
                   "open(path, 'w').write(str(n + 1))\n"
                   "if n:\n    print('hello', flush=True)\n"
                   "runpy.run_module('prototest.bots.chess_bot', run_name='__main__')\n")
    result = run_cli(*FUZZ, "--jobs", "1", "--examples", "4", "--start-delay", "200",
                     "--set", "severity.file_operation=ignore", "--", sys.executable, str(bot), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    assert result.report["started_ahead"] >= 1, result.report
    assert {f["kind"] for f in result.findings("fail")} == {"early_output"}, result.stdout


@ahead_possible
def test_a_timeout_beside_a_bot_started_ahead_is_played_again_alone(tmp_path):
    """slow_beside_itself.py is slow while another copy of it is alive: the bot started
    ahead during the first run meets that run's bot, and times out on its first answer;
    played again alone, it answers at once: a busy-machine warning, no failure."""
    lock = f"LOCK=prototest-{uuid.uuid4().hex}"
    result = run_cli(*FUZZ, "--jobs", "1", "--examples", "3", "--env", lock, "--time-scale", "0.1",
                     "--", sys.executable, str(BOTS / "chess" / "slow_beside_itself.py"), tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.report["started_ahead"] >= 1, result.report
    rechecked = result.report["rechecked_alone"]
    assert rechecked and {r["kind"] for r in rechecked} == {"timeout"}, rechecked
    assert all(r["alone_kind"] is None for r in rechecked), rechecked  # alone, it answered in time


def _views(jobs: int = 2) -> list[Gate]:
    """One gate as each worker sees it (the worker's number is the process's own)."""
    gate = Gate(multiprocessing.get_context("fork"), jobs)
    views = []
    for worker in range(jobs):
        view = copy.copy(gate)
        view.worker = worker
        views.append(view)
    return views


def test_a_run_alone_waits_for_the_other_workers_bot_started_ahead():
    one, two = _views()
    assert two.spare_may_start()
    entered = threading.Event()

    def alone() -> None:
        with one.alone():
            entered.set()

    waiting = threading.Thread(target=alone)
    waiting.start()
    time.sleep(0.2)
    assert not entered.is_set()  # worker 2's bot started ahead is alive
    two.spare_gone()
    waiting.join(timeout=5)
    assert entered.is_set()


def test_no_bot_is_started_ahead_while_another_worker_waits_to_play_alone():
    one, two = _views()
    killed = []
    with one.alone():
        assert not two.spare_may_start()
        done = threading.Event()

        def run() -> None:
            with two.running(waiting=lambda: killed.append(True)):
                done.set()

        runner = threading.Thread(target=run)
        runner.start()
        deadline = time.monotonic() + 10  # a busy machine may start the thread late
        while not killed and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)  # (and it goes on waiting)
        assert killed == [True] and not done.is_set()  # told once that it waits: its spare goes
    runner.join(timeout=5)
    assert done.is_set() and killed == [True]
    assert two.spare_may_start()  # the run alone is over
