"""What prototest itself costs per exchange, with a bot that answers at once.

Not a test: it prints figures. Run: `python benchmarks/bench_harness.py [--games N]`.

Three figures, over whole chess games against the built-in opponent:

1. turnaround: from the arrival of the bot's answer to the write of its next request --
   everything the harness does per exchange (judge the answer, reply `A`, play the
   opponent's move, build the FEN, check the bot stayed silent, write the turn line);
2. timed-path overhead: the answer time prototest measures minus the round trip a bare
   `os.write`/`os.read` driver measures for the same bot on the same positions -- what the
   harness adds to the time it charges the bot;
3. plies per second over whole games.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prototest import process, spec as specmod  # noqa: E402
from prototest.games import rules_module  # noqa: E402
from prototest.referee import GameConfig, Referee  # noqa: E402

INSTANT_BOT = r"""
import sys, chess
sys.stdin.readline()
for line in sys.stdin:
    parts = line.split(" ", 3)
    if len(parts) < 4:
        continue  # the A/D reply
    board = chess.Board(parts[3])
    move = next(iter(board.legal_moves))
    if board.is_castling(move):
        text = "O-O" if move.to_square > move.from_square else "O-O-O"
    else:
        text = move.uci()[:4]
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
"""


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p * (len(values) - 1))))]


def play_games(games: int, bot_path: str) -> tuple[list[float], list[float], list[str], int, float]:
    spec = specmod.load(specmod.spec_path_for("chess"))
    module = rules_module("chess")
    rules = module.make_rules(spec.rules)
    turnaround_us: list[float] = []
    answer_us: list[float] = []
    turn_lines: list[str] = []
    plies = 0
    wall = 0.0
    for index in range(games):
        cfg = GameConfig(spec=spec, rules=rules, rules_module=module, argv=[sys.executable, bot_path],
                         seat=index % 2, seed=index, index=index + 1, start_delay_ms=50,
                         env=process.controlled_env())
        started = time.perf_counter()
        report = Referee(cfg).run()
        wall += time.perf_counter() - started - 0.05
        assert report.result in ("win", "loss", "draw"), (report.result, report.findings)
        plies += report.plies
        answer_us.extend(ms * 1000 for ms in report.answer_ms)
        events = report.transcript.events
        for i, (t, mark, text) in enumerate(events):
            if mark == ">" and text.count(" ") >= 3:
                turn_lines.append(text)
            if mark != "<":
                continue
            for t2, mark2, text2 in events[i + 1:]:
                if mark2 == ">" and text2.count(" ") >= 3:  # the next turn line
                    turnaround_us.append((t2 - t) / 1000)
                    break
    return turnaround_us, answer_us, turn_lines, plies, wall


def bare_round_trips(bot_path: str, turn_lines: list[str], pause_us: float) -> list[float]:
    """The same bot and positions through the thinnest possible driver. It pauses as long
    as prototest's turnaround before each request, so the bot is asleep in its read as it
    is under prototest (a request written at once finds it still running, and faster)."""
    proc = subprocess.Popen([sys.executable, bot_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=process.controlled_env(), bufsize=0)
    out = proc.stdout.fileno()
    os.write(proc.stdin.fileno(), b"white\n")
    times = []
    for line in turn_lines:
        data = (line + "\n").encode()
        until = time.perf_counter_ns() + int(pause_us * 1000)
        while time.perf_counter_ns() < until:
            pass
        t0 = time.perf_counter_ns()
        os.write(proc.stdin.fileno(), data)
        buf = b""
        while not buf.endswith(b"\n"):
            buf += os.read(out, 4096)
        times.append((time.perf_counter_ns() - t0) / 1000)
        os.write(proc.stdin.fileno(), b"A 999\n")
    proc.stdin.close()
    proc.wait()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    bot = Path(os.environ.get("TMPDIR", "/tmp")) / "prototest_instant_bot.py"
    bot.write_text(INSTANT_BOT)
    turnaround, answers, turn_lines, plies, wall = play_games(args.games, str(bot))
    bare = bare_round_trips(str(bot), turn_lines, statistics.median(turnaround))
    print(f"chess, {args.games} games, {plies} plies, {len(answers)} timed answers")
    print(f"turnaround per exchange (answer in -> next request out): "
          f"median {statistics.median(turnaround):.0f} us, p99 {percentile(turnaround, 0.99):.0f} us")
    print(f"answer time as prototest measures it: median {statistics.median(answers):.0f} us, "
          f"p99 {percentile(answers, 0.99):.0f} us")
    print(f"round trip through a bare os.write/os.read driver: median {statistics.median(bare):.0f} us, "
          f"p99 {percentile(bare, 0.99):.0f} us")
    print(f"timed-path overhead (median difference): {statistics.median(answers) - statistics.median(bare):.0f} us")
    print(f"plies per second over whole games: {plies / wall:.0f}")


if __name__ == "__main__":
    main()
