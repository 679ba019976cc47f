"""Killing a bot's processes to the last, and reaping what they leave.

A bot's process group is ended with SIGTERM, a moment, then SIGKILL (`kill_kept`, with
its keeper; `kill_group`, without one); its processes that left the group (setsid) are
found by their parent links in /proc and killed too. As the
subreaper (the command line only), prototest also collects the dead orphans handed to it,
past the live bots' own processes (`_live`), so no zombie piles up over a long run.
"""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import subprocess
import time
from collections.abc import Set as AbstractSet
from typing import Any

from . import keeper
from .exitstatus import describe_status

PR_SET_CHILD_SUBREAPER = 36

_subreaper = False
#: The children of this process that are bots (or their keepers) not yet killed: a bot
#: started ahead of its game (runner.Ahead) lives beside the one playing, and the sweeps
#: after a kill (descendants outside the group, dead orphans) must leave it alone.
_live: set[int] = set()
#: The children of this process that are prototest's own helpers, neither bots nor keepers'
#: hosts (a printed replay's `prototest check` started ahead: prototest.play.replayready):
#: never swept as a bot's leftovers, never reaped here (their own Popen waits for them).
helpers: set[int] = set()


def reap_orphans(wait_s: float = 0.0) -> None:
    """Collect the exit status of the dead orphans handed to us (no zombies pile up over
    a long run, none outlives prototest), waiting up to `wait_s` for killed ones still
    on their way. Only as the subreaper, when all our children are bots' leftovers."""
    if not _subreaper:
        return
    deadline = time.monotonic() + wait_s
    while True:
        if _live or helpers:  # one by one, past the live bots' own processes (their status is theirs)
            children = keeper._children(os.getpid())
            if children is None:
                return
            waiting, hosts = False, _ours()
            for child in children:
                if child in _live or child in hosts:
                    continue
                try:
                    pid, _ = os.waitpid(child, os.WNOHANG)
                except ChildProcessError:
                    continue
                waiting = waiting or pid == 0
            if not waiting or time.monotonic() >= deadline:
                return
            time.sleep(0.005)
            continue
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # no children left at all
        if pid == 0:
            if time.monotonic() >= deadline or not _children_but_hosts():
                return
            time.sleep(0.005)


def _ours() -> set[int]:
    """This process's children that are prototest's own and live on: its keepers' hosts
    and its helpers (never a bot's leftovers)."""
    return keeper.host_pids() | helpers


def _children_but_hosts() -> bool:
    """Whether this process has a child other than its keepers' hosts (which live on)."""
    children = keeper._children(os.getpid())
    return children is None or bool(set(children) - _ours())


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux), so a bot's
    child that left its group (setsid) and outlived the bot is still found and killed.
    For the command line only: a library caller's own children are not ours to kill."""
    global _subreaper
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper



def _descendants(root: int, group: int, others: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    """(pid, parent) of the processes descended from `root` (by parent links in /proc)
    outside process group `group`: those a group kill would miss. Empty without /proc.
    Along the children files where the kernel has them (a few reads, not all of /proc)."""
    found: list[tuple[int, int]] = []
    stack = [root]
    hosts = _ours()
    while stack:
        parent = stack.pop()
        children = keeper._children(parent)
        if children is None:
            return _descendants_by_walk(root, group, others)
        for pid in children:
            if parent == os.getpid() and pid in others:
                continue  # another bot, alive (started ahead of its game), and all of its own
            if pid in hosts:  # prototest's keepers' host (it has no children: keepers are ours)
                continue
            fields = keeper._stat_fields(pid)
            if fields and len(fields) > 2 and int(fields[2]) != group and pid != os.getpid():
                found.append((pid, parent))
            stack.append(pid)
    return found


def _descendants_by_walk(root: int, group: int, others: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    children: dict[int, list[int]] = {}
    groups: dict[int, int] = {}
    parents: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) < 3:
            continue
        pid = int(entry)
        parent = int(fields[1])
        children.setdefault(parent, []).append(pid)
        groups[pid] = int(fields[2])
        parents[pid] = parent
    found: list[tuple[int, int]] = []
    hosts = _ours()
    stack = [pid for pid in children.get(root, []) if pid not in hosts and not (root == os.getpid() and pid in others)]
    while stack:
        pid = stack.pop()
        if groups.get(pid) != group and pid != os.getpid():
            found.append((pid, parents[pid]))
        stack.extend(children.get(pid, []))
    return found


def term_then_kill_group(proc: subprocess.Popen | keeper.KeeperProcess, group: int) -> None:
    """SIGTERM to the bot's group, a moment for it to go, then SIGKILL."""
    if proc.poll() is None:
        try:
            os.killpg(group, signal.SIGTERM)
        except OSError:
            pass
        try:
            proc.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError as exc:
        if exc.errno not in (errno.ESRCH, errno.EPERM):
            raise


def end_keeper(proc: keeper.KeeperProcess) -> None:
    """Tell the keeper to finish now (SIGTERM); SIGKILL if it has not within 3 s."""
    try:
        os.kill(proc.pid, signal.SIGTERM)
    except OSError:
        pass
    try:
        proc.wait(timeout=3.0)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)


