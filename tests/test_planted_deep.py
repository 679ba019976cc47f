"""The planted deep and noise faults of issue 31 (tests/bots/<game>/deep_*.py, noise_*.py,
tests/bots/native/loa_comeback.c): each is reachable in a real game, and correct elsewhere.

A deep fault sits in a mode of the bot's own, entered by a rare branch of its code and
kept between turns; a noise fault in one rare class among many the bot dispatches on. Each
forced line below is a whole game from the start: the judge plays the listed opponent moves
(`--opponent-moves`) and the bot, which plays deterministically, walks into its mode and
then into its fault. The lines were found by playing the bots against the built-in
opponent's swarm styles in-process (benchmarks/bench_fuzz_deep.py measures how often
fuzz and random games find them).
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from conftest import BOTS, run_cli

#: bot under tests/bots -> (game, the bot's seat, the opponent's moves, expected kind, the bot's failing turn)
FORCED = {
    "loa/deep_comeback_tally.py": (
        "loa", "w",
        "f8h6,c1a3,d8b6,h6f4,a3b3,d1a4,g1h2,e1c3,f4f3,h2g1,b3e3,a4c2,f3f6,g8d8,b1a2,a2b1,c2e4,e3g3,g1g3,"
        "c3c4,b6c6", "crash", 21),
    "impasse/deep_crown_rush.py": (
        "impasse", "b",
        "g7d4,f8e7,h2g3,b8a7,a7c5,d4e3,c5b4,c7b6,e7d6,d6e5,e5d4,b6a5,g3h4,h4g5,e3f2,d2f4,f2g1,g1f2,g5f6,"
        "e1d2,f2g3,f4g5,f6g7,d2e3,e3f4,f4d6,g3e5,g5f6,d4f2,b4d2,a5b4,f2g1,g1d4,a1b2,d2c1,c1e3,e3f4,d6c7,"
        "f6e7,f4g5,e7d8c7,d8c7,c7b6,g5f6,b2a3,b4a3", "crash", 46),
    # found by an opponent that, once the bot watches (its 2nd impasse), plays into an impasse
    # of its own, then keeps the bot crowded
    "impasse/deep_history_both_stuck.py": (
        "impasse", "b",
        "c7d6,g7f6,d2c3,f8g7,f6g5,d6c5,g7h6,h2g3,b8a7,c3h8g3,c5d4,g5f4,h6g5,a7b6,b6a5,e1f2,a5b4,h8g7,g7f6"
        ",f6e5,f4,g5f4,f2g3,g5f6,f6d8g3,d8e7,e7f6,f6h4,d4,d4c5,c5a7,a7b8a1,b4d2,b8a7,a7c5,d2c1,c1a3,a3b4,"
        "b4a5,c5a3,a5d8,a3b2,b2a1a1,d8g5,e5d4,d4a1,h4,a1d4,d4c5,c5b6,g5h4,g5e7,b6c7,f4e3,e3f2,h4g3,f2e1,g"
        "3h2,e1d2,d2c3,h2g1,c3e5,e5g7,g1b6,g7h8b6,h8d4,d4g1,g1d4,d4f6,c7b8f6,e7d8",
        "crash", 71),
    "loa/deep_mopup_long_path.py": (
        "loa", "b",
        "h2h8,h4f4,a5c5,f4f5,a2b2,h8f6,h5f7,b2c1,a4a1,f7c7,c7f7,f7c7,c7f7,f7h5,h7f5,h5h3,h3h5,f5d7,d7f7,"
        "h5g4,f7g6,g4e6", "illegal_move", 23),
    # Halma: player 2; the opponent's moves are `x1 y1 x2 y2 ...` (1-based, x the column)
    "halma/deep_laggard_rescue.py": (
        "halma", "2",
        "1 3 3 5,2 2 4 4 2 6,2 4 4 6,3 3 5 3,2 6 4 4,4 3 6 3,3 4 5 4,1 2 3 4 3 6 5 6,5 1 3 3,2 3 4 3 6 "
        "5,4 6 6 6 6 4 6 2,2 5 4 5,6 2 6 4 6 6 4 6,4 2 6 4,6 4 6 2,4 4 2 6,5 6 7 4,4 6 4 4 6 4 8 4,5 2 7 "
        "2,3 5 5 5 7 5 7 3,5 3 5 5 3 5,6 5 8 3 8 5,4 5 2 5 2 7,4 1 2 3 4 3 6 5,7 3 7 5 9 3,1 4 1 6 3 6 3 "
        "4,3 4 3 6 1 6 3 8,2 6 4 4 6 4 6 6,5 4 7 6 9 4,2 1 4 3,6 2 6 4,3 3 5 3 7 5,7 2 5 4 7 6,6 5 6 7,6 "
        "3 6 5 8 3 10 5,3 1 3 3,3 2 3 4 5 2,3 3 5 3,2 7 4 9,4 3 6 3 6 5 8 7,5 2 5 4 5 6 7 8,7 8 5 6 5 4 5"
        " 2,5 2 5 4 5 6 5 8,6 7 6 5 8 3,8 5 6 3 4 3,4 3 6 3 6 5 4 5,4 5 6 5,9 4 9 2,6 5 6 3 4 3,6 6 8 8,5"
        " 8 5 6,4 3 6 3 8 5 6 7,7 6 9 8 11 8 9 10,9 10 11 8 9 8,6 4 4 6 6 8,8 4 6 6,8 8 6 10 8 12 8 10,9 "
        "8 11 8",
        "crash", 58),
    # Chess: the bot is white; two en passant chances, a check, then a turn with one legal move
    "chess/deep_history_en_passant_log.py": (
        "chess", "white",
        "g8h6,c7c5,d7d5,d8a5,a5d2,e7d6,f7f5,g7g6,f8d6,c8e6,a8b8,e6a2,a2b1,b1c2,h8h7,h7e7,e7e2,e8f7,f7g8,b"
        "8e8,c2d3,d3f5,f5e4,e4f3,e8e3,a7a5,b7a6,g8g7,g7f6,f6e6,e6f6,f6f7,a6a5,f7f8,f8e7,e7e8,e8f8,f8g8,g8"
        "f7,f7g7,g7g8,g8g7,g7h7,h7h8,h8h7,a5a4,h7g8,g8f8,f8e8,e8d7,a4a3,d7c8,c8c7,c7b6,a3a2,b6a5,a5a6,a6a"
        "5,a5b5,b5b4,a2a1,a1g7,b4c5,c5d5,g7c3,c3h8,h8b8,b8h2,h2e5,e5a1,a1h8,d5c4,h8c8,c8c7,c7g3,g3d3,d3f5"
        ",c4b5,f5f7,f7a2,a2a4,b5c4,c4d5,a4c2,c2c6,c6c5,d5e6,c5a3,a3f3,f3a8,e6f6,a8b8,b8b3,b3b6,b6a6,a6a5,"
        "a5f5,f5e6,e6d6,d6d5,d5a2,f6g7,a2e2,e2c2,c2d3,d3d1,d1g4,g4e2,e2g4,g4e4,e4f3,f3f6,f6g5,g5e3,e3e7,e"
        "7f7,f7c7",
        "crash", 118),
    # Halma: player 1; found by an opponent that makes its longest jump chain (9+ hops) until
    # the bot races, then the move after which the bot's own move is longest
    "halma/deep_history_long_jumps.py": (
        "halma", "1",
        "16 13 14 11,16 14 14 12 14 10,15 13 15 11 13 9,15 14 13 12 15 10 13 10 13 8,15 16 15 14 13 12 15"
        " 10 13 10,15 15 13 13 15 13 15 11 13 11 15 9,14 11 14 9 12 7,14 13 16 11 16 13 14 11 12 9 14 7,1"
        "4 15 14 13 16 11 16 13 14 11 12 9,14 10 12 8 12 6,13 10 11 8 13 6 11 6,13 9 13 7 11 5,14 16 12 1"
        "4,13 15 11 13,13 16 11 14 11 12,12 15 12 13 10 11,12 14 10 12 10 10,11 13 11 11 9 9,11 6 11 7,10"
        " 10 8 8 8 6,12 6 10 8 8 10 10 10 8 8 6 6 8 4 6 2,12 7 14 9 16 9 16 11 14 13 14 15 12 13 12 11 10"
        " 9 8 9,8 9 10 9 12 11 12 13 14 15 14 13 16 11 16 9 14 9 12 7 10 7,12 9 14 11 16 13 16 11 16 9 14"
        " 9 12 11 10 9,6 2 6 4 6 6 8 8 10 10 10 8 10 6 12 8 14 8 14 6,11 7 10 6,10 6 10 8,14 6 13 6,16 15"
        " 14 15 14 13 16 11 16 13 14 11 12 9,8 6 7 7,13 6 12 5",
        "crash", 32),
    "loa/noise_situations.py": (
        "loa", "b", "a6c8,h3f1,h4f4,f1d3,h7f5,h2f2,d3c4,a2d5,h5f3", "crash", 10),
    "loa/noise_long_lines.py": ("loa", "w", "g8a8,d1d3,f8f6,b8b6,d8h8", "illegal_move", 5),
    "impasse/noise_situations.py": (
        "impasse", "b",
        "d2e3,e1c3,c7b6,b6c5,b8d6,c5b4,d6f4,g7f6,f6g5,f4g3,f8d6,d6e5,c3d4,e5f4,d4e5,e5f6,b4c3,f6e7,"
        "e7d8e3,c3b2,f4e3,d8e7,e7c5,g5f4,c5b4,b4d2,d2c1,c1d2,b2c1,d2c3,c3b4,b4a5,a5b6,b6c7,c7d8h2,d8c7,"
        "c7e5,e5d4,d4c3,c3d2,d2e1,g3h2,e3g1,g1f2,f4e3,h2g1",
        "crash", 46),
}
NATIVE = ("loa", "b", "a3c1,h6f8,c1e3,e3b6,a5d8,a4b3,h5f7,h2e5,f8g7", "crash", 10)
PLANTED = sorted(FORCED)

GCC = shutil.which(os.environ.get("CC", "gcc"))
NEED_CC = os.environ.get("PROTOTEST_REQUIRE_CC") == "1"


def forced(tmp_path, bot, game, seat, opponent):
    return run_cli("check", "--game", game, "--seat", seat, "--games", "1", "--start-delay", "0",
                   "--opponent-moves", opponent, "--", *bot, tmp_path=tmp_path)


def assert_fails_on(result, kind, turn):
    assert result.code == 1, result.stdout + result.stderr
    fails = result.findings("fail")
    assert [(f["kind"], f["turn"]) for f in fails] == [(kind, turn)], result.stdout


@pytest.mark.parametrize("name", sorted(FORCED))
def test_the_forced_line_walks_into_the_fault(tmp_path, name):
    game, seat, opponent, kind, turn = FORCED[name]
    result = forced(tmp_path, [str(BOTS / name)], game, seat, opponent)
    assert_fails_on(result, kind, turn)


@pytest.mark.parametrize("name", PLANTED)
def test_the_correct_path_passes(tmp_path, name):
    """Two ordinary games (seed 1) never reach the rare branch: the bot passes."""
    game = name.split("/")[0]
    result = run_cli("check", "--game", game, "--games", "2", "--start-delay", "0", "--seed", "1",
                     str(BOTS / name), tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings("fail") == [], result.stdout


@pytest.fixture(scope="module")
def native_bot(tmp_path_factory):
    if GCC is None:
        if NEED_CC:
            pytest.fail("PROTOTEST_REQUIRE_CC=1 but no C compiler (gcc, or $CC) is installed")
        pytest.skip("gcc is not installed")
    binary = tmp_path_factory.mktemp("native") / "loa_comeback"
    subprocess.run([GCC, "-O1", "-o", str(binary), str(BOTS / "native" / "loa_comeback.c")], check=True, timeout=120)
    return binary


def test_the_native_bot_walks_into_its_fault(tmp_path, native_bot):
    game, seat, opponent, kind, turn = NATIVE
    result = forced(tmp_path, [str(native_bot)], game, seat, opponent)
    assert_fails_on(result, kind, turn)
    assert "SIGSEGV" in result.findings("fail")[0]["message"], result.stdout


def test_the_native_bot_passes_ordinary_games(tmp_path, native_bot):
    result = run_cli("check", "--game", "loa", "--games", "2", "--start-delay", "0", "--seed", "1",
                     str(native_bot), tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings("fail") == [], result.stdout
