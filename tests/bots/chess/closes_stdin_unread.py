#!/usr/bin/env python3
"""Fault: waits until the judge's first line is in its stdin pipe, then closes its stdin
without reading it and keeps running (sleeps): closes_stdin.py, but always after the judge
wrote, whatever the machine's speed."""
import os
import select
import time

if __name__ == "__main__":
    select.select([0], [], [])
    os.close(0)
    while True:
        time.sleep(3600)
