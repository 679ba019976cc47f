#!/usr/bin/env python3
"""Fault: starts 150 threads (each waiting on an Event) before writing `ready`: over Proglad's 100 processes and threads."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import threading  # noqa: E402

from _common import Bot  # noqa: E402

THREADS = int(os.environ.get("THREADS", "150"))  # THREADS=92: just under the limit (with the main thread)


class Threads150(Bot):
    def handshake(self):
        self.stop = threading.Event()
        # daemon threads: they never keep the bot from exiting when its input ends
        self.threads = [threading.Thread(target=self.stop.wait, daemon=True) for _ in range(THREADS)]
        for thread in self.threads:
            thread.start()  # on Proglad (pids 100) a start fails: "can't start new thread"
        super().handshake()


if __name__ == "__main__":
    Threads150().run()
