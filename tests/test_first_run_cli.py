"""A new user's first runs (issue 24, item 4): a mistyped game, a folder given as the bot,
a game where the bot never moved, and the seats and counts said the same way everywhere."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET

from conftest import BOTS, CHESS_FAST, run_cli


def one_line_error(result) -> str:
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("prototest: error: ") and "Traceback" not in result.stderr
    return line


def test_a_mistyped_game_gets_did_you_mean():
    for command in (["check", "--game", "impase", "--", "true"], ["moves", "--game", "impase"],
                    ["fuzz", "--game", "impase", "--", "true"]):
        line = one_line_error(run_cli(*command))
        assert "unknown game 'impase': did you mean impasse?" in line, line
    assert "did you mean" not in one_line_error(run_cli("moves", "--game", "go"))  # nothing close: the list only


def test_a_folder_given_as_the_bot_gets_the_command_of_its_entry_file(tmp_path):
    bot = tmp_path / "mybot"
    bot.mkdir()
    (bot / "main.py").write_text("print('e2e4')\n")
    (bot / "util.py").write_text("")
    for given in (str(bot), "mybot"):  # a path, and a bare name in this folder
        line = one_line_error(run_cli("check", given, tmp_path=tmp_path))
        assert line == (f"prototest: error: bot {given!r} is a folder: run a file inside it: "
                        f"prototest check -- python3 {given}/main.py"), line
    empty = tmp_path / "empty"
    empty.mkdir()
    line = one_line_error(run_cli("check", str(empty), tmp_path=tmp_path))
    assert f"is a folder: name the file inside it that runs the bot: prototest check {empty}/mybot" in line, line


def test_a_game_where_the_bot_never_moved_does_not_pass_moves_are_legal(tmp_path):
    """A bot that crashes before its first answer played no move: 'moves are legal' counts
    it neither as a pass nor as a failure; the summary's counts agree with the progress."""
    bot = tmp_path / "bot.sh"
    bot.write_text("#!/bin/sh\nread colour\nexit 1\n")  # reads its colour line, then dies
    bot.chmod(0o755)
    result = run_cli("check", "--game", "chess", "--seat", "white", "--games", "1", *CHESS_FAST,
                     "--junit", str(tmp_path / "report.xml"), str(bot), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    [game] = result.report["games"]
    assert game["bot_moves"] == 0 and game["checks"]["legality"] == "none", game
    row = next(line for line in result.stdout.splitlines() if line.startswith("  moves are legal"))
    assert row.split()[-3:] == ["0", "0", "0"], row
    assert "1 game, seed" in result.stdout.splitlines()[0] and "1 games" not in result.stdout
    assert result.stdout.splitlines()[-1] == "FAIL: 1 of 1 game failed"
    junit = ET.parse(tmp_path / "report.xml")
    [case] = [c for c in junit.iter("testcase") if c.get("name").endswith("moves are legal")]
    assert case.find("skipped") is not None and case.find("failure") is None


def test_seats_are_named_alike_in_every_game(tmp_path):
    """Impasse's wire seats are w and b, Halma's 1 and 2: the text says white and black, player 1
    and player 2, as chess says white; --seat takes either."""
    impasse = run_cli("check", "--game", "impasse", "--games", "2", "--", sys.executable, "-m",
                      "prototest.bots.impasse_bot", tmp_path=tmp_path / "impasse")
    assert impasse.code == 0, impasse.stdout + impasse.stderr
    assert re.search(r"^game 1/2 as white: pass", impasse.stderr, re.M), impasse.stderr
    assert re.search(r"^game 2/2 as black: pass", impasse.stderr, re.M), impasse.stderr
    assert impasse.stdout.splitlines()[-1] == "PASS: 2 games (1 as white, 1 as black)"
    assert [g["seat"] for g in impasse.report["games"]] == ["w", "b"]  # the JSON keeps the wire's names
    one = run_cli("check", "--game", "impasse", "--seat", "black", "--games", "1", "--", sys.executable, "-m",
                  "prototest.bots.impasse_bot", tmp_path=tmp_path / "black")
    assert one.code == 0 and [g["seat"] for g in one.report["games"]] == ["b"], one.stdout + one.stderr
    line = one_line_error(run_cli("check", "--game", "halma", "--seat", "3", "--", "true"))
    assert line == "prototest: error: --seat '3': halma has the seats 1, 2 (player 1, player 2)", line


def test_one_ply_is_one_ply(tmp_path):
    """A game of one ply (the bot as black refuses its first move) says '1 ply', not '1 plies'."""
    result = run_cli("check", "--game", "impasse", "--seat", "black", "--games", "1", "--", sys.executable,
                     str(BOTS / "impasse" / "upside_down.py"), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    assert re.search(r"^game 1/1 as black: FAIL  forfeit \(illegal_move\), 1 ply  \[", result.stderr, re.M), \
        result.stderr
    assert "1 plies" not in result.stdout + result.stderr
