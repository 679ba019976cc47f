"""Bots started ahead of their game (spec start.ahead, runner.Ahead): one game at a time
with a core to spare, check starts the next game's bot while a game is played. The
games, findings and verdicts are those of bots started at their game; what a bot does
before its colour line is still judged; no bot outlives the run."""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, RUN_TOKEN, bot_env, bots_with, none_alive_with, not_busy, run_cli
from prototest.play import pool

pytestmark = pytest.mark.skipif(pool.default_jobs() < 2, reason="a bot is started ahead only with a core to spare")
REFERENCE = ("--", sys.executable, "-m", "prototest.bots.chess_bot")


def test_the_bots_after_the_first_are_started_ahead_and_the_games_are_the_same(tmp_path):
    ahead = run_cli("check", "--games", "4", "--jobs", "1", "--seed", "2", "--start-delay", "300", *REFERENCE,
                    tmp_path=tmp_path / "one")
    apart = run_cli("check", "--games", "4", "--jobs", "2", "--seed", "2", "--start-delay", "300", *REFERENCE,
                    tmp_path=tmp_path / "two")
    assert ahead.code == apart.code == 0, ahead.stdout + apart.stdout
    games = ahead.report["games"]
    assert games[0]["started_ahead_ms"] is None
    assert all(g["started_ahead_ms"] > 0 for g in games[1:]), games
    assert all(g["started_ahead_ms"] is None for g in apart.report["games"])  # two at once: no core to spare
    assert [g["moves"] for g in games] == [g["moves"] for g in apart.report["games"]]
    second = Path(games[1]["transcript"])
    text = (tmp_path / "one" / second if not second.is_absolute() else second).read_text()
    assert "the bot was started" in text and "before its game (start.ahead" in text, text


def counting_bot(tmp_path: Path, body: str) -> Path:
    """A chess bot that counts its starts in a file, then does `body` (n: starts before it)."""
    bot, counter = tmp_path / "bot.py", tmp_path / "count"
    bot.write_text("#!/usr/bin/env python3\nimport os, sys, runpy\n"
                   f"path = {str(counter)!r}\n"
                   "n = int(open(path).read()) if os.path.exists(path) else 0\n"
                   "open(path, 'w').write(str(n + 1))\n" + body +
                   "runpy.run_module('prototest.bots.chess_bot', run_name='__main__')\n")
    bot.chmod(0o755)
    return bot


#: The bots count their starts in a file: no file operation to judge.
COUNTING = ("--set", "severity.file_operation=ignore", "--game", "chess", "--jobs", "1")


def test_output_written_while_started_ahead_is_early_output(tmp_path):
    bot = counting_bot(tmp_path, "if n == 1:\n    print('hello', flush=True)  # the second bot, at its start\n")
    result = run_cli("check", *COUNTING, "--games", "3", "--start-delay", "200", str(bot), tmp_path=tmp_path)
    assert result.code == 1
    assert [(f["game"], f["kind"]) for f in result.findings("fail")] == [(2, "early_output")], result.stdout
    # game 2 ended before its bot's first answer: game 3's bot was started at its game
    assert [g["started_ahead_ms"] is not None for g in result.report["games"]] == [False, True, False]


def test_a_bot_that_dies_while_started_ahead_is_a_crash_with_its_status(tmp_path):
    bot = counting_bot(tmp_path, "if n == 1:\n    sys.exit(7)  # the second bot started dies at once\n")
    result = run_cli("check", *COUNTING, "--games", "3", "--start-delay", "100", str(bot), tmp_path=tmp_path)
    assert result.code == 1
    [f] = result.findings("fail")
    assert (f["game"], f["kind"]) == (2, "crash") and "exited with status 7" in f["message"], f["message"]


