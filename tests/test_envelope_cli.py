"""The platform's envelope through the CLI, with real bots: each limit over and just under,
with a cgroup of the bot's own (where the machine allows one) and by measuring
(PROTOTEST_NO_CGROUP=1), which must agree.

The bots are in tests/bots/halma and tests/bots/loa (their READMEs say what each does).
Proglad (Halma): 0.3 CPU, 128 MB, 100 processes and threads, no network; CodinGame (LOA):
768 MB.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BOTS, CHESS_FAST, run_cli
from prototest.sandbox import cgroups

PY = sys.executable
#: Where CI runs (as root), the cgroup path must run, never be skipped.
REQUIRE_CGROUP = bool(os.environ.get("PROTOTEST_REQUIRE_CGROUP"))


@pytest.fixture(params=["cgroup", "measured"])
def path(request) -> dict[str, str]:
    """The environment prototest runs in for each way of holding the limits."""
    if request.param == "cgroup":
        why = cgroups.missing()
        if why and not REQUIRE_CGROUP:
            pytest.skip(f"no per-bot cgroups here: {why}")
        return {}
    return {"PROTOTEST_NO_CGROUP": "1"}


def check(tmp_path: Path, env: dict[str, str], game: str, bot: str, *extra: str, games: int = 1):
    return run_cli("check", "--game", game, "--games", str(games), "--jobs", "1", *extra, "--", PY, "-B",
                   str(BOTS / game / bot), tmp_path=tmp_path, env=env)


def enforced(result) -> str:
    return result.report["resources"]["enforced"]


def test_both_ways_are_what_they_say(tmp_path, path):
    result = check(tmp_path, path, "halma", "cpu_12ms.py")
    expected = "measured" if path else "cgroup v"
    assert enforced(result).startswith(expected), result.report["resources"]
    assert result.report["resources"]["envelope"].startswith("Proglad: memory 128 MB, CPU 0.3")
    assert f"envelope: Proglad" in result.stdout


# -- the CPU share ------------------------------------------------------------------------------

def test_a_bot_spending_45_ms_of_cpu_a_move_fails_under_proglads_share(tmp_path, path):
    result = check(tmp_path, path, "halma", "cpu_45ms.py")
    assert result.code == 1, result.stdout
    [f] = result.findings("fail")
    # The model takes the worst phase of the period: the first turn. Under the kernel a turn
    # that starts late in a period with its quota whole can end in time: a later one fails.
    assert f["kind"] == "cpu_share" and (f["turn"] == 1 or not path), f
    assert "Proglad's 0.3 CPU" in f["message"] and "ms of CPU" in f["message"], f["message"]


def test_a_bot_spending_12_ms_of_cpu_a_move_passes(tmp_path, path):
    result = check(tmp_path, path, "halma", "cpu_12ms.py")
    assert result.code == 0, result.stdout
    assert not result.findings("fail")
    res = result.report["resources"]
    # 12 ms a move at least (a busy machine adds to CPU time too: no upper bound)
    assert 10 <= res["cpu_median_ms"] <= res["cpu_max_ms"], res


def test_platform_none_turns_the_share_off(tmp_path):
    result = check(tmp_path, {"PROTOTEST_NO_CGROUP": "1"}, "halma", "cpu_45ms.py", "--platform", "none")
    assert result.code == 0, result.stdout
    assert result.report["resources"]["envelope"] == ""


# -- memory -------------------------------------------------------------------------------------

def test_a_halma_bot_filling_200_mb_is_killed_as_on_proglad(tmp_path, path):
    result = check(tmp_path, path, "halma", "memory_200mb.py", "--seat", "1")
    assert result.code == 1, result.stdout
    [f] = result.findings("fail")
    assert f["kind"] == "memory" and f["turn"] == 3, f
    assert "Proglad's 128 MB" in f["message"] and "the platform kills the bot" in f["message"], f["message"]


def test_a_halma_bot_filling_100_mb_passes(tmp_path, path):
    # FILL_TURN=0: filled at start-up (filling costs CPU, which a later turn's share would not give)
    result = check(tmp_path, {**path}, "halma", "memory_100mb.py", "--env", "FILL_TURN=0",
                   "--set", "start.handshake_ms=60000")
    assert result.code == 0, result.stdout
    assert 100 <= result.report["resources"]["peak_memory_mb"] < 128, result.report["resources"]


def test_a_loa_bot_filling_900_mb_is_killed_as_on_codingame(tmp_path, path):
    result = check(tmp_path, path, "loa", "memory_900mb.py")
    assert result.code == 1, result.stdout
    [f] = result.findings("fail")
    assert f["kind"] == "memory", f
    assert "CodinGame's 768 MB" in f["message"] and "the platform kills the bot" in f["message"], f["message"]


#: Memory tests are about memory: touching 600 MB page by page took 1004 ms of CPU on a busy CI
#: runner (the first answer's limit is 1000 ms), so their time limits are out of a machine's reach.
SLOW_OK = ("--set", "time.first_answer_ms=60000", "--set", "time.answer_ms=60000")


def test_a_loa_bot_filling_600_mb_passes(tmp_path, path):
    result = check(tmp_path, path, "loa", "memory_600mb.py", *SLOW_OK)
    assert result.code == 0, result.stdout
    assert 600 <= result.report["resources"]["peak_memory_mb"] < 768, result.report["resources"]


def test_a_bot_reserving_8_gb_of_address_space_passes(tmp_path, path):
    result = check(tmp_path, path, "loa", "reserves_8gb.py")
    assert result.code == 0, result.stdout
    assert result.report["resources"]["peak_memory_mb"] < 100


def test_a_memory_limit_of_ones_own(tmp_path, path):
    """--set envelope.memory_mb: the 600 MB bot under a 300 MB limit of the user's."""
    result = check(tmp_path, path, "loa", "memory_600mb.py", "--set", "envelope.memory_mb=300")
    assert result.code == 1, result.stdout
    assert result.kinds("fail") == {"memory"}
    assert "CodinGame's 300 MB" in result.findings("fail")[0]["message"]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, str]:
    """The correct C++ and Rust LOA bots, compiled where the compiler is installed."""
    folder = tmp_path_factory.mktemp("native")
    out = {}
    for name, compiler in (("first_move.cpp", ["g++", "-O1", "-o"]), ("first_move.rs", ["rustc", "-O", "-o"])):
        if shutil.which(compiler[0]) is None:
            continue
        binary = folder / name.replace(".", "_")
        subprocess.run([*compiler, str(binary), str(BOTS / "loa" / name)], check=True, timeout=300,
                       capture_output=True)
        out[name] = str(binary)
    return out


