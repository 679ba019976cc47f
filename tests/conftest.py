"""Shared helpers: run the real CLI as a user would, and make sure no bot outlives the suite."""

from __future__ import annotations

import atexit
import compileall
import json
import locale
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

#: Every bot this suite starts carries this in its environment (through --env), so the
#: leftover check finds exactly this run's bots and nobody else's.
RUN_TOKEN = f"PROTOTEST_SUITE_RUN={uuid.uuid4().hex}"

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).resolve().parent / "bots"
#: A chess check that ends soon: a short silence before the colour line, a 1-second clock.
CHESS_FAST = ("--start-delay", "150", "--time-scale", "0.1")


def one_per_seat(*args: str) -> tuple[str, ...]:
    """`--games` for one game per seat played (1 with --seat, else 2), unless `args` give
    --games: what `check` played by default before its default became 24 games (issue 20,
    item 7), for the tests written against that."""
    if "--games" in args or "-n" in args:
        return ()
    return ("--games", "1" if "--seat" in args else "2")

# The bots' Python files and prototest's own, compiled before any bot runs: a bot that
# writes its bytecode cache (__pycache__) is reported (runtime_cache), and a test bot must
# not do that only on a fresh checkout.
compileall.compile_dir(str(BOTS), quiet=1)
compileall.compile_dir(str(ROOT / "prototest"), quiet=1)
compileall.compile_dir(str(ROOT / "examples" / "connect4"), quiet=1)  # its bot too (an editable install)

# The cache fuzz keeps between campaigns (instrumented code: prototest.sandbox.coverage.codecache)
# goes to a folder of this run's, never the user's: no test reaches outside its own run.
_CACHE = tempfile.mkdtemp(prefix="prototest-suite-cache-")
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
os.environ["PROTOTEST_CACHE_DIR"] = _CACHE

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


def not_busy(report: dict | None) -> dict | None:
    """The report without its busy_machine warnings (prototest saying the machine, not the
    bot, made an answer late): the suite runs beside other work, and only the tests of that
    warning look for it (CliResult.findings(busy=True), CliResult.raw)."""
    if not report or "findings" not in report:
        return report
    found = report["findings"]
    if isinstance(found, list):
        kept = [f for f in found if f.get("kind") != "busy_machine"]
    elif isinstance(found, dict):  # match: each bot's findings
        kept = {k: [f for f in v if f.get("kind") != "busy_machine"] if isinstance(v, list) else v
                for k, v in found.items()}
    else:
        return report
    return {**report, "findings": kept}


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str
    report: dict | None  # without busy_machine warnings (see not_busy)
    raw: dict | None = None  # the report as prototest wrote it

    def __post_init__(self) -> None:
        if self.raw is None:
            self.raw, self.report = self.report, not_busy(self.report)

    def findings(self, severity: str | None = None, busy: bool = False) -> list[dict]:
        """The report's findings, of `severity` if given. A busy_machine warning (prototest
        saying the machine, not the bot, made an answer late) is left out unless `busy`:
        the suite runs beside other work, and only the tests of that warning look for it."""
        found = ((self.raw if busy else self.report) or {}).get("findings", [])
        return [f for f in found if (severity is None or f["severity"] == severity)
                and (busy or f["kind"] != "busy_machine")]

    def kinds(self, severity: str | None = None, busy: bool = False) -> set[str]:
        return {f["kind"] for f in self.findings(severity, busy)}


def referee_game(tmp_path: Path, source: str, *args: str, game: str = "impasse", wait: float = 60,
                 stuck: str = "the game did not end") -> Any:
    """One game of a bot written from `source` (run with this Python and `args`) through the
    real referee, in a thread given `wait` seconds (`stuck` is the failure's words when it
    takes longer): the game's report. For a test that patches prototest in this process."""
    from prototest.games import rules_module
    from prototest.judge import spec as specmod
    from prototest.judge.referee import GameConfig, Referee
    from prototest.sandbox import process

    bot = tmp_path / "bot.py"
    bot.write_text(source)
    spec = specmod.load(specmod.spec_path_for(game))
    module = rules_module(game)
    cfg = GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module,
                     argv=[sys.executable, str(bot), *args], seat=0, seed=1, index=1, env=process.controlled_env(),
                     cwd=str(tmp_path))
    done: list = []
    thread = threading.Thread(target=lambda: done.append(Referee(cfg).run()), daemon=True)
    thread.start()
    thread.join(wait)
    assert done, stuck
    return done[0]


