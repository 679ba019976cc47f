"""A fork server for the suite's `python -m prototest ...` runs (see conftest.run_cli).

A fresh interpreter spends most of a short CLI run importing prototest (typer, Hypothesis,
python-chess): 0.1 to 0.3 s of CPU each time (more on a loaded machine), ~380 times a suite.
This program imports the command line once, then forks a child for each run it is asked
for. The child is what `python -m prototest ARGS` would be after its imports: its own
process, with the run's stdin/stdout/stderr (passed over the socket), working directory,
environment and argv; it runs prototest's `__main__` as `-m` does and ends through the
interpreter's own exit (atexit, flushing), so its exit status and output are the CLI's.

What a forked child shares with its siblings, unlike fresh interpreters: the hash seed
(the order of sets of strings) and the modules' import-time state. Tests that compare two
runs for determinism run fresh interpreters (run_cli(..., fresh=True)).

Protocol (one SOCK_SEQPACKET socket, fd in argv[1]): a request is a JSON object
{"argv", "cwd", "env"} with three fds (stdin, stdout, stderr); the answers are
{"pid": N} when the child is started, then {"status": S} (os.waitstatus_to_exitcode) when
it has ended. The server ends when the socket closes.
"""

from __future__ import annotations

import importlib
import json
import os
import runpy
import socket
import sys

# The heavy imports, once, before any fork. The CLI imports each command's module (and the
# fuzz command Hypothesis) only when that command runs: import them all here.
importlib.import_module("prototest.cli")
for _command in ("check", "fuzz", "games", "merge", "moves", "perft", "record", "replay"):
    importlib.import_module(f"prototest.commands.{_command}")
# typer builds its parameter parsers with pydantic when a command line is parsed (typer >= 0.29):
# about 50 ms of imports in every run (a private module: another typer may not have it).
try:
    importlib.import_module("typer._adapters")
except ImportError:
    pass


def serve(fd: int) -> None:
    """Answer requests until the socket closes; returns only in a forked child, set up
    as the run it was asked for."""
    os.set_inheritable(fd, False)
    sock = socket.socket(fileno=fd)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        except (ConnectionError, OSError):
            os._exit(0)
        if not data:
            os._exit(0)
        request = json.loads(data)
        pid = os.fork()
        if pid == 0:
            sock.close()
            for target, source in enumerate(fds):
                os.dup2(source, target)
            for source in fds:
                if source > 2:
                    os.close(source)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            sys.argv = ["-m", *request["argv"]]
            sys.path[0] = os.getcwd()  # as `python -m` has it
            return
        for source in fds:
            os.close(source)
        sock.send(json.dumps({"pid": pid}).encode())
        _, status = os.waitpid(pid, 0)
        sock.send(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode())


if __name__ == "__main__":
    serve(int(sys.argv[1]))
    # The child: `python -m prototest ARGS` from here on (its SystemExit ends the interpreter).
    runpy.run_module("prototest", run_name="__main__", alter_sys=True)
