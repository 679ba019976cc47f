#!/usr/bin/env python3
"""Fault: never reads stdin and never writes anything; just sleeps forever."""
import time

while True:
    time.sleep(3600)
