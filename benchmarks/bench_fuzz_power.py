"""How fast `prototest fuzz` finds planted faults, against plain random games (`check --games N`).

Not a test: it prints figures. Run: `python benchmarks/bench_fuzz_power.py [--seeds 1 2 3]`.

The corpus is the 16 planted-fault bots under tests/bots (4 per game), each correct apart
from one fault that shows only in rare situations a real game can reach. For each bot and
each seed, in the same run and one process at a time (the machine is shared):

- fuzz's time to find: `prototest fuzz --game G --seed S --no-database --json OUT
  [--fuzz-args] -- BOT` (its defaults: the 60 s budget, one worker per core), reading its
  progress lines on stderr as they arrive: the wall time at the first line that counts a
  failing kind (said at once); a run that finds nothing, or is still going at the cap,
  counts as the cap;
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
import re
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
    #: fuzz only: seconds to its verdict (the command's end: found, shortened, replayed)
    verdict_s: float | None = None
    #: fuzz only: the reproducer's plies before the failing position (its path), and the
    #: plies the reproducer plays from where the bot starts (1: a cold start, one answer)
    plies: int | None = None
    played: int | None = None


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
    """Fuzz's time to find: the wall time from the command's start to its progress line
    that first counts a failing kind (said at once on stderr, as check's game lines are),
    so both tools are timed alike, interpreter start included."""
    report = folder / f"fuzz-{game}-{bot.stem}-{seed}.json"
    report.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "prototest", "fuzz", "--game", game, "--seed", str(seed),
            "--no-database", "--json", str(report), "--env", TOKEN, *extra, "--", str(bot)]
    t0 = time.monotonic()
    proc = start(argv, folder, subprocess.PIPE)
    found = _first_line(proc, t0, cap, lambda text: bool(re.search(r"\b[1-9]\d* failing kinds?\b", text)))
    try:
        code = proc.wait(max(1.0, cap - (time.monotonic() - t0)) + 60)
    except subprocess.TimeoutExpired:
        code = None
    verdict = time.monotonic() - t0
    stop(proc)
    data = json.loads(report.read_text()) if report.exists() else {}
    fails = [f for f in data.get("findings", []) if f.get("severity") == "fail"]
    kinds = sorted({f["kind"] for f in fails})
    if code not in (None, 0, 1):
        return Run(cap, False, kinds, f"exit {code}")
    if found is None or not fails:
        return Run(cap, False, kinds, "nothing found" if code == 0 else "cap reached")
    seconds = found[0]
    reproducer = fails[0].get("reproducer", {})
    plies = reproducer.get("plies")
    played = plies - len(reproducer.get("start_moves", [])) + 1 if plies is not None else None
    where = (f"; run {data.get('first_failure_example')} ({data.get('first_failure_origin')}) at "
             f"{data['first_failure_s']:.1f} s of the search" if data.get("first_failure_s") is not None else "")
    return Run(min(seconds, cap), seconds < cap, kinds, f"reproducer {plies} plies, plays {played}{where}",
               verdict, plies, played)


def _first_line(proc: subprocess.Popen, t0: float, cap: float, wanted) -> tuple[float, str] | None:
    """The time (since t0) and text of the first stderr line that `wanted`, within the cap;
    None when none came (stderr is drained to its end either way)."""
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    buffer, found = b"", None
    try:
        while True:
            left = cap - (time.monotonic() - t0)
            if left <= 0 or not selector.select(left):
                break
            chunk = os.read(proc.stderr.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                text = line.decode(errors="replace")
                if found is None and wanted(text):
                    found = (time.monotonic() - t0, text)
            if found is not None:
                break
    finally:
        selector.close()
    return found


def check(game: str, bot: Path, seed: int, cap: float, games: int, extra: list[str], folder: Path) -> Run:
    argv = [sys.executable, "-m", "prototest", "check", "--game", game, "--seed", str(seed),
            "--games", str(games), "--start-delay", "0", "--env", TOKEN,
            "--transcripts", str(folder / "transcripts"), *extra, "--", str(bot)]
    t0 = time.monotonic()
    proc = start(argv, folder, subprocess.PIPE)
    try:
        found = _first_line(proc, t0, cap, lambda text: text.startswith("game ") and ": FAIL" in text)
    finally:
        ended = proc.poll()  # before stop(): a run that ended by itself, and how
        stop(proc)
        proc.stderr.close()
    if found is None:
        return Run(cap, False, [], "no failing game" if ended in (None, 0) else f"exit {ended}")
    seconds, text = found
    bracket = re.search(r"  \[([^\]]*)\]", text)  # [fail crash, warn slow]
    inside = bracket.group(1) if bracket else ""
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
    parser.add_argument("--plain", action="store_true",
                        help="also time plain random games: check with --set opponent.style=random (a uniformly "
                             "random opponent, no style per game), the baseline check had before opponent styles")
    args = parser.parse_args()
    corpus = [entry for entry in CORPUS if args.bots in entry[1]]
    if not corpus:
        parser.error(f"no bot matches {args.bots!r}")

    atexit.register(sweep)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))

    rows: list[tuple] = []
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


def measure(corpus: list[tuple[str, str, str]], args: argparse.Namespace, folder: Path, rows: list[tuple]) -> None:
    """Fuzz, then check (then plain random games), per bot and seed, one process at a
    time; a row per bot in `rows`."""
    for game, name, expected in corpus:
        bot = BOTS / name
        fuzz_runs, check_runs, plain_runs = [], [], []
        for seed in args.seeds:
            f = fuzz(game, bot, seed, args.cap, shlex.split(args.fuzz_args), folder)
            c = check(game, bot, seed, args.cap, args.games, shlex.split(args.check_args), folder)
            fuzz_runs.append(f)
            check_runs.append(c)
            line = (f"{name:36} seed {seed}: fuzz {f.seconds:6.1f} s {'/'.join(f.kinds) or '-':14} {f.note:18} "
                    f"check {c.seconds:6.1f} s {'/'.join(c.kinds) or '-':14} {c.note}")
            if args.plain:
                p = check(game, bot, seed, args.cap, args.games,
                          ["--set", "opponent.style=random", *shlex.split(args.check_args)], folder)
                plain_runs.append(p)
                line += f"  plain {p.seconds:6.1f} s {p.note}"
            print(line, file=sys.stderr, flush=True)
        rows.append((name, expected, fuzz_runs, check_runs, plain_runs))


def table(rows: list[tuple], args: argparse.Namespace) -> None:
    print(f"fuzz against random games (check --games), seeds {' '.join(map(str, args.seeds))}, "
          f"cap {args.cap:.0f} s (a miss counts as the cap)")
    if args.fuzz_args or args.check_args:
        print(f"fuzz args: {args.fuzz_args or '-'}; check args: {args.check_args or '-'}")
    print()
    plain = " plain s  ratio" if args.plain else ""
    print(f"{'bot':36} {'expected':12} {'fuzz found':14} {'fuzz s':>7} {'check s':>7} {'ratio':>6}{plain}"
          f" {'verdict s':>9} {'plies':>5} {'plays':>5}  per seed (fuzz/check{'/plain' if args.plain else ''} s)")
    ratios, plain_ratios, verdicts, plies, played = [], [], [], [], []
    for name, expected, fuzz_runs, check_runs, plain_runs in rows:
        fm, cm = median(fuzz_runs), median(check_runs)
        ratio = fm / cm if cm else float("inf")
        ratios.append(ratio)
        kinds = sorted({k for r in fuzz_runs for k in r.kinds}) or ["-"]
        extra = ""
        if args.plain:
            pm = median(plain_runs)
            plain_ratios.append(fm / pm if pm else float("inf"))
            extra = f" {pm:7.1f} {plain_ratios[-1]:6.2f}"
        vs = [r.verdict_s for r in fuzz_runs if r.found and r.verdict_s is not None]
        ps = [r.plies for r in fuzz_runs if r.found and r.plies is not None]
        qs = [r.played for r in fuzz_runs if r.found and r.played is not None]
        vm = statistics.median(vs) if vs else float("nan")
        pmed = statistics.median(ps) if ps else float("nan")
        qmed = statistics.median(qs) if qs else float("nan")
        if vs:
            verdicts.append(vm / cm if cm else float("inf"))
        if ps:
            plies.append(pmed)
            played.append(qmed)
        extra += f" {vm:9.1f} {pmed:5.0f} {qmed:5.0f}"
        seeds = "  ".join("/".join(f"{'*' if not r.found else ''}{r.seconds:.0f}" for r in runs)
                          for runs in zip(fuzz_runs, check_runs, *([plain_runs] if args.plain else [])))
        print(f"{name:36} {expected:12} {'/'.join(kinds):14} {fm:7.1f} {cm:7.1f} {ratio:6.2f}{extra}  {seeds}")
    print()
    print("* = not found within the cap (counted as the cap)")
    total = len(rows) * len(args.seeds)
    print(f"median ratio fuzz/check: {statistics.median(ratios):.2f} (at most 1.0: {sum(r <= 1.0 for r in ratios)}"
          f"/{len(ratios)} bots; at most 0.5: {sum(r <= 0.5 for r in ratios)})")
    if verdicts:
        print(f"median ratio fuzz's verdict (found, shortened, replayed) / check's time to find: "
              f"{statistics.median(verdicts):.2f}")
    if plies:
        print(f"reproducers, median over bots of each bot's median: path {statistics.median(plies):.0f} plies "
              f"before the failing position, {statistics.median(played):.0f} plies played from where the bot "
              f"starts (1: a fresh bot shown the position, one answer); at most 20 played: "
              f"{sum(q <= 20 for q in played)}/{len(played)} bots")
    if args.plain:
        print(f"median ratio fuzz/plain random games: {statistics.median(plain_ratios):.2f} (at most 1.0: "
              f"{sum(r <= 1.0 for r in plain_ratios)}/{len(plain_ratios)} bots)")
    for label, index in (("fuzz", 2), ("check", 3)) + ((("plain random games", 4),) if args.plain else ()):
        found = sum(1 for row in rows if median(row[index]) < args.cap)
        runs_found = sum(r.found for row in rows for r in row[index])
        print(f"{label}: {found}/{len(rows)} bots found within the cap (median under it), "
              f"{runs_found}/{total} runs found the fault")


if __name__ == "__main__":
    main()
