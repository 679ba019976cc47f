"""A runtime cache's advice names the process that wrote the cache (issue 29, item 4): the
bot's own command gets -B where its python is named; a process the bot's command started
(an adapter's `python3 engine.py`) gets the advice for that process and the environment
it inherits, never -B on the bot's command line, which does not reach it."""

from __future__ import annotations

import pytest

from prototest.sandbox import conduct

PYTHON, JVM = (hint for _, hint in conduct.RUNTIME_CACHES)


def advice(cmd: str, argv: list[str], hint: str = PYTHON, cwd: str | None = "/bots/x") -> str:
    return conduct.cache_advice(hint, {"e": "file", "pid": 42, "cmd": cmd}, argv, cwd)


@pytest.mark.parametrize("cmd, argv", [
    ("python3 bot.py", ["python3", "bot.py"]),
    ("python3 -m prototest.bots.chess_bot", ["python3", "-m", "prototest.bots.chess_bot"]),
    ("/usr/bin/python3 ./bot.py --depth 3", ["./bot.py", "--depth", "3"]),  # a #! script
    ("/venv/bin/python /venv/bin/prototest-chess-bot", ["prototest-chess-bot"]),  # found on the PATH
    ("python3 -u ./bot.py", ["./bot.py"]),  # #!/usr/bin/env -S python3 -u
])
def test_the_bots_own_command_is_told_apart(cmd, argv):
    assert conduct.is_the_bots_command(cmd, argv)


@pytest.mark.parametrize("cmd, argv", [
    ("python3 sunfish.py", ["python3", "adapter.py"]),
    ("python3 engine.py", ["sh", "adapter.sh"]),
    ("python3 engine.py", ["./adapter"]),
    ("python3 bot.py --child", ["python3", "bot.py"]),
])
def test_a_child_is_not_the_bots_command(cmd, argv):
    assert not conduct.is_the_bots_command(cmd, argv)


def test_the_bots_own_python_gets_minus_b_on_its_command_line():
    assert advice("python3 bot.py", ["python3", "bot.py"]) == (
        "Python's bytecode cache: add -B after python3 in the bot's command line (python3 -B bot.py), or compile "
        "its files before the run (python3 -m compileall)")


def test_sunfish_behind_an_adapter_gets_the_advice_for_sunfish():
    """The issue's case: `python3 adapter.py` runs `python3 sunfish.py`, which writes the
    cache. Before: 'add -B after python3 in the bot's command line (python3 -B adapter.py)'."""
    said = advice("python3 /bots/x/sunfish.py", ["python3", "adapter.py"])
    assert said == (
        "Python's bytecode cache: written by the runtime of python3 ./sunfish.py, a process the bot's command "
        "(python3 adapter.py) started, not by the bot's command itself; -B on the bot's command line does not "
        "reach that process: start it with -B (python3 -B ./sunfish.py), or set PYTHONDONTWRITEBYTECODE=1 in "
        "the environment it is started with (a child process inherits it from the bot), or compile its files "
        "before the run (python3 -m compileall)")
    message = conduct.cache_message(said, [{"op": "create folder", "path": "/bots/x/__pycache__"}], "/bots/x",
                                    "at start-up")
    assert message == (
        "Python's bytecode cache: 1 file operation in ./__pycache__, the first at start-up: written by the "
        "runtime of python3 ./sunfish.py, a process the bot's command (python3 adapter.py) started, not by the "
        "bot's command itself; a judge that allows no file operations may kill the bot for it: -B on the bot's "
        "command line does not reach that process: start it with -B (python3 -B ./sunfish.py), or set "
        "PYTHONDONTWRITEBYTECODE=1 in the environment it is started with (a child process inherits it from the "
        "bot), or compile its files before the run (python3 -m compileall)")
    assert conduct.is_cache_message(message)


def test_an_embedded_python_gets_the_environment_variable_only():
    said = advice("./engine --threads 2", ["./adapter"])
    assert "start it with -B" not in said and "compileall" not in said
    assert "written by the runtime of ./engine --threads 2, a process the bot's command (./adapter) started" in said
    assert "set PYTHONDONTWRITEBYTECODE=1 in the environment it is started with" in said


def test_a_jvm_started_by_a_wrapper_gets_its_own_advice():
    said = advice("java -jar bot.jar", ["sh", "run.sh"], hint=JVM)
    assert said.startswith("the JVM's performance data: written by java -jar bot.jar, a process the bot's "
                           "command (sh run.sh) started, not by the bot's command itself; ")
    assert "start it with -XX:-UsePerfData (java -XX:-UsePerfData -jar bot.jar)" in said
    assert "JAVA_TOOL_OPTIONS=-XX:-UsePerfData" in said
    assert advice("java -cp c Player", ["java", "-cp", "c", "Player"], hint=JVM) == JVM  # the bot's own JVM


def test_a_writer_not_named_gets_the_plain_hint():
    """The process was gone before it could be named (no command line): no process is named."""
    assert conduct.cache_advice(PYTHON, {"e": "file", "pid": 42}, ["python3", "adapter.py"], None) == PYTHON
