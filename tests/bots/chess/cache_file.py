#!/usr/bin/env python3
"""Fault: on its 2nd turn writes `prototest-cache-<random>.json` in the temporary folder ($TMPDIR), reads it back and deletes it, before answering."""
import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402


class CacheFile(Bot):
    def play_turn(self, last, mine, theirs, fen):
        if self.turn == 2:
            # not tempfile.gettempdir(): it writes and deletes a file of its own to try the folder
            path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"prototest-cache-{uuid.uuid4().hex}.json")
            with open(path, "w") as fh:
                json.dump({"fen": fen}, fh)
            with open(path) as fh:
                json.load(fh)
            os.remove(path)
        super().play_turn(last, mine, theirs, fen)


if __name__ == "__main__":
    CacheFile().run()
