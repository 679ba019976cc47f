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
"""

from __future__ import annotations

import errno
import fcntl
import gc
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Sequence

from . import syscalls
from .interrupts import sigmask

#: Signals the keeper reads (besides SIGCHLD): every one a process can send it that would
#: otherwise end or stop it. prototest asks the keeper to finish with SIGTERM.
_KEEPER_SIGNALS = tuple(sorted(
    {int(s) for s in signal.valid_signals()} - {int(signal.SIGKILL), int(signal.SIGSTOP), int(signal.SIGCHLD),
                                                int(signal.SIGCONT), int(signal.SIGWINCH), int(signal.SIGURG)}))
#: A path longer than this is cut in a report (a report line must fit one atomic pipe write).
_PATH_SHOWN = 1000
#: Forks and threads refused past the pids limit that are reported one by one; after
#: these, the keeper counts them and reports the last one (with the total) at the end.
_REFUSALS_SHOWN = 5
_NO_LISTENER = b"the keeper could not take the filter's listener from the bot's process"


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


@dataclass(frozen=True)
class _Watches:
    """What the keeper does besides the file watch: refuse tasks past a limit, give the
    bot no network, report its network calls."""

    files: bool = False
    pids_limit: int | None = None
    no_network: bool = False
    network: bool = False

    @property
    def filtered(self) -> bool:
        return self.files or self.network or self.pids_limit is not None

    @property
    def filter_key(self) -> tuple[bool, bool, bool]:
        return self.files, self.network, self.pids_limit is not None


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


# -- the keepers' host -----------------------------------------------------------------------

#: At this bot start (in one process and thread) the keepers' host is started; keepers are
#: forked by it once it is ready (from the next start on): the first bots of a run wait for
#: no interpreter's start, and a run of one or two bots starts none.
HOST_FROM_START = 2


class _Host:
    """A small process of prototest's own that forks keepers: a fresh interpreter (`python
    -I -S`, the keeper's modules only) started once, by exec, so a keeper is a copy of its
    few megabytes and not of the judge's (its games, rules, reports): each fork copies
    fewer page tables, each of the keeper's processes copies fewer pages as it touches them,
    and the judge, no longer sharing its pages with a keeper for a whole game, copies none.

    Each keeper is forked with clone(CLONE_PARENT), so it is the judge's own child, exactly as
    when the judge forks it: the judge waits for it, it dies with the judge (its parent-death
    signal), it names the judge as its parent. The host itself dies with the judge (SIGKILL
    as its parent-death signal), runs in a session of its own (a signal to prototest's
    process group does not reach it), holds none of prototest's descriptors, and ends when
    its socket closes. A keeper's command line is the host's: `python -I -S -c ...` followed
    by the judge's own command line. Should the host be gone, the next keeper is forked by
    the judge as before. PROTOTEST_NO_KEEPER_HOST=1 turns the host off."""

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.pid = 0
        self.pidfd: int | None = None  # signals and looks go through it: never to a reused pid
        self.ready = False
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._spawn(theirs)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.sock = ours
        try:
            self.pidfd = os.pidfd_open(self.pid)
        except OSError:  # gone already, or no pidfds here: no host
            self.close()
            raise

    def _spawn(self, theirs: socket.socket) -> None:
        """Start the host process with `theirs`, its end of the socket."""
        # the folder that holds the prototest package (prototest/sandbox/keeper.py's grandparent)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        code = (f"import sys; sys.path.insert(0, {root!r}); from prototest.sandbox import keeper; "
                f"keeper._host_main({theirs.fileno()}, {os.getpid()})")
        try:
            with open("/proc/self/cmdline", "rb") as fh:
                judge = [os.fsdecode(a) for a in fh.read().rstrip(b"\0").split(b"\0")]
        except OSError:
            judge = list(sys.argv)
        null = os.open(os.devnull, os.O_RDWR)
        try:
            os.set_inheritable(theirs.fileno(), True)
            self.pid = os.posix_spawn(
                sys.executable, [sys.executable, "-I", "-S", "-c", code, "--", *judge], dict(os.environ),
                file_actions=[(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                              (os.POSIX_SPAWN_DUP2, null, 2)],
                setsid=True, setsigmask=())
        finally:
            os.close(null)

    def alive(self) -> bool:
        """Whether the host still runs (its pidfd becomes readable when it ends)."""
        if self.pidfd is None:
            return False
        poller = select.poll()
        poller.register(self.pidfd, select.POLLIN)
        return not poller.poll(0)

    def usable(self) -> bool:
        """Whether the host said it is ready (without waiting for it)."""
        if self.ready:
            return True
        if self.sock is None:
            return False
        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        if poller.poll(0):
            try:
                self.ready = self.sock.recv(16) == b"r"
            except OSError:
                self.ready = False
            if not self.ready:
                self.lost()
        return self.ready

    def fork_keeper(self, judge: int, argv: Sequence[str], env: dict[str, str], cwd: str | None, *,
                    watch_files: bool, restore_mask: set[int] | None, namespace: bool, watches: _Watches,
                    cgroup_join: Sequence[str], fds: tuple[int, ...]) -> bool:
        """Ask for a keeper with these pipes (the bot's side, the start and report pipes'
        write ends); False when the request could not be sent (the keeper is then forked
        here). The folder is always named: the host's is the judge's at its start."""
        if self.sock is None:
            return False
        try:
            folder = cwd if cwd is not None else os.getcwd()
            request = json.dumps({
                "judge": judge, "argv": list(argv), "env": env, "cwd": folder, "watch_files": watch_files,
                "restore_mask": sorted(int(s) for s in (restore_mask or ())), "namespace": namespace,
                "watches": [watches.files, watches.pids_limit, watches.no_network, watches.network],
                "cgroup_join": list(cgroup_join)}).encode()
            socket.send_fds(self.sock, [request], list(fds))
        except (OSError, ValueError, TypeError):  # gone, or a request too big for one message
            if self.sock is not None and self.sock.fileno() >= 0:
                poller = select.poll()
                poller.register(self.sock.fileno(), select.POLLOUT)
                if any(event & (select.POLLHUP | select.POLLERR) for _, event in poller.poll(0)):
                    self.lost()
            return False
        return True

    def lost(self) -> None:
        """The host is gone (or never said it was ready): forget it; keepers are forked here."""
        _hosts_lost.add(_owner())
        self.close()

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.pidfd is not None:
            try:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)  # it would end at its socket's end
            except OSError:  # gone already
                pass
            try:  # through its pidfd: never a reused pid (one of our keepers') once reaped
                os.waitid(os.P_PIDFD, self.pidfd, os.WEXITED)
            except ChildProcessError:  # reaped already (prototest reaps its orphans)
                pass
            os.close(self.pidfd)
            self.pidfd = None
        elif self.pid:  # its pidfd could not be opened: it is gone, or about to be reaped
            try:
                os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pass
        self.pid = 0
        self.ready = False


#: This process's hosts, one per thread that starts bots (a thread's children die with it).
_hosts: dict[int, _Host] = {}
_host_starts: dict[int, int] = {}
_hosts_lost: set[int] = set()


def _owner() -> int:
    import threading

    return threading.get_ident()


def _host_for_start() -> _Host | None:
    """The host to ask for this keeper: None (fork it here) for the first bots of a run, or
    while the host starts, or where there is none."""
    from . import linux

    if os.environ.get("PROTOTEST_NO_KEEPER_HOST"):
        return None
    owner = _owner()
    count = _host_starts[owner] = _host_starts.get(owner, 0) + 1
    host = _hosts.get(owner)
    if host is not None:
        return host if host.usable() else None
    if count < HOST_FROM_START or owner in _hosts_lost or not linux.can_fork_beside() or not sys.executable:
        return None
    try:
        _hosts[owner] = _Host()
    except (OSError, ValueError):
        _hosts_lost.add(owner)
    return None


def host_pids() -> set[int]:
    """The pids of this process's keepers' hosts that still run (its children that are not
    a bot's)."""
    return {host.pid for host in _hosts.values() if host.pid and host.alive()}


def close_hosts() -> None:
    """End this process's keepers' hosts (when no more bot will start, or before it exits)."""
    for host in list(_hosts.values()):
        host.close()
    _hosts.clear()


def _forget_hosts() -> None:
    """In a forked child (a worker): the parent's hosts are the parent's."""
    for host in _hosts.values():
        if host.sock is not None:
            host.sock.close()
        if host.pidfd is not None:
            os.close(host.pidfd)
    _hosts.clear()
    _host_starts.clear()
    _hosts_lost.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_hosts)


def _host_main(fd: int, judge: int) -> None:
    """The host's program: fork a keeper for each request, until the socket closes."""
    from . import linux

    try:
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != judge:  # prototest died before the line above
            os._exit(0)
        _close_all_but({0, 1, 2, fd})
        gc.disable()  # as in every keeper: no collection touches (and copies) every page
        _user_name()
        sock = socket.socket(fileno=fd)
        sock.send(b"r")
    except BaseException:  # noqa: BLE001
        os._exit(1)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 5)
        except OSError:
            break
        if not data:
            break
        for received in fds:
            os.set_inheritable(received, False)  # what SCM_RIGHTS brings is not close-on-exec
        pid = -1
        try:
            request = json.loads(data)
            if len(fds) == 5:
                watches = _Watches(*request["watches"])
                if watches.filtered:
                    _filter_code(*watches.filter_key)
                pid = linux.fork_beside()
        except BaseException:  # noqa: BLE001 - no keeper: prototest forks one itself
            pid = -1
        if pid == 0:  # the keeper: never returns
            code = 70
            try:
                sock.close()
                keeper = _Keeper(request["judge"], request["argv"], request["env"], request["cwd"],
                                 tuple(fds[:3]), fds[3], fds[4], watch_files=request["watch_files"],
                                 restore_mask=set(request["restore_mask"]), namespace=request["namespace"],
                                 watches=watches, cgroup_join=request["cgroup_join"])
                code = keeper.run()
            except BaseException:  # noqa: BLE001
                pass
            os._exit(code)
        for received in fds:
            os.close(received)
    os._exit(0)


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


# -- the keeper process ----------------------------------------------------------------------

class _Keeper:
    def __init__(self, judge: int, argv: list[str], env: dict[str, str], cwd: str | None,
                 bot_side: tuple[int, int, int], start_w: int, report_w: int, *,
                 watch_files: bool, restore_mask: set[int], namespace: bool = False,
                 watches: _Watches | None = None, cgroup_join: Sequence[str] = ()) -> None:
        self.judge = judge
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.bot_side = bot_side
        self.start_w = start_w
        self.report_w = report_w
        self.watch_files = watch_files
        self.restore_mask = restore_mask
        self.cgroup_join = list(cgroup_join)
        self.bot = 0
        self.bot_status: int | None = None
        self.finishing = False
        self.dropped = 0
        self.listener: int | None = None
        self.reported_killed: set[int] = set()
        self.namespace = namespace
        self.watches = watches or _Watches(files=watch_files)
        self.filter_code = _filter_code(*self.watches.filter_key) if self.watches.filtered else b""
        self.refused = 0  # forks and threads refused past the pids limit
        #: The bot's processes as last found (None: walk the tree again). Every new process
        #: passes through the keeper (a fork, or a clone without CLONE_THREAD): between
        #: those, a count reads only their num_threads, not every thread's children file.
        self.task_processes: list[int] | None = None
        self.refusal_unreported: dict[str, Any] | None = None
        self.inner: int | None = None  # PID 1 of the bot's namespace, when there is one
        self.inner_r: int | None = None
        self._inner_buf = b""
        self.finishing_inner_gone = False

    # -- start-up ---------------------------------------------------------------------------
    def run(self) -> int:
        from . import linux

        # Our descriptors out of the way of 0, 1, 2, which become /dev/null (in a library
        # caller whose standard streams were closed, a pipe can be one of them).
        self.bot_side = tuple(_high(fd) for fd in self.bot_side)  # type: ignore[assignment]
        self.start_w, self.report_w = _high(self.start_w), _high(self.report_w)
        _to_dev_null(0, 1, 2)
        _close_all_but(set(self.bot_side) | {0, 1, 2, self.start_w, self.report_w})
        _say(self.start_w, {"keeper": os.getpid()})  # prototest knows it when the keepers' host forked it
        os.set_blocking(self.report_w, False)
        os.setsid()  # out of prototest's group: a kill of that group is prototest's business
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != self.judge:  # prototest died before the line above
            return 70
        linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
        sigmask(signal.SIG_BLOCK, set(_KEEPER_SIGNALS) | {signal.SIGCHLD})
        self.sigfd = linux.signalfd(set(_KEEPER_SIGNALS) | {signal.SIGCHLD})
        parent_sock, child_sock = socket.socketpair()
        self.keeper = os.getpid()
        contain = "keeper"
        if self.namespace:
            try:
                linux.new_pid_namespace()
            except OSError as exc:  # the next child would be PID 1 of a broken namespace: start again
                _say(self.start_w, {"error": exc.errno or 1, "namespace": True})
                return 70
            contain = "pid-namespace"
            nspid = self._start_inner(parent_sock, child_sock)
        else:
            self._own_network()
            self.bot = os.fork()
            if self.bot == 0:
                parent_sock.close()
                self._exec_bot(child_sock, parent=self.keeper)  # never returns
        child_sock.close()
        for fd in self.bot_side:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # mirroring a SIGSEGV leaves no core
        # The bot's process waits for our go before its exec: it cannot be gone while we
        # learn its pid (in a namespace, by its NSpid), and the file watch is in place.
        message, fds = _receive(parent_sock)
        if contain == "pid-namespace":
            self.bot = (self._host_pid(nspid) or 0) if nspid else 0
        message, fds = self._listener_by_number(message, fds)  # before the go: the bot's copy closes at exec
        if message.startswith(_NO_LISTENER):  # the bot's watched calls would fail (ENOSYS): start again
            for pid in (self.bot, self.inner):  # never its exec (its recv ends with us)
                if pid:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            _say(self.start_w, {"error": errno.EPERM, "listener": True, "why": message.decode("utf-8", "replace")})
            return 70
        try:
            parent_sock.send(b"g")
        except OSError:
            pass
        parent_sock.close()
        _say(self.start_w, {"bot": self.bot, "contain": contain})
        self._take_listener(message, fds)
        os.close(self.start_w)
        return self._loop()

    # -- the PID namespace ------------------------------------------------------------------
    def _start_inner(self, parent_sock: socket.socket, child_sock: socket.socket) -> int:
        """Fork the namespace's first process (its PID 1, "the inner keeper"), which
        starts the bot; return the bot's pid as we see it (0 if it is gone already)."""
        inner_r, inner_w = os.pipe()
        self.inner = os.fork()
        if self.inner == 0:
            os.close(inner_r)
            parent_sock.close()
            self._inner_main(inner_w, child_sock)  # never returns
        os.close(inner_w)
        self.inner_r = inner_r
        first = _read_line(inner_r)
        return first.get("bot") if first else None

    def _inner_main(self, out: int, sock: socket.socket) -> None:
        """PID 1 of the bot's namespace: when it ends, the kernel kills every process
        in the namespace. It starts the bot, reaps orphans, and tells the keeper the
        bot's exit status and the signals the bot sends it (a PID 1 receives only the
        signals it has a handler for: every one gets one, and is read from the signalfd)."""
        from . import linux

        try:
            linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)  # the keeper gone: the namespace ends
            try:  # the bot's /proc shows its own namespace, so its pids and /proc agree
                linux.unshare(linux.CLONE_NEWNS)
                own_mounts = True
            except OSError:
                own_mounts = False
            self._own_network()
            for signum in _KEEPER_SIGNALS:
                try:
                    signal.signal(signum, _noop)
                except (OSError, ValueError):
                    pass
            # The bot's process shares this mount namespace: it gets ready for its exec while
            # the mounts below are made; the keeper lets it exec only after our line, after them.
            bot = os.fork()
            if bot == 0:
                os.close(out)
                self._exec_bot(sock, parent=1)  # never returns
            sock.close()
            for fd in (*self.bot_side, self.start_w, self.report_w):
                os.close(fd)
            if own_mounts:
                try:
                    linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)
                    linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
                    _private_perf_data(linux)
                except OSError:
                    pass
            os.write(out, (json.dumps({"bot": bot}) + "\n").encode())
            while True:
                select.select([self.sigfd], [], [])
                for info in linux.read_signals(self.sigfd):
                    if info.signo == signal.SIGCHLD:
                        _reap_all(lambda pid, status: pid == bot and _say(out, {"exit": status}))
                    elif info.pid and info.sent_by_a_process:  # from the parent namespace, pid is 0
                        _say(out, {"signal": info.signo, "nspid": info.pid})
        except BaseException:  # noqa: BLE001
            pass
        os._exit(70)

    def _host_pid(self, nspid: int) -> int | None:
        """The pid we see of the process that is `nspid` in the bot's namespace."""
        if nspid == 2:  # the bot's process, before its exec: the inner keeper's only child yet
            children = _children(self.inner) if self.inner else None
            if children is not None and len(children) == 1:
                return children[0]
        for pid, _ in _descendants(self.inner):
            fields = _status_field(pid, "NSpid")
            if fields and fields[-1] == str(nspid):
                return pid
        return None

    def _from_inner(self) -> None:
        data = b""
        try:
            data = os.read(self.inner_r, 65536)
        except OSError:
            pass
        if not data:
            self.finishing = self.finishing_inner_gone = True  # the inner keeper is gone: so is the namespace
            return
        self._inner_buf += data
        *lines, rest = self._inner_buf.split(b"\n")
        self._inner_buf = rest
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "exit" in message:
                self.bot_status = message["exit"]
                self._report({"e": "exit", "status": message["exit"]})
            elif "signal" in message:
                pid = self._host_pid(message["nspid"])
                self._report({"e": "signal", "t": time.perf_counter_ns(), "sig": message["signal"],
                              "pid": pid or message["nspid"], "cmd": _command(pid) if pid else "",
                              "to": "keeper"})

    def _take_listener(self, msg: bytes, fds: list[int]) -> None:
        if not self.watches.filtered:
            _say(self.start_w, {"watch": None, "why": "not asked for"})
            return
        files = self.watch_files
        if fds:
            self.listener = fds[0]
            os.set_blocking(self.listener, False)
            _say(self.start_w, {"watch": "seccomp" if files else None, "why": "" if files else "not asked for",
                                "filter": "seccomp"})
        else:
            why = msg.decode("utf-8", "replace") or "the bot did not start"
            _say(self.start_w, {"watch": None, "why": why if files else "not asked for", "filter": None,
                                "filter_why": why})

    def _listener_by_number(self, msg: bytes, fds: list[int]) -> tuple[bytes, list[int]]:
        """With the network watched, sendmsg stops at the filter, so the bot's process
        cannot pass the listener over the socket (the keeper would be asked about it
        while waiting for it): it sends the number, and the keeper takes a copy."""
        if fds or not msg.startswith(b"fd "):
            return msg, fds
        from . import linux

        try:
            return b"ok", [linux.take_fd(self.bot, int(msg[3:]))]
        except (OSError, ValueError) as exc:
            return _NO_LISTENER + f" ({exc})".encode(), []

    def _own_network(self) -> None:
        """network="none": a network namespace of our own (only a loopback device, down),
        which the bot then shares. Where the system refuses, the bot starts anyway and
        the start pipe says why."""
        if not self.watches.no_network:
            return
        from . import linux

        try:
            linux.new_network_namespace()
        except OSError as exc:
            _say(self.start_w, {"netns_error": f"the system refuses a network namespace ({exc.strerror or exc})"})
        else:
            _say(self.start_w, {"netns": "namespace"})

    def _exec_bot(self, sock: socket.socket, parent: int) -> None:
        """In the bot's process: become what subprocess.Popen(start_new_session=True)
        would have made, plus the parent-death signal and the file filter; exec."""
        from . import linux

        code = 127
        try:
            os.setsid()
            linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # the parent died before the line above
                os._exit(code)
            self._join_cgroup()
            self._bot_fds()
            if self.cwd is not None:
                try:
                    os.chdir(self.cwd)
                except OSError as exc:
                    _say(self.start_w, {"error": exc.errno or 2, "cwd": True})
                    os._exit(code)
            # Handlers become SIG_DFL at exec by themselves; what Python ignores does not
            # (as subprocess does with restore_signals).
            for signum in (signal.SIGPIPE, signal.SIGXFSZ):
                signal.signal(signum, signal.SIG_DFL)
            sigmask(signal.SIG_SETMASK, self.restore_mask)
            if self.watches.filtered:
                self._install_filter(sock)
            else:
                sock.send(b"started")
            sock.recv(1)  # the keeper's go (or its end)
            sock.close()
            os.execvpe(self.argv[0], self.argv, self.env)
        except OSError as exc:
            _say(self.start_w, {"error": exc.errno or 8})
        except BaseException:  # noqa: BLE001
            pass
        os._exit(code)

    def _join_cgroup(self) -> None:
        """Move this process (the bot-to-be) into its cgroup: "0" is the writer, also in a
        PID namespace. Its children are born there. A failure is reported, and the bot
        starts anyway (prototest measures instead)."""
        failed = []
        for path in self.cgroup_join:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
                try:
                    os.write(fd, b"0")
                finally:
                    os.close(fd)
            except OSError as exc:
                failed.append(f"{path}: {exc.strerror or exc}")
        if failed:
            _say(self.start_w, {"cgroup_error": "cannot join the cgroup (" + "; ".join(failed) + ")"})

    def _bot_fds(self) -> None:
        """The pipes as 0, 1, 2 (moved out of the way first: they may be 0..2 already)."""
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in self.bot_side]
        for target, fd in enumerate(high):
            os.dup2(fd, target)
        for fd in set(high) | set(self.bot_side):
            if fd > 2:
                os.close(fd)
        os.set_blocking(0, True)

    def _install_filter(self, sock: socket.socket) -> None:
        from . import linux

        if not self.filter_code:
            sock.send(f"no system call table for {os.uname().machine}".encode())
            return
        try:
            listener = linux.install_file_filter(self.filter_code)
        except OSError as exc:
            sock.send(f"seccomp refused the filter ({exc.strerror})".encode())
            return
        if self.watches.network:  # sendmsg would stop at the filter: the keeper takes it (pidfd_getfd)
            sock.send(f"fd {listener}".encode())  # send() is sendto without an address: never stops
            return  # the listener is close-on-exec
        socket.send_fds(sock, [b"ok"], [listener])
        os.close(listener)

    # -- the loop ---------------------------------------------------------------------------
    def _loop(self) -> int:
        poller = select.poll()
        poller.register(self.sigfd, select.POLLIN)
        if self.listener is not None:
            poller.register(self.listener, select.POLLIN)
        if self.inner_r is not None:
            poller.register(self.inner_r, select.POLLIN)
        while True:
            for fd, event in poller.poll():
                if fd == self.sigfd:
                    self._signals()
                elif fd == self.inner_r:
                    self._from_inner()
                    if self.finishing:
                        poller.unregister(fd)
                elif fd == self.listener:
                    if event & select.POLLIN:
                        self._notification()
                    elif event & (select.POLLHUP | select.POLLERR):
                        poller.unregister(fd)
                        self.listener = None
            if self.bot_status is not None or self.finishing:
                return self._finish()

    def _signals(self) -> None:
        from . import linux

        for info in linux.read_signals(self.sigfd):
            if info.signo == signal.SIGCHLD:
                self._reap()
            elif info.pid == self.judge or os.getppid() != self.judge:
                self.finishing = True  # prototest asks, or has died (its death signal)
            elif info.sent_by_a_process and self._ours(info.pid):
                self._report({"e": "signal", "t": time.perf_counter_ns(), "sig": info.signo,
                              "pid": info.pid, "cmd": _command(info.pid), "to": "keeper"})
            # anything else (a user's pkill that matched the keeper too) is prototest's business

    def _ours(self, pid: int) -> bool:
        """Whether a process descends from the keeper (the bot and its descendants)."""
        for _ in range(256):
            if pid == os.getpid():
                return True
            parent = _parent(pid)
            if parent is None or parent <= 1:
                return False
            pid = parent
        return False

    def _reap(self) -> None:
        while True:
            try:
                result = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if result is None:
                return
            self._report({"e": "gone", "pid": result.si_pid})
            try:
                pid, status = os.waitpid(result.si_pid, os.WNOHANG)
            except ChildProcessError:
                continue
            if pid and pid == self.inner:
                self.finishing = True
            elif pid == self.bot:
                self.bot_status = status
                self._report({"e": "exit", "status": status})  # before its leftovers are killed

    def _finish(self) -> int:
        """The bot has exited, or prototest wants it over: kill what is left of the
        bot's processes, reap them, and end as the bot ended."""
        if self.inner_r is not None and self.bot_status is None and not _alive(self.bot):
            # the bot is dead: its status is on its way from the inner keeper
            deadline = time.monotonic() + 0.5
            while self.bot_status is None and not self.finishing_inner_gone and time.monotonic() < deadline:
                if select.select([self.inner_r], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    self._from_inner()
        for _ in range(100):
            left = _descendants(os.getpid())
            if not left:
                break
            for pid, pgid in left:  # reported first: killing the inner keeper ends the rest with it
                if pid not in (self.bot, self.inner) and pid not in self.reported_killed:
                    self.reported_killed.add(pid)
                    self._report({"e": "killed", "pid": pid, "pgid": pgid})
            for pid, _ in reversed(left):  # the deepest first
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            self._wait_children(0.2)
        self._wait_children(1.0)
        if self.refusal_unreported is not None:  # the last refusal of a flood, with the total
            self._report(self.refusal_unreported)
        if self.dropped:
            self._report({"e": "dropped", "n": self.dropped})
        return self._mirror()

    def _wait_children(self, seconds: float) -> None:
        """Reap children until none is left, for `seconds` at most: woken by SIGCHLD (read
        from the signalfd: the other signals that come now are of no use any more)."""
        from . import linux

        deadline = time.monotonic() + seconds
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == self.bot:
                self.bot_status = status
            if pid == 0:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                if select.select([self.sigfd], [], [], min(remaining, 0.01))[0]:
                    try:
                        linux.read_signals(self.sigfd)
                    except OSError:
                        pass

    def _mirror(self) -> int:
        """Exit as the bot did: the same status, or death by the same signal."""
        status = self.bot_status
        if status is None:  # never reaped: it was killed with the rest
            status = signal.SIGKILL
        if os.WIFSIGNALED(status):
            signum = os.WTERMSIG(status)
            try:
                if signum not in (signal.SIGKILL, signal.SIGSTOP):
                    signal.signal(signum, signal.SIG_DFL)
                    sigmask(signal.SIG_UNBLOCK, {signum})
                os.kill(os.getpid(), signum)
            except (OSError, ValueError):
                pass
            return 128 + signum
        return os.waitstatus_to_exitcode(status)

    # -- file operations --------------------------------------------------------------------
    def _notification(self) -> None:
        from . import linux

        assert self.listener is not None
        try:
            note = linux.receive(self.listener)
        except OSError:
            return
        if note is None:
            return
        t_ns = time.perf_counter_ns()
        kind = syscalls.kind_of_call(note)
        if kind is not None and kind[0] == "procs":
            self._new_task(note, kind[1], t_ns)
            return
        if kind is not None and kind[0] == "sig":
            self._signal_call(note, kind[1], t_ns)
            return
        try:
            event = syscalls.describe_net(note, kind[1]) if kind is not None and kind[0] == "net" else syscalls.describe(note)
            if event is not None and linux.still_valid(self.listener, note.id):
                event.update(t=t_ns, pid=note.pid, cmd=_command(note.pid))
                self._report(event)
        except Exception:  # noqa: BLE001 - a report lost, never the bot's call
            pass
        finally:
            linux.let_it_continue(self.listener, note.id)

    # -- SIGKILL and SIGSTOP to the judge ----------------------------------------------------
    def _signal_call(self, note: Any, call: str, t_ns: int) -> None:
        """A SIGKILL or SIGSTOP the bot sends (the filter lets no other signal stop here):
        to a process of its own it goes on; to the judge's side (this keeper, the PID
        namespace's first process, prototest, anything outside the bot) it is reported, as
        a signal read from the signalfd is, and not obeyed, as those are not: the call
        returns 0 and nothing is sent (the keeper cannot catch these two: a SIGKILL would
        end it, and so the game, or be dropped without a trace by the kernel, a namespace's
        first process ignoring it). The bot plays on, as after any other signal to its judge."""
        from . import linux

        try:
            target = self._signal_target(note, call)
        except Exception:  # noqa: BLE001 - not known: the call goes on, as it would without us
            target = None
        if target is None or not linux.still_valid(self.listener, note.id):  # type: ignore[arg-type]
            linux.let_it_continue(self.listener, note.id)  # type: ignore[arg-type]
            return
        signo = note.args[2 if call in ("tgkill", "rt_tgsigqueueinfo") else 1] & 0xFFFFFFFF
        self._report({"e": "signal", "t": t_ns, "sig": signo, "pid": note.pid, "cmd": _command(note.pid),
                      "to": target})
        linux.skip_as_done(self.listener, note.id)  # type: ignore[arg-type]

    def _signal_target(self, note: Any, call: str) -> str | None:
        """"keeper" or "prototest" when the signal would reach the judge's side, None when
        it reaches only the bot's own processes. Pids in the call are the bot's: in its PID
        namespace, 1 is the namespace's first process and every other one is the bot's."""
        if call == "pidfd_send_signal":
            return self._pidfd_target(note.pid, _signed(note.args[0]))
        pid = _signed(note.args[0])
        if self.inner is not None:  # the bot's namespace holds only its own processes and PID 1
            return "keeper" if pid == 1 else None
        if pid == 0:  # its own process group
            return None
        if pid == -1:  # every process it may signal: prototest among them
            return "prototest"
        if pid < -1:  # a process group: the bot's own (led by one of its processes) or another
            return None if self._ours(-pid) and -pid != os.getpid() else "prototest"
        if pid == os.getpid():
            return "keeper"
        if not os.path.exists(f"/proc/{pid}"):  # no such process: the call fails by itself (ESRCH)
            return None
        return None if self._ours(pid) else "prototest"

    def _pidfd_target(self, caller: int, fd: int) -> str | None:
        """The target of a pidfd_send_signal: the process its pidfd (the caller's `fd`) names."""
        info = _read_text(f"/proc/{caller}/fdinfo/{fd}")
        line = next((line for line in info.splitlines() if line.startswith("Pid:")), None)
        if line is None:
            return None
        pid = int(line.split()[1])
        if pid in (os.getpid(), self.inner):
            return "keeper"
        return None if self._ours(pid) else "prototest"

    # -- processes and threads past the limit ------------------------------------------------
    def _new_task(self, note: Any, call: str, t_ns: int) -> None:
        """A fork or a thread of the bot's: let it be, unless the bot has `pids_limit`
        tasks already; then refuse it with EAGAIN, as the kernel's pids controller does."""
        from . import linux

        limit = self.watches.pids_limit
        count = 0
        try:
            if limit is not None:
                count = self._task_count()
        except Exception:  # noqa: BLE001 - uncounted: never refuse by mistake
            count = 0
        if limit is None or count < limit:
            if syscalls.makes_a_process(note, call):
                self.task_processes = None  # walk the tree again at the next count
            linux.let_it_continue(self.listener, note.id)  # type: ignore[arg-type]
            return
        event = {"e": "pids", "t": t_ns, "pid": note.pid, "cmd": _command(note.pid), "call": call,
                 "count": count, "limit": limit}
        linux.refuse(self.listener, note.id, errno.EAGAIN)  # type: ignore[arg-type]
        self.refused += 1
        event["refused"] = self.refused
        if self.refused <= _REFUSALS_SHOWN:
            self._report(event)
            self.refusal_unreported = None
        else:  # a flood: counted, and the last one reported at the end
            self.refusal_unreported = event

    def _task_count(self) -> int:
        """The bot's tasks (the threads of all its processes): what a pids cgroup holding
        it would count; in the namespace, everything there but its PID 1."""
        for _ in range(2):
            if self.task_processes is None:
                self.task_processes = _processes_below(self.inner or self.keeper)
            counts = [_threads(pid) for pid in self.task_processes]
            if all(counts):
                return sum(counts)
            self.task_processes = None  # one is gone (its pid could come back as another's)
        return sum(counts)

    def _report(self, event: dict[str, Any]) -> None:
        for key in ("path", "to", "cmd"):
            if isinstance(event.get(key), str) and len(event[key]) > _PATH_SHOWN:
                event[key] = event[key][:_PATH_SHOWN] + "..."
        data = (json.dumps(event) + "\n").encode()
        try:
            os.write(self.report_w, data)  # a pipe write under PIPE_BUF bytes is whole or nothing
        except BlockingIOError:
            self.dropped += 1
        except OSError:
            pass


def _signed(value: int) -> int:
    """A C int argument (a pid) from its 64-bit register: -1 is 0xffffffff, sign-extended or not."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _read_text(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return ""


# -- counting the bot's tasks ---------------------------------------------------------------

def _processes_below(root: int) -> list[int]:
    """Every process descended from `root` (zombies too: a pids cgroup counts them until
    they are reaped)."""
    found, stack = [], [root]
    while stack:
        children = _children(stack.pop())
        if children is None:
            return [pid for pid, _ in _descendants_by_walk(root)]
        found += children
        stack += children
    return found


def _threads(pid: int) -> int:
    """The threads of a process (1 for a zombie); 0 when it is gone."""
    fields = _stat_fields(pid)
    try:
        return max(1, int(fields[17]))  # type: ignore[index]  # num_threads, the 20th field of stat
    except (TypeError, IndexError, ValueError):
        return 0


# -- /proc ----------------------------------------------------------------------------------

def _stat_fields(pid: int) -> list[bytes] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    return data[data.rfind(b")") + 2:].split()


def _parent(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields and len(fields) > 1 else None


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            raw = fh.read(4096)
    except OSError:
        return ""
    return " ".join(os.fsdecode(part) for part in raw.rstrip(b"\0").split(b"\0"))


def _children(pid: int) -> list[int] | None:
    """The children of a process, from /proc/PID/task/*/children (None where the kernel
    has no such file: then only a walk over all of /proc finds them)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                found += [int(child) for child in fh.read().split()]
        except FileNotFoundError:
            if os.path.exists(f"/proc/{pid}/task/{tid}"):
                return None
        except OSError:
            pass
    return found


def _descendants(root: int) -> list[tuple[int, int]]:
    """(pid, process group) of every live process descended from `root`: along the
    children files (a few reads), else by a walk over all of /proc."""
    found, stack = [], [root]
    while stack:
        children = _children(stack.pop())
        if children is None:
            return _descendants_by_walk(root)
        for pid in children:
            fields = _stat_fields(pid)
            if fields and len(fields) > 2 and fields[0] != b"Z":
                found.append((pid, int(fields[2])))
            stack.append(pid)
    return found


def _descendants_by_walk(root: int) -> list[tuple[int, int]]:
    children: dict[int, list[int]] = {}
    groups: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(int(entry))
        if not fields or len(fields) < 3 or fields[0] == b"Z":
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        groups[int(entry)] = int(fields[2])
    found = []
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        found.append((pid, groups[pid]))
        stack.extend(children.get(pid, []))
    return found


def _high(fd: int) -> int:
    """The same file as `fd`, on a descriptor above 2 (close-on-exec)."""
    if fd > 2:
        return fd
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)


def _alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] not in (b"Z", b"X")  # type: ignore[index]


_filters: dict[tuple[bool, bool, bool], bytes] = {}


def _filter_code(files: bool = True, network: bool = False, processes: bool = False) -> bytes:
    """The filter's BPF program for this machine and these watches, built once (b""
    when the machine's system calls are unknown)."""
    key = (files, network, processes)
    if key not in _filters:
        from . import linux

        abis = linux.machine_abis()
        _filters[key] = linux.watch_filter(abis, files=files, network=network, processes=processes,
                                           signals=True) if abis else b""
    return _filters[key]


def _receive(sock: socket.socket) -> tuple[bytes, list[int]]:
    """The bot process's message before its exec: the listener fd, or why there is none."""
    try:
        msg, fds, _, _ = socket.recv_fds(sock, 256, 1)
    except OSError:
        return b"", []
    return msg, fds


def _status_field(pid: int, name: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(name + ":"):
                    return line.split()[1:]
    except OSError:
        pass
    return None


def _reap_all(seen) -> None:
    """Collect every dead child, calling seen(pid, status) for each."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        seen(pid, status)


def _read_line(fd: int) -> dict[str, Any] | None:
    data = b""
    while not data.endswith(b"\n"):
        try:
            chunk = os.read(fd, 1)
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    try:
        return json.loads(data)
    except ValueError:
        return None


def _private_perf_data(linux) -> None:
    """A JVM keeps its perf data in /tmp/hsperfdata_USER/PID. Every bot of its own pid
    namespace has the same small pid, so two JVMs at once (games played in parallel) would
    take the same file, and the second prints a warning on stdout, which the judge reads
    as its answer. Each namespace gets its own folder there (a tmpfs of its mounts), owned
    by the user and 0755 as the JVM makes it: a tmpfs mounts 1777, which the JVM finds
    insecure and writes nothing to, and the write a real machine sees would go unreported."""
    user = _user_name()
    if user is None:
        return
    folder = f"/tmp/hsperfdata_{user}"
    try:
        os.makedirs(folder, mode=0o755, exist_ok=True)
        linux.mount("tmpfs", folder, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV)
        os.chmod(folder, 0o755)  # the mount's root, now (owned by whoever mounted it: us)
    except OSError:
        pass


_user: list[str | None] = []


def _user_name() -> str | None:
    """This user's name (looked up once: before the keeper's fork, not in every bot's namespace)."""
    if not _user:
        import pwd

        try:
            _user.append(pwd.getpwuid(os.geteuid()).pw_name)
        except KeyError:
            _user.append(None)
    return _user[0]


def _noop(signum: int, frame: object) -> None:
    """A handler, so that the kernel delivers the signal to a namespace's PID 1 (which
    then reads it from its signalfd)."""


def _close_all_but(keep: set[int]) -> None:
    for entry in os.listdir("/proc/self/fd"):
        fd = int(entry)
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _to_dev_null(*fds: int) -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in fds:
        if fd != null:
            os.dup2(null, fd)
    if null not in fds:
        os.close(null)


def _say(fd: int, message: dict[str, Any]) -> None:
    try:
        os.write(fd, (json.dumps(message) + "\n").encode())
    except OSError:
        pass
