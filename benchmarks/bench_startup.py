"""Start-up and per-game cost of prototest (issue 22, item 2): the command line's start, a
bot's start and end behind the keeper, and whole instant games.

Not a test: it prints figures. Run: `python benchmarks/bench_startup.py [--part all]
[--runs 7] [--rounds 5] [--games 40] [--jobs 1,2] [--base DIR]`.

1. `commands`: wall and CPU time (user + system, the command and its descendants) of
   `prototest --help`, `moves`, `perft --depth 1`, `games` and `check --games 1
   --start-delay 0 -q` of the bundled chess bot, each a fresh `python -m prototest`;
   medians of `--runs` runs, the commands alternating.
2. `bots`: a bot that echoes one line (`cat`), started and ended `--cycles` times in one
   process through prototest.sandbox.process.Bot with the chess spec's sandbox (file and network
   watch): the time to start it (Bot() returns once it has exec'd), to echo a line, and to
   end it (its input closed, its exit, Bot.kill), and the CPU time of the judge and of its
   children per bot; with the keepers' host (the default), without it
   (PROTOTEST_NO_KEEPER_HOST=1), without the PID namespace (PROTOTEST_NO_NAMESPACE=1) and
   without a keeper (PROTOTEST_NO_KEEPER=1). Medians over the cycles; the variants run one
   after another, `--rounds` times.
3. `games`: `check --game chess --games N --seed 1 --start-delay 0 --jobs J --json F -q` of
   the instant bot of benchmarks/bench_jobs.py, the variants alternating within each of
   `--rounds` rounds: the default, PROTOTEST_NO_KEEPER_HOST=1, PROTOTEST_NO_KEEPER=1 and
   `--set envelope.network=none`. Plies per second, wall and CPU time per game, and the CPU
   other processes took meanwhile (from /proc/stat): a figure taken beside busy neighbours
   says little.

`--base DIR`: also time another checkout of prototest (e.g. `git archive COMMIT | tar -x -C
DIR`), run with PYTHONPATH=DIR, as "base" beside each variant (parts 1 and 3, and part 2's
default).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_jobs import INSTANT_BOT  # noqa: E402

COMMANDS = {
    "--help": ["--help"],
    "moves": ["moves"],
    "perft": ["perft", "--depth", "1"],
    "games": ["games"],
    "check --games 1": ["check", "--game", "chess", "--games", "1", "--start-delay", "0", "-q", "--",
                        "python3", "-m", "prototest.bots.chess_bot"],
}

BOT_CYCLES = r"""
import os, resource, statistics, sys, time
from prototest.sandbox import envelope, process
from prototest.sandbox.transcript import Transcript
process.become_subreaper()
n = int(sys.argv[1])
spans = []
r0, c0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
for _ in range(n):
    t0 = time.perf_counter_ns()
    bot = process.Bot(["cat"], env=process.controlled_env(), transcript=Transcript(), max_line=4096,
                      watch_files=True, envelope=envelope.Envelope(platform="bench"))
    t1 = time.perf_counter_ns()
    bot.send(["hello"], t1 + 10**9)
    assert bot.read_line(t1 + 10**9).kind == "line"
    t2 = time.perf_counter_ns()
    bot.close_stdin()
    bot.wait_exit(10**9)
    bot.kill()
    t3 = time.perf_counter_ns()
    spans.append((t1 - t0, t2 - t1, t3 - t2))
r1, c1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = lambda a, b: (b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime) / n * 1000
print(" ".join(f"{statistics.median(s[i] for s in spans) / 1e6:.3f}" for i in range(3)),
      f"{cpu(r0, r1):.3f} {cpu(c0, c1):.3f}")
