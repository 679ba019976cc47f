"""Where the judge's own CPU goes, step by step: `prototest check` or `match` run in this
process with CPU-time accumulators on the referee's steps.

Not a test: it prints figures. Run: `python benchmarks/bench_harness_cpu.py check --game
chess --games 40 --seed 1 --start-delay 0 --jobs 1 -q -- python BOT` (any prototest
command line after the script's name; `--jobs 1`, so every game is played here).

Each step below is wrapped: its CPU time (time.process_time: this process only, the bots
and keepers are other processes) is added up, less the time of the wrapped steps it calls,
so every figure is the step's own. The command's start-up (imports, the spec), the pool
and the report are the rest. At the end: this process's CPU and its children's (keepers
and bots), and each step's total, calls and CPU per call. The wrappers cost about a
microsecond a call themselves: compare runs of this script, not its figures with
bench_jobs'.
"""

from __future__ import annotations

import functools
import resource
import runpy
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prototest.sandbox import process
from prototest.judge import referee, seat
from prototest.play import runner  # noqa: E402
from prototest.games import chess as chess_rules  # noqa: E402

#: (owner, method name, label) of every step accounted for
STEPS = [(referee.Referee, name, f"referee.{name}") for name in (
    "_opponent_move", "_render", "_send", "_read_answer", "_judged_answer", "_say", "_check_silence",
    "_usage_at_request", "_account", "_bot_turn", "launch", "_finish", "_envelope_end", "_conduct", "_mark",
    "_played", "_start")] + [
    (chess_rules.ChessPosition, "outcome", "chess.outcome"), (chess_rules.ChessPosition, "notation", "chess.notation"),
    (chess_rules.ChessPosition, "judge", "chess.judge"), (process.Bot, "read_line", "bot.read_line"),
    (process.Bot, "__init__", "bot.start"), (process.Bot, "__exit__", "bot.kill"),
    (seat.BotSeat, "move", "seat.move"), (runner, "write_transcript", "runner.write_transcript")]

spent: dict[str, float] = defaultdict(float)
calls: dict[str, int] = defaultdict(int)
_inner: list[float] = []


def wrap(owner: object, name: str, label: str) -> None:
    """Account `owner.name`'s own CPU time under `label`."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def accounted(*args, **kwargs):
        t0 = time.process_time()
        _inner.append(0.0)
        try:
            return original(*args, **kwargs)
        finally:
            took = time.process_time() - t0
            inner = _inner.pop()
            spent[label] += took - inner
            calls[label] += 1
            if _inner:
                _inner[-1] += took

    setattr(owner, name, accounted)


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    for owner, name, label in STEPS:
        wrap(owner, name, label)
    sys.argv = ["prototest", *sys.argv[1:]]
    t0, wall0 = time.process_time(), time.monotonic()
    try:
        runpy.run_module("prototest", run_name="__main__")
    except SystemExit:
        pass
    total = time.process_time() - t0
    print(f"wall {time.monotonic() - wall0:.2f} s; this process {cpu(resource.RUSAGE_SELF):.3f} s of CPU "
          f"(the command {total:.3f} s), its children (keepers, bots) {cpu(resource.RUSAGE_CHILDREN):.3f} s",
          file=sys.stderr)
    for label, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {label:28} {seconds * 1000:8.1f} ms {calls[label]:7d} calls {seconds / calls[label] * 1e6:8.1f} us/call",
              file=sys.stderr)
    print(f"  {'(the rest: start-up, pool, report)':28} {(total - sum(spent.values())) * 1000:8.1f} ms", file=sys.stderr)


if __name__ == "__main__":
    main()
