"""The bot process layer on its own: pipes, bounded memory, process groups, environment."""

from __future__ import annotations

import signal
import sys
import time
import types
import uuid

import pytest

from conftest import RUN_TOKEN, alive_with, none_alive_with
from prototest.sandbox import envelope, process, waits
from prototest.sandbox.transcript import STDERR_KEEP_BYTES, Transcript

SECOND = 1_000_000_000


def start(code: str, *, max_line: int = 1024, env: dict[str, str] | None = None) -> process.Bot:
    key, _, value = RUN_TOKEN.partition("=")
    env = {**process.controlled_env(), key: value, **(env or {})}
    return process.Bot([sys.executable, "-c", code], env=env, transcript=Transcript(), max_line=max_line)


def deadline(seconds: float) -> int:
    return time.perf_counter_ns() + int(seconds * SECOND)


def test_a_line_is_read_with_its_time():
    with start("import sys; sys.stdin.readline(); print('e2e4', flush=True); sys.stdin.readline()") as bot:
        t = bot.send(["white"], deadline(5))
        r = bot.read_line(deadline(5))
        assert (r.kind, r.data) == ("line", b"e2e4")
        assert r.t_ns > t


def test_stderr_flood_neither_blocks_the_answer_nor_grows_memory():
    code = ("import sys; sys.stderr.write(('noise ' * 20 + '\\n') * 400_000); sys.stderr.flush(); "
            "print('e2e4', flush=True); sys.stdin.readline()")
    with start(code) as bot:
        r = bot.read_line(deadline(20))
        assert (r.kind, r.data) == ("line", b"e2e4")
        kept = sum(len(text) + 1 for _, mark, text in bot.transcript.events if mark == "!")
        assert kept <= STDERR_KEEP_BYTES
        assert bot.transcript.stderr_dropped > 0


def test_stdout_flood_without_newline_is_cut_at_the_line_limit():
    with start("import sys\nwhile True: sys.stdout.write('x' * 65536)", max_line=4096) as bot:
        r = bot.read_line(deadline(5))
        assert r.kind == "overflow"
        data = bot.drain(int(0.2 * SECOND))
        assert len(data) <= 4097
        assert len(bot.reader.buf) <= 4097 + 65536


@pytest.mark.parametrize("cr_ends_line", [False, True])
def test_the_line_limit_counts_the_line_end(cr_ends_line):
    """max_line bytes, the line end included: a line of max_line - 1 bytes and its \\n is
    read, one byte more is an overflow; with cr_ends_line a \\r ends it (its \\n skipped)."""
    end = "\\r\\n" if cr_ends_line else "\\n"
    code = (f"import sys, time; sys.stdout.write('x' * 1024 + '{end}' + 'y' * 1025 + '{end}'); sys.stdout.flush(); "
            "time.sleep(5)")
    with start(code, max_line=1025) as bot:
        bot.reader.cr_ends_line = cr_ends_line
        first = bot.read_line(deadline(5))
        assert (first.kind, first.data, first.end[:1]) == ("line", b"x" * 1024, b"\r" if cr_ends_line else b"\n")
        second = bot.read_line(deadline(5))
        assert second.kind == "overflow" and second.data == b"y" * 64


def test_exit_is_seen_even_when_a_child_holds_the_pipes():
    code = "import os, time\nif os.fork() == 0:\n    time.sleep(60)\nos._exit(3)"
    with start(code) as bot:
        r = bot.read_line(deadline(10))
        assert r.kind == "eof"  # before the deadline, 50 s before the child ends
        assert bot.returncode == 3


