"""Games and plies per second of `prototest match` beside fastchess, both playing two instant
chess bots, at concurrency 1 and 2 (issue 23, item 7).

Not a test: it prints figures. Run: `python benchmarks/bench_match.py [--games 20]
[--rounds 3] [--fastchess PATH]`.

The bots and the fastchess run are bench_jobs.py's (read its docstring for the fair terms):

1. prototest: `prototest match BOT BOT --game chess --games N --seed S --start-delay 0
   --jobs J --json F -q`, BOT being bench_jobs.INSTANT_BOT (a judge-protocol bot that
   parses each FEN with python-chess and answers a random legal move seeded by the FEN, at
   once). Both bots are judged: two bot processes a game, as fastchess has two engines a
   game; `--start-delay 0` skips the chess judge's 1 s of silence before the colour line.
   Openings: prototest's default, 4 random plies from the seed, each played twice.
2. fastchess: bench_jobs.run_fastchess, INSTANT_UCI (the same move choice over UCI)
   against itself, `restart=off` (fastchess's default: each engine process started once
   per concurrency slot, where prototest starts two bot processes a game; the harder bar),
   no book, no adjudication, `nodes=1`.

Games per second and plies per second: the games (plies) of the whole run over the wall
time of the command, timed from outside. The variants alternate within each round; the
table has the medians of `--rounds` rounds and prototest's figure over fastchess's (the
aim: at least 1.0 at equal concurrency).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_jobs  # noqa: E402


def run_match(jobs: int, games: int, seed: int, folder: Path) -> tuple[float, float, int, bool]:
    """Wall time, CPU time, total plies, and whether both bots passed every check."""
    report = folder / f"match-j{jobs}.json"
    bot = f"{sys.executable} {folder / 'instant_bot.py'}"
    wall, cpu, _ = bench_jobs._timed([sys.executable, "-m", "prototest", "match", bot, bot, "--game", "chess",
                                      "--games", str(games), "--seed", str(seed), "--start-delay", "0",
                                      "--jobs", str(jobs), "--json", str(report), "-q"], folder)
    data = json.loads(report.read_text())
    if len(data["games"]) != games:
        sys.exit(f"prototest match played {len(data['games'])} games, not {games}")
    return wall, cpu, sum(g["plies"] for g in data["games"]), data["passed"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per run, even (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians reported (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fastchess", metavar="PATH", help="the fastchess executable (default: `fastchess` on PATH)")
    args = parser.parse_args()
    if args.games % 2:
        sys.exit("--games: an even number (a match plays pairs)")
    fastchess = bench_jobs.find_fastchess(args.fastchess)
    variants = ["prototest match"] + (["fastchess"] if fastchess else [])
    if not fastchess:
        print("fastchess: not on PATH and no --fastchess PATH given; its rows are left out", file=sys.stderr)
    games_rate: dict[tuple[str, int], list[float]] = {(v, j): [] for v in variants for j in (1, 2)}
    plies_rate: dict[tuple[str, int], list[float]] = {(v, j): [] for v in variants for j in (1, 2)}
    cpu_game: dict[tuple[str, int], list[float]] = {(v, j): [] for v in variants for j in (1, 2)}
    passed = True
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="prototest-bench-match-") as tmp:
        folder = Path(tmp)
        (folder / "instant_bot.py").write_text(bench_jobs.INSTANT_BOT)
        (folder / "instant_uci.py").write_text(bench_jobs.INSTANT_UCI)
        for r in range(args.rounds):
            for variant in variants:
                for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                    if variant == "prototest match":
                        wall, cpu, plies, ok = run_match(jobs, args.games, args.seed, folder)
                        passed = passed and ok
                    else:
                        wall, cpu, played = bench_jobs.run_fastchess(fastchess, jobs, args.games, args.seed, folder,
                                                                     restart=False)
                        plies = sum(g[0] for g in played)
                    games_rate[(variant, jobs)].append(args.games / wall)
                    plies_rate[(variant, jobs)].append(plies / wall)
                    cpu_game[(variant, jobs)].append(cpu / args.games)
                    print(f"round {r + 1}: {variant} jobs {jobs}: {args.games} games, {plies} plies in {wall:.2f} s, "
                          f"{args.games / wall:.2f} games/s, {plies / wall:.0f} plies/s, other processes "
                          f"{bench_jobs.OTHERS[-1]:.2f} cores", file=sys.stderr, flush=True)
    load_after = Path("/proc/loadavg").read_text().split()[:3]
    med = {key: statistics.median(v) for key, v in games_rate.items()}
    medp = {key: statistics.median(v) for key, v in plies_rate.items()}
    print(f"two instant chess bots, {args.games} games a run, seed {args.seed}, median of {args.rounds} rounds, "
          f"{len(os.sched_getaffinity(0))} cores, {time.monotonic() - started:.0f} s in all"
          + (f"; {bench_jobs._fastchess_version(fastchess)}" if fastchess else ""))
    print(f"load average before: {' '.join(load_before)}, after: {' '.join(load_after)}; other processes' CPU "
          f"during the runs (cores): median {statistics.median(bench_jobs.OTHERS):.2f}")
    print(f"  {'variant':18} {'games/s j1':>10} {'j2':>6} {'plies/s j1':>11} {'j2':>6} {'CPU s/game j1':>14} {'j2':>6}")
    for v in variants:
        c1, c2 = (statistics.median(cpu_game[(v, j)]) for j in (1, 2))
        print(f"  {v:18} {med[(v, 1)]:10.2f} {med[(v, 2)]:6.2f} {medp[(v, 1)]:11.0f} {medp[(v, 2)]:6.0f} "
              f"{c1:14.3f} {c2:6.3f}")
    if fastchess:
        print(f"  {'prototest / fastchess':18} {med[('prototest match', 1)] / med[('fastchess', 1)]:10.2f} "
              f"{med[('prototest match', 2)] / med[('fastchess', 2)]:6.2f} "
              f"{medp[('prototest match', 1)] / medp[('fastchess', 1)]:11.2f} "
              f"{medp[('prototest match', 2)] / medp[('fastchess', 2)]:6.2f}")
    print(f"prototest: both bots passed every check in every run: {passed}")


if __name__ == "__main__":
    main()
