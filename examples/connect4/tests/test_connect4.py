"""Connect Four's own tests: the rules, and the real CLI against the reference bot and a
planted fault (tests/bots/full_column.py). Run: pytest examples/connect4/tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from prototest import games
from prototest.games.base import IllegalMove, OptionError, PositionError
from prototest_connect4 import rules as c4

FAULTY = str(Path(__file__).parent / "bots" / "full_column.py")
BOT = [sys.executable, "-m", "prototest_connect4.bot"]
RULES = c4.make_rules({})


def play(*moves: str) -> c4.Position:
    position = RULES.initial()
    for move in moves:
        position = position.play(move)
    return position


def test_registered() -> None:
    game = games.game("connect4")
    assert game.source == "prototest-connect4" and game.spec.name == "connect4.toml"


@pytest.mark.parametrize("depth, leaves", [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807)])
def test_perft(depth: int, leaves: int) -> None:
    assert RULES.perft(RULES.initial(), depth) == leaves


@pytest.mark.parametrize("moves", ["1122334", "1212121", "12234334644", "76654554244"])  # row, column, diagonals
def test_wins(moves: str) -> None:
    position = play(*moves)
    assert position.outcome() == c4.Outcome(1 - len(moves) % 2, "four in a row")
    assert position.legal_moves() == [] and "game is over" in str(pytest.raises(IllegalMove, position.judge, "1").value)


def test_full_column_and_malformed() -> None:
    position = play(*"444444")
    assert position.legal_moves() == ["1", "2", "3", "5", "6", "7"]
    with pytest.raises(IllegalMove, match="column 4 is full") as full:
        position.judge("4")
    assert not full.value.malformed
    for text in ("0", "8", "44", "a", "", " 4"):
        with pytest.raises(IllegalMove) as bad:
            position.judge(text)
        assert bad.value.malformed


FULL = "ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo"  # no four anywhere


def test_board_full_is_a_draw() -> None:
    assert RULES.parse(FULL + " x").outcome() == c4.Outcome(None, "board full")
    last = RULES.parse("." + FULL[1:] + " o")
    assert last.legal_moves() == ["1"] and last.play("1").outcome() == c4.Outcome(None, "board full")
    assert c4.make_rules({"max_plies": 2}).initial().play("1").play("2").outcome().reason == "turn limit"


def test_notation_round_trip_and_errors() -> None:
    position = play(*"4455")
    assert position.notation() == "......./......./......./......./...oo../...xx.. x"
    assert RULES.parse(position.notation()) == position
    for bad, why in [("x", "expected 2 fields"), ("......./....... x", "expected 6 rows"),
                     ("......./......./......./......./......./...q... o", "unexpected 'q'"),
                     ("......./......./......./......./...x.../....... o", "above an empty cell"),
                     ("......./......./......./......./......./...x... x", "side to move must be 'o'"),
                     ("......./......./......./......./......./xxxx... o", "x moves first"),
                     ("......./......./......./......./ooo..../xxxx... x", "side to move must be 'o'")]:
        with pytest.raises(PositionError, match=why):
            RULES.parse(bad)
    with pytest.raises(OptionError):
        c4.make_rules({"max_plies": 43})


def test_opponent_hooks() -> None:
    position = play(*"112233")  # x to move: 4 wins
    assert c4.move_kinds(position, "4") == {"centre", "winning"}
    assert c4.move_kinds(play(*"1122335"), "4") == {"centre", "blocking"}  # o to move
    assert c4.prefer(position, "greedy", position.legal_moves()) == ["4"]
    assert c4.prefer(position, "edge", position.legal_moves()) == ["1", "7"]
    assert c4.prefer(position, "filling", position.legal_moves()) == ["1", "2", "3"]
    assert set(c4.situations(position)) <= set(c4.SITUATIONS)
    assert c4.situations(play(*"44444"), "4") == ["column filled"]
    assert c4.diagram(position)[-1] == "  1 2 3 4 5 6 7"


def prototest(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "prototest", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def test_check_passes_the_reference_bot(tmp_path: Path) -> None:
    run = prototest("check", "--game", "connect4", "--games", "4", "--", *BOT, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS" in run.stdout  # "PASS with warnings" when a loaded machine makes an answer slow


def test_check_catches_a_full_column(tmp_path: Path) -> None:
    run = prototest("check", "--game", "connect4", "--", sys.executable, FAULTY, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAIL illegal_move" in run.stdout and "column 4 is full" in run.stdout


def test_fuzz_catches_a_full_column(tmp_path: Path) -> None:
    run = prototest("fuzz", "--game", "connect4", "--budget", "20s", "--no-database", "--",
                    sys.executable, FAULTY, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAIL illegal_move" in run.stdout and "column 4 is full" in run.stdout
