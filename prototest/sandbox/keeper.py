"""The keeper: a small process of prototest's own between prototest and the bot.

prototest forks it (a copy of itself, so no interpreter starts; from a run's third bot on,
a keepers' host forks it as prototest's own child, see `_Host`) and the keeper starts the
bot, which runs exactly as before: its own session and process group, the same
pipes, environment, folder and signal dispositions. The keeper is there for what
prototest cannot do from outside the bot:

* **The bot dies with its judge.** The bot has PR_SET_PDEATHSIG (SIGKILL when the keeper
  dies); the keeper is told by the same mechanism when prototest dies, even by SIGKILL,
  and then kills every process descended from the bot (it is their subreaper, so a
  child that left the bot's group or session is still found), or, where the machine
  allows a PID namespace, ends the namespace: the kernel then kills all of it.
* **A signal the bot sends its parent is reported, not obeyed:** the keeper reads its
  signals from a signalfd, which names the sender.
* **File operations:** where seccomp user notification works, the bot runs under a
  filter that asks the keeper about every call that creates, writes, renames or
  deletes a file (reads and writes to open descriptors, the pipes among them, never
  stop); the keeper reads the path from the caller's memory, reports it with the time,
  and lets the call go on. The report is written before the call continues, so it is
  in the report pipe before anything the bot writes afterwards.
* **The network** (`watch_network`): the same filter (one filter, one listener, whatever
  is watched) also asks about socket() of AF_INET/AF_INET6 (tested in the filter: a
  local socket never stops), connect(), sendto() with an address and sendmsg(); the
  keeper reads the socket address from the caller's memory, reports an internet one
  (AF_UNIX, AF_NETLINK and the rest are not the network) and lets the call go on.
  sendmsg stops at the filter, so the bot's process cannot pass the listener over its
  socket: it sends the descriptor's number and the keeper takes a copy (pidfd_getfd);
  where the system refuses that, the bot is started again without the network watch.
  `network="none"` gives the bot a network namespace of its own (in the inner keeper,
  or in the keeper before the bot's fork without a PID namespace): only a loopback
  device, down, so a connection fails (ENETUNREACH) as under Docker's --network=none.
* **Processes and threads past a limit** (`pids_limit`, for where no pids cgroup does
  it): the filter asks about clone, clone3, fork and vfork; the keeper counts the bot's
  tasks (every thread of every process below the keeper, or in the namespace but its
  PID 1) and refuses the call with EAGAIN when the new task would make more than the
  limit, as the kernel's pids controller does; otherwise the call goes on. The process
  list is walked again only after a call that makes a process (not a thread); between
  those a count reads each process's num_threads. Calls from several threads at once
  are counted one after another: one allowed a moment before may not show yet.
* **The bot's exit status is the keeper's own:** it mirrors the bot's exit (the same
  code, or death by the same signal), so prototest waits on the keeper as on the bot.

The keeper reports to prototest on a pipe, one JSON object a line (best effort: when
prototest does not read fast enough, events are dropped and counted, and the bot is
never held up). Kinds: `file`, `signal`, `exit` (the bot's wait status, sent before its
leftovers are killed, so it comes before the end of its pipes), `gone` (a process of the
bot's is about to be reaped), `killed` (a process left over and killed), `dropped`, and:

* `{"e": "net", "t", "pid", "cmd", "call": "socket" | "connect" | "sendto" | "sendmsg",
  "family": "AF_INET" | "AF_INET6", "address": "127.0.0.1:9" | "[::1]:9" | "" (socket)}`;
* `{"e": "pids", "t", "pid", "cmd", "call": "clone" | "clone3" | "fork" | "vfork",
  "count": tasks the bot had, "limit": L, "refused": refusals so far}`: the first few
  refusals one by one; in a flood, the last one again at the end, with the total.

The start pipe (one JSON object a line) says, besides the bot's pid and the file watch:
`filter` ("seccomp" or None, with `filter_why`), `netns` ("namespace") or `netns_error`.
The keeper's parts, one module each: `keepermain` (its own program, the `_Keeper`),
`keeperexec` (the bot's process up to its exec), `keeperpidns` (the bot's PID namespace
and its PID 1), `keeperwatch` (the calls its filter stops), `keeperhost` (the keepers'
host), `keeperprocs` (/proc and small helpers). This
module is prototest's side: starting a keeper and reading what it says at the start;
the names other modules use are all importable from here.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Sequence

from .keeperhost import (HOST_FROM_START, _forget_hosts, _Host, _host_for_start, _host_main, _hosts,
                         _hosts_lost, _host_starts, _owner, close_hosts, host_pids)
from .keepermain import _KEEPER_SIGNALS, _NO_LISTENER, _PATH_SHOWN, _Keeper, _Watches
from .keeperprocs import (_signed, _read_text, _processes_below, _threads, _stat_fields, _parent,
                          _command, _children, _descendants, _descendants_by_walk, _high, _alive,
                          _filter_code, _receive, _status_field, _reap_all, _read_line,
                          _private_perf_data, _user_name, _noop, _close_all_but, _to_dev_null,
                          _say, _filters, _user)  # keeper._children and the rest, as before
from .keeperwatch import _REFUSALS_SHOWN, CallWatch

@dataclass
class Started:
    """A started bot: the keeper (a Popen-like child of ours) and what it reported."""

    proc: Any  # KeeperProcess, or subprocess.Popen without a keeper
    bot_pid: int
    report_fd: int | None
    #: How the bot's file operations are watched ("seccomp"), or None and why not.
    file_watch: str | None
    file_watch_missing: str
    #: What makes the bot's descendants die with prototest: "keeper" or "pid-namespace"
    #: (or "none" without a keeper).
    containment: str
    #: Why the bot's process could not join its cgroup ("" when it did, or was not asked to).
    cgroup_error: str = ""
    #: "namespace" when the bot has a network namespace of its own (network="none": no
    #: network at all), else None, and why not ("not asked for", or the system's refusal).
    network: str | None = None
    network_missing: str = "not asked for"
    #: "seccomp" when the keeper reports the bot's attempts to reach the network
    #: (watch_network) / refuses its tasks past `pids_limit`; else None.
    network_watch: str | None = None
    network_watch_missing: str = "not asked for"
    pids_watch: str | None = None
    #: Why the seccomp filter is not in place ("" when it is, "not asked for" when
    #: nothing asked for it): the reason for every watch that is None.
    filter_missing: str = "not asked for"


class KeeperProcess:
    """The part of subprocess.Popen that process.Bot uses, for the keeper."""

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin = open(stdin, "wb", buffering=0)
        self.stdout = open(stdout, "rb", buffering=0)
        self.stderr = open(stderr, "rb", buffering=0)

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere: as Popen, report 0
                self.returncode = 0
                return 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            if self.returncode is None:
                try:
                    _, status = os.waitpid(self.pid, 0)
                    self.returncode = os.waitstatus_to_exitcode(status)
                except ChildProcessError:
                    self.returncode = 0
            return self.returncode  # type: ignore[return-value]
        deadline = time.monotonic() + timeout
        waiter = select.poll()
        try:
            pidfd = os.pidfd_open(self.pid)  # readable when the keeper ends: no sleeping in steps
        except OSError:
            pidfd = None
        try:
            if pidfd is not None:
                waiter.register(pidfd, select.POLLIN)
            while self.poll() is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise subprocess.TimeoutExpired([str(self.pid)], timeout)
                if pidfd is not None:
                    waiter.poll(max(1, int(remaining * 1000)))
                else:
                    time.sleep(min(0.002, remaining))
        finally:
            if pidfd is not None:
                os.close(pidfd)
        return self.returncode  # type: ignore[return-value]


def supported() -> bool:
    """Whether this machine can run the keeper (Linux with fork)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and not os.environ.get("PROTOTEST_NO_KEEPER")


