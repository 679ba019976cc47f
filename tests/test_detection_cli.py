"""No game chosen: chess is played, and a bot that speaks another protocol is named so.

A Halma bot greets with `ready`; a CodinGame bot reads the colour and the first turn line
as the start of its board and waits, silent. Either way the first game says which
--game the bot looks like, and the remaining games are not played.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from conftest import BOTS, CHESS_FAST, run_cli

#: The end of a CodinGame bot's hint: every installed game that sends its board every turn
#: (a plugin's too, such as examples/connect4, named first), Impasse and LOA among them.
CODINGAME = re.compile(r"choose it with (--game [\w-]+, )*--game impasse or --game loa$")
DEFAULTED = "game: chess, the default: no --game, --spec or config file chose one"
#: The default 10 s clock, a short silence before the colour line: a bot waiting for its
#: CodinGame board must be concluded on long before the clock runs out.
FULL_CLOCK = ("--start-delay", "150")
STOPPED_EARLY = "sat idle in a read of its input, so the judge stopped waiting before its 10000 ms"


def concluded_early(result) -> None:
    """The first game's timeout came from the bot sitting idle, not from the clock."""
    [f] = result.findings()
    assert f["kind"] == "timeout" and STOPPED_EARLY in f["message"], f["message"]
    assert f["elapsed_ms"] < 10000, f  # before the clock ran out, as the message says


def python_bot(module: str) -> list[str]:
    return ["--", sys.executable, "-m", module]


def test_a_halma_bot_is_named_and_the_other_games_skipped(tmp_path):
    """With check's default games (24): the first game names the game, the other 23 are not played."""
    result = run_cli("check", *python_bot("prototest.bots.halma_bot"), tmp_path=tmp_path)
    assert result.code == 2
    r = result.report
    assert (r["game"], r["game_source"], r["skipped"], len(r["games"])) == ("chess", "default", 23, 1)
    [f] = result.findings()
    assert (f["kind"], f["got"]) == ("early_output", "ready")
    assert r["hints"] == ["its first line was 'ready', the greeting of Halma 16x16 (Proglad): it looks like a "
                          "bot of that game: choose it with --game halma"]
    assert DEFAULTED in result.stdout and "hint: its first line was 'ready'" in result.stdout
    assert "not played: 23 more games" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("ERROR: no verdict: the bot seems to play another game")


