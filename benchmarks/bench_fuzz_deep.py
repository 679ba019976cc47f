"""Planted deep and noise faults (issue 31): `prototest fuzz` in one or more variants against
`check --games 2000`.

Not a test: it prints figures. Run: `python benchmarks/bench_fuzz_deep.py [--seeds 1 2 3]`.

The corpus (`--corpus`): `new`, the deep and noise faults planted for issue 31 (tests/bots/<game>/deep_*.py,
noise_*.py and the native C bot tests/bots/native/loa_comeback.c, compiled here with
`--cc`, `--native-cflags` and `--native-ldlibs`, so a coverage build can pass its flags);
`old`, the 16 rare faults of `bench_fuzz_power.py`; or `all`.

For each bot and seed, one process at a time (the machine is shared):

- each fuzz variant: `prototest fuzz --game G --seed S --no-database --json OUT ARGS -- BOT`
  with the variant's ARGS (`--variant NAME=ARGS`, repeatable; default one variant `fuzz`
  with no extra arguments, i.e. fuzz's defaults: 60 s budget, one worker per core). Time
  to find: the wall time at its first progress line that counts a failing kind; time to
  verdict: the wall time until the command exits (shortening and replay included);
  plies: the reproducer's path;
- random games: `prototest check --game G --seed S --games N --start-delay 0 BOT` (N =
  `--games`, default 2000): the wall time at the first failing game; a run whose N games
  all pass (or that reaches `--check-cap`) is a miss.

Then a table per bot: per column found (runs that found / runs), median time to find (a
miss counts as the cap of its column), median time to verdict, median reproducer plies;
and per variant the median over bots of (time to find / random games' time to find) and
of (time to verdict / random games' time to find), misses counted as their caps. Only the
table goes to stdout; per-run lines go to stderr.

Example, once fuzz has `--coverage`:

    python benchmarks/bench_fuzz_deep.py --corpus all --seeds 1 2 3 \\
        --variant 'fuzz (coverage)=--coverage on' --variant 'fuzz (no coverage)=--coverage off'
"""

from __future__ import annotations

import argparse
import atexit
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_fuzz_power as power  # noqa: E402

ROOT = power.ROOT
BOTS = power.BOTS

#: (game, bot under tests/bots, the kind its fault should be reported as, what kind of fault)
NEW = [
    ("loa", "loa/deep_comeback_tally.py", "crash", "deep"),
    ("loa", "loa/deep_mopup_long_path.py", "illegal_move", "deep"),
    ("impasse", "impasse/deep_crown_rush.py", "crash", "deep"),
    ("halma", "halma/deep_laggard_rescue.py", "crash", "deep"),
    ("loa", "loa/noise_situations.py", "crash", "noise"),
    ("impasse", "impasse/noise_situations.py", "crash", "noise"),
    ("loa", "loa/noise_long_lines.py", "illegal_move", "noise"),
    ("loa", "native/loa_comeback.c", "crash", "deep, native"),
    # written after fuzz_deep_before.txt showed that a mode entered on a board situation is
    # reached by position mode: these modes are entered through the bot's own turns only
    ("impasse", "impasse/deep_history_both_stuck.py", "crash", "deep (history)"),
    ("halma", "halma/deep_history_long_jumps.py", "crash", "deep (history)"),
    ("chess", "chess/deep_history_en_passant_log.py", "crash", "deep (history)"),
]
OLD = [(game, name, kind, "rare") for game, name, kind in power.CORPUS]


def build_native(source: Path, folder: Path, args: argparse.Namespace) -> Path:
    """Compile a C bot into `folder`; its path."""
    binary = folder / source.stem
    argv = [args.cc, *shlex.split(args.native_cflags), "-o", str(binary), str(source),
            *shlex.split(args.native_ldlibs)]
    subprocess.run(argv, check=True)
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("new", "old", "all"), default="new")
    parser.add_argument("--bots", default="", help="only the bots whose path holds this substring")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=ARGS",
                        help="a fuzz column: its name and the extra arguments fuzz gets (repeatable; "
                             "default: one column 'fuzz' with none)")
    parser.add_argument("--cap", type=float, default=180.0,
                        help="seconds a fuzz run may take to find (a miss counts as this)")
    parser.add_argument("--games", type=int, default=2000, help="check's --games")
    parser.add_argument("--check-cap", type=float, default=3600.0,
                        help="seconds check may take for its games (a miss counts as this)")
    parser.add_argument("--check-args", default="", help="extra arguments for check")
    parser.add_argument("--no-check", action="store_true", help="fuzz columns only")
    parser.add_argument("--no-fuzz", action="store_true", help="the check column only")
    parser.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    parser.add_argument("--native-cflags", default="-O1", help="flags for the native bots' compiler")
    parser.add_argument("--native-ldlibs", default="", help="objects or libraries the native bots link")
    args = parser.parse_args()
    variants = []
    for text in [] if args.no_fuzz else args.variant or ["fuzz="]:
        name, sep, extra = text.partition("=")
        if not sep or not name:
            parser.error(f"--variant wants NAME=ARGS, got {text!r}")
        variants.append((name, shlex.split(extra)))
    corpus = {"new": NEW, "old": OLD, "all": NEW + OLD}[args.corpus]
    corpus = [entry for entry in corpus if args.bots in entry[1]]
    if not corpus:
        parser.error(f"no bot matches {args.bots!r}")
    if any(name.endswith(".c") for _, name, _, _ in corpus) and not shutil.which(args.cc):
        parser.error(f"{args.cc} not found: the native bot needs it (--bots .py leaves it out)")

    atexit.register(power.sweep)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))
    rows: list[tuple] = []
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    try:
        with tempfile.TemporaryDirectory(prefix="bench_fuzz_deep-", ignore_cleanup_errors=True) as tmp:
            try:
                measure(corpus, variants, args, Path(tmp), rows)
            finally:
                power.sweep()
    except (KeyboardInterrupt, SystemExit):
        if rows:
            print(f"INTERRUPTED after {len(rows)} of {len(corpus)} bots; the bots measured so far:")
            table(rows, variants, args, started)
        raise
    table(rows, variants, args, started)


