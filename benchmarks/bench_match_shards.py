"""Games per second of a match played as 3 shards at once on one machine, against the same
match unsharded at --jobs 1 and --jobs 2 (issue 32).

Not a test: it prints figures. Run: `python benchmarks/bench_match_shards.py [--games 60]
[--rounds 3] [--shards 3]`.

The bots are bench_jobs.py's INSTANT_BOT (a judge-protocol chess bot that answers a random
legal move seeded by the FEN, at once) in both seats, as bench_match.py plays them. Each
round runs, in turn (the order alternating between rounds):

1. `prototest match BOT BOT --game chess --games N --seed S --start-delay 0 --jobs 1 --json F -q`;
2. the same with `--jobs 2`;
3. the same match as `--shards` processes started at once, each `--jobs 1 --shard I/K`, timed
   from the first start to the last end; then `prototest merge` of their reports (timed
   apart). The merged games are asserted to be the unsharded match's, move for move.

Games per second: the match's N games over the wall time. The table has the medians of the
rounds. On a machine with C cores, K shards at --jobs 1 are K games at once, as --jobs K is:
the figure to compare is --jobs 2 against the shards on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_jobs  # noqa: E402


def match_argv(folder: Path, games: int, seed: int, jobs: int, report: Path, *extra: str) -> list[str]:
    bot = f"{sys.executable} {folder / 'instant_bot.py'}"
    return [sys.executable, "-m", "prototest", "match", bot, bot, "--game", "chess", "--games", str(games),
            "--seed", str(seed), "--start-delay", "0", "--jobs", str(jobs), "--json", str(report), "-q", *extra]


def games_of(report: Path) -> list[tuple]:
    data = json.loads(report.read_text())
    return [(g["game"], tuple(g["moves"]), g["result"]) for g in sorted(data["games"], key=lambda g: g["game"])]


def run_whole(folder: Path, games: int, seed: int, jobs: int) -> tuple[float, list[tuple]]:
    report = folder / f"whole-j{jobs}.json"
    wall, _, _ = bench_jobs._timed(match_argv(folder, games, seed, jobs, report), folder)
    return wall, games_of(report)


def run_shards(folder: Path, games: int, seed: int, shards: int) -> tuple[float, float, list[tuple]]:
    """The shards' wall time (first start to last end), the merge's, and the merged games."""
    reports = [folder / f"shard-{i}.json" for i in range(1, shards + 1)]
    started = time.monotonic()
    procs = [subprocess.Popen(match_argv(folder, games, seed, 1, reports[i - 1], "--shard", f"{i}/{shards}"),
                              cwd=folder, env=bench_jobs._env(), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
             for i in range(1, shards + 1)]
    for proc in procs:
        _, err = proc.communicate()
        if proc.returncode not in (0, 1):
            sys.exit(f"a shard ended with status {proc.returncode}: {err.strip()[-500:]}")
    wall = time.monotonic() - started
    merged = folder / "merged.json"
    merge_wall, _, _ = bench_jobs._timed([sys.executable, "-m", "prototest", "merge", *map(str, reports),
                                          "--json", str(merged), "-q"], folder)
    return wall, merge_wall, games_of(merged)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games of the match, even (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians reported (default 3)")
    parser.add_argument("--shards", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {"unsharded --jobs 1": [], "unsharded --jobs 2": [],
                                     f"{args.shards} shards at once, --jobs 1 each": [],
                                     f"{args.shards} shards at once, and the merge": []}
    merges: list[float] = []
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="prototest-bench-shards-") as tmp:
        folder = Path(tmp)
        (folder / "instant_bot.py").write_text(bench_jobs.BOTS["instant_bot.py"])
        for r in range(args.rounds):
            order = ["j1", "j2", "shards"] if r % 2 == 0 else ["shards", "j2", "j1"]
            seen: dict[str, list[tuple]] = {}
            for variant in order:
                if variant == "shards":
                    wall, merge_wall, played = run_shards(folder, args.games, args.seed, args.shards)
                    rates[f"{args.shards} shards at once, --jobs 1 each"].append(args.games / wall)
                    rates[f"{args.shards} shards at once, and the merge"].append(args.games / (wall + merge_wall))
                    merges.append(merge_wall)
                    note = f", merge {merge_wall:.2f} s"
                else:
                    jobs = int(variant[1])
                    wall, played = run_whole(folder, args.games, args.seed, jobs)
                    rates[f"unsharded --jobs {jobs}"].append(args.games / wall)
                    note = ""
                seen[variant] = played
                print(f"round {r + 1}: {variant}: {args.games} games in {wall:.2f} s, {args.games / wall:.2f} games/s"
                      f"{note}", file=sys.stderr, flush=True)
            if not (seen["j1"] == seen["j2"] == seen["shards"]):
                sys.exit("the merged shards did not play the unsharded match's games")
    load_after = Path("/proc/loadavg").read_text().split()[:3]
    print(f"two instant chess bots (bench_jobs INSTANT_BOT), {args.games} games, seed {args.seed}, median of "
          f"{args.rounds} rounds, {len(os.sched_getaffinity(0))} cores, {time.monotonic() - started:.0f} s in all")
    print(f"load average before: {' '.join(load_before)}, after: {' '.join(load_after)}; other processes' CPU "
          f"during the timed unsharded runs and merges (cores): median {statistics.median(bench_jobs.OTHERS):.2f}")
    print("the merged shards' games equal the unsharded match's, move for move, in every round")
    print(f"  {'variant':40} {'games/s':>8}  rounds")
    for name, values in rates.items():
        print(f"  {name:40} {statistics.median(values):>8.2f}  {' '.join(f'{v:.2f}' for v in values)}")
    print(f"  merge of the {args.shards} reports: median {statistics.median(merges):.2f} s")


if __name__ == "__main__":
    main()