def test_kill_ends_the_whole_group_even_when_sigterm_is_ignored():
    token = f"PROTOTEST_TEST_TOKEN={uuid.uuid4().hex}"
    code = ("import os, signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "pid = os.fork()\nprint('child' if pid == 0 else 'bot', flush=True)\ntime.sleep(60)")
    bot = start(code, env=dict([token.split("=")]))
    try:
        assert sorted(bot.read_line(deadline(5)).data for _ in range(2)) == [b"bot", b"child"]
        assert len(alive_with(token)) == 2
    finally:
        bot.kill()
    assert bot.returncode is not None and bot.returncode < 0
    assert alive_with(token) == []  # gone already: prototest waited for them


def test_a_bot_that_never_reads_cannot_block_the_judge():
    with start("import time; time.sleep(60)") as bot:
        sent = bot.send(["x" * 1000] * 200, deadline(0.5))  # more than a pipe holds
        assert sent is None  # returned (at its deadline): a blocked judge never would


def test_controlled_environment_drops_unbuffered_python(monkeypatch):
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    monkeypatch.setenv("SECRET_TOKEN", "x")
    env = process.controlled_env({"EXTRA": "1"})
    assert "PYTHONUNBUFFERED" not in env and "SECRET_TOKEN" not in env
    assert env["EXTRA"] == "1" and "PATH" in env


@pytest.mark.parametrize("code,expected", [(0, "exit status 0"), (-9, "killed by SIGKILL"), (None, "still running")])
def test_describe_status(code, expected):
    assert process.describe_status(code) == expected


def test_stderr_without_newlines_is_kept_in_bounded_pieces():
    code = ("import sys; sys.stderr.write('x' * 3_000_000); sys.stderr.flush(); "
            "print('e2e4', flush=True); sys.stdin.readline()")
    with start(code) as bot:
        r = bot.read_line(deadline(20))
        assert (r.kind, r.data) == ("line", b"e2e4")
        bot.drain(int(0.2 * SECOND))
        assert len(bot.stderr.buf) <= 4096
        assert bot.stderr_count >= 3_000_000 // 4096 - 1


def test_a_bot_that_closed_its_input_is_told_apart():
    with start("import os, time; os.close(0); time.sleep(30)") as bot:
        time.sleep(0.3)
        assert bot.send(["white"], deadline(2)) is None
        assert bot.input_closed_by_bot
        assert bot.alive()


def test_wait_exit_returns_what_the_bot_wrote_meanwhile():
    with start("import sys; sys.stdin.read(); print('bye', flush=True)") as bot:
        bot.close_stdin()
        code, data = bot.wait_exit(5 * SECOND)
        assert (code, data) == (0, b"bye\n")


def test_in_a_library_a_users_signals_keep_their_own_meaning(tmp_path):
    """prototest used as a library (no CLI handlers): while a bot runs, Ctrl-C still raises
    KeyboardInterrupt at once, and a SIGTERM left to its default action still ends the
    caller (the bot dies with it)."""
    import subprocess
    token = f"PROTOTEST_TEST_TOKEN={uuid.uuid4().hex}"
    script = tmp_path / "caller.py"
    script.write_text(
        "import os, signal, sys, time\n"
        # Python's own Ctrl-C handler, which it installs only where SIGINT does not come in
        # ignored: a suite run as a background job of a script (`pytest &`) passes it ignored.
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from prototest.sandbox import process\n"
        "from prototest.sandbox.transcript import Transcript\n"
        f"env = {{**process.controlled_env(), {token.split('=')[0]!r}: {token.split('=')[1]!r}}}\n"
        "with process.Bot([sys.executable, '-c', 'import time; time.sleep(60)'], env=env,\n"
        "                 transcript=Transcript(), max_line=64) as bot:\n"
        "    os.kill(os.getpid(), getattr(signal, sys.argv[1]))\n"
        "    try:\n"
        "        bot.read_line(time.perf_counter_ns() + 20_000_000_000)\n"
        "    except KeyboardInterrupt:\n"
        "        print('KeyboardInterrupt', flush=True)\n")
    ctrl_c = subprocess.run([sys.executable, str(script), "SIGINT"], capture_output=True, text=True, timeout=60)
    assert ctrl_c.stdout == "KeyboardInterrupt\n", ctrl_c.stderr
    term = subprocess.run([sys.executable, str(script), "SIGTERM"], capture_output=True, text=True, timeout=60)
    assert term.returncode == -signal.SIGTERM and term.stdout == ""
    assert none_alive_with(token) == []  # the keeper kills the bot once the caller is gone


#: What a bot's threads do while the judge looks, and whether that is waiting for input:
#: only a wait on the bot's own stdin pipe, with no timeout, counts (issue 20, item 4).
WAITS = [
    ("import sys; sys.stdin.readline()", True),
    ("import select, sys; select.select([sys.stdin], [], [])", True),
    ("import select; p = select.poll(); p.register(0, select.POLLIN); p.poll()", True),
    ("import selectors, sys; s = selectors.EpollSelector(); s.register(sys.stdin, selectors.EVENT_READ); s.select()",
     True),
    # a timer is set: it wakes by itself
    ("import select; p = select.poll(); p.register(0, select.POLLIN); p.poll(20000)", False),
    # a pipe of its own (a child's output, a helper's eventfd): not its input
    ("import os, threading, time; r, w = os.pipe(); threading.Thread(target=os.read, args=(r, 1), daemon=True)"
     ".start(); time.sleep(20)", False),
    ("import os, selectors; r, w = os.pipe(); s = selectors.EpollSelector(); s.register(r, selectors.EVENT_READ); "
     "s.select()", False),
    ("import time; time.sleep(20)", False),
]


@pytest.mark.parametrize("code,waiting", WAITS, ids=[str(i) for i in range(len(WAITS))])
def test_waiting_for_input_only_on_evidence(code, waiting):
    with start(code) as bot:
        settled(bot)
        assert bot.waiting_for_input() is waiting


def settled(bot: process.Bot) -> None:
    """Wait until the bot has started and sits still: no CPU time used over 200 ms."""
    time.sleep(0.1)
    for _ in range(50):
        before = bot.cpu_ticks()
        time.sleep(0.2)
        if bot.cpu_ticks() == before:
            return


def test_nothing_readable_in_proc_is_no_evidence(monkeypatch):
    """Where no thread's system call can be read, waiting_for_input says so (None): the
    judge then neither blames a missing flush nor stops waiting early."""
    with start("import sys; sys.stdin.readline()") as bot:
        settled(bot)
        assert bot.waiting_for_input() is True
        real = waits._read_proc  # where waiting_for_input reads /proc (process re-exports it)
        monkeypatch.setattr(waits, "_read_proc", lambda path: "" if path.endswith("/syscall") else real(path))
        assert bot.waiting_for_input() is None


def test_only_a_look_that_finds_no_output_marks_the_judges_wait():
    """The judge's wait for a CPU counts toward an answer's excuse only since its last look
    that found nothing (prototest.sandbox.envelope.Usage.judge_mark_ns): a look ended by
    its timeout marks it, the look that finds the answer does not (the answer may have
    waited in the pipe while the judge waited for a CPU)."""
    code = "import sys, time; sys.stdin.readline(); time.sleep(0.3); print('e2e4', flush=True); sys.stdin.readline()"
    with start(code) as bot:
        looks: list[int] = []
        meter, bot.hold.meter = bot.hold.meter, types.SimpleNamespace(judge_looked=lambda: looks.append(1),
                                                                      judge_looking=lambda: None)
        try:
            bot.send(["white"], deadline(5))
            assert bot.read_line(deadline(0.02)).kind == "timeout"
            marked = len(looks)
            assert marked >= 1
            # the bot sleeps, writes nothing else: the next look is the one that finds it
            r = bot.read_line(deadline(10))
            assert (r.kind, r.data) == ("line", b"e2e4")
            assert len(looks) == marked
        finally:
            bot.hold.meter = meter


def test_a_look_that_waits_for_the_answer_is_told_from_one_that_finds_it():
    """A look that waits for the bot's output (the bot sleeps first) leaves the judge put on
    a CPU again since it began (Usage.judge_look_slices): its wait before that look is not
    counted toward the answer's excuse (prototest.sandbox.envelope.spent)."""
    code = "import sys, time; sys.stdin.readline(); time.sleep(0.3); print('e2e4', flush=True); sys.stdin.readline()"
    with start(code) as bot:
        bot.hold.meter = meter = envelope.Meter(bot.proc.pid)  # a bot without an envelope has none
        try:
            bot.send(["white"], deadline(5))
            r = bot.read_line(deadline(10))
            assert (r.kind, r.data) == ("line", b"e2e4")
            after = meter.usage()
            assert after.judge_slices > after.judge_look_slices > 0
            assert after.judge_look_ns >= meter.start.judge_wait_ns
        finally:
            bot.hold.meter = None
            meter.close()
