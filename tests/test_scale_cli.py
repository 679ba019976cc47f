"""Games at once and CI shards: `--jobs N` and `--shard I/N` on check, replay, record
--update and fuzz, and `prototest merge`. Whatever N, and however the run is split, the
verdict, the JSON and the JUnit are those of one run playing the games in turn (answer
times aside)."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from conftest import BOTS, CHESS_FAST, ROOT, run_cli
from prototest.judge.findings import TIME_FIELDS

CHESS = BOTS / "chess"
#: A bot whose findings differ from game to game: some games fail, some pass.
KING = str(CHESS / "king_next_to_king.py")
#: The games of KING end before any clock matters; the full second to exit after the
#: input closes keeps a loaded machine from adding a no_exit warning to one run only.
STEADY = ("--start-delay", "150")


def same_games(data: dict) -> dict:
    """A check report without what depends on the moment: answer times, the start-up
    (one game at a time, a bot is started ahead of its game), where the transcripts went."""
    data = json.loads(json.dumps(data))
    data.pop("timing")
    data.pop("resources")
    data.pop("shard", None)
    for game in data["games"]:
        for key in ("timing", "startup_ms", "started_ahead_ms", "answer_ms", "transcript", "resources",
                    "answer_cpu_ms", "answer_wait_ms"):
            game.pop(key)
    for finding in data["findings"]:
        for key in ("transcript", *TIME_FIELDS):  # an answer's time and its parts are measured
            finding.pop(key)
        for occurrence in finding["occurrences"]:
            occurrence.pop("elapsed_ms")
    return data


def junit_without_times(path: Path) -> str:
    import re
    text = re.sub(r"(time|transcript):\s+[^\n<]*", r"\1: -", path.read_text())
    return re.sub(r'(<property name="(?:timing|resources)\.[^"]*") value="[^"]*"', r'\1 value="-"', text)


def check(tmp_path: Path, name: str, *args: str):
    out = tmp_path / name
    result = run_cli("check", "--junit", str(out.with_suffix(".xml")), *args, tmp_path=out)
    return result, out.with_suffix(".xml")


def test_check_jobs_gives_the_games_of_one_game_at_a_time(tmp_path):
    """--jobs 1 and --jobs 2: the same games, findings, verdict and exit status; the
    progress lines come as games finish, the summary in game order."""
    args = (*STEADY, "--games", "6", "--seed", "3", KING)
    one, one_xml = check(tmp_path, "one", "--jobs", "1", *args)
    two, two_xml = check(tmp_path, "two", "--jobs", "2", *args)
    assert one.code == two.code == 1, one.stdout + two.stdout
    assert {f["game"] for f in one.findings("fail")} != set(range(1, 7)), "every game failed: a weak test"
    assert same_games(two.report) == same_games(one.report)
    assert junit_without_times(two_xml) == junit_without_times(one_xml)
    assert sorted(line.split()[1] for line in two.stderr.splitlines() if line.startswith("game ")) == \
        [f"{i}/6" for i in range(1, 7)]
    assert one.stdout.splitlines()[-1] == two.stdout.splitlines()[-1]


def test_check_shards_merged_are_the_unsharded_run(tmp_path):
    """Three shards of six games, each in its own run, merged: the unsharded verdict,
    JSON, JUnit and exit status."""
    args = (*STEADY, "--games", "6", "--seed", "3", KING)
    whole, whole_xml = check(tmp_path, "whole", *args)
    shards = []
    for i in (1, 2, 3):
        result, _ = check(tmp_path, f"s{i}", "--shard", f"{i}/3", *args)
        assert [g["game"] for g in result.report["games"]] == [i, i + 3]
        assert result.report["shard"] == f"{i}/3"
        shards.append(tmp_path / f"s{i}" / "report.json")
    merged = run_cli("merge", str(shards[2]), str(shards[0]), str(shards[1]),
                     "--json", str(tmp_path / "merged.json"), "--junit", str(tmp_path / "merged.xml"))
    assert merged.code == whole.code == 1, merged.stdout + merged.stderr
    data = json.loads((tmp_path / "merged.json").read_text())
    assert data["shard"] is None
    assert same_games(data) == same_games(whole.report)
    assert junit_without_times(tmp_path / "merged.xml") == junit_without_times(whole_xml)
    assert merged.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1]
    # the summary's table of checks, line for line
    table = [line for line in whole.stdout.splitlines() if line.startswith("  ") and line.rstrip()[-1:].isdigit()]
    assert table and all(line in merged.stdout for line in table)


def test_merge_refuses_what_is_not_every_shard_of_one_run(tmp_path):
    args = (*CHESS_FAST, "--games", "2", str(CHESS / "illegal_move.py"))
    for i in (1, 2):
        check(tmp_path, f"s{i}", "--shard", f"{i}/2", *args)
    check(tmp_path, "other", "--shard", "2/2", "--seed", "9", *args)
    s1, s2, other = (str(tmp_path / n / "report.json") for n in ("s1", "s2", "other"))
    (tmp_path / "junk.json").write_text("{not json")
    cases = {
        (s1,): "shard 2/2 missing: merge every shard of the run",
        (s1, s1): "shard 1/2 again",
        (s1, other): "seed 9, but",
        (str(tmp_path / "junk.json"),): "not a JSON report of prototest",
        (str(tmp_path / "absent.json"),): "cannot read",
    }
    for reports, phrase in cases.items():
        result = run_cli("merge", *reports)
        assert result.code == 2 and result.stdout == "", result.stdout
        [line] = result.stderr.splitlines()
        assert line.startswith("prototest: error: ") and phrase in line, line
    assert run_cli("merge", s1, s2).code == 1


def test_a_bad_shard_is_one_line(tmp_path):
    for shard, phrase in (("3/2", "I must be from 1 to N"), ("x", "expected I/N"), ("0/1", "I must be from 1")):
        result = run_cli("check", "--shard", shard, str(CHESS / "illegal_move.py"))
        assert result.code == 2
        [line] = result.stderr.splitlines()
        assert phrase in line, line


def test_a_timing_fault_while_games_run_at_once_is_re_checked_alone(tmp_path):
    """The bot is slow only while another copy of it runs: with --jobs 2 one game times
    out, is played again alone and passes; the run passes and says so."""
    lock = f"LOCK=prototest-{uuid.uuid4().hex}"
    bot = str(CHESS / "slow_beside_itself.py")
    result, _ = check(tmp_path, "two", "--jobs", "2", "--env", lock, *CHESS_FAST, "--games", "2", bot)
    assert result.code == 0, result.stdout + result.stderr
    rechecked = [g for g in result.report["games"] if g["rechecked_alone"]]
    assert len(rechecked) == 1 and rechecked[0]["rechecked_alone"].startswith("timeout"), result.report["games"]
    assert f"re-checked alone: game {rechecked[0]['game']} had a timing finding (timeout" in result.stdout
    assert "re-checked alone: no timing finding alone" in result.stderr
    # the fault is real while another copy runs: with a copy "running" (this test holds its
    # name), one game at a time, every game times out and nothing re-checks it
    import socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as holder:
        holder.bind("\0" + lock.split("=", 1)[1])
        beside = run_cli("check", "--jobs", "1", "--env", lock, *CHESS_FAST, "--games", "2", bot,
                         tmp_path=tmp_path / "beside")  # (started ahead or not, the copies are never alone)
    assert beside.code == 1 and beside.kinds("fail") == {"timeout"}, beside.stdout
    assert all(g["rechecked_alone"] is None for g in beside.report["games"])
    alone = run_cli("check", "--jobs", "1", "--env", lock, *CHESS_FAST, "--games", "2", bot, tmp_path=tmp_path / "alone")
    assert alone.code == 0, alone.stdout


def test_a_timing_fault_that_came_back_alone_twice_is_not_re_checked_in_every_game(tmp_path):
    """A bot that hangs in every game: games 1 and 2 (and a game held beside them) are
    played again alone and time out again; later games are not, and the run says so once,
    rather than paying every clock twice over check's 24 games. (Its hang, in select(),
    is one a game beside it could explain: hangs.py's sleep is not re-checked at all. And
    --max-fail 0: every game is played; by default the run stops after two.)"""
    result = run_cli("check", "--jobs", "2", *CHESS_FAST, "--games", "8", "--max-fail", "0",
                     str(CHESS / "hangs_in_select.py"), tmp_path=tmp_path)
    assert result.code == 1 and result.kinds("fail") == {"timeout"}, result.stdout
    rechecked = [g["game"] for g in result.report["games"] if g["rechecked_alone"]]
    assert len(rechecked) <= 3 and {1, 2} <= set(rechecked), result.report["games"]
    assert result.stderr.count("nor are later games with the same fault: it came back alone in games 1, 2") == 1, \
        result.stderr


def fixture_entries(path: Path) -> list[dict]:
    """A replay report's fixtures without what depends on the moment (the resources used)."""
    entries = json.loads(path.read_text())["fixtures"]
    for entry in entries:
        entry.pop("resources", None)
    return entries


