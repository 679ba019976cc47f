"""`prototest replay` of a match game's transcript against either bot, through the real CLI
(issue 23, item 4): the game plays again with one bot live and the other's moves taken from
the record; it reproduces, a changed bot shows where it differs, a forfeit comes back."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from conftest import BOTS, CHESS_FAST, RUN_TOKEN, run_cli
from prototest.play import matchgame

PY = shlex.quote(sys.executable)


def bundled(game: str) -> str:
    return f"{PY} -m prototest.bots.{game}_bot"


def bot_of(game: str, name: str) -> str:
    return f"{PY} {shlex.quote(str(BOTS / game / name))}"


#: Per game: options that keep its games short, a bot that plays otherwise than the bundled
#: one and, on its 2nd turn, a move the judge refuses, and that fault's kind.
GAMES = {
    "chess": (CHESS_FAST, "illegal_move.py", "illegal_move"),
    "impasse": ((), "impasse_while_slide.py", "illegal_move"),
    # the judge sends each move to both bots: the bot in the other seat is told the last one too
    "halma": ((), "moves_opponent_piece.py", "illegal_move"),
}


def match(tmp_path: Path, a: str, b: str, game: str) -> list[Path]:
    """Two games (one pair), every transcript written; the transcripts in game order."""
    result = run_cli("match", a, b, "--game", game, "--games", "2", "--jobs", "1", "--env", RUN_TOKEN,
                     "--transcripts", "transcripts", *GAMES[game][0], tmp_path=tmp_path)
    assert result.code in (0, 1), result.stdout + result.stderr
    return sorted((tmp_path / "transcripts").glob("*.txt"))


def replay(tmp_path: Path, *args: str):
    return run_cli("replay", "--transcripts", "replayed", *args, tmp_path=tmp_path)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_either_bot_of_a_recorded_game_reproduces_it(tmp_path, game):
    paths = match(tmp_path, bundled(game), bundled(game), game)
    assert [matchgame.is_match_game(p) for p in paths] == [True, True]
    for path in paths:
        for bot in ("A", "B"):
            result = replay(tmp_path, str(path), "--bot", bot)
            assert result.code == 0, result.stdout + result.stderr
            [entry] = result.report["fixtures"]
            assert entry["status"] == "pass", entry
            assert entry["lines"][0].startswith(f"{bot} (") and "are the record's" in entry["lines"][0]
    seat = matchgame.load(paths[0]).sides[0].seat  # A's seat in game 1: B's in game 2
    result = replay(tmp_path, "transcripts", "--seat", seat)  # a folder of them: the bot in that seat
    assert result.code == 0, result.stdout + result.stderr
    assert [e["lines"][0].split(" ")[0] for e in result.report["fixtures"]] == ["A", "B"]
    assert "PASS: 2 match games replayed" in result.stdout


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_changed_bot_shows_the_first_exchange_that_differs(tmp_path, game):
    _, changed, kind = GAMES[game]
    [path, _] = match(tmp_path, bundled(game), bundled(game), game)
    result = replay(tmp_path, str(path), "--bot", "B", "--", *shlex.split(bot_of(game, changed)))
    assert result.code == 1, result.stdout + result.stderr
    out = result.stdout
    assert "DIFFERS" in out and "the bot answers otherwise than when the match game was played" in out, out
    # record --update refuses a match game's transcript: it is not the way to accept the change
    assert "record --update" not in out.replace("(`prototest record --update` takes fixtures)", ""), out
    if game == "chess":  # the reference bot's moves, but for its 2nd
        assert "(the bot's turn 2, " in out and f"the bot fails the game now: FAIL {kind}:" in out, out
    assert "fixture" not in out and "record --update" not in out, out  # a match game, named so
    assert "a deliberate change? a match game's transcript stays as the game was played: play the match again" in out
    number = int(re.search(r"first difference at line (\d+) ", out)[1])
    recorded = path.read_text().splitlines()[number - 1]  # the line named is B's recorded answer
    answer = re.search(r"record:  < (.*)", out)[1]
    assert re.match(r" *\d+\.\d{3} <  \[opponent\] " + re.escape(answer) + r" ", recorded), recorded


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_faulty_bots_forfeit_replays_to_the_same_verdict(tmp_path, game):
    _, faulty, kind = GAMES[game]
    paths = match(tmp_path, bundled(game), bot_of(game, faulty), game)
    for path in paths:
        assert f"# opponent-forfeited: {kind}" in path.read_text()
        result = replay(tmp_path, str(path), "--bot", "B")
        assert result.code == 1, result.stdout + result.stderr
        assert f"the recorded failure came back: FAIL {kind}: " in result.stdout
        result = replay(tmp_path, str(path), "--bot", "A")  # the other bot: up to the forfeit, then stopped
        assert result.code == 0, result.stdout + result.stderr
        assert "B forfeited the recorded game: the replay stops after A's " in result.stdout
        result = replay(tmp_path, str(path), "--bot", "B", "--", *shlex.split(bundled(game)))  # B fixed
        assert result.code == 0, result.stdout + result.stderr
        assert "the recorded failure did not come back" in result.stdout
        assert "fixture" not in result.stdout and "PASS: 1 match game replayed" in result.stdout, result.stdout
        assert f"record --update {path}" not in result.stdout, result.stdout


def test_the_referee_bots_forfeit_replays_too(tmp_path):
    """A faulty bot as A (the referee's bot, its lines unmarked): its crash comes back;
    B replays up to it."""
    [path, _] = match(tmp_path, bot_of("chess", "crash_third_turn.py"), bundled("chess"), "chess")
    result = replay(tmp_path, str(path), "--bot", "A")
    assert result.code == 1 and "the recorded failure came back: FAIL crash: " in result.stdout, result.stdout
    result = replay(tmp_path, str(path), "--bot", "B")
    assert result.code == 0, result.stdout + result.stderr
    assert "A forfeited the recorded game: the replay stops after B's " in result.stdout


def test_usage_errors_are_one_line(tmp_path):
    [path, _] = match(tmp_path, bundled("chess"), bundled("chess"), "chess")
    cases = [((str(path),), "a match game has two bots: --bot A or --bot B"),
             ((str(path), "--bot", "C"), "--bot C: the bots of this game are A and B"),
             ((str(path), "--seat", "red"), "--seat red: the seats of this game are"),
             ((str(path), "--bot", "A", "--seat", matchgame.load(path).sides[1].seat), "played"),
             ((str(BOTS / "chess" / "README.md"), "--bot", "A"), "not a prototest fixture")]
    recorded = run_cli("record", "--game", "chess", "--games", "1", "--start-delay", "50", "-o", "fx", "--env",
                       RUN_TOKEN, "--", *shlex.split(bundled("chess")), tmp_path=tmp_path)
    assert recorded.code == 0, recorded.stderr
    [fixture] = (tmp_path / "fx").glob("*.txt")  # a fixture has one bot: no --bot
    cases.append(((str(fixture), "--bot", "A"), "--bot picks a bot of a match game's transcript"))
    for args, phrase in cases:
        result = replay(tmp_path, *args)
        assert result.code == 2, result.stdout + result.stderr
        assert result.stderr.count("\n") == 1 and phrase in result.stderr and "Traceback" not in result.stderr, \
            result.stderr
    update = run_cli("record", "--update", str(path), tmp_path=tmp_path)
    assert update.code == 2 and "a match game's transcript, not a fixture" in update.stderr, update.stderr
    (tmp_path / "fx" / path.name).write_text(path.read_text())  # in a folder, record --update passes it by
    update = run_cli("record", "--update", "fx", "--env", RUN_TOKEN, tmp_path=tmp_path)
    assert update.code == 0 and "1 fixture regenerated" in update.stdout + update.stderr, update.stdout + update.stderr
    cut = tmp_path / "cut.txt"  # a game interrupted by Ctrl-C: part of a game
    cut.write_text(re.sub(r"(?m)^# result: .*$", "# result: interrupted (SIGINT)", path.read_text(), count=1))
    result = replay(tmp_path, str(cut), "--bot", "A")
    assert result.code == 2 and "game 1 was interrupted: its transcript holds part of a game" in result.stderr, \
        result.stderr


def test_seat_takes_the_seats_title_and_replay_names_seats_by_title(tmp_path):
    """Impasse's seats are `w` and `b`, titled white and black: --seat takes either, as
    check's does, and replay's lines say white and black."""
    [path, _] = match(tmp_path, bundled("impasse"), bundled("impasse"), "impasse")
    assert matchgame.load(path).sides[0].seat == "w"
    for seat in ("white", "w"):
        result = replay(tmp_path, str(path), "--seat", seat)
        assert result.code == 0, result.stdout + result.stderr
        assert result.report["fixtures"][0]["lines"][0] == "A (white) plays again; B's moves (black) are the record's"
    result = replay(tmp_path, str(path), "--seat", "red")
    assert result.code == 2 and "--seat red: the seats of this game are w (white) and b (black)" in result.stderr, \
        result.stderr


def test_a_finding_last_before_the_board_line_replays(tmp_path):
    """B's exit finding is the transcript's last event, right before its `# board:` line:
    that line is no part of the finding (its JSON was read as the message's second line)."""
    paths = match(tmp_path, bundled("chess"), bot_of("chess", "exit_nonzero.py"), "chess")
    for path in paths:
        assert path.read_text().splitlines()[-1].startswith("# board: ")
        result = replay(tmp_path, str(path), "--bot", "B")
        assert result.code == 0, result.stdout + result.stderr
        [entry] = result.report["fixtures"]
        assert entry["status"] == "pass", entry


def test_a_runtime_cache_warning_is_left_out_of_the_replayed_side(tmp_path):
    """A's first game writes Python's bytecode cache (a module of its own imported for the
    first time): a warning of that run, not of the game, which a fixture leaves out
    (fixtures.dialogue). A's side of the match game leaves it out too, or its replay, which
    writes no cache (or does and leaves it out), differs."""
    (tmp_path / "helper.py").write_text("VALUE = 1\n")
    (tmp_path / "bot.py").write_text("import runpy\nimport helper  # noqa: F401\n"
                                     "runpy.run_module('prototest.bots.chess_bot', run_name='__main__')\n")
    [path, _] = match(tmp_path, f"{PY} bot.py", bundled("chess"), "chess")
    assert "W  WARN file_operation: Python's bytecode cache: " in path.read_text()
    result = replay(tmp_path, str(path), "--bot", "A")
    assert result.code == 0, result.stdout + result.stderr
    [entry] = result.report["fixtures"]
    assert entry["status"] == "pass", entry