@pytest.mark.parametrize("name", ["first_move.cpp", "first_move.rs"])
def test_native_bots_pass_inside_codingames_envelope(tmp_path, path, compiled, name):
    if name not in compiled:
        pytest.skip(f"no compiler for {name}")
    result = run_cli("check", "--game", "loa", "--games", "2", "--", compiled[name], tmp_path=tmp_path, env=path)
    assert result.code == 0, result.stdout
    assert not result.findings("fail")
    assert result.report["resources"]["envelope"].startswith("CodinGame: memory 768 MB")


# -- processes and the network ------------------------------------------------------------------

def test_a_halma_bot_starting_150_threads_fails_as_on_proglad(tmp_path, path):
    result = check(tmp_path, path, "halma", "threads_150.py")
    assert result.code == 1, result.stdout
    [f] = result.findings("fail")
    assert f["kind"] == "processes", f
    assert "Proglad's 100" in f["message"] and "can't start new thread" in f["message"], f["message"]


def test_a_halma_bot_starting_92_threads_passes_with_a_warning(tmp_path, path):
    """93 threads with its main thread: under Proglad's 100, over 90 % of it."""
    result = check(tmp_path, path, "halma", "threads_150.py", "--env", "THREADS=92")
    assert result.code == 0, result.stdout
    [f] = result.findings("warn")
    assert f["kind"] == "processes" and "of Proglad's 100" in f["message"], f
    assert int(f["message"].split()[0]) >= 93, f["message"]


def test_a_bot_that_tries_the_network_is_reported(tmp_path, path):
    result = check(tmp_path, path, "halma", "network.py")
    assert result.code == 0, result.stdout  # severity.network: a warning; the bot plays on
    found = [f for f in result.findings("warn") if f["kind"] == "network"]
    messages = " | ".join(f["message"] for f in found)
    assert "connect 127.0.0.1:9" in messages and "sendto 127.0.0.1:9" in messages, messages
    assert "at start-up" in messages and "gives a bot no network" in messages, messages


def test_the_network_is_cut_off_where_the_platform_has_none(tmp_path):
    """Proglad: connect fails at once (a network namespace with its loopback down), as in
    --network=none; the chess judge states no rule: the call goes on (refused by the closed
    port here) and is reported."""
    result = check(tmp_path, {}, "halma", "network.py", "--transcripts", str(tmp_path / "t"))
    text = "\n".join(p.read_text() for p in (tmp_path / "t").glob("*.txt"))
    assert "Network is unreachable" in text, text[:2000]


def test_games_lists_each_platforms_envelope():
    result = run_cli("games")
    assert result.code == 0
    assert "envelope: Proglad: memory 128 MB, CPU 0.3 (30 ms per 100 ms), 100 processes and threads, no network" \
        in result.stdout
    assert "envelope: CodinGame: memory 768 MB" in result.stdout