def fixtures_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "fx"
    shutil.copytree(ROOT / "fixtures", folder)
    return folder


#: Replays whose runs are compared: limits far above what a busy machine can make an answer
#: take, so that no run warns of an answer's time and another not (seen beside two CPU
#: burners: the --jobs 1 and --jobs 2 runs differed in one fixture's lines).
UNHURRIED = ("--time-scale", "20")


def test_replay_jobs_and_shards_merge_to_the_run_of_one(tmp_path):
    folder = fixtures_copy(tmp_path)
    one = run_cli("replay", *UNHURRIED, "--jobs", "1", "-q", "--json", str(tmp_path / "one.json"), str(folder))
    two = run_cli("replay", *UNHURRIED, "--jobs", "2", "--json", str(tmp_path / "two.json"), "--junit",
                  str(tmp_path / "two.xml"), str(folder))
    assert one.code == two.code == 0, two.stdout + two.stderr
    entries = [fixture_entries(tmp_path / f"{n}.json") for n in ("one", "two")]
    assert entries[0] == entries[1] and len(entries[0]) == len(list(folder.glob("*.txt")))
    for i in (1, 2):
        shard = run_cli("replay", *UNHURRIED, "--shard", f"{i}/2", "-q", "--json", str(tmp_path / f"r{i}.json"),
                        str(folder))
        assert shard.code == 0
    merged = run_cli("merge", str(tmp_path / "r1.json"), str(tmp_path / "r2.json"),
                     "--json", str(tmp_path / "m.json"), "--junit", str(tmp_path / "m.xml"))
    assert merged.code == 0, merged.stderr
    assert fixture_entries(tmp_path / "m.json") == entries[0]
    assert junit_without_times(tmp_path / "m.xml") == junit_without_times(tmp_path / "two.xml")


