"""`check --opponent` games' transcripts replay as match games do, against either bot
(`--bot A`: the checked bot, `--bot B`: the opponent bot, or `--seat`), through the CLI."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from conftest import BOTS, CHESS_FAST, RUN_TOKEN, run_cli
from prototest.play import matchgame

BUNDLED = [sys.executable, "-B", "-m", "prototest.bots.chess_bot"]
ILLEGAL = f"{shlex.quote(sys.executable)} -B {shlex.quote(str(BOTS / 'chess' / 'illegal_move.py'))}"


def check(tmp_path: Path, opponent: str, *bot: str) -> list[Path]:
    result = run_cli("check", "--game", "chess", "--games", "2", "--jobs", "1", "--env", RUN_TOKEN, *CHESS_FAST,
                     "--transcripts", "transcripts", "--opponent", opponent, "--", *(bot or BUNDLED),
                     tmp_path=tmp_path)
    assert result.code in (0, 1), result.stdout + result.stderr
    return sorted((tmp_path / "transcripts").glob("*.txt"))


def replay(tmp_path: Path, *args: str):
    return run_cli("replay", "--transcripts", "replayed", *args, tmp_path=tmp_path)


def test_either_bot_of_a_check_opponent_game_reproduces_it(tmp_path):
    paths = check(tmp_path, shlex.join(BUNDLED))
    assert len(paths) == 2 and all(matchgame.is_match_game(p) for p in paths)
    game = matchgame.load(paths[0])
    assert game.origin == "check --opponent" and game.kind == "check game"
    assert [s.letter for s in game.sides] == ["A", "B"] and game.sides[0].argv[-1] == "prototest.bots.chess_bot"
    for path in paths:
        for bot, role in (("A", "the checked bot"), ("B", "the opponent")):
            result = replay(tmp_path, str(path), "--bot", bot)
            assert result.code == 0, result.stdout + result.stderr
            [entry] = result.report["fixtures"]
            assert entry["status"] == "pass" and entry["kind"] == "check game", entry
            assert entry["lines"][0].startswith(f"{bot} (") and f", {role}) plays again" in entry["lines"][0], entry
            assert "PASS: 1 check game replayed" in result.stdout, result.stdout
    result = replay(tmp_path, "transcripts", "--seat", "black")  # the bot in that seat: B in game 1, A in game 2
    assert result.code == 0, result.stdout + result.stderr
    assert [e["lines"][0].split(" ")[0] for e in result.report["fixtures"]] == ["B", "A"]


def test_the_opponents_forfeit_comes_back_and_the_checked_bot_replays_up_to_it(tmp_path):
    paths = check(tmp_path, ILLEGAL)
    for path in paths:
        assert "# opponent-forfeited: illegal_move" in path.read_text()
        result = replay(tmp_path, str(path), "--bot", "B")
        assert result.code == 1, result.stdout + result.stderr
        assert "the recorded failure came back: FAIL illegal_move: " in result.stdout, result.stdout
        assert "FAIL: 1 of 1 check game failed" in result.stdout, result.stdout
        result = replay(tmp_path, str(path), "--bot", "A")
        assert result.code == 0, result.stdout + result.stderr
        assert "B forfeited the recorded game: the replay stops after A's " in result.stdout
        result = replay(tmp_path, str(path), "--bot", "B", "--", *BUNDLED)  # the opponent fixed
        assert result.code == 0 and "the recorded failure did not come back" in result.stdout, result.stdout
        assert "fixture" not in result.stdout and "record --update" not in result.stdout, result.stdout


def test_a_changed_checked_bot_shows_where_it_differs(tmp_path):
    [path, _] = check(tmp_path, shlex.join(BUNDLED))
    result = replay(tmp_path, str(path), "--bot", "A", "--", sys.executable, str(BOTS / "chess" / "illegal_move.py"))
    assert result.code == 1, result.stdout + result.stderr
    out = result.stdout
    assert "DIFFERS" in out and "the bot answers otherwise than when the check game was played" in out, out
    assert "play `check --opponent` again for a new record" in out and "fixture" not in out, out


def test_check_without_an_opponent_writes_no_match_game_header(tmp_path):
    result = run_cli("check", "--game", "chess", "--games", "1", "--env", RUN_TOKEN, *CHESS_FAST,
                     "--transcripts", "transcripts", "--", *BUNDLED, tmp_path=tmp_path)
    assert result.code in (0, 1), result.stdout + result.stderr
    [path] = (tmp_path / "transcripts").glob("*.txt")
    assert not matchgame.is_match_game(path)
