"""The printed replay's `prototest` started ahead (prototest.play.replayready): it waits for
its arguments, runs them as the command would, ends quietly when none come, and the sweeps
after a bot's kill pass it by."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from prototest.entry import READY_FD as ENTRY_READY_FD
from prototest.play.replayready import READY_FD, ReadyChecks
from prototest.sandbox import reaping

BOTS = Path(__file__).parent / "bots"
FAILING = BOTS / "impasse" / "crown_after_bear_off.py"


def test_the_variable_is_the_one_the_command_reads() -> None:
    assert READY_FD == ENTRY_READY_FD


def _check_args(out: Path) -> list[str]:
    return ["check", "--game", "impasse", "--games", "1", "--seed", "1", "--json", str(out), "--quiet", "--",
            sys.executable, str(FAILING)]


def _findings(path: Path) -> list[tuple[str, int]]:
    data = json.loads(path.read_text())
    return [(f["kind"], f["ply"]) for f in data["findings"] if f.get("severity") == "fail"]


def test_a_command_started_ahead_runs_as_the_command_would(tmp_path: Path) -> None:
    fresh = subprocess.run([sys.executable, "-m", "prototest", *_check_args(tmp_path / "fresh.json")],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    ready = ReadyChecks()
    try:
        ready.start(1)
        proc = ready.take(_check_args(tmp_path / "ready.json"))
        assert proc is not None
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        ready.close()
    assert proc.returncode == fresh.returncode == 1, (stderr, fresh.stderr)
    assert _findings(tmp_path / "ready.json") == _findings(tmp_path / "fresh.json")
    assert _findings(tmp_path / "ready.json")[0][0] == "illegal_move"
    assert ready.take(["games"]) is None  # each is taken once


def _started_ahead(command: bytes | None) -> subprocess.CompletedProcess:
    """`python -m prototest` started with READY_FD, given `command` (None: its pipe closed
    with nothing written)."""
    read, write = os.pipe()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "prototest"], pass_fds=(read,),
                                env={**os.environ, READY_FD: str(read)}, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(read)
    if command is not None:
        os.write(write, command)
    os.close(write)
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def test_a_command_whose_pipe_closes_unused_ends_at_once_and_says_nothing() -> None:
    done = _started_ahead(None)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    ready = ReadyChecks()
    ready.start(2)
    procs = [proc for proc, _ in ready._waiting]
    ready.close()
    assert [proc.returncode for proc in procs] == [0, 0]
    assert not {proc.pid for proc in procs} & reaping.helpers


def test_any_command_runs_as_given() -> None:
    done = _started_ahead(b'["games"]\n')
    listed = subprocess.run([sys.executable, "-m", "prototest", "games"], capture_output=True, text=True,
                            timeout=60)
    assert done.returncode == listed.returncode == 0, done.stderr
    assert "impasse" in done.stdout
    assert done.stdout == listed.stdout
    bad = _started_ahead(b'["check", "--no-such-option"]\n')
    plain = subprocess.run([sys.executable, "-m", "prototest", "check", "--no-such-option"], capture_output=True,
                           text=True, timeout=60)
    assert bad.returncode == plain.returncode != 0
    assert bad.stderr == plain.stderr


def test_the_sweeps_after_a_bots_kill_pass_a_command_started_ahead_by() -> None:
    ready = ReadyChecks()
    try:
        ready.start(1)
        (proc, _), = ready._waiting
        other_group = os.getpgrp() + 1  # every descendant is outside it: all would be swept
        assert proc.pid in reaping.helpers
        assert proc.pid not in [pid for pid, _ in reaping._descendants(os.getpid(), other_group)]
        assert proc.pid not in [pid for pid, _ in reaping._descendants_by_walk(os.getpid(), other_group)]
        reaping.helpers.discard(proc.pid)  # (the same look without the exemption finds it)
        assert proc.pid in [pid for pid, _ in reaping._descendants(os.getpid(), other_group)]
        reaping.helpers.add(proc.pid)
    finally:
        ready.close()
    assert proc.pid not in reaping.helpers
