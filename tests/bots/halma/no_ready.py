#!/usr/bin/env python3
"""Fault: never writes `ready`: it reads its input and waits, silent, until stdin closes."""
import sys

for _ in sys.stdin:
    pass