def test_a_failing_replay_shard_fails_the_merge(tmp_path):
    folder = fixtures_copy(tmp_path)
    victim = sorted(folder.glob("chess-seed*.txt"))[0]
    lines = victim.read_text().splitlines(keepends=True)
    answer = next(i for i, line in enumerate(lines) if line.startswith("< "))
    lines[answer] = "< a1a1\n"
    victim.write_text("".join(lines))
    codes = [run_cli("replay", "--shard", f"{i}/2", "-q", "--json", str(tmp_path / f"r{i}.json"), str(folder)).code
             for i in (1, 2)]
    assert sorted(codes) == [0, 1]
    merged = run_cli("merge", str(tmp_path / "r1.json"), str(tmp_path / "r2.json"), "--junit", str(tmp_path / "m.xml"))
    assert merged.code == 1 and merged.stdout.splitlines()[-1].startswith("FAIL: 1 of ")
    assert 'failures="1"' in (tmp_path / "m.xml").read_text()


def test_record_update_with_jobs_and_shards_rewrites_nothing_that_did_not_change(tmp_path):
    folder = fixtures_copy(tmp_path)
    before = {p.name: p.read_text() for p in folder.glob("*.txt")}
    result = run_cli("record", "--update", "--jobs", "2", "-q", str(folder))
    assert result.code == 0, result.stdout + result.stderr
    assert {p.name: p.read_text() for p in folder.glob("*.txt")} == before
    for i in (1, 2):
        shard = run_cli("record", "--update", "--shard", f"{i}/2", "-q", "--json", str(tmp_path / f"u{i}.json"),
                        str(folder))
        assert shard.code == 0, shard.stderr
    merged = run_cli("merge", str(tmp_path / "u1.json"), str(tmp_path / "u2.json"))
    assert merged.code == 0 and merged.stdout.splitlines()[-1] == f"PASS: {len(before)} fixtures regenerated"
    assert {p.name: p.read_text() for p in folder.glob("*.txt")} == before


def test_fuzz_shards_take_their_own_seed_streams_and_merge_into_one_verdict(tmp_path):
    bot = str(CHESS / "illegal_move.py")
    reports = []
    for i in (1, 2):
        result = run_cli("fuzz", "--shard", f"{i}/2", "--jobs", "1", "--examples", "3", "--no-database",
                         "--shrink-examples", "0", *CHESS_FAST[2:], bot, tmp_path=tmp_path / f"f{i}")
        assert result.code == 1, result.stdout + result.stderr
        assert result.report["shard"] == f"{i}/2" and result.report["seed_streams"] == [i - 1]
        reports.append(tmp_path / f"f{i}" / "report.json")
    merged = run_cli("merge", *map(str, reports), "--json", str(tmp_path / "m.json"), "--junit", str(tmp_path / "m.xml"))
    assert merged.code == 1, merged.stdout + merged.stderr
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["passed"] is False and [s["shard"] for s in data["shards"]] == ["1/2", "2/2"]
    assert data["examples"] == sum(json.loads(p.read_text())["examples"] for p in reports)
    assert "illegal_move" in (tmp_path / "m.xml").read_text()
    # the coverage section is the shards' union: every line a shard reached, per file
    shards = [json.loads(p.read_text())["coverage"] for p in reports]
    assert data["coverage"]["state"] == "on" and data["coverage"]["runs"] == sum(c["runs"] for c in shards)
    union = {(f["path"], line) for c in shards for f in c["files"] for line in f["reached"]}
    assert {(f["path"], line) for f in data["coverage"]["files"] for line in f["reached"]} == union
    assert data["coverage"]["lines"] == len(union) >= max(c["lines"] for c in shards)


