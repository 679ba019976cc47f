#!/usr/bin/env python3
"""A stand-in bot that says what a fixture recorded, for `prototest replay`.

When a bot now answers otherwise than its fixture, replay also needs the judge's verdict
on the *recorded* answer (a hand edit, or a rules change, may have made it illegal). This
program plays the recorded bot side: for each step it reads the given number of lines,
then writes the given lines; after the last step it reads until its input ends. The
judge and the rules that judge it are prototest's own, unchanged.

    python3 scripted_bot.py STEPS.json      # [[lines to read, [lines to write]], ...]

Standard library only and no prototest import: it starts in milliseconds wherever the
interpreter runs, whatever the bot's environment.
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as fh:
        steps = json.load(fh)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    for reads, writes in steps:
        for _ in range(reads):
            if not stdin.readline():
                return 0
        stdout.write(b"".join(line.encode("utf-8") + b"\n" for line in writes))
        stdout.flush()
    while stdin.readline():
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
