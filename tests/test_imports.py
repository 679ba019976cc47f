"""Each command imports what it uses (issue 22, item 2): a check never imports Hypothesis,
Redis or the fuzz machinery, and `moves`, `perft`, `games` and --help never import the
judge's process machinery. Each run is a fresh interpreter (the suite's fork server,
tests/cli_server.py, has imported everything once, so run_cli cannot show this)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, RUN_TOKEN, bot_env

#: What only `prototest fuzz` (and the library's fuzz_test) may import.
FUZZ_ONLY = ("prototest.play.fuzz", "prototest.play.fuzzrun", "prototest.play.strategies", "prototest.play.exampledb",
             "prototest.play.workers", "prototest.testing", "prototest.commands.fuzz",
             # the fuzz campaign's collaborators (prototest.play.fuzz's docstring names them)
             "prototest.play.plans", "prototest.play.observe", "prototest.play.elites", "prototest.play.alone",
             "prototest.play.probe", "prototest.play.cold", "prototest.play.shrink", "prototest.play.replaycheck",
             "prototest.play.evidence")
#: What a command that plays no game may not import (the judge, its processes and reports).
JUDGE = ("prototest.sandbox.process", "prototest.sandbox.keeper", "prototest.sandbox.linux", "prototest.judge.referee", "prototest.reports.summary",
         "prototest.reports.jsonreport", "prototest.reports.junit",
         "prototest.play.runner", "prototest.play.pool", "prototest.play.fixtures", "pexpect", "multiprocessing")

PROBE = r"""
import json, sys
import prototest.cli
try:
    prototest.cli.main(json.loads(sys.argv[1]))
except SystemExit as exc:
    code = exc.code
else:
    code = None
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def modules_after(*args: str) -> tuple[int | None, list[str]]:
    """The modules loaded by `prototest ARGS` run in-process in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args))], capture_output=True, text=True,
                          env=bot_env(), cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return data["code"], data["modules"]


def test_a_check_imports_neither_hypothesis_nor_redis_nor_the_fuzz_machinery():
    code, modules = modules_after("check", "--game", "chess", "--games", "1", "--start-delay", "0", "-q",
                                  "--env", RUN_TOKEN, "--", sys.executable, "-m", "prototest.bots.chess_bot")
    assert code == 0
    assert "prototest.judge.referee" in modules  # the game was played here
    assert [m for m in modules if m.split(".")[0] in ("hypothesis", "redis") or m in FUZZ_ONLY] == []


@pytest.mark.parametrize("args", [("--help",), ("moves",), ("perft", "--depth", "1"), ("games",),
                                  ("moves", "--game", "halma")])
def test_commands_that_play_no_game_stay_light(args):
    code, modules = modules_after(*args)
    assert code == 0
    assert [m for m in modules if m.split(".")[0] in ("hypothesis", "redis") or m in FUZZ_ONLY + JUDGE] == []


def test_fuzz_plays_its_warm_up_games_before_it_imports_hypothesis():
    """Each worker's first games are drawn as check draws its games (play.plans.WARM_UP of
    them), before Hypothesis's test: a run of fewer examples than that, in this process
    (--jobs 1), never imports Hypothesis; one with workers does not import it in the
    command's own process, before the workers fork."""
    bot = ("--env", RUN_TOKEN, "--", sys.executable, "-m", "prototest.bots.impasse_bot")
    code, modules = modules_after("fuzz", "--game", "impasse", "--no-database", "--jobs", "1", "--examples", "3",
                                  "-q", *bot)
    assert code == 0
    assert "prototest.judge.referee" in modules and "prototest.play.fuzz" in modules  # fuzz played here
    assert [m for m in modules if m.split(".")[0] == "hypothesis"] == []
    code, modules = modules_after("fuzz", "--game", "impasse", "--no-database", "--jobs", "2", "--examples", "12",
                                  "-q", *bot)
    assert code == 0
    assert "prototest.play.workers" in modules
    assert [m for m in modules if m.split(".")[0] == "hypothesis"] == []
