"""Perft speed of every rules engine beside python-chess's, in one run on one machine.

Not a test: it prints figures. Run: `python benchmarks/bench_perft.py`.
Each engine's perft is timed from its initial position (best of three runs), and its
nodes per second are set beside python-chess's perft on the same machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prototest.games import make_rules  # noqa: E402

CASES = [("chess", 4), ("impasse", 4), ("loa", 4), ("halma", 3)]


def timed(rules, depth: int) -> tuple[int, float]:
    position = rules.initial()
    best = float("inf")
    nodes = 0
    for _ in range(3):
        start = time.perf_counter()
        nodes = rules.perft(position, depth)
        best = min(best, time.perf_counter() - start)
    return nodes, best


def main() -> None:
    results = {}
    for game, depth in CASES:
        nodes, seconds = timed(make_rules(game, {}), depth)
        results[game] = nodes / seconds
        print(f"{game:8} perft({depth}) = {nodes:>9,} in {seconds * 1000:8.1f} ms: {nodes / seconds:>12,.0f} nodes/s")
    base = results["chess"]
    print()
    for game, rate in results.items():
        if game != "chess":
            print(f"{game:8} {rate / base:5.1f} x python-chess's nodes per second")


if __name__ == "__main__":
    main()
