"""The summary of a check of many games (the default is 24) stays readable when a fault
shows in every game: of each kind, two findings in full, eight a line each, then one line
that names the games of the rest."""

from __future__ import annotations

from prototest.findings import Finding
from prototest.report import findings_lines, game_ranges


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
