"""The keepers' host (prototest.sandbox.keeper._Host): from a process's second bot start on, keepers
are forked by a small process of prototest's own, as this process's own children. The bot
runs as before; what the sandbox guarantees (docs/sandbox.md) holds for them too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from conftest import ROOT, RUN_TOKEN, alive_with, bot_env, none_alive_with
from prototest.sandbox import keeper, keeperhost, process
from prototest.sandbox.envelope import Envelope
from prototest.sandbox.transcript import Transcript

pytestmark = pytest.mark.skipif(not keeper.supported(), reason="no keeper on this system")

SECOND = 1_000_000_000


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[1])


def command_line(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return fh.read().replace(b"\0", b" ").decode(errors="replace")


def echo_once(env: dict[str, str] | None = None) -> tuple[process.Bot, bytes, int | None, tuple[int, str]]:
    """A bot that answers one line and exits: (the bot, its answer, its exit status, and
    its keeper's parent and command line while it ran)."""
    key, _, value = RUN_TOKEN.partition("=")
    bot = process.Bot([sys.executable, "-c", "import sys; print(sys.stdin.readline().strip(), flush=True)"],
                      env={**process.controlled_env(), key: value, **(env or {})}, transcript=Transcript(),
                      max_line=1024, watch_files=True, envelope=Envelope(platform="test"))
    with bot:
        # read while the bot waits for its line: the keeper surely runs (once the bot has
        # answered it may be gone, or a zombie, whose command line is empty: seen beside two
        # CPU burners, a start through the host read as one forked here)
        keeper_pid = bot.keeper_pid
        assert keeper_pid is not None
        facts = (parent_of(keeper_pid), command_line(keeper_pid))
        bot.send(["hello"], time.perf_counter_ns() + 10 * SECOND)
        read = bot.read_line(time.perf_counter_ns() + 10 * SECOND)
        bot.close_stdin()
        code, _ = bot.wait_exit(10 * SECOND)
    return bot, read.data, code, facts


def test_keepers_forked_by_the_host_are_this_processs_children_and_the_bot_runs_as_before(monkeypatch):
    monkeypatch.delenv("PROTOTEST_NO_KEEPER_HOST", raising=False)
    keeper.close_hosts()
    monkeypatch.setattr(keeperhost, "_host_starts", {})  # where the host lives (keeper re-exports it)
    monkeypatch.setattr(keeperhost, "_hosts_lost", set())
    seen, sandboxes = [], set()
    # the host's start takes its time (an interpreter's start, long on a busy machine: beside
    # two CPU burners five starts 0.1 s apart were not enough): bots start until it serves
    deadline = time.monotonic() + 60
    try:
        while len(seen) < 5 or (not seen[-1] and time.monotonic() < deadline):
            bot, answer, code, (parent, command) = echo_once()
            assert (answer, code) == (b"hello", 0)
            assert parent == os.getpid()  # clone(CLONE_PARENT): the judge's own child, whoever forked it
            sandboxes.add((bot.containment, bot.file_watch, bot.file_watch_missing))
            seen.append(" -I -S -c " in command)
            for host in keeper.host_pids():  # it runs beside us: no child a bot left behind
                assert host not in [pid for pid, _ in process._descendants(os.getpid(), 0)]
            time.sleep(0.1)  # the host gets ready meanwhile
        # the first starts fork the keeper here; once the host is ready, it forks them (all
        # of them from then on); the bot is contained and watched the same way either way
        assert seen[0] is False and seen[-1] is True, seen
        assert all(seen[seen.index(True):]), seen
        assert len(sandboxes) == 1
        [host] = keeper.host_pids()
        assert "prototest" in command_line(host) and parent_of(host) == os.getpid()
    finally:
        keeper.close_hosts()
    assert keeper.host_pids() == set()


def test_prototest_no_keeper_host_forks_every_keeper_here(monkeypatch):
    monkeypatch.setenv("PROTOTEST_NO_KEEPER_HOST", "1")
    for _ in range(4):
        _, answer, code, (parent, command) = echo_once()
        assert (answer, code) == (b"hello", 0) and parent == os.getpid()
        assert " -I -S -c " not in command


def test_a_lost_host_means_keepers_forked_here(monkeypatch):
    monkeypatch.delenv("PROTOTEST_NO_KEEPER_HOST", raising=False)
    keeper.close_hosts()
    monkeypatch.setattr(keeperhost, "_host_starts", {})  # where the host lives (keeper re-exports it)
    monkeypatch.setattr(keeperhost, "_hosts_lost", set())
    try:
        for _ in range(4):
            echo_once()
        [host] = keeper.host_pids()
        os.kill(host, signal.SIGKILL)
        for _ in range(3):
            _, answer, code, (parent, command) = echo_once()
            assert (answer, code) == (b"hello", 0) and parent == os.getpid()
    finally:
        keeper.close_hosts()


def test_sigkill_of_the_judge_leaves_neither_bot_nor_host(tmp_path):
    """A judge whose third bot (its keeper forked by the host) hangs, with a child that left
    its group, is killed with SIGKILL: the bot, its child and the host all die."""
    token = f"PROTOTEST_HOST_TEST={uuid.uuid4().hex}"
    key, _, value = token.partition("=")
    script = textwrap.dedent(f"""
        import sys, time
        from prototest.sandbox import keeper, process
        from prototest.sandbox.transcript import Transcript
        env = {{**process.controlled_env(), {key!r}: {value!r}}}
        quick = "import sys; sys.stdin.readline()"
        hang = ("import os, subprocess, sys, time; subprocess.Popen([sys.executable, '-c', "
                "'import time; time.sleep(300)'], start_new_session=True); time.sleep(300)")
        bots = []
        for code in (quick, quick, quick, hang):
            bot = process.Bot([sys.executable, "-c", code], env=env, transcript=Transcript(), max_line=64)
            if code == quick:
                bot.close_stdin(); bot.wait_exit(10 ** 10); bot.kill()
                time.sleep(0.2)  # the host gets ready meanwhile
            bots.append(bot)
        print(sorted(keeper.host_pids()), flush=True)
        time.sleep(300)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], env=bot_env(), cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        hosts = eval(proc.stdout.readline())  # noqa: S307 - our own script's list of pids
        assert len(hosts) == 1, proc.stderr.read() if proc.poll() is not None else hosts
        deadline = time.monotonic() + 30
        while len(alive_with(token)) < 2:  # the bot and its child
            assert time.monotonic() < deadline, "the bot did not start"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert none_alive_with(token) == []
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{hosts[0]}") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not os.path.exists(f"/proc/{hosts[0]}") or "Z" in open(f"/proc/{hosts[0]}/stat").read().split(")")[-1][:3]
    finally:
        proc.kill()
        proc.wait()