def measure(corpus, variants, args, folder: Path, rows: list[tuple]) -> None:
    for game, name, expected, kind in corpus:
        bot = BOTS / name
        if bot.suffix == ".c":
            bot = build_native(bot, folder, args)
        runs: dict[str, list[power.Run]] = {label: [] for label, _ in variants}
        runs["check"] = []
        for seed in args.seeds:
            line = f"{name:32} seed {seed}:"
            for label, extra in variants:
                f = power.fuzz(game, bot, seed, args.cap, extra, folder)
                runs[label].append(f)
                line += f"  {label} {'found' if f.found else 'MISS'} {f.seconds:.2f} s {'/'.join(f.kinds) or '-'} ({f.note})"
                if f.verdict_s is not None:
                    line += f", verdict {f.verdict_s:.2f} s"
            if not args.no_check:
                t0 = time.monotonic()
                c = power.check(game, bot, seed, args.check_cap, args.games, shlex.split(args.check_args), folder)
                if not c.found:  # how long its games took (all of them, unless the cap came first)
                    c.note += f", {time.monotonic() - t0:.0f} s"
                runs["check"].append(c)
                line += f"  check {'found' if c.found else 'MISS'} {c.seconds:.2f} s {'/'.join(c.kinds) or '-'} ({c.note})"
            print(line, file=sys.stderr, flush=True)
        rows.append((name, expected, kind, runs))


def _med(values):
    return statistics.median(values) if values else float("nan")


def table(rows, variants, args, started: str) -> None:
    labels = [label for label, _ in variants] + ([] if args.no_check else ["check"])
    print(f"planted faults: fuzz variants against check --games {args.games}; seeds "
          f"{' '.join(map(str, args.seeds))}; fuzz cap {args.cap:.0f} s, check cap {args.check_cap:.0f} s "
          f"(a miss counts as the cap); started {started}")
    for label, extra in variants:
        print(f"  {label}: prototest fuzz {shlex.join(extra) or '(its defaults)'}")
    print()
    head = f"{'bot':32} {'kind':12} {'expected':12}"
    for label in labels:
        head += f" | {label[:22]:>22}: found  find s verdict s plies"
    print(head)
    ratios = {label: [] for label, _ in variants}
    verdicts = {label: [] for label, _ in variants}
    for name, expected, kind, runs in rows:
        line = f"{name:32} {kind:12} {expected:12}"
        check_find = _med([r.seconds for r in runs.get("check", [])]) if "check" in runs and runs["check"] else None
        for label in labels:
            rs = runs[label]
            found = sum(r.found for r in rs)
            find = _med([r.seconds for r in rs])
            verdict = _med([r.verdict_s for r in rs if r.found and r.verdict_s is not None])
            plies = _med([r.plies for r in rs if r.found and r.plies is not None])
            line += f" | {'':>22}  {found}/{len(rs)} {find:7.1f} {verdict:9.1f} {plies:5.0f}"
            if label != "check" and check_find:
                ratios[label].append(find / check_find)
                if found:
                    verdicts[label].append(verdict / check_find)
        print(line)
    print()
    print("find s: median time to find (a miss counts as the column's cap); verdict s: median wall time "
          "of the fuzz command to its exit (shortening and replay included), over the runs that found; "
          "plies: the reproducer's path")
    for label in labels:
        found = sum(r.found for row in rows for r in row[3][label])
        total = sum(len(row[3][label]) for row in rows)
        bots = sum(1 for row in rows if any(r.found for r in row[3][label]))
        print(f"{label}: found in {found}/{total} runs, {bots}/{len(rows)} bots")
    for label, _ in variants:
        if ratios[label]:
            print(f"{label}: median time to find / check's: {_med(ratios[label]):.2f} "
                  f"(at most 1.0: {sum(r <= 1.0 for r in ratios[label])}/{len(ratios[label])} bots); "
                  f"median time to verdict / check's time to find: {_med(verdicts[label]):.2f} "
                  f"(over the {len(verdicts[label])} bots it found)")


if __name__ == "__main__":
    main()
