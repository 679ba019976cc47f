"""How fast `prototest fuzz` finds planted faults, against plain random games (`check --games N`).

Not a test: it prints figures. Run: `python benchmarks/bench_fuzz_power.py [--seeds 1 2 3]`.

The corpus is the 16 planted-fault bots under tests/bots (4 per game), each correct apart
from one fault that shows only in rare situations a real game can reach. For each bot and
each seed, in the same run and one process at a time (the machine is shared):

- fuzz's time to find: `prototest fuzz --game G --seed S --no-database --quiet --json OUT
  [--fuzz-args] -- BOT`; the JSON's `first_failure_s` when it has one (seconds from the
  run's start to the first failing example), else the wall time of the whole run when it
  failed; a run that finds nothing, or is still going at the cap, counts as the cap;
- random games' time to find: `prototest check --game G --seed S --games N --start-delay 0
  [--check-args] BOT`, reading its per-game progress lines on stderr as they arrive
  (`game 3/100000 as w: FAIL  forfeit (crash), ...`); the wall time at the first failing
  game, after which the run is stopped; no failing game within the cap counts as the cap.

Then a table: per bot the fault's expected kind, the kinds fuzz found, each median (misses
counted as the cap), the ratio fuzz/check of the medians and the per-seed figures; at the
end the median of the ratios and how many bots each found within the cap. Per-run progress
goes to stderr, the table to stdout.

Every process group started here is stopped on the way out (SIGTERM, so prototest kills its
bots, then SIGKILL), and every process carrying this run's token (`--env`) is killed too.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import selectors
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"

#: (game, bot under tests/bots, the kind its fault should be reported as)
CORPUS = [
    ("chess", "chess/en_passant.py", "illegal_move"),
    ("chess", "chess/king_next_to_king.py", "illegal_move"),
    ("chess", "chess/halfmove_clock_digits.py", "crash"),
    ("chess", "chess/thinks_on_forced_move.py", "timeout"),
    ("impasse", "impasse/crown_after_bear_off.py", "illegal_move"),
    ("impasse", "impasse/transpose_bear_off_count.py", "crash"),
    ("impasse", "impasse/history_sixty_turns.py", "crash"),
    ("impasse", "impasse/slow_endgame.py", "timeout"),
    ("loa", "loa/crash_few_checkers.py", "crash"),
    ("loa", "loa/corner_diagonal_table.py", "crash"),
    ("loa", "loa/cache_own_checkers.py", "illegal_move"),
    ("loa", "loa/long_path_enemy.py", "illegal_move"),
    ("halma", "halma/short_move_buffer.py", "crash"),
    ("halma", "halma/corner_last_cell.py", "crash"),
    ("halma", "halma/straggler_path_buffer.py", "crash"),
    ("halma", "halma/slow_many_moves.py", "timeout"),
]

#: Every bot started by this run carries this variable, so the sweep on exit finds
#: exactly this run's processes.
TOKEN = f"PROTOTEST_BENCH_RUN={uuid.uuid4().hex}"
_live: set[subprocess.Popen] = set()


@dataclass
class Run:
    seconds: float  # time to find, or the cap
    found: bool
    kinds: list[str] = field(default_factory=list)
    note: str = ""


def environment() -> dict[str, str]:
    """The venv's bin first on PATH (the chess bots' `#!/usr/bin/env python3` needs
    python-chess), this checkout importable, as benchmarks/bench_fuzz.py sets them."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.setdefault("PYTHONPATH", str(ROOT))
    env.pop("PYTHONUNBUFFERED", None)
    return env


