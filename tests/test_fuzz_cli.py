"""`prototest fuzz` through the real CLI, against real bot processes.

Every example is a whole game against a swarm opponent; planted faults are found within
a test-sized, seeded budget and shrunk to a short reproducer whose replay command fails
the same way; correct bots of every kind (the bundled ones, one that answers at random
among equal moves, one that keeps its own board and aborts when started cold) pass and
get their whole budget; the time budget and the shrink budget are kept; failures are
replayed first from the example database; Ctrl-C keeps the report.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, RUN_TOKEN, bot_env, run_cli
from prototest import games

#: every installed game's reference bot (a plugin's game too)
REFERENCE = {name: [sys.executable, "-m", games.game(name).bot] for name in games.names()}
#: One campaign, a fixed number of examples and no time limit: the same examples on any
#: machine, however loaded (a time budget is tested on its own below).
SEEDED = ("--jobs", "1", "--budget", "0", "--no-database")


#: The planted-fault corpus of benchmarks/bench_fuzz_power.py (tests/bots/*/README.md says
#: what each fault is): fuzz finds each one, as the kind the fault is, within a test-sized
#: seeded budget (one campaign, a fixed number of examples, no time limit: the same run on
#: any machine) and shrinks it to a reproducer no longer than the bound. The seeds are
#: ones that find the fault early, to keep the suite fast; the benchmark times all seeds.
#: thinks_on_forced_move.py waits out its whole clock in every forced position, cold starts
#: included: a 2 s clock (time scale 0.2) keeps those waits short.
#: (game, bot, kind, seed, examples, longest reproducer in plies, extra options)
CORPUS = [
    ("chess", "chess/en_passant.py", "illegal_move", 1, 60, 10, ()),
    ("chess", "chess/king_next_to_king.py", "illegal_move", 3, 30, 130, ()),
    ("chess", "chess/halfmove_clock_digits.py", "crash", 11, 80, 300, ()),
    ("chess", "chess/thinks_on_forced_move.py", "timeout", 11, 60, 40, ("--time-scale", "0.2", "--shrink-examples", "3")),
    ("impasse", "impasse/crown_after_bear_off.py", "illegal_move", 1, 30, 80, ()),
    ("impasse", "impasse/transpose_bear_off_count.py", "crash", 11, 30, 120, ()),
    ("impasse", "impasse/history_sixty_turns.py", "crash", 1, 30, 250, ()),
    ("impasse", "impasse/slow_endgame.py", "timeout", 1, 30, 250, ()),
    ("loa", "loa/crash_few_checkers.py", "crash", 2, 80, 40, ()),
    ("loa", "loa/corner_diagonal_table.py", "crash", 1, 60, 30, ()),
    ("loa", "loa/cache_own_checkers.py", "illegal_move", 1, 60, 40, ()),
    ("loa", "loa/long_path_enemy.py", "illegal_move", 4, 160, 40, ()),
    ("halma", "halma/short_move_buffer.py", "crash", 1, 30, 40, ()),
    ("halma", "halma/corner_last_cell.py", "crash", 2, 30, 250, ()),
    ("halma", "halma/straggler_path_buffer.py", "crash", 2, 60, 250, ()),
    ("halma", "halma/slow_many_moves.py", "timeout", 6, 100, 200, ()),
]


def fuzz(tmp_path: Path, game: str, *bot_and_options: str, timeout: float = 300):
    return run_cli("fuzz", "--game", game, *bot_and_options, tmp_path=tmp_path, timeout=timeout)


def replay(command: str, tmp_path: Path):
    """Run a reproducer's `prototest check ...` command line."""
    args = shlex.split(command)
    assert args[:2] == ["prototest", "check"], command
    return run_cli(*args[1:], tmp_path=tmp_path / "replay")