_namespace: str | None = None  # "" when a PID namespace works here, else why not


def namespace_missing() -> str:
    """Why the bot cannot get a PID namespace of its own here ("" when it can). Tried
    once per process, in a throwaway child: root needs only CLONE_NEWPID, a user a user
    namespace too (kernel.unprivileged_userns_clone, user.max_user_namespaces, and no
    AppArmor restriction on unprivileged user namespaces)."""
    global _namespace
    if _namespace is None:
        _namespace = _probe_namespace()
    return _namespace


def _probe_namespace() -> str:
    from . import linux

    if os.environ.get("PROTOTEST_NO_NAMESPACE"):
        return "turned off by PROTOTEST_NO_NAMESPACE"
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            linux.new_pid_namespace()
            code = 3
            inner = os.fork()
            if inner == 0:
                os._exit(0 if os.getpid() == 1 else 1)
            code = 0 if os.waitpid(inner, 0)[1] == 0 else 4
        except BaseException:  # noqa: BLE001
            pass
        os._exit(code)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code == 0:
        return ""
    who = "root" if os.geteuid() == 0 else "a user (unprivileged user namespaces)"
    return f"the system refuses a PID namespace to {who}"


def start(argv: Sequence[str], env: dict[str, str], cwd: str | None, *, watch_files: bool,
          restore_mask: set[int] | None = None, pids_limit: int | None = None,
          network: str = "allowed", watch_network: bool = False,
          cgroup_join: Sequence[str] = ()) -> Started:
    """Start the bot behind a keeper, in a PID namespace of its own where the system
    allows one. `restore_mask` is the signal mask the bot gets (prototest's own before
    it blocked the signals it reads).

    `pids_limit`: the keeper refuses (EAGAIN) a fork or thread that would make the bot
    more tasks than this, as a pids cgroup would. `network="none"`: the bot gets a
    network namespace of its own (no network). `watch_network`: every attempt to reach
    the network is reported (`net` events). `cgroup_join`: the `cgroup.procs` files of the
    bot's cgroup (cgroups.Group.join_files), which the bot's process joins before its exec."""
    global _namespace, _network_watch_missing
    from . import linux  # noqa: F401  (imported here, before the fork, once)

    if network not in ("allowed", "none"):
        raise ValueError(f"network must be 'allowed' or 'none', not {network!r}")

    namespace = namespace_missing() == ""
    if namespace:
        _user_name()  # for the namespace's perf-data folder: looked up here, once
    watches = _Watches(watch_files, pids_limit, network == "none", watch_network and not _network_watch_missing)
    if watches.filtered:
        _filter_code(*watches.filter_key)  # before the fork: built once, not in every bot's process
    while True:
        try:
            started = _start(argv, env, cwd, watch_files=watch_files, restore_mask=restore_mask,
                             namespace=namespace, watches=watches, cgroup_join=cgroup_join)
            break
        except _NamespaceFailed as exc:
            _namespace = f"the PID namespace could not be set up ({exc})"
            namespace = False
        except _ListenerFailed as exc:  # once per process: the network watch is off from now on
            _network_watch_missing = str(exc)
            watches = _Watches(watch_files, pids_limit, network == "none", False)
            if watches.filtered:
                _filter_code(*watches.filter_key)
    if watch_network:
        started.network_watch_missing = "" if started.network_watch else (
            _network_watch_missing or started.filter_missing)
    return started

