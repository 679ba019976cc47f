"""Every claim of `prototest fuzz` true (issue 29, item 4), through the real CLI against real
bot processes, one fault a bot:

* `reproducible` and `confirmed` are said only after the printed replay command has been
  run, as printed, and failed the same way; otherwise how often it did (k of n tries), the
  same figures in the text as in the JSON;
* a crash that a fresh bot shows only sometimes, in a position legal play reaches, is a
  FAIL with its observed rate, never a pass nor a "needs the bot's memory" note;
* the state probe says when it cannot tell (fresh copies of the bot answer one position
  differently) and what it switched off;
* `fuzz_test` prints the seed that plays its examples again.
"""

from __future__ import annotations

import re
import shlex

import pytest

from conftest import BOTS, run_cli
from test_fuzz_cli import SEEDED, fuzz, replay
from test_fuzz_pytest import ENV, pytest_run


@pytest.fixture(scope="module")
def sometimes(tmp_path_factory):
    """crashes_sometimes_late.py (one run in three aborts at its first answer from move 30 on;
    which runs, a counter in COUNTER_DIR: any three in a row have one, so the fresh bots'
    rate is never 0 by chance, and the test never flakes on it)."""
    tmp_path = tmp_path_factory.mktemp("sometimes")
    counter = tmp_path_factory.mktemp("counter")
    result = fuzz(tmp_path, "chess", *SEEDED, "--seed", "1", "--examples", "40", "--shrink-examples", "8",
                  "--time-scale", "0.2", "--env", f"COUNTER_DIR={counter}", "--set", "severity.file_operation=ignore",
                  str(BOTS / "chess/crashes_sometimes_late.py"))
    return tmp_path, result


def test_the_printed_replay_is_run_as_printed_and_its_tries_are_said_as_in_the_json(sometimes):
    """The replay command is run (as printed) several times for a crash, which may come only
    sometimes: `reproducible` only when every try failed the same way, `confirmed` when one
    did, and the text's k of n is the JSON's."""
    tmp_path, result = sometimes
    [f] = result.findings("fail")
    r = f["reproducer"]
    replayed = r["replay"]
    assert replayed is not None and replayed["command"] == r["command"], r
    tries, same = replayed["tries"], replayed["failed_same_way"]
    assert 3 <= tries <= 5 and 0 <= same <= tries and len(replayed["outcomes"]) == tries, replayed
    assert same == sum(1 for o in replayed["outcomes"] if o.startswith("failed the same way")), replayed
    assert r["reproducible"] is (same == tries) and r["confirmed"] is (same > 0), r
    text = " ".join(result.stdout.split())
    if same == tries:
        assert f"replayed: run as printed, it failed the same way in all {tries} tries" in text, result.stdout
    else:
        assert f"(its replay failed the same way {same} of {tries} tries)" in text, result.stdout
        assert f"replayed: run as printed, it failed the same way {same} of {tries} tries; otherwise:" in text
    # the command it ran is the one printed, and it replays the failing position
    assert f"replay:   {r['command']}" in result.stdout
    assert shlex.split(r["command"])[:2] == ["prototest", "check"]


def test_a_crash_a_fresh_bot_shows_only_sometimes_is_a_failure_with_its_rate(sometimes):
    """Found in a game from the start or after a cold start, the crash is a FAIL (exit 1):
    fresh bots shown the failing position are tried more than once, and how many failed
    is said; no note blames the game's memory."""
    tmp_path, result = sometimes
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    r = f["reproducer"]
    assert f["kind"] == "crash" and "SIGABRT" in f["message"], f
    assert r["verdict"] == "fail" and r["cold"] == "reproduces", r
    assert "memory of the game" not in result.stdout and "FAIL crash" in result.stdout
    assert int(r["position"].split()[5]) >= 30, r["position"]
    text = " ".join(result.stdout.split())
    if r["cold_tries"] is not None:
        k, n = r["cold_tries"]
        assert 1 <= k <= n <= 5
        assert f"fresh bots shown this position failed the same way {k} of {n} tries" in text, result.stdout
    assert re.search(r"FAIL: 1 kind of failure in \d+ examples", result.stdout)


def test_a_deterministic_failure_is_replayed_once_and_said_to_fail_the_same_way(tmp_path):
    """An illegal move that comes back every time: one try of the printed replay, which
    failed the same way, and a replay run by hand agrees."""
    result = fuzz(tmp_path, "chess", *SEEDED, "--seed", "1", "--examples", "30", "--shrink-examples", "10",
                  str(BOTS / "chess/illegal_move.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    r = f["reproducer"]
    assert r["replay"]["tries"] == 1 and r["replay"]["failed_same_way"] == 1, r["replay"]
    assert r["reproducible"] is True and r["confirmed"] is True, r
    assert "replayed: run as printed, it failed the same way (1 try)" in result.stdout, result.stdout
    again = replay(r["command"], tmp_path)
    assert again.code == 1 and [x["kind"] for x in again.findings("fail")] == [f["kind"]], again.stdout


def test_the_state_probe_says_it_cannot_tell_for_a_bot_that_answers_at_random(tmp_path):
    """random_answers.py picks any legal move: two fresh copies shown one position answer
    differently, so the probe says it cannot tell (no guess either way), keeps position mode
    and says what it switched off; the text's sentence is the JSON's."""
    result = fuzz(tmp_path, "chess", *SEEDED, "--seed", "3", "--examples", "8", "--mode", "position",
                  str(BOTS / "chess/random_answers.py"))
    assert result.code == 0, result.stdout + result.stderr
    probe = result.report["state_probe"]
    assert probe["stateful"] is None, probe
    assert "cannot be told" in probe["message"] and "switched off" in probe["message"], probe
    assert "Position mode stays on" in probe["message"], probe
    assert f"state probe: {probe['message']}" in result.stdout
    assert result.report["modes"] == ["position"], result.report["modes"]


def test_fuzz_test_prints_the_seed_that_plays_its_examples_again(tmp_path):
    """No seed given: fuzz_test draws one and prints it (never `seed 0` for Hypothesis's
    own); the same test with that seed plays the same examples (the same opponent
    styles, in the same numbers)."""
    bot = str(BOTS / "chess/random_answers.py")
    code, out = pytest_run(tmp_path / "a", f"test_bot = fuzz_test([{bot!r}], game='chess', mode='game', "
                                           f"time_scale=0.1, budget=None, examples=4, {ENV})\n")
    assert code == 0, out
    seed = int(re.search(r"seed (\d+): fuzz_test\(\.\.\., seed=(\d+)\)", out)[1])
    styles = re.search(r"opponent styles \(examples\): (.*)", out)[1]
    code, again = pytest_run(tmp_path / "b", f"test_bot = fuzz_test([{bot!r}], game='chess', mode='game', "
                                             f"time_scale=0.1, budget=None, examples=4, seed={seed}, {ENV})\n")
    assert code == 0, again
    assert f"seed {seed}: fuzz_test(..., seed={seed})" in again, again
    assert re.search(r"opponent styles \(examples\): (.*)", again)[1] == styles, (out, again)
