"""`prototest fuzz` through the real CLI, against real bot processes.

Bots with planted bugs that show only in some reachable positions are found within the
default budget and shrunk to a short reproducer whose replay command fails the same
way; the correct bundled bots survive the default budget; a bot that answers the same
input differently is reported as non-deterministic; failures are replayed first from
the example database; Ctrl-C keeps the report.
"""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, RUN_TOKEN, bot_env, run_cli

#: (game, bot, kind, the longest reproducer accepted). Chess en passant and a Halma chain
#: of four hops are reachable within a few plies; the LOA bot needs eight of its
#: checkers taken (16 plies at least) and the Impasse crown-after-bear-off needs a
#: single waiting on the furthest row, then a bear-off (a late-game situation).
PLANTED = [
    ("chess", "chess/en_passant.py", "illegal_move", 10),
    ("halma", "halma/short_move_buffer.py", "crash", 10),
    ("loa", "loa/crash_few_checkers.py", "crash", 40),
    ("impasse", "impasse/crown_after_bear_off.py", "illegal_move", 60),
]
REFERENCE = {game: [sys.executable, "-m", f"prototest.bots.{game}_bot"]
             for game in ("chess", "impasse", "loa", "halma")}


def fuzz(tmp_path: Path, game: str, *bot_and_options: str, timeout: float = 300):
    return run_cli("fuzz", "--game", game, *bot_and_options, tmp_path=tmp_path, timeout=timeout)


def replay(command: str, tmp_path: Path):
    """Run a reproducer's `prototest check ...` command line."""
    args = shlex.split(command)
    assert args[:2] == ["prototest", "check"], command
    return run_cli(*args[1:], tmp_path=tmp_path / "replay")


@pytest.mark.parametrize("game,bot,kind,bound", PLANTED, ids=[p[0] for p in PLANTED])
def test_a_planted_bug_is_found_and_shrunk(tmp_path, game, bot, kind, bound):
    result = fuzz(tmp_path, game, "--no-database", "--save", str(tmp_path / "saved"), str(BOTS / bot))
    assert result.code == 1, result.stdout + result.stderr
    report = result.report
    assert report["passed"] is False and report["examples"] <= 100 + 400
    [failure] = [f for f in report["findings"] if f["severity"] == "fail"]
    assert failure["kind"] == kind, failure
    r = failure["reproducer"]
    assert r["game"] == game and r["reproducible"] is True
    assert r["plies"] <= bound, r
    assert r["position"] and r["sent"], r
    # The console names the same reproducer, with the command that replays it.
    assert f"FAIL {kind}" in result.stdout and f"replay:   {r['command']}" in result.stdout
    # The saved fixture holds the failing exchange and the check command; both replay it.
    [saved] = report["saved"]
    text = Path(saved).read_text()
    assert r["command"] in text and f"FAIL {kind}" in text
    again = replay(r["command"], tmp_path)
    assert again.code == 1, again.stdout + again.stderr
    [fail] = again.findings("fail")
    assert fail["kind"] == kind and fail["moves"] == r["moves"], (fail, r)
    replayed = run_cli("replay", saved, tmp_path=tmp_path / "replayed")
    assert replayed.code == 1 and "came back" in replayed.stdout, replayed.stdout + replayed.stderr


def test_the_reproducers_say_what_the_planted_bug_is(tmp_path):
    """The reasons are those of the rules: the en passant capture written onto the
    taken pawn, and the bot's own traceback for a crash."""
    chess_run = fuzz(tmp_path / "chess", "chess", "--no-database", str(BOTS / "chess/en_passant.py"))
    [f] = chess_run.findings("fail")
    assert "an en passant capture lands behind the pawn it takes" in f["message"], f
    halma_run = fuzz(tmp_path / "halma", "halma", "--no-database", str(BOTS / "halma/short_move_buffer.py"))
    [f] = halma_run.findings("fail")
    assert any("IndexError" in line for line in f["stderr_tail"]), f
    # The Halma protocol never sends the position: game mode, and no position-mode note.
    assert f["reproducer"]["mode"] == "game" and "--opponent-moves" in f["reproducer"]["command"]
    assert "position mode started a fresh bot" not in halma_run.stdout


@pytest.mark.parametrize("game", ["chess", "impasse", "loa", "halma"])
def test_a_correct_bot_survives_the_default_budget(tmp_path, game):
    result = fuzz(tmp_path, game, "--no-database", "--", *REFERENCE[game])
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["passed"] is True and report["findings"] == [] and report["nondeterministic"] == []
    assert report["examples"] == 100
    assert report["mode"] == ("game" if game == "halma" else "mixed")
    # Every game reaches some of its special situations, and the summary lists them.
    assert report["situations"], report
    assert "situations reached (examples):" in result.stdout
    assert result.stdout.rstrip().endswith("PASS: 100 examples, no failure")


def test_a_bot_that_answers_the_same_input_differently_is_reported(tmp_path):
    result = fuzz(tmp_path, "chess", "--no-database", "-n", "40", str(BOTS / "chess/random_answers.py"))
    assert result.code == 0, result.stdout + result.stderr  # the judge would accept its moves
    assert "internal error" not in result.stderr
    [first, *_] = result.report["nondeterministic"]
    assert first["first"] != first["second"] and first["sent"]
    assert "WARN nondeterministic: the same input got" in result.stdout


