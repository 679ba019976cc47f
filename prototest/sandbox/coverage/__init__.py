"""Coverage of the bot's own code, without touching its source: an AFL-style map in shared
memory that the bot's process fills and prototest reads after each answer.

* `shm.CoverageMap`: the map (a file under /dev/shm, a byte a slot, named to the bot by
  PROTOTEST_COVERAGE_MAP) and its names index (PROTOTEST_COVERAGE_INDEX);
* `inject`: whether the bot is a Python program that the collector (`collector.py`, run
  as the bot's `sitecustomize`) can serve, and the environment that injects it;
* `pysource`: a Python bot's own files compiled on prototest's side, to name the lines,
  functions and files the map's slots stand for;
* `runtime.c`: the runtime a native bot links, built with the compiler's coverage
  instrumentation (`prototest coverage-runtime` prints its path).

Nothing here reads the bot's answers or judges anything: the map says which of the bot's
code ran, and prototest.play decides what that is worth.
"""

from __future__ import annotations

from pathlib import Path

from .inject import Injection, injection
from .shm import ENV_INDEX, ENV_MAP, ENV_ROOT, MAP_SIZE, CoverageMap, slot

__all__ = ["CoverageMap", "Injection", "injection", "slot", "runtime_path", "MAP_SIZE", "ENV_MAP", "ENV_INDEX",
           "ENV_ROOT"]


def runtime_path() -> Path:
    """The native runtime's C source, shipped with prototest."""
    return Path(__file__).with_name("runtime.c")
