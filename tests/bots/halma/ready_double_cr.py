#!/usr/bin/env python3
"""Fault: greets with `ready\r\r\n`; the controller removes one \r only, and `ready\r` is not `ready`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class ReadyDoubleCr(Bot):
    def handshake(self):
        sys.stdout.write("ready\r\r\n")
        sys.stdout.flush()


if __name__ == "__main__":
    ReadyDoubleCr().run()
