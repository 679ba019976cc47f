"""`prototest fuzz` steered by the bot's own code coverage (prototest.sandbox.coverage,
prototest.play.corpus), through the real CLI against real bot processes.

A Python bot's lines are collected by the sitecustomize prototest injects; the report says
how much of the bot's code the run reached and names the functions it never reached; a bot
with a sitecustomize of its own, or `--coverage off`, runs as before with the same verdict;
a native bot built with gcc's trace-pc and prototest's runtime fills the same map; and the
collector never changes a verdict: a timing failure seen with it is played again without it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BOTS, run_cli
from prototest.sandbox.coverage import CoverageMap, injection, runtime_path
from prototest.sandbox.coverage.shm import line_slots

SEEDED = ("--jobs", "1", "--budget", "0", "--no-database", "--seed", "1")
BRANCHES = str(BOTS / "impasse" / "coverage_branches.py")


def test_report_names_the_functions_never_reached(tmp_path):
    result = run_cli("fuzz", "--game", "impasse", "--examples", "4", *SEEDED, BRANCHES, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    cov = result.report["coverage"]
    assert cov["state"] == "on" and cov["kind"] == "python"
    assert 0 < cov["lines"] < cov["lines_total"]
    assert any(name.endswith(" never_called") for name in cov["unreached_functions"])
    assert "coverage: " in result.stdout and " lines (" in result.stdout
    assert "never reached:" in result.stdout and "coverage_branches.py:" in result.stdout
    assert "never_called" in result.stdout
    # the bot's own helper module counts; prototest's collector and the standard library do not
    assert {f["path"] for f in cov["files"]} == {"coverage_branches.py", "_common.py"}
    # the lines never reached, as a coverage report's Missing column: never_called's body among them
    branches = next(f for f in cov["files"] if f["path"] == "coverage_branches.py")
    body = next(n for n, line in enumerate(BRANCHES_TEXT.splitlines(), 1) if line.strip() == 'return "never"')
    assert any(_spans_hold(f["missing"], body) for f in [branches]), branches


BRANCHES_TEXT = open(BRANCHES, encoding="utf-8").read()


def _spans_hold(missing: str, line: int) -> bool:
    """Whether `12-15, 30` names the line."""
    for span in filter(None, (s.strip() for s in missing.split(","))):
        low, _, high = span.partition("-")
        if int(low) <= line <= int(high or low):
            return True
    return False


def test_missing_lines_run_on_over_lines_that_cannot_run(tmp_path):
    from prototest.sandbox.coverage.pysource import compiled, missing_ranges
    from prototest.sandbox.coverage.shm import slot

    bot = tmp_path / "bot.py"
    bot.write_text("a = 1\nif a:\n    b = 2\n\n    # a comment\n    c = 3\nelse:\n    d = 4\ne = 5\n")
    source = compiled(str(bot))
    assert sorted(source.line_slots) == [1, 2, 3, 6, 8, 9]
    run_lines = {1, 2, 9}
    reached = {slot(str(bot), n) for n in run_lines}
    assert missing_ranges(source, reached) == "3-8"
    assert missing_ranges(source, reached | {slot(str(bot), 6)}) == "3, 8"
    assert missing_ranges(source, set(source.line_slots.values())) == ""


def test_coverage_off_gives_the_same_verdict_without_coverage_lines(tmp_path):
    on = run_cli("fuzz", "--game", "impasse", "--examples", "3", *SEEDED, str(BOTS / "impasse" / "echoes_input.py"),
                 tmp_path=tmp_path / "on")
    off = run_cli("fuzz", "--game", "impasse", "--examples", "3", "--coverage", "off", *SEEDED,
                  str(BOTS / "impasse" / "echoes_input.py"), tmp_path=tmp_path / "off")
    assert on.code == off.code == 1, on.stdout + off.stdout
    kinds = [[f["kind"] for f in r.report["findings"] if f["severity"] == "fail"] for r in (on, off)]
    assert kinds[0] == kinds[1] and kinds[0]
    assert on.report["coverage"]["state"] == "on"
    assert off.report["coverage"] == {"state": "off", "reason": "--coverage off"}
    assert not _coverage_lines(off.stdout)
    passing = run_cli("fuzz", "--game", "impasse", "--examples", "2", "--coverage", "off", *SEEDED, BRANCHES,
                      tmp_path=tmp_path / "pass")
    assert passing.code == 0 and not _coverage_lines(passing.stdout)


def _coverage_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("  coverage", "  never reached"))]


def test_a_bot_with_its_own_sitecustomize_runs_without_coverage(tmp_path):
    own = BOTS / "impasse" / "own_site"
    result = run_cli("fuzz", "--game", "impasse", "--examples", "2", *SEEDED, "--env", f"PYTHONPATH={own}",
                     BRANCHES, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert "coverage off: the bot has a sitecustomize of its own" in result.stdout
    assert result.report["coverage"]["state"] == "off"
    required = run_cli("fuzz", "--game", "impasse", "--examples", "2", "--coverage", "on", *SEEDED,
                       "--env", f"PYTHONPATH={own}", BRANCHES, tmp_path=tmp_path / "on")
    assert required.code == 2
    assert "--coverage on: coverage off: the bot has a sitecustomize of its own" in required.stderr + required.stdout


def test_the_collector_runs_a_sitecustomize_found_on_the_path_instead_of_itself(tmp_path):
    """A sitecustomize prototest could not see beforehand (a virtual environment's): the
    collector finds it at the bot's start, runs it as before, records nothing and says why."""
    cmap = CoverageMap()
    try:
        env = injection([sys.executable, BRANCHES], {}, str(tmp_path)).env(cmap)
        env["PYTHONPATH"] += os.pathsep + str(BOTS / "impasse" / "own_site")
        env["PATH"] = os.environ["PATH"]
        cmap.reset()
        out = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('OWN_SITECUSTOMIZE_RAN'))"],
                             env=env, capture_output=True, text=True, timeout=60, check=True)
        assert out.stdout == "1\n" and out.stderr == ""
        cmap.read_index()
        assert cmap.off is not None and "sitecustomize of its own" in cmap.off
        assert cmap.take() == ()
    finally:
        cmap.close()


