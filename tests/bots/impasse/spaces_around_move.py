#!/usr/bin/env python3
"""Fault: writes its move with something around it, as SHAPE in the environment says: `leading` (` c7a5`), `empty_comment` (`c7a5 `, accepted) or `junk` (`c7a5junk`)."""
import os
import sys

# This folder holds random.py: keep it behind the standard library on the path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE] + [HERE]
from _common import Bot  # noqa: E402

SHAPES = {"leading": " {}", "empty_comment": "{} ", "junk": "{}junk"}
SHAPE = SHAPES[os.environ.get("SHAPE", "leading")]


class SpacesAroundMove(Bot):
    def format(self, turn, move):
        return SHAPE.format(move)


if __name__ == "__main__":
    SpacesAroundMove().run()