"""


def machine_cpu() -> float:
    """CPU seconds the whole machine has spent so far (all cores)."""
    with open("/proc/stat") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    return (sum(fields[:3]) + fields[5] + fields[6]) / os.sysconf("SC_CLK_TCK")


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, int]:
    """(wall s, CPU s of the command and its descendants, other processes' CPU s, status)."""
    before, t = machine_cpu(), time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.stderr.close() if proc.stderr else None
    cpu = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    if code not in (0,):
        print(f"  (status {code}: {err.strip()[-300:]})", file=sys.stderr)
    return wall, cpu, max(0.0, machine_cpu() - before - cpu), code


def environment(base: str | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    if base:
        env["PYTHONPATH"] = base
    env.update(extra)
    return env


def part_commands(args, folder: Path) -> None:
    print(f"\n1. commands: median of {args.runs} runs each, alternating (wall / CPU, ms)")
    checkouts = [("this", None)] + ([("base", args.base)] if args.base else [])
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.runs):
        for name, argv in COMMANDS.items():
            for label, base in checkouts:
                wall, cpu, _, _ = timed([sys.executable, "-m", "prototest", *argv], environment(base), folder)
                results.setdefault((name, label), []).append((wall, cpu))
    for name in COMMANDS:
        cells = []
        for label, _ in checkouts:
            runs = results[(name, label)]
            cells.append(f"{label} {statistics.median(r[0] for r in runs) * 1000:6.1f} / "
                         f"{statistics.median(r[1] for r in runs) * 1000:6.1f}")
        print(f"  {name:18s} " + "   ".join(cells))


def part_bots(args, folder: Path) -> None:
    print(f"\n2. a bot that echoes one line (cat), {args.cycles} starts in one process; medians (ms): "
          f"start, echo, end; CPU per bot: judge, children")
    variants = [("keeper, host", None, {}), ("keeper, no host", None, {"PROTOTEST_NO_KEEPER_HOST": "1"}),
                ("no namespace", None, {"PROTOTEST_NO_NAMESPACE": "1"}),
                ("no keeper", None, {"PROTOTEST_NO_KEEPER": "1"})]
    if args.base:
        variants.insert(1, ("base", args.base, {}))
    rows: dict[str, list[list[float]]] = {}
    for _ in range(args.rounds):
        for label, base, extra in variants:
            out = subprocess.run([sys.executable, "-c", BOT_CYCLES, str(args.cycles)], env=environment(base, **extra),
                                 cwd=folder, capture_output=True, text=True, check=True).stdout.split()
            rows.setdefault(label, []).append([float(x) for x in out])
    for label, runs in rows.items():
        cells = [statistics.median(r[i] for r in runs) for i in range(5)]
        print(f"  {label:16s} start {cells[0]:5.2f}  echo {cells[1]:5.2f}  end {cells[2]:5.2f}  "
              f"= {sum(cells[:3]):5.2f}   CPU judge {cells[3]:5.2f}  children {cells[4]:5.2f}")


def part_games(args, folder: Path) -> None:
    bot = folder / "instant_bot.py"
    bot.write_text(INSTANT_BOT)
    variants = [("default", None, {}, []), ("no host", None, {"PROTOTEST_NO_KEEPER_HOST": "1"}, []),
                ("no keeper", None, {"PROTOTEST_NO_KEEPER": "1"}, []),
                ("network none", None, {}, ["--set", "envelope.network=none"])]
    if args.base:
        variants.insert(1, ("base", args.base, {}, []))
    for jobs in args.jobs:
        print(f"\n3. check --games {args.games} --jobs {jobs}, instant bot, median of {args.rounds} rounds "
              f"(variants alternating)")
        runs: dict[str, list[tuple[float, float, float, int]]] = {}
        for r in range(args.rounds):
            for label, base, extra, more in (variants if r % 2 == 0 else variants[::-1]):
                report = folder / f"report-{jobs}.json"
                wall, cpu, others, _ = timed([sys.executable, "-m", "prototest", "check", "--game", "chess", "--games",
                                              str(args.games), "--seed", "1", "--start-delay", "0", "--jobs", str(jobs),
                                              "--json", str(report), "-q", *more, "--", sys.executable, str(bot)],
                                             environment(base, **extra), folder)
                plies = sum(g["plies"] for g in json.loads(report.read_text())["games"])
                runs.setdefault(label, []).append((wall, cpu, others, plies))
        for label, rs in runs.items():
            wall, cpu = statistics.median(x[0] for x in rs), statistics.median(x[1] for x in rs)
            others = statistics.median(x[2] / x[0] for x in rs)
            print(f"  {label:13s} {rs[0][3] / wall:6.0f} plies/s  {wall / args.games * 1000:6.1f} ms/game  "
                  f"CPU {cpu / args.games * 1000:6.1f} ms/game  other processes {others:4.2f} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("all", "commands", "bots", "games"), default="all")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cycles", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2])
    parser.add_argument("--base", help="another prototest checkout to time beside this one (PYTHONPATH)")
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.part in ("all", "commands"):
            part_commands(args, folder)
        if args.part in ("all", "bots"):
            part_bots(args, folder)
        if args.part in ("all", "games"):
            part_games(args, folder)
    print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