@pytest.mark.parametrize("game,bot,kind,seed,examples,bound,extra", CORPUS, ids=[c[1] for c in CORPUS])
def test_each_planted_fault_of_the_corpus_is_found_and_shrunk(tmp_path, game, bot, kind, seed, examples, bound, extra):
    result = fuzz(tmp_path, game, "--jobs", "1", "--budget", "0", "--no-database", "--seed", str(seed),
                  "--examples", str(examples), "--shrink-examples", "20", *extra, str(BOTS / bot))
    assert result.code == 1, result.stdout + result.stderr
    report = result.report
    [f] = [f for f in report["findings"] if f["severity"] == "fail"]
    r = f["reproducer"]
    assert f["kind"] == kind, f
    assert r["confirmed"] is True, r
    print(f"{bot}: {r['plies']} plies before, plays {r['plays']}, cold {r['cold']}")
    if r["cold"] == "reproduces":  # a fresh bot shown the failing position: one exchange
        # (two for a timing fault: a first answer has the start-up's longer limit)
        assert r["plays"] == 2 * r["cold_turns"] - 1 and len(r["start_moves"]) == len(r["moves"]) + 2 - 2 * \
            r["cold_turns"], r
    else:
        assert r["plies"] <= bound, r
    assert f"FAIL {kind}" in result.stdout and f"replay:   {r['command']}" in result.stdout
    # played as fuzz played it: with no silence first (chess's spec keeps 1 s, the others none)
    assert ("--start-delay 0 " in r["command"]) == (game == "chess"), r["command"]


def test_a_stateless_bot_s_crash_in_a_position_reached_by_legal_play_is_a_failure(tmp_path):
    """GNU Chess, behind a judge-protocol adapter, crashes at a halfmove clock of 99 and
    over, which the judge's games reach before its 75-move rule. The state probe finds
    the bot answers as a running bot does, so a fresh bot started in a position that legal
    play reached is what a real game can show it: FAIL, exit 1, the position and one
    exchange as the reproducer (it was a 'seen only when started cold' warning, exit 0)."""
    result = fuzz(tmp_path, "chess", *SEEDED, "--seed", "1", "--examples", "60", "--mode", "position",
                  "--shrink-examples", "10", "--time-scale", "0.1", str(BOTS / "chess/crash_halfmove_99.py"))
    assert result.code == 1, result.stdout + result.stderr
    report = result.report
    assert report["state_probe"]["stateful"] is False, report["state_probe"]
    [f] = [f for f in report["findings"] if f["severity"] == "fail"]
    r = f["reproducer"]
    assert f["kind"] == "crash" and "SIGABRT" in f["message"], f
    assert (r["cold"], r["confirmed"], r["plays"]) == ("reproduces", True, 1), r
    fen = r["position"].split()
    assert int(fen[4]) >= 99, r["position"]
    assert "seen only when started cold" not in result.stdout and "FAIL crash" in result.stdout
    replayed = replay(r["command"], tmp_path)
    assert replayed.code == 1 and [x["kind"] for x in replayed.findings("fail")] == ["crash"], replayed.stdout


