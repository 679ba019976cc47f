"""The keepers' host: a small process of prototest's own that forks keepers (see `_Host`),
one per thread that starts bots, from a run's `HOST_FROM_START`th bot on."""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import sys
from typing import Sequence

from .keepermain import _Keeper, _Watches
from .keeperprocs import _filter_code, _user_name, _close_all_but


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
