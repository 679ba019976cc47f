"""Time to a verdict at `check`'s defaults for bots that hang, hide or fight back (issue 29,
items 3 and 5): the wall time from start to exit, the exit status, the verdict line, the
games played and not played, and whether any process of the bot outlived prototest.

Not a test: it prints figures. Run (from the repository root):

    python benchmarks/bench_failfast.py [--python /work/main/.venv/bin/python] [--cap 200]
        [--only NAME ...] [--out benchmarks/results/failfast_after.txt]
    python benchmarks/bench_failfast.py --ab /work/main/.venv/bin/python [--rounds 3]   # correct bots, A/B

Each bot is checked once with `PYTHON -m prototest check BOT` at the defaults (24 games,
default --jobs, no --games, no --time-scale), run under `timeout CAP` as a user's or a CI
step's patience would cap it (exit 124: the cap's SIGTERM ended it). `--python` picks the
prototest under measure (another checkout's venv: the "before" figures); the bots are this
checkout's tests/bots/chess. Every run's bots carry a token of this benchmark's own in
their environment: a process still holding it a few seconds after prototest ended is
counted as left behind (and then killed, by its pid).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHESS = ROOT / "tests" / "bots" / "chess"

#: name -> (the bot's command, extra options of check)
CASES: dict[str, tuple[list[str], list[str]]] = {
    "hangs_fourth_turn": ([str(CHESS / "hangs_fourth_turn.py")], []),
    "never_reads": ([str(CHESS / "never_reads.py")], []),
    "hangs (every game, 1st turn)": ([str(CHESS / "hangs.py")], []),
    "fork_storm": ([str(CHESS / "fork_storm.py")], []),
    "stops_itself (SIGSTOP)": ([str(CHESS / "stops_itself.py")], []),
    "wrapper_no_flush.sh": ([str(CHESS / "wrapper_no_flush.sh")], []),
    "signals_parent SIGUSR1": ([str(CHESS / "signals_parent.py")], ["--env", "SIGNAL=SIGUSR1"]),
    "signals_parent SIGKILL": ([str(CHESS / "signals_parent.py")], ["--env", "SIGNAL=SIGKILL"]),
    "signals_parent SIGSTOP": ([str(CHESS / "signals_parent.py")], ["--env", "SIGNAL=SIGSTOP"]),
    "reference bot (correct)": (["--", sys.executable, "-m", "prototest.bots.chess_bot"], []),
    "reference bot, --game chess": (["--", sys.executable, "-m", "prototest.bots.chess_bot"], ["--game", "chess"]),
}
#: The correct bots of --ab: a run of a correct bot must not change (the same games, the same time).
CORRECT = ["reference bot (correct)", "reference bot, --game chess"]


def alive_with(token: str) -> list[int]:
    """Live (not zombie) processes holding `token` in their environment."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if state != "Z" and token.encode() in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def measure(python: str, name: str, cap: float) -> dict:
    bot, extra = CASES[name]
    token = f"PROTOTEST_BENCH_FAILFAST={uuid.uuid4().hex}"
    with tempfile.TemporaryDirectory(prefix="bench-failfast-") as folder:
        report = Path(folder) / "report.json"
        argv = ["timeout", str(cap), python, "-m", "prototest", "check", "--env", token, "--json", str(report),
                "--transcripts", str(Path(folder) / "t"), *extra]
        argv += bot if bot[0] == "--" else ["--", *bot]
        if bot[0] == "--" and bot[1] == sys.executable:  # the reference bot: the prototest under measure's
            argv[-3] = python
        env = dict(os.environ, PATH=os.pathsep.join([str(Path(python).parent), os.environ.get("PATH", "")]))
        env.pop("PYTHONUNBUFFERED", None)
        started = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=folder, stdin=subprocess.DEVNULL,
                              start_new_session=True, check=False)
        wall = time.monotonic() - started
        deadline = time.monotonic() + 5
        while (left := alive_with(token)) and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in left:  # this benchmark's own bots, found by its token
            for sig in (signal.SIGKILL,):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        data = json.loads(report.read_text()) if report.exists() else {}
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    verdict = lines[-1] if lines else "(no verdict line)"
    findings = data.get("findings", [])
    kinds = sorted({f"{f['severity']} {f['kind']}" for f in findings})
    not_played = data.get("skipped")
    games = data.get("games", [])
    moves = int(hashlib.sha256(json.dumps([g["moves"] for g in games]).encode()).hexdigest()[:6], 16)  # move for move
    return {"bot": name, "wall_s": round(wall, 1), "exit": proc.returncode, "verdict": verdict,
            "played": len(games) if data else None, "not_played": not_played,
            "kinds": kinds, "left_behind": len(left), "moves": f"{moves:06x}"}


