"""Fail fast (issue 29, item 3): `check` stops once --max-fail K games (default 2) have
failed with the same kind, says how many games were not played and why (summary, JSON,
JUnit), keeps the same games whatever --jobs is, and still plays every game with
--max-fail 0. A timeout of a bot asleep by its own doing is not played again alone."""

from __future__ import annotations

import json
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import BOTS, CHESS_FAST, none_alive_with, run_cli
from prototest.play import failfast
from prototest.judge.findings import Finding
from prototest.judge.game import GameReport

CHESS = BOTS / "chess"
ILLEGAL = str(CHESS / "illegal_move.py")
REFERENCE = ["--", sys.executable, "-m", "prototest.bots.chess_bot"]


def _bot(tmp_path: Path, name: str, body: str) -> Path:
    """A chess test bot of this file's own: the suite's correct play (tests/bots/chess/_common.py),
    its fault in `body` (the methods of a Bot subclass)."""
    bot = tmp_path / name
    bot.write_text("#!/usr/bin/env python3\nimport os, sys, time\n"
                   f"sys.path.insert(0, {str(CHESS)!r})\n"
                   "from _common import Bot, sleep_forever\n\n"
                   f"class Faulty(Bot):\n{body}\n\nFaulty().run()\n")
    bot.chmod(0o755)
    return bot


# -- the rule itself ----------------------------------------------------------------------

def _game(index: int, *kinds: str, severity: str = "fail") -> GameReport:
    report = GameReport(index=index, seat=0, seat_name="white", seed=index)
    report.findings = [Finding(kind=k, severity=severity, message=k, game=index) for k in kinds]
    return report


def test_the_rule_counts_games_by_kind():
    rule = failfast.FailFast(2)
    assert rule.tally(_game(1, "crash")) is None
    assert rule.tally(_game(2, "illegal_move", "no_exit")) is None  # another kind: no stop
    assert rule.tally(_game(3, "no_exit", severity="warn")) is None  # a warning is no failure
    assert rule.would_stop(_game(4, "illegal_move")) and not rule.would_stop(_game(4, "timeout"))
    stop = rule.tally(_game(5, "illegal_move"))
    assert (stop.why, stop.kind, stop.games, stop.after, stop.max_fail) == ("max_fail", "illegal_move", [2, 5], 5, 2)


def test_the_rule_with_zero_never_stops():
    rule = failfast.FailFast(0)
    assert not rule.active
    assert all(rule.tally(_game(i, "crash")) is None for i in range(1, 10))


