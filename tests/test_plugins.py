"""Games added by other packages, as `pip install` adds them: a distribution on the path
with an entry point in `prototest.games`. Each test puts a fake distribution (its
`*.dist-info` folder and a module) in a folder of its own, on PYTHONPATH of a fresh
prototest: nothing is installed, and the suite's own interpreter never sees it.

A broken plugin is one line and status 2 when its game is used, and never stops the
other games from working; a hostile game name never becomes a path."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import run_cli

#: The smallest game prototest accepts: Nim with one heap, take 1 or 2, the last to take
#: wins; its spec sends the heap, the bot answers the count it takes.
NIM = '''
from dataclasses import dataclass
from prototest.games.base import IllegalMove, Judged, Outcome, PositionError, Rules, take_options

SPEC = "nim.toml"
BOT = "nim_bot"


@dataclass(frozen=True)
class Heap:
    left: int
    plies: int = 0

    def turn(self): return self.plies % 2
    def ply(self): return self.plies
    def legal_moves(self): return [m for m in ("1", "2") if int(m) <= self.left] if self.left else []
    def play(self, move): return Heap(self.left - int(move), self.plies + 1)
    def outcome(self): return Outcome(1 - self.turn(), "last stone taken") if not self.left else None
    def notation(self): return f"{self.left} {self.plies}"

    def judge(self, move):
        if move not in ("1", "2"):
            raise IllegalMove(move, "take 1 or 2", malformed=True)
        if move not in self.legal_moves():
            raise IllegalMove(move, f"only {self.left} left")
        return Judged(self.play(move), move)


class NimRules(Rules):
    def __init__(self, options):
        self.heap = take_options(options, {"heap": 7})["heap"]

    def initial(self): return Heap(self.heap)

    def parse(self, notation):
        try:
            left, plies = (int(x) for x in notation.split())
        except ValueError:
            raise PositionError("two numbers: the heap and the plies") from None
        if left < 0 or plies < 0:
            raise PositionError("no negative numbers")
        return Heap(left, plies)


def make_rules(options): return NimRules(options)
'''

NIM_SPEC = '''
[game]
name = "{name}"
rules = "{name}"
seats = ["first", "second"]

[read]
line_end = "lf"
strip_cr = true
max_bytes = 100
over_max = "malformed"
decode = "strict"
comment_separator = ""
between_turns = "out_of_turn"

[start]
send = ["{{seat}}"]

[turn]
send = ["{{position}}"]
answer = '^(?P<move>[0-9]+)$'
answer_format = "{{move}}"
on_illegal = "forfeit"

[after_move]
own = []
opponent = []

[time]
answer_ms = 1000
first_answer_ms = 2000

[end]
exit_grace_ms = 1000
'''

NIM_BOT = '''
import sys
sys.stdin.readline()
for line in sys.stdin:
    print(min(2, int(line.split()[0])), flush=True)
'''


def plugin(tmp_path: Path, name: str = "nim", module: str = "nim_rules", rules: str = NIM,
           spec: str | None = NIM_SPEC, dist: str = "prototest-nim", ep_name: str | None = None) -> dict[str, str]:
    """A fake distribution registering `name`; the environment that finds it."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / f"{module}.py").write_text(rules)
    if spec is not None:
        (site / "nim.toml").write_text(spec.format(name=name))
    (site / "nim_bot.py").write_text(NIM_BOT)
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[prototest.games]\n{ep_name or name} = {module}\n")
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def cli(tmp_path: Path, env: dict[str, str], *args: str):
    return run_cli(*args, tmp_path=tmp_path / "run", fresh=True, env=env)


def one_line(result, *phrases: str) -> str:
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr
    assert all(p in line for p in phrases), line
    return line


def test_a_plugin_game_is_listed_and_checked_like_a_built_in_one(tmp_path):
    env = plugin(tmp_path)
    listed = cli(tmp_path, env, "games")
    assert listed.code == 0 and "nim" in listed.stdout and "(from prototest-nim)" in listed.stdout, listed.stdout
    assert "chess" in listed.stdout and "halma" in listed.stdout
    moves = cli(tmp_path, env, "moves", "--game", "nim")
    assert moves.code == 0 and moves.stdout.split() == ["1", "2"], moves.stdout + moves.stderr
    perft = cli(tmp_path, env, "perft", "--game", "nim", "--depth", "3")
    assert perft.code == 0 and perft.stdout.strip().endswith("8"), perft.stdout  # 2 x 2 x 2: the heap of 7 lasts
    checked = cli(tmp_path, env, "check", "--game", "nim", "--games", "2", "--", sys.executable,
                  str(tmp_path / "site" / "nim_bot.py"))
    assert checked.code == 0, checked.stdout + checked.stderr
    assert {g["result"] for g in checked.report["games"]} <= {"win", "loss"}


