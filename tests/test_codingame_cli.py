"""The real CLI against real bot processes on the CodinGame dialogue (Impasse, LOA).

The reference bots pass as both colours; each broken bot under tests/bots/impasse and
tests/bots/loa is caught with the kind and severity its README names; `moves` and
`perft` give the published counts and handle hand-built positions.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BOTS, one_per_seat, run_cli

IMPASSE = BOTS / "impasse"
LOA = BOTS / "loa"
REFERENCE = {
    "impasse": ["--", sys.executable, "-m", "prototest.bots.impasse_bot"],
    "loa": ["--", sys.executable, "-m", "prototest.bots.loa_bot"],
}
SEATS = {"impasse": ["w", "b"], "loa": ["b", "w"]}

#: Hand-built positions (one-line notation: rows rank 8 first, side to move, plies).
#: Impasse: White's singles on a1 and c1 are blocked by Black's b2 and d2; g7 can slide to
#: the furthest row, so every White turn is a crown with a1 or c1 as the source.
IMPASSE_CROWN = "......../......w./......../......../......../......../.b.b..../w.w..... w 10"
#: The same without g7: White has no slide and no transpose, so it removes a checker.
IMPASSE_STUCK = "......../......../......../......../......../......../.b.b..../w.w..... w 10"
#: LOA: Black's a1 and h8 are boxed in by White (no move jumps an enemy), so Black passes.
LOA_PASS = "......wb/......ww/......../......../......../......../ww....../bw...... b 0"


def check(tmp_path: Path, game: str, bot: str | list[str], *extra: str):
    argv = list(bot) if isinstance(bot, list) else [str((IMPASSE if game == "impasse" else LOA) / bot)]
    return run_cli("check", "--game", game, *one_per_seat(*extra), *extra, *argv, tmp_path=tmp_path)


def lines(result) -> list[str]:
    assert result.code == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


# -- reference bots -------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["impasse", "loa"])
def test_reference_bot_passes_as_both_colours(tmp_path, game):
    result = check(tmp_path, game, REFERENCE[game], "--seed", "3")
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [], result.stdout
    games = result.report["games"]
    assert [g["seat"] for g in games] == SEATS[game]
    for g in games:
        assert g["result"] in ("win", "loss", "draw"), g
        assert g["plies"] > 0
        assert set(g["checks"].values()) == {"pass"}
    assert result.report["timing"]["answers"] > 0
    assert "PASS: 2 games" in result.stdout
    # The colour comes first, then the board; the first last move is `null`.
    text = Path(games[0]["transcript"]).read_text()
    assert ">  null" in text and f">  {SEATS[game][0]}" in text


@pytest.mark.parametrize("game,position,seat,first", [
    ("impasse", IMPASSE_STUCK, "w", ("a1", "c1")),
    ("impasse", IMPASSE_CROWN, "w", ("g7f8a1", "g7f8c1", "g7h8a1", "g7h8c1")),
    ("loa", LOA_PASS, "b", ("pass",)),
], ids=["impasse-removal", "impasse-crown", "loa-pass"])
def test_reference_bot_from_a_hand_built_position(tmp_path, game, position, seat, first):
    result = check(tmp_path, game, REFERENCE[game], "--position", position, "--seat", seat)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [], result.stdout
    [g] = result.report["games"]
    assert g["seat"] == seat and g["result"] in ("win", "loss", "draw")
    assert g["moves"][0] in first


# -- broken bots ----------------------------------------------------------------------------

# game, bot file, kind, severity, a phrase the message must hold, the bot's turn (or None),
# extra CLI arguments
BROKEN = [
    ("impasse", "drops_crown.py", "illegal_move", "fail", "crown coordinate missing", None, []),
    ("impasse", "upside_down.py", "illegal_move", "fail", "no checker of yours on", 1, []),
    ("impasse", "impasse_while_slide.py", "illegal_move", "fail",
     "impasse removal is only allowed when no slide or transpose exists", 2, []),
    ("impasse", "slow_first_turn.py", "timeout", "fail", "no answer within 1000 ms (the first answer limit)", 1, []),
    ("impasse", "colour_every_turn.py", "crash", "fail", "exited with status 1 on its turn 2, before answering; "
     "stderr shows a Python traceback: ValueError: invalid literal for int()", 2, []),
    ("impasse", "random.py", "random_move", "warn", "the referee plays a random move", 1, []),
    ("impasse", "trace_on_exit.py", "exit_status", "warn", "exited with status 1 after its input was closed, and its "
     "stderr shows a Java stack trace: Exception in thread \"main\" java.util.NoSuchElementException", None, []),
    ("impasse", "long_comment.py", "malformed", "warn", "is 30 characters; the referee keeps 15", 1, []),
    ("loa", "ignores_pass.py", "illegal_move", "fail", "no legal move exists: answer pass", 1,
     ["--position", LOA_PASS, "--seat", "b"]),
    ("loa", "own_count.py", "illegal_move", "fail", "a checker moves exactly", None, []),
    ("loa", "jumps_enemy.py", "illegal_move", "fail", "blocked by an enemy checker", None, []),
    ("loa", "junk_suffix.py", "malformed", "warn", "(it compares prefixes)", 1, []),
    ("loa", "too_slow.py", "timeout", "fail", "no answer within 150 ms (the answer limit)", 3, []),
    ("loa", "reads_one_too_many.py", "timeout", "fail", "it reads one line more than the judge sends", 1, []),
]


@pytest.mark.parametrize("game,bot,kind,severity,phrase,turn,extra", BROKEN,
                         ids=[f"{b[0]}-{b[1]}" for b in BROKEN])
def test_broken_bot_is_caught(tmp_path, game, bot, kind, severity, phrase, turn, extra):
    result = check(tmp_path, game, bot, "--seed", "1", *extra)
    assert result.report is not None, result.stderr
    games = result.report["games"]
    found = [f for f in result.findings() if f["kind"] == kind and f["severity"] == severity]
    # The fault shows in every game (both colours unless --seat), not by luck in one.
    assert sorted({f["game"] for f in found}) == [g["game"] for g in games], \
        f"expected {severity} {kind} in every game; got {result.findings()}\n{result.stdout}"
    assert all(phrase in f["message"] for f in found), [f["message"] for f in found]
    # Exactly one fault each: nothing else is reported.
    assert {(f["kind"], f["severity"]) for f in result.findings()} == {(kind, severity)}
    assert result.code == (1 if severity == "fail" else 0), result.stdout + result.stderr
    for f in found:
        assert f["transcript"] and Path(f["transcript"]).exists()
        if turn is not None:
            assert f["turn"] == turn, f
        if severity == "fail":
            assert f["position"] and f["expected"]
    for g in games:
        if severity == "fail":
            assert g["result"] == "forfeit" and g["reason"] == kind
        else:  # a warning: the game goes on to its end
            assert g["result"] in ("win", "loss", "draw") and g["plies"] > 2


def test_dropped_crown_names_the_missing_coordinate(tmp_path):
    result = check(tmp_path, "impasse", "drops_crown.py", "--seed", "1")
    for f in result.findings("fail"):
        assert len(f["got"]) == 4
        assert "append the square of the single to crown with" in f["message"]
        assert f["expected"].startswith("one of ")
        assert any(m.startswith(f["got"]) and len(m) == 6 for m in f["expected"].split())


def test_prefix_match_keeps_the_game_going(tmp_path):
    """`e2e3junk` is played as `e2e3`: the moves recorded are the listed strings."""
    result = check(tmp_path, "loa", "junk_suffix.py", "--seed", "1")
    [g1, g2] = result.report["games"]
    assert g1["plies"] > 4 and g2["plies"] > 4
    assert not any("junk" in m for g in (g1, g2) for m in g["moves"])
    assert sum(f["count"] for f in result.findings()) == sum((g["plies"] + (g["seat"] == "b")) // 2
                                                          for g in (g1, g2))


# -- bots that must not fail ----------------------------------------------------------------

def test_comment_after_the_move_passes(tmp_path):
    result = check(tmp_path, "impasse", "comment.py", "--seed", "1")
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [], result.stdout
    text = Path(result.report["games"][0]["transcript"]).read_text()
    assert " hello :)" in text


def test_slow_start_like_a_jvm_passes(tmp_path):
    """0.7 s before the first answer is within the 1000 ms first-answer limit. Over 80 % of
    it (800 ms) would be a `slow` warning; nothing else may be reported."""
    result = check(tmp_path, "impasse", "slow_start_jvm.py", "--seed", "1")
    assert result.code == 0, result.stdout + result.stderr
    assert {(f["kind"], f["severity"]) for f in result.findings()} <= {("slow", "warn")}, result.stdout
    for g in result.report["games"]:
        assert g["startup_ms"] >= 700
        assert g["result"] in ("win", "loss", "draw")


# -- moves and perft ------------------------------------------------------------------------

def test_moves_from_the_start():
    impasse = lines(run_cli("moves", "--game", "impasse"))
    assert len(impasse) == 22 and impasse == sorted(impasse)
    assert impasse[0] == "c7a5" and "d2e3" in impasse and "h2g3" in impasse
    loa = lines(run_cli("moves", "--game", "loa"))
    assert len(loa) == 36 and loa == sorted(loa)
    assert all(len(m) == 4 for m in loa)
    assert {m[:2] for m in loa} == {f"{f}{r}" for f in "bcdefg" for r in "18"}


@pytest.mark.parametrize("game,counts", [("impasse", (22, 492, 9692)), ("loa", (36, 1244, 44952))])
def test_perft(game, counts):
    for depth, expected in enumerate(counts, start=1):
        assert lines(run_cli("perft", "--game", game, "--depth", str(depth))) == [str(expected)]


@pytest.mark.parametrize("game,total,first_moves", [("impasse", 9692, 22), ("loa", 44952, 36)])
def test_perft_divide_sums_to_the_total(game, total, first_moves):
    out = lines(run_cli("perft", "--game", game, "--depth", "3", "--divide"))
    assert out[-1] == f"total: {total}" and out[-2] == ""
    split = [line.split(": ") for line in out[:-2]]
    assert len(split) == first_moves
    assert [m for m, _ in split] == sorted(m for m, _ in split)
    assert sum(int(n) for _, n in split) == total


def test_hand_built_impasse_positions():
    crown = lines(run_cli("moves", "--game", "impasse", IMPASSE_CROWN))
    assert crown == ["g7f8a1", "g7f8c1", "g7h8a1", "g7h8c1"]
    stuck = lines(run_cli("moves", "--game", "impasse", IMPASSE_STUCK))
    assert stuck == ["a1", "c1"]
    assert lines(run_cli("perft", "--game", "impasse", "--depth", "1", IMPASSE_CROWN)) == ["4"]


def test_hand_built_loa_position():
    assert lines(run_cli("moves", "--game", "loa", LOA_PASS)) == ["pass"]
    # After Black's pass, White moves: depth 2 counts White's replies.
    white = lines(run_cli("moves", "--game", "loa", LOA_PASS.replace(" b 0", " w 1")))
    assert len(white) == 22 and "pass" not in white
    assert lines(run_cli("perft", "--game", "loa", "--depth", "2", LOA_PASS)) == ["22"]
    divide = lines(run_cli("perft", "--game", "loa", "--depth", "2", "--divide", LOA_PASS))
    assert divide == ["pass: 22", "", "total: 22"]


def test_bad_position_is_a_usage_error():
    result = run_cli("moves", "--game", "loa", "bbbbbbbbb/8/8/8/8/8/8/8 b 0")
    assert result.code == 2 and "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("prototest: error: position ")


# -- what real bots taught us ----------------------------------------------------------------

def test_a_refused_first_answer_is_reported_before_the_extra_lines(tmp_path):
    """echoes_input.py writes every input line back: the referee acts on the first line
    ('w' or 'b', no move), so that is the first finding; the lines after it come second.
    Both carry the answer time the transcript shows."""
    result = check(tmp_path, "impasse", "echoes_input.py", "--seed", "1")
    assert result.code == 1
    for game in result.report["games"]:
        found = [f for f in result.findings() if f["game"] == game["game"]]
        assert [(f["kind"], f["severity"]) for f in found] == [("malformed", "fail"), ("unexpected_output", "fail")]
        refused, extra = found
        assert refused["got"] == game["seat"] and f"'{game['seat']}' is not a move" in refused["message"]
        assert extra["message"].startswith(f"after '{game['seat']}' it wrote '") and "more lines" in extra["message"]
        assert refused["elapsed_ms"] is not None and extra["elapsed_ms"] >= refused["elapsed_ms"]
        assert (game["result"], game["reason"]) == ("forfeit", "malformed")
        text = Path(refused["transcript"]).read_text()
        assert f"<  {game['seat']:<40} [{refused['elapsed_ms']:.1f} ms]" in text
    out = result.stdout
    assert out.index("FAIL malformed (game 1") < out.index("FAIL unexpected_output (game 1")


def test_the_default_games_fail_a_bot_that_fails_one_game_in_three(tmp_path):
    """With no --games, check plays 24 games, the seats in turn: a bot that plays an illegal
    move in about one game out of three passes them with a chance of (2/3)^24, 6e-5 (the 2
    games of the old default, 4 in 9; with seed 1 they passed it: its first failing game is the 7th).
    --max-fail 0: every game is played, and counted (by default the run stops at its second failure)."""
    result = run_cli("check", "--game", "loa", "--max-fail", "0", str(LOA / "illegal_one_game_in_three.py"),
                     tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    games = result.report["games"]
    assert [g["seat"] for g in games] == ["b", "w"] * 12
    failed = [g for g in games if g["checks"]["legality"] == "fail"]
    assert 0 < len(failed) < 24 and result.kinds() == {"illegal_move"}, result.stdout
    assert f"FAIL: {len(failed)} of 24 games failed (" in result.stdout


def test_folded_warnings_keep_their_limits_apart(tmp_path):
    """A slow first answer (2000 ms limit) and slow later ones (300 ms) are two warnings,
    and the folded one keeps every occurrence's figures."""
    # Warned from 50 % of a limit, the bot at 65 % on its first answer and 55 % on the next
    # three: 1400 ms and 270 ms between its answers and their limits, for a busy machine
    # (which only ever makes an answer later); 600 ms over the warning on the first, which
    # holds the interpreter's start: the time the machine kept from it is taken off (seen
    # beside two CPU burners: 2,301 ms for a 2.2 s sleep, not warned).
    result = check(tmp_path, "loa", "near_limits.py", "--seat", "b", "--time-scale", "4",
                   "--set", "time.near_limit_percent=50")
    assert result.code == 0, result.stdout + result.stderr
    slow = sorted(result.findings(), key=lambda f: f["turn"])
    assert [(f["kind"], f["severity"], f["limit_ms"], f["count"]) for f in slow] == \
        [("slow", "warn", 4000.0, 1), ("slow", "warn", 600.0, 3)], result.stdout
    first, later = slow
    assert "of the 4000 ms it had" in first["message"] and "of the 600 ms it had" in later["message"]
    assert [o["turn"] for o in later["occurrences"]] == [2, 3, 4]
    # each within its limit (a slow warning, not a timeout) and no sooner than the bot slept
    assert all(o["limit_ms"] == 600.0 and 330 <= o["elapsed_ms"] < 600 for o in later["occurrences"])
    assert first["occurrences"] == [{"turn": 1, "ply": 0, "elapsed_ms": first["elapsed_ms"], "limit_ms": 4000.0}]
    low = min(o["elapsed_ms"] for o in later["occurrences"])
    high = max(o["elapsed_ms"] for o in later["occurrences"])
    assert f"of the 600 ms it had [3 times, answered in {low:.1f} to {high:.1f} ms]" in result.stdout \
        or (f"{low:.1f}" == f"{high:.1f}" and "of the 600 ms it had [3 times]" in result.stdout), result.stdout
    # the first answer is the slowest, and is named so (not "start-up")
    [shown] = re.findall(r"timing: first answer ([\d.]+) ms \(slowest\)", result.stdout) or [None]
    assert shown is not None and float(shown) >= 2600 and float(shown) > high, result.stdout


