"""`prototest fuzz` and `fuzz_test` on a busy machine (issue 19): a timing failure is
played again alone before it is blamed on the bot, and timing is never evidence of a bot
that is not deterministic. Real bots through the real CLI; the "busy machine" is another
copy of the bot, or a process of the test, holding a name the bot looks for.

Every run here is short: chess at --time-scale 0.1 (a 1 s clock for the whole game),
--max-plies 20 (ten answers a game), a few examples, a fixed seed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from pathlib import Path

from conftest import BOTS, bot_env, run_cli

CHESS = BOTS / "chess"
SHORT = ("--game", "chess", "--mode", "game", "--time-scale", "0.1", "--max-plies", "20", "--budget", "0",
         "--no-database", "--seed", "1")


#: Warnings a loaded machine may add to any run (see the tests that use it).
LOADED_WARNINGS = {"slow", "no_exit"}


def _lock() -> str:
    return f"prototest-{uuid.uuid4().hex}"


def _beside_itself_bot(tmp_path: Path) -> Path:
    """tests/bots/chess/slow_beside_itself.py (1.5 s over its first answer while another
    copy runs), thinking 10 ms a move besides, so that the games of two workers overlap and
    a copy nearly always starts while the other one plays. (30 ms a move, with the first
    copy's wait of up to 0.6 s for a copy on its second turn and its start-up, came past the
    whole game's 1 s clock when no copy came: the same timeout played again alone, a FAIL.)"""
    bot = tmp_path / "beside_itself_thinking.py"
    bot.write_text(
        "import sys, time\n"
        f"sys.path.insert(0, {str(CHESS)!r})\n"
        "from slow_beside_itself import SlowBesideItself\n"
        "class Thinking(SlowBesideItself):\n"
        "    def play_turn(self, *turn):\n"
        "        time.sleep(0.01)\n"
        "        super().play_turn(*turn)\n"
        "Thinking().run()\n")
    return bot


def test_a_timeout_only_beside_another_copy_is_a_busy_machine_warning_not_a_failure(tmp_path):
    """With --jobs 2 a copy that starts while the other plays times out on its first
    answer; played again alone (the other worker held), it answers at once: no FAIL, a
    busy_machine WARN naming the load, the first answer's time and limit, and the re-check.
    Coverage off: this is the machine's test; the collector's start-up (the bot's files
    compiled twice) must not take any of this 1 s first-answer clock, where a first answer late
    alone too is put down to the collector (test_fuzz_coverage)."""
    bot = _beside_itself_bot(tmp_path)
    result = run_cli("fuzz", *SHORT, "--jobs", "2", "--examples", "6", "--coverage", "off", "--env", f"LOCK={_lock()}",
                     sys.executable, str(bot), tmp_path=tmp_path, timeout=600)  # every re-check alone: slow when loaded
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["passed"] is True and result.findings("fail") == [], result.stdout
    assert "FAIL" not in result.stdout and "not deterministic" not in result.stdout, result.stdout
    rechecked = report["rechecked_alone"]
    assert rechecked and all(r["alone"] == "not again" and r["kind"] == "timeout" for r in rechecked), rechecked
    assert all(r["jobs"] == 2 and len(r["load_average"]) == 3 for r in rechecked), rechecked
    # busy_machine warnings only: one for the first answers' 1000 ms (several examples'
    # folded into it); on a loaded machine a later answer, whose limit is what is left of
    # the clock, may time out beside the copy too, and not again alone: a warning of its
    # own, as its limit differs (issue 29: CI saw two); and answers the machine alone made
    # late are excused as they come (busy_machine too, "the machine kept ... from the
    # answer"). Warnings of the same limit are folded, so the first one's words are shown.
    # (a loaded machine may add warnings no failure comes of: an answer near its limit,
    # an exit slow past its grace; they are not this test's subject)
    warnings = [f for f in result.findings("warn", busy=True) if f["kind"] not in LOADED_WARNINGS]
    assert {f["kind"] for f in warnings} == {"busy_machine"}, warnings
    assert all(f["check"] == "timing" and "not blamed on the bot" in f["message"] for f in warnings), warnings
    assert len({f["limit_ms"] for f in warnings}) == len(warnings), warnings  # one per limit
    assert sum(f["count"] for f in warnings) >= len(rechecked), (warnings, rechecked)
    [warning] = [f for f in warnings if f["limit_ms"] == 1000]
    assert warning["count"] >= sum(r["turn"] == 1 for r in rechecked), (warning, rechecked)
    assert "WARN busy_machine" in result.stdout, result.stdout
    assert "re-checked alone: example " in result.stdout and "while 2 jobs ran at once" in result.stdout
    assert "played again alone: not again: WARN busy_machine, not blamed on the bot" in result.stdout
    assert report["nondeterministic"] == [], report["nondeterministic"]
    assert result.stdout.rstrip().endswith("PASS with warnings: 6 examples, no failure"), result.stdout


def test_a_bot_slow_alone_too_still_fails_timeout(tmp_path):
    """Half a second a move against a 1 s clock: slow whatever runs beside it. Played
    again alone it times out again: FAIL timeout, as before, then shortened."""
    result = run_cli("fuzz", *SHORT, "--jobs", "2", "--examples", "4", "--shrink-examples", "2",
                     str(CHESS / "thinks_half_a_second.py"), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "timeout" and f["reproducer"]["reproducible"] is True, f
    assert "busy_machine" not in result.kinds(), result.findings()
    rechecked = result.report["rechecked_alone"]
    assert rechecked and rechecked[-1]["alone"] == "the same", rechecked
    assert "played again alone: the same: the bot's" in result.stdout
    assert "FAIL timeout" in result.stdout and "not deterministic" not in result.stdout


def test_a_bot_that_sometimes_times_out_is_not_called_nondeterministic(tmp_path):
    """Deterministic moves; its first answer is 1.3 s late in every third run (a counter
    file). The same inputs get no answer in one run and an answer in the next (the run
    alone): a timeout is not an answer, so no nondeterministic warning, and no FAIL."""
    counter = tmp_path / "counter"
    counter.mkdir()
    bot = tmp_path / "late_every_third_run.py"
    bot.write_text(
        "import os, sys, time\n"
        f"sys.path.insert(0, {str(CHESS)!r})\n"
        "from _common import Bot\n"
        "path = os.path.join(os.environ['COUNTER_DIR'], 'runs')\n"
        "runs = int(open(path).read() or 0) if os.path.exists(path) else 0\n"
        "open(path, 'w').write(str(runs + 1))\n"
        "class LateEveryThirdRun(Bot):\n"
        "    def play_turn(self, *turn):\n"
        "        if runs % 3 == 0 and self.turn == 1:\n"
        "            time.sleep(1.3)\n"
        "        super().play_turn(*turn)\n"
        "LateEveryThirdRun().run()\n")
    result = run_cli("fuzz", *SHORT, "--jobs", "1", "--examples", "6", "--env", f"COUNTER_DIR={counter}",
                     "--set", "severity.file_operation=ignore",  # its counter file: not this test's subject
                     sys.executable, str(bot), tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["nondeterministic"] == [] and "nondeterministic" not in result.stdout, report["nondeterministic"]
    assert len(report["rechecked_alone"]) >= 2, report["rechecked_alone"]  # runs 1, 4, 7 ... were late
    assert result.kinds(busy=True) - LOADED_WARNINGS == {"busy_machine"}, result.findings(busy=True)
    assert result.findings("fail") == []
    assert report["rechecked_alone"][0]["jobs"] == 1 and "jobs ran at once" not in result.stdout


def test_fuzz_test_passes_a_bot_slow_only_while_the_machine_is_busy_with_a_protocol_warning(tmp_path):
    """The pytest entry point: a process of the test (standing for another copy, a busy
    machine) holds the bot's name until the first bot has found it held, so the first
    example times out;
    played again alone it does not: the test passes, with a busy_machine ProtocolWarning.
    (No seed: a seeded Hypothesis test's first run in a process spends a garbage collection,
    up to half a second under pytest on a loaded machine, before its first example.)
    Coverage off, as in the test above: with it on, the run alone with the collector can be
    late too beside two CPU burners (seen: a 1,703 ms first answer of this 1 s clock), and is
    then put down to the collector's cost, not the machine."""
    lock = _lock()
    bot = CHESS / "slow_beside_itself.py"
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\n"
        "settings.register_profile('quick', max_examples=4, database=None)\n"
        "settings.load_profile('quick')\n")
    (tmp_path / "test_bot.py").write_text(
        "import socket, sys, threading\n"
        "from prototest.testing import fuzz_test\n"
        f"_fuzz = fuzz_test([sys.executable, {str(bot)!r}], game='chess', mode='game', time_scale=0.1,\n"
        f"                  max_plies=20, budget=60, examples=4, env={{'LOCK': {lock!r}}},\n"
        "                  coverage='off')\n"
        "def test_busy_then_alone():\n"
        "    holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        f"    holder.bind('\\0' + {lock!r})\n"
        "    holder.listen(1)\n"
        "    def release():\n"  # once the first bot has found the name held (it connects): not a guess at a time
        "        holder.accept()[0].close()\n"
        "        holder.close()\n"
        "    threading.Thread(target=release, daemon=True).start()\n"
        "    _fuzz()\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-W", "always::prototest.testing.ProtocolWarning", "test_bot.py"],
                          capture_output=True, text=True, cwd=tmp_path, env=bot_env(), timeout=300,
                          stdin=subprocess.DEVNULL)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "1 passed" in out, out
    # the first example timed out (the name held), played again alone it did not: a
    # busy_machine warning (folded with any answer a loaded machine alone made late, whose
    # words it then shows), and the summary's re-check line
    assert "ProtocolWarning: busy_machine: " in out, out
    assert re.search(r"re-checked alone: example 1 had a timing failure \(timeout, [\d.]+ ms of 1000 ms\).*"
                     r"played again alone: not again: WARN busy_machine, not blamed on the bot", out), out
    assert "nondeterministic" not in out, out


def test_a_timeout_asleep_by_the_bots_own_doing_is_not_played_again_alone(tmp_path):
    """Its second answer sleeps 5 s against what is left of a 1 s clock: asleep by its own
    doing when its time runs out (its first answer's time would hold its start's CPU) (a sleep that lasts another whole limit), which neither a busy machine nor
    the collector can cause. As `check` does, fuzz does not play it again alone first: the
    re-check record and the summary say why, and the failure is a FAIL at once."""
    bot = tmp_path / "sleeps_on_its_first_answer.py"
    bot.write_text(
        "import sys, time\n"
        f"sys.path.insert(0, {str(CHESS)!r})\n"
        "from _common import Bot\n"
        "class Sleeps(Bot):\n"
        "    def play_turn(self, *turn):\n"
        "        if self.turn == 2:\n"
        "            time.sleep(5)\n"
        "        super().play_turn(*turn)\n"
        "Sleeps().run()\n")
    result = run_cli("fuzz", *SHORT, "--jobs", "1", "--examples", "2", "--shrink-examples", "2",
                     sys.executable, str(bot), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "timeout", f
    rechecked = result.report["rechecked_alone"]
    assert rechecked and rechecked[0]["alone"] == "not needed: asleep" and rechecked[0]["example"] == 1, rechecked
    assert all(r["alone"] == "not needed: asleep" for r in rechecked), rechecked
    assert re.search(r"not re-checked alone: example 1 had a timing failure \(timeout, [\d.]+ ms of \d+ ms\) "
                     r"with the bot asleep by its own doing", result.stdout), result.stdout
    assert "busy_machine" not in result.kinds(), result.findings()


def test_a_timing_failure_is_re_checked_alone_in_its_position_shown_to_a_fresh_bot(tmp_path):
    """A stateless bot (the state probe's verdict) that thinks until its clock runs out in
    a forced position: its timeout is re-checked alone by showing that position to a fresh
    bot, which is also the reproducer (one exchange), so the game is not played again and
    shortening's cold retry needs no run of its own."""
    result = run_cli("fuzz", "--game", "chess", "--jobs", "1", "--budget", "0", "--no-database", "--seed", "2",
                     "--examples", "60", "--shrink-examples", "3", "--time-scale", "0.2",
                     str(CHESS / "thinks_on_forced_move.py"), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "timeout" and f["reproducer"]["cold"] == "reproduces" and f["reproducer"]["plays"] == 1, f
    assert f["reproducer"]["reproducible"] is True, f["reproducer"]
    [rechecked] = result.report["rechecked_alone"]
    assert rechecked["alone"] == "the same, shown cold" and rechecked["alone_kind"] == "timeout", rechecked
    assert "played again alone: its failing position shown to a fresh bot failed the same way: the bot's" \
        in result.stdout, result.stdout
    assert "a fresh bot shown this position" in result.stdout, result.stdout


def test_a_re_check_alone_does_not_wait_for_the_other_worker_s_game(tmp_path):
    """With --jobs 2, worker 1 starts with the bot as black, which thinks 40 ms a move
    (a whole Impasse game: seconds); worker 0 starts with it as white, which computes
    150 ms of CPU, past the 100 ms limit, on its tenth answer. Its re-check alone does
    not wait for the other game to end: that game is dropped as it stands (`made_way`,
    the summary's "cut short"), with no finding of its own, and the timeout is the
    verdict."""
    impasse = BOTS / "impasse"
    bot = tmp_path / "slow_white_tenth.py"
    bot.write_text(
        "import os, sys, time\n"
        f"sys.path.append({str(impasse)!r})\n"
        "from _common import Bot\n"
        "class SlowWhiteTenth(Bot):\n"
        "    def choose(self, turn):\n"
        "        if turn.colour == 'b':\n"
        "            time.sleep(0.04)\n"
        "        elif self.turn == 10:\n"
        "            end = time.process_time() + 0.15\n"  # CPU time: its own, however busy the machine
        "            while time.process_time() < end:\n"
        "                pass\n"
        "        return super().choose(turn)\n"
        "SlowWhiteTenth().run()\n")
    result = run_cli("fuzz", "--game", "impasse", "--mode", "game", "--jobs", "2", "--budget", "0",
                     "--no-database", "--seed", "1", "--coverage", "off", "--shrink-examples", "2",
                     sys.executable, str(bot), tmp_path=tmp_path, timeout=600)
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "timeout", f
    report = result.report
    assert report["made_way"] >= 1, report
    assert re.search(r"cut short: \d+ examples? of other workers, dropped as they stood", result.stdout), result.stdout
    # (on a busy machine an earlier answer may come late as well: played again alone, it is
    # not back, a busy_machine warning, and the search goes on to the tenth answer's)
    assert any(r["alone"].startswith("the same") for r in report["rechecked_alone"]), report


def test_only_the_search_s_examples_make_way_for_a_run_alone_and_only_before_any_failure():
    """Runs.abandon, the question a worker's game asks while it plays: another
    worker's failure drops any game (ABANDONED); another worker waiting to play a run
    alone drops a search's example (MAKE_WAY), never a state probe's run (its evidence
    decides whether the bot starts cold), nor any game once this worker has found a
    failure (its shortening goes on)."""
    from types import SimpleNamespace

    from prototest.judge.game import ABANDONED, MAKE_WAY
    from prototest.play.runs import Runs

    def campaign(stop: bool, others_alone: bool, found: object = None) -> SimpleNamespace:
        return SimpleNamespace(campaign=SimpleNamespace(should_stop=lambda: stop, _found=found,
                                                        gate=SimpleNamespace(others_alone=lambda: others_alone)))

    assert Runs.abandon(campaign(False, False), True) is None
    assert Runs.abandon(campaign(False, True), True) == MAKE_WAY
    assert Runs.abandon(campaign(False, True), False) is None  # a probe's run
    assert Runs.abandon(campaign(False, True, found=object()), True) is None
    assert Runs.abandon(campaign(True, True), False) == ABANDONED
