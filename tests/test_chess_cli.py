"""The real CLI against real bot processes on the chess judge protocol: one fault per bot."""

from __future__ import annotations

import shlex

import os
import re
import signal
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pexpect
import pytest

from conftest import BOTS, ROOT, alive_with, bots_with, run_cli

CHESS = BOTS / "chess"
REFERENCE = ["--", sys.executable, "-m", "prototest.bots.chess_bot"]
FAST = ["--start-delay", "150"]  # a short silence before the colour line keeps the suite quick


def check(tmp_path: Path, bot: str, *extra: str, games: int = 1):
    return run_cli("check", *FAST, "--games", str(games), *extra, str(CHESS / bot), tmp_path=tmp_path)


def test_reference_bot_passes_as_white_and_black(tmp_path):
    result = run_cli("check", *FAST, "--games", "2", *REFERENCE, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == []
    games = result.report["games"]
    assert [g["seat"] for g in games] == ["white", "black"]
    for g in games:
        assert g["result"] in ("win", "loss", "draw")
        assert g["plies"] > 0
        assert set(g["checks"].values()) == {"pass"}
    assert result.report["timing"]["answers"] > 0
    assert "PASS: 2 games" in result.stdout
    assert re.search(r"answers: median [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms", result.stdout)


# bot file, kind, severity, a phrase the message must hold, extra CLI arguments
BROKEN = [
    ("illegal_move.py", "illegal_move", "fail", "no piece of yours on", []),
    ("malformed.py", "malformed", "fail", "write e2e4", []),
    # the judge's first line goes out after --start-delay; a bot slow to start (a busy machine)
    # writes after it, but before reading it: early output too
    ("early_output.py", "early_output", "fail", "ms after start-up, before", []),
    ("answers_twice.py", "unexpected_output", "fail", "not its turn", []),
    ("talks_between_turns.py", "unexpected_output", "fail", "'thinking...'", []),
    ("crash_third_turn.py", "crash", "fail", "exited with status 1 on its turn 3", []),
    ("hangs.py", "timeout", "fail", "no answer within 1000 ms", ["--time-scale", "0.1"]),
    ("no_flush.py", "timeout", "fail", "does not flush", ["--time-scale", "0.1"]),
    ("never_reads.py", "timeout", "fail", "has not read its input", ["--time-scale", "0.1"]),
    ("floods.py", "malformed", "fail", "without a newline", []),
    ("promotion5.py", "malformed", "fail", "promotion needs four characters", []),
    ("castle_e1g1.py", "malformed", "warn", "castling written as e1g1", []),
    ("no_exit.py", "no_exit", "warn", "still running", []),
    ("ignores_sigterm_forks.py", "no_exit", "warn", "still running", []),
    ("crlf.py", "malformed", "warn", "\\r\\n", []),
    ("trailing_space.py", "malformed", "warn", "trailing whitespace", []),
    ("exit_nonzero.py", "exit_status", "warn", "exited with status 1 after its input was closed", []),
    ("says_bye.py", "unexpected_output", "warn", "wrote 'bye' after the game ended", []),
    ("closes_stdin.py", "crash", "fail", "closed its input (stdin) but still runs", []),
    # the same, closed after the judge wrote (closes_stdin.py on a slow machine): the same finding
    ("closes_stdin_unread.py", "crash", "fail", "closed its input (stdin) but still runs", ["--time-scale", "0.1"]),
    ("half_flushed.py", "timeout", "fail", "arrived only when its input was closed", ["--time-scale", "0.1"]),
    ("waits_for_more.py", "timeout", "fail", "then waited for more input that the protocol does not send: when "
     "the judge sent its request again", ["--time-scale", "0.1"]),
]


#: When talks_between_turns.py's line comes after the judge looked for output between turns,
#: it is read as the next answer: the referee refuses it, and that refusal is reported first,
#: before the extra output (tests/bots/chess/README.md).
REFUSED_FIRST = {"talks_between_turns.py": {("malformed", "fail")}}


@pytest.mark.parametrize("bot,kind,severity,phrase,extra", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_bot_is_caught(tmp_path, bot, kind, severity, phrase, extra):
    result = check(tmp_path, bot, *extra)
    assert result.report is not None, result.stderr
    found = [f for f in result.findings() if f["kind"] == kind and f["severity"] == severity]
    assert found, f"expected {severity} {kind}; got {result.findings()}\n{result.stdout}"
    assert any(phrase in f["message"] for f in found), [f["message"] for f in found]
    # Exactly one fault each: nothing else is reported (but see REFUSED_FIRST).
    assert {(f["kind"], f["severity"]) for f in result.findings()} - REFUSED_FIRST.get(bot, set()) \
        == {(kind, severity)}, result.findings()
    assert result.code == (1 if severity == "fail" else 0)
    for f in found:
        assert f["transcript"] and Path(f["transcript"]).exists()
        if severity == "fail":
            assert f["position"] and f["expected"]


def test_failure_carries_its_evidence(tmp_path):
    result = check(tmp_path, "illegal_move.py")
    [f] = result.findings("fail")
    assert f["turn"] == 2 and f["game"] == 1
    assert len(f["moves"]) == 2  # its first move and the opponent's reply
    assert f["got"] and f["got"] in f["message"]
    assert f["position"].count("/") == 7  # a FEN
    assert f["expected"].startswith("one of ")
    assert f["elapsed_ms"] is not None and f["elapsed_ms"] >= 0
    text = Path(f["transcript"]).read_text()
    assert ">  white" in text and "<  " + f["got"] in text and "D " in text
    assert "FAIL illegal_move" in result.stdout and "position:" in result.stdout


def test_castling_after_the_rook_was_captured_names_the_capture(tmp_path):
    """Black's bishop takes the h1 rook on its corner (ply 6), f1 and g1 are cleared, and the
    bot, which judges its right from its own moves alone, castles: refused, and the reason
    is the capture (not "the king or that rook has moved")."""
    moves = "g2g3,b7b6,g1h3,c8b7,e2e3,b7h1,f1e2,a7a6"
    result = check(tmp_path, "castles_after_rook_captured.py", "--seat", "white", "--moves", moves)
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings()
    assert (f["kind"], f["severity"], f["turn"], f["got"]) == ("illegal_move", "fail", 1, "O-O")
    assert f["message"] == ("'O-O': no kingside castling right (the rook on h1 was captured there by the "
                            "opponent's bishop on ply 6)"), f["message"]
    assert f["moves"] == moves.split(",") and f["position"].endswith(" w Qkq - 0 5")


def test_crash_shows_the_stderr_tail(tmp_path):
    result = check(tmp_path, "crash_third_turn.py")
    [f] = result.findings("fail")
    assert f["turn"] == 3
    assert any("Traceback" in line or "Error" in line for line in f["stderr_tail"])


def test_hanging_bot_ends_soon_after_its_clock(tmp_path):
    """A bot that never answers is given up on shortly after its clock runs out."""
    result = check(tmp_path, "hangs.py", "--time-scale", "0.05", games=2)
    assert result.code == 1
    assert [f["kind"] for f in result.findings()] == ["timeout", "timeout"]
    # each given up on at its 0.5 s clock, as prototest says (not at a default minute)
    assert all(f["limit_ms"] == 500 and f["elapsed_ms"] >= 500 and "within 500 ms" in f["message"]
               for f in result.findings()), result.findings()


def _token() -> str:
    """An environment variable for one test's bots: finds them whatever pids they see
    themselves (in a PID namespace of their own, a bot's pids are not ours)."""
    return f"PROTOTEST_TEST_TOKEN={uuid.uuid4().hex}"


def test_sigterm_ignoring_bot_and_its_child_are_killed(tmp_path):
    token = _token()
    result = check(tmp_path, "ignores_sigterm_forks.py", "--env", token)
    transcript = Path(result.findings()[0]["transcript"]).read_text()
    pids = [int(p) for p in re.findall(r"!  pid (\d+)", transcript)]
    assert len(pids) == 2, transcript[:2000]
    assert alive_with(token) == []  # gone already: prototest waited for them


def test_no_missing_flush_claimed_without_evidence(tmp_path):
    """A bot asleep in a read of its input may wait for more input than the judge sends,
    or hold its answer in a buffer: the judge sends it its request again (the turn line).
    waits_for_more.py then answers, and reads on: it is told it reads one line more, not
    to flush. With MORE=2 it reads that line and waits again, and nothing comes out when
    its input is closed (it does not exit): both causes are named, neither is claimed.
    no_flush.py reads the line and waits again too, and its answer comes out when its
    input is closed: only that is called a missing flush."""
    [more] = check(tmp_path / "more", "waits_for_more.py", "--time-scale", "0.1").findings()
    assert "flush" not in more["message"], more["message"]
    assert re.search(r"; it read all 2 lines the judge sent since the start, then waited for more input that the "
                     r"protocol does not send: when the judge sent its request again \(one line\), it answered "
                     r"'\w{4}' [\d.]+ ms later and read on: it reads one line more than the judge sends$",
                     more["message"]), more["message"]
    transcript = Path(more["transcript"]).read_text().splitlines()
    probe = next(i for i, line in enumerate(transcript) if "the request again, its first line alone first" in line)
    assert transcript[probe + 1].split(">  ")[1] == transcript[probe - 1].split(">  ")[1], transcript[probe - 1:]
    [waiting] = [f for f in check(tmp_path / "wait", "waits_for_more.py", "--time-scale", "0.1", "--env", "MORE=2")
                 .findings() if f["kind"] == "timeout"]
    assert "probably does not flush" not in waiting["message"]
    assert waiting["message"].endswith(
        "; it read all 2 lines the judge sent since the start and is waiting for more input; sent its request again "
        "(one line), it wrote nothing: either it expects more (or other) input than the judge sends, or its answer "
        "is stuck in an output buffer it never flushes (closing its input brought nothing out)"), waiting["message"]
    [buffered] = check(tmp_path / "buffered", "no_flush.py", "--time-scale", "0.1").findings()
    assert re.search(r"; it read all 2 lines the judge sent since the start and waited for more; sent its request "
                     r"again \(one line\), it wrote nothing; the answer '\w{4}' arrived only when its input was "
                     r"closed: the bot probably does not flush its output", buffered["message"]), buffered["message"]


def test_a_missing_flush_behind_a_wrapper_names_the_process_that_reads(tmp_path):
    """A shell wrapper runs no_flush.py: the advice to flush is for that process (the one
    seen waiting for the judge's lines), which the message names; the bot run directly
    is its own command, and nothing more is said."""
    (tmp_path / "adapter.sh").write_text(f"python3 {shlex.quote(str(CHESS / 'no_flush.py'))}\n")
    result = run_cli("check", *FAST, "--games", "1", "--time-scale", "0.1", "--", "sh", "adapter.sh",
                     tmp_path=tmp_path)
    [wrapped] = result.findings()
    assert wrapped["message"].endswith(
        f"the bot probably does not flush its output (a terminal would have shown it): flush after every line in "
        f"python3 {CHESS / 'no_flush.py'}, the process that reads the judge's lines (the bot's command, sh "
        f"adapter.sh, started it)"), wrapped["message"]
    [direct] = check(tmp_path / "direct", "no_flush.py", "--time-scale", "0.1").findings()
    assert direct["message"].endswith("(a terminal would have shown it): flush after every line"), direct["message"]


#: A bot that holds its answer (no flush), and exits when the same turn line comes twice:
#: its exit flushes the answer, so the answer that comes then proves nothing either way.
HOLDS_THEN_EXITS = """\
#!/usr/bin/env python3
import io, sys
sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)))
sys.stdin.readline()  # the colour
turn = sys.stdin.readline()
print("e2e4")  # held in the buffer
if sys.stdin.readline() == turn:
    sys.exit(3)
"""

#: A bot that waits for one more line, then thinks 450 ms before it answers (flushed):
#: still busy when the judge stops watching what one more line does (300 ms).
MORE_THEN_THINKS = """\
#!/usr/bin/env python3
import sys, time
sys.stdin.readline()  # the colour
sys.stdin.readline()  # the turn line
sys.stdin.readline()  # one more, never sent
time.sleep(0.45)
print("e2e4", flush=True)
sys.stdin.read()
"""


def test_an_answer_that_comes_with_an_exit_names_both_causes(tmp_path):
    """Sent one more line, the bot writes its answer and exits: an exit flushes a held
    answer, so it may hold it or wait for more input; both are named, more input first."""
    bot = tmp_path / "bot.py"
    bot.write_text(HOLDS_THEN_EXITS)
    bot.chmod(0o755)
    [f] = [f for f in check(tmp_path, str(bot), "--time-scale", "0.1", "--seat", "white").findings()
           if f["kind"] == "timeout"]
    assert re.search(r"; it read all 2 lines the judge sent since the start and waited for more input; sent its "
                     r"request again \(one line\), it wrote 'e2e4' and exited with status 3: either it "
                     r"reads more input than the judge sends, or it held its answer in an output buffer it does not "
                     r"flush \(an exit flushes it\)$", f["message"]), f["message"]


def test_an_answer_after_one_more_line_and_the_end_of_input_names_both_causes(tmp_path):
    """Still busy when the judge stops watching what one more line does, the bot answers
    after its input was closed: no evidence either way, both causes are named. On a busy
    machine the judge watches longer (the time the machine kept the bot from a CPU is
    given back) and may see the answer come: then it says what the bot does, one line
    more; never that it does not flush."""
    bot = tmp_path / "bot.py"
    bot.write_text(MORE_THEN_THINKS)
    bot.chmod(0o755)
    [f] = [f for f in check(tmp_path, str(bot), "--time-scale", "0.1", "--seat", "white").findings()
           if f["kind"] == "timeout"]
    assert "flush its output" not in f["message"], f["message"]
    if "read on: it reads one line more" in f["message"]:
        assert re.search(r"; it read all 2 lines the judge sent since the start, then waited for more input that "
                         r"the protocol does not send: when the judge sent its request again \(one line\), it "
                         r"answered 'e2e4' (\d+\.\d) ms later and read on: it reads one line more than the judge "
                         r"sends$", f["message"]), f["message"]
        return
    assert f["message"].endswith(
        "; it read all 2 lines the judge sent since the start and waited for more input; its answer 'e2e4' came "
        "only after the judge sent its request again (one line) and closed its input: either it reads more input "
        "than the judge sends, or it held its answer in an output buffer it does not flush (an exit flushes it)"), \
        f["message"]


def test_half_flushed_answer_is_quoted_once(tmp_path):
    """The flushed part of the answer and the rest that came at exit make one answer."""
    result = check(tmp_path, "half_flushed.py", "--time-scale", "0.1")
    [f] = result.findings()
    m = re.search(r"it sent '(\w\d)' without a newline; the answer '(\w\d\w\d)' arrived", f["message"])
    assert m and m.group(2).startswith(m.group(1)), f["message"]


def test_a_child_that_left_the_group_is_killed_after_the_bot_exits(tmp_path):
    token = _token()
    result = check(tmp_path, "setsid_child.py", "--env", token)
    assert result.code == 0 and result.findings() == []
    [transcript] = (tmp_path / "transcripts").glob("*.txt")
    text = transcript.read_text()
    assert re.search(r"!  child pid \d+", text)
    assert "killed 1 process(es) that had left the bot's group" in text
    assert alive_with(token) == []  # gone already: prototest waited for them


def test_processes_spawned_while_dying_are_killed_too(tmp_path):
    """A bot whose SIGTERM handler spawns a grandchild in a new session: the grandchild
    is born during the kill, and is still found (prototest is its subreaper) and killed."""
    pidfile = tmp_path / "pids"  # writing it is a file operation: not what this test is about
    token = _token()
    result = check(tmp_path, "forks_on_sigterm.py", "--env", f"PIDFILE={pidfile}", "--env", token,
                   "--set", "severity.file_operation=ignore")
    assert {(f["kind"], f["severity"]) for f in result.findings()} == {("no_exit", "warn")}
    assert pidfile.read_text().split(), "the bot's SIGTERM handler never ran"
    assert alive_with(token) == []  # gone already: prototest waited for them


def _interrupt(tmp_path: Path, bot: Path, signum: int, ready, *extra: str):
    """Run a check, send `signum` to prototest once `ready()` holds, and return
    (exit status, stderr, JSON report, the token this run's bot processes carry: found by
    it, not by their command line, which other tests' bots running meanwhile share)."""
    import json
    import subprocess
    from conftest import RUN_TOKEN, bot_env
    report = tmp_path / "report.json"
    token = _token()
    argv = [sys.executable, "-m", "prototest", "check", "--env", RUN_TOKEN, "--env", token, *extra,
            "--json", str(report), "--transcripts", str(tmp_path / "t"), str(bot)]
    proc = subprocess.Popen(argv, env=bot_env(), cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (ready(token) if ready is asleep_on_their_turns else ready()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert alive_with(token)  # the bot runs
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    data = json.loads(report.read_text()) if report.exists() else None
    return proc.returncode, err, data, token


def asleep_on_their_turns(token: str, bots: int = 2) -> bool:
    """`bots` bots hold `token`, each asleep in its sleep (hangs.py on its turn: past the
    colour line and the turn line); not a guess at how long that takes on a busy machine."""
    pids = bots_with(token)
    if len(pids) < bots:
        return False
    for pid in pids:
        try:
            wchan = Path(f"/proc/{pid}/wchan").read_text()
        except OSError:
            return False
        if "nanosleep" not in wchan and wchan not in ("", "0"):  # "0": not shown here; then the count only
            return False
    return True


def test_sigterm_to_prototest_kills_the_bot_and_keeps_the_report(tmp_path):
    """Stopped mid-game (SIGTERM from CI, Ctrl-C at a terminal): the bot's group is
    killed, the games so far are reported and the transcript is written."""
    code, err, data, token = _interrupt(
        tmp_path, CHESS / "hangs.py", signal.SIGTERM, asleep_on_their_turns,  # the bots sit on their turns
        "--games", "2", "--time-scale", "20")
    assert code == 128 + signal.SIGTERM, err
    assert "interrupted (SIGTERM)" in err and "Traceback" not in err
    assert alive_with(token) == []  # gone already: prototest waited for them
    # both games (one per seat) play at once: each is stopped, reported and transcribed
    assert [g["result"] for g in data["games"]] == ["interrupted"] * 2
    assert data["passed"] is False and data["interrupted"] == "SIGTERM"
    transcripts = sorted((tmp_path / "t").glob("*.txt"))
    assert len(transcripts) == 2 and all("interrupted by SIGTERM" in t.read_text() for t in transcripts)


def test_signal_while_waiting_for_the_exit_still_reports(tmp_path):
    """A signal during the exit check (the game is over, the bot will not exit)."""
    marker = tmp_path / "eof-seen"
    bot = tmp_path / "lingers.py"
    bot.write_text(
        "#!/usr/bin/env python3\n"
        f"import sys; sys.path.insert(0, {str(CHESS)!r})\n"
        "from _common import Bot, sleep_forever\n"
        "class Lingers(Bot):\n"
        "    def on_eof(self):\n"
        f"        open({str(marker)!r}, 'w').close()\n"
        "        sleep_forever()\n"
        "Lingers().run()\n")
    bot.chmod(0o755)
    code, err, data, token = _interrupt(tmp_path, bot, signal.SIGHUP, marker.exists, *FAST,
                                       "--games", "1", "--set", "end.exit_grace_ms=20000")
    assert code == 128 + signal.SIGHUP, err
    assert "interrupted (SIGHUP) after 1 of 1 game" in err
    assert alive_with(token) == []  # gone already: prototest waited for them
    [game] = data["games"]
    assert game["result"] == "interrupted" and game["plies"] > 0
    assert data["passed"] is False


def test_no_flush_bot_answers_in_a_terminal():
    """The fixture is honest: under a pty (line-buffered) the same bot answers at once."""
    child = pexpect.spawn(sys.executable, [str(CHESS / "no_flush.py")], timeout=10,
                          env={"PATH": os.environ["PATH"]})
    try:
        child.sendline("white")
        child.sendline("NONE 1000 1000 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        child.expect(r"[a-h][1-8][a-h][1-8]\r\n")
    finally:
        child.kill(signal.SIGKILL)
        child.close(force=True)


def test_same_seed_same_games(tmp_path):
    # Fresh interpreters (not the suite's fork server): each its own hash seed, as two real runs.
    runs = [run_cli("check", *FAST, "--games", "2", "--seed", "7", *REFERENCE, tmp_path=tmp_path / str(i), fresh=True) for i in range(2)]
    other = run_cli("check", *FAST, "--games", "2", "--seed", "8", *REFERENCE, tmp_path=tmp_path / "other", fresh=True)
    moves = [[g["moves"] for g in r.report["games"]] for r in runs]
    assert moves[0] == moves[1]
    assert [g["moves"] for g in other.report["games"]] != moves[0]


def test_transcripts_and_junit(tmp_path):
    junit = tmp_path / "junit.xml"
    result = run_cli("check", *FAST, "--games", "2", "--junit", str(junit), str(CHESS / "answers_twice.py"), tmp_path=tmp_path)
    assert result.code == 1
    transcripts = sorted((tmp_path / "transcripts").glob("*.txt"))
    assert [p.name for p in transcripts] == ["chess-001-white.txt", "chess-002-black.txt"]
    text = transcripts[0].read_text()
    assert re.search(r"^\s+\d+\.\d{3} >  white$", text, re.M)
    assert re.search(r"^\s+\d+\.\d{3} <  \w{4} +\[\d+\.\d ms\]$", text, re.M)
    assert "F  FAIL unexpected_output" in text
    suite = ET.parse(junit).getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 2 * 8  # two games, eight checks each
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert failed == ["game 1 (white): answers follow the grammar, in turn",
                      "game 2 (black): answers follow the grammar, in turn"]
    assert suite.get("failures") == "2" and suite.get("tests") == "16"


def test_spec_overrides_change_behaviour(tmp_path):
    """The spec drives the session: a stricter castling rule turns the warning into a failure."""
    result = check(tmp_path, "castle_e1g1.py", "--set", "rules.king_move_castling=fail")
    assert result.code == 1
    assert result.kinds("fail") == {"illegal_move"}


def test_exit_rule_is_the_specs(tmp_path):
    result = check(tmp_path, "no_exit.py", "--set", "severity.no_exit=fail")
    assert result.code == 1 and result.kinds("fail") == {"no_exit"}


def test_clock_comes_from_the_spec(tmp_path):
    result = check(tmp_path, "hangs.py", "--set", "time.clock_ms=400")
    [f] = result.findings("fail")
    assert "no answer within 400 ms" in f["message"]


# -- usage errors: one line, exit status 2 ---------------------------------------------

def _one_line_error(result, *phrases):
    assert result.code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("prototest: error: ")
    for phrase in phrases:
        assert phrase in lines[0]
    assert "Traceback" not in result.stderr


def test_missing_bot(tmp_path):
    _one_line_error(run_cli("check", str(tmp_path / "nobot")), "not found")


def test_bot_not_executable(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("print('hi')\n")
    _one_line_error(run_cli("check", str(bot)), "not executable")


def test_unknown_option():
    _one_line_error(run_cli("check", "--bogus", "x"), "--bogus")


def test_unknown_game():
    _one_line_error(run_cli("moves", "--game", "go"), "unknown game 'go'")


def test_bad_spec_names_file_and_key(tmp_path):
    spec = tmp_path / "bad.toml"
    text = (ROOT / "specs" / "chess.toml").read_text().replace("clock_ms = 10000", "clock_ms = -5")
    spec.write_text(text)
    _one_line_error(run_cli("check", "--spec", str(spec), *REFERENCE), str(spec), "time.clock_ms", "at least 0")


def test_bad_override_value():
    _one_line_error(run_cli("check", "--set", "turn.answer=^(e2e4)$", *REFERENCE), "turn.answer", "(?P<move>")


def test_bad_rules_option():
    _one_line_error(run_cli("moves", "--set", "rules.en_passant=sometimes"), "rules.en_passant")


def test_bad_position():
    _one_line_error(run_cli("moves", "not a fen"), "position")


def test_bad_option_values_are_usage_errors():
    _one_line_error(run_cli("check", "--start-delay", "99999999999999999999", *REFERENCE), "--start-delay")
    _one_line_error(run_cli("check", "--time-scale", "nan", *REFERENCE), "--time-scale")
    _one_line_error(run_cli("moves", "--game", "../specs/chess"), "--game", "letters, digits")


def test_spec_that_is_not_text(tmp_path):
    spec = tmp_path / "bin.toml"
    spec.write_bytes(b"\xff\xfe\x00binary")
    _one_line_error(run_cli("moves", "--spec", str(spec)), str(spec), "not UTF-8")


@pytest.mark.parametrize("name", ["../../../../rt_escape", "chess\\u0000x", "", "-x", "a b"])
def test_a_spec_s_game_name_is_checked_as_game_is(tmp_path, name):
    """A spec file may come from someone else: its name, which names the transcripts'
    folder, must never lead out of it (issue 21: `../../../../rt_escape` wrote a folder four
    levels up) nor be an internal error (a NUL byte was exit 3). One line, status 2, and
    nothing written."""
    text = (ROOT / "specs" / "chess.toml").read_text()
    assert 'name = "chess"' in text
    spec = tmp_path / "named.toml"
    spec.write_text(text.replace('name = "chess"', f'name = "{name}"'))
    transcripts = tmp_path / "deep" / "a" / "b" / "c" / "transcripts"
    result = run_cli("check", "--spec", str(spec), "--transcripts", str(transcripts), *REFERENCE)
    _one_line_error(result, str(spec), "game.name", "letters, digits")
    assert not any(p.name.startswith("rt_escape") for p in tmp_path.rglob("*")), list(tmp_path.rglob("*"))


@pytest.mark.parametrize("edit,key,phrase", [
    (("send = [\"{seat}\"]", "send = [\"{seat!r}\"]"), "start.send", "no conversion or format spec"),
    (("send = [\"{seat}\"]", "send = [\"{}\"]"), "start.send", "name the field"),
    (("seats = [\"white\", \"black\"]", "seats = [\"white\", \"black\", \"red\"]"), "game.seats", "exactly two"),
    (("seats = [\"white\", \"black\"]", "seats = [\"white\", \"white\"]"), "game.seats", "exactly two"),
])
def test_spec_errors_found_at_load_time(tmp_path, edit, key, phrase):
    text = (ROOT / "specs" / "chess.toml").read_text()
    assert edit[0] in text
    spec = tmp_path / "bad.toml"
    spec.write_text(text.replace(edit[0], edit[1]))
    _one_line_error(run_cli("check", "--spec", str(spec), *REFERENCE), key, phrase)


def test_unwritable_report_path_is_refused_before_any_game(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    _one_line_error(run_cli("check", "--json", str(blocker / "r.json"), "--transcripts", str(tmp_path / "t"),
                            *REFERENCE), "--json", "not a writable folder")
    assert not (tmp_path / "t").exists()  # refused at once, not after the games: none was played
    _one_line_error(run_cli("check", "--junit", str(tmp_path), *REFERENCE), "--junit", "is a directory")


def test_script_with_a_missing_interpreter(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("#!/usr/bin/env no-such-python\nprint('hi')\n")
    bot.chmod(0o755)
    _one_line_error(run_cli("check", str(bot)), "no-such-python", "not on the bot's PATH")
    bot.write_text("#!/no/such/interpreter\nprint('hi')\n")
    _one_line_error(run_cli("check", str(bot)), "/no/such/interpreter", "does not exist")
    bot.write_text("print('hi')\n")
    _one_line_error(run_cli("check", str(bot)), "without a #! line")


def test_junit_stays_valid_xml_whatever_the_bot_writes(tmp_path):
    bot = tmp_path / "noisy.py"
    bot.write_text("#!/usr/bin/env python3\nimport sys\nsys.stdin.readline(); sys.stdin.readline()\n"
                   "sys.stderr.buffer.write(b'\\x00\\x01\\x1b[31m \\xff\\xfe bad\\n'); sys.stderr.flush()\n"
                   "sys.exit(1)\n")
    bot.chmod(0o755)
    junit = tmp_path / "junit.xml"
    result = run_cli("check", *FAST, "--games", "1", "--junit", str(junit), str(bot), tmp_path=tmp_path)
    assert result.code == 1 and result.kinds("fail") == {"crash"}
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert "\\x00\\x01\\x1b[31m" in failure.text
    assert "\x00" not in result.stdout and "\x1b" not in result.stdout


def test_transcript_folder_that_cannot_be_made(tmp_path):
    """/proc refuses new folders: refused before the games (not root) or reported after
    them with the verdicts intact (root passes the access check): status 2 either way."""
    result = run_cli("check", *FAST, "--games", "1", "--transcripts", "/proc/prototest-x",
                     str(CHESS / "says_bye.py"))
    assert result.code == 2
    assert "--transcripts /proc/prototest-x" in result.stderr and "Traceback" not in result.stderr
    assert len([line for line in result.stderr.splitlines() if line.startswith("prototest: error: ")]) == 1


def test_a_full_disk_on_stdout_is_one_line_and_the_report_is_kept(tmp_path):
    import subprocess
    from conftest import RUN_TOKEN, bot_env
    report = tmp_path / "r.json"
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "prototest", "check", "--env", RUN_TOKEN, *FAST,
                               "--games", "1", "--json", str(report), *REFERENCE],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=bot_env(), timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "prototest: error: cannot write the output: No space left on device"
    assert "Traceback" not in proc.stderr
    assert report.exists()


def test_a_reader_that_goes_away_is_no_failure():
    """`prototest perft --divide | head -1`: a closed pipe is not "the bot failed" (1)."""
    import subprocess
    proc = subprocess.Popen([sys.executable, "-m", "prototest", "perft", "--game", "loa", "--depth", "4",
                             "--divide"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    proc.stdout.close()  # gone before the first count: no race with a fast machine writing them all
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 128 + signal.SIGPIPE, err
    assert err == ""