def start(argv: list[str], cwd: Path, stderr: int | None) -> subprocess.Popen:
    proc = subprocess.Popen(argv, cwd=cwd, env=environment(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    _live.add(proc)
    return proc


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the process group (prototest then kills its bots), SIGKILL after 15 s."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
    _live.discard(proc)


def sweep() -> None:
    """Kill every process left with this run's token in its environment."""
    for proc in list(_live):
        stop(proc)
    token = TOKEN.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if token in (entry / "environ").read_bytes().split(b"\0"):
                os.kill(int(entry.name), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def fuzz(game: str, bot: Path, seed: int, cap: float, extra: list[str], folder: Path) -> Run:
    report = folder / f"fuzz-{game}-{bot.stem}-{seed}.json"
    report.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "prototest", "fuzz", "--game", game, "--seed", str(seed),
            "--no-database", "--quiet", "--json", str(report), "--env", TOKEN, *extra, "--", str(bot)]
    t0 = time.monotonic()
    proc = start(argv, folder, subprocess.DEVNULL)
    try:
        code = proc.wait(cap)
    except subprocess.TimeoutExpired:
        code = None
    wall = time.monotonic() - t0
    stop(proc)
    data = json.loads(report.read_text()) if report.exists() else {}
    fails = [f for f in data.get("findings", []) if f.get("severity") == "fail"]
    kinds = sorted({f["kind"] for f in fails})
    if code not in (None, 0, 1):
        return Run(cap, False, kinds, f"exit {code}")
    if not fails:
        return Run(cap, False, kinds, "nothing found" if code == 0 else "cap reached")
    seconds = data.get("first_failure_s")
    if seconds is None:
        seconds = min(wall, cap)
    note = "" if code is not None else "stopped at the cap"
    return Run(min(float(seconds), cap), float(seconds) < cap, kinds, note)


def check(game: str, bot: Path, seed: int, cap: float, games: int, extra: list[str], folder: Path) -> Run:
    argv = [sys.executable, "-m", "prototest", "check", "--game", game, "--seed", str(seed),
            "--games", str(games), "--start-delay", "0", "--env", TOKEN,
            "--transcripts", str(folder / "transcripts"), *extra, "--", str(bot)]
    t0 = time.monotonic()
    proc = start(argv, folder, subprocess.PIPE)
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    buffer, found = b"", None
    try:
        while found is None:
            left = cap - (time.monotonic() - t0)
            if left <= 0 or not selector.select(left):
                break
            chunk = os.read(proc.stderr.fileno(), 65536)
            if not chunk:
                break  # the run ended without a failing game
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                text = line.decode(errors="replace")
                if text.startswith("game ") and ": FAIL" in text:
                    found = (time.monotonic() - t0, text)
                    break
    finally:
        selector.close()
        ended = proc.poll()  # before stop(): a run that ended by itself, and how
        stop(proc)
        proc.stderr.close()
    if found is None:
        return Run(cap, False, [], "no failing game" if ended in (None, 0) else f"exit {ended}")
    seconds, text = found
    inside = text.rsplit("  [", 1)[-1].rstrip("]") if text.endswith("]") else ""  # [fail crash, warn slow]
    kinds = sorted({part.split(" ", 1)[1] for part in inside.split(", ") if part.startswith("fail ")})
    game_no = text.split()[1]
    return Run(min(seconds, cap), seconds < cap, kinds, f"game {game_no}")


def median(runs: list[Run]) -> float:
    return statistics.median(r.seconds for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--cap", type=float, default=180.0, help="seconds; a miss counts as this")
    parser.add_argument("--bots", default="", help="only the bots whose path holds this substring")
    parser.add_argument("--games", type=int, default=100000, help="check's --games (the cap stops it)")
    parser.add_argument("--fuzz-args", default="", help='extra arguments for fuzz, e.g. "--budget 60s --jobs 2"')
    parser.add_argument("--check-args", default="", help="extra arguments for check")
    args = parser.parse_args()
    corpus = [entry for entry in CORPUS if args.bots in entry[1]]
    if not corpus:
        parser.error(f"no bot matches {args.bots!r}")

    atexit.register(sweep)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))

    rows: list[tuple[str, str, list[Run], list[Run]]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench_fuzz_power-", ignore_cleanup_errors=True) as tmp:
            try:
                measure(corpus, args, Path(tmp), rows)
            finally:
                sweep()  # before the folder goes: a stopped run may still be writing to it
    except (KeyboardInterrupt, SystemExit):
        if rows:
            print(f"INTERRUPTED after {len(rows)} of {len(corpus)} bots; the bots measured so far:")
            table(rows, args)
        raise
    table(rows, args)


def measure(corpus: list[tuple[str, str, str]], args: argparse.Namespace, folder: Path,
            rows: list[tuple[str, str, list[Run], list[Run]]]) -> None:
    """Fuzz, then check, per bot and seed, one process at a time; a row per bot in `rows`."""
    for game, name, expected in corpus:
        bot = BOTS / name
        fuzz_runs, check_runs = [], []
        for seed in args.seeds:
            f = fuzz(game, bot, seed, args.cap, shlex.split(args.fuzz_args), folder)
            c = check(game, bot, seed, args.cap, args.games, shlex.split(args.check_args), folder)
            fuzz_runs.append(f)
            check_runs.append(c)
            print(f"{name:36} seed {seed}: fuzz {f.seconds:6.1f} s {'/'.join(f.kinds) or '-':14} {f.note:18} "
                  f"check {c.seconds:6.1f} s {'/'.join(c.kinds) or '-':14} {c.note}", file=sys.stderr, flush=True)
        rows.append((name, expected, fuzz_runs, check_runs))


def table(rows: list[tuple[str, str, list[Run], list[Run]]], args: argparse.Namespace) -> None:
    print(f"fuzz against random games (check --games), seeds {' '.join(map(str, args.seeds))}, "
          f"cap {args.cap:.0f} s (a miss counts as the cap)")
    if args.fuzz_args or args.check_args:
        print(f"fuzz args: {args.fuzz_args or '-'}; check args: {args.check_args or '-'}")
    print()
    print(f"{'bot':36} {'expected':12} {'fuzz found':14} {'fuzz s':>7} {'check s':>7} {'ratio':>6}  per seed (fuzz/check s)")
    ratios = []
    for name, expected, fuzz_runs, check_runs in rows:
        fm, cm = median(fuzz_runs), median(check_runs)
        ratio = fm / cm if cm else float("inf")
        ratios.append(ratio)
        kinds = sorted({k for r in fuzz_runs for k in r.kinds}) or ["-"]
        seeds = "  ".join(f"{'*' if not f.found else ''}{f.seconds:.0f}/{'*' if not c.found else ''}{c.seconds:.0f}"
                          for f, c in zip(fuzz_runs, check_runs))
        print(f"{name:36} {expected:12} {'/'.join(kinds):14} {fm:7.1f} {cm:7.1f} {ratio:6.2f}  {seeds}")
    print()
    print("* = not found within the cap (counted as the cap)")
    fuzz_found = sum(1 for _, _, runs, _ in rows if median(runs) < args.cap)
    check_found = sum(1 for _, _, _, runs in rows if median(runs) < args.cap)
    fuzz_runs_found = sum(r.found for _, _, runs, _ in rows for r in runs)
    check_runs_found = sum(r.found for _, _, _, runs in rows for r in runs)
    total = len(rows) * len(args.seeds)
    print(f"median ratio fuzz/check: {statistics.median(ratios):.2f}")
    print(f"bots found within the cap (median under it): fuzz {fuzz_found}/{len(rows)}, check {check_found}/{len(rows)}")
    print(f"runs that found the fault: fuzz {fuzz_runs_found}/{total}, check {check_runs_found}/{total}", flush=True)


if __name__ == "__main__":
    main()
