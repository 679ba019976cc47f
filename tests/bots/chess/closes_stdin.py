#!/usr/bin/env python3
"""Fault: closes its stdin at start-up and keeps running (sleeps), so the judge cannot write."""
import os
import time

if __name__ == "__main__":
    # First thing, before any import that takes time (_common imports python-chess): the
    # judge's first line comes 150 ms after the start in the tests, and must find it closed.
    os.close(0)
    while True:
        time.sleep(3600)