NODE = shutil.which("node")
SHIM = IMPASSE / "_codingame_readline.js"


def node_bot(name: str) -> list[str]:
    return ["--", NODE or "node", "-r", str(SHIM), str(IMPASSE / name)]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_docs_shim_runs_a_codingame_javascript_bot(tmp_path):
    """The readline() shim of docs/languages.md is this file, and with it a bot written for the
    site's JavaScript runtime passes as both colours."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "languages.md").read_text()
    blocks = re.findall(r"```js\n(.*?)```", page, re.S)
    assert blocks == [SHIM.read_text()]
    result = check(tmp_path, "impasse", node_bot("readline_bot.js"), "--seed", "2")
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [] and "PASS: 2 games" in result.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_node_stack_trace_shows_its_error_line(tmp_path):
    result = check(tmp_path, "impasse", node_bot("reference_error.js"), "--seed", "1")
    assert result.code == 1
    found = result.findings()
    assert [(f["kind"], f["turn"]) for f in found] == [("crash", 2), ("crash", 2)], result.stdout
    for f in found:
        assert f["message"] == ("the bot exited with status 1 on its turn 2, before answering; stderr shows "
                                "a Node.js stack trace: ReferenceError: evaluateMoves is not defined")
        assert f["stderr_error"] == "ReferenceError: evaluateMoves is not defined"
        # the console's last stderr lines are frames; the error line is in the message
        assert not any("ReferenceError" in line for line in f["stderr_tail"][-5:])
    assert "ReferenceError: evaluateMoves is not defined" in result.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_bot_waiting_for_more_input_is_not_said_to_miss_a_flush(tmp_path):
    """reads_one_too_many.js waits for a line the judge never sends: sent one more line
    (the first of its request again), it answers and reads on, so no answer was stuck in
    a buffer."""
    result = check(tmp_path, "impasse", node_bot("reads_one_too_many.js"), "--seed", "1", "--seat", "w")
    [f] = result.findings()
    assert (f["kind"], f["turn"]) == ("timeout", 1)
    assert "flush" not in f["message"], f["message"]
    assert re.fullmatch(r"no answer within 1000 ms \(the first answer limit\); it read all 33 lines the judge sent "
                        r"since the start, then waited for more input that the protocol does not send: when the "
                        r"judge sent one more line \(the first of its request again\), it answered 'c7a5' [\d.]+ ms "
                        r"later and read on: it reads one line more than the judge sends", f["message"]), f["message"]


def test_a_python_bot_that_reads_one_line_too_many_is_not_said_to_miss_a_flush(tmp_path):
    """reads_one_too_many.py reads the line after the last legal move as a C++ getline
    loop does: at the end of input that read gives an empty line and it answers, flushed,
    so closing its input brings its answer out as it would a held one (it was told it does
    not flush). One more line (the first of its request again) brings the answer out while
    it runs on: it reads one line too many."""
    result = check(tmp_path, "loa", "reads_one_too_many.py", "--seed", "1", "--seat", "b")
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert (f["kind"], f["turn"]) == ("timeout", 1)
    assert re.fullmatch(r"no answer within 1000 ms \(the first answer limit\); it read all 47 lines the judge sent "
                        r"since the start, then waited for more input that the protocol does not send: when the "
                        r"judge sent one more line \(the first of its request again\), it answered '\w{4}' "
                        r"[\d.]+ ms later and read on: it reads one line more than the judge sends",
                        f["message"]), f["message"]
    transcript = Path(f["transcript"]).read_text().splitlines()
    probe = next(i for i, line in enumerate(transcript) if "the request again, its first line alone first" in line)
    assert transcript[probe + 1].endswith(">  .bbbbbb.") and "<  " in transcript[probe + 2], transcript[probe:]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_node_bot_computing_on_its_event_loop_is_too_slow_not_unflushed(tmp_path):
    """slow_event_loop.js computes 300 ms on its 2nd turn while a helper thread of Node's
    sits in epoll: the bot computes (its main thread runs), so its late answer is "too
    slow", never "does not flush" (issue 20: a TypeScript LOA bot and a Java bot were told so)."""
    # Without the accounting: on a loaded machine the waits of its clock-timed busy loop would
    # excuse it (busy_machine) or extend the read past its answer, and this test is about what
    # the late answer is blamed on.
    result = run_cli("check", "--game", "impasse", "--seed", "1", "--seat", "w", "--games", "1", "--",
                     NODE or "node", str(IMPASSE / "slow_event_loop.js"), tmp_path=tmp_path,
                     env={"PROTOTEST_NO_ACCOUNTING": "1"})
    [f] = result.findings("fail")
    assert (f["kind"], f["turn"]) == ("timeout", 2), f
    assert "came later: too slow" in f["message"] and "flush" not in f["message"], f["message"]


