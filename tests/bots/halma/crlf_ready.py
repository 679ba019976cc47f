#!/usr/bin/env python3
"""Accepted with a warning: greets with `ready\r\n` (a Windows line ending); the controller removes one \r before the \n."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class CrlfReady(Bot):
    def handshake(self):
        sys.stdout.write("ready\r\n")
        sys.stdout.flush()


if __name__ == "__main__":
    CrlfReady().run()
