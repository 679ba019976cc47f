"""`match --shard I/N`, `prototest merge` of match shards, and `match --tally` (issue 32),
through the real CLI.

Three shards of a chess match merge into the unsharded match, field by field of its
statistics and game by game (and its PGN); shards of another match are refused in one
line. With a shared tally on a real redis-server, three shards run at once as three
`prototest match` processes, one killed with SIGKILL mid-pair: the other two stop on the
SPRT over all shards, nothing is counted twice, and the merge says which pair was lost.
Without redis-server the tally tests are skipped, unless PROTOTEST_REQUIRE_REDIS=1.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import BOTS, CHESS_FAST, RUN_TOKEN, bot_env, none_alive_with, run_cli
from test_database_cli import _free_port, redis_server  # noqa: F401 - the fixture

PY = shlex.quote(sys.executable)
STRONG = f"{PY} -m prototest.bots.chess_bot"
#: a legal move drawn at random (the clock seeds it): much weaker than STRONG
WEAK = f"{PY} {shlex.quote(str(BOTS / 'chess' / 'random_answers.py'))}"
#: bounds that hold the sharded match to its every game (it is not decided in 12 games)
WIDE_SPRT = "elo0=0 elo1=10 alpha=0.001 beta=0.001"


def shard(tmp_path: Path, name: str, *extra: str, a: str = STRONG, b: str = STRONG, games: str = "12"):
    return run_cli("match", a, b, "--game", "chess", "--games", games, "--jobs", "1", *CHESS_FAST,
                   "--json", str(tmp_path / f"{name}.json"), "--transcripts", str(tmp_path / f"t-{name}"), *extra,
                   tmp_path=tmp_path)


def without_transcripts(games: list[dict]) -> list[dict]:
    return [{k: v for k, v in g.items() if k != "transcript"} for g in games]


def test_three_shards_merge_to_the_unsharded_match(tmp_path):
    whole = shard(tmp_path, "whole", "--sprt", WIDE_SPRT, "--pgn", str(tmp_path / "whole.pgn"))
    assert whole.code == 0, whole.stdout + whole.stderr
    for i in (1, 2, 3):
        part = shard(tmp_path, f"s{i}", "--sprt", WIDE_SPRT, "--shard", f"{i}/3")
        assert part.code == 0, part.stdout + part.stderr
        data = json.loads((tmp_path / f"s{i}.json").read_text())
        assert data["shard"] == f"{i}/3" and data["shard_pairs"] == [i, i + 3] == data["pairs_played"]
        assert [g["game"] for g in data["games"]] == [2 * i - 1, 2 * i, 2 * i + 5, 2 * i + 6]
        assert f"shard {i}/3: pairs {i}, {i + 3} of 6, 2 played" in part.stdout
        assert data["statistics"]["sprt"] is None  # a shard alone sees a part: the merge decides
    merged = run_cli("merge", *(str(tmp_path / f"s{i}.json") for i in (3, 1, 2)), "--json", str(tmp_path / "m.json"),
                     "--pgn", str(tmp_path / "m.pgn"), "--junit", str(tmp_path / "m.xml"),
                     "--html", str(tmp_path / "m.html"), tmp_path=tmp_path)
    assert merged.code == 0, merged.stdout + merged.stderr
    one, joined = (json.loads((tmp_path / name).read_text()) for name in ("whole.json", "m.json"))
    for key in ("statistics", "results", "standings", "findings", "pairings", "passed", "failing", "identity",
                "games_total", "pairs_played", "seed", "bots"):
        assert joined[key] == one[key], key
    assert without_transcripts(joined["games"]) == without_transcripts(one["games"])
    assert joined["statistics"]["sprt"]["decision"] == one["statistics"]["sprt"]["decision"]
    shards = [json.loads((tmp_path / f"s{i}.json").read_text()) for i in (1, 2, 3)]
    assert [sum(col) for col in zip(*(s["statistics"]["pentanomial"] for s in shards))] == \
        joined["statistics"]["pentanomial"]
    assert (tmp_path / "m.pgn").read_text() == (tmp_path / "whole.pgn").read_text()
    assert "3 shards merged (1/3, 2/3, 3/3): pairs 1-6 of 6" in merged.stdout
    assert whole.stdout.split("\n\n", 2)[2] == merged.stdout.split("\n\n", 2)[2]  # from the games table on


def test_merge_refuses_shards_of_another_match(tmp_path):
    part = shard(tmp_path, "s1", "--shard", "1/2", games="2")
    assert part.code == 0, part.stdout + part.stderr
    first = json.loads((tmp_path / "s1.json").read_text())
    other = dict(first, shard="2/2", identity=dict(first["identity"], seed=7))
    (tmp_path / "s2.json").write_text(json.dumps(other))
    refused = run_cli("merge", str(tmp_path / "s1.json"), str(tmp_path / "s2.json"))
    assert refused.code == 2
    assert refused.stderr.strip().splitlines() == [
        f"prototest: error: {tmp_path / 's2.json'}: not a shard of the match of {tmp_path / 's1.json'}: "
        f"its seed 7, not 1"]
    other["identity"] = dict(first["identity"], bots={**first["identity"]["bots"], "B": "0" * 32})
    (tmp_path / "s2.json").write_text(json.dumps(other))
    refused = run_cli("merge", str(tmp_path / "s1.json"), str(tmp_path / "s2.json"))
    assert refused.code == 2 and "bot B differs (its command line or a file it names)" in refused.stderr
    missing = run_cli("merge", str(tmp_path / "s1.json"))
    assert missing.code == 2 and "shard 2/2 missing: merge every shard of the match" in missing.stderr


def test_tally_usage(tmp_path):
    cases = [(("--tally", "redis://127.0.0.1:1/0", "--sprt", WIDE_SPRT), "give each its --shard I/N"),
             (("--tally", "redis://127.0.0.1:1/0", "--shard", "1/2"), "give --sprt"),
             (("--tally", "tally.db", "--shard", "1/2", "--sprt", WIDE_SPRT), "expected redis://HOST:PORT/N"),
             (("--tally", f"redis://127.0.0.1:{_free_port()}/0", "--shard", "1/2", "--sprt", WIDE_SPRT),
              "cannot reach the Redis server")]
    for options, words in cases:
        result = run_cli("match", STRONG, STRONG, "--game", "chess", "--games", "2", *options)
        assert result.code == 2 and words in result.stderr, (options, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def _tally_keys(port: int) -> tuple[object, str]:
    import redis

    client = redis.Redis(host="127.0.0.1", port=port, decode_responses=True)
    [identity] = client.keys("prototest:match:*:identity")
    return client, identity.removesuffix("identity")


def test_three_shards_share_one_sprt_and_one_killed_loses_its_pair_in_play(tmp_path, redis_server):  # noqa: F811
    url = f"redis://127.0.0.1:{redis_server}/0"
    token = f"PROTOTEST_SHARD_TEST={uuid.uuid4().hex}"
    procs = {}
    for i in (1, 2, 3):
        argv = [sys.executable, "-m", "prototest", "match", STRONG, WEAK, "--game", "chess", "--games", "400",
                "--jobs", "1", *CHESS_FAST, "--sprt", "elo0=0 elo1=100", "--shard", f"{i}/3", "--tally", url,
                "--env", RUN_TOKEN, "--env", token, "--quiet", "--json", str(tmp_path / f"s{i}.json"),
                "--transcripts", str(tmp_path / f"t{i}")]
        procs[i] = subprocess.Popen(argv, cwd=tmp_path, env=bot_env(), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # shard 2 is killed once it has recorded a pair and started the next one (its claim
        # is in the tally, its games not finished: a start delay of 150 ms holds each game)
        deadline = time.monotonic() + 120
        client = prefix = None
        while time.monotonic() < deadline:
            if client is None:
                try:
                    client, prefix = _tally_keys(redis_server)
                except ValueError:
                    time.sleep(0.05)
                    continue
            claims = {p for p, o in client.hgetall(prefix + "claims").items() if o == "2/3"}
            done = {p for p, v in client.hgetall(prefix + "pairs").items() if json.loads(v)["by"] == "2/3"}
            if done and claims - done:
                os.killpg(procs[2].pid, signal.SIGKILL)
                break
            assert procs[2].poll() is None, procs[2].communicate()
            time.sleep(0.01)
        else:
            pytest.fail("shard 2 never had a pair in play after a recorded one")
        outs = {i: procs[i].communicate(timeout=300) for i in (1, 3)}
        procs[2].wait(timeout=60)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    assert none_alive_with(token) == []  # the killed shard's bots died with it
    for i in (1, 3):
        assert procs[i].returncode == 0, outs[i]
    assert procs[2].returncode == -signal.SIGKILL and not (tmp_path / "s2.json").exists()

    reports = {i: json.loads((tmp_path / f"s{i}.json").read_text()) for i in (1, 3)}
    for data in reports.values():
        tally = data["tally"]
        assert tally["decision"]["decision"] == "H1" and tally["stopped_here"]
        assert tally["statistics"]["sprt"]["decision"] == "H1"
        assert len(data["games"]) < 2 * len(data["shard_pairs"])  # it stopped long before its share
    # nothing counted twice: each pair recorded once, the totals are the recorded pairs' sums
    pairs = {int(p): json.loads(v) for p, v in client.hgetall(prefix + "pairs").items()}
    totals = client.hgetall(prefix + "totals")
    assert int(totals["pairs"]) == len(pairs)
    ptnml = [0] * 5
    for value in pairs.values():
        ptnml[int(sum(value["scores"]) * 2)] += 1
    assert [int(totals.get(f"p{i}", 0)) for i in range(5)] == ptnml
    assert sum(int(v) for k, v in totals.items() if k.startswith("by:")) == len(pairs)
    for i, data in reports.items():
        assert set(data["tally"]["recorded_here"]) == {p for p, v in pairs.items() if v["by"] == f"{i}/3"}
        assert all((p - 1) % 3 == i - 1 for p in data["pairs_played"])
    lost = {p: o for p, o in client.hgetall(prefix + "claims").items() if int(p) not in pairs}
    assert list(lost.values()) == ["2/3"]  # the killed shard's pair in play, and only it

    merged = run_cli("merge", str(tmp_path / "s1.json"), str(tmp_path / "s3.json"), "--json", str(tmp_path / "m.json"),
                     tmp_path=tmp_path)
    assert merged.code == 0, merged.stdout + merged.stderr
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["merged"]["missing"] == ["2/3"] and data["merged"]["lost_pairs"] == lost
    [(pair, _)] = lost.items()
    assert f"pairs lost: 1, started by a shard that died: pair {pair} (shard 2/3)" in merged.stdout
    by_two = sum(v["by"] == "2/3" for v in pairs.values())
    assert f"shard 2/3: no report (a shard that died?); the tally has {by_two} pair" in merged.stdout
    assert data["tally"]["pairs"] == len(pairs) and data["statistics"]["sprt"] is not None
    assert "SPRT over all shards: H1 accepted (elo >= elo1)" in merged.stdout