@pytest.mark.parametrize("command", ["replay", "check"])
def test_jobs_refuses_zero(command):
    result = run_cli(command, "--jobs", "0", "x")
    assert result.code == 2 and "--jobs" in result.stderr


def test_record_with_jobs_writes_the_bytes_of_one_game_at_a_time(tmp_path):
    bot = ("--", "python3", "-m", "prototest.bots.impasse_bot")
    for jobs in ("1", "2"):
        result = run_cli("record", "-q", "--game", "impasse", "--games", "4", "--jobs", jobs, "--no-config",
                         "-o", str(tmp_path / jobs), *bot)
        assert result.code == 0, result.stderr
    files = {jobs: {p.name: p.read_text() for p in (tmp_path / jobs).glob("*.txt")} for jobs in ("1", "2")}
    assert len(files["1"]) == 4 and files["1"] == files["2"]


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_an_interrupt_with_games_at_once_stops_every_game_and_keeps_the_report(tmp_path, how):
    """Two hanging bots at once; the user's signal: each worker stops its game and kills
    its bot, the report has both games as interrupted, the status is 128 + n, and no
    bot process is left."""
    import signal
    import subprocess
    import sys
    import time

    from conftest import RUN_TOKEN, alive_with, bot_env, none_alive_with

    token = f"PROTOTEST_JOBS_TEST={uuid.uuid4().hex}"
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "prototest", "check", "--env", RUN_TOKEN, "--env", token, "--json", str(report),
            "--transcripts", str(tmp_path / "t"), "--jobs", "2", "--games", "4", "--start-delay", "100",
            "--time-scale", "20", str(CHESS / "hangs.py")]
    proc = subprocess.Popen(argv, env=bot_env(), cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while sum("hangs.py" in p and "-m prototest" not in p for p in alive_with(token)) < 2:  # the bots
            assert time.monotonic() < deadline, "the two bots never started"
            time.sleep(0.05)
        time.sleep(0.3)  # both asleep in their first turn
        proc.send_signal(getattr(signal, how))
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    signum = getattr(signal, how)
    assert proc.returncode == 128 + signum, out + err
    assert f"interrupted ({how})" in err and "Traceback" not in err
    data = json.loads(report.read_text())
    assert data["interrupted"] == how
    assert [g["result"] for g in data["games"]] == ["interrupted", "interrupted"], data["games"]
    assert none_alive_with(token) == []


def test_a_bot_gone_before_the_judge_writes_is_a_crash_with_jobs_too(tmp_path):
    """A worker's write to a bot that has exited is a broken pipe, and so a crash finding,
    as one game at a time (it killed the worker by SIGPIPE: an internal error). --max-fail 0:
    every game is played (by default the run stops after two)."""
    bot = tmp_path / "exits.sh"
    bot.write_text("#!/bin/sh\nexit 1\n")
    bot.chmod(0o755)
    result = run_cli("check", "--jobs", "2", "--games", "6", "--max-fail", "0", "--start-delay", "0", str(bot),
                     tmp_path=tmp_path / "r")
    assert result.code == 1, result.stdout + result.stderr
    assert "internal error" not in result.stderr
    assert [g["result"] for g in result.report["games"]] == ["forfeit"] * 6 and result.kinds("fail") == {"crash"}


def test_the_pool_plays_a_spoiled_result_again_alone_and_hands_both_over():
    """prototest.play.pool: a result that `again` picks is held back and its task played once
    more, alone, in a worker (see tests/test_pool.py for "alone" and "at once"); `done`
    gets the new result with the first, and only that result stands."""
    import time

    from prototest.play import pool

    seen = []
    results = pool.play_all(list(range(6)), lambda task: (task, time.monotonic_ns()), 2,
                            lambda index, result, first: seen.append((index, result, first)),
                            again=lambda result: result[0] == 3)
    assert [r[0] for r in results] == list(range(6))
    [(index, result, first)] = [entry for entry in seen if entry[2] is not None]
    assert index == 3 and result == results[3] and first[0] == 3 and first[1] < result[1], seen
    assert sorted(i for i, _, first in seen if first is None) == [0, 1, 2, 4, 5]