def test_a_plugin_bot_s_illegal_move_is_a_verdict(tmp_path):
    env = plugin(tmp_path)
    bot = tmp_path / "greedy.py"
    bot.write_text("import sys\nsys.stdin.readline()\nfor line in sys.stdin:\n    print(2, flush=True)\n")
    checked = cli(tmp_path, env, "check", "--game", "nim", "--seat", "first", "--games", "1", "--set", "rules.heap=1",
                  "--", sys.executable, str(bot))  # one stone left: taking 2 is illegal
    assert checked.code == 1, checked.stdout + checked.stderr
    [fail] = checked.findings("fail")
    assert fail["kind"] == "illegal_move" and "only 1 left" in fail["message"], checked.stdout


@pytest.mark.parametrize("ep_name", ["../../evil", "a/b", "x" * 65, "-x"])
def test_a_plugin_s_hostile_game_name_is_refused_and_writes_nothing(tmp_path, ep_name):
    env = plugin(tmp_path, ep_name=ep_name)
    listed = cli(tmp_path, env, "games")
    assert listed.code == 0 and "cannot be used" in listed.stdout and "chess" in listed.stdout, listed.stdout
    one_line(cli(tmp_path, env, "check", "--game", ep_name, "--", sys.executable, "x.py"), "--game", "a game name is")
    assert not (tmp_path / "evil").exists() and not (tmp_path.parent / "evil").exists()


@pytest.mark.parametrize("rules, spec, phrases", [
    ("raise ImportError('no numpy here')", NIM_SPEC, ("cannot be imported", "no numpy here")),
    ("SPEC = 'nim.toml'\nBOT = 'nim_bot'\n", NIM_SPEC, ("has no make_rules",)),
    (NIM.replace('BOT = "nim_bot"', ""), NIM_SPEC, ("has no BOT",)),
    (NIM, None, ("its spec", "nim.toml is not there")),
    (NIM.replace("    def notation(self)", "    def notation_(self)"), NIM_SPEC, ("positions lack notation()",)),
    (NIM + "\nSTYLES = ('greedy',)\n", NIM_SPEC, ("STYLES must start with",)),
    (NIM + "\nMOVE_CLASSES = ('big',)\n", NIM_SPEC, ("MOVE_CLASSES but has no move_kinds",)),
    (NIM.replace("def make_rules(options): return NimRules(options)", "def make_rules(options): return 1 / 0"),
     NIM_SPEC, ("make_rules raised ZeroDivisionError",)),
])
def test_a_broken_plugin_is_one_line_naming_what_is_missing(tmp_path, rules, spec, phrases):
    env = plugin(tmp_path, rules=rules, spec=spec)
    line = one_line(cli(tmp_path, env, "check", "--game", "nim", "--", sys.executable, "x.py"), "nim", *phrases)
    assert len(line) < 300
    listed = cli(tmp_path, env, "games")  # the other games still work
    assert listed.code == 0 and "chess" in listed.stdout and "cannot be used" in listed.stdout, listed.stdout
    checked = cli(tmp_path, env, "moves", "--game", "loa")
    assert checked.code == 0 and checked.stdout.strip(), checked.stderr


def test_a_game_registered_by_two_packages_is_refused(tmp_path):
    env = plugin(tmp_path)
    plugin(tmp_path, dist="other-nim")
    one_line(cli(tmp_path, env, "moves", "--game", "nim"), "registered by more than one package",
             "other-nim", "prototest-nim")


def test_a_plugin_spec_s_name_must_be_a_game_name(tmp_path):
    env = plugin(tmp_path)
    (tmp_path / "site" / "nim.toml").write_text(NIM_SPEC.format(name="nim").replace('name = "nim"', 'name = "../nim"'))
    one_line(cli(tmp_path, env, "moves", "--game", "nim"), "game.name", "a game name is")


def test_a_game_is_looked_up_and_checked_once_a_process():
    """games.game is cached (every game's launch asks it, through the transcript's spec
    line): a merge put the decorator on did_you_mean, added above it, and game lost it."""
    from prototest import games

    assert games.game("chess") is games.game("chess")
