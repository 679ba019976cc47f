"""File operations through the real CLI: the chess judge's statement forbids any besides
stdin and stdout (FAIL, with the path and the turn); the sandboxed platforms of the other
protocols get a WARN; reading files is never a finding."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import BOTS, run_cli
from prototest.sandbox import keeper

CHESS = BOTS / "chess"
LOA = BOTS / "loa"
FAST = ["--start-delay", "150", "--games", "1"]
#: When a bot's start-up imports write: before the judge's first line, or, its interpreter
#: slow to start on a busy machine, once the judge sent its first turn (both are true).
STARTUP = r"(at start-up|on its turn 1)"
#: The bots' #! line: this interpreter, by its path, unless the path holds a space (a #! line
#: cannot: the suite in "<tmp>/ci run/prototest"); then through env (bot_env puts its
#: folder first on PATH).
SHEBANG = f"#!{sys.executable}" if " " not in sys.executable else "#!/usr/bin/env python3"
#: check's advice for that line
SHEBANG_B = f"{SHEBANG} -B" if " " not in sys.executable else "#!/usr/bin/env -S python3 -B"

pytestmark = pytest.mark.skipif(not keeper.supported(), reason="no keeper here: file operations are not watched")


def check(tmp_path: Path, bot: Path, *extra: str):
    return run_cli("check", *FAST, *extra, str(bot), tmp_path=tmp_path)


def watched(result) -> bool:
    return result.report["sandbox"]["file_operations"] == "seccomp"


def test_a_debug_log_written_each_turn_fails_with_path_and_turn(tmp_path):
    result = check(tmp_path, CHESS / "writes_debug_log.py")
    if not watched(result):
        pytest.skip(f"file operations not watched here: {result.report['sandbox']['file_operations_missing']}")
    assert result.code == 1, result.stdout + result.stderr
    [finding] = result.findings()
    log = str(tmp_path / "debug.log")  # the bot runs in the current folder
    assert (finding["kind"], finding["severity"], finding["turn"], finding["path"]) == \
        ("file_operation", "fail", 1, log)
    # the message shows the path from the bot's folder: the same on every machine
    assert finding["message"] == ("created ./debug.log on its turn 1: the judge allows no file operations "
                                  "(reading files is allowed)")
    assert "writes_debug_log.py" in finding["got"] and finding["check"] == "sandbox"
    assert finding["position"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    [game] = result.report["games"]
    assert game["result"] == "forfeit" and game["checks"]["sandbox"] == "fail"
    assert "FAIL file_operation (game 1, turn 1): created ./debug.log" in result.stdout
    assert str(tmp_path) not in (tmp_path / result.report["games"][0]["transcript"]).read_text()
    assert "leaves its judge and the files alone" in result.stdout


def test_a_cache_file_created_and_deleted_on_turn_two(tmp_path):
    result = check(tmp_path, CHESS / "cache_file.py", "--env", f"TMPDIR={tmp_path}")
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 1
    created, deleted = result.findings()
    assert created["turn"] == deleted["turn"] == 2
    assert created["message"].startswith("created ./prototest-cache-")  # TMPDIR is the bot's folder
    assert created["path"].startswith(f"{tmp_path}/prototest-cache-")
    assert deleted["message"].startswith(f"deleted ./{Path(created['path']).name} on its turn 2")
    assert {created["severity"], deleted["severity"]} == {"fail"}
    assert len(result.report["games"][0]["moves"]) == 2  # forfeited on that turn


def test_a_rename_fails(tmp_path):
    (tmp_path / "state.txt").write_text("saved state\n")
    result = check(tmp_path, CHESS / "renames_file.py")
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 1
    [finding] = result.findings()
    assert finding["turn"] == 1 and finding["path"] == str(tmp_path / "state.txt")
    assert finding["message"].startswith("renamed ./state.txt to ./state.txt.old on its turn 1")


def test_a_loa_bot_writing_a_log_gets_a_warning(tmp_path):
    result = run_cli("check", "--game", "loa", "--games", "1", "--time-scale", "3", str(LOA / "writes_log.py"),
                     tmp_path=tmp_path)
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 0, result.stdout + result.stderr
    log = str(tmp_path / "loa.log")
    findings = result.findings()
    assert {(f["kind"], f["severity"], f["path"]) for f in findings} == {("file_operation", "warn", log)}
    created, written = findings  # a new file on the first turn, then opened again on each later one
    assert created["turn"] == 1 and created["message"].startswith("created ./loa.log on its turn 1: the judge's sandbox")
    # Black (the bot's seat in game 1) moves first: every later turn of the bot opened the log once
    bot_turns = (len(result.report["games"][0]["moves"]) + 1) // 2
    assert written["turn"] == 2 and written["count"] == bot_turns - 1 > 1
    assert [o["turn"] for o in written["occurrences"]] == list(range(2, bot_turns + 1))
    assert f"[{written['count']} times]" in result.stdout


def test_a_bot_that_only_reads_files_passes(tmp_path):
    """Imports (modules read from disk) and an opening book read every turn: no finding."""
    result = check(tmp_path, CHESS / "reads_opening_book.py")
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == []
    assert result.report["games"][0]["moves"][0] == "e2e4"  # the book's move: the file was read
    assert result.report["sandbox"]["file_operations"] == "seccomp" or "not watched" in result.stdout


def test_writes_to_devices_and_its_own_pipes_are_no_file_operations(tmp_path):
    """/dev/null, and stdout opened by name (/dev/stdout, /proc/self/fd/1): pipes and
    devices, not files."""
    bot = tmp_path / "bot.py"
    bot.write_text(textwrap.dedent(f"""\
        {SHEBANG}
        import sys
        sys.path.insert(0, {str(CHESS)!r})
        from _common import Bot

        class ByName(Bot):
            def send(self, text):
                open("/dev/null", "w").write("noise")
                with open("/dev/stdout" if self.turn % 2 else "/proc/self/fd/1", "w") as out:
                    out.write(text + "\\n")

        ByName().run()
        """))
    bot.chmod(0o755)
    result = check(tmp_path, bot, "--set", "severity.runtime_cache=ignore")
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == []


def test_a_file_written_by_a_child_process_of_the_bot_is_caught(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(textwrap.dedent(f"""\
        {SHEBANG}
        import os, sys
        sys.path.insert(0, {str(CHESS)!r})
        from _common import Bot

        class ChildWrites(Bot):
            def play_turn(self, *args):
                if self.turn == 3:
                    os.system("mkdir -p notes && echo hello > notes/child.txt")
                super().play_turn(*args)

        ChildWrites().run()
        """))
    bot.chmod(0o755)
    result = check(tmp_path, bot, "--set", "severity.runtime_cache=ignore")
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 1
    folder, child = result.findings()
    assert folder["message"].startswith("created the folder ./notes on its turn 3")
    assert child["message"].startswith("created ./notes/child.txt on its turn 3")
    assert "echo hello" in child["got"] or "sh" in child["got"]


def test_a_python_bytecode_cache_is_the_runtimes(tmp_path):
    """A bot importing its own module on a first run writes __pycache__: a WARN that
    names the cache and how to avoid it (severity.runtime_cache), not the bot's FAIL;
    one a game, with a count and the folder, not one a file."""
    helper = tmp_path / "botlib.py"
    helper.write_text(f"import sys\nsys.path.insert(0, {str(CHESS)!r})\nfrom _common import Bot\n")
    (tmp_path / "botlib2.py").write_text("from botlib import Bot\n")
    bot = tmp_path / "bot.py"
    bot.write_text(f"{SHEBANG}\nimport os, sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
                   f"from botlib2 import Bot\nBot().run()\n")
    bot.chmod(0o755)
    result = check(tmp_path / "run", bot)
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 0, result.stdout + result.stderr
    [finding] = result.findings()  # folder, two temporary files, two renames: one finding
    assert (finding["kind"], finding["severity"], finding["count"]) == ("file_operation", "warn", 1)
    # outside the bot's folder (it runs in tmp_path/run): the path as the bot named it
    # the imports run at start-up, or, on a busy machine, once the judge has sent turn 1
    assert re.match(re.escape(f"Python's bytecode cache: 5 file operations in {tmp_path}/__pycache__ (2 files), "
                              f"the first ") + STARTUP + re.escape(": written by the runtime; "),
                    finding["message"]), finding["message"]
    # -B for the python of the bot's own #! line, not for prototest's python3
    assert f"add -B to the bot's #! line ({SHEBANG_B})" in finding["message"], finding["message"]
    assert finding["path"] == str(tmp_path / "__pycache__")
    assert ".pyc." not in result.stdout  # no temporary name
    again = check(tmp_path / "again", bot)  # the cache is there now: nothing is written
    assert again.code == 0 and again.findings() == []
    os.remove(next((tmp_path / "__pycache__").glob("botlib.*.pyc")))
    strict = check(tmp_path / "strict", bot, "--set", "severity.runtime_cache=fail")
    assert strict.code == 1 and {f["severity"] for f in strict.findings()} == {"fail"}


@pytest.mark.parametrize("adapter", ["adapter.sh", "adapter.py"])
def test_a_bytecode_cache_written_by_an_adapters_child_is_advised_for_that_child(tmp_path, adapter):
    """An adapter (a shell script, or a Python script) runs `python3 engine.py`, which
    writes __pycache__ as it imports its module (sunfish behind an adapter, issue 29).
    The advice names that child, and -B for its command or PYTHONDONTWRITEBYTECODE=1 in
    the environment it gets; not -B on the adapter's command line, which does not reach
    it. Both claims are tried: with -B on the adapter's command the child still writes;
    with the variable in the bot's environment nothing is written."""
    (tmp_path / "enginelib.py").write_text(f"import sys\nsys.path.insert(0, {str(CHESS)!r})\nfrom _common import Bot\n")
    (tmp_path / "engine.py").write_text("from enginelib import Bot\nBot().run()\n")
    (tmp_path / "adapter.sh").write_text("python3 engine.py\n")
    (tmp_path / "adapter.py").write_text("import subprocess, sys\nsys.exit(subprocess.call(['python3', 'engine.py']))\n")
    command = ["sh", adapter] if adapter.endswith(".sh") else ["python3", adapter]

    def run(*extra: str, argv: list[str] = command):
        shutil.rmtree(tmp_path / "__pycache__", ignore_errors=True)
        return run_cli("check", "--start-delay", "150", "--games", "1", *extra, "--", *argv, tmp_path=tmp_path)

    result = run()
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 0, result.stdout + result.stderr
    [finding] = result.findings()
    message = finding["message"]
    assert (f"written by the runtime of python3 engine.py, a process the bot's command ({' '.join(command)}) "
            f"started, not by the bot's command itself; ") in message, message
    assert ("-B on the bot's command line does not reach that process: start it with -B (python3 -B engine.py), "
            "or set PYTHONDONTWRITEBYTECODE=1 in the environment it is started with") in message, message
    assert "add -B after" not in message and "(by pid " in finding["got"] and "python3 engine.py" in finding["got"]
    if adapter.endswith(".py"):  # -B on the adapter's own command line: its child still writes
        again = run(argv=["python3", "-B", adapter])
        advice = message.partition(": written by ")[2]  # the first write's moment may differ
        assert [f["message"].partition(": written by ")[2] for f in again.findings()] == \
            [advice.replace("(python3 adapter.py)", "(python3 -B adapter.py)")]
    quiet = run("--env", "PYTHONDONTWRITEBYTECODE=1")  # the variable reaches the child
    assert quiet.code == 0 and quiet.findings() == [], quiet.stdout