@pytest.mark.parametrize("argv, off", [
    (["python3", "-I", "bot.py"], "-I (isolated mode)"),
    (["python3", "-uS", "bot.py"], "-S"),
    (["/usr/bin/env", "python3", "-E", "bot.py"], "-E"),
    (["python3", "bot.py"], None),
    (["python3", "-m", "bot"], None),
])
def test_which_python_bots_the_collector_can_serve(argv, off):
    found = injection(argv, {}, "/tmp")
    if off is None:
        assert found.kind == "python" and found.off is None
    else:
        assert found.kind is None and off in found.off


def test_a_timing_failure_seen_with_coverage_is_checked_again_without_it(tmp_path):
    """The bot is late only when the coverage map is named in its environment (a stand-in
    for the collector's cost): played again alone without the collector, the failure does
    not come back, and alone with it, it does: so it is the collector's cost, no failure and
    no busy-machine warning either."""
    bot = str(BOTS / "impasse" / "slow_under_coverage.py")
    result = run_cli("fuzz", "--game", "impasse", "--examples", "2", *SEEDED, bot, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    report = result.report
    assert report["passed"] and not [f for f in report["findings"] if f["kind"] in ("timeout", "busy_machine")]
    assert report["rechecked_alone"] and all(r["coverage"] and r["alone"] == "not without coverage"
                                             for r in report["rechecked_alone"])
    assert report["coverage"]["timing_rechecked"] >= 1
    assert "did not come back without it: not counted against the bot" in result.stdout
    assert "again with coverage, not without it: the collector's cost" in result.stdout
    off = run_cli("fuzz", "--game", "impasse", "--examples", "2", "--coverage", "off", *SEEDED, bot,
                  tmp_path=tmp_path / "off")
    assert off.code == 0 and not off.report["rechecked_alone"]


def _compiler() -> str | None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None and os.environ.get("PROTOTEST_REQUIRE_CC") == "1":
        pytest.fail("PROTOTEST_REQUIRE_CC=1 and no gcc on PATH")
    return cc


def test_a_native_bot_built_with_the_runtime_is_fuzzed_with_coverage(tmp_path):
    cc = _compiler()
    if cc is None:
        pytest.skip("no gcc (PROTOTEST_REQUIRE_CC=1 makes this a failure)")
    printed = run_cli("coverage-runtime")
    assert printed.code == 0 and printed.stdout.strip() == str(runtime_path())
    bot = tmp_path / "first_move"
    subprocess.run([cc, "-O1", "-fsanitize-coverage=trace-pc", str(BOTS / "impasse" / "first_move.c"),
                    printed.stdout.strip(), "-o", str(bot)], check=True, timeout=120)
    result = run_cli("fuzz", "--game", "impasse", "--examples", "3", "--coverage", "on", *SEEDED, str(bot),
                     tmp_path=tmp_path / "run")
    assert result.code == 0, result.stdout + result.stderr
    cov = result.report["coverage"]
    assert cov["state"] == "on" and cov["kind"] == "native" and cov["slots"] > 5
    assert "coverage (native): " in result.stdout
    # the same bot built without the runtime gives none, and says how to have it
    plain = tmp_path / "plain"
    subprocess.run([cc, "-O1", str(BOTS / "impasse" / "first_move.c"), "-o", str(plain)], check=True, timeout=120)
    none = run_cli("fuzz", "--game", "impasse", "--examples", "2", *SEEDED, str(plain), tmp_path=tmp_path / "plain-run")
    assert none.code == 0 and "coverage off: the bot reported no coverage" in none.stdout
    required = run_cli("fuzz", "--game", "impasse", "--examples", "2", "--coverage", "on", *SEEDED, str(plain),
                       tmp_path=tmp_path / "plain-on")
    assert required.code == 2 and "--coverage on: coverage off: the bot reported no coverage" in (
        required.stdout + required.stderr)


def _monitored() -> list[str]:
    """An interpreter with sys.monitoring (3.12+) on this machine, if one runs (a pyenv shim
    may name a version it will not run)."""
    for name in ("python3.14", "python3.13", "python3.12"):
        path = shutil.which(name)
        if path is None:
            continue
        try:
            subprocess.run([path, "-c", "import sys; sys.monitoring"], capture_output=True, timeout=30, check=True)
        except (OSError, subprocess.SubprocessError):
            continue
        return [path]
    return []


MONITORED = _monitored()


@pytest.mark.parametrize("python", [sys.executable, *MONITORED[:1]])
def test_the_collector_records_each_line_of_the_bots_own_code_once(tmp_path, python):
    """Compiled with stores (this interpreter, before 3.12) or sys.monitoring (3.12 and later):
    the slots each answer reached, then none again for the same input, and only slots
    that prototest's side names as the bot's lines."""
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\n\ndef rare(x):\n    return x * 2\n\ndef main():\n    for line in sys.stdin:\n"
                   "        if line.strip() == 'rare':\n            print(rare(3), flush=True)\n"
                   "        else:\n            print('ok', flush=True)\n\nmain()\n")
    from prototest.sandbox.coverage.pysource import compiled

    cmap = CoverageMap()
    try:
        env = {"PATH": os.environ["PATH"], **injection([python, str(bot)], {}, str(tmp_path)).env(cmap)}
        cmap.reset()
        proc = subprocess.Popen([python, str(bot)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, text=True)
        new = []
        for line in ("a", "a", "rare"):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            assert proc.stdout.readline().strip() in ("ok", "6")
            new.append(set(cmap.take()))
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0 and proc.stderr.read() == ""
        cmap.read_index()
        assert cmap.files == [str(bot)]
        source = compiled(str(bot))
        rare = next(f for f in source.functions if f.name == "rare")
        assert new[0] and not new[1] and rare.slots <= new[2]
        assert set().union(*new) <= source.slots
    finally:
        cmap.close()


def test_a_map_left_by_a_process_killed_outright_is_removed_by_the_next(tmp_path):
    """A prototest killed with SIGKILL cannot remove its map's folder under /dev/shm: the
    next map made anywhere removes the folders of every pid that is gone."""
    made = subprocess.run([sys.executable, "-c", "import os, sys; from prototest.sandbox.coverage import "
                           "CoverageMap; sys.stdout.write(CoverageMap().folder); sys.stdout.flush(); os._exit(0)"],
                          capture_output=True, text=True, check=True).stdout
    assert os.path.isdir(made)
    live = CoverageMap()
    try:
        assert not os.path.exists(made) and os.path.isdir(live.folder)
    finally:
        live.close()
    assert not os.path.exists(live.folder)


#: A plain tracer: runs a script (argv after the root) as __main__, and writes the
#: (file, line) pairs of the root's files it saw run, as JSON, to the file named first.
_TRACER = """
import json, runpy, sys
out, root = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[3:]
sys.path.insert(0, root)
seen = set()
def local(frame, event, arg):
    if event == "line":
        seen.add((frame.f_code.co_filename, frame.f_lineno))
    return local
sys.settrace(lambda frame, event, arg: local if frame.f_code.co_filename.startswith(root) else None)
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except BaseException:
    pass
finally:
    sys.settrace(None)
    with open(out, "w") as fh:
        json.dump(sorted(seen), fh)
"""


def _collected_run(tmp_path, script, *args, values=False):
    """Runs `script` with the collector as prototest injects it (`values`: as
    `fuzz --value-profile` does); (the run, the map, the index)."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    from prototest.sandbox.coverage import collector

    shutil.copy(collector.__file__, site / "sitecustomize.py")
    cmap, index = tmp_path / "map", tmp_path / "index"
    cmap.write_bytes(bytes(1 << 16))
    index.write_text("")
    env = dict(os.environ, PYTHONPATH=str(site), PROTOTEST_COVERAGE_MAP=str(cmap),
               PROTOTEST_COVERAGE_INDEX=str(index), PROTOTEST_COVERAGE_ROOT=str(script.parent))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PROTOTEST_COVERAGE_VALUES", None)
    if values:
        env["PROTOTEST_COVERAGE_VALUES"] = "1"
    done = subprocess.run([sys.executable, str(script), *args], env=env, cwd=script.parent, capture_output=True,
                          text=True, timeout=60)
    return done, cmap.read_bytes(), index.read_text()


@pytest.mark.skipif(hasattr(sys, "monitoring"), reason="the collector before Python 3.12 (after: sys.monitoring)")
@pytest.mark.parametrize("args", [(), ("crash",)], ids=["exits", "crashes"])
def test_before_312_the_collector_compiles_the_bots_files_and_records_what_a_tracer_sees(tmp_path, args):
    """Before 3.12 the bot's own files are compiled with a store before each statement, and
    nothing is traced: the bot prints, exits and crashes (its traceback) exactly as without
    the collector; the lines recorded are those a plain tracer sees run, in the main script
    and in its own module, and none of the standard library's."""
    from prototest.sandbox.coverage.pysource import compiled

    bot = tmp_path / "bot"
    shutil.copytree(BOTS / "python", bot, ignore=shutil.ignore_patterns("__pycache__"))
    done, cmap, index = _collected_run(tmp_path, bot / "statements.py", *args)
    assert not (bot / "__pycache__").exists()  # the code compiled with stores is never cached
    plain = subprocess.run([sys.executable, str(bot / "statements.py"), *args], cwd=bot, capture_output=True,
                           text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert done.returncode == (1 if args else 0) and "neg zero odd even" in done.stdout
    assert ("RuntimeError: asked to crash" in done.stderr) == bool(args)
    assert sorted(index.splitlines()) == [f"F\t{bot / 'statements.py'}", f"F\t{bot / 'statements_helper.py'}"]
    traced = tmp_path / "traced.json"
    subprocess.run([sys.executable, "-c", _TRACER, str(traced), str(bot), str(bot / "statements.py"), *args],
                   cwd=bot, check=True, timeout=60)
    seen = json.loads(traced.read_text())
    for name in ("statements.py", "statements_helper.py"):
        source = compiled(str(bot / name))
        recorded = {line for line, slot in source.line_slots.items() if cmap[slot]}
        assert recorded == {line for path, line in seen if path == str(bot / name)} & set(source.line_slots)
        assert recorded and recorded != set(source.line_slots)  # never_called, unused
    every = set().union(*(compiled(str(bot / n)).slots for n in ("statements.py", "statements_helper.py")))
    lines = {i for i, byte in enumerate(cmap[:line_slots()]) if byte}
    assert lines == every & lines  # the lines' part: the two files' lines only
    assert not any(cmap[line_slots():])  # no values compared unless asked (`fuzz --value-profile`)


@pytest.mark.skipif(hasattr(sys, "monitoring"), reason="the collector before Python 3.12 (after: sys.monitoring)")
def test_before_312_nothing_is_traced_and_a_library_is_not_recorded(tmp_path):
    """No tracer is on while the bot runs (a library's calls cost nothing), a library's
    import is as without the collector, and the bot's own module is recorded."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "helper.py").write_text("X = 1\n\n\ndef f():\n    return 2\n")
    (bot / "main.py").write_text("import sys\nimport json.decoder\nimport helper\n"
                                 "print(helper.f(), sys.gettrace(), json.decoder.__name__)\n")
    done, cmap, index = _collected_run(tmp_path, bot / "main.py")
    assert done.stdout.split() == ["2", "None", "json.decoder"], done.stdout + done.stderr
    assert sorted(index.splitlines()) == [f"F\t{bot / 'helper.py'}", f"F\t{bot / 'main.py'}"]
    # main.py's 4 lines, helper.py's 3 (X = 1, def f, return 2): no library line among them
    assert sum(cmap) == 7


@pytest.mark.skipif(hasattr(sys, "monitoring"), reason="the collector before Python 3.12 (after: sys.monitoring)")
def test_before_312_a_module_not_the_bots_is_searched_for_on_the_path_once(tmp_path):
    """The collector's finder hands on the spec the path's finder gave it for a module
    that is not the bot's own, so each import searches the path once, as without the
    collector; the bot's own module is searched once too, and is recorded."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "helper.py").write_text("X = 1\n")
    (bot / "main.py").write_text(
        "import importlib.machinery as m\n"
        "searched = []\n"
        "find = m.PathFinder.find_spec\n"
        "def counted(name, path=None, target=None):\n"
        "    searched.append(name)\n"
        "    return find(name, path, target)\n"
        "m.PathFinder.find_spec = counted\n"
        "import colorsys, helper\n"
        "m.PathFinder.find_spec = find\n"
        "print(searched.count('colorsys'), searched.count('helper'), helper.X)\n")
    plain = subprocess.run([sys.executable, str(bot / "main.py")], cwd=bot, capture_output=True, text=True, timeout=60)
    done, cmap, index = _collected_run(tmp_path, bot / "main.py")
    assert plain.stdout.split() == ["1", "1", "1"], plain.stdout + plain.stderr
    assert done.stdout.split() == ["1", "1", "1"], done.stdout + done.stderr
    assert f"F\t{bot / 'helper.py'}" in index.splitlines()


def test_corpus_energy_goes_to_the_entry_whose_new_code_few_examples_reach():
    """The first game brings many new lines that every game reaches; an entry that first
    reached a rare line (a bot's mode entered after another rare branch) gets more energy,
    and less each time it is picked."""
    from collections import Counter

    from prototest.play.corpus import Entry
    from prototest.play.elites import Elite

    elite = Elite(0, (), (), 3, 1.0)
    first = Entry(elite, 300, frozenset(range(300)))
    deep = Entry(elite, 1, frozenset({1000}))
    hits = Counter({s: 50 for s in range(300)})
    hits[1000] = 2
    assert deep.weight(hits) > 10 * first.weight(hits)
    picked = Entry(elite, 1, frozenset({1000}), picked=3)
    assert picked.weight(hits) < deep.weight(hits)


def test_merged_shards_keep_the_union_of_the_lines_reached():
    from prototest.reports.merge import merged_coverage

    def shard(reached, unreached, missing):
        return {"state": "on", "kind": "python", "slots": len(reached), "runs": 3, "new_examples": 1, "corpus": 1,
                "timing_rechecked": 0, "lines": len(reached), "lines_total": 10,
                "files": [{"path": "bot.py", "lines": len(reached), "total": 10, "missing": missing,
                           "unreached_functions": len(unreached), "reached": reached}],
                "unreached_functions": unreached, "unreached_count": len(unreached)}

    out = merged_coverage([shard([1, 2, 3], ["bot.py:7 rare", "bot.py:9 rarer"], "5-9"),
                           shard([2, 5], ["bot.py:9 rarer"], "1, 3, 7-9")])
    assert out["files"][0]["reached"] == [1, 2, 3, 5] and out["lines"] == 4 and out["runs"] == 6
    assert out["files"][0]["missing"] == "7-9"
    assert out["unreached_functions"] == ["bot.py:9 rarer"] and out["unreached_count"] == 1
    assert merged_coverage([{"state": "off", "reason": "--coverage off"}] * 2)["state"] == "off"


def test_workers_share_their_corpus_entries_and_skip_a_line_cut_short(tmp_path):
    """`fuzz --jobs`: an entry one worker keeps reaches the others (not itself), once; a
    line a failed write cut short is skipped, not an error that stops the worker."""
    from prototest.play.corpus import SharedCorpus
    from prototest.play.elites import Elite

    first, second = SharedCorpus(tmp_path, 0), SharedCorpus(tmp_path, 1)
    elite = Elite(1, ("e2e4",), ("e7e5", "g8f6"), 2, 3.0)
    first.publish(elite, frozenset({5, 9}))
    assert first.take() == []
    (tmp_path / "0.jsonl").open("a").write('{"seat": 1, "start": [\n')  # cut short, then a new line
    first.publish(elite, frozenset({7}))
    taken = second.take()
    assert [(e.seat, e.start_moves, e.opponent_moves, e.reached_after, slots) for e, slots in taken] == [
        (1, ("e2e4",), ("e7e5", "g8f6"), 2, frozenset({5, 9})), (1, ("e2e4",), ("e7e5", "g8f6"), 2, frozenset({7}))]
    assert second.take() == []


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_a_file_compiled_ahead_is_loaded_by_the_collector_only_while_it_is_the_same_file(tmp_path):
    """prototest compiles a file the collector named (codecache) and the bot's next start
    loads it instead of compiling: the map comes out as the collector's own compile gives
    it. A file changed since (its mtime) is compiled by the collector again, as before."""
    from prototest.sandbox.coverage import codecache

    bot, helper = tmp_path / "bot.py", tmp_path / "helper.py"
    bot.write_text("import helper\nprint(helper.WORD, flush=True)\n")
    helper.write_text("WORD = 'aaaa'\n")
    cmap = CoverageMap()
    try:
        env = {"PATH": os.environ["PATH"], **injection([sys.executable, str(bot)], {}, str(tmp_path)).env(cmap)}

        def run() -> tuple[str, bytes]:
            cmap.reset()
            done = subprocess.run([sys.executable, str(bot)], env=env, cwd=tmp_path, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == 0 and done.stderr == ""
            return done.stdout.strip(), bytes(cmap._mm[:])

        said, own_compile = run()
        cmap.read_index()
        assert said == "aaaa" and sorted(cmap.files) == sorted([str(bot), str(helper)])
        assert all(codecache.compile_ahead(cmap.folder, path, cmap.size) for path in cmap.files)
        assert run() == ("aaaa", own_compile)  # the same slots, from the code compiled ahead

        # The same size and mtime, another text: the code compiled ahead is what runs.
        stat = helper.stat()
        helper.write_text("WORD = 'bbbb'\n")
        os.utime(helper, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        assert run()[0] == "aaaa"
        # Another mtime: the collector compiles the file itself.
        os.utime(helper, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        assert run()[0] == "bbbb"
    finally:
        cmap.close()


def test_the_collector_is_given_to_the_bot_already_compiled_for_this_python(tmp_path):
    """The collector copied for the bot comes with bytecode this interpreter accepts for the
    copy (prototest's own, where it is up to date, or compiled there): no start of the bot
    compiles it."""
    bot = tmp_path / "bot.py"
    bot.write_text("pass\n")
    cmap = CoverageMap()
    try:
        env = injection([sys.executable, str(bot)], {}, str(tmp_path)).env(cmap)
        site = Path(env["PYTHONPATH"].split(os.pathsep)[0])
        done = subprocess.run([sys.executable, "-v", str(bot)], env={**os.environ, **env}, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0
        assert f"{site / '__pycache__'}/sitecustomize.{sys.implementation.cache_tag}.pyc matches {site}/sitecustomize.py" \
            in done.stderr
    finally:
        cmap.close()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_the_first_run_loads_the_main_script_and_the_modules_it_imports_from_its_folder(tmp_path):
    """Before any run, the main script's own text names what it compiles: the script and the
    modules of its folder it imports (the standard library's and missing ones left out).
    Compiled ahead, the bot's very first start loads them and compiles nothing."""
    from prototest.sandbox.coverage import codecache

    bot, helper, other = tmp_path / "bot.py", tmp_path / "helper.py", tmp_path / "other.py"
    bot.write_text("import os, helper\nfrom other import WORD as OTHER\n"
                   "try:\n    import missing_one\nexcept ImportError:\n    pass\n"
                   "print(helper.WORD, OTHER, flush=True)\n")
    helper.write_text("WORD = 'aaaa'\n")
    other.write_text("WORD = 'cccc'\n")
    injected = injection([sys.executable, str(bot)], {}, str(tmp_path))
    assert injected.script == str(bot)
    assert codecache.first_files(str(bot)) == [str(bot), str(helper), str(other)]
    cmap = CoverageMap()
    try:
        assert all(codecache.compile_ahead(cmap.folder, path, cmap.size) for path in codecache.first_files(str(bot)))
        stat = helper.stat()
        helper.write_text("WORD = 'bbbb'\n")  # the same size and mtime: only code ahead still says aaaa
        os.utime(helper, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        env = {"PATH": os.environ["PATH"], **injected.env(cmap)}
        cmap.reset()
        done = subprocess.run([sys.executable, str(bot)], env=env, cwd=tmp_path, capture_output=True, text=True,
                              timeout=60)
        assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "aaaa cccc", "")
        cmap.read_index()
        assert sorted(cmap.files) == sorted(map(str, (bot, helper, other)))
    finally:
        cmap.close()


def _coverage_of(bot: Path, values: bool = False):
    """fuzz's coverage (prototest.play.corpus.Coverage) of a campaign on the Python bot
    `bot`, with as much of a campaign as it reads."""
    from types import SimpleNamespace

    from prototest.play.corpus import Coverage

    run = SimpleNamespace(coverage_runs=0, coverage_reached=set(), coverage_files=[], coverage_new=0)
    target = SimpleNamespace(argv=[sys.executable, str(bot)], env={}, cwd=str(bot.parent))
    return Coverage(SimpleNamespace(target=target, options=SimpleNamespace(coverage="on", values=values), run=run))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_a_campaign_compiles_the_first_runs_files_before_its_first_run(tmp_path):
    """fuzz's coverage set-up compiles the main script's files before the bot's first start
    (what the test above then shows the bot loading)."""
    from prototest.sandbox.coverage import codecache

    bot, helper = tmp_path / "bot.py", tmp_path / "helper.py"
    bot.write_text("import helper\n")
    helper.write_text("WORD = 1\n")
    coverage = _coverage_of(bot)
    try:
        assert coverage.setup() is not None
        assert sorted(os.listdir(os.path.join(coverage.map.folder, "code"))) == sorted(
            codecache.file_name(str(p)) for p in (bot, helper))
    finally:
        coverage.map.close()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_after_a_few_runs_the_lines_every_run_reached_lose_their_stores(tmp_path):
    """Once COMMON_AFTER runs with coverage all reached a line, the code compiled ahead has
    no store for it: a later start of the bot sets only the slots of the lines not every
    run reached, runs as before, and the common lines count as reached by it."""
    from types import SimpleNamespace

    from prototest.play.corpus import COMMON_AFTER
    from prototest.sandbox.coverage.shm import slot

    bot = tmp_path / "bot.py"
    bot.write_text("import os\n\n\ndef hot(n):\n    total = 0\n    for i in range(n):\n        total += i\n"
                   "    return total\n\n\nprint(hot(10), flush=True)\nif os.path.exists('rare'):\n"
                   "    print('rare', flush=True)\n")
    coverage = _coverage_of(bot)
    run = coverage.campaign.run

    def once() -> tuple[str, set[int]]:
        env, cmap = coverage.setup()
        done = subprocess.run([sys.executable, str(bot)], env={"PATH": os.environ["PATH"], **env}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stderr == ""
        reached = {i for i, byte in enumerate(cmap._mm[:]) if byte}
        report = SimpleNamespace(coverage=[], plies=0, answer_ms=[1.0], startup_ms=None, moves=[], positions=[])
        coverage.after(SimpleNamespace(report=report, start_moves=[], mode="probe", max_turns=None, seat=0,
                                       opponent_moves=[]))
        return done.stdout.split(), reached

    lines = {n: slot(str(bot), n) for n in (1, 4, 5, 6, 7, 8, 11, 12, 13)}
    try:
        for _ in range(COMMON_AFTER):
            assert once() == (["45"], {lines[n] for n in (1, 4, 5, 6, 7, 8, 11, 12)})
        assert not coverage.common
        (tmp_path / "rare").write_text("")
        said, reached = once()
        assert coverage.common == {lines[n] for n in (1, 4, 5, 6, 7, 8, 11, 12)}
        assert said == ["45", "rare"] and reached == {lines[13]}  # only the line not every run reached
        assert all(coverage.hits[lines[n]] == COMMON_AFTER + 1 for n in (1, 4, 5, 6, 7, 8, 11, 12))
        assert coverage.hits[lines[13]] == 1 and lines[13] in run.coverage_reached
    finally:
        coverage.map.close()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_an_empty_module_of_the_bots_is_compiled_ahead_and_loaded(tmp_path):
    """An empty module the main script imports (an `__init__.py`, a placeholder) is
    compiled ahead like any other, and the bot runs as without the collector."""
    bot, empty = tmp_path / "bot.py", tmp_path / "empty.py"
    bot.write_text("import empty\nprint(empty.__name__, flush=True)\n")
    empty.write_text("")
    coverage = _coverage_of(bot)
    try:
        env, cmap = coverage.setup()
        done = subprocess.run([sys.executable, str(bot)], env={"PATH": os.environ["PATH"], **env}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "empty", "")
        cmap.read_index()
        assert sorted(cmap.files) == sorted([str(bot), str(empty)])
    finally:
        coverage.map.close()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_a_file_whose_path_is_too_long_to_name_is_left_to_the_collector(tmp_path):
    """The code compiled ahead is named by the file's escaped path; where that is too long
    for a file's name, nothing is compiled ahead and the collector compiles the file itself:
    its lines are recorded as ever."""
    from prototest.sandbox.coverage import codecache
    from prototest.sandbox.coverage.shm import slot

    folder = tmp_path / ("a" * 150) / ("b" * 150)
    folder.mkdir(parents=True)
    bot = folder / "bot.py"
    bot.write_text("print('ran', flush=True)\n")
    coverage = _coverage_of(bot)
    try:
        env, cmap = coverage.setup()
        assert not os.path.exists(os.path.join(cmap.folder, "code", codecache.file_name(str(bot))))
        done = subprocess.run([sys.executable, str(bot)], env={"PATH": os.environ["PATH"], **env}, cwd=folder,
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "ran", "")
        assert cmap._mm[slot(str(bot), 1)] == 1
    finally:
        coverage.map.close()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_code_compiled_ahead_is_kept_between_campaigns_for_the_same_text(tmp_path, monkeypatch):
    """The instrumented code of a file compiled with every store is kept in the cache folder:
    a later campaign (another map's folder) on the same text loads it and compiles nothing,
    and gives the very file its own compile gives; another text, path or map size compiles
    again; code without some stores (lines every run reached) is never kept; a cache entry
    cut short is compiled again; PROTOTEST_CACHE_DIR set empty keeps nothing."""
    from prototest.sandbox.coverage import codecache, collector

    cache = tmp_path / "cache"
    monkeypatch.setenv("PROTOTEST_CACHE_DIR", str(cache))
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n")
    compiles: list[str] = []
    real = collector._instrumented

    def counted(*args, **kwargs):
        compiles.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(collector, "_instrumented", counted)

    def ahead(folder: Path, size: int = 1 << 16, skip: frozenset[int] = frozenset()) -> bytes:
        assert codecache.compile_ahead(str(folder), str(bot), size, skip)
        return (folder / "code" / codecache.file_name(str(bot))).read_bytes()

    first = ahead(tmp_path / "one")
    assert compiles == [str(bot)] and len(os.listdir(cache / "coverage-code")) == 1
    assert ahead(tmp_path / "two") == first and compiles == [str(bot)]  # loaded, not compiled

    monkeypatch.setenv("PROTOTEST_CACHE_DIR", "")
    assert ahead(tmp_path / "fresh") == first and len(compiles) == 2  # the cache's code is its own compile's
    monkeypatch.setenv("PROTOTEST_CACHE_DIR", str(cache))

    assert ahead(tmp_path / "size", size=1 << 12) != first and len(compiles) == 3
    assert ahead(tmp_path / "skip", skip=frozenset({1})) and len(compiles) == 4
    assert ahead(tmp_path / "skip2", skip=frozenset({1})) and len(compiles) == 5  # never kept
    assert len(os.listdir(cache / "coverage-code")) == 2

    stat = bot.stat()
    bot.write_text(bot.read_text().replace("strip", "upper"))
    os.utime(bot, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same mtime: only the text tells
    changed = ahead(tmp_path / "changed")
    assert len(compiles) == 6 and changed != first
    assert ahead(tmp_path / "changed2") == changed and len(compiles) == 6

    for n, cut in enumerate((-5, 40), start=7):  # its code cut short, then its head
        for entry in (cache / "coverage-code").iterdir():
            entry.write_bytes(entry.read_bytes()[:cut])
        assert ahead(tmp_path / f"cut{n}") == changed and len(compiles) == n

    monkeypatch.setenv("PROTOTEST_CACHE_DIR", "")
    assert codecache.cache_folder() is None


def test_the_cache_between_campaigns_keeps_only_the_entries_used_last(tmp_path, monkeypatch):
    """Past CACHE_ENTRIES files, those used longest ago are dropped when a new one is kept;
    loading an entry counts as a use."""
    from prototest.sandbox.coverage import codecache

    monkeypatch.setenv("PROTOTEST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(codecache, "CACHE_ENTRIES", 3)
    for i in range(5):
        bot = tmp_path / f"bot{i}.py"
        bot.write_text(f"X = {i}\n")
        assert codecache.compile_ahead(str(tmp_path / "map"), str(bot), 1 << 16)
        os.utime(next(p for p in (tmp_path / "cache" / "coverage-code").iterdir()
                      if p.read_bytes().find(f"X = {i}".encode()) >= 0), ns=(i * 10**9, i * 10**9))
    kept = sorted(re.search(rb"X = \d", p.read_bytes()).group() for p in (tmp_path / "cache" / "coverage-code").iterdir())
    assert kept == [b"X = 2", b"X = 3", b"X = 4"]
    assert codecache.compile_ahead(str(tmp_path / "map"), str(tmp_path / "bot2.py"), 1 << 16)  # loaded: used now
    fresh = tmp_path / "bot5.py"
    fresh.write_text("X = 5\n")
    assert codecache.compile_ahead(str(tmp_path / "map"), str(fresh), 1 << 16)
    kept = sorted(re.search(rb"X = \d", p.read_bytes()).group() for p in (tmp_path / "cache" / "coverage-code").iterdir())
    assert kept == [b"X = 2", b"X = 4", b"X = 5"]


@pytest.mark.skipif(hasattr(sys, "monitoring"), reason="the collector before Python 3.12 (after: sys.monitoring)")
def test_before_312_the_values_a_branch_compares_set_a_slot_for_each_distance(tmp_path):
    """A comparison in a branch's test goes through the collector's compare: the branch is
    taken as before (ints, bools, strings, a comparison that raises, operands evaluated once
    and in order, chained comparisons untouched), and two compared integers set a slot in
    the map's last quarter for each bit length of their difference, so a run that brings a
    count closer to the value that flips the branch sets a slot no run set before."""
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import sys\n"
        "calls = []\n"
        "def f(v):\n"
        "    calls.append(v)\n"
        "    return v\n"
        "n = int(sys.argv[1])\n"
        "out = []\n"
        "for left in range(12, n - 1, -1):\n"
        "    if f(left) <= f(4):\n"
        "        out.append('low')\n"
        "out.append('t' if True == 1 else 'f')\n"
        "out.append('s' if 'a' < 'b' else 'n')\n"
        "out.append('c' if 1 < 2 < 100 else 'x')\n"
        "extra = []\n"
        "while not len(extra) > 2:\n"
        "    extra.append('w')\n"
        "print(' '.join(out + extra), len(calls), calls[:4])\n"
        "if sys.argv[2:]:\n"
        "    if 'a' < 3:\n"
        "        pass\n")
    values = {}
    for n in (12, 8, 5, 4):
        done, cmap, _ = _collected_run(tmp_path, bot, str(n), values=True)
        values[n] = {i for i, byte in enumerate(cmap[line_slots():]) if byte}
        for args in ((str(n),), (str(n), "raise")):
            done, _, _ = _collected_run(tmp_path, bot, *args, values=True)
            plain = subprocess.run([sys.executable, str(bot), *args], capture_output=True, text=True, timeout=60)
            assert (done.returncode, done.stdout, done.stderr.replace(str(bot), "")) == (
                plain.returncode, plain.stdout, plain.stderr.replace(str(bot), ""))
    assert "TypeError: '<' not supported" in plain.stderr  # the comparison that raises, raised, from the bot's line
    assert values[12] < values[8] < values[5] < values[4]  # 12 - 4 = 8; then 4 to 7; 1; 0
    assert len(values[8] - values[12]) == 1 and len(values[4] - values[5]) == 1  # one new distance each


@pytest.mark.skipif(hasattr(sys, "monitoring"), reason="the collector before Python 3.12 (after: sys.monitoring)")
def test_value_profile_is_asked_for_and_said(tmp_path):
    """`--value-profile` records the values the bot's branches compare (the summary says
    runs reached "new code, or a new distance between compared values", the JSON
    `values`); without it, none is recorded and the report says new code only; with
    `--coverage off` it is a usage error, one line."""
    asked = run_cli("fuzz", "--game", "impasse", "--examples", "3", *SEEDED, "--value-profile", BRANCHES,
                    tmp_path=tmp_path / "asked")
    assert asked.code == 0, asked.stdout + asked.stderr
    assert asked.report["coverage"]["values"] is True
    assert "new code, or a new distance between compared values" in asked.stdout
    plain = run_cli("fuzz", "--game", "impasse", "--examples", "3", *SEEDED, BRANCHES, tmp_path=tmp_path / "plain")
    assert plain.code == 0 and plain.report["coverage"]["values"] is False
    assert "reached new code (" in plain.stdout and "distance" not in plain.stdout
    off = run_cli("fuzz", "--game", "impasse", "--coverage", "off", "--value-profile", *SEEDED, BRANCHES,
                  tmp_path=tmp_path / "off")
    assert off.code == 2 and off.stderr.strip().splitlines() == [
        "prototest: error: --value-profile: it steers by coverage, which --coverage off turns off"], off.stderr


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="sys.monitoring compiles nothing: no code to load ahead")
def test_code_compiled_ahead_with_the_comparisons_is_loaded_only_by_a_bot_that_records_them(tmp_path, monkeypatch):
    """The code compiled ahead with the comparisons (`--value-profile`) and without them
    are told apart, in the campaign's folder and in the cache between campaigns: a bot
    collecting lines only never loads the first, nor a bot recording values the second."""
    import os as _os

    from prototest.sandbox.coverage import codecache, collector

    monkeypatch.setenv("PROTOTEST_CACHE_DIR", str(tmp_path / "cache"))
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nif len(sys.argv) > 3:\n    print('many')\n")

    def names(code):
        out = set(code.co_names)
        for const in code.co_consts:
            if hasattr(const, "co_names"):
                out |= names(const)
        return out

    folders = {}
    for values in (False, True):
        folder = tmp_path / f"map-{values}"
        folder.mkdir()
        assert codecache.compile_ahead(str(folder), str(bot), 1 << 16, values=values)
        folders[values] = str(folder)
    for values, folder in folders.items():
        for bot_values in (False, True):
            code = collector._ahead(_os, folder, 1 << 16, bot_values)(str(bot))
            assert (code is not None) == (values == bot_values)
            if code is not None:
                assert (collector._PAIR_NAME in names(code)) == values
    kept = sorted(p.name for p in (tmp_path / "cache" / "coverage-code").iterdir())
    assert len(kept) == 2  # one entry each: a later campaign of either kind loads its own


def test_entries_of_values_only_get_their_share_of_the_picks_not_more(tmp_path):
    """An entry whose new slots are all values compared (the map's last quarter) is picked
    in VALUE_SHARE of the picks while entries of new lines are kept too, however rare its
    values: a count coming closer to its branch never takes the search from new code. Alone,
    it gets every pick."""
    import random

    from prototest.play.corpus import VALUE_SHARE, Entry
    from prototest.play.elites import Elite

    bot = tmp_path / "bot.py"
    bot.write_text("print(1)\n")
    coverage = _coverage_of(bot)
    try:
        coverage.setup()
        value = line_slots(coverage.map.size)
        assert not coverage.values_only({value, value + 7})  # not asked for: no slot stands for a value
        coverage.values = True  # as --value-profile sets it (before 3.12; the picks are the same after)
        assert coverage.values_only({value, value + 7}) and not coverage.values_only({value, 5})
        assert not coverage.values_only(set())
        line, rare = Elite(0, (), ("a",), 1, 1.0), Elite(0, (), ("b",), 1, 1.0)
        coverage.keep(Entry(rare, 1, frozenset({value + 3}), values=True))
        coverage.hits.update({value + 3: 1, 5: 1000})
        rng = random.Random(1)
        assert {coverage.pick(rng, True) for _ in range(20)} == {rare}  # alone: every pick
        coverage.keep(Entry(line, 1, frozenset({5})))
        picks = [coverage.pick(rng, True) for _ in range(4000)]
        assert abs(picks.count(rare) / len(picks) - VALUE_SHARE) < 0.03  # its weight is 1000 times the line's
    finally:
        coverage.map.close()