GXX = shutil.which("g++")


def compiled(tmp_path: Path, source: str) -> str:
    binary = tmp_path / Path(source).stem
    subprocess.run([GXX or "g++", "-O1", "-o", str(binary), str(LOA / source)], check=True, timeout=120)
    return str(binary)


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
def test_an_uncaught_cpp_exception_is_named_with_its_signal(tmp_path):
    bot = compiled(tmp_path, "throws_out_of_range.cpp")
    result = check(tmp_path, "loa", [bot], "--seed", "1")
    found = result.findings()
    assert [(f["kind"], f["turn"]) for f in found] == [("crash", 2), ("crash", 2)], result.stdout
    for f in found:
        assert f["message"].startswith(
            "the bot was killed by SIGABRT on its turn 2, before answering; stderr shows an uncaught C++ "
            "exception: terminate called after throwing an instance of 'std::out_of_range'; what(): "
            "vector::_M_range_check"), f["message"]
    assert "killed by SIGABRT on its turn 2" in result.stdout


@pytest.mark.skipif(GXX is None, reason="g++ is not installed")
def test_a_signal_at_the_exit_reads_as_a_sentence(tmp_path):
    """Not 'ended with killed by SIGABRT'."""
    bot = compiled(tmp_path, "aborts_at_eof.cpp")
    result = check(tmp_path, "loa", [bot], "--seed", "1")
    assert result.code == 0, result.stdout + result.stderr
    found = result.findings()
    assert {(f["kind"], f["severity"]) for f in found} == {("exit_status", "warn")} and len(found) == 2
    for f in found:
        assert f["message"] == ("the bot was killed by SIGABRT after its input was closed, and its stderr shows "
                                "an uncaught C++ exception: terminate called after throwing an instance of "
                                "'std::invalid_argument'; what(): stoi"), f["message"]
        assert f["got"].startswith("killed by SIGABRT")
    assert "ended with" not in result.stdout


GCC = shutil.which("gcc")


@pytest.mark.skipif(GCC is None, reason="gcc is not installed")
def test_a_failed_c_assert_is_quoted(tmp_path):
    """glibc's line for a failed assert() is the trace's error line: the FAIL quotes it."""
    binary = tmp_path / "asserts_on_turn_two"
    subprocess.run([GCC or "gcc", "-O1", "-o", str(binary), str(LOA / "asserts_on_turn_two.c")],
                   check=True, timeout=120)
    result = check(tmp_path, "loa", [str(binary)], "--seed", "1")
    assert result.code == 1, result.stdout + result.stderr
    found = result.findings()
    assert [(f["kind"], f["severity"], f["turn"]) for f in found] == [("crash", "fail", 2)] * 2, result.stdout
    for f in found:
        assert re.fullmatch(r"asserts_on_turn_two: .*asserts_on_turn_two\.c:\d+: find: Assertion [`']ind != -1' "
                            r"failed\.", f["stderr_error"]), f["stderr_error"]
        assert f["message"] == ("the bot was killed by SIGABRT on its turn 2, before answering; stderr shows a "
                                f"failed assert(): {f['stderr_error']}")
    assert "stderr shows a failed assert(): asserts_on_turn_two: " in result.stdout