def test_a_bytecode_cache_in_the_bots_folder_is_shown_from_there(tmp_path):
    """The bot runs in its own folder: the finding and the transcript name ./__pycache__,
    no machine path and no temporary name; the game's other seat (a second game) writes
    nothing more, so it has no finding."""
    (tmp_path / "botlib.py").write_text(f"import sys\nsys.path.insert(0, {str(CHESS)!r})\n"
                                        f"from _common import Bot\n")
    bot = tmp_path / "bot.py"
    bot.write_text(f"{SHEBANG}\nfrom botlib import Bot\nBot().run()\n")
    bot.chmod(0o755)
    result = run_cli("check", "--start-delay", "150", "--games", "2", "--jobs", "1", "./bot.py", tmp_path=tmp_path)
    if not watched(result):
        pytest.skip("file operations not watched here")
    assert result.code == 0, result.stdout + result.stderr
    [finding] = result.findings()
    assert finding["game"] == 1 and re.match(re.escape(
        "Python's bytecode cache: 3 file operations in ./__pycache__ (1 file), the first ") + STARTUP,
        finding["message"]), finding["message"]
    transcript = (tmp_path / result.report["games"][0]["transcript"]).read_text()
    assert "W  WARN file_operation: Python's bytecode cache: 3 file operations in ./__pycache__" in transcript
    assert str(tmp_path) not in transcript and ".pyc." not in transcript


