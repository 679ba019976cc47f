"""Shared helpers: run the real CLI as a user would, and make sure no bot outlives the suite."""

from __future__ import annotations

import compileall
import json
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

#: Every bot this suite starts carries this in its environment (through --env), so the
#: leftover check finds exactly this run's bots and nobody else's.
RUN_TOKEN = f"PROTOTEST_SUITE_RUN={uuid.uuid4().hex}"

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).resolve().parent / "bots"
#: A chess check that ends soon: a short silence before the colour line, a 1-second clock.
CHESS_FAST = ("--start-delay", "150", "--time-scale", "0.1")

# The bots' Python files and prototest's own, compiled before any bot runs: a bot that
# writes its bytecode cache (__pycache__) is reported (runtime_cache), and a test bot must
# not do that only on a fresh checkout.
compileall.compile_dir(str(BOTS), quiet=1)
compileall.compile_dir(str(ROOT / "prototest"), quiet=1)

# Subprocess work has no useful per-example deadline.
settings.register_profile("prototest", deadline=None, max_examples=50)
settings.load_profile("prototest")


def bot_env() -> dict[str, str]:
    """The environment the CLI runs in: this interpreter's bin first on PATH, so bots'
    `#!/usr/bin/env python3` find python-chess."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("PYTHONUNBUFFERED", None)
    return env


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str
    report: dict | None

    def findings(self, severity: str | None = None) -> list[dict]:
        found = (self.report or {}).get("findings", [])
        return [f for f in found if severity is None or f["severity"] == severity]

    def kinds(self, severity: str | None = None) -> set[str]:
        return {f["kind"] for f in self.findings(severity)}


def run_cli(*args: str, tmp_path: Path | None = None, timeout: float = 120, transcripts: bool = True) -> CliResult:
    """Run `python -m prototest ARGS`; with tmp_path, ask for a JSON report and read it
    (and, for check, for the transcripts in tmp_path/transcripts, unless `transcripts`
    is False: then they go where prototest puts them by default)."""
    argv = [sys.executable, "-m", "prototest", *args]
    if tmp_path is not None:
        tmp_path.mkdir(parents=True, exist_ok=True)
    report_path = None
    if tmp_path is not None and args and args[0] in ("check", "fuzz"):
        report_path = tmp_path / "report.json"
        argv[4:4] = ["--json", str(report_path)]
        if args[0] == "check" and transcripts:
            argv[4:4] = ["--transcripts", str(tmp_path / "transcripts")]
    if args and args[0] in ("check", "fuzz"):
        argv[4:4] = ["--env", RUN_TOKEN]
    proc = subprocess.run(argv, capture_output=True, text=True, env=bot_env(), cwd=tmp_path or ROOT,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    report = json.loads(report_path.read_text()) if report_path and report_path.exists() else None
    return CliResult(proc.returncode, proc.stdout, proc.stderr, report)


def _bot_processes() -> list[str]:
    """Live processes started by this suite's checks (found by RUN_TOKEN)."""
    token = RUN_TOKEN.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if state != "Z" and token in environ.split(b"\0"):
            found.append(f"{entry.name}: {cmdline.strip()}")
    return found


def alive_with(token: str) -> list[str]:
    """Live (not zombie) processes whose environment or command line holds `token`: a
    test's own token finds its bots wherever they are, whatever pids they see themselves
    (in a PID namespace of their own, a bot's pids are not prototest's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            environ = (entry / "environ").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if state != "Z" and (token.encode() in environ or token.encode() in cmdline):
            command = cmdline.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{entry.name}: {command}")
    return found


def none_alive_with(token: str, seconds: float = 10) -> list[str]:
    """Wait (a while at most) until no process holds `token`; what is left."""
    deadline = time.monotonic() + seconds
    while (left := alive_with(token)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.fixture(scope="session", autouse=True)
def no_bot_left_behind():
    """After the whole suite, no bot process may be left running."""
    yield
    leftovers = _bot_processes()
    assert not leftovers, f"bot processes left behind: {leftovers}"
