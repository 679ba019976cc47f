"""The platform envelope's cost and its prediction, measured. Not a test: it prints figures.

Run: `python benchmarks/bench_envelope.py [--games 20] [--rounds 3] [--cpu 5 12 20 30 45]`.

1. **Accounting cost.** Chess plies per second of `prototest check` with an instant bot
   (bench_jobs.py's), `--jobs 1 --start-delay 0`, with the accounting on (every answer's
   CPU time, run-queue delay and throttling read at the request's write and the answer's
   read) and off (`PROTOTEST_NO_ACCOUNTING=1`: no meter, no cgroup), alternating in each
   round, same seed and games. Then the cost of one reading itself (`Meter.usage()` on a
   live bot, microseconds a call), with a cgroup (one read of the group's usage and its
   thread list) and without (the bot's threads found along /proc).
2. **The CPU-share model against the kernel.** A Halma bot that spends C ms of CPU on every
   move (a busy loop on its thread's CPU clock), checked under Proglad's envelope (0.3 CPU,
   30 ms per 100 ms) twice: with a real cgroup (the kernel throttles it: the figure is the
   slowest answer measured, with the time held back) and with `PROTOTEST_NO_CGROUP=1` (the
   model: the worst answer time it predicts over every phase of the period). The verdicts
   of the two must agree: a cpu_share FAIL in both, or in neither. Needs root (or a
   delegated cgroup subtree) for the first; skipped otherwise.

The load average is printed: figures taken while other work runs say little.
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
from bench_jobs import INSTANT_BOT  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

BURN_BOT = r"""
import os, sys, time
sys.path.insert(0, {halma!r})
from _common import Bot

MS = float(os.environ["BURN_MS"]) / 1000


class Burn(Bot):
    def play_turn(self):
        t = time.thread_time()
        while time.thread_time() - t < MS:
            pass
        super().play_turn()


Burn().run()
"""


def prototest(*args: str, env: dict[str, str] | None = None) -> tuple[float, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "r.json"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "prototest", "check", "--json", str(report), "-q", *args],
                       env={**os.environ, **(env or {})}, cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - t0
        return wall, json.loads(report.read_text())


def accounting(games: int, rounds: int, bot: Path) -> None:
    print(f"1. accounting cost: chess, instant bot, {games} games, --jobs 1, {rounds} rounds "
          f"(load average {os.getloadavg()[0]:.2f})")
    rates: dict[str, list[float]] = {"on": [], "off": []}
    plies: dict[str, set] = {"on": set(), "off": set()}
    for _ in range(rounds):
        for label, env in (("on", {}), ("off", {"PROTOTEST_NO_ACCOUNTING": "1"})):
            wall, data = prototest("--game", "chess", "--games", str(games), "--seed", "7", "--start-delay", "0",
                                   "--jobs", "1", "--", sys.executable, str(bot), env=env)
            total = sum(g["plies"] for g in data["games"])
            plies[label].add(total)
            rates[label].append(total / wall)
    on, off = statistics.median(rates["on"]), statistics.median(rates["off"])
    print(f"   plies/s with the accounting {on:.0f} (runs: {', '.join(f'{r:.0f}' for r in rates['on'])}), "
          f"without {off:.0f} (runs: {', '.join(f'{r:.0f}' for r in rates['off'])}); "
          f"on/off = {on / off:.3f}; same plies: {plies['on'] == plies['off'] and len(plies['on']) == 1}")
    print(f"   per ply: {1e6 / on - 1e6 / off:+.1f} us with the accounting")
    reading_cost()


def reading_cost() -> None:
    from prototest.sandbox import cgroups, envelope

    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        rows = [("without a cgroup (/proc)", envelope.Meter(proc.pid, None))]
        group = None
        if not cgroups.missing():
            group = cgroups.Group.create(cgroups.Limits(memory_bytes=128 << 20, cpu_quota_us=30000, pids=100))
            for path in group.join_files:
                with open(path, "w") as fh:
                    fh.write(str(proc.pid))
            rows.append(("with a cgroup", envelope.Meter(proc.pid, group)))
        for label, meter in rows:
            n = 20000
            t0 = time.perf_counter()
            for _ in range(n):
                meter.usage()
            print(f"   one reading {label}: {(time.perf_counter() - t0) / n * 1e6:.1f} us "
                  f"(two per answer)")
            meter.close()
    finally:
        proc.kill()
        proc.wait()
        if group is not None:
            group.remove()


def share(cpu_list: list[float], games: int) -> None:
    from prototest.sandbox import cgroups

    print(f"2. the CPU-share model against the kernel: Halma, Proglad's 0.3 CPU, {games} games each, --jobs 1 "
          f"(load average {os.getloadavg()[0]:.2f})")
    missing = cgroups.missing()
    if missing:
        print(f"   no cgroup here ({missing}): only the model's figures")
    print(f"   {'CPU a move':>10}  {'cgroup: slowest answer':>24} {'held back':>10} {'verdict':>14}   "
          f"{'model: worst answer':>20} {'verdict':>14}")
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "burn.py"
        bot.write_text(BURN_BOT.format(halma=str(ROOT / "tests" / "bots" / "halma")))
        for cpu in cpu_list:
            args = ("--game", "halma", "--games", str(games), "--jobs", "1", "--seed", "3", "--env",
                    f"BURN_MS={cpu}", "--", sys.executable, "-B", str(bot))
            cells = []
            for env in ({}, {"PROTOTEST_NO_CGROUP": "1"}):
                if not env and missing:
                    cells.append(f"{'-':>24} {'-':>10} {'-':>14}")
                    continue
                _, data = prototest(*args, env=env)
                res = data["resources"]
                answers = [ms for g in data["games"] for ms in g["answer_ms"]]
                fails = sorted({f["kind"] for f in data["findings"] if f["severity"] == "fail"})
                verdict = "FAIL " + ",".join(fails) if fails else "pass"
                if env:
                    worst = res["share_worst_ms"]
                    cells.append(f"{worst or 0:>17.1f} ms {verdict:>14}")
                else:
                    slowest = max(answers) if answers else float("nan")
                    cells.append(f"{slowest:>21.1f} ms {res['throttled_ms']:>7.0f} ms {verdict:>14}")
            print(f"   {cpu:>7g} ms  {cells[0]}   {cells[1]}")
    print("   (a failing game stops at its first late answer: under the kernel its slowest answer is the one "
          "before it (nan: none before it); the model's worst is over the moves, the start-up apart)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--share-games", type=int, default=3)
    parser.add_argument("--cpu", type=float, nargs="+", default=[5, 12, 20, 25, 30, 45])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "instant.py"
        bot.write_text(INSTANT_BOT)
        accounting(args.games, args.rounds, bot)
    share(args.cpu, args.share_games)


if __name__ == "__main__":
    main()
