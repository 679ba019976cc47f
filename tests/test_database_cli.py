"""`prototest fuzz --database redis://host:port/n`: a campaign shared between machines,
through Hypothesis's own Redis example database, against a real redis-server that each
test starts on a free port.

A failure found by one run is replayed first by another run (another seed, another
folder, two workers that each make their own client after the fork), and by `fuzz_test`
under a Hypothesis settings profile that uses the same server. A bad URL, a server that
does not answer and a missing redis package are one line and exit status 2, before any
game; a server lost during the run is said once and the run goes on. A failure that
`fuzz_test` finds is replayed first by `prototest fuzz` in turn.

Without redis-server these tests are skipped, unless PROTOTEST_REQUIRE_REDIS=1 (as
.ci/run sets it): then they fail, so CI never skips them silently.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import BOTS, bot_env, run_cli

#: A LOA bot that crashes on a corner diagonal: seed 1 finds it at its 9th example with a
#: database; the first example of seed 3 (of each of two workers) passes.
BOT = str(BOTS / "loa/corner_diagonal_table.py")
#: One campaign, no time limit, games from the start, no shrinking: the same examples on
#: any machine, and quick.
OPTIONS = ("--game", "loa", "--budget", "0", "--mode", "game", "--shrink-examples", "0")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server on a free port of 127.0.0.1, nothing saved to disk; its port."""
    program = shutil.which("redis-server")
    if program is None:
        if os.environ.get("PROTOTEST_REQUIRE_REDIS") == "1":
            pytest.fail("redis-server is not installed and PROTOTEST_REQUIRE_REDIS=1: "
                        "apt-get install redis-server")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    folder = tmp_path / "redis-server"
    folder.mkdir()
    for _ in range(5):  # another process may take the free port before the server does
        port = _free_port()
        with open(folder / "log", "wb") as log:
            server = subprocess.Popen([program, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                       "--appendonly", "no", "--dir", str(folder)],
                                      stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=folder)
        deadline = time.monotonic() + 10
        while server.poll() is None and not _pong(port) and time.monotonic() < deadline:
            time.sleep(0.02)
        if server.poll() is None and _pong(port):
            break
        server.kill()
        server.wait()
    else:
        pytest.fail(f"redis-server did not start: {(folder / 'log').read_text()[-2000:]}")
    try:
        yield port
    finally:
        server.kill()
        server.wait()


def fuzz(tmp_path: Path, *options: str):
    return run_cli("fuzz", *OPTIONS, *options, BOT, tmp_path=tmp_path, timeout=300)


def _keys(port: int) -> list[bytes]:
    import redis
    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        return client.keys(b"*")
    finally:
        client.close()


def test_a_failure_found_by_one_run_is_replayed_first_by_another(tmp_path, redis_server):
    url = f"redis://127.0.0.1:{redis_server}/0"
    first = fuzz(tmp_path / "first", "--jobs", "1", "--seed", "1", "--examples", "40", "--database", url)
    assert first.code == 1 and first.report["first_failure_example"] > 1, first.stdout + first.stderr
    assert first.report["database"] == url and f"example database: {url}" in first.stdout
    keys = _keys(redis_server)
    assert keys and all(key.startswith(b"prototest:") for key in keys), keys
    # Another machine: another folder, another seed, two workers (each its own client,
    # made after the fork), one example each: the saved failure comes first.
    second = fuzz(tmp_path / "second", "--jobs", "2", "--seed", "4", "--examples", "2", "--database", url)
    assert second.code == 1, second.stdout + second.stderr
    assert second.report["first_failure_example"] == 1, second.report
    # a saved example is Hypothesis's own plan, never replaced by a drawn one
    assert second.report["first_failure_origin"].endswith(", hypothesis"), second.report
    [f] = second.findings("fail")
    assert f["kind"] == "crash"
    # Those two examples on their own pass: the failure came from the database.
    alone = fuzz(tmp_path / "alone", "--jobs", "2", "--seed", "4", "--examples", "2", "--no-database")
    assert alone.code == 0 and alone.report["findings"] == [], alone.stdout + alone.stderr
    assert alone.report["database"] is None and "example database:" not in alone.stdout


