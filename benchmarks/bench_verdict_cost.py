"""What a fuzz verdict costs after the find (issue 31): `prototest fuzz` at its defaults on
the rare faults of `bench_fuzz_power.py`, each run timed as that bench times it (the find: the
progress line that first counts a failing kind; the verdict: the command's exit), in one or
more source trees, A/B: `--tree NAME=PATH` (repeatable) runs the prototest found at PATH
(put first on PYTHONPATH), the trees taking turns run by run so that a busy spell falls on
both. Default: this checkout alone.

Not a test: it prints figures. Run, for example, against the commit before a change:

    git worktree add /tmp/before HEAD~1
    python benchmarks/bench_verdict_cost.py --seeds 1 2 3 --tree before=/tmp/before --tree after=.

Per run: find and verdict (s, from the command's start, interpreter included), the time
after the find (verdict - find), and the reproducer (its path in plies; the plies it plays
from where the bot starts: 1 is a cold start, one answer). Then the medians of each tree.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_fuzz_power as power  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="a source tree to run prototest from (repeatable; default: this checkout)")
    parser.add_argument("--bots", nargs="*", default=[],
                        help="only the bots whose path contains one of these words")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a run may take to find")
    args = parser.parse_args()
    trees = [tuple(t.split("=", 1)) for t in args.tree] or [("this", str(power.ROOT))]
    bots = [(g, b) for g, b, _ in power.CORPUS if not args.bots or any(w in b for w in args.bots)]
    rows: dict[str, list[power.Run]] = {name: [] for name, _ in trees}
    try:
        with tempfile.TemporaryDirectory(prefix="bench_verdict_cost-", ignore_cleanup_errors=True) as tmp:
            turn = 0
            for game, bot in bots:
                for seed in args.seeds:
                    order = trees[turn % len(trees):] + trees[:turn % len(trees)]
                    turn += 1
                    for name, path in order:
                        os.environ["PYTHONPATH"] = str(Path(path).resolve())
                        folder = Path(tmp) / f"{name}-{turn}"
                        folder.mkdir()
                        run = power.fuzz(game, power.BOTS / bot, seed, args.cap, [], folder)
                        rows[name].append(run)
                        post = f"{run.verdict_s - run.seconds:.2f}" if run.found and run.verdict_s else "-"
                        print(f"{name:10s} {bot:36s} seed {seed}: find {run.seconds:.2f} verdict "
                              f"{run.verdict_s if run.verdict_s is None else round(run.verdict_s, 2)} "
                              f"after the find {post}  plies {run.plies} plays {run.played}"
                              f"{'' if run.found else '  MISS ' + run.note}", flush=True)
    finally:
        power.sweep()
    print()
    for name, runs in rows.items():
        found = [r for r in runs if r.found and r.verdict_s is not None]
        if not found:
            print(f"{name}: nothing found")
            continue
        med = statistics.median
        print(f"{name}: {len(found)}/{len(runs)} found; median find {med(r.seconds for r in found):.2f} s, "
              f"verdict {med(r.verdict_s for r in found):.2f} s, after the find "
              f"{med(r.verdict_s - r.seconds for r in found):.2f} s; median path "
              f"{med(r.plies for r in found if r.plies is not None):.0f} plies, plays "
              f"{med(r.played for r in found if r.played is not None):.0f}")


if __name__ == "__main__":
    main()
