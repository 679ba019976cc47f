#!/usr/bin/env python3
"""Not a fault: reserves 8 GB of address space at start (never touched, no access allowed) and keeps it, as a JVM or Go runtime reserves its heap."""
import mmap
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import Bot  # noqa: E402

RESERVE_BYTES = 8 << 30
#: Linux's MAP_NORESERVE on x86 and ARM, and PROT_NONE (Python's mmap names them from 3.13 on).
MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000)
PROT_NONE = getattr(mmap, "PROT_NONE", 0)


class Reserves8GB(Bot):
    def start(self):
        # address space only: no memory is used until a page is touched, and none is
        self.reserved = mmap.mmap(-1, RESERVE_BYTES, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_NORESERVE,
                                  prot=PROT_NONE)


if __name__ == "__main__":
    Reserves8GB().run()