def compare(python: str, other: str, rounds: int, cap: float) -> list[str]:
    """The correct bots run by two prototests in turn (ABAB...): wall time, games, a digest
    of every game's moves (equal digests: the same games move for move), verdict."""
    lines = [f"correct bots, A = {python}, B = {other}, {rounds} rounds in turn (A then B, then B then A), "
             f"load average {os.getloadavg()[0]:.2f} at the start",
             f"  {'bot':30} {'round':>5}  {'A wall s':>8} {'B wall s':>8}  A games/digest  B games/digest  verdicts"]
    for name in CORRECT:
        for i in range(1, rounds + 1):
            if i % 2:  # A first in odd rounds, B first in even ones: neither always runs first
                a, b = measure(python, name, cap), measure(other, name, cap)
            else:
                b, a = measure(other, name, cap), measure(python, name, cap)
            lines.append(f"  {name:30} {i:>5}  {a['wall_s']:>8.1f} {b['wall_s']:>8.1f}  {a['played']}/{a['moves']}"
                         f"       {b['played']}/{b['moves']}       {a['verdict']} | {b['verdict']}")
            print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose prototest is measured")
    parser.add_argument("--cap", type=float, default=200, help="seconds before `timeout` ends a run (default 200)")
    parser.add_argument("--only", action="append", help="only the bots whose name contains this (repeatable)")
    parser.add_argument("--out", type=Path, help="also append the table to this file")
    parser.add_argument("--ab", metavar="OTHER_PYTHON", help="instead: the correct bots, this prototest and "
                        "OTHER_PYTHON's in turn (--rounds times)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.ab:
        lines = compare(args.python, args.ab, args.rounds, args.cap)
        lines.append(f"  load average {os.getloadavg()[0]:.2f} at the end")
        print(lines[-1])
        if args.out is not None:
            with args.out.open("a", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n\n")
        return
    names = [n for n in CASES if (not args.only and n not in CORRECT[1:]) or any(o in n for o in args.only or ())]
    commit = subprocess.run(["git", "-C", str(Path(os.path.abspath(args.python)).parents[2]), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=False).stdout.strip()
    head = [f"check at defaults, {args.python} (commit {commit or '?'}), cap {args.cap:.0f} s, "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores at the start",
            f"  {'bot':30} {'wall s':>7} {'exit':>4} {'played':>6} {'not':>4} {'left':>4}  verdict; kinds"]
    print("\n".join(head), flush=True)
    rows = []
    for name in names:
        r = measure(args.python, name, args.cap)
        row = (f"  {r['bot']:30} {r['wall_s']:>7.1f} {r['exit']:>4} {str(r['played']):>6} {str(r['not_played']):>4} "
               f"{r['left_behind']:>4}  {r['verdict']}; {', '.join(r['kinds']) or 'none'}")
        print(row, flush=True)
        rows.append(row)
    tail = f"  load average {os.getloadavg()[0]:.2f} at the end"
    print(tail)
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as fh:
            fh.write("\n".join(head + rows + [tail]) + "\n\n")


if __name__ == "__main__":
    main()