def kill_keepers_orphans(group: int, keeper_pid: int) -> list[int]:
    """As the subreaper: the keeper's own orphans, if it was killed before it could
    finish (the pids killed)."""
    killed: list[int] = []
    if _subreaper:
        for pid, _parent in _descendants(os.getpid(), group, _live - {keeper_pid}):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                continue
            killed.append(pid)
        reap_orphans(1.0)
    return killed


def escaped_from(group: int, proc_pid: int) -> list[tuple[int, int]]:
    """The bot's descendants outside its group, looked for before the group is killed
    (orphans of the bot are re-parented to this process when it is the subreaper)."""
    return _descendants(os.getpid() if _subreaper else group, group, _live - {proc_pid})


def kill_escaped(group: int, proc_pid: int, escaped: list[tuple[int, int]]) -> list[int]:
    """Kill what left the group, then look again: a process can fork while it dies (a
    SIGTERM handler that spawns), and its orphans come to us as the subreaper. The pids
    killed."""
    if _subreaper:  # look again: orphans born while the group died have come to us
        escaped = _descendants(os.getpid(), group, _live - {proc_pid})
    killed: list[int] = []
    for _ in range(20):
        if not escaped:
            break
        for pid, _parent in escaped:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        killed += [pid for pid, _ in escaped if pid not in killed]
        reap_orphans(1.0)  # so the dead are not found again
        escaped = _descendants(os.getpid(), group, _live - {proc_pid}) if _subreaper else []
    return killed


def kill_kept(bot: Any) -> list[int]:
    """A process.Bot's kill (Bot.kill), the keeper's way: SIGTERM to the bot's group, a
    moment, SIGKILL; then the keeper kills whatever is left of the bot's processes (it is
    their subreaper, wherever they went), reports them, and ends as the bot ended. The
    pids of those that had left the bot's group."""
    if bot.pid > 1:  # never killpg(0): that is our own group
        term_then_kill_group(bot.proc, bot.pid)
    if bot.proc.poll() is None:
        end_keeper(bot.proc)
    _killed_status(bot)
    bot.channels.read_reports()
    escaped = [e["pid"] for e in bot.channels.killed if e.get("pgid") != bot.pid]
    dropped = bot.channels.dropped
    escaped += kill_keepers_orphans(bot.pid, bot.proc.pid)
    if dropped:
        bot.transcript.note(f"{dropped} report(s) of the bot's file operations or signals were lost "
                            f"(too many at once)")
    return escaped


def kill_group(bot: Any) -> list[int]:
    """A process.Bot's kill without a keeper: its group ended, then its processes that had
    left the group (found before) killed; their pids."""
    escaped = escaped_from(bot.pid, bot.proc.pid)
    term_then_kill_group(bot.proc, bot.pid)
    _killed_status(bot)  # before any reaping below, which must not take the bot's status
    return kill_escaped(bot.pid, bot.proc.pid, escaped)


def _killed_status(bot: Any) -> None:
    """The killed bot's exit status (`returncode`, unless its end was seen already), in
    its transcript."""
    if bot.returncode is None:
        bot.returncode = bot.proc.wait()
        bot.transcript.note(f"killed: {describe_status(bot.returncode)}")
