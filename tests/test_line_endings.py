"""Line endings as each judge reads them: CodinGame's runner ends a line at \\r too."""

from __future__ import annotations

import stat
import time

import pytest

from conftest import run_cli
from test_process import deadline, start

CG_BOT = r'''#!/usr/bin/env python3
import sys, time
END = {ending!r}
first = True
while True:
    if first:
        if not sys.stdin.readline():
            break
        first = False
    board = [sys.stdin.readline() for _ in range(8)]
    if not board[0]:
        break
    sys.stdin.readline()
    moves = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    sys.stdout.write(moves[0] + END[0])
    sys.stdout.flush()
    if len(END) > 1:  # the "\n" of "\r\n" in a later write
        time.sleep(0.002)
        sys.stdout.write(END[1:])
        sys.stdout.flush()
'''


@pytest.mark.parametrize("ending", ["\r", "\r\n"], ids=["bare-cr", "crlf-split"])
def test_codingame_accepts_cr_endings_with_a_warning(tmp_path, ending):
    bot = tmp_path / "bot.py"
    bot.write_text(CG_BOT.format(ending=ending))
    bot.chmod(bot.stat().st_mode | stat.S_IEXEC)
    result = run_cli("check", "--game", "impasse", "--games", "1", str(bot), tmp_path=tmp_path)
    assert result.code == 0, result.stdout
    assert {(f["kind"], f["severity"]) for f in result.findings()} == {("malformed", "warn")}
    assert "line ends with \\r" in result.findings()[0]["message"]


def test_cr_ends_a_line_only_where_the_spec_says():
    code = "import sys, time; sys.stdout.write('e2e4\\r'); sys.stdout.flush(); time.sleep(0.05); sys.stdout.write('\\nd2d4\\n'); sys.stdout.flush(); sys.stdin.readline()"
    with start(code) as bot:
        bot.reader.cr_ends_line = True
        first = bot.read_line(deadline(5))
        assert (first.kind, first.data, first.end) == ("line", b"e2e4", b"\r")
        time.sleep(0.2)
        second = bot.read_line(deadline(5))  # the "\n" after "\r" is no empty line
        assert (second.data, second.end) == (b"d2d4", b"\n")
    with start(code) as bot:
        first = bot.read_line(deadline(5))
        assert (first.data, first.end) == (b"e2e4\r", b"\n")  # ends at "\n", keeps the "\r"
        assert bot.read_line(deadline(5)).data == b"d2d4"
