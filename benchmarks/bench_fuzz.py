"""What `prototest fuzz` costs: examples per second per game, and the time to find and
shrink each planted bug.

Not a test: it prints figures. Run: `python benchmarks/bench_fuzz.py [--seeds 1 2 3]`.

1. examples per second: the bundled reference bot of each game under the default
   budget (100 examples, the default mode), with no example database;
2. planted bugs (tests/bots): for each seed, the example that first failed, the runs of
   the bot in all, the wall time to find and shrink, and the length of the reproducer.

Every figure runs the real command line, as a user would.
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

from prototest import games

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
PLANTED = [
    ("chess", "chess/en_passant.py"),
    ("halma", "halma/short_move_buffer.py"),
    ("loa", "loa/crash_few_checkers.py"),
    ("impasse", "impasse/crown_after_bear_off.py"),
]


def fuzz(game: str, bot: list[str], seed: int, folder: Path) -> tuple[dict, float]:
    report = folder / f"{game}-{seed}.json"
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.setdefault("PYTHONPATH", str(ROOT))
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "prototest", "fuzz", "--game", game, "--seed", str(seed),
                    "--no-database", "--quiet", "--json", str(report), "--", *bot],
                   cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL, check=False)
    return json.loads(report.read_text()), time.monotonic() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--skip-reference", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.skip_reference:
            print("reference bots, default budget (100 examples, default mode):")
            for game in games.names():
                data, wall = fuzz(game, [sys.executable, "-m", games.game(game).bot], 1, folder)
                print(f"  {game:8} {data['mode']:8} {data['examples']:4} examples in {wall:5.1f} s "
                      f"= {data['examples_per_s']:5.1f} examples/s; findings: {len(data['findings'])}")
        print("planted bugs (find + shrink, default budget):")
        for game, bot in PLANTED:
            walls = []
            for seed in args.seeds:
                data, wall = fuzz(game, [str(BOTS / bot)], seed, folder)
                fails = [f for f in data["findings"] if f["severity"] == "fail"]
                if not fails:
                    print(f"  {game:8} seed {seed}: NOT FOUND in {data['examples']} examples ({wall:.1f} s)")
                    continue
                walls.append(wall)
                r = fails[0]["reproducer"]
                print(f"  {game:8} seed {seed}: {fails[0]['kind']:12} first at example "
                      f"{data['first_failure_example']:3}, {data['examples']:3} runs, {wall:5.1f} s, "
                      f"reproducer {r['plies']:2} plies ({r['mode']} mode)")
            if walls:
                print(f"  {game:8} median {statistics.median(walls):.1f} s, max {max(walls):.1f} s")


if __name__ == "__main__":
    main()
