"""The swarm opponent's cost per move, per game: what `check` and `fuzz` pay for every
opponent move on top of the bot's own time.

Not a test: it prints figures. Run: `python benchmarks/bench_opponents.py [--games 40]`.

For each installed game, `--games` games are played, each by two `opponents.Opponent`s
drawn from seeds as `check` draws them (a style and move classes never played per game
and side); every call of an opponent (the move choice, `move_text` included) is timed
with time.perf_counter. It prints the mean, median, 95th percentile and maximum per
move, per game, and the mean per style. The moves played are hashed: the same seeds must
give the same games before and after a change to the opponents (a digest that changes is
a behaviour change, not a speed-up).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections import defaultdict

from prototest import games
from prototest.games import opponents
from prototest.judge import spec as specmod


def play(name: str, count: int, max_plies: int) -> tuple[list[float], dict[str, list[float]], str]:
    game = games.game(name)
    spec = specmod.load(game.spec)
    module, rules = specmod.bind(spec)
    times: list[float] = []
    by_style: dict[str, list[float]] = defaultdict(list)
    digest = hashlib.sha256()
    for seed in range(1, count + 1):
        sides = [opponents.Opponent(module, opponents.SWARM, seed * 2 + s) for s in (0, 1)]
        position = rules.initial()
        while position.outcome() is None and position.ply() < max_plies:
            side = sides[position.turn()]
            started = time.perf_counter()
            move = side(position)
            elapsed = time.perf_counter() - started
            times.append(elapsed)
            by_style[side.style.describe().split(",")[0]].append(elapsed)
            digest.update(move.encode() + b"\n")
            position = position.play(move)
    return times, by_style, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--max-plies", type=int, default=400, help="plies per game at most (default 400)")
    parser.add_argument("--game", action="append", help="only these games (default: every installed game)")
    args = parser.parse_args()
    print(f"opponent move cost, {args.games} games per game, two swarm opponents, at most {args.max_plies} plies")
    print(f"  {'game':9} {'moves':>7} {'mean ms':>8} {'median':>7} {'p95':>7} {'max':>7}  moves digest")
    styles_out = []
    for name in args.game or games.names():
        times, by_style, digest = play(name, args.games, args.max_plies)
        ordered = sorted(times)
        p95 = ordered[int(len(ordered) * 0.95)]
        print(f"  {name:9} {len(times):7} {1e3 * statistics.mean(times):8.3f} {1e3 * statistics.median(times):7.3f} "
              f"{1e3 * p95:7.3f} {1e3 * ordered[-1]:7.2f}  {digest}")
        styles_out.append((name, by_style))
    print("mean ms per move, by style (moves):")
    for name, by_style in styles_out:
        cells = [f"{s} {1e3 * statistics.mean(v):.3f} ({len(v)})" for s, v in sorted(by_style.items())]
        print(f"  {name:9} " + ", ".join(cells))


if __name__ == "__main__":
    main()