#: Why the network watch cannot work here ("" until a start found out): the keeper must
#: take the filter's listener from the bot's process (pidfd_getfd), which the system
#: may refuse (as it would refuse reading the bot's memory).
_network_watch_missing = ""


class _ListenerFailed(Exception):
    pass

class _NamespaceFailed(Exception):
    pass


def _start(argv: Sequence[str], env: dict[str, str], cwd: str | None, *, watch_files: bool,
           restore_mask: set[int] | None, namespace: bool, watches: _Watches | None = None,
           cgroup_join: Sequence[str] = ()) -> Started:

    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    start_r, start_w = os.pipe()
    report_r, report_w = os.pipe()
    bot_side = (stdin_r, stdout_w, stderr_w)
    ours = (stdin_w, stdout_r, stderr_r, start_r, report_r)
    judge = os.getpid()
    host = _host_for_start()
    if host is not None and host.fork_keeper(judge, argv, env, cwd, watch_files=watch_files,
                                             restore_mask=restore_mask, namespace=namespace,
                                             watches=watches or _Watches(files=watch_files),
                                             cgroup_join=cgroup_join, fds=bot_side + (start_w, report_w)):
        pid = 0  # the host's keeper says its pid first thing on the start pipe
    else:
        try:
            pid = os.fork()
        except OSError:
            for fd in bot_side + ours + (start_w, report_w):
                os.close(fd)
            raise
        if pid == 0:  # the keeper: never returns
            code = 70
            try:
                gc.disable()
                keeper = _Keeper(judge, list(argv), env, cwd, bot_side, start_w, report_w,
                                 watch_files=watch_files, restore_mask=restore_mask or set(), namespace=namespace,
                                 watches=watches, cgroup_join=list(cgroup_join))
                code = keeper.run()
            except BaseException:  # noqa: BLE001 - nothing may escape into a copy of prototest
                pass
            os._exit(code)
    for fd in bot_side + (start_w, report_w):
        os.close(fd)
    proc = KeeperProcess(pid, stdin_w, stdout_r, stderr_r) if pid else None
    try:
        info = _read_start(start_r)
    except BaseException:
        os.close(report_r)
        if proc is not None:
            _abandon(proc)
        else:
            _close_streams(stdin_w, stdout_r, stderr_r)
        raise
    if proc is None:
        if not info.get("keeper"):  # the host is gone: this keeper is forked here, the next ones too
            assert host is not None
            host.lost()
            os.close(report_r)
            _close_streams(stdin_w, stdout_r, stderr_r)
            return _start(argv, env, cwd, watch_files=watch_files, restore_mask=restore_mask,
                          namespace=namespace, watches=watches, cgroup_join=cgroup_join)
        proc = KeeperProcess(info["keeper"], stdin_w, stdout_r, stderr_r)
    if "error" in info:
        os.close(report_r)
        _abandon(proc)
        err = info["error"]
        if info.get("namespace"):
            raise _NamespaceFailed(os.strerror(err))
        if info.get("listener"):
            raise _ListenerFailed(info.get("why", os.strerror(err)))
        raise OSError(err, os.strerror(err), cwd if info.get("cwd") else argv[0])
    os.set_blocking(report_r, False)
    started = Started(proc, info["bot"], report_r, info.get("watch"), info.get("why", ""),
                      info.get("contain", "keeper"), cgroup_error=info.get("cgroup_error", ""))
    _started_watches(started, info, watches or _Watches(files=watch_files))
    return started