# -- the command line ---------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bot_that_fails_every_game_is_stopped_after_two(tmp_path, jobs):
    """At check's default of 24 games: 2 played, 22 not played, and every report says so."""
    junit = tmp_path / "report.xml"
    result = run_cli("check", "--game", "chess", *CHESS_FAST, "--jobs", jobs, "--junit", str(junit), ILLEGAL,
                     tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    r = result.report
    assert [g["game"] for g in r["games"]] == [1, 2]
    assert (r["skipped"], r["max_fail"], r["games_total"]) == (22, 2, 24)
    assert [n["game"] for n in r["not_played"]] == list(range(3, 25))
    assert [n["seat"] for n in r["not_played"][:2]] == ["white", "black"]
    [stop] = r["stops"]
    assert (stop["why"], stop["kind"], stop["games"], stop["after"]) == ("max_fail", "illegal_move", [1, 2], 2)
    assert result.kinds() == {"illegal_move"}
    lines = result.stdout.splitlines()
    assert "2 games of 24, seed 1" in lines[0]
    assert ("  not played: 22 games (3-24): the run stopped once 2 games had failed with illegal_move: games 1, 2 "
            "(--max-fail 2; --max-fail 0 plays every game)") in lines
    assert lines[-1] == ("FAIL: 2 of 2 games failed (1 of 1 as white, 1 of 1 as black); 22 of 24 games not "
                         "played: stopped after 2 games failed with illegal_move (--max-fail 2)")
    assert "stopping: 2 games failed with illegal_move (games 1, 2)" in result.stderr
    suite = ET.parse(junit).getroot().find("testsuite")
    skipped = [c for c in suite.iter("testcase") if c.find("skipped") is not None and c.get("name").endswith(": played")]
    assert suite.get("skipped") == "22" and len(skipped) == 22
    assert skipped[0].get("name") == "game 3 (white): played"
    assert skipped[-1].find("skipped").get("message") == (  # game 24: never begun, whatever --jobs is
        "not played: the run stopped once 2 games had failed with illegal_move: games 1, 2 (--max-fail 2; "
        "--max-fail 0 plays every game)")
    assert len(suite.findall("testcase/failure")) == 2


def test_max_fail_0_plays_every_game(tmp_path):
    result = run_cli("check", "--game", "chess", *CHESS_FAST, "--games", "6", "--max-fail", "0", ILLEGAL,
                     tmp_path=tmp_path)
    assert result.code == 1
    r = result.report
    assert (len(r["games"]), r["skipped"], r["not_played"], r["stops"], r["max_fail"]) == (6, 0, [], [], 0)
    assert result.stdout.splitlines()[-1] == "FAIL: 6 of 6 games failed (3 of 3 as white, 3 of 3 as black)"
    assert "not played" not in result.stdout + result.stderr


def test_max_fail_from_the_config_file_and_the_option_over_it(tmp_path):
    (tmp_path / "prototest.toml").write_text(f'game = "chess"\nbot = [{ILLEGAL!r}]\ngames = 8\nmax_fail = 3\n')
    result = run_cli("check", *CHESS_FAST, tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    assert ([g["game"] for g in result.report["games"]], result.report["skipped"]) == ([1, 2, 3], 5)
    over = run_cli("check", *CHESS_FAST, "--max-fail", "1", "--json", str(tmp_path / "one.json"), tmp_path=tmp_path)
    data = json.loads((tmp_path / "one.json").read_text())
    assert over.code == 1 and ([g["game"] for g in data["games"]], data["skipped"]) == ([1], 7)
    bad = run_cli("check", "--max-fail", "-1", *REFERENCE)
    assert bad.code == 2


def test_a_bot_failing_one_game_in_three_still_fails_with_the_same_kinds(tmp_path):
    """A fault that shows in some games only: the run stops at its second failing game,
    with the verdict, the exit status and the kinds of a run of every game."""
    bot = _bot(tmp_path, "sometimes.py", (
        "    def play_turn(self, last, mine, theirs, fen):\n"
        "        if self.turn == 3 and sum(fen.encode()) % 3 == 0:\n"
        "            raise RuntimeError('a fault in one game of three')\n"
        "        super().play_turn(last, mine, theirs, fen)\n"))
    fast = run_cli("check", "--game", "chess", *CHESS_FAST, str(bot), tmp_path=tmp_path / "fast")
    every = run_cli("check", "--game", "chess", *CHESS_FAST, "--max-fail", "0", str(bot), tmp_path=tmp_path / "every")
    assert fast.code == every.code == 1, fast.stdout + every.stdout
    failed = sorted({f["game"] for f in every.findings("fail")})
    assert 2 <= len(failed) < 24, failed  # some games only
    assert fast.kinds() == every.kinds() and fast.kinds("fail") == {"crash"}
    kept = [g["game"] for g in fast.report["games"]]
    assert kept == list(range(1, failed[1] + 1))  # every game up to the second that failed
    assert fast.report["skipped"] == 24 - failed[1]
    assert [(f["game"], f["kind"], f["turn"]) for f in fast.findings("fail")] == \
        [(f["game"], f["kind"], f["turn"]) for f in every.findings("fail") if f["game"] <= failed[1]]


def test_games_in_play_when_the_rule_trips_are_stopped_and_not_counted(tmp_path):
    """With two games at once: as White the bot crashes at once, as Black it hangs. Game 2
    (Black) still runs when games 1 and 3 have crashed; the rule trips on game 3 once game 2
    is in (game order), and game 4, begun meanwhile, is stopped (its bot killed) or, on a
    very slow machine, ended: either way not counted, and said. One game at a time keeps
    the same games."""
    bot = _bot(tmp_path, "by_colour.py", (
        "    def play_turn(self, last, mine, theirs, fen):\n"
        "        if self.colour == 'white':\n"
        "            raise RuntimeError('White: a crash at once')\n"
        "        sleep_forever()\n"))
    token = "PROTOTEST_FAILFAST_TEST=by-colour"
    both = run_cli("check", "--game", "chess", *CHESS_FAST, "--jobs", "2", "--env", token, str(bot),
                   tmp_path=tmp_path / "two")
    alone = run_cli("check", "--game", "chess", *CHESS_FAST, "--jobs", "1", str(bot), tmp_path=tmp_path / "one")
    for result in (both, alone):
        assert result.code == 1, result.stdout + result.stderr
        r = result.report
        assert [(g["game"], sorted(g["checks"][c] for c in ("stability", "timing"))) for g in r["games"]] == [
            (1, ["fail", "pass"]), (2, ["fail", "pass"]), (3, ["fail", "pass"])]
        assert [n["game"] for n in r["not_played"]] == list(range(4, 25))
        assert r["stops"][0]["games"] == [1, 3] and r["stops"][0]["kind"] == "crash"
    assert all(n["begun"] is None for n in alone.report["not_played"])
    begun = {n["game"]: n["begun"] for n in both.report["not_played"] if n["begun"]}
    assert begun.get(4) in ("stopped", "ended"), both.report["not_played"]
    assert set(begun.values()) <= {"stopped", "ended"}
    for how, words in (("stopped", "in play when the run stopped: stopped, "), ("ended", "ended after the game")):
        numbers = [g for g, b in begun.items() if b == how]
        if numbers:
            line = next(line for line in both.stdout.splitlines() if line.startswith("  not counted:") and words in line)
            assert all(re.search(rf"\b{n}\b", line) for n in numbers), line
    assert none_alive_with(token) == []


def test_shards_stop_apart_and_their_merge_says_so(tmp_path):
    reports = []
    for shard in ("1/2", "2/2"):
        path = tmp_path / f"shard{shard[0]}.json"
        result = run_cli("check", "--game", "chess", *CHESS_FAST, "--shard", shard, "--json", str(path), ILLEGAL,
                         tmp_path=tmp_path / f"s{shard[0]}")
        assert result.code == 1, result.stdout + result.stderr
        assert f"shard {shard} stopped once 2 games had failed with illegal_move" in result.stdout
        assert result.stdout.splitlines()[-1].endswith(
            "10 of this shard's 12 games not played: each shard that stopped did so after 2 games failed the same way "
            "(--max-fail 2)")
        reports.append(str(path))
    junit = tmp_path / "merged.xml"
    merged = run_cli("merge", *reports, "--json", str(tmp_path / "merged.json"), "--junit", str(junit))
    assert merged.code == 1, merged.stdout + merged.stderr
    data = json.loads((tmp_path / "merged.json").read_text())
    assert [g["game"] for g in data["games"]] == [1, 2, 3, 4]
    assert (data["skipped"], len(data["not_played"])) == (20, 20)
    assert [(s["shard"], s["games"]) for s in data["stops"]] == [("1/2", [1, 3]), ("2/2", [2, 4])]
    assert ("  not played: 20 games (5-24): shard 1/2 stopped once 2 games had failed with illegal_move: games 1, 3; "
            "shard 2/2 stopped once 2 games had failed with illegal_move: games 2, 4 (--max-fail 2; --max-fail 0 plays "
            "every game)") in merged.stdout.splitlines()
    assert merged.stdout.splitlines()[-1].startswith("FAIL: 4 of 4 games failed")
    assert "20 of 24 games not played" in merged.stdout.splitlines()[-1]
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("skipped") == "20"
    message = next(c.find("skipped").get("message") for c in suite.iter("testcase")
                   if c.get("name") == "game 6 (black): played")
    assert message.startswith("not played: the shard 2/2 stopped once 2 games had failed with illegal_move: games 2, 4")


def test_with_an_opponent_bot_only_the_bots_own_failures_count(tmp_path):
    """check --opponent: the other bot's illegal moves win the games for BOT; they are no
    failure of BOT's, and every game is played."""
    result = run_cli("check", "--game", "chess", *CHESS_FAST, "--games", "6", "--opponent", shlex.quote(ILLEGAL), *REFERENCE,
                     tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert (len(result.report["games"]), result.report["skipped"]) == (6, 0)
    assert result.report["opponent_findings"]
    failing = run_cli("check", "--game", "chess", *CHESS_FAST, "--opponent", shlex.join(REFERENCE[1:]), ILLEGAL,
                      tmp_path=tmp_path / "failing")
    assert failing.code == 1 and (len(failing.report["games"]), failing.report["skipped"]) == (2, 22)


# -- no re-check alone for a bot asleep by its own doing -------------------------------------

def test_a_hang_beside_another_game_is_not_played_again_alone(tmp_path):
    """The bot sleeps on its 4th turn: no CPU wanted, asleep in a sleep; two games at once
    time out as one alone would: neither is re-checked, and the report says why."""
    result = run_cli("check", "--game", "chess", *CHESS_FAST, "--jobs", "2", "--games", "2",
                     str(CHESS / "hangs_fourth_turn.py"), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    for finding in result.findings("fail"):
        assert (finding["kind"], finding["turn"], finding["asleep"]) == ("timeout", 4, True)
    for game in result.report["games"]:
        assert game["rechecked_alone"] is None
        assert "asleep by its own doing" in game["recheck_skipped"]
    assert "re-checked alone: the same" not in result.stderr
    assert result.stdout.count("  not re-checked alone: game ") == 2


def test_a_timeout_that_another_game_could_explain_is_played_again_alone(tmp_path):
    """A bot that waits in a select() (on a socket, a peer, as far as the judge knows) might
    wait for something the game beside it holds: it is played again alone (asleep False);
    when the run stops on the second game, that one is kept as played, and the report says
    it was not re-checked. (It wants no CPU: load on the machine does not change its figures.)"""
    bot = _bot(tmp_path, "selects.py", (
        "    def play_turn(self, last, mine, theirs, fen):\n"
        "        import select\n"
        "        select.select([], [], [])\n"))
    result = run_cli("check", "--game", "chess", *CHESS_FAST, "--jobs", "2", "--games", "4", str(bot),
                     tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    assert all(f["asleep"] is False for f in result.findings("fail"))
    games = result.report["games"]
    assert [g["game"] for g in games] == [1, 2]
    assert games[0]["rechecked_alone"] and games[0]["recheck_skipped"] is None
    assert games[1]["rechecked_alone"] is None
    assert games[1]["recheck_skipped"] == "the run stops on this game (--max-fail 2); the same came back alone in game 1"
    assert result.report["stops"][0]["unconfirmed"] == [2]
    every = run_cli("check", "--game", "chess", *CHESS_FAST, "--jobs", "2", "--games", "2", "--max-fail", "0",
                    str(bot), tmp_path=tmp_path / "every")
    assert [bool(g["rechecked_alone"]) for g in every.report["games"]] == [True, True]
