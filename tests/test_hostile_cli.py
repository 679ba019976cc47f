"""A hostile or careless bot cannot fool or kill its judge: signals it sends prototest,
prototest killed under it, `#!` lines that cannot run, specs with impossible numbers."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, RUN_TOKEN, bot_env, run_cli

CHESS = BOTS / "chess"
FAST = ["--start-delay", "150", "--games", "1"]
REFERENCE = ["--", sys.executable, "-m", "prototest.bots.chess_bot"]


def one_line_error(result) -> str:
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("prototest: error: ") and "Traceback" not in result.stderr
    return line


# -- #! lines the system cannot run: usage errors, not crashes ------------------------------

def _script(tmp_path: Path, head: bytes) -> Path:
    bot = tmp_path / "bot.py"
    bot.write_bytes(head + b"import sys\nsys.stdin.readline()\n")
    bot.chmod(0o755)
    return bot


def test_a_hash_bang_line_with_windows_line_ending(tmp_path):
    bot = _script(tmp_path, b"#!/usr/bin/env python3\r\n")
    line = one_line_error(run_cli("check", str(bot)))
    assert "its #! line ends in \\r (the file has Windows line endings)" in line
    assert line.endswith(f"sed -i 's/\\r$//' {bot}"), line
    # the hint, run as given, repairs the file: prototest then plays (and the bot fails to answer)
    subprocess.run(["sed", "-i", r"s/\r$//", str(bot)], check=True)
    assert run_cli("check", *FAST, "--time-scale", "0.1", str(bot), tmp_path=tmp_path).code == 1


def test_a_hash_bang_line_that_names_a_directory(tmp_path):
    bot = _script(tmp_path, b"#!/usr/bin\n")
    line = one_line_error(run_cli("check", str(bot)))
    assert line == f"prototest: error: bot '{bot}': its #! interpreter '/usr/bin' is a directory, not a program"


def test_a_byte_order_mark_before_the_hash_bang(tmp_path):
    bot = _script(tmp_path, b"\xef\xbb\xbf#!/usr/bin/env python3\n")
    line = one_line_error(run_cli("check", str(bot)))
    assert "starts with a UTF-8 byte order mark before its #! line" in line
    command = line.split("save it without the mark (", 1)[1].removesuffix(")")
    subprocess.run(command, shell=True, check=True)
    assert bot.read_bytes().startswith(b"#!/usr/bin/env python3\n")


def test_env_given_two_words_on_the_hash_bang_line(tmp_path):
    bot = _script(tmp_path, b"#!/usr/bin/env python3 -u\n")
    line = one_line_error(run_cli("check", str(bot)))
    assert line.endswith("gives env 'python3 -u' as one word (Linux passes the rest of the line as one "
                         "argument): write #!/usr/bin/env -S python3 -u"), line


# -- specs and configs with numbers out of range: usage errors naming file and key ----------

BIG = "1" + "0" * 400


@pytest.mark.parametrize("key,phrase", [
    ("time.answer_ms", "must be at most 86,400,000, got a 401-digit number"),
    ("end.exit_grace_ms", "must be at most 86,400,000, got a 401-digit number"),
    ("time.first_answer_ms", "must be at most 86,400,000, got a 401-digit number"),
    ("start.silent_ms", "must be at most 86,400,000, got a 401-digit number"),
    ("game.max_line_bytes", "must be at most 67,108,864, got a 401-digit number"),
    ("fuzz.max_plies", "must be at most 20,000, got a 401-digit number"),
])
def test_an_integer_too_large_for_a_float_is_a_usage_error(tmp_path, key, phrase):
    """Once an OverflowError (internal error, status 3): now the file and the key are named."""
    section, name = key.split(".")
    spec = tmp_path / "big.toml"
    spec.write_text(f"extends = {str(ROOT / 'specs' / 'chess.toml')!r}\n[{section}]\n{name} = {BIG}\n")
    line = one_line_error(run_cli("check", "--spec", str(spec), *REFERENCE))
    assert line == f"prototest: error: {spec}: {key}: {phrase}"


def test_other_numbers_out_of_range(tmp_path):
    line = one_line_error(run_cli("check", "--set", "time.near_limit_percent=500", *REFERENCE))
    assert line.endswith("time.near_limit_percent: must be at most 100, got 500")
    line = one_line_error(run_cli("check", "--set", f"time.clock_ms=-{BIG}", *REFERENCE))
    assert line.endswith("time.clock_ms: must be at least 0, got a 402-digit number")
    config = tmp_path / "prototest.toml"
    config.write_text(f"game = \"chess\"\ngames = {BIG}\n")
    line = one_line_error(run_cli("check", "--config", str(config), *REFERENCE))
    assert line == f"prototest: error: {config}: games: must be at most 1,000,000, got a 401-digit number"
