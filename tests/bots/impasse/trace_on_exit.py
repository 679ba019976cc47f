#!/usr/bin/env python3
"""Accepted with a warning: on EOF prints a Java-like stack trace to stderr and exits 1."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402


TRACE = """Exception in thread "main" java.util.NoSuchElementException
	at java.base/java.util.Scanner.throwFor(Scanner.java:937)
	at java.base/java.util.Scanner.next(Scanner.java:1478)
	at Player.main(Player.java:21)
"""


class TraceOnExit(Bot):
    def on_eof(self):
        sys.stderr.write(TRACE)
        sys.stderr.flush()
        sys.exit(1)


if __name__ == "__main__":
    TraceOnExit().run()
