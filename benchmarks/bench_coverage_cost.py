"""What the bot's coverage costs per answer: the Python collector and the native runtime.

Not a test: it prints figures. Run: `python benchmarks/bench_coverage_cost.py [--games N]`.

Each bot plays the same Impasse games (same seeds, the built-in opponent) through the
referee, with coverage (the map named in its environment, the collector injected for a
Python bot, the map read after each answer as fuzz reads it) and without, the two
interleaved game by game so that the machine's load falls on both alike. Reported per
bot: the later answers' time (median, mean), the bot's CPU time per answer, the first
answer (start-up included), and the difference with coverage. Also the cost of reading
the map after an answer (CoverageMap.take), on prototest's side.

Bots: a light Python bot (tests/bots/impasse/coverage_branches.py: its own code is all it
runs), the bundled Impasse bot (which runs prototest's rules module: code outside its own
folder, which the collector leaves as it is), and a C bot (tests/bots/impasse/first_move.c) built
with gcc -O1 -fsanitize-coverage=trace-pc and the runtime (without coverage: the same
binary, no map named).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prototest.games import rules_module  # noqa: E402
from prototest.judge import spec as specmod  # noqa: E402
from prototest.judge.referee import GameConfig, Referee  # noqa: E402
from prototest.sandbox import process  # noqa: E402
from prototest.sandbox.coverage import CoverageMap, injection, runtime_path  # noqa: E402


def play(argv: list[str], index: int, cmap: CoverageMap | None):
    spec = specmod.load(specmod.spec_path_for("impasse"))
    module = rules_module("impasse")
    env = process.controlled_env()
    if cmap is not None:
        cmap.reset()
        env.update(injection(argv, env, str(ROOT)).env(cmap))
    cfg = GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module, argv=argv,
                     seat=index % 2, seed=index, index=index + 1, env=env, coverage=cmap, cwd=str(ROOT))
    return Referee(cfg).run()


def figures(reports) -> dict[str, float]:
    answers = [ms for r in reports for ms in r.answer_ms]
    cpu = [ms for r in reports for ms in r.answer_cpu_ms]
    first = [r.startup_ms for r in reports if r.startup_ms is not None]
    return {"answers": len(answers), "median_ms": statistics.median(answers), "mean_ms": statistics.fmean(answers),
            "cpu_mean_ms": statistics.fmean(cpu) if cpu else float("nan"),
            "first_median_ms": statistics.median(first)}


def bench(name: str, argv: list[str], games: int) -> None:
    cmap = CoverageMap()
    try:
        on, off, slots = [], [], set()
        play(argv, 0, None)  # a first run: caches (__pycache__) written, not timed
        for index in range(games):
            for covered in (index % 2 == 0, index % 2 == 1):
                report = play(argv, index, cmap if covered else None)
                assert not report.failed, [f.message for f in report.findings]
                (on if covered else off).append(report)
                if covered:
                    slots.update(s for _, new in report.coverage for s in new)
        a, b = figures(on), figures(off)
        print(f"{name}: {a['answers']} answers with coverage, {b['answers']} without; {len(slots)} slots reached")
        for key, label in (("median_ms", "later answers, median"), ("mean_ms", "later answers, mean"),
                           ("cpu_mean_ms", "CPU per answer, mean"), ("first_median_ms", "first answer, median")):
            print(f"  {label:24} with {a[key]:8.3f} ms   without {b[key]:8.3f} ms   "
                  f"difference {a[key] - b[key]:+8.3f} ms")
    finally:
        cmap.close()


def take_cost() -> None:
    cmap = CoverageMap()
    try:
        n = 2000
        started = time.perf_counter()
        for i in range(n):
            cmap.take()
        idle = (time.perf_counter() - started) / n * 1e6
        mm = cmap._mm
        assert mm is not None
        started = time.perf_counter()
        for i in range(n):
            mm[(i * 7919) % cmap.size] = 1
            cmap.take()
        busy = (time.perf_counter() - started) / n * 1e6
        print(f"reading the map after an answer (CoverageMap.take, 64 KiB): {idle:.1f} us with nothing new, "
              f"{busy:.1f} us with a new slot")
    finally:
        cmap.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10, help="games per bot with coverage, and as many without")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, collector: "
          f"{'sys.monitoring' if hasattr(sys, 'monitoring') else 'the bot compiled with stores'}; "
          f"{args.games} games each way")
    take_cost()
    bench("light Python bot (coverage_branches.py)",
          [sys.executable, str(ROOT / "tests/bots/impasse/coverage_branches.py")], args.games)
    bench("bundled Impasse bot (python -m prototest.bots.impasse_bot)",
          [sys.executable, "-m", "prototest.bots.impasse_bot"], args.games)
    cc = shutil.which("gcc")
    if cc is None:
        print("native bot: skipped (no gcc)")
        return
    with tempfile.TemporaryDirectory() as folder:
        bot = Path(folder) / "first_move"
        subprocess.run([cc, "-O1", "-fsanitize-coverage=trace-pc", str(ROOT / "tests/bots/impasse/first_move.c"),
                        str(runtime_path()), "-o", str(bot)], check=True)
        bench("C bot (first_move.c, gcc -O1 -fsanitize-coverage=trace-pc + runtime)", [str(bot)], args.games)


if __name__ == "__main__":
    main()