def test_the_summary_and_report_name_a_folder_database_too(tmp_path):
    result = fuzz(tmp_path, "--jobs", "1", "--seed", "4", "--examples", "1", "--database", "db")
    assert result.code == 0, result.stdout + result.stderr
    assert result.report["database"] == "db" and "example database: db (" in result.stdout


@pytest.mark.parametrize("url,message", [
    ("redis://", "no host"),
    ("redis://127.0.0.1:abc/0", "the port 'abc' is not a number from 1 to 65535"),
    ("redis://127.0.0.1:70000/0", "the port '70000' is not a number from 1 to 65535"),
    ("redis://127.0.0.1:6379/first", "the database 'first' after the host is not a number"),
    ("redis://127.0.0.1:6379/0?timeout=1", "without ?... or #..."),
    ("redis:127.0.0.1", "expected redis://host:port/n"),
    ("http://127.0.0.1:6379/0", "expected a folder or redis://host:port/n"),
])
def test_a_bad_url_is_one_line(tmp_path, url, message):
    result = fuzz(tmp_path, "--jobs", "1", "--examples", "1", "--database", url)
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"prototest: error: --database {url!r}: ") and message in line, line
    assert result.report is None  # before any game


def test_a_server_that_does_not_answer_is_one_line_before_any_game(tmp_path):
    port = _free_port()  # nothing listens there
    started = time.monotonic()
    result = fuzz(tmp_path, "--jobs", "2", "--examples", "2", "--database", f"redis://:secret@127.0.0.1:{port}/0")
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"prototest: error: --database redis://:***@127.0.0.1:{port}/0: "
                           f"cannot reach the Redis server: "), line
    assert "secret" not in result.stdout + result.stderr and result.report is None  # no game: no report


def test_a_database_number_the_server_does_not_have_is_one_line(tmp_path, redis_server):
    result = fuzz(tmp_path, "--jobs", "1", "--examples", "1", "--database", f"redis://127.0.0.1:{redis_server}/99")
    assert result.code == 2, result.stdout + result.stderr
    expected = (f"prototest: error: --database redis://127.0.0.1:{redis_server}/99: the Redis server refused: "
                "DB index is out of range")
    assert result.stderr.strip().splitlines() == [expected]


def test_without_the_redis_package_a_redis_url_says_what_to_install(tmp_path):
    hidden = tmp_path / "hidden"
    (hidden / "redis").mkdir(parents=True)
    (hidden / "redis" / "__init__.py").write_text("raise ImportError('No module named redis')\n")
    env = bot_env()
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(hidden), env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, "-m", "prototest", "fuzz", *OPTIONS, "--examples", "1",
                           "--database", "redis://127.0.0.1:6379/0", BOT],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    expected = ("prototest: error: --database redis://127.0.0.1:6379/0: the redis package is not installed: "
                "pip install 'prototest[redis]'")
    assert proc.stderr.strip().splitlines() == [expected]


def test_a_server_lost_during_the_run_is_said_once_and_the_run_goes_on():
    from prototest.play import exampledb
    database = exampledb.open_database(exampledb.RedisLocation("127.0.0.1", _free_port()))
    started = time.monotonic()
    database.save(b"key", b"value")  # redis-py's own retries first: a few seconds
    first = time.monotonic() - started
    started = time.monotonic()
    assert list(database.fetch(b"key")) == []
    database.move(b"key", b"other", b"value")
    # not asked again: both calls together take less than the first one's retries
    # (compared within the run: a busy machine slows both)
    assert time.monotonic() - started < first / 2, (time.monotonic() - started, first)
    [problem] = exampledb.problems(database)
    assert problem.startswith("--database redis://127.0.0.1:") and "could not save an example" in problem


# -- prototest.testing.fuzz_test under a Hypothesis settings profile -------------------------------

