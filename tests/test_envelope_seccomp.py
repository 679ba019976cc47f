"""Processes and network through the keeper's seccomp filter, with real processes: the
bot's attempts to reach the network are reported (internet addresses only), its forks
and threads past a limit are refused with EAGAIN as a pids cgroup would, and
network="none" leaves it without a network (a namespace of its own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import BOTS, ROOT, RUN_TOKEN, bot_env
from prototest.sandbox import keeper, linux
from test_file_filter import run as bpf

pytestmark = pytest.mark.skipif(not keeper.supported() or not linux.machine_abis(),
                                reason="the keeper and its seccomp filter are Linux-only")

ENVELOPE = BOTS / "envelope"


def start_bot(script: str, *args: str, **options) -> tuple[str, list[dict], keeper.Started]:
    """Run one envelope bot to its end behind the keeper: (its stdout, the keeper's
    events but "gone" and "exit", what keeper.start said)."""
    env = bot_env()
    env[RUN_TOKEN.split("=")[0]] = RUN_TOKEN.split("=")[1]
    started = keeper.start([sys.executable, str(ENVELOPE / script), *args], env, None,
                           watch_files=options.pop("watch_files", False), **options)
    started.proc.stdin.close()
    out = started.proc.stdout.read().decode()
    started.proc.wait(timeout=20)
    started.proc.stdout.close()
    started.proc.stderr.close()
    data = b""
    assert started.report_fd is not None
    os.set_blocking(started.report_fd, True)
    while chunk := os.read(started.report_fd, 65536):
        data += chunk
    os.close(started.report_fd)
    events = [json.loads(line) for line in data.splitlines()]
    return out, [e for e in events if e["e"] not in ("gone", "exit")], started


def calls(events: list[dict]) -> list[tuple[str, str, str]]:
    return [(e["call"], e["family"], e["address"]) for e in events if e["e"] == "net"]


# -- the filter, on the BPF interpreter of test_file_filter ----------------------------------

X86 = linux.watch_filter((linux.X86_64, linux.I386), files=False, network=True, processes=True)
ARM = linux.watch_filter((linux.AARCH64,), files=True, network=True, processes=True)
A64, A32, AARM = linux.AUDIT_ARCH_X86_64, linux.AUDIT_ARCH_I386, linux.AUDIT_ARCH_AARCH64
ALLOW, NOTIFY = linux.SECCOMP_RET_ALLOW, linux.SECCOMP_RET_USER_NOTIF
AF_UNIX, AF_NETLINK = 1, 16


def test_the_filter_stops_only_internet_sockets_and_addressed_sends():
    for family, expected in ((linux.AF_INET, NOTIFY), (linux.AF_INET6, NOTIFY), (AF_UNIX, ALLOW), (AF_NETLINK, ALLOW)):
        assert bpf(X86, 41, A64, family, 1, 0) == expected  # socket
        assert bpf(X86, 359, A32, family, 1, 0) == expected  # i386 socket
        assert bpf(ARM, 198, AARM, family, 1, 0) == expected
    assert bpf(X86, 42, A64, 3, 0x1000, 16) == NOTIFY  # connect: the family is in memory
    assert bpf(X86, 44, A64, 3, 0x1000, 1, 0, 0, 0) == ALLOW  # send(): sendto without an address
    assert bpf(X86, 44, A64, 3, 0x1000, 1, 0, 0x7FFF_0000_1000, 16) == NOTIFY
    assert bpf(X86, 44, A64, 3, 0x1000, 1, 0, 0x7FFF_0000_0000, 16) == NOTIFY  # low half 0: still an address
    assert bpf(ARM, 206, AARM, 3, 0x1000, 1, 0, 0, 0) == ALLOW
    assert bpf(ARM, 206, AARM, 3, 0x1000, 1, 0, 0x1000, 16) == NOTIFY
    assert bpf(X86, 46, A64, 3, 0x1000, 0) == NOTIFY  # sendmsg
    assert bpf(X86, 518 | linux.X32_SYSCALL_BIT, A64, 3, 0x1000, 0) == NOTIFY  # x32's sendmsg
    for subcall, expected in ((1, NOTIFY), (3, NOTIFY), (11, NOTIFY), (16, NOTIFY), (9, ALLOW), (10, ALLOW)):
        assert bpf(X86, 102, A32, subcall, 0x1000) == expected  # i386 socketcall


def test_the_filter_stops_every_fork_and_thread_and_nothing_else():
    for nr in (56, 57, 58, 435):
        assert bpf(X86, nr, A64) == NOTIFY
        assert bpf(X86, nr | linux.X32_SYSCALL_BIT, A64) == NOTIFY
    for nr in (120, 2, 190, 435):
        assert bpf(X86, nr, A32) == NOTIFY
    for nr in (220, 435):
        assert bpf(ARM, nr, AARM) == NOTIFY
    for nr in (0, 1, 3, 7, 232, 257, 59, 61, 62):  # read, write, close, poll, epoll_wait, openat, execve, wait4, kill
        assert bpf(X86, nr, A64, 0, 0, 1) == ALLOW  # files not watched here: an open to write passes too
    for nr in (63, 64, 57, 22, 93, 94):
        assert bpf(ARM, nr, AARM) == ALLOW
    # the file calls are still there beside them
    assert bpf(ARM, 56, AARM, -100 & 0xFFFFFFFF, 0x1000, 1) == NOTIFY
    assert bpf(ARM, 56, AARM, -100 & 0xFFFFFFFF, 0x1000, 0) == ALLOW


# -- real processes ------------------------------------------------------------------------------

def test_connect_and_datagrams_to_the_network_are_reported_with_their_address():
    out, events, started = start_bot("connect_tcp.py", watch_network=True)
    if started.network_watch is None:
        pytest.skip(f"no seccomp filter here: {started.filter_missing}")
    assert out == "connect ECONNREFUSED\n"
    assert calls(events) == [("socket", "AF_INET", ""), ("connect", "AF_INET", "127.0.0.1:9")]
    assert all(e["pid"] == started.bot_pid and "connect_tcp.py" in e["cmd"] and e["t"] > 0 for e in events)
    assert started.file_watch is None and started.pids_watch is None and started.network is None

    out, events, _ = start_bot("send_udp.py", watch_network=True)
    assert out.startswith("sendto ok\n")
    shown = calls(events)
    assert shown[:2] == [("socket", "AF_INET", ""), ("sendto", "AF_INET", "127.0.0.1:9")]
    if "sendmsg6 ok" in out:  # a machine with IPv6
        assert shown[2:] == [("socket", "AF_INET6", ""), ("sendmsg", "AF_INET6", "[::1]:9")]


def test_local_sockets_are_not_the_network():
    out, events, started = start_bot("unix_only.py", watch_network=True, watch_files=True)
    assert out == "done\n"
    assert started.network_watch == "seccomp" and started.file_watch == "seccomp"
    assert calls(events) == []


@pytest.mark.parametrize("no_namespace", [False, True], ids=["pid-namespace", "no-pid-namespace"])
def test_no_network_is_a_namespace_of_its_own(no_namespace):
    """network="none": connect fails as under Docker's --network=none (ENETUNREACH); the
    same bot elsewhere gets ECONNREFUSED (nothing listens on port 9). Run in a child,
    where PROTOTEST_NO_NAMESPACE is read afresh."""
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT / "tests")!r})
        from test_envelope_seccomp import start_bot
        out, events, started = start_bot("connect_tcp.py", network="none", watch_network=True)
        plain, _, _ = start_bot("connect_tcp.py")
        print(json.dumps([out, plain, started.network, started.network_missing, started.containment,
                          [e["address"] for e in events]]))
    """)
    env = bot_env()
    if no_namespace:
        env["PROTOTEST_NO_NAMESPACE"] = "1"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60, check=True)
    out, plain, network, missing, containment, addresses = json.loads(done.stdout)
    assert containment == ("keeper" if no_namespace else "pid-namespace")
    assert plain == "connect ECONNREFUSED\n"
    assert (network, missing) == ("namespace", ""), missing
    assert out == "connect ENETUNREACH\n"
    assert addresses == ["", "127.0.0.1:9"]  # reported all the same


