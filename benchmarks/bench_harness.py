"""What prototest itself costs per exchange, with a bot that answers at once.

Not a test: it prints figures. Run: `python benchmarks/bench_harness.py [--games N]`.

The bot answers at once: it replays the moves the bundled chess bot chose in the same
games (same seeds, so the built-in opponent plays the same replies), doing no chess at
all: read a line, write the next move. Over whole games it reports:

1. exchange: from the write of one turn request to the write of the next -- one whole
   cycle, the bot's instant answer included;
2. turnaround: from the arrival of the answer to the write of the next request --
   everything the harness does per exchange (judge the answer with python-chess, reply
   `A`, play the opponent's move, build the FEN, check the bot stayed silent, write);
3. timed-path overhead: the answer time prototest charges the bot minus the round trip a
   bare os.write/os.read driver measures for the same bot and lines, paced the same way --
   what the harness adds to the bot's clock;
4. plies per second over whole games.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prototest.sandbox import process
from prototest.judge import spec as specmod  # noqa: E402
from prototest.games import rules_module  # noqa: E402
from prototest.judge.referee import GameConfig, Referee  # noqa: E402

REPLAY_BOT = r"""
import json, sys
moves = iter(json.load(open(sys.argv[1])))
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
read()  # the colour
while True:
    line = read()
    if not line:
        break
    if line.count(" ") >= 3:  # a turn line; the A/D replies have one space
        write(next(moves) + "\n")
        flush()
"""


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p * (len(values) - 1))))]


def referee(argv: list[str], index: int):
    spec = specmod.load(specmod.spec_path_for("chess"))
    module = rules_module("chess")
    cfg = GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module, argv=argv,
                     seat=index % 2, seed=index, index=index + 1, start_delay_ms=20,
                     env=process.controlled_env())
    return Referee(cfg)


def bot_moves(games: int) -> list[list[str]]:
    """The moves the bundled bot plays in each game (its own moves only)."""
    out = []
    for index in range(games):
        report = referee([sys.executable, "-m", "prototest.bots.chess_bot"], index).run()
        out.append(report.moves[index % 2::2])
    return out


def replay(games: int, scripts: list[Path], bot: Path) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"exchange": [], "turnaround": [], "answer": [], "plies": [], "wall": []}
    turn_lines: list[list[str]] = []
    for index in range(games):
        ref = referee([sys.executable, str(bot), str(scripts[index])], index)
        started = time.perf_counter()
        report = ref.run()
        figures["wall"].append(time.perf_counter() - started - 0.02)
        assert not report.failed, [f.message for f in report.findings]
        figures["plies"].append(report.plies)
        figures["answer"].extend(ms * 1000 for ms in report.answer_ms)
        requests = [(t, text) for t, mark, text in report.transcript.events if mark == ">" and text.count(" ") >= 3]
        answers = [t for t, mark, _ in report.transcript.events if mark == "<"]
        turn_lines.append([text for _, text in requests])
        figures["exchange"].extend((b[0] - a[0]) / 1000 for a, b in zip(requests, requests[1:]))
        for t_answer in answers:
            nxt = next((t for t, _ in requests if t > t_answer), None)
            if nxt is not None:
                figures["turnaround"].append((nxt - t_answer) / 1000)
    figures["lines"] = turn_lines  # type: ignore[assignment]
    return figures


def bare(games: int, scripts: list[Path], bot: Path, lines: list[list[str]], pause_us: float) -> list[float]:
    """The same bot and turn lines through the thinnest driver, paced like prototest, so
    the bot is asleep in its read when the request comes, as under prototest."""
    times = []
    for index in range(games):
        proc = subprocess.Popen([sys.executable, str(bot), str(scripts[index])], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=process.controlled_env(), bufsize=0)
        out, inp = proc.stdout.fileno(), proc.stdin.fileno()
        os.write(inp, b"white\n")
        for line in lines[index]:
            until = time.perf_counter_ns() + int(pause_us * 1000)
            while time.perf_counter_ns() < until:
                pass
            data = (line + "\n").encode()
            t0 = time.perf_counter_ns()
            os.write(inp, data)
            buf = b""
            while not buf.endswith(b"\n"):
                buf += os.read(out, 4096)
            times.append((time.perf_counter_ns() - t0) / 1000)
            os.write(inp, b"A 999\n")
        proc.stdin.close()
        proc.wait()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="prototest-bench-"))
    bot = tmp / "replay_bot.py"
    bot.write_text(REPLAY_BOT)
    scripts = []
    for index, moves in enumerate(bot_moves(args.games)):
        path = tmp / f"moves-{index}.json"
        path.write_text(json.dumps(moves))
        scripts.append(path)
    f = replay(args.games, scripts, bot)
    plain = bare(args.games, scripts, bot, f["lines"], statistics.median(f["turnaround"]))  # type: ignore[arg-type]

    def show(name: str, values: list[float]) -> str:
        return f"median {statistics.median(values):6.0f} us, p99 {percentile(values, 0.99):6.0f} us"

    print(f"chess, {args.games} games, {int(sum(f['plies']))} plies, {len(f['answer'])} timed answers, "
          f"instant replay bot")
    print(f"exchange (request out -> next request out): {show('exchange', f['exchange'])}")
    print(f"turnaround (answer in -> next request out): {show('turnaround', f['turnaround'])}")
    print(f"answer time prototest charges the bot:      {show('answer', f['answer'])}")
    print(f"same bot through a bare os.write/os.read:   {show('bare', plain)}")
    print(f"timed-path overhead (difference of medians): "
          f"{statistics.median(f['answer']) - statistics.median(plain):.0f} us")
    print(f"plies per second over whole games: {sum(f['plies']) / sum(f['wall']):.0f}")


if __name__ == "__main__":
    main()