def test_a_bad_platform_or_limit_is_one_line(tmp_path):
    for args in (["--platform", "proglad"], ["--set", "envelope.cpu_share=-1"], ["--set", "envelope.network=maybe"]):
        result = run_cli("check", "--game", "halma", *args, "--", PY, str(BOTS / "halma" / "cpu_12ms.py"))
        assert result.code == 2, (args, result.stdout, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr


# -- a busy machine is not the bot's fault -------------------------------------------------------

@pytest.fixture
def burners():
    """Two CPU burners: the machine made busy on purpose (2 cores)."""
    procs = [subprocess.Popen([PY, "-c", "while True: pass"]) for _ in range(2)]
    time.sleep(0.2)
    yield
    for p in procs:
        p.kill()
        p.wait()


@pytest.fixture
def crowded_cpu():
    """CPU 0 made busy on purpose: three burners pinned to it, each in a session of its own
    (the scheduler shares a CPU between sessions), so a bot pinned there too gets a quarter
    of it and waits for it the rest of the time."""
    if shutil.which("taskset") is None:
        pytest.skip("taskset is not installed")
    procs = [subprocess.Popen(["taskset", "-c", "0", PY, "-c", "while True: pass"], start_new_session=True)
             for _ in range(3)]
    time.sleep(0.2)
    yield ["taskset", "-c", "0"]
    for p in procs:
        p.kill()
        p.wait()


def test_an_answer_late_only_because_the_machine_is_busy_is_a_warning(tmp_path, crowded_cpu):
    """45 ms of CPU a move against Halma's 100 ms, on a CPU shared with three burners: the
    answers come after about 180 ms, but the bot's own time is 45 ms. WARN busy_machine,
    never a timeout (before this issue: FAIL timeout)."""
    result = run_cli("check", "--game", "halma", "--games", "1", "--jobs", "1", "--platform", "none", "--",
                     *crowded_cpu, PY, "-B", str(BOTS / "halma" / "cpu_45ms.py"), tmp_path=tmp_path)
    assert result.code == 0, result.stdout
    # (an answer may also be near or over the statement's 50 ms by the figures: the
    # machine's time is counted up to what its other processes used, read from another
    # clock than the bot's wait; seen: 54.3 ms of own time, a slow WARN beside this one)
    [f] = [f for f in result.findings(busy=True) if f["kind"] != "slow"]
    assert f["kind"] == "busy_machine" and f["severity"] == "warn", f
    assert f["elapsed_ms"] > 100 and "is within the limit, so this is not blamed on the bot" in f["message"], f


def test_an_answer_late_by_itself_on_a_busy_machine_still_fails(tmp_path, crowded_cpu):
    """The same bot with a 30 ms limit: its own 45 ms are over it, busy machine or not."""
    result = run_cli("check", "--game", "halma", "--games", "1", "--jobs", "1", "--platform", "none",
                     "--set", "time.answer_ms=30", "--set", "time.statement_answer_ms=20", "--",
                     *crowded_cpu, PY, "-B", str(BOTS / "halma" / "cpu_45ms.py"), tmp_path=tmp_path)
    assert result.code == 1, result.stdout
    assert result.kinds("fail") == {"timeout"}, result.findings()


@pytest.fixture(scope="module")
def java_impasse(tmp_path_factory) -> list[str]:
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    classes = tmp_path_factory.mktemp("classes")
    subprocess.run(["javac", "-d", str(classes), str(BOTS / "impasse" / "Player.java")], check=True, timeout=120)
    return ["java", "-XX:-UsePerfData", "-cp", str(classes), "Player"]


def node_impasse() -> list[str]:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    return ["node", "-r", str(BOTS / "impasse" / "_codingame_readline.js"), str(BOTS / "impasse" / "readline_bot.js")]


@pytest.mark.parametrize("runtime", ["java", "node"])
def test_jvm_and_node_bots_fuzzed_on_a_busy_machine_get_no_fail(tmp_path, burners, runtime, request):
    """A JVM's and Node's start (1000 ms for the first answer) and every later answer
    (100 ms), fuzzed with two jobs while two burners take both cores."""
    bot = request.getfixturevalue("java_impasse") if runtime == "java" else node_impasse()
    result = run_cli("fuzz", "--game", "impasse", "--budget", "8s", "--jobs", "2", "--seed", "3", "--no-database",
                     "--", *bot, tmp_path=tmp_path, timeout=120)
    assert result.code == 0, result.stdout[-3000:]
    assert not result.findings("fail"), result.findings("fail")
    assert result.report["examples"] >= 2, result.report["examples"]