def test_a_halma_reproducer_s_opponent_moves_are_shortened(tmp_path):
    """Halma sends no position: the reproducer is a game, and its opponent moves shrink.
    short_move_buffer.py (a jump chain of four hops crashes it) fails at ply 34 of seed 1's
    first failing game (17 opponent moves, unshortened with --shrink-examples 0); the default
    80 shortening runs bring it to 20 plies or fewer, and the replay fails the same way."""
    result = fuzz(tmp_path, "halma", *SEEDED, "--seed", "1", "--examples", "10",
                  str(BOTS / "halma/short_move_buffer.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    r = f["reproducer"]
    assert f["kind"] == "crash" and r["mode"] == "game" and r["plies"] <= 20, r
    assert len(r["opponent_moves"]) <= 10 and "--opponent-moves" in r["command"], r
    replayed = replay(r["command"], tmp_path)
    assert replayed.code == 1 and [x["kind"] for x in replayed.findings("fail")] == ["crash"], replayed.stdout


@pytest.mark.parametrize("game", games.names())
def test_a_correct_bot_passes_whole_games_against_many_styles(tmp_path, game):
    result = fuzz(tmp_path, game, *SEEDED, "--examples", "12", "--", *REFERENCE[game])
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["passed"] is True and report["findings"] == [] and report["nondeterministic"] == []
    assert report["examples"] == 12 and report["ended"] == "examples"
    # Whole games: many answers an example, and several opponent styles.
    assert report["timing"]["answers"] > 12 * 5, report["timing"]
    assert len(report["styles"]) >= 3 and sum(report["styles"].values()) == 12, report["styles"]
    assert any(name.startswith("game end: ") for name in report["situations"]), report["situations"]
    assert "situations reached (examples):" in result.stdout and "opponent styles (examples):" in result.stdout
    assert result.stdout.rstrip().endswith("PASS: 12 examples, no failure")
    # --no-database: nothing of Hypothesis's is left in the folder (its cache of constants
    # read from prototest's own source, when that is a checkout, was: lazy.no_local_constants)
    assert not (tmp_path / ".hypothesis").exists(), sorted(p.name for p in (tmp_path / ".hypothesis").rglob("*"))[:5]


def test_a_bot_that_answers_at_random_among_equal_moves_gets_its_whole_budget(tmp_path):
    """Its differing answers change the games, never what Hypothesis draws: all 40
    examples run, no Hypothesis error, and the non-determinism is a warning with both
    answers."""
    result = fuzz(tmp_path, "impasse", *SEEDED, "--examples", "40", str(BOTS / "impasse/random_among_equals.py"))
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["examples"] == 40 and report["stopped_early"] is None, report
    assert "Hypothesis" not in result.stdout + result.stderr
    [first, *_] = report["nondeterministic"]
    assert first["first"] != first["second"] and first["sent"]
    assert "WARN nondeterministic: the same input got" in result.stdout


def test_a_bot_that_keeps_its_own_board_is_fuzzed_with_games_from_the_start(tmp_path):
    """It aborts when started mid-game, as real bots that keep state do: the state probe
    sees it and turns position mode off, so it passes (it is correct in real games)."""
    # (seed 2: its first position example, which the probe comes before, is within the 15)
    result = fuzz(tmp_path, "loa", *SEEDED, "--seed", "2", "--examples", "15", str(BOTS / "loa/keeps_board.py"))
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["mode"] == "mixed" and report["modes"] == ["game"], report
    probe = report["state_probe"]
    assert probe["stateful"] is True and "position mode" in probe["message"], probe
    assert "a fresh bot failed (crash" in probe["message"], probe
    assert "state probe:" in result.stdout and report["examples"] == 15 and report["findings"] == []


def test_a_stateless_bot_keeps_position_mode(tmp_path):
    # the first 4 examples are games drawn as check draws them; the probe comes before
    # the first example that would start the bot cold
    result = fuzz(tmp_path, "loa", *SEEDED, "--examples", "8", "--", *REFERENCE["loa"])
    report = result.report
    assert report["modes"] == ["game", "position"] and report["state_probe"]["stateful"] is False, report
    assert report["drawn"] >= 4, report


def test_a_failure_that_does_not_come_back_is_marked_so(tmp_path):
    counter = tmp_path / "counter"
    counter.mkdir()
    result = fuzz(tmp_path, "chess", *SEEDED, "--examples", "40", "--env", f"COUNTER_DIR={counter}",
                  "--set", "severity.file_operation=ignore",  # its counter file: not this test's subject
                  str(BOTS / "chess/crashes_every_other_run.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "crash"
    # the printed replay (its --env and --set passed on) was run as printed: every other run
    # crashes, so not every try failed the same way, and the text says how many did
    replayed = f["reproducer"]["replay"]
    assert f["reproducer"]["reproducible"] is False and replayed["failed_same_way"] < replayed["tries"], replayed
    assert "--set severity.file_operation=ignore" in replayed["command"] and "--env COUNTER_DIR=" in replayed["command"]
    text = " ".join(result.stdout.split())
    assert f"(its replay failed the same way {replayed['failed_same_way']} of {replayed['tries']} tries)" in text


def test_failures_found_once_are_replayed_first(tmp_path):
    bot = str(BOTS / "loa/crash_few_checkers.py")
    # A seed that finds the crash after a few examples; one shrinking run (the replay): the
    # example database is this test's subject, not shortening. Which seed does depends on
    # the constants Hypothesis finds in the source of the modules loaded (prototest's own,
    # from a checkout): the first of a few that does.
    for seed in ("5", "1", "2", "3", "4", "6"):
        database = tmp_path / seed / "db"
        options = ("--jobs", "1", "--budget", "0", "--examples", "200", "--mode", "game", "--seed", seed,
                   "--shrink-examples", "1")
        first = fuzz(tmp_path / seed / "first", "loa", *options, "--database", str(database), bot)
        if first.code == 1 and first.report["first_failure_example"] > 1:
            break
    assert first.code == 1 and first.report["first_failure_example"] > 1, first.report
    assert any(database.rglob("*")), "nothing was saved in the example database"
    second = fuzz(tmp_path / seed / "second", "loa", *options, "--database", str(database), bot)
    assert second.code == 1
    assert second.report["first_failure_example"] == 1, second.report
    [f] = second.findings("fail")
    assert f["kind"] == "crash"


def test_the_time_budget_ends_the_run_and_says_so(tmp_path):
    result = fuzz(tmp_path, "loa", "--budget", "4s", "--jobs", "1", "--no-database", "--", *REFERENCE["loa"])
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    # the budget, not the examples, ended it, and all of it was used (how soon after it the
    # last game ended is the machine's business: no upper bound on a real run's time)
    assert report["ended"] == "budget" and report["budget_s"] == 4 and report["examples"] > 1, report
    assert report["elapsed_s"] >= 4, report["elapsed_s"]
    assert "the 4 s budget ran out" in result.stdout


def test_a_game_the_budget_stops_while_the_bot_thinks_blames_the_bot_for_nothing(tmp_path):
    """The budget ends mid-answer: the answer that comes after is the game's, cut short by
    prototest, not output after the end (once a WARN on correct bots)."""
    result = fuzz(tmp_path, "chess", "--budget", "2s", "--jobs", "1", "--no-database",
                  str(BOTS / "chess/thinks_half_a_second.py"))
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["ended"] == "budget" and report["timing"]["answers"] >= 1, report
    assert report["findings"] == [], report["findings"]


def test_the_budget_never_hides_a_bot_that_stops_answering(tmp_path):
    """A bot that never answers, a budget (0.3 s) shorter than its clock (1 s): the first
    example is always played and its answer judged to its limit, so the run fails (it said
    INCOMPLETE, status 2, before issue 20), about a clock past the budget, and one more for
    the run alone that confirms a timing failure."""
    result = fuzz(tmp_path, "chess", "--budget", "0.3s", "--time-scale", "0.1", "--jobs", "1", "--no-database",
                  str(BOTS / "chess/hangs.py"))
    assert result.code == 1, result.stdout + result.stderr
    assert result.kinds("fail") == {"timeout"} and "INCOMPLETE" not in result.stdout, result.stdout
    # judged to its limit, the whole clock, though the budget ran out long before
    [f] = result.findings("fail")
    assert f["limit_ms"] == 1000 and f["elapsed_ms"] >= f["limit_ms"], f


def test_the_shrink_budget_counts_every_run_after_the_first_failure(tmp_path):
    result = fuzz(tmp_path, "halma", *SEEDED, "--examples", "50", "--shrink-examples", "6",
                  str(BOTS / "halma/short_move_buffer.py"))
    assert result.code == 1, result.stdout + result.stderr
    report = result.report
    assert report["shrink_runs"] <= 6, report
    assert report["runs"] == report["examples"] + report["shrink_runs"], report


def test_jobs_run_at_once_and_merge_into_one_report(tmp_path):
    result = fuzz(tmp_path, "loa", "--jobs", "2", "--budget", "0", "--no-database", "--examples", "10",
                  "--", *REFERENCE["loa"])
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["jobs"] == 2 and report["examples"] == 10 and sum(report["styles"].values()) == 10, report
    assert "2 jobs" in result.stdout


def test_a_failure_found_by_one_worker_stops_the_other_and_is_reported_once(tmp_path):
    # A few shrinking runs: stopping the other worker, not shortening, is the subject here.
    result = fuzz(tmp_path, "halma", "--jobs", "2", "--budget", "60s", "--no-database", "--shrink-examples", "6",
                  str(BOTS / "halma/short_move_buffer.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    assert f["kind"] == "crash" and f["reproducer"]["worker"] in (1, 2)
    assert result.stdout.count("FAIL crash") == 1


def test_a_bot_gone_before_the_judge_writes_is_a_crash_with_jobs_too(tmp_path):
    """A worker's write to a bot that has exited is a broken pipe, and so a crash finding,
    as in a single campaign (it once killed the worker by SIGPIPE: an internal error, 3)."""
    bot = tmp_path / "exits.sh"
    bot.write_text("#!/bin/sh\nexit 1\n")
    bot.chmod(0o755)
    result = fuzz(tmp_path, "chess", "--jobs", "2", "--budget", "30s", "--no-database", "--shrink-examples", "2",
                  str(bot))
    assert result.code == 1, result.stdout + result.stderr
    assert result.kinds("fail") == {"crash"} and "internal error" not in result.stderr, result.findings()


def test_a_game_mode_failure_is_shown_cold_and_shrinks_to_one_exchange(tmp_path):
    """Found in a game from the start, the failing position shown to a fresh bot fails
    the same way: the reproducer is that position and one exchange, with a board diagram,
    and its replay command fails the same way."""
    # 10 shrinking runs (not the default 80): the cold retry, a shorter path, the replay.
    result = fuzz(tmp_path, "chess", *SEEDED, "--examples", "200", "--mode", "game", "--shrink-examples", "10",
                  "--save", str(tmp_path / "saved"), str(BOTS / "chess/en_passant.py"))
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings("fail")
    r = f["reproducer"]
    assert (f["kind"], r["cold"], r["confirmed"], r["reproducible"]) == ("illegal_move", "reproduces", True, True), r
    assert r["plies"] <= 10 and r["opponent_moves"] == [] or "--opponent-moves" not in r["command"], r
    assert r["diagram"][-1].strip() == "a b c d e f g h" and len(r["diagram"]) == 9, r["diagram"]
    assert "a fresh bot shown this position" in result.stdout and r["diagram"][0] in result.stdout
    again = replay(r["command"], tmp_path)
    assert again.code == 1, again.stdout + again.stderr
    [fail] = again.findings("fail")
    assert fail["kind"] == "illegal_move" and fail["moves"] == r["moves"], (fail, r)
    [saved] = result.report["saved"]
    replayed = run_cli("replay", saved, tmp_path=tmp_path / "replayed")
    assert replayed.code == 1 and "came back" in replayed.stdout, replayed.stdout + replayed.stderr


def test_the_reproducers_say_what_the_planted_bug_is(tmp_path):
    # A few shrinking runs each: what the reproducer says, not how short it gets, is the subject here.
    chess_run = fuzz(tmp_path / "chess", "chess", *SEEDED, "--examples", "200", "--shrink-examples", "5",
                     str(BOTS / "chess/en_passant.py"))
    [f] = chess_run.findings("fail")
    assert "an en passant capture lands behind the pawn it takes" in f["message"], f
    halma_run = fuzz(tmp_path / "halma", "halma", *SEEDED, "--examples", "50", "--shrink-examples", "6",
                     str(BOTS / "halma/short_move_buffer.py"))
    [f] = halma_run.findings("fail")
    assert any("IndexError" in line for line in f["stderr_tail"]), f
    # The Halma protocol never sends the position: a game, its opponent moves, a 1..16 grid.
    r = f["reproducer"]
    assert r["mode"] == "game" and r["cold"] is None and "--opponent-moves" in r["command"]
    assert r["diagram"][0].split()[:3] == ["1", "2", "3"] and len(r["diagram"]) == 18, r["diagram"]


def test_progress_is_printed_while_it_runs(tmp_path):
    # The line comes when the failure is found: a few shrinking runs after it are enough.
    result = fuzz(tmp_path, "halma", *SEEDED, "--examples", "30", "--shrink-examples", "6",
                  str(BOTS / "halma/short_move_buffer.py"))
    # Not a terminal: a line as soon as a new kind of failure appears (and every 10 s).
    assert "fuzz: " in result.stderr and "failing kind" in result.stderr and "runs/s" in result.stderr


def test_ctrl_c_keeps_the_report(tmp_path):
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "prototest", "fuzz", "--game", "loa", "--no-database", "--budget", "0",
            "--jobs", "2", "--env", RUN_TOKEN, "--json", str(report), "--junit", str(tmp_path / "junit.xml"),
            "--", *REFERENCE["loa"]]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=bot_env(), cwd=tmp_path, stdin=subprocess.DEVNULL)
    # Interrupted once the workers have run the bot 10 times (the state probe's few runs and
    # examples; a progress line every 10 s counts them), however slow a busy machine makes
    # the first ones.
    seen = []
    for line in proc.stderr:
        seen.append(line)
        counted = re.match(r"fuzz: (\d+) runs", line)
        if counted and int(counted.group(1)) >= 10:
            break
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=60)
    err = "".join(seen) + rest
    assert proc.returncode == 130, out + err
    data = json.loads(report.read_text())
    assert data["interrupted"] == "SIGINT" and data["passed"] is False and data["examples"] > 0
    assert "INTERRUPTED by SIGINT" in out
    assert "<error" in (tmp_path / "junit.xml").read_text()


@pytest.mark.parametrize("args,message", [
    (["--game", "halma", "--mode", "position"], "never sends the position"),
    (["--game", "loa", "--mode", "sideways"], "expected one of position, game, mixed"),
    (["--game", "loa", "--json", "README.md/r.json"], "--json README.md/r.json"),
    (["--game", "loa", "--budget", "soon"], "--budget 'soon': expected a duration like 90s, 5m or 1h30m"),
    (["--game", "loa", "--jobs", "0"], "--jobs"),
    (["--game", "nosuchgame"], "unknown game"),
])
def test_usage_errors_are_one_line(tmp_path, args, message):
    (tmp_path / "README.md").write_text("a file, not a folder\n")
    result = run_cli("fuzz", *args, "--", *REFERENCE["loa"], tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args,message", [
    (["--game", "chess", "--moves", "e2e4,e2e4"], "move 2 'e2e4' is not legal"),
    (["--game", "chess", "--moves", "f2f3,e7e5,g2g4,d8h4"], "the game is over after these moves (checkmate)"),
    (["--game", "halma", "--moves", "1 3 2 4"], "never sends the position"),
])
def test_check_moves_are_validated(tmp_path, args, message):
    result = run_cli("check", *args, "--", *REFERENCE["chess"], tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert message in result.stderr


def test_check_plays_the_given_opponent_moves(tmp_path):
    result = run_cli("check", "--game", "halma", "--seat", "2", "--games", "1",
                     "--opponent-moves", "1 3 3 5,1 4 1 6", "--", *REFERENCE["halma"], tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    [game] = result.report["games"]
    assert game["moves"][0] == "1 3 3 5" and game["moves"][2] == "1 4 1 6", game
    assert game["result"] in ("win", "loss", "draw"), game  # the built-in opponent took over


def test_check_refuses_given_moves_that_do_not_fit(tmp_path):
    """Player 1 moves first: its given first move must be legal on the start position
    ((2,4) holds one of its own pieces), or no game is played (docs/cli.md: a usage error)."""
    result = run_cli("check", "--game", "halma", "--seat", "2", "--games", "1",
                     "--opponent-moves", "1 3 2 4", "--", *REFERENCE["halma"], tmp_path=tmp_path)
    assert result.code == 2, result.stdout + result.stderr
    assert result.stderr.startswith("prototest: error: --opponent-moves: move 1 '1 3 2 4' is not legal on ply 1, "
                                    "where the opponent moves first (the bot as player 2): "), result.stderr
    assert result.report is None


def test_check_draws_an_opponent_style_per_game(tmp_path):
    """N games are N different games: each game's opponent has its own style and move
    classes it never plays, drawn from the game's seed (the same seed, the same games)."""
    runs = [run_cli("check", "--game", "loa", "--games", "12", "--start-delay", "0", "--", *REFERENCE["loa"],
                    tmp_path=tmp_path / name, fresh=True) for name in ("a", "b")]  # two real runs: own hash seeds
    games = runs[0].report["games"]
    assert len({g["opponent"] for g in games}) >= 6, [g["opponent"] for g in games]
    assert len({tuple(g["moves"]) for g in games}) == 12
    assert [g["moves"] for g in games] == [g["moves"] for g in runs[1].report["games"]]
    assert "(opponent: " in runs[0].stderr


def test_a_check_finding_shows_the_board(tmp_path):
    result = run_cli("check", "--game", "chess", "--start-delay", "0", "--seat", "white", "--games", "1",
                     str(BOTS / "chess/illegal_move.py"), tmp_path=tmp_path)
    assert result.code == 1
    [f] = result.findings("fail")
    assert f["diagram"][-1].strip() == "a b c d e f g h", f["diagram"]
    assert f["diagram"][0].startswith("8 ") and f["diagram"][0] in result.stdout


# -- prototest.testing.fuzz_test: the same campaign as a pytest test -------------------------------

def _pytest_in_a_bot_repository(tmp_path: Path, tests: str, *args: str):
    (tmp_path / "conftest.py").write_text(
        "from hypothesis import settings\n"
        "settings.register_profile('quick', max_examples=12, database=None)\n"
        "settings.load_profile('quick')\n")
    (tmp_path / "test_bot.py").write_text("import sys\nfrom prototest.testing import fuzz_test\n" + tests)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args, "test_bot.py"],
                          capture_output=True, text=True, cwd=tmp_path, env=bot_env(), timeout=600,
                          stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout + proc.stderr


def test_fuzz_test_under_pytest_xdist_shows_the_reproducer_first(tmp_path):
    """A failing campaign's message is the reproducer, shown before any line of
    prototest's own source; a passing one passes."""
    code, out = _pytest_in_a_bot_repository(tmp_path, (
        f"test_broken = fuzz_test([{str(BOTS / 'halma/short_move_buffer.py')!r}], game='halma', budget=120, examples=12)\n"
        f"test_reference = fuzz_test([sys.executable, '-m', 'prototest.bots.loa_bot'], game='loa', budget=120,\n"
        f"                           examples=12, env={{'PYTHONPATH': {str(ROOT)!r}}})\n"), "-q", "-n", "2")
    assert code == 1, out
    assert "1 failed, 1 passed" in out, out
    failure = out[out.index("test_broken"):]
    assert "FAIL crash" in failure and "replay:   prototest check --game halma" in failure, out
    assert "raise " not in failure[:failure.index("FAIL crash")], out  # no prototest source before it
    assert "Falsifying example" not in out and "FlakyStrategyDefinition" not in out, out


@pytest.mark.skipif(shutil.which("script") is None, reason="util-linux's script is not installed")
def test_the_progress_line_on_a_terminal_names_the_budget_and_says_when_the_run_ended(tmp_path):
    """On a terminal the line is rewritten in place; its last state is "ended", never a
    "searching" left over from a run that is over (issue 20)."""
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "prototest", "fuzz", "--game", "chess",
                                                "--budget", "2s", "--jobs", "1", "--no-database", "--",
                                                sys.executable, "-m", "prototest.bots.chess_bot"])
    proc = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, text=True, cwd=tmp_path,
                          env=bot_env(), timeout=120, stdin=subprocess.DEVNULL)
    lines = [line for line in proc.stdout.replace("\r", "\n").splitlines() if line.startswith("fuzz: ")]
    assert proc.returncode == 0 and lines, proc.stdout
    assert " s of 2 s" in lines[-1] and lines[-1].split("\x1b")[0].endswith("(ended)"), lines[-3:]


