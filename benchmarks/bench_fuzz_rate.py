"""Answers judged per second: `prototest fuzz` against `prototest check`, same bot, same run.

Not a test: it prints figures. Run: `python benchmarks/bench_fuzz_rate.py [--seconds 20]`.

For each game's bundled reference bot, alternating, `--rounds` times:
  * check: `check --games N --start-delay 0` (N sized to take about `--seconds`); the
    answers come from its JSON (every answer, first answers included), the time is the
    wall time of the command;
  * fuzz: `fuzz --budget S --jobs 1` (one bot at a time, as check plays), and the same with
    `--jobs 2`; answers per second from its JSON (`answers_per_s`: judged answers over the
    run's own elapsed time).
It prints the medians and the ratio fuzz / check. The aim is a ratio of at least 0.9 with
one job: the fuzzing machinery (Hypothesis's draws, the swarm opponent, the measures)
costs little beside the games it plays.
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
GAMES = tuple(games.names())


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.setdefault("PYTHONPATH", str(ROOT))
    return env


def _run(args: list[str], folder: Path) -> float:
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "prototest", *args], cwd=folder, env=_env(), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=False)
    return time.monotonic() - t0


def check_rate(game: str, count: int, folder: Path) -> tuple[float, float]:
    report = folder / "check.json"
    wall = _run(["check", "--game", game, "--games", str(count), "--start-delay", "0", "--json", str(report),
                 "--transcripts", str(folder / "t"), "-q", "--", sys.executable, "-m", games.game(game).bot],
                folder)
    data = json.loads(report.read_text())
    answers = data["timing"]["answers"] + sum(1 for g in data["games"] if g["startup_ms"] is not None)
    return answers / wall, wall / len(data["games"])


def fuzz_rate(game: str, seconds: float, jobs: int, folder: Path) -> float:
    report = folder / f"fuzz{jobs}.json"
    _run(["fuzz", "--game", game, "--budget", f"{seconds}s", "--jobs", str(jobs), "--no-database",
          "--json", str(report), "-q", "--", sys.executable, "-m", games.game(game).bot], folder)
    return json.loads(report.read_text())["answers_per_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    args = parser.parse_args()
    print(f"answers judged per second, reference bots, {args.seconds:g} s a run, median of {args.rounds}")
    print(f"  {'game':8} {'check':>8} {'fuzz -j1':>9} {'fuzz -j2':>9} {'j1/check':>9} {'j2/check':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game in args.games:
            _, per_game = check_rate(game, 4, folder)  # size check's run to the same time
            count = max(4, int(args.seconds / max(per_game, 0.01)))
            checks, ones, twos = [], [], []
            for _ in range(args.rounds):
                checks.append(check_rate(game, count, folder)[0])
                ones.append(fuzz_rate(game, args.seconds, 1, folder))
                twos.append(fuzz_rate(game, args.seconds, 2, folder))
            c, f1, f2 = (statistics.median(x) for x in (checks, ones, twos))
            print(f"  {game:8} {c:8.1f} {f1:9.1f} {f2:9.1f} {f1 / c:9.2f} {f2 / c:9.2f}", flush=True)


if __name__ == "__main__":
    main()
