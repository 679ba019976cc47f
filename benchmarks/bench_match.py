"""Games and plies per second of `prototest match` beside fastchess, both playing two instant
chess bots, at concurrency 1 and 2 (issue 23, item 7).

Not a test: it prints figures. Run: `python benchmarks/bench_match.py [--games 20]
[--rounds 3] [--fastchess PATH]`.

The bots and the fastchess run are bench_jobs.py's (read its docstring for the fair terms):

1. prototest: `prototest match BOT BOT --game chess --games N --seed S --start-delay 0
   --jobs J --json F -q`, twice: BOT being bench_jobs.INSTANT_BOT (a judge-protocol bot that
   parses each FEN with python-chess and answers a random legal move seeded by the FEN, at
   once; the issue's figure), then bench_jobs.INSTANT_BOT_INC (the same choices from an
   incremental board, as the UCI engine keeps one: like for like with fastchess's engines).
   Both play the very same games, which is asserted (the run fails otherwise). Both bots
   are judged: two bot processes a game; `--start-delay 0` skips the chess judge's 1 s of
   silence before the colour line. Openings: prototest's default, 4 random plies from the
   seed, each played twice.
2. fastchess: bench_jobs.run_fastchess, INSTANT_UCI (the same move choice over UCI)
   against itself, no book, no adjudication, `nodes=1`, twice: `restart=off` (fastchess's
   default: each engine process started once per concurrency slot, where prototest starts
   two bot processes a game; the harder bar) and `restart=on` (two new engine processes
   every game, as prototest: what issue 23 compares with).

Games per second and plies per second: the games (plies) of the whole run over the wall
time of the command, timed from outside. The variants alternate within each round; the
table has the medians of `--rounds` rounds and prototest's figure over fastchess's (the
aim: at least 1.0 at equal concurrency).

CPU per game: the command's and all its descendants'. prototest's is split: each round, the
bots of its jobs 1 run are replayed alone over bare pipes (bench_jobs.bots_cpu: the same
start-ups, lines and answers, checked), and the run's CPU less that is the harness's own
(the judge of both bots, the keepers, the command's start-up).
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


#: The prototest variants: kind -> the bots' script (both seats play the same bot)
MATCH_BOTS = {"prototest match": "instant_bot.py", "prototest match, inc. bot": "instant_bot_inc.py"}
#: The fastchess variants: kind -> restart
FASTCHESS = {"fastchess restart=off": False, "fastchess restart=on": True}


def run_match(jobs: int, games: int, seed: int, folder: Path,
              script: str = "instant_bot.py") -> tuple[float, float, int, bool, list[tuple]]:
    """Wall time, CPU time, total plies, whether both bots passed every check, and each
    game's (moves, opening length, seats) in game order."""
    report = folder / f"match-j{jobs}.json"
    bot = f"{sys.executable} {folder / script}"
    wall, cpu, _ = bench_jobs._timed([sys.executable, "-m", "prototest", "match", bot, bot, "--game", "chess",
                                      "--games", str(games), "--seed", str(seed), "--start-delay", "0",
                                      "--jobs", str(jobs), "--json", str(report), "-q"], folder)
    data = json.loads(report.read_text())
    if len(data["games"]) != games:
        sys.exit(f"prototest match played {len(data['games'])} games, not {games}")
    played = []
    for g in sorted(data["games"], key=lambda g: g["game"]):
        if g["opening"]["fen"] is not None:
            sys.exit("prototest match: an opening from a FEN (this benchmark plays from the start position)")
        played.append((tuple(g["moves"]), len(g["opening"]["moves"]), tuple(sorted(g["seats"].values()))))
    return wall, cpu, sum(g["plies"] for g in data["games"]), data["passed"], played


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
    variants = list(MATCH_BOTS) + (list(FASTCHESS) if fastchess else [])
    if not fastchess:
        print("fastchess: not on PATH and no --fastchess PATH given; its rows are left out", file=sys.stderr)
    keys = [(v, j) for v in variants for j in (1, 2)]
    games_rate: dict[tuple[str, int], list[float]] = {key: [] for key in keys}
    plies_rate: dict[tuple[str, int], list[float]] = {key: [] for key in keys}
    cpu_game: dict[tuple[str, int], list[float]] = {key: [] for key in keys}
    plies_of: dict[tuple[str, int], int] = {}
    seen: dict[tuple[str, int], list[list[tuple]]] = {(v, j): [] for v in MATCH_BOTS for j in (1, 2)}
    bot_cpu: dict[str, list[float]] = {v: [] for v in MATCH_BOTS}  # the bots' CPU s of one run, replayed alone
    passed = True
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="prototest-bench-match-") as tmp:
        folder = Path(tmp)
        for name, text in bench_jobs.BOTS.items():
            (folder / name).write_text(text)
        (folder / "instant_uci.py").write_text(bench_jobs.INSTANT_UCI)
        for r in range(args.rounds):
            for variant in variants:
                for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                    if variant in MATCH_BOTS:
                        wall, cpu, plies, ok, played = run_match(jobs, args.games, args.seed, folder,
                                                                 MATCH_BOTS[variant])
                        seen[(variant, jobs)].append(played)
                        passed = passed and ok
                    else:
                        wall, cpu, games = bench_jobs.run_fastchess(fastchess, jobs, args.games, args.seed, folder,
                                                                    restart=FASTCHESS[variant])
                        plies = sum(g[0] for g in games)
                    plies_of[(variant, jobs)] = plies
                    games_rate[(variant, jobs)].append(args.games / wall)
                    plies_rate[(variant, jobs)].append(plies / wall)
                    cpu_game[(variant, jobs)].append(cpu / args.games)
                    print(f"round {r + 1}: {variant} jobs {jobs}: {args.games} games, {plies} plies in {wall:.2f} s, "
                          f"{args.games / wall:.2f} games/s, {plies / wall:.0f} plies/s, CPU {cpu:.2f} s, other "
                          f"processes {bench_jobs.OTHERS[-1]:.2f} cores", file=sys.stderr, flush=True)
            for variant, script in MATCH_BOTS.items():  # this round's bots (two a game), alone
                both = [(seat, moves, opening) for moves, opening, seats in seen[(variant, 1)][-1] for seat in seats]
                bot_cpu[variant].append(bench_jobs.bots_cpu([sys.executable, str(folder / script)], both))
                print(f"round {r + 1}: {variant}'s bots replayed alone: CPU {bot_cpu[variant][-1]:.2f} s",
                      file=sys.stderr, flush=True)
    load_after = Path("/proc/loadavg").read_text().split()[:3]
    med = {key: statistics.median(v) for key, v in games_rate.items()}
    medp = {key: statistics.median(v) for key, v in plies_rate.items()}
    print(f"two instant chess bots, {args.games} games a run, seed {args.seed}, median of {args.rounds} rounds, "
          f"{len(os.sched_getaffinity(0))} cores, {time.monotonic() - started:.0f} s in all"
          + (f"; {bench_jobs._fastchess_version(fastchess)}" if fastchess else ""))
    print(f"load average before: {' '.join(load_before)}, after: {' '.join(load_after)}; other processes' CPU "
          f"during the runs (cores): median {statistics.median(bench_jobs.OTHERS):.2f}, "
          f"max {max(bench_jobs.OTHERS):.2f}")
    print("CPU = user + system time of the command and all its descendants (both bots or engines included)")
    print(f"  {'variant':26} {'plies':>6} {'games/s j1':>10} {'j2':>6} {'plies/s j1':>11} {'j2':>6} "
          f"{'CPU s/game j1':>14} {'j2':>6}")
    for v in variants:
        c1, c2 = (statistics.median(cpu_game[(v, j)]) for j in (1, 2))
        total = "/".join(sorted({str(plies_of[(v, 1)]), str(plies_of[(v, 2)])}))
        print(f"  {v:26} {total:>6} {med[(v, 1)]:10.2f} {med[(v, 2)]:6.2f} {medp[(v, 1)]:11.0f} {medp[(v, 2)]:6.0f} "
              f"{c1:14.3f} {c2:6.3f}")
    if fastchess:
        print("prototest's figure over fastchess's (games/s, then plies/s; the aim: at least 1.0 in games/s):")
        for mine in MATCH_BOTS:
            for theirs in FASTCHESS:
                print(f"  {mine + ' / ' + theirs:50} games/s j1 {med[(mine, 1)] / med[(theirs, 1)]:5.2f} "
                      f"j2 {med[(mine, 2)] / med[(theirs, 2)]:5.2f}   plies/s j1 "
                      f"{medp[(mine, 1)] / medp[(theirs, 1)]:5.2f} j2 {medp[(mine, 2)] / medp[(theirs, 2)]:5.2f}")
    print("prototest's CPU per game, split: the bots' (the same games' bot processes, two a game, replayed alone "
          "over bare pipes; median of the rounds) and the harness's own (the run's CPU less that):")
    for v in MATCH_BOTS:
        bots = statistics.median(bot_cpu[v]) / args.games
        own = [statistics.median(cpu_game[(v, j)]) - bots for j in (1, 2)]
        print(f"  {v:26} bots {bots:.3f} s/game   harness jobs 1 {own[0]:.3f} s/game, jobs 2 {own[1]:.3f} s/game "
              f"({own[0] / plies_of[(v, 1)] * args.games * 1e6:.0f} / {own[1] / plies_of[(v, 2)] * args.games * 1e6:.0f}"
              f" us/ply)")
    first = seen[(next(iter(MATCH_BOTS)), 1)][0]
    same = all(run == first for runs in seen.values() for run in runs)
    print(f"prototest: both bots passed every check in every run: {passed}; the same games in every run (both bots, "
          f"jobs 1 and 2, every round): {'yes' if same else 'NO'}")
    if not same:
        sys.exit("the prototest runs did not all play the same games (the two bots must choose alike)")


if __name__ == "__main__":
    main()