def test_an_interrupted_run_leaves_no_bot_started_ahead(tmp_path):
    """Ctrl-C during a game: its bot and the next game's, started ahead, are both gone."""
    bot = counting_bot(tmp_path, "import time\ntime.sleep(0.3 if n else 0)\n")
    slow = tmp_path / "slow.py"  # each answer after half a second
    slow.write_text(f"#!/usr/bin/env python3\nimport sys, time, runpy\nsys.argv = [{str(bot)!r}]\n"
                    "real = sys.stdout.write\n"
                    "class Slow:\n    def __getattr__(self, name): return getattr(sys.__stdout__, name)\n"
                    "    def write(self, text): time.sleep(0.5); return real(text)\n"
                    "sys.stdout = Slow()\n"
                    f"runpy.run_path({str(bot)!r}, run_name='__main__')\n")
    slow.chmod(0o755)
    token = f"PROTOTEST_AHEAD_TEST={uuid.uuid4().hex}"  # the bots are found by it, never by a name
    proc = subprocess.Popen([sys.executable, "-m", "prototest", "check", *COUNTING, "--games", "3",
                             "--env", RUN_TOKEN, "--env", token,
                             "--start-delay", "0", "--transcripts", str(tmp_path / "t"), str(slow)],
                            cwd=ROOT, env=bot_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    counter = tmp_path / "count"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (counter.exists() and counter.read_text() == "2"):
        time.sleep(0.05)
    assert counter.read_text() == "2"  # game 1's bot, and game 2's started ahead
    assert len(bots_with(token)) == 2
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, out + err  # interrupted, reported: not a crash
    assert none_alive_with(token) == [], out + err


def test_a_timing_fault_beside_a_copy_started_ahead_is_re_checked_alone(tmp_path):
    """slow_beside_itself.py is slow while another copy of it is alive: game 2's bot,
    started during game 1, times out; played again alone, it passes, and the run says why."""
    import uuid

    lock = f"LOCK=prototest-{uuid.uuid4().hex}"
    result = run_cli("check", "--game", "chess", "--jobs", "1", "--env", lock, "--start-delay", "150",
                     "--time-scale", "0.1", "--games", "2", str(BOTS / "chess" / "slow_beside_itself.py"),
                     tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    first, second = result.report["games"]
    assert first["rechecked_alone"] is None and second["rechecked_alone"].startswith("timeout"), second
    assert ("re-checked alone: game 2 had a timing finding (timeout" in result.stdout
            and "while another copy of the bot was alive (started ahead of its game)" in result.stdout), result.stdout



def _match(tmp_path: Path, *args: str):
    import json

    report = tmp_path / "match.json"
    result = run_cli("match", *args, "--game", "chess", "--json", str(report), "--transcripts",
                     str(tmp_path / "transcripts"), tmp_path=tmp_path)
    result.raw = json.loads(report.read_text()) if report.exists() else None
    result.report = not_busy(result.raw)  # as run_cli gives it
    return result


def test_a_match_starts_both_bots_of_the_next_game_ahead_and_plays_the_same_games(tmp_path):
    bot = shlex.join([sys.executable, "-m", "prototest.bots.chess_bot"])
    ahead = _match(tmp_path / "one", bot, bot, "--games", "4", "--jobs", "1", "--seed", "2", "--start-delay", "300")
    apart = _match(tmp_path / "two", bot, bot, "--games", "4", "--jobs", "2", "--seed", "2", "--start-delay", "300")
    assert ahead.code == apart.code == 0, ahead.stdout + apart.stdout
    assert [g["moves"] for g in ahead.report["games"]] == [g["moves"] for g in apart.report["games"]]
    for game in ahead.report["games"][1:]:
        text = Path(game["transcript"]).read_text()
        lines = [line for line in text.splitlines() if "before its game (start.ahead" in line]
        assert len(lines) == 2 and sum("[opponent] the bot was started" in line for line in lines) == 1, text
    first = Path(ahead.report["games"][0]["transcript"]).read_text()
    assert "before its game (start.ahead" not in first
    assert "before its game (start.ahead" not in Path(apart.report["games"][1]["transcript"]).read_text()


def test_output_of_the_other_seat_s_bot_started_ahead_is_its_early_output(tmp_path):
    """B's second start is game 2's other seat, started during game 1: it writes at once,
    before its colour line, and forfeits game 2 for it."""
    bot = counting_bot(tmp_path, "if n == 1:\n    print('hello', flush=True)\n")
    reference = shlex.join([sys.executable, "-m", "prototest.bots.chess_bot"])
    result = _match(tmp_path, reference, str(bot), "--set", "severity.file_operation=ignore", "--games", "2",
                    "--jobs", "1", "--start-delay", "200")
    assert result.code == 1, result.stdout + result.stderr
    data = result.report
    assert data["findings"]["A"] == []
    assert [(f["game"], f["kind"]) for f in data["findings"]["B"]] == [(2, "early_output")], data["findings"]
    assert data["games"][1]["reason"] == "the opponent forfeited: early_output"
    assert "[opponent] the bot was started" in Path(data["games"][1]["transcript"]).read_text()


def test_a_timing_fault_beside_the_next_games_bots_in_a_match_is_re_checked_alone(tmp_path):
    """In a match at --jobs 1 the next game's two bots start ahead: A (slow_beside_itself.py)
    started beside its copy times out in game 2; played again alone it draws, and the game
    counts as played alone, not as A's forfeit."""
    import uuid

    slow = shlex.join([sys.executable, str(BOTS / "chess" / "slow_beside_itself.py")])
    result = _match(tmp_path, slow, shlex.join([sys.executable, "-m", "prototest.bots.chess_bot"]), "--games", "2", "--jobs", "1",
                    "--time-scale", "0.1", "--start-delay", "150", "--env", f"LOCK=prototest-{uuid.uuid4().hex}")
    assert result.code == 0, result.stdout + result.stderr
    first, second = result.report["games"]
    assert first["rechecked_alone"] is None, first
    assert (second["rechecked_alone"] or "").startswith("timeout"), second
    assert "A's findings: none" in result.stdout and "(re-checked alone after timeout" in result.stdout, result.stdout