def test_the_hint_comes_first_in_plain_words_with_a_usage_status(tmp_path):
    """The issue's case: a CodinGame bot checked with no game chosen. The first line it
    sees says so in plain words (not "re-checked alone"), and the exit status is a usage
    error's (2), not a bot failure's (1)."""
    result = run_cli("check", "--jobs", "2", *CHESS_FAST, *python_bot("prototest.bots.impasse_bot"),
                     tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith("prototest: this bot seems to play another game: no game was chosen, so it was "
                            "checked as a chess bot (the default), and it read its colour"), result.stderr
    assert CODINGAME.search(first) and "re-checked" not in result.stderr, result.stderr
    assert re.match(r"game +1/24 as white: FAIL", result.stderr.splitlines()[1]), result.stderr
    assert "1 game of 24, seed" in result.stdout.splitlines()[0], result.stdout


@pytest.mark.parametrize("module", ["prototest.bots.impasse_bot", "prototest.bots.loa_bot"])
def test_a_codingame_bot_is_named_and_not_said_to_miss_a_flush(tmp_path, module):
    result = run_cli("check", *CHESS_FAST, *python_bot(module), tmp_path=tmp_path)
    assert result.code == 2
    r = result.report
    assert (r["skipped"], len(r["games"])) == (23, 1)
    [f] = result.findings()
    assert (f["kind"], f["turn"]) == ("timeout", 1) and "flush" not in f["message"], f["message"]
    [hint] = r["hints"]
    assert "waited silently for more input" in hint and CODINGAME.search(hint)


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_a_java_codingame_bot_is_named(tmp_path):
    """A JVM reads stdin in a thread of its own: the wait is seen there."""
    classes = tmp_path / "classes"
    subprocess.run(["javac", "-d", str(classes), str(BOTS / "impasse" / "Player.java")], check=True, timeout=120)
    # -XX:-UsePerfData: no hsperfdata file (the JVM's own, a runtime_cache warning otherwise)
    result = run_cli("check", *FULL_CLOCK, "--", "java", "-XX:-UsePerfData", "-cp", str(classes), "Player",
                     tmp_path=tmp_path)
    assert result.code == 2 and len(result.report["games"]) == 1
    [hint] = result.report["hints"]
    assert CODINGAME.search(hint)
    concluded_early(result)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_javascript_codingame_bot_is_named(tmp_path):
    shim, bot = BOTS / "impasse" / "_codingame_readline.js", BOTS / "impasse" / "readline_bot.js"
    result = run_cli("check", *FULL_CLOCK, "--", "node", "-r", str(shim), str(bot), tmp_path=tmp_path)
    assert result.code == 2 and len(result.report["games"]) == 1
    assert CODINGAME.search(result.report["hints"][0])
    concluded_early(result)


def test_the_first_games_are_judged_before_the_others_start(tmp_path):
    """A bot waiting for its CodinGame board times out while the second game runs beside it:
    a timing finding, re-checked alone. With check's 24 default games, the first games are
    played, re-checked and found to need another --game before any other game starts."""
    starts = tmp_path / "starts"
    bot = tmp_path / "bot.py"
    bot.write_text(f"#!/usr/bin/env python3\nwith open({str(starts)!r}, 'a') as f:\n    f.write('.')\n"
                   "from prototest.bots.codingame import main_for\nmain_for('loa')\n")
    bot.chmod(0o755)
    result = run_cli("check", *CHESS_FAST, "--jobs", "2", "--set", "severity.file_operation=ignore", str(bot),
                     tmp_path=tmp_path)  # its count of starts is no file operation to judge
    assert (result.report["skipped"], len(result.report["games"])) == (23, 1), result.stdout
    # games 1 and 2 at once, then game 1 alone, unless its timeout came with the bot seen
    # asleep in its read (a busy machine cannot cause that: the re-check is skipped, and
    # the report says why); on a quiet machine with the bot's bytecode cached, it can be
    [game] = result.report["games"]
    assert (game["rechecked_alone"] is None) == (game["recheck_skipped"] is not None), game
    assert len(starts.read_text()) == (2 if game["recheck_skipped"] else 3), game


def test_a_python_codingame_bot_is_concluded_on_early(tmp_path):
    result = run_cli("check", *FULL_CLOCK, *python_bot("prototest.bots.loa_bot"), tmp_path=tmp_path)
    assert result.code == 2 and result.report["hints"], result.stdout
    concluded_early(result)


def test_a_bot_thinking_while_a_thread_reads_its_input_is_not_cut_short(tmp_path):
    """An engine's input thread sits in a read the whole time the engine thinks; the CPU
    time it uses tells it from a bot that waits for more input: it gets its whole clock."""
    result = run_cli("check", *FULL_CLOCK, "--games", "1", str(BOTS / "chess" / "thinks_with_a_reader_thread.py"),
                     tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [] and result.report["hints"] == []
    assert result.report["games"][0]["startup_ms"] >= 1500


def test_an_answer_like_a_halma_move_is_named(tmp_path):
    """A Halma bot that skips its greeting still answers in Halma's grammar."""
    bot = tmp_path / "bot.py"
    bot.write_text("#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n"
                   "    if ' ' in line.strip():\n        print('move 1 3 3 5', flush=True)\n")
    bot.chmod(0o755)
    result = run_cli("check", *CHESS_FAST, str(bot), tmp_path=tmp_path)
    assert result.code == 2 and len(result.report["games"]) == 1
    [f] = result.findings()
    assert (f["kind"], f["got"]) == ("malformed", "move 1 3 3 5")
    assert result.report["hints"] == ["it answered 'move 1 3 3 5', a move of Halma 16x16 (Proglad): it looks "
                                      "like a bot of that game: choose it with --game halma"]


def test_a_chosen_game_gets_no_hint_and_plays_every_game(tmp_path):
    result = run_cli("check", "--game", "chess", "--games", "2", *python_bot("prototest.bots.halma_bot"),
                     tmp_path=tmp_path)
    r = result.report
    assert (r["game_source"], r["hints"], r["skipped"], len(r["games"])) == ("--game", [], 0, 2)
    assert "hint:" not in result.stdout and DEFAULTED not in result.stdout


def test_a_chess_bot_that_hangs_is_no_codingame_bot(tmp_path):
    """hangs.py reads its turn and then sleeps (not a read): no hint, both games played."""
    result = run_cli("check", *CHESS_FAST, "--games", "2", str(BOTS / "chess" / "hangs.py"), tmp_path=tmp_path)
    r = result.report
    assert (r["hints"], r["skipped"], len(r["games"])) == ([], 0, 2)
    assert result.kinds() == {"timeout"} and DEFAULTED in result.stdout
