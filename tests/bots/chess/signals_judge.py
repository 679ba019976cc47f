#!/usr/bin/env python3
"""Fault: on its 2nd turn finds its judge and sends $SIGNAL (default SIGTERM) to the judge's
process group, or to the judge itself with TARGET=process; then plays on, or exits at once
with THEN=exit.

The judge is found by a token the test hands over, never by a name: $JUDGE_TOKEN (a
`NAME=value` pair) is in the judge's own environment (the test started prototest with
it) and is passed to the bot with `--env`. The judge is the outermost of the bot's
ancestors whose environment holds that pair (prototest's workers and keepers inherit it;
the test runner does not). In a PID namespace that is the outermost ancestor the bot can
see. Without $JUDGE_TOKEN, or with no ancestor holding it, the bot signals nobody: it
says so on stderr and exits with status 2."""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[1])


def holds(pid, token):
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return token in fh.read().split(b"\0")
    except OSError:
        return False


def judge(token):
    found, pid = None, os.getppid()
    while pid > 0:  # up to the first process it can see (pid 1)
        if holds(pid, token):
            found = pid
        elif found is not None:
            break
        if pid == 1:
            break
        pid = parent_of(pid)
    return found


class SignalsJudge(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn == 2:
            token = os.environ.get("JUDGE_TOKEN", "")
            target = judge(token.encode()) if "=" in token else None
            if target is None:
                print(f"signals_judge: no judge found (JUDGE_TOKEN={token!r}): nothing sent", file=sys.stderr)
                os._exit(2)
            signum = getattr(signal, os.environ.get("SIGNAL", "SIGTERM"))
            if os.environ.get("TARGET") == "process":
                os.kill(target, signum)
            else:
                os.killpg(os.getpgid(target), signum)
            if os.environ.get("THEN") == "exit":
                os._exit(0)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    SignalsJudge().run()