def run_cli(*args: str, tmp_path: Path | None = None, timeout: float = 120, transcripts: bool = True,
            fresh: bool = False, env: dict[str, str] | None = None) -> CliResult:
    """Run `python -m prototest ARGS`; with tmp_path, ask for a JSON report and read it
    (check, fuzz, match, replay; unless ARGS name their own --json) and, for check, for
    the transcripts in tmp_path/transcripts, unless `transcripts` is False: then they go
    where prototest puts them by default. The bots of check, fuzz, match and replay get
    RUN_TOKEN in their environment (the suite's leftover-process check finds them by it).

    The run is a child of the suite's fork server (tests/cli_server.py: the imports done
    once), or with `fresh` (or PROTOTEST_SUITE_FRESH=1 for every run) a new interpreter:
    for tests that compare two runs for determinism, which a shared hash seed could hide.
    `env`: variables set for prototest itself (PROTOTEST_NO_CGROUP=1)."""
    argv = [sys.executable, "-m", "prototest", *args]
    if tmp_path is not None:
        tmp_path.mkdir(parents=True, exist_ok=True)
    report_path = None
    judged = bool(args) and args[0] in ("check", "fuzz", "match", "replay")
    if tmp_path is not None and judged and "--json" not in args:
        report_path = tmp_path / "report.json"
        argv[4:4] = ["--json", str(report_path)]
    if tmp_path is not None and args and args[0] == "check" and transcripts:
        argv[4:4] = ["--transcripts", str(tmp_path / "transcripts")]
    if judged:
        argv[4:4] = ["--env", RUN_TOKEN]
    forked = None
    if not fresh and not os.environ.get("PROTOTEST_SUITE_FRESH") and _SERVER.lock.acquire(blocking=False):
        try:
            forked = _SERVER.run(argv[1:], env={**bot_env(), **(env or {})}, cwd=tmp_path or ROOT, timeout=timeout)
        except ConnectionError:
            _SERVER.close()  # no server (it could not start?): a fresh interpreter shows why
        finally:
            _SERVER.lock.release()
    if forked is not None:
        code, stdout, stderr = forked
    else:
        proc = subprocess.run(argv, capture_output=True, text=True, env={**bot_env(), **(env or {})}, cwd=tmp_path or ROOT,
                              timeout=timeout, stdin=subprocess.DEVNULL, check=False)
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    report = json.loads(report_path.read_text()) if report_path and report_path.exists() else None
    return CliResult(code, stdout, stderr, report)


class _CliServer:
    """This pytest process's connection to its fork server (started at its first run)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sock: socket.socket | None = None
        self.proc: subprocess.Popen | None = None

    def _connected(self) -> socket.socket:
        if self.sock is not None and self.proc is not None and self.proc.poll() is None:
            return self.sock
        self.close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("cli_server.py")),
                                      str(theirs.fileno())], pass_fds=(theirs.fileno(),), env=bot_env(),
                                     cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        theirs.close()
        self.sock = ours
        return ours

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()  # the server ends when its socket closes
            self.sock = None
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def run(self, args: list[str], *, env: dict[str, str], cwd: Path, timeout: float) -> tuple[int, str, str]:
        """`python -m prototest ...` (args: "-m", "prototest", ...) forked by the server:
        (exit status, stdout, stderr) as subprocess.run(text=True, timeout=...) gives them."""
        sock = self._connected()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        stdin = os.open(os.devnull, os.O_RDONLY)
        assert args[:2] == ["-m", "prototest"], args
        request = json.dumps({"argv": args[2:], "cwd": str(cwd), "env": env}).encode()
        try:
            socket.send_fds(sock, [request], [stdin, out_w, err_w])
        finally:
            for fd in (stdin, out_w, err_w):
                os.close(fd)
        chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
        answers: list[dict] = []
        selector = selectors.DefaultSelector()
        for fd in (out_r, err_r, sock.fileno()):
            selector.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        timed_out = killed = False
        try:
            # Until both pipes are closed and the exit status has come, as communicate() does;
            # past the timeout, kill the run and wait for its status only, as run() does.
            while selector.get_map():
                timed_out = timed_out or time.monotonic() >= deadline
                if timed_out and len(answers) == 2:
                    break
                if timed_out and len(answers) == 1 and not killed:
                    os.kill(answers[0]["pid"], signal.SIGKILL)
                    killed = True
                for key, _ in selector.select(0.05 if timed_out else deadline - time.monotonic()):
                    if key.fd == sock.fileno():
                        data = sock.recv(1 << 16)
                        if not data:
                            raise ConnectionError("the suite's CLI fork server ended")
                        answers.append(json.loads(data))
                        if len(answers) == 2:
                            selector.unregister(key.fd)
                    elif data := os.read(key.fd, 1 << 16):
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
        finally:
            selector.close()
            os.close(out_r)
            os.close(err_r)
        if timed_out:
            raise subprocess.TimeoutExpired([sys.executable, *args], timeout)
        encoding = locale.getpreferredencoding(False)
        stdout, stderr = (b"".join(chunks[fd]).decode(encoding).replace("\r\n", "\n").replace("\r", "\n")
                          for fd in (out_r, err_r))
        return answers[1]["status"], stdout, stderr


_SERVER = _CliServer()


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


def bots_with(token: str) -> list[int]:
    """Live (not zombie) processes whose environment holds `token` (a `NAME=value` pair
    given to the bots with --env): the bots and their children, not prototest, its workers
    or keepers, which name the token on their command lines only."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if state != "Z" and token.encode() in environ.split(b"\0"):
            found.append(int(entry.name))
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
    _SERVER.close()
    leftovers = _bot_processes()
    assert not leftovers, f"bot processes left behind: {leftovers}"
