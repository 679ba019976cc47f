#!/usr/bin/env python3
"""Fault: closes its stdin at start-up and keeps running (sleeps), so the judge cannot write."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import sleep_forever  # noqa: E402

if __name__ == "__main__":
    os.close(0)
    sleep_forever()
