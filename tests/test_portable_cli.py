"""Fixtures and transcripts read the same on every machine and in every checkout: a fresh
copy of the project (no bytecode caches, another folder) regenerates prototest's own
fixtures byte for byte and replays them; file findings show paths from the bot's folder,
and a runtime's cache writes are one finding a game."""

from __future__ import annotations

import shlex

import shutil
import sys
from pathlib import Path

from conftest import BOTS, ROOT, bot_env, run_cli
from prototest.sandbox import conduct


def fresh_copy(tmp_path: Path) -> Path:
    """prototest's package, specs and fixtures in a new folder, without any __pycache__:
    as a fresh clone has them (`python -m prototest` there runs this copy too). The fixtures' bots (`python3 -m prototest.bots...`, run in the
    fixtures' parent folder) import this copy's package, so they write its caches."""
    copy = tmp_path / "clone"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "prototest", copy / "prototest", ignore=ignore)
    shutil.copytree(ROOT / "specs", copy / "specs", ignore=ignore)
    shutil.copytree(ROOT / "fixtures", copy / "fixtures", ignore=ignore)
    return copy


def test_record_update_in_a_fresh_copy_changes_no_fixture(tmp_path):
    copy = fresh_copy(tmp_path)
    result = run_cli("record", "--update", "fixtures", tmp_path=copy, fresh=True)
    assert result.code == 0, result.stdout + result.stderr
    assert "updated" not in result.stdout, result.stdout
    recorded = sorted(p.name for p in (ROOT / "fixtures").glob("*.txt"))
    assert len(recorded) == 14
    for name in recorded:
        assert (copy / "fixtures" / name).read_bytes() == (ROOT / "fixtures" / name).read_bytes(), name
    # the bots did write their caches meanwhile (the test would prove nothing otherwise)
    assert list((copy / "prototest" / "bots" / "__pycache__").glob("*.pyc"))


def test_replay_in_a_fresh_copy_passes_and_names_no_machine_path(tmp_path):
    copy = fresh_copy(tmp_path)
    fixtures = ["fixtures/loa-pass.txt", "fixtures/impasse-crown-and-impasse.txt"]
    result = run_cli("replay", "--transcripts", "kept", *fixtures, tmp_path=copy, fresh=True)
    assert result.code == 0, result.stdout + result.stderr
    assert "DIFFERS" not in result.stdout
    assert list((copy / "prototest" / "bots" / "__pycache__").glob("*.pyc"))
    for transcript in (copy / "kept").glob("*.txt"):
        text = transcript.read_text()
        assert str(tmp_path) not in text and ".pyc." not in text, transcript
        assert "# spec: " in text and "(installed)" in text


def test_a_replay_difference_says_how_to_accept_it(tmp_path):
    fixture = tmp_path / "castling.txt"
    text = (ROOT / "fixtures" / "chess-castling.txt").read_text()
    assert "\n< d2d4\n" in text
    fixture.write_text(text.replace("\n< d2d4\n", "\n< e2e4\n", 1).replace("# cwd: ..", f"# cwd: {ROOT}"))
    result = run_cli("replay", str(fixture), tmp_path=tmp_path)
    assert result.code == 1, result.stdout + result.stderr
    assert "DIFFERS" in result.stdout
    assert f"a deliberate change? `prototest record --update {fixture}` records the game as it goes now" \
        in result.stdout


