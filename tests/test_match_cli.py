"""`prototest match` and `check --opponent` through the real CLI (issue 23): two bundled bots
per game, a bot against a faulty copy (its forfeits named and counted as its losses), the
SPRT stopping a match early, and a faulty opponent in `check` that is never the candidate's."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from conftest import BOTS, CHESS_FAST, RUN_TOKEN, not_busy, run_cli

PY = shlex.quote(sys.executable)


def bundled(game: str) -> str:
    return f"{PY} -m prototest.bots.{game}_bot"


def faulty(game: str, name: str) -> str:
    return f"{PY} {shlex.quote(str(BOTS / game / name))}"


#: Per game: options that keep its games short, and a faulty bot that faults in every game.
GAMES = {
    "chess": ((*CHESS_FAST,), "illegal_move.py", "illegal_move"),
    "impasse": ((), "impasse_while_slide.py", "illegal_move"),
    "loa": ((), "too_slow.py", "timeout"),
    "halma": ((), "moves_opponent_piece.py", "illegal_move"),
}


def match(tmp_path: Path, a: str, b: str, game: str, *extra: str):
    report = tmp_path / "match.json"
    result = run_cli("match", a, b, "--game", game, "--env", RUN_TOKEN, "--json", str(report),
                     "--transcripts", str(tmp_path / "transcripts"), *extra, tmp_path=tmp_path)
    result.raw = json.loads(report.read_text()) if report.exists() else None
    result.report = not_busy(result.raw)  # as run_cli gives it
    return result


@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_bundled_bots(tmp_path, game):
    fast, _, _ = GAMES[game]
    result = match(tmp_path, bundled(game), bundled(game), game, "--games", "2", "--jobs", "1", *fast)
    assert result.code == 0, result.stdout + result.stderr
    data = result.report
    assert data["passed"] and data["findings"] == {"A": [], "B": []}
    games = data["games"]
    assert [g["pair"] for g in games] == [1, 1]
    assert games[0]["seats"]["A"] == games[1]["seats"]["B"]  # the seats swapped within the pair
    assert games[0]["opening"] == games[1]["opening"]
    for g in games:
        assert g["result"] in ("win", "loss", "draw"), g
        assert g["plies"] > 0 and g["reason"]
    stats = data["statistics"]
    assert stats["pairs"] == 1 and sum(stats["pentanomial"]) == 1
    assert sum(stats["wdl"]) == 2
    assert any(line.startswith("Ptnml(0-2): [") for line in stats["lines"])
    assert "Results of A vs B (2 games, 1 pairs):" in result.stdout
    assert "PASS: both bots passed every check" in result.stdout


@pytest.mark.parametrize("game", sorted(GAMES))
def test_faulty_copy_forfeits_are_its_losses(tmp_path, game):
    fast, bot, kind = GAMES[game]
    result = match(tmp_path, bundled(game), faulty(game, bot), game, "--games", "4", "--jobs", "1", *fast)
    assert result.code == 1, result.stdout + result.stderr
    data = result.report
    assert data["findings"]["A"] == []
    assert [f["kind"] for f in data["findings"]["B"]] == [kind] * 4
    assert [f["game"] for f in data["findings"]["B"]] == [1, 2, 3, 4]
    for g in data["games"]:
        assert g["result"] == "win" and g["scores"] == {"A": 1.0, "B": 0.0}, g
        assert g["reason"] == f"the opponent forfeited: {kind}"
        assert g["ended"] == f"A won by B's forfeit: {kind}"
        assert g["findings"]["A"] == [] and g["findings"]["B"][0]["kind"] == kind
    assert data["results"] == {"wins": 4, "draws": 0, "losses": 0, "without_result": 0,
                               "forfeited_by": {"A": 0, "B": 4}}
    assert data["statistics"]["pentanomial"] == [0, 0, 0, 0, 2]
    out = result.stdout
    assert out.count(f"A won by B's forfeit: {kind}") >= 4
    assert "won by the opponent's forfeit: A 4 (B forfeited), B 0 (A forfeited)" in out
    assert "A's findings: none" in out
    assert f"B's findings (4 games with a failure):\n  FAIL {kind} (game 1" in out
    assert "Games: 4, Wins: 4, Losses: 0, Draws: 0, Points: 4.0 (100.00 %)" in out
    assert out.rstrip().splitlines()[-1] == "FAIL: B failed a check; A 4 - B 0"
    # both bots' lines in the one transcript, B's marked
    transcript = Path(data["games"][0]["transcript"]).read_text()
    assert "[opponent] FAIL " + kind in transcript


def test_faulty_bot_as_a_loses_by_its_forfeit(tmp_path):
    pgn = tmp_path / "match.pgn"
    result = match(tmp_path, faulty("chess", "crash_third_turn.py"), bundled("chess"), "chess",
                   "--games", "2", "--jobs", "2", "--pgn", str(pgn), *CHESS_FAST)
    assert result.code == 1, result.stdout + result.stderr
    data = result.report
    assert data["findings"]["B"] == []
    assert [f["kind"] for f in data["findings"]["A"]] == ["crash", "crash"]
    assert [g["ended"] for g in data["games"]] == ["B won by A's forfeit: crash"] * 2
    assert data["results"]["losses"] == 2 and data["results"]["forfeited_by"] == {"A": 2, "B": 0}
    assert "FAIL: A failed a check; A 0 - B 2" in result.stdout
    import chess.pgn

    with pgn.open() as fh:
        games = [chess.pgn.read_game(fh), chess.pgn.read_game(fh)]
    assert [g.headers["Result"] for g in games] == ["0-1", "1-0"]  # A white, then A black: A lost both
    assert [g.headers["Termination"] for g in games] == ["rules infraction"] * 2
    assert games[0].headers["Ended"] == "Black won by White's forfeit: crash"
    assert games[0].headers["White"] == faulty("chess", "crash_third_turn.py")
    assert [m.uci() for m in games[0].mainline_moves()][:4] == data["games"][0]["moves"][:4]


def test_sprt_stops_a_clearly_stronger_bot_early(tmp_path):
    result = match(tmp_path, bundled("chess"), faulty("chess", "random_answers.py"), "chess",
                   "--games", "200", "--jobs", "2", "--sprt", "elo0=0 elo1=100 alpha=0.05 beta=0.05",
                   *CHESS_FAST)
    assert result.code == 0, result.stdout + result.stderr
    data = result.report
    sprt = data["statistics"]["sprt"]
    assert sprt["decision"] == "H1" and sprt["model"] == "normalized" and sprt["kind"] == "pentanomial"
    assert sprt["stopped_the_match"]
    assert len(data["games"]) < 60
    assert any(line.startswith("LLR: ") for line in data["statistics"]["lines"])
    assert "SPRT (normalized model, pentanomial): H1 accepted" in result.stdout


def test_junit_has_a_suite_per_bot(tmp_path):
    import xml.etree.ElementTree as ET

    junit = tmp_path / "match.xml"
    result = match(tmp_path, bundled("impasse"), faulty("impasse", "impasse_while_slide.py"), "impasse",
                   "--games", "2", "--junit", str(junit))
    assert result.code == 1, result.stdout + result.stderr
    suites = ET.parse(junit).getroot().findall("testsuite")
    assert [(s.get("name"), s.get("failures")) for s in suites] == [
        ("prototest.play.match.impasse.A", "0"), ("prototest.play.match.impasse.B", "2")]
    failures = suites[1].findall("testcase/failure")
    assert [f.get("type") for f in failures] == ["illegal_move", "illegal_move"]


def test_usage_errors(tmp_path):
    one = run_cli("match", bundled("chess"), "--game", "chess", tmp_path=tmp_path)
    assert one.code == 2 and "two bots or more" in one.stderr
    odd = run_cli("match", bundled("chess"), bundled("chess"), "--games", "3", tmp_path=tmp_path)
    assert odd.code == 2 and "even number" in odd.stderr
    halma = run_cli("match", bundled("halma"), bundled("halma"), "--game", "halma", "--openings-plies", "2",
                    tmp_path=tmp_path)
    assert halma.code == 2 and "never sends the position" in halma.stderr
    sprt = run_cli("match", bundled("chess"), bundled("chess"), "--sprt", "elo0=5 elo1=0", tmp_path=tmp_path)
    assert sprt.code == 2 and "--sprt" in sprt.stderr
    pgn = run_cli("match", bundled("loa"), bundled("loa"), "--game", "loa", "--pgn", "x.pgn", tmp_path=tmp_path)
    assert pgn.code == 2 and "--pgn" in pgn.stderr


# -- check --opponent ------------------------------------------------------------------------

def test_check_against_a_faulty_opponent_bot_passes(tmp_path):
    result = run_cli("check", "--game", "chess", "--games", "2", *CHESS_FAST,
                     "--opponent", faulty("chess", "crash_third_turn.py"),
                     "--", sys.executable, "-m", "prototest.bots.chess_bot", tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == []
    opp = result.report["opponent_findings"]
    assert [f["kind"] for f in opp] == ["crash", "crash"]
    for g in result.report["games"]:
        assert g["result"] == "win" and g["reason"] == "the opponent forfeited: crash"
        assert set(g["checks"].values()) == {"pass"}
        assert g["opponent"].startswith("bot: ")
    assert "the opponent's findings (the opponent bot's, not the bot's; 2 games won by its forfeit):" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("PASS: 2 games")


def test_check_against_a_bundled_opponent_bot(tmp_path):
    result = run_cli("check", "--game", "loa", "--games", "2", "--opponent", bundled("loa"),
                     "--", sys.executable, "-m", "prototest.bots.loa_bot", tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [] and result.report["opponent_findings"] == []
    for g in result.report["games"]:
        assert g["result"] in ("win", "loss", "draw") and not g["reason"].startswith("the opponent forfeited")


def test_check_with_a_faulty_candidate_against_a_bot(tmp_path):
    """The candidate's fault stays the candidate's: the opponent bot is clean."""
    result = run_cli("check", "--game", "impasse", "--games", "2", "--opponent", bundled("impasse"),
                     str(BOTS / "impasse" / "impasse_while_slide.py"), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    assert result.kinds("fail") == {"illegal_move"}
    assert result.report["opponent_findings"] == []
    assert all(g["result"] == "forfeit" for g in result.report["games"])


def test_check_opponent_usage(tmp_path):
    bad = run_cli("check", "--game", "chess", "--opponent", "/nonexistent/bot", "--",
                  sys.executable, "-m", "prototest.bots.chess_bot", tmp_path=tmp_path)
    assert bad.code == 2 and "--opponent" in bad.stderr
    both = run_cli("check", "--game", "chess", "--opponent", bundled("chess"), "--opponent-moves", "e7e5",
                   "--", sys.executable, "-m", "prototest.bots.chess_bot", tmp_path=tmp_path)
    assert both.code == 2 and "--opponent-moves" in both.stderr


def test_a_rule_that_blames_b_is_a_finding_of_b(tmp_path):
    """Halma's blocker rule ends the game as a loss that Proglad calls the player's error:
    the finding goes to the bot it blames, here B."""
    result = match(tmp_path, bundled("halma"), faulty("halma", "keeps_a_corner_piece.py"), "halma", "--games", "2")
    assert result.code == 0, result.stdout + result.stderr
    data = result.report
    assert data["findings"]["A"] == []
    assert [(f["kind"], f["severity"]) for f in data["findings"]["B"]] == [("rule_loss", "warn")] * 2
    assert [g["scores"]["A"] for g in data["games"]] == [1.0, 1.0]


def test_round_robin_of_three_bots(tmp_path):
    result = match(tmp_path, bundled("loa"), faulty("loa", "too_slow.py"), "loa", bundled("loa"),  # a third bot
                   "--games", "2", "--jobs", "1")
    assert result.code == 1, result.stdout + result.stderr
    data = result.report
    assert data["mode"] == "round robin" and data["games_total"] == 6
    assert [p["bots"] for p in data["pairings"]] == [["A", "B"], ["A", "C"], ["B", "C"]]
    assert [g["pairing"] for g in data["games"]] == [["A", "B"]] * 2 + [["A", "C"]] * 2 + [["B", "C"]] * 2
    assert data["findings"]["A"] == [] and data["findings"]["C"] == []
    assert [f["game"] for f in data["findings"]["B"]] == [1, 2, 5, 6]
    assert data["failing"] == ["B"]
    assert [g["ended"] for g in data["games"] if "B" in g["pairing"]] == [
        "A won by B's forfeit: timeout"] * 2 + ["C won by B's forfeit: timeout"] * 2
    standings = {row["bot"]: row for row in data["standings"]}
    assert standings["B"]["points"] == 0 and standings["B"]["losses"] == 4
    assert standings["A"]["points"] + standings["C"]["points"] == 6
    assert "Results of B vs C (2 games, 1 pairs):" in result.stdout
    assert "results" not in data  # per pairing only


def test_gauntlet(tmp_path):
    result = match(tmp_path, bundled("impasse"), bundled("impasse"), "impasse",
                   faulty("impasse", "impasse_while_slide.py"), "--games", "2", "--gauntlet")
    assert result.code == 1, result.stdout + result.stderr
    data = result.report
    assert data["mode"] == "gauntlet"
    assert [p["bots"] for p in data["pairings"]] == [["A", "B"], ["A", "C"]]
    assert [f["kind"] for f in data["findings"]["C"]] == ["illegal_move"] * 2
    assert data["pairings"][1]["results"]["forfeited_by"] == {"A": 0, "C": 2}
    two = run_cli("match", bundled("impasse"), bundled("impasse"), "--game", "impasse", "--gauntlet", tmp_path=tmp_path)
    assert two.code == 2 and "three bots" in two.stderr
    sprt = run_cli("match", bundled("impasse"), bundled("impasse"), bundled("impasse"), "--game", "impasse",
                   "--sprt", "elo0=0 elo1=5", tmp_path=tmp_path)
    assert sprt.code == 2 and "two" in sprt.stderr


def test_chess_opening_books(tmp_path):
    epd = tmp_path / "book.epd"
    epd.write_text('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";\n'
                   'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id "two knights";\n')
    result = match(tmp_path, bundled("chess"), bundled("chess"), "chess", "--games", "4", "--openings", str(epd),
                   *CHESS_FAST)
    assert result.code == 0, result.stdout + result.stderr
    openings = [g["opening"]["fen"] for g in result.report["games"]]
    assert openings[0] == openings[1] and openings[2] == openings[3] and openings[0].startswith("rnbqkbnr/pppppppp/8/8/4P3")
    assert result.report["games"][0]["moves"][0][1] in "5678"  # Black moves first from the book's position
    assert f"openings from {epd}" in result.stdout

    pgn = tmp_path / "book.pgn"
    pgn.write_text('[Event "a"]\n\n1. d4 d5 2. c4 e6 *\n\n[Event "b"]\n\n1. e4 c5 2. Nf3 d6 3. d4 *\n')
    result = match(tmp_path, bundled("chess"), bundled("chess"), "chess", "--games", "4", "--openings", str(pgn),
                   "--openings-plies", "3", *CHESS_FAST)
    assert result.code == 0, result.stdout + result.stderr
    assert [g["opening"]["moves"] for g in result.report["games"]] == [
        ["d2d4", "d7d5", "c2c4"]] * 2 + [["e2e4", "c7c5", "g1f3"]] * 2
    assert all(g["moves"][:3] == g["opening"]["moves"] for g in result.report["games"])

    bad = run_cli("match", bundled("loa"), bundled("loa"), "--game", "loa", "--openings", str(pgn), tmp_path=tmp_path)
    assert bad.code == 2 and "--openings" in bad.stderr


def test_check_opponent_shards_merge_the_opponents_findings(tmp_path):
    for i in (1, 2):
        shard = run_cli("check", "--game", "chess", "--games", "2", "--shard", f"{i}/2", *CHESS_FAST, "--env", RUN_TOKEN,
                        "--opponent", faulty("chess", "crash_third_turn.py"), "--json", str(tmp_path / f"{i}.json"),
                        "--", sys.executable, "-m", "prototest.bots.chess_bot", tmp_path=tmp_path)
        assert shard.code == 0, shard.stdout + shard.stderr
    merged = run_cli("merge", str(tmp_path / "1.json"), str(tmp_path / "2.json"), "--json", str(tmp_path / "m.json"),
                     tmp_path=tmp_path)
    assert merged.code == 0, merged.stdout + merged.stderr
    data = json.loads((tmp_path / "m.json").read_text())
    assert [f["game"] for f in data["opponent_findings"]] == [1, 2] and data["findings"] == []
    assert "2 games won by its forfeit" in merged.stdout


def test_match_interrupted_keeps_the_games_so_far(tmp_path):
    import signal
    import subprocess
    import time

    import uuid

    from conftest import bot_env, bots_with

    report = tmp_path / "match.json"
    token = f"PROTOTEST_MATCH_TEST={uuid.uuid4().hex}"
    proc = subprocess.Popen([sys.executable, "-m", "prototest", "match", bundled("chess"), faulty("chess", "hangs.py"),
                             "--game", "chess", "--games", "4", "--jobs", "1", "--start-delay", "100",
                             "--env", RUN_TOKEN, "--env", token, "--json", str(report)],
                            cwd=tmp_path, env=bot_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    # game 1 under way once both its bots run (found by the token, not a guess at a time):
    # B hangs on its first turn (a 10 s clock)
    deadline = time.monotonic() + 60
    while len(bots_with(token)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # the colour lines sent
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, out + err
    data = json.loads(report.read_text())
    assert data["interrupted"] == "SIGTERM" and not data["passed"]
    assert [g["result"] for g in data["games"]] == ["interrupted"]
    assert data["findings"] == {"A": [], "B": []}  # neither bot blamed for the interruption
    assert "INTERRUPTED by SIGTERM" in out


def test_a_long_match_counts_how_its_games_ended(tmp_path):
    result = match(tmp_path, bundled("loa"), faulty("loa", "ignores_pass.py"), "loa", "--games", "42")
    assert result.code == 0, result.stdout + result.stderr
    assert "how the 42 games ended (each game in the JSON report):" in result.stdout
    assert "  game  pair  seats" not in result.stdout
    counted = [line for line in result.stdout.splitlines() if line.startswith("      ") and " won " in line]
    assert sum(int(line.split()[0]) for line in counted) == 42
    assert len(result.report["games"]) == 42


def test_both_bots_are_told_the_game_is_over_before_either_exit_is_waited_for(tmp_path):
    """The exit grace runs for both bots at once: the opponent's input is closed before
    the bot's, and both before the first exit is waited for."""
    result = match(tmp_path, bundled("impasse"), bundled("impasse"), "impasse", "--games", "2", "--jobs", "1")
    assert result.code == 0, result.stdout + result.stderr
    for g in result.report["games"]:
        notes = [line.split("#  ", 1)[1] for line in Path(g["transcript"]).read_text().splitlines()
                 if "#  " in line and ("stdin closed" in line or "exited" in line)]
        assert notes[:2] == ["[opponent] stdin closed", "stdin closed"], notes
        assert sorted(notes[2:]) == ["[opponent] exited: exit status 0", "exited: exit status 0"], notes
