"""The summary of a check of many games (the default is 24) stays readable when a fault
shows in every game: of each kind, two findings in full, eight a line each, then one line
that names the games of the rest."""

from __future__ import annotations

from prototest.judge import spec as specmod
from prototest.judge.findings import Finding
from prototest.judge.game import CheckRun, GameReport
from prototest.reports.summary import summary
from prototest.reports.text import findings_lines, game_ranges


def test_a_fault_in_every_game_is_shown_twice_in_full_then_folded():
    fails = [Finding("crash", "fail", f"exited with status 1 on its turn 3 ({i})", game=i, turn=3,
                     position="8/8/8/8/8/8/8/8 w - - 0 1", expected="a move", got="",
                     transcript=f"/t/chess-{i:03}.txt") for i in range(1, 25)]
    warns = [Finding("no_exit", "warn", "still running", game=i, transcript=f"/t/chess-{i:03}.txt") for i in (4, 9)]
    lines = findings_lines(warns + fails)
    heads = [line for line in lines if line.startswith(("FAIL", "WARN"))]
    assert heads[:10] == [f"FAIL crash (game {i}, turn 3): exited with status 1 on its turn 3 ({i})" for i in range(1, 11)]
    assert heads[10] == "FAIL crash in 14 more games: 11-24 (transcripts in /t)"
    assert heads[11:] == ["WARN no_exit (game 4): still running", "WARN no_exit (game 9): still running"]
    evidence = [line for line in lines if line.startswith("    position: ")]
    assert len(evidence) == 2  # games 1 and 2 only
    assert lines.count("    transcript: /t/chess-009.txt") == 1  # the warnings, each in full


def test_game_ranges():
    assert game_ranges([3, 5, 7, 8, 9, 10, 24]) == "3, 5, 7-10, 24"
    assert game_ranges([1, 2]) == "1, 2"


def test_a_run_of_slow_games_folds_its_re_checks_and_gives_the_verdict_per_seat():
    run = CheckRun(specmod.load(specmod.spec_path_for("loa")), ["./bot"], 1, 1.0)
    for i in range(1, 25):
        game = GameReport(i, (i - 1) % 2, "bw"[(i - 1) % 2], i, result="forfeit", rechecked="timeout (155 ms)")
        if i != 5:  # game 5 had no timing finding alone: it passed
            game.findings.append(Finding("timeout", "fail", "no answer within 150 ms", game=i, turn=3))
        run.games.append(game)
    lines = summary(run).splitlines()
    rechecks = [line for line in lines if line.startswith("  re-checked alone: ")]
    assert rechecks == [
        "  re-checked alone: game 1 had a timing finding (timeout (155 ms)) while other games ran at once; "
        "the same alone",
        "  re-checked alone: game 2 had a timing finding (timeout (155 ms)) while other games ran at once; "
        "the same alone",
        "  re-checked alone: 22 more games had a timing finding while other games ran at once (3-24); "
        "the same alone in 21, none alone in 1"]
    assert lines[-1] == "FAIL: 23 of 24 games failed (11 of 12 as black, 12 of 12 as white)"