def test_threads_past_the_pids_limit_fail_as_under_a_pids_cgroup():
    out, events, started = start_bot("threads.py", "40", pids_limit=20)
    if started.pids_watch is None:
        pytest.skip(f"no seccomp filter here: {started.filter_missing}")
    # the main thread and 19 more make 20: the 20th thread would be the 21st task
    assert out == "started 19 RuntimeError can't start new thread\n"
    pids = [e for e in events if e["e"] == "pids"]
    assert len(pids) == 1
    assert pids[0]["count"] == 20 and pids[0]["limit"] == 20 and pids[0]["refused"] == 1
    assert pids[0]["call"] in ("clone", "clone3") and pids[0]["pid"] == started.bot_pid

    out, events, _ = start_bot("threads.py", "10", pids_limit=20)
    assert out == "started 10\n"
    assert [e for e in events if e["e"] == "pids"] == []


def test_the_pids_limit_without_a_pid_namespace():
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT / "tests")!r})
        from test_envelope_seccomp import start_bot
        out, events, started = start_bot("threads.py", "40", pids_limit=20)
        small, _, _ = start_bot("threads.py", "10", pids_limit=20)
        print(json.dumps([out, small, started.containment, [e for e in events if e["e"] == "pids"]]))
    """)
    env = dict(bot_env(), PROTOTEST_NO_NAMESPACE="1")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60, check=True)
    out, small, containment, pids = json.loads(done.stdout)
    assert containment == "keeper"
    assert out == "started 19 RuntimeError can't start new thread\n"
    assert small == "started 10\n"
    assert [(e["count"], e["limit"]) for e in pids] == [(20, 20)]


def test_forks_count_too_and_a_flood_of_refusals_is_reported_once_at_the_end():
    """Processes and their threads count together; refusals past the first few are
    counted, and the last one is reported with the total."""
    out, events, started = start_bot("forks.py", "4", "30", pids_limit=10)
    if started.pids_watch is None:
        pytest.skip(f"no seccomp filter here: {started.filter_missing}")
    # 1 + 4 children = 5 tasks; then threads until 10: 5 more, then 25 refusals
    assert out == "forked 4 threads 5 refused 25\n"
    pids = [e for e in events if e["e"] == "pids"]
    assert [e["refused"] for e in pids] == [1, 2, 3, 4, 5, 25]
    assert all(e["count"] == 10 and e["limit"] == 10 for e in pids)


def test_where_the_system_refuses_a_network_namespace_the_bot_starts_and_is_told_why(monkeypatch):
    """The keeper is a fork of this process (not of the keepers' host, a process of its own
    that this monkeypatch does not reach): its linux.new_network_namespace is this one."""
    def refuse():
        raise OSError(1, "Operation not permitted")

    monkeypatch.setenv("PROTOTEST_NO_KEEPER_HOST", "1")
    monkeypatch.setattr(linux, "new_network_namespace", refuse)
    out, _, started = start_bot("connect_tcp.py", network="none")
    assert out == "connect ECONNREFUSED\n"
    assert started.network is None
    assert started.network_missing == "the system refuses a network namespace (Operation not permitted)"


def test_where_the_keeper_cannot_take_the_listener_the_bot_starts_without_the_network_watch(monkeypatch):
    """pidfd_getfd refused (as a ptrace policy may): the bot is started again without the
    network watch (its connect would otherwise fail with ENOSYS), once per process."""
    def refuse(pid, fd):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setenv("PROTOTEST_NO_KEEPER_HOST", "1")  # the keeper a fork of this process (as above)
    monkeypatch.setattr(linux, "take_fd", refuse)
    monkeypatch.setattr(keeper, "_network_watch_missing", "")
    out, events, started = start_bot("connect_tcp.py", watch_network=True, pids_limit=50)
    assert out == "connect ECONNREFUSED\n"
    assert events == []
    assert started.network_watch is None and started.pids_watch == "seccomp"
    assert started.network_watch_missing.startswith("the keeper could not take the filter's listener")
    assert keeper._network_watch_missing == started.network_watch_missing