def test_cache_writes_are_counted_by_file_and_folder():
    """Python writes a temporary file and renames it into place: one file; a folder it
    creates is a folder, not a file; paths in the bot's folder are shown from there."""
    events = [{"op": "create folder", "path": "/bot/pkg/__pycache__"},
              {"op": "create", "path": "/bot/pkg/__pycache__/a.cpython-311.pyc.140598084899472"},
              {"op": "rename", "path": "/bot/pkg/__pycache__/a.cpython-311.pyc.140598084899472",
               "to": "/bot/pkg/__pycache__/a.cpython-311.pyc"},
              {"op": "create", "path": "/bot/__pycache__/b.cpython-311.pyc.1405980"},
              {"op": "rename", "path": "/bot/__pycache__/b.cpython-311.pyc.1405980",
               "to": "/bot/__pycache__/b.cpython-311.pyc"}]
    folders, files = conduct.cache_files(events)
    assert folders == ["/bot/pkg/__pycache__", "/bot/__pycache__"]
    assert files == ["/bot/pkg/__pycache__/a.cpython-311.pyc", "/bot/__pycache__/b.cpython-311.pyc"]
    hint = conduct.runtime_cache(events[1]["path"])
    message = conduct.cache_message(hint, events, "/bot", "at start-up")
    assert message.startswith("Python's bytecode cache: 5 file operations in ./pkg/__pycache__ and ./__pycache__ "
                              "(2 files), the first at start-up: written by the runtime; ")
    assert conduct.is_cache_message(message)
    assert not conduct.is_cache_message("created ./debug.log on its turn 1: the judge allows no file operations")


def test_paths_are_shown_from_the_bots_folder_only_inside_it():
    assert conduct.shown_path("/bot/debug.log", "/bot") == "./debug.log"
    assert conduct.shown_path("/bot", "/bot/") == "."
    assert conduct.shown_path("/botany/x", "/bot") == "/botany/x"
    assert conduct.shown_path("/tmp/x.log", "/bot") == "/tmp/x.log"
    assert conduct.shown_path("/tmp/x.log", None) == "/tmp/x.log"


def test_readmes_first_command_checks_the_installed_bot_cleanly(tmp_path):
    """README's first command checks the console script `prototest-chess-bot` (pyproject's
    [project.scripts]): the installed package's bot, which writes no file, so a clean PASS."""
    readme = (ROOT / "README.md").read_text()
    first = readme.split("```sh\n", 1)[1].split("\n", 1)[0]
    assert first.endswith("pip install . && prototest check prototest-chess-bot"), first
    assert shutil.which("prototest-chess-bot", path=bot_env()["PATH"]), "pip install -e . installs it"
    result = run_cli("check", "--games", "2", "prototest-chess-bot", tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.findings() == [] and "PASS" in result.stdout and "with warnings" not in result.stdout


def test_python_advice_reads_the_bots_file_in_the_bots_folder(tmp_path, monkeypatch):
    """The bot runs in its folder (a config file's): its command's file is read there for
    its #! line, not in prototest's current folder (where another bot.py may be)."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "bot.py").write_text("#!/usr/bin/python3\nprint('hi')\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "bot.py").write_text("#!/opt/other/python3.9\n")
    monkeypatch.chdir(tmp_path / "elsewhere")
    cache = conduct.RUNTIME_CACHES[0][1]
    advice = conduct.python_advice(cache, ["./bot.py"], str(tmp_path / "bot"))
    assert "#!/usr/bin/python3 -B" in advice, advice


def test_a_replay_with_another_bot_says_record_update_plays_the_fixtures_own_bot(tmp_path):
    """`replay F -- BOT` judges BOT on the fixture's game; `record --update F` would play the
    fixture's own bot (its '# bot:' line), not BOT: the advice says so rather than offering it
    as the way to accept BOT's game."""
    fixture = ROOT / "fixtures" / "chess-castling.txt"
    result = run_cli("replay", str(fixture), "--", sys.executable, str(BOTS / "chess" / "crash_third_turn.py"),
                     tmp_path=tmp_path)
    assert result.code == 1 and "DIFFERS" in result.stdout, result.stdout + result.stderr
    text = " ".join(result.stdout.split())
    assert (f"`prototest record --update {shlex.quote(str(fixture))}` records the game again with the fixture's own bot "
            f"(its '# bot: python3 -m prototest.bots.chess_bot' line), not with this one") in text, text
    assert "records the game as it goes now" not in text
