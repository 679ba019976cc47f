"""`prototest record`, `record --update` and `replay` through the real CLI: golden
transcripts of a bot's games, played again against the bot, regenerated in place."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, RUN_TOKEN, bot_env, run_cli
from prototest.play import fixtures
from prototest.judge import spec as specmod
from prototest.games import rules_module
from prototest.games.base import IllegalMove

CHESS_BOT = ("--", "python3", "-m", "prototest.bots.chess_bot")
#: seed 4: short games (23 plies as White), a 50 ms silence before the colour line
CHESS = ("--game", "chess", "--seed", "4", "--start-delay", "50")


def record(tmp_path: Path, folder: str = "fx", *extra: str, bot=CHESS_BOT, fresh: bool = False):
    result = run_cli("record", *CHESS, "-o", folder, "--env", RUN_TOKEN, *extra, *bot, tmp_path=tmp_path, fresh=fresh)
    assert result.code == 0, result.stdout + result.stderr
    return sorted((tmp_path / folder).glob("*.txt"))


def replay(tmp_path: Path, *args: str):
    return run_cli("replay", "--env", RUN_TOKEN, "--transcripts", str(tmp_path / "t"), *args, tmp_path=tmp_path)


def one_line_error(result, phrase: str) -> None:
    assert result.code == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("prototest: error: "), result.stderr
    assert phrase in result.stderr and "Traceback" not in result.stderr


def answers(path: Path) -> list[tuple[int, str, str]]:
    """(index in the file's lines, the FEN the bot answered, the answer) of each answer."""
    lines = path.read_text().splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.startswith("< "):
            turn = next(lines[j] for j in range(i - 1, -1, -1) if lines[j].startswith("> ") and "/" in lines[j])
            out.append((i, turn[2:].split(" ", 3)[3], line[2:]))
    return out


def edit_answer(path: Path, index: int, answer: str) -> None:
    lines = path.read_text().splitlines()
    lines[index] = f"< {answer}"
    path.write_text("\n".join(lines) + "\n")


def chess_position(fen: str):
    spec = specmod.load(specmod.spec_path_for("chess"))
    return rules_module("chess").make_rules(spec.rules).parse(fen)


# -- record ------------------------------------------------------------------------------------

def test_record_writes_one_normalised_fixture_per_game_and_replay_passes(tmp_path):
    files = record(tmp_path)
    assert [f.name for f in files] == ["chess-seed4-game1-white.txt", "chess-seed4-game2-black.txt"]
    text = files[0].read_text()
    header = fixtures.load(files[0]).header
    assert (header.game, header.seat, header.seed, header.index, header.cwd) == ("chess", "white", 4, 1, "..")
    assert header.bot == ["python3", "-m", "prototest.bots.chess_bot"]
    assert str(tmp_path) not in text and " ms" not in text and "pid" not in text  # nothing of this run
    assert "> NONE <time> <time> rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n< " in text
    assert text.endswith("# result: win (checkmate)\n")
    result = replay(tmp_path, "fx")
    assert result.code == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "PASS: 2 fixtures replayed"


def test_recording_twice_gives_identical_bytes(tmp_path):
    # Fresh interpreters (not the suite's fork server): each its own hash seed, as two real runs.
    first = [p.read_bytes() for p in record(tmp_path, "a", fresh=True)]
    second = [p.read_bytes() for p in record(tmp_path, "b", fresh=True)]
    assert first == second


def test_update_regenerates_in_place_and_twice_gives_the_same_file(tmp_path):
    [path, _] = record(tmp_path, fresh=True)
    golden = path.read_text()
    lines = golden.splitlines(True)
    path.write_text("".join(lines[:-6]))  # a fixture cut short
    result = run_cli("record", "--update", "--env", RUN_TOKEN, str(path), tmp_path=tmp_path, fresh=True)
    assert result.code == 0, result.stdout + result.stderr
    assert "updated, 6 lines differ" in result.stdout
    assert path.read_text() == golden
    result = run_cli("record", "--update", "--env", RUN_TOKEN, "fx", tmp_path=tmp_path, fresh=True)  # a folder
    assert result.code == 0 and result.stdout.count(": unchanged: pass") == 2, result.stdout
    assert path.read_text() == golden


def test_a_spec_change_shows_in_replay_and_in_the_regenerated_fixture(tmp_path):
    """A `--set` in the header is part of the game: the same answers under another
    en-passant rule make the judge send other FEN lines (an opponent that pushes its
    pawns gives the game double pushes)."""
    [path, _] = record(tmp_path, "fx", "--set", "opponent.style=pawn-storm")
    text = path.read_text()
    assert re.search(r"^> .* [wb] [KQkq-]+ [a-h][36] \d+ \d+$", text, re.M)  # a FEN naming an en-passant square
    path.write_text(text.replace("# time-scale: 1\n", "# time-scale: 1\n# set: rules.en_passant=legal\n"))
    result = replay(tmp_path, str(path))
    assert result.code == 1, result.stdout
    assert "the judge now sends another line" in result.stdout
    result = run_cli("record", "--update", "--env", RUN_TOKEN, str(path), tmp_path=tmp_path)
    assert result.code == 0 and "updated" in result.stdout, result.stdout
    assert fixtures.load(path).header.overrides == ["rules.en_passant=legal", "opponent.style=pawn-storm"]
    assert replay(tmp_path, str(path)).code == 0


def test_a_failing_game_is_recorded_with_its_finding_and_replays_as_a_failure(tmp_path):
    """Recording a bot that fails: status 1, the fixture written all the same (the same
    bytes each time), and its replay brings the failure back."""
    bot = ("--", str(BOTS / "chess" / "illegal_move.py"))
    for folder in ("a", "b"):
        result = run_cli("record", *CHESS, "--seat", "white", "-o", folder, "--env", RUN_TOKEN, *bot, tmp_path=tmp_path)
        assert result.code == 1, result.stdout + result.stderr
        assert result.stdout.splitlines()[-1] == "FAIL: 1 of 1 game failed"
    [path] = (tmp_path / "a").glob("*.txt")
    assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()
    body = fixtures.load(path).body
    assert body[-3] == "> D <time>" and body[-2].startswith("F illegal_move: ")
    result = replay(tmp_path, str(path))
    assert result.code == 1
    assert f"the recorded failure came back: FAIL {body[-2][2:]}" in result.stdout


def test_opponent_moves_that_do_not_fit_the_game_write_nothing(tmp_path):
    result = run_cli("record", *CHESS, "--seat", "white", "--opponent-moves", "e7e5,a1a1", "-o", "fx",
                     "--env", RUN_TOKEN, *CHESS_BOT, tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert re.search(r"prototest: error: --opponent-moves: move 2 'a1a1' is not legal on ply 4 \(game 1, the bot as "
                     r"white\): no piece of yours on a1 \(black to move; that is the opponent's rook\); "
                     r"chess-seed4-game1-white.txt not written", result.stderr), result.stderr
    assert result.stdout.splitlines()[-1] == "ERROR: 1 of 1 game not recorded"
    assert not list((tmp_path / "fx").glob("*.txt"))


# -- replay: what differs ----------------------------------------------------------------------

def test_a_hand_edited_illegal_answer_is_named_with_the_rules_reason(tmp_path):
    [path, _] = record(tmp_path)
    index, fen, recorded = answers(path)[1]
    position = chess_position(fen)
    move, reason = next((m, e.reason) for m in (f"{a}{b}" for a in _SQUARES for b in _SQUARES)
                        for e in [_refusal(position, m)] if e is not None and not e.malformed)
    edit_answer(path, index, move)
    result = replay(tmp_path, str(path))
    assert result.code == 1, result.stdout + result.stderr
    out = result.stdout
    assert f"first difference at line {index + 1} (the bot's turn 2, ply 2)" in out
    assert f"fixture: < {move}" in out and f"now:     < {recorded}" in out
    assert f"the fixture's answer {move!r} is refused by the judge now: FAIL illegal_move: {move!r}: {reason}" in out
    assert "transcript: " in out and out.splitlines()[-1] == "FAIL: 1 of 1 fixture failed"


_SQUARES = [f"{f}{r}" for f in "abcdefgh" for r in "12345678"]


def _refusal(position, move: str) -> IllegalMove | None:
    try:
        position.judge(move)
    except IllegalMove as exc:
        return exc
    return None


def test_another_legal_answer_is_reported_as_the_bot_answering_otherwise(tmp_path):
    [path, _] = record(tmp_path)
    index, fen, recorded = answers(path)[2]
    other = next(m for m in chess_position(fen).legal_moves() if m != recorded)
    edit_answer(path, index, other)
    result = replay(tmp_path, str(path))
    assert result.code == 1
    assert f"line {index + 1} (the bot's turn 3, ply 4)" in result.stdout
    assert (f"the bot answers {recorded!r} now; the fixture's answer {other!r} is still accepted by the judge"
            in result.stdout), result.stdout


def test_replay_with_another_bot_after_dashes(tmp_path):
    """The header's bot, or the one after --: a bot that plays the reference bot's moves
    but an illegal one on its 2nd turn differs there, and fails."""
    [path, _] = record(tmp_path)
    _, _, recorded = answers(path)[1]
    result = replay(tmp_path, str(path), "--", str(BOTS / "chess" / "illegal_move.py"))
    assert result.code == 1, result.stdout + result.stderr
    out = result.stdout
    assert f"fixture: < {recorded}" in out and "(the bot's turn 2, ply 2)" in out
    assert "still accepted by the judge" in out and "the bot fails the game now: FAIL illegal_move:" in out
    result = replay(tmp_path, str(path), "--", "python3", str(ROOT / "prototest" / "bots" / "chess_bot.py"))
    assert result.code == 0, result.stdout + result.stderr


def test_a_fuzz_reproducer_replays_its_failure(tmp_path):
    """`fuzz --save` writes fixtures: replayed, the failure comes back (exit 1, as check
    would); against a correct bot it does not (exit 0)."""
    bot = BOTS / "halma" / "short_move_buffer.py"
    fuzzed = run_cli("fuzz", "--game", "halma", "--save", "saved", "--no-database", "-n", "100",
                     "--shrink-examples", "20", "--", str(bot), tmp_path=tmp_path, timeout=300)
    assert fuzzed.code == 1, fuzzed.stdout + fuzzed.stderr
    [saved] = (tmp_path / "saved").glob("*.txt")
    assert fixtures.load(saved).body[-2].startswith("F crash: ")
    result = replay(tmp_path, str(saved))
    assert result.code == 1, result.stdout + result.stderr
    assert "the recorded failure came back: FAIL crash: the bot exited with status 1" in result.stdout
    result = replay(tmp_path, str(saved), "--", "python3", "-m", "prototest.bots.halma_bot")
    assert result.code == 0, result.stdout + result.stderr
    assert "the recorded failure did not come back" in result.stdout


# -- config, spec files, usage errors, signals ---------------------------------------------------

def test_record_reads_the_config_and_writes_beside_it(tmp_path):
    (tmp_path / "prototest.toml").write_text('game = "loa"\nbot = "python3 -m prototest.bots.loa_bot"\nseed = 3\n')
    (tmp_path / "sub").mkdir()
    result = run_cli("record", "--env", RUN_TOKEN, "--seat", "b", tmp_path=tmp_path / "sub")
    assert result.code == 0, result.stdout + result.stderr
    [path] = (tmp_path / "fixtures").glob("*.txt")
    header = fixtures.load(path).header
    assert (path.name, header.cwd, header.seed) == ("loa-seed3-game1-b.txt", "..", 3)
    assert replay(tmp_path / "sub", str(path)).code == 0


def test_a_spec_file_of_ones_own_is_named_relative_to_the_fixture(tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    for name in ("loa.toml", "_codingame.toml"):
        shutil.copy(specmod.spec_path_for("loa").with_name(name), specs / name)
    result = run_cli("record", "--spec", "specs/loa.toml", "--seat", "w", "--set", "time.answer_ms=300",
                     "--env", RUN_TOKEN, "-o", "out/fx", "--", "python3", "-m", "prototest.bots.loa_bot",
                     tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    [path] = (tmp_path / "out" / "fx").glob("*.txt")
    header = fixtures.load(path).header
    assert (header.spec, header.game, header.overrides, header.cwd) == (
        "../../specs/loa.toml", None, ["time.answer_ms=300"], "../..")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert replay(elsewhere, str(path)).code == 0


@pytest.mark.parametrize("args,phrase", [
    (("replay", "missing.txt"), "missing.txt: no such file"),
    (("replay", "notes.txt"), "notes.txt: not a prototest fixture"),
    (("replay", "bad.txt"), "bad.txt:4: seed: expected an integer, got 'x'"),
    (("replay", "nobot.txt"), "/gone' not found (the header's bot and cwd"),
    (("replay",), "replay: give the fixtures to replay"),
    (("replay", "good.txt", "--"), "replay: nothing after --"),
    (("record", "--update"), "record --update: give the fixtures to regenerate"),
    (("record", "--update", "--seed", "3", "good.txt"), "--seed cannot be given with it"),
    (("record", "--update", "empty"), "empty: no fixtures in this folder"),
    (("record", "good.txt"), "good.txt: fixtures, not a bot: prototest record --update good.txt regenerates them"),
    (("record", "--no-config", "--game", "loa"), "no bot given: prototest record ./mybot"),
    (("record", "--game", "loa", "--output", "notes.txt", "--", "python3", "-m", "prototest.bots.loa_bot"),
     "--output notes.txt: not a folder"),
])
def test_usage_errors_are_one_line(tmp_path, args, phrase):
    header = fixtures.Header(seat="b", seed=1, bot=["python3", "-m", "prototest.bots.loa_bot"], game="loa")
    (tmp_path / "good.txt").write_text(fixtures.render(header, ["> b"]))
    (tmp_path / "bad.txt").write_text(fixtures.render(header, []).replace("# seed: 1", "# seed: x"))
    header.bot = ["./gone"]
    (tmp_path / "nobot.txt").write_text(fixtures.render(header, []))
    (tmp_path / "notes.txt").write_text("not a fixture\n")
    (tmp_path / "empty").mkdir()
    one_line_error(run_cli(*args, tmp_path=tmp_path), phrase)


def _interrupted(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """Run prototest, send SIGINT once the bot sits on its first turn; (status, stdout, stderr)."""
    argv = [sys.executable, "-m", "prototest", *args]
    proc = subprocess.Popen(argv, env=bot_env(), cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2.0)  # past the colour line (50 ms): hangs.py sleeps on its first turn
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    return proc.returncode, out, err


def test_an_interrupted_record_writes_no_partial_fixture(tmp_path):
    """Ctrl-C during a game: the bot is killed, the game in progress is not written,
    and the status is 128 + the signal, as for check."""
    code, _, err = _interrupted(tmp_path, "record", *CHESS, "--time-scale", "20", "--env", RUN_TOKEN,
                                "-o", "fx", "--", str(BOTS / "chess" / "hangs.py"))
    assert code == 128 + signal.SIGINT, err
    assert "interrupted (SIGINT)" in err and "Traceback" not in err
    assert not list((tmp_path / "fx").glob("*.txt"))


def test_an_interrupted_replay_ends_with_the_signal_status(tmp_path):
    first, second = record(tmp_path)
    code, out, err = _interrupted(tmp_path, "replay", "--time-scale", "20", "--env", RUN_TOKEN, "--transcripts", "t",
                                  str(first), str(second), "--", str(BOTS / "chess" / "hangs.py"))
    assert code == 128 + signal.SIGINT, out + err
    assert "interrupted (SIGINT)" in err and "Traceback" not in err
    assert "PASS" not in out and "FAIL:" not in out


# -- comments ----------------------------------------------------------------------------------

def test_a_comment_that_changed_is_noted_not_failed_unless_whole_lines_are_compared(tmp_path):
    """A bot that prints something else in its comment (its depth, its time) still replays
    its fixture: the moves are compared, the comments only noted. The fixture here was
    recorded with a 30-character comment (and its warnings); the bot now writes a short
    one, the same moves. --exact-lines compares whole lines, and then it differs."""
    impasse = BOTS / "impasse"
    result = run_cli("record", "--game", "impasse", "--seed", "1", "--seat", "w", "-o", "fx", "--env", RUN_TOKEN,
                     "--", "python3", str(impasse / "long_comment.py"), tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    [fixture] = (tmp_path / "fx").glob("*.txt")
    body = fixture.read_text()
    assert "< " in body and " thinking about it very hard..." in body and "W malformed: the comment " in body
    shorter = ("--", "python3", str(impasse / "comment.py"))
    result = replay(tmp_path, str(fixture), *shorter)
    assert result.code == 0, result.stdout + result.stderr
    first = next(i for i, line in enumerate(body.splitlines(), 1) if line.startswith("< "))
    move = body.splitlines()[first - 1][2:].split(" ")[0]
    assert f"{fixture}: pass (" in result.stdout
    assert re.search(rf"  note: \d+ answer\(s\) differ from the fixture in their comment only \(not a failure; "
                     rf"--exact-lines compares whole lines\); the first at line {first}: fixture "
                     rf"'< {move} thinking about it very hard\.\.\.', now '< {move} hello :\)'", result.stdout), \
        result.stdout
    assert result.stdout.splitlines()[-1] == "PASS: 1 fixture replayed"
    exact = replay(tmp_path, "--exact-lines", str(fixture), *shorter)
    assert exact.code == 1, exact.stdout + exact.stderr
    assert f"{fixture}: DIFFERS" in exact.stdout and f"first difference at line {first} " in exact.stdout
    assert f"fixture: < {move} thinking about it very hard..." in exact.stdout
    assert f"now:     < {move} hello :)" in exact.stdout
    assert "note:" not in exact.stdout


def test_a_move_that_changed_still_fails_where_comments_are_noted(tmp_path):
    """Only the comment is forgiven: an answer whose move differs is a difference."""
    impasse = BOTS / "impasse"
    result = run_cli("record", "--game", "impasse", "--seed", "1", "--seat", "w", "-o", "fx", "--env", RUN_TOKEN,
                     "--", "python3", str(impasse / "comment.py"), tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    [fixture] = (tmp_path / "fx").glob("*.txt")
    lines = fixture.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("< "))
    listed = [line[2:] for line in lines[:i] if re.fullmatch(r"> [a-h][1-8][a-h][1-8]\w*", line)]
    other = next(m for m in listed if m != lines[i][2:].split(" ")[0])
    lines[i] = f"< {other} hello :)"
    fixture.write_text("\n".join(lines) + "\n")
    result = replay(tmp_path, str(fixture))
    assert result.code == 1, result.stdout + result.stderr
    assert f"first difference at line {i + 1} " in result.stdout and f"fixture: < {other} hello :)" in result.stdout
