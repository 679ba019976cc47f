"""Speed of the Halma rules module: move generation, path judging, the built-in opponent.

A plain script, not a test: `python benchmarks/bench_halma.py`. Positions come from seeded
greedy-vs-greedy and random-vs-random games, so the figures cover openings, the crowded
middle game and endgames; judging also covers a synthetic 37-jump chain.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prototest.games.halma import HalmaPosition, HalmaRules, choose_move, make_rules  # noqa: E402

SEEDS = range(5)


def play_game(rules: HalmaRules, seed: int, style: str, max_plies: int) -> list[HalmaPosition]:
    rng = random.Random(seed)
    pos, seen = rules.initial(), []
    while pos.outcome() is None and pos.ply() < max_plies:
        seen.append(pos)
        pos = pos.play(choose_move(pos, rng, style))
    return seen


def timed(work: Callable[[], int], repeat: int = 3) -> tuple[float, int]:
    """Best wall time over `repeat` runs of `work` (which returns how many items it did)."""
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = work()
        best = min(best, time.perf_counter() - start)
    return best, count


def bench_generation(rules: HalmaRules, notations: list[str], label: str) -> None:
    """Fresh positions each round (a position caches its listing); parsing is not timed."""
    best, moves = float("inf"), 0
    for _ in range(3):
        fresh = [rules.parse(n) for n in notations]
        start = time.perf_counter()
        moves = sum(len(p.legal_moves()) for p in fresh)
        best = min(best, time.perf_counter() - start)
    n = len(notations)
    print(
        f"  legal_moves() {label:<15} {n:5d} positions  {n / best:9.0f} positions/s  "
        f"{best / n * 1e6:8.1f} µs/call  ({moves / n:.0f} moves/position)"
    )


def bench_perft1(rules: HalmaRules, positions: list[HalmaPosition]) -> None:
    seconds, leaves = timed(lambda: sum(rules.perft(p, 1) for p in positions))
    n = len(positions)
    print(f"  perft(1) count only           {n:5d} positions  {n / seconds:9.0f} positions/s  "
          f"{seconds / n * 1e6:8.1f} µs/call  ({leaves} leaves)")


def bench_judge(positions: list[HalmaPosition]) -> None:
    jobs = [(p, m) for p in positions for m in p.legal_moves()]
    seconds, _ = timed(lambda: sum(1 for p, m in jobs if p.judge(m)), repeat=1)
    per_move = seconds / len(jobs) * 1e6
    print(f"  judge() every legal move      {len(jobs):6d} moves  {per_move:8.1f} µs/move")
    by_hops: dict[str, list[tuple[HalmaPosition, str]]] = {}
    for p, m in jobs:
        hops = len(m.split()) // 2 - 1
        key = "step/1 jump" if hops == 1 else "2-4 jumps" if hops <= 4 else "5+ jumps"
        by_hops.setdefault(key, []).append((p, m))
    for key in ("step/1 jump", "2-4 jumps", "5+ jumps"):
        group = by_hops.get(key, [])
        if group:
            seconds, _ = timed(lambda: sum(1 for p, m in group if p.judge(m)), repeat=1)
            longest = max(len(m.split()) // 2 - 1 for _, m in group)
            print(f"    {key:<12} {len(group):6d} moves (longest {longest:2d} hops) "
                  f"{seconds / len(group) * 1e6:8.1f} µs/move")


def serpentine(rules: HalmaRules) -> tuple[HalmaPosition, str]:
    """A position where (1,1) can jump 37 times, snaking over rows 1, 3, 5, 7 and into row 9."""
    path = [(1, 1)]
    for row in (1, 3, 5, 7):
        xs = range(3, 16, 2) if row % 4 == 1 else range(13, 0, -2)
        path += [(x, row) for x in xs]
        path.append((path[-1][0], row + 2))
    path += [(x, 9) for x in range(3, 12, 2)]
    hurdles = [((a[0] + b[0]) // 2, (a[1] + b[1]) // 2) for a, b in zip(path, path[1:])]
    assert len(hurdles) == 37
    grid = [["."] * 16 for _ in range(16)]
    for i, (x, y) in enumerate([path[0]] + hurdles):
        grid[y - 1][x - 1] = "1" if i < 19 else "2"
    pos = rules.parse("/".join("".join(row) for row in grid) + " 1 10")
    return pos, " ".join(f"{x} {y}" for x, y in path)


def bench_long_chain(rules: HalmaRules) -> None:
    pos, move = serpentine(rules)
    judged = pos.judge(move)
    assert not judged.warnings
    rounds = 2000
    seconds, _ = timed(lambda: sum(1 for _ in range(rounds) if pos.judge(move)))
    per_move = seconds / rounds * 1e6
    print(f"  judge() synthetic 37-jump chain ({len(move)} chars)   {per_move:8.1f} µs/move")
    fresh = [rules.parse(pos.notation()) for _ in range(200)]
    seconds, _ = timed(lambda: sum(len(p.legal_moves()) for p in fresh), repeat=1)
    per_call = seconds / len(fresh) * 1e6
    print(f"  legal_moves() on that position                {per_call:8.1f} µs/call")


def bench_opponent(rules: HalmaRules) -> None:
    for seed in SEEDS:
        rng = random.Random(seed)
        pos, worst, total = rules.initial(), 0.0, 0.0
        while pos.outcome() is None:
            start = time.perf_counter()
            move = choose_move(pos, rng)
            spent = time.perf_counter() - start
            worst, total = max(worst, spent), total + spent
            pos = pos.play(move)
        outcome = pos.outcome()
        assert outcome is not None
        print(
            f"  greedy vs greedy seed {seed}: {outcome.reason!r}, winner seat {outcome.winner}, "
            f"ply {pos.ply()}; choose_move mean {total / pos.ply() * 1e3:.2f} ms, "
            f"worst {worst * 1e3:.2f} ms"
        )


def main() -> None:
    rules = make_rules({})
    greedy = [p for s in SEEDS for p in play_game(rules, s, "greedy", 2000)]
    randomly = [p for s in SEEDS for p in play_game(rules, s, "random", 400)]
    print(f"Halma rules benchmark (Python {sys.version.split()[0]})")
    print("Move generation:")
    bench_generation(rules, [p.notation() for p in greedy], "greedy games")
    bench_generation(rules, [p.notation() for p in randomly], "random games")
    bench_perft1(rules, greedy + randomly)
    print("Path validation:")
    bench_judge(greedy + randomly)
    bench_long_chain(rules)
    print("Built-in opponent:")
    bench_opponent(rules)


if __name__ == "__main__":
    main()