def test_a_failure_that_does_not_come_back_is_marked_so(tmp_path):
    counter = tmp_path / "counter"
    counter.mkdir()
    result = fuzz(tmp_path, "chess", "--no-database", "-n", "40", "--env", f"COUNTER_DIR={counter}",
                  "--set", "severity.file_operation=ignore",  # its counter file: not this test's subject
                  str(BOTS / "chess/crashes_every_other_run.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "crash"
    assert f["reproducer"]["reproducible"] is False
    assert "the bot is not deterministic" in result.stdout
    assert result.report["nondeterministic"], result.report


def test_failures_found_once_are_replayed_first(tmp_path):
    database = tmp_path / "db"
    bot = str(BOTS / "loa/crash_few_checkers.py")
    first = fuzz(tmp_path / "first", "loa", "--database", str(database), bot)
    assert first.code == 1 and first.report["first_failure_example"] > 1, first.report
    assert any(database.rglob("*")), "nothing was saved in the example database"
    second = fuzz(tmp_path / "second", "loa", "--database", str(database), bot)
    assert second.code == 1
    assert second.report["first_failure_example"] == 1, second.report
    [f] = second.findings("fail")
    assert f["kind"] == "crash"


def test_progress_is_printed_while_it_runs(tmp_path):
    result = fuzz(tmp_path, "halma", "--no-database", str(BOTS / "halma/short_move_buffer.py"))
    # Not a terminal: a line as soon as a new kind of failure appears (and every 10 s).
    assert "fuzz: " in result.stderr and "failing kind" in result.stderr and "examples/s" in result.stderr


def test_ctrl_c_keeps_the_report(tmp_path):
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "prototest", "fuzz", "--game", "loa", "--no-database", "-n", "100000",
            "--env", RUN_TOKEN, "--json", str(report), "--junit", str(tmp_path / "junit.xml"),
            "--", *REFERENCE["loa"]]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=bot_env(), cwd=tmp_path, stdin=subprocess.DEVNULL)
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    data = json.loads(report.read_text())
    assert data["interrupted"] == "SIGINT" and data["passed"] is False and data["examples"] > 0
    assert "INTERRUPTED by SIGINT" in out
    assert "<error" in (tmp_path / "junit.xml").read_text()


@pytest.mark.parametrize("args,message", [
    (["--game", "halma", "--mode", "position"], "never sends the position"),
    (["--game", "loa", "--mode", "sideways"], "expected one of position, game, mixed"),
    (["--game", "loa", "--json", "README.md/r.json"], "--json README.md/r.json"),
    (["--game", "nosuchgame"], "unknown game"),
])
def test_usage_errors_are_one_line(tmp_path, args, message):
    (tmp_path / "README.md").write_text("a file, not a folder\n")
    result = run_cli("fuzz", *args, "--", *REFERENCE["loa"], tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args,message", [
    (["--game", "chess", "--moves", "e2e4,e2e4"], "move 2 'e2e4' is not legal"),
    (["--game", "chess", "--moves", "f2f3,e7e5,g2g4,d8h4"], "the game is over after these moves (checkmate)"),
    (["--game", "halma", "--moves", "1 3 2 4"], "never sends the position"),
])
def test_check_moves_are_validated(tmp_path, args, message):
    result = run_cli("check", *args, "--", *REFERENCE["chess"], tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert message in result.stderr


def test_check_plays_the_given_opponent_moves(tmp_path):
    result = run_cli("check", "--game", "halma", "--seat", "2", "--games", "1",
                     "--opponent-moves", "1 3 3 5,1 4 1 6", "--", *REFERENCE["halma"], tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    [game] = result.report["games"]
    assert game["moves"][0] == "1 3 3 5" and game["moves"][2] == "1 4 1 6", game
    assert game["result"] in ("win", "loss", "draw"), game  # the built-in opponent took over


def test_check_stops_when_the_recorded_moves_no_longer_fit(tmp_path):
    result = run_cli("check", "--game", "halma", "--seat", "2", "--games", "1",
                     "--opponent-moves", "1 3 2 4", "--", *REFERENCE["halma"], tmp_path=tmp_path)
    [game] = result.report["games"]
    assert game["result"] == "stopped" and "not legal here" in game["reason"], game


def test_fuzz_as_a_pytest_test_in_a_bot_repository(tmp_path):
    """`prototest.testing.fuzz_test` as a bot author uses it, run by pytest with
    pytest-xdist spreading the tests over two workers."""
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\n"
        "settings.register_profile('quick', max_examples=30, database=None)\n"
        "settings.load_profile('quick')\n")
    (tmp_path / "test_bot.py").write_text(
        "import sys\n"
        "from prototest.testing import fuzz_test\n"
        f"test_broken = fuzz_test([{str(BOTS / 'halma/short_move_buffer.py')!r}], game='halma')\n"
        f"test_reference = fuzz_test([sys.executable, '-m', 'prototest.bots.loa_bot'], game='loa',\n"
        f"                           env={{'PYTHONPATH': {str(ROOT)!r}}})\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                           "test_bot.py"], capture_output=True, text=True, cwd=tmp_path, env=bot_env(),
                          timeout=600, stdin=subprocess.DEVNULL)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "1 failed, 1 passed" in out, out
    assert "FAIL crash" in out and "replay:   prototest check --game halma" in out, out


def test_a_position_mode_failure_says_the_bot_started_cold(tmp_path):
    result = fuzz(tmp_path, "loa", "--no-database", "--mode", "position", str(BOTS / "loa/crash_few_checkers.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    r = f["reproducer"]
    assert r["mode"] == "position" and "--moves" in r["command"] and r["opponent_moves"] == []
    assert "position mode started a fresh bot in this position" in result.stdout
    assert "may fail here and not in a real game" in result.stdout
