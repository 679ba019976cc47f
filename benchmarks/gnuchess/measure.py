#!/usr/bin/env python3
"""GNU Chess behind benchmarks/gnuchess/adapter.py: how often a fresh engine dies in the
positions where it was seen to (`Assertion 'nread < BUF_SIZE-1' failed`), and whether
`prototest fuzz` finds it.

    python benchmarks/gnuchess/measure.py fresh [N] [--halfmove H]  # N fresh engines, one position each
    python benchmarks/gnuchess/measure.py fuzz [BUDGET]             # prototest fuzz on it (default 60s)

`fresh`: N start positions drawn as fuzz's quiet stretches draw them (the board thinned out by
captures, then H plies of no capture, pawn move or check: a halfmove clock near H, 120 by
default, in an ending), each shown
to a fresh engine through `prototest check --games 1 --moves ...` (it plays on from there to
the game's end, the 75-move rule at the latest): how many games crashed, and how many at the
first answer. Needs gnuchess on PATH or in /usr/games. Results: benchmarks/results/gnuchess.txt.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ADAPTER = HERE / "adapter.py"


def quiet_path(seed: int, plies: int) -> list[str]:
    """A start position as fuzz's quiet stretches draw one (prototest.play.plans.Planner.quiet_stretch):
    the board thinned out by both sides' captures, then `plies` moves of no progress."""
    from prototest.games import opponents
    from prototest.games import chess as chess_rules
    from prototest.games.opponents import Style
    from prototest.judge.spec import bind, load, spec_path_for
    module, rules = bind(load(spec_path_for("chess")))
    rng, seat = random.Random(seed), seed % 2
    thin = Style(chess_rules.THINNING_STYLE)
    path = opponents.path(rules, module, seat=seat, depth=rng.randrange(*chess_rules.THINNING_PLIES),
                          styles=(thin, thin), rng=rng)
    quiet = Style("random", frozenset(chess_rules.QUIET_CLASSES))
    return opponents.path(rules, module, seat=seat, depth=len(path) + plies, styles=(quiet, quiet), rng=rng,
                          start=path)


def fresh(n: int, halfmove: int) -> None:
    crashed = first = 0
    for seed in range(1, n + 1):
        moves = quiet_path(seed, halfmove)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "r.json"
            started = time.monotonic()
            subprocess.run([sys.executable, "-m", "prototest", "check", "--game", "chess", "--games", "1",
                            "--seat", "white" if seed % 2 == 0 else "black", "--moves", ",".join(moves),
                            "--json", str(out), "--transcripts", tmp, "-q", str(ADAPTER)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            data = json.loads(out.read_text())
        crashes = [f for f in data["findings"] if f["kind"] == "crash"]
        crashed += bool(crashes)
        first += any(f["ply"] == len(moves) for f in crashes)
        print(f"position {seed}: {len(moves)} plies, {'crash at ply %d' % crashes[0]['ply'] if crashes else 'no crash'}"
              f" ({time.monotonic() - started:.1f} s)", flush=True)
    print(f"fresh engines, halfmove clock {halfmove}: {crashed} of {n} games crashed, {first} of {n} at their first answer")


def fuzz(budget: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "prototest", "fuzz", "--budget", budget, "--no-database",
                               "--json", str(Path(tmp) / "f.json"), str(ADAPTER)], cwd=tmp,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        wall = time.monotonic() - started
        data = json.loads((Path(tmp) / "f.json").read_text())
    print(proc.stdout)
    fails = [f for f in data["findings"] if f["severity"] == "fail"]
    print(f"status {proc.returncode}, {wall:.1f} s wall, {data['examples']} examples, "
          f"first failure at {data['first_failure_s']} s; "
          + ("; ".join(f"{f['kind']}: reproducible {f['reproducer']['reproducible']}, confirmed "
                       f"{f['reproducer']['confirmed']}, replay {f['reproducer'].get('replay') and (f['reproducer']['replay']['failed_same_way'], f['reproducer']['replay']['tries'])}"
                       for f in fails) or "no failure"))


if __name__ == "__main__":
    if not (shutil.which("gnuchess") or os.path.exists("/usr/games/gnuchess")):
        sys.exit("gnuchess is not installed")
    what = sys.argv[1] if len(sys.argv) > 1 else "fresh"
    if what == "fresh":
        args = sys.argv[2:]
        h = 120
        if "--halfmove" in args:
            h = int(args[args.index("--halfmove") + 1])
            del args[args.index("--halfmove"):args.index("--halfmove") + 2]
        fresh(int(args[0]) if args else 10, h)
    else:
        fuzz(sys.argv[2] if len(sys.argv) > 2 else "60s")