def _close_streams(*fds: int) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass

def _started_watches(started: Started, info: dict[str, Any], watches: _Watches) -> None:
    """The network namespace and the seccomp watches, as the start pipe tells them."""
    if watches.no_network:
        started.network = info.get("netns")
        started.network_missing = "" if started.network else info.get("netns_error", "the keeper did not say")
    if watches.filtered:
        on = info.get("filter") == "seccomp"
        started.filter_missing = "" if on else info.get("filter_why", info.get("why", "")) or "the bot did not start"
        started.network_watch = "seccomp" if on and watches.network else None
        started.pids_watch = "seccomp" if on and watches.pids_limit is not None else None


def _read_start(fd: int) -> dict[str, Any]:
    """What the keeper says at start-up: the bot's pid, the file watch, an exec error.
    The pipe ends when the bot's exec succeeded (its copy is close-on-exec)."""
    data = b""
    try:
        while chunk := os.read(fd, 4096):
            data += chunk
    finally:
        os.close(fd)
    info: dict[str, Any] = {}
    for line in data.splitlines():
        try:
            info.update(json.loads(line))
        except ValueError:
            pass
    if info.get("bot", 0) <= 1 and "error" not in info:
        info["error"] = 11  # EAGAIN: the keeper died, or lost the bot, before it started
    return info


def _abandon(proc: KeeperProcess) -> None:
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()