def test_fuzz_test_shows_prototests_replay_command_and_no_hypothesis_seed(tmp_path):
    """A bot that fails early fails with prototest's replay command,
    not Hypothesis's '@seed(...)' hint. (A bot that never answers, under a budget shorter
    than its clock: tests/test_fuzz_pytest.py.)"""
    code, out = _pytest_in_a_bot_repository(tmp_path, (
        f"test_illegal = fuzz_test([{str(BOTS / 'chess/illegal_move.py')!r}], game='chess', budget=10)\n"), "-q")
    assert code == 1 and "1 failed" in out, out
    assert "FAIL illegal_move" in out and "replay:   prototest check --game chess" in out, out
    assert "@seed(" not in out and "--hypothesis-seed" not in out, out


def test_fuzz_test_passes_real_bots_as_they_are_and_reports_their_warnings(tmp_path):
    """A bot that answers at random among equal moves, and one that keeps its own board:
    both pass whole; the first's differing answers and the second's state show up as
    pytest warnings, not errors."""
    code, out = _pytest_in_a_bot_repository(tmp_path, (
        f"test_random = fuzz_test([{str(BOTS / 'impasse/random_among_equals.py')!r}], game='impasse', budget=120,\n"
        f"                        examples=12)\n"
        # a fixed seed: with none, fuzz_test draws one (issue 29) and the probe's short game may
        # end with positions the bot's own board still agrees with (seed 1 does; 2 to 6 do not)
        f"test_stateful = fuzz_test([{str(BOTS / 'loa/keeps_board.py')!r}], game='loa', budget=120, examples=12,\n"
        f"                          seed=2)\n"),
        "-q", "-W", "always::prototest.testing.ProtocolWarning")
    assert code == 0, out
    assert "2 passed" in out, out
    assert "ProtocolWarning: nondeterministic: the same input got" in out, out
    assert "ProtocolWarning: state probe:" in out and "position mode" in out, out