def _pytest_with_profile(folder: Path, port: int, key_prefix: bytes, *, examples: int = 1, seed: int = 4,
                         budget: float = 3):
    """pytest in a bot's repository whose conftest.py loads a profile with Hypothesis's
    Redis database; Hypothesis's seed fixed (fuzz_test's seed), `examples` examples."""
    folder.mkdir(parents=True)
    (folder / "conftest.py").write_text(
        "import redis\n"
        "from hypothesis import settings\n"
        "from hypothesis.extra.redis import RedisExampleDatabase\n"
        f"database = RedisExampleDatabase(redis.Redis(host='127.0.0.1', port={port}, db=0), key_prefix={key_prefix!r})\n"
        "settings.register_profile('shared', database=database)\n"
        "settings.load_profile('shared')\n")
    (folder / "test_bot.py").write_text(
        "from prototest.testing import fuzz_test\n"
        f"test_protocol = fuzz_test([{BOT!r}], game='loa', mode='game', seed={seed}, budget={budget},\n"
        f"                          examples={examples})\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "test_bot.py"], capture_output=True, text=True, cwd=folder, env=bot_env(),
                          timeout=300, stdin=subprocess.DEVNULL, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_fuzz_test_under_a_profile_with_the_redis_database_replays_the_failure_first(tmp_path, redis_server):
    """`prototest fuzz --database redis://...` saves a failure; `fuzz_test` of the same bot,
    game and mode under a profile with the same server and key prefix replays it at its
    only example. With another prefix (nothing saved there), that example passes."""
    url = f"redis://127.0.0.1:{redis_server}/0"
    found = fuzz(tmp_path / "cli", "--jobs", "1", "--seed", "1", "--examples", "40", "--database", url)
    assert found.code == 1, found.stdout + found.stderr
    code, out = _pytest_with_profile(tmp_path / "shared", redis_server, b"prototest:")
    assert code == 1 and "1 failed" in out, out
    assert "FAIL crash" in out and "replay:   prototest check --game loa" in out, out
    code, out = _pytest_with_profile(tmp_path / "elsewhere", redis_server, b"elsewhere:")
    assert code == 0 and "1 passed" in out, out


def test_a_failure_fuzz_test_found_is_replayed_first_by_prototest_fuzz(tmp_path, redis_server):
    """The other way round. (With this Hypothesis seed, fuzz_test finds the failure by
    continuing a kept game: it is saved in the profile's database as a fresh game too,
    as on the command line, or no later run could replay it.)"""
    code, out = _pytest_with_profile(tmp_path / "pytest", redis_server, b"prototest:", examples=40, seed=13,
                                     budget=60)
    assert code == 1 and "FAIL crash" in out, out
    url = f"redis://127.0.0.1:{redis_server}/0"
    again = fuzz(tmp_path / "cli", "--jobs", "1", "--seed", "4", "--examples", "1", "--database", url)
    assert again.code == 1 and again.report["first_failure_example"] == 1, again.stdout + again.stderr


def test_a_run_ended_by_its_budget_leaves_no_example_to_replay_first(tmp_path):
    """Hypothesis saves the example an exception leaves its test with as a failure; a fuzz
    run ends its test with one when its budget runs out (or another worker's failure stops
    it). That example failed nothing: fuzz deletes it again, so the next run with the same
    database replays nothing first and plays its warm-up games at once. Nor is there a
    `.pareto` corpus (Hypothesis keeps one of the examples' target observations, and
    replays all of it in every later run): fuzz calls no `target()`."""
    from hypothesis.database import DirectoryBasedExampleDatabase

    folder = tmp_path / "db"
    result = run_cli("fuzz", "--game", "loa", "--budget", "3s", "--seed", "2", "--database", str(folder), "--",
                     sys.executable, "-m", "prototest.bots.loa_bot", tmp_path=tmp_path, timeout=300)
    assert result.code == 0, result.stdout + result.stderr
    assert result.report["ended"] == "budget" and result.report["examples"] > 4, result.report
    database = DirectoryBasedExampleDatabase(str(folder))
    # (the run above went past its warm-up games into Hypothesis's test, and its budget
    # ended that test; every key Hypothesis saved under is listed, a `.pareto` one too)
    keys = list(database.fetch(b".hypothesis-keys"))
    left = {key: list(database.fetch(key)) for key in keys}
    assert all(not examples for examples in left.values()), left
