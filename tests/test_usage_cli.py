"""Usage errors met by bots in other languages: each says what to type instead, in one line."""

from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest

from conftest import BOTS, RUN_TOKEN, run_cli

IMPASSE = BOTS / "impasse"


def one_line_error(result) -> str:
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("prototest: error: ") and "Traceback" not in result.stderr
    return line


def test_options_of_the_bots_command_get_a_hint():
    line = one_line_error(run_cli("check", "--game", "impasse", "-n", "1", "java", "-cp", "build", "Player"))
    assert line.startswith("prototest: error: No such option: -c ('java' starts the bot's command"), line
    # run_cli puts its own --env first, so the hint has it too
    assert line.endswith(f"put the command after --: prototest check --env {RUN_TOKEN} --game impasse -n 1 -- "
                         f"java -cp build Player)"), line


def test_an_unknown_option_before_any_bot_gets_no_hint():
    assert one_line_error(run_cli("check", "--xyzzy", "java")) == "prototest: error: No such option: --xyzzy"


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_the_hinted_command_runs_a_java_bot(tmp_path):
    """The command the hint gives, run as it stands, checks a compiled Java CodinGame bot."""
    classes = tmp_path / "classes"
    subprocess.run(["javac", "-d", str(classes), str(IMPASSE / "Player.java")], check=True, timeout=120)
    args = ["check", "--game", "impasse", "--time-scale", "3", "--games", "2", "java", "-cp", str(classes), "Player"]
    line = one_line_error(run_cli(*args))
    hinted = shlex.split(line.split("put the command after --: prototest ", 1)[1].removesuffix(")"))
    assert hinted[1:3] == ["--env", RUN_TOKEN]  # run_cli's own, given again below
    del hinted[1:3]
    assert hinted == args[:7] + ["--"] + args[7:]
    result = run_cli(*hinted, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    # the JVM writes its performance data (hsperfdata) for itself: a warning of its own, no fault of the bot's
    assert [f for f in result.findings() if "the JVM's performance data" not in f["message"]] == []
    assert len(result.report["games"]) == 2


def test_a_whole_command_in_one_argument():
    line = one_line_error(run_cli("check", "python3 my bot.py --fast"))
    assert "'python3 my bot.py --fast' looks like a whole command in one argument" in line
    assert line.endswith("prototest check -- python3 my bot.py --fast")


@pytest.mark.parametrize("name,phrases", [
    ("Player.java", ["is not executable: name its interpreter: prototest check -- java {path}"]),
    ("Player.class", ["is not executable: name its interpreter: prototest check -- java -cp {dir} Player"]),
    ("bot.js", ["chmod +x it (it needs a #! line), or name its interpreter: prototest check -- node {path}",
                "node -r ./codingame_readline.js {path}"]),
    ("bot.ts", ["name its interpreter: prototest check -- "]),
    ("bot.cpp", ["compile it first (g++ -O2 -o mybot {path}), then: prototest check ./mybot"]),
], ids=["java-source", "java-class", "javascript", "typescript", "cpp"])
def test_a_file_that_needs_an_interpreter_names_it(tmp_path, name, phrases):
    path = tmp_path / name
    path.write_text("// a bot\n")
    line = one_line_error(run_cli("check", "--game", "impasse", str(path)))
    assert f"bot '{path}'" in line
    for phrase in phrases:
        assert phrase.format(path=path, dir=tmp_path) in line, line
    if name == "bot.ts":  # whichever runner exists is named; without one, npx fetches tsx
        runners = [r for r in ("tsx", "ts-node") if shutil.which(r)]
        expected = f"{runners[0]} {path}" if runners else f"npx tsx {path}; neither tsx nor ts-node is on"
        assert expected in line, line


def test_an_executable_class_file_cannot_run_by_itself(tmp_path):
    path = tmp_path / "Player.class"
    path.write_bytes(b"\xca\xfe\xba\xbe\x00\x00\x00\x41")
    path.chmod(0o755)
    line = one_line_error(run_cli("check", "--game", "impasse", str(path)))
    assert line == f"prototest: error: bot '{path}' cannot run by itself: name its interpreter: " \
                   f"prototest check -- java -cp {tmp_path} Player"
