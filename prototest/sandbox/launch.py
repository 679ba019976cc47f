"""Starting a bot: its environment, its cgroup, and the keeper that starts it.

On Linux the bot is started by a keeper of prototest's own (`prototest.sandbox.keeper`),
so that it dies with its judge and its file operations and signals are seen; elsewhere
it is a plain child in a session of its own. Either way it inherits none of the signals
prototest holds blocked (`signalguard`), and only the environment `controlled_env` keeps.
"""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass
from typing import Sequence

from . import interrupts, keeper
from .holding import EnvelopeHold
from .reaping import _live
from .signalguard import _guard

#: Environment variables passed to a bot; everything else (PYTHONUNBUFFERED among them)
#: is dropped, so a missing flush shows as it would on a real judge.
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR")


def controlled_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra or {})
    return env


@dataclass
class Launched:
    """A bot just started: its process (the keeper's, with one), the bot's pid, and what
    the keeper watches."""

    proc: subprocess.Popen | keeper.KeeperProcess
    pid: int
    keeper_pid: int | None = None
    report_fd: int | None = None
    file_watch: str | None = None
    file_watch_missing: str = "not asked for"
    containment: str = "none"


def launch(argv: list[str], env: dict[str, str], cwd: str | None, watch_files: bool,
           hold: EnvelopeHold) -> Launched:
    """Through the keeper where the machine has one (Linux), else as a plain child."""
    if keeper.supported():
        env = dict(env)
        join = hold.make_group(env)
        e = hold.envelope
        try:
            started = keeper.start(
                argv, env, cwd, watch_files=watch_files,
                restore_mask=_guard.saved if _guard.active else None, cgroup_join=join,
                pids_limit=e.pids if e is not None and hold.enforced == "measured" and e.pids else None,
                network=e.network if e is not None else "allowed", watch_network=e is not None)
        except BaseException:
            hold.drop_group()
            raise
        if started.cgroup_error:  # the bot runs outside its group: measure instead
            hold.outside_group(f"the bot could not join its cgroup ({started.cgroup_error})")
        _live.add(started.proc.pid)
        launched = Launched(started.proc, started.bot_pid, started.proc.pid, started.report_fd,
                            started.file_watch, started.file_watch_missing, started.containment)
        hold.start_meter(launched.pid)
        return launched
    held = _guard.active  # the bot must not inherit the blocked signals
    if held:
        interrupts.sigmask(signal.SIG_SETMASK, _guard.saved)
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=cwd, start_new_session=True, bufsize=0, close_fds=True,
        )
    finally:
        if held:
            interrupts.sigmask(signal.SIG_BLOCK, interrupts.HELD)
    _live.add(proc.pid)
    launched = Launched(proc, proc.pid,
                        file_watch_missing="no keeper on this system" if watch_files else "not asked for")
    hold.no_keeper()
    hold.start_meter(launched.pid)
    return launched
