"""What the keeper and the file-operation watch cost: per exchange, and at a bot's start.

Not a test: it prints figures. Run: `python benchmarks/bench_fileops.py [--games N] [--starts N]`.

Four ways of running the same bots, in turn, in one process:

* plain: no keeper (subprocess.Popen, as prototest did before; `PROTOTEST_NO_KEEPER=1`);
* keeper: the keeper, no PID namespace, no file watch;
* keeper+ns: the keeper and a PID namespace of the bot's own (where the system allows it);
* keeper+ns+files: the same, with the seccomp filter that reports file operations.

1. Per exchange, over whole chess games against the instant replay bot of
   `bench_harness.py` (it reads a line and writes the next move, nothing else):
   the turnaround (answer in -> next request out: prototest's own work per exchange) and
   the answer time prototest charges the bot (request out -> answer in: the bot's pipe
   reads and writes go through the filter when it is on).
2. Start: from the call that starts the bot to its first line, for a Python bot
   (`python3 -c print`) and a shell one (`sh -c echo`), so the keeper's share shows
   against a start-up that is not a Python interpreter's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_harness  # noqa: E402
from prototest.sandbox import keeper, process
from prototest.judge import spec as specmod  # noqa: E402
from prototest.games import rules_module  # noqa: E402
from prototest.judge.referee import GameConfig, Referee  # noqa: E402
from prototest.sandbox.transcript import Transcript  # noqa: E402

NO_FILES = ["severity.file_operation=ignore", "severity.runtime_cache=ignore"]
MODES = {  # name -> (PROTOTEST_NO_KEEPER, PROTOTEST_NO_NAMESPACE, spec overrides)
    "plain": ("1", "1", NO_FILES),
    "keeper": ("", "1", NO_FILES),
    "keeper+ns": ("", "", NO_FILES),
    "keeper+ns+files": ("", "", []),
}


def set_mode(name: str) -> list[str]:
    no_keeper, no_ns, overrides = MODES[name]
    for var, value in (("PROTOTEST_NO_KEEPER", no_keeper), ("PROTOTEST_NO_NAMESPACE", no_ns)):
        if value:
            os.environ[var] = value
        else:
            os.environ.pop(var, None)
    keeper._namespace = None  # probed again under the new setting
    return overrides


def referee(argv: list[str], index: int, overrides: list[str]) -> Referee:
    spec = specmod.load(specmod.spec_path_for("chess"), overrides)
    module = rules_module("chess")
    cfg = GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module, argv=argv,
                     seat=index % 2, seed=index, index=index + 1, start_delay_ms=20,
                     env=process.controlled_env())
    return Referee(cfg)


def exchanges(indexes: range, scripts: list[Path], bot: Path, overrides: list[str]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"turnaround": [], "answer": []}
    for index in indexes:
        report = referee([sys.executable, str(bot), str(scripts[index])], index, overrides).run()
        assert not report.failed, [f.message for f in report.findings]
        out["answer"].extend(ms * 1000 for ms in report.answer_ms)
        requests = [t for t, mark, text in report.transcript.events if mark == ">" and text.count(" ") >= 3]
        for t_answer in (t for t, mark, _ in report.transcript.events if mark == "<"):
            nxt = next((t for t in requests if t > t_answer), None)
            if nxt is not None:
                out["turnaround"].append((nxt - t_answer) / 1000)
    return out


def starts(argv: list[str], count: int, watch: bool) -> list[float]:
    """Milliseconds from starting the bot to reading its first line."""
    times = []
    env = process.controlled_env()
    for _ in range(count):
        t0 = time.perf_counter_ns()
        with process.Bot(argv, env=env, transcript=Transcript(), max_line=256, watch_files=watch) as bot:
            r = bot.read_line(t0 + 10_000_000_000)
            assert r.kind == "line", r
            times.append((r.t_ns - t0) / 1e6)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--starts", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3, help="each mode runs this many times, interleaved")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="prototest-bench-"))
    bot = tmp / "replay_bot.py"
    bot.write_text(bench_harness.REPLAY_BOT)
    set_mode("plain")
    scripts = []
    for index, moves in enumerate(bench_harness.bot_moves(args.games)):
        path = tmp / f"moves-{index}.json"
        path.write_text(json.dumps(moves))
        scripts.append(path)
    figures: dict[str, dict[str, list[float]]] = {m: {"turnaround": [], "answer": [], "py": [], "sh": []}
                                                  for m in MODES}
    rounds: dict[str, list[float]] = {m: [] for m in MODES}  # each round's median turnaround
    for _ in range(args.rounds):  # interleaved game by game: a busy moment of the machine hits every mode
        per_round: dict[str, list[float]] = {m: [] for m in MODES}
        for game in range(args.games):
            for mode in MODES:
                overrides = set_mode(mode)
                for key, values in exchanges(range(game, game + 1), scripts, bot, overrides).items():
                    figures[mode][key] += values
                    if key == "turnaround":
                        per_round[mode] += values
        for mode in MODES:
            rounds[mode].append(statistics.median(per_round[mode]))
            overrides = set_mode(mode)
            watch = not overrides
            figures[mode]["py"] += starts([sys.executable, "-c", "print('ready', flush=True)"], args.starts, watch)
            figures[mode]["sh"] += starts(["/bin/sh", "-c", "echo ready"], args.starts, watch)
    set_mode("keeper+ns")
    print(f"chess, {args.games} games x {args.rounds} rounds per mode, instant replay bot; "
          f"PID namespace here: {keeper.namespace_missing() or 'yes'}")
    print(f"{'mode':<17} {'turnaround':>22} {'rounds':>11} {'answer time charged':>22} "
          f"{'start, python bot':>19} {'start, sh bot':>15}")
    for mode, f in figures.items():
        def fig(values: list[float]) -> str:
            return f"{statistics.median(values):6.0f} us (p90 {bench_harness.percentile(values, 0.9):5.0f})"
        spread = f"{min(rounds[mode]):.0f}-{max(rounds[mode]):.0f} us"
        print(f"{mode:<17} {fig(f['turnaround']):>22} {spread:>11} {fig(f['answer']):>22} "
              f"{statistics.median(f['py']):15.1f} ms {statistics.median(f['sh']):11.1f} ms")
    base, watched = figures["keeper+ns"]["turnaround"], figures["keeper+ns+files"]["turnaround"]
    cost = statistics.median(watched) - statistics.median(base)
    print(f"file-operation watch: {cost:+.1f} us a turnaround ({100 * cost / statistics.median(base):+.1f} %), "
          f"{statistics.median(figures['keeper+ns+files']['answer']) - statistics.median(figures['keeper+ns']['answer']):+.1f} us "
          f"an answer")


if __name__ == "__main__":
    main()
