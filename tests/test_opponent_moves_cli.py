"""`--opponent-moves` through the real CLI (check and record): a move that is not legal
where it comes is a usage error (status 2, one line on stderr naming the move, its ply and
the rules' reason), never a game that merely stops.

A move that is no move at all, or an opponent's first move that is not legal on the start
position in a game where the opponent moves first, is refused before any game. The later
moves come after the bot's own, which only the game decides: one that the bot's moves
made illegal stops that game, its transcript and report are written, and the command ends
with status 2 all the same (the user's moves could not be played, the bot is not blamed).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from conftest import run_cli

LOA = ["--game", "loa", "--start-delay", "0"]
LOA_BOT = ["--", sys.executable, "-m", "prototest.bots.loa_bot"]
CHESS_BOT = ["--", sys.executable, "-m", "prototest.bots.chess_bot"]

#: Plays the first listed move, always: as Black its first move is b1b3, which puts a third
#: checker on row 3, so White's a3c3 (legal after, say, c8c6) is then one square short.
FIRST_LISTED = """\
#!/usr/bin/env python3
import sys
sys.stdin.readline()  # the colour
while True:
    for _ in range(9):  # the board and the last move
        sys.stdin.readline()
    count = sys.stdin.readline()
    if not count:
        break
    moves = [sys.stdin.readline().strip() for _ in range(int(count))]
    print(moves[0], flush=True)
"""


def first_listed(tmp_path: Path) -> str:
    bot = tmp_path / "first_listed.py"
    bot.write_text(FIRST_LISTED)
    bot.chmod(0o755)
    return str(bot)


def one_error_line(result) -> str:
    [line] = result.stderr.strip().splitlines()[-1:]
    assert line.startswith("prototest: error: --opponent-moves: "), result.stderr
    return line.removeprefix("prototest: error: ")


def test_a_move_that_is_no_move_is_refused_before_any_game(tmp_path):
    """'zz99' can never be an LOA move: it used to play both games, 'stopped', status 0."""
    result = run_cli("check", *LOA, "--opponent-moves", "b8b6,zz99", *LOA_BOT, tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert result.stderr.strip() == ("prototest: error: --opponent-moves: move 2 'zz99' is not a move: a move is "
                                     "4 characters like e2e3 (from square, to square)")
    assert result.stdout == "" and result.report is None  # no game was played


def test_a_first_move_for_the_wrong_side_is_refused_before_any_game(tmp_path):
    """Both seats are played by default: as Black the bot answers White's first move, which
    must then be legal on the start position; --seat is suggested."""
    result = run_cli("check", "--game", "chess", "--opponent-moves", "e7e5", *CHESS_BOT, tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert one_error_line(result) == (
        "--opponent-moves: move 1 'e7e5' is not legal on ply 1, where the opponent moves first (the bot as "
        "black): no piece of yours on e7 (white to move; that is the opponent's pawn) (--seat white plays only "
        "the games where the bot moves first)")
    assert result.report is None


def test_a_move_the_bots_own_move_made_illegal_stops_the_game_as_a_usage_error(tmp_path):
    """The bot as Black plays b1b3; White's given a3c3 is then not legal (it would be after
    c8c6): the game stops there, its transcript is written, the status is 2 and the one
    error line names the move, its ply and the rules' reason."""
    result = run_cli("check", *LOA, "--seat", "b", "--opponent-moves", "a3c3", first_listed(tmp_path),
                     tmp_path=tmp_path, transcripts=False)
    assert result.code == 2, result.stdout + result.stderr
    line = one_error_line(result)
    m = re.fullmatch(r"--opponent-moves: move 1 'a3c3' is not legal on ply 2 \(game 1, the bot as black\): a checker "
                     r"moves exactly 3 squares on this row \(3 checkers stand on it\), not 2; the game so far: (.+)",
                     line)
    assert m, line
    transcript = (tmp_path / m.group(1)).read_text()  # written though nothing failed: the bot ran from tmp_path
    assert "game stopped after 1 plies: the opponent's given move 1 'a3c3' is not legal on ply 2" in transcript
    [game] = result.report["games"]
    assert (game["result"], game["moves"]) == ("stopped", ["b1b3"]), game
    assert "given move 1 'a3c3' is not legal on ply 2" in game["reason"]
    assert result.findings() == []  # the bot is not blamed
    assert result.stdout.splitlines()[-1] == (
        "ERROR: 1 of 1 game stopped at an --opponent-moves move that is not legal there (the error below); "
        "no verdict on the rest of that game")
    assert "game 1/1 as black: STOP  stopped (the opponent's given move 1 'a3c3'" in result.stderr


def test_given_moves_that_fit_are_played_and_the_built_in_opponent_goes_on(tmp_path):
    """A given move that is legal where it comes is played (as the bot's opponent, Black
    moves first here), then the built-in opponent takes over: status 0."""
    result = run_cli("check", *LOA, "--seat", "w", "--opponent-moves", "c8c6", *LOA_BOT, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    [game] = result.report["games"]
    assert game["moves"][0] == "c8c6" and game["result"] in ("win", "loss", "draw"), game


def test_record_refuses_a_move_that_is_no_move(tmp_path):
    result = run_cli("record", *LOA, "--opponent-moves", "zz99", "-o", "fx", *LOA_BOT, tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert result.stderr.strip() == ("prototest: error: --opponent-moves: move 1 'zz99' is not a move: a move is "
                                     "4 characters like e2e3 (from square, to square)")
    assert not (tmp_path / "fx").exists()


def test_record_writes_no_fixture_of_a_game_that_could_not_go_on_as_asked(tmp_path):
    result = run_cli("record", *LOA, "--seat", "b", "--opponent-moves", "a3c3", "-o", "fx", first_listed(tmp_path),
                     tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert one_error_line(result) == (
        "--opponent-moves: move 1 'a3c3' is not legal on ply 2 (game 1, the bot as black): a checker moves exactly 3 "
        "squares on this row (3 checkers stand on it), not 2; loa-seed1-game1-b.txt not written")
    assert result.stdout.splitlines()[-1] == "ERROR: 1 of 1 game not recorded"
    assert not list((tmp_path / "fx").glob("*.txt"))