def test_without_the_keeper_file_operations_go_unreported_and_the_summary_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PROTOTEST_NO_KEEPER", "1")
    result = check(tmp_path, CHESS / "writes_debug_log.py")
    assert result.code == 0 and result.findings() == []
    assert result.report["sandbox"]["file_operations"] is None
    assert "note: the bot's file operations were not watched (no keeper on this system)" in result.stdout


@pytest.fixture(scope="module")
def java_impasse_bot(tmp_path_factory) -> Path:
    """tests/bots/impasse/Player.java compiled into a folder of its own."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    classes = tmp_path_factory.mktemp("classes")
    subprocess.run(["javac", "-d", str(classes), str(BOTS / "impasse" / "Player.java")], check=True, timeout=120)
    return classes


def perf_data(result) -> list[tuple[str, str, int | None]]:
    """(what it says, folder, turn of the first) of each hsperfdata finding: one a game."""
    return [(f["message"].split(" in ")[0], f["path"], f["turn"])
            for f in result.findings() if "the JVM's performance data" in f["message"]]


def test_a_jvms_perf_data_is_reported_in_the_pid_namespace_as_without_it(tmp_path, java_impasse_bot, monkeypatch):
    """The bot's namespace gives it an /tmp/hsperfdata_USER of its own (two JVMs, both pid 2,
    would share one file), owned by the user and not world-writable as the JVM demands: the
    JVM writes there as on a real machine, and the keeper looks at the bot's own mounts."""
    args = ["--game", "impasse", "--games", "1", "--time-scale", "3", "--", "java", "-cp", str(java_impasse_bot),
            "Player"]
    inside = run_cli("check", *args, tmp_path=tmp_path / "inside")
    if not watched(inside) or inside.report["sandbox"]["containment"] != "pid-namespace":
        pytest.skip(f"no watched PID namespace here: {inside.report['sandbox']}")
    monkeypatch.setenv("PROTOTEST_NO_NAMESPACE", "1")
    outside = run_cli("check", *args, tmp_path=tmp_path / "outside")
    assert outside.report["sandbox"]["containment"] == "keeper"
    for result in (inside, outside):
        assert result.code == 0, result.stdout + result.stderr
        folder = f"/tmp/hsperfdata_{pwd.getpwuid(os.geteuid()).pw_name}"
        # created as the JVM starts (on its first turn, or before the judge's first line when
        # the judge itself was slow to write it), deleted when it exits, after the game
        [(what, where, turn)] = perf_data(result)
        assert (what, where) == ("the JVM's performance data: 2 file operations", folder), result.findings()
        assert turn in (1, None) and f"{folder} (1 file)" in result.findings()[0]["message"]
        assert {(f["kind"], f["severity"]) for f in result.findings()} == {("file_operation", "warn")}
        assert "run java -XX:-UsePerfData" in result.stdout
    assert inside.findings()[0]["got"].startswith(f"created {folder}/2;")  # its pid in its namespace


def test_two_jvms_at_once_keep_their_perf_data_apart(tmp_path, java_impasse_bot):
    """Both are pid 2 in their namespaces: a shared /tmp/hsperfdata_USER/2 would make the
    second JVM print a warning on stdout, which the judge reads as its answer."""
    result = run_cli("check", "--game", "impasse", "--games", "4", "--jobs", "2", "--time-scale", "3", "--",
                     "java", "-cp", str(java_impasse_bot), "Player", tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert [g["result"] for g in result.report["games"]].count("forfeit") == 0
    assert {f["kind"] for f in result.findings()} <= {"file_operation"}
    assert all("the JVM's performance data" in f["message"] for f in result.findings())
    assert "VM warning" not in result.stdout
