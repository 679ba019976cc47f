"""The bot's config file through the real CLI: found from the current folder upwards,
validated whole, and overridden by every command-line option."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli

# A Halma bot that needs its config: it refuses to play without the variable the config
# file passes, and it is started as "python3 bot.py" from the config file's folder.
BOT = """import os, sys
if os.environ.get("EXAMPLE_TOKEN") != "from-config":
    sys.exit("EXAMPLE_TOKEN is not set")
from prototest.bots import halma_bot
halma_bot.main()
"""

CONFIG = """game = "halma"
bot = "python3 bot.py"
games = 3
seed = 7
time_scale = 2
env = { EXAMPLE_TOKEN = "from-config" }
set = { "rules.max_plies" = 20 }
"""


def repo(tmp_path: Path, config: str = CONFIG, name: str = "prototest.toml") -> Path:
    """A bot's repository with its config, and a subfolder to run prototest from."""
    root = tmp_path / "repo"
    (root / "src" / "deep").mkdir(parents=True)
    (root / "bot.py").write_text(BOT)
    (root / name).write_text(config)
    return root


def one_line_error(result) -> str:
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("prototest: error: ") and "Traceback" not in result.stderr
    return line


def test_check_with_no_argument_uses_the_config_above(tmp_path):
    root = repo(tmp_path)
    result = run_cli("check", tmp_path=root / "src" / "deep")
    assert result.code == 0, result.stdout + result.stderr
    r = result.report
    assert (r["game"], r["config"], r["game_source"]) == ("halma", str(root / "prototest.toml"), "config")
    assert (r["seed"], r["time_scale"], r["bot"]) == (7, 2.0, ["python3", "bot.py"])
    assert [g["seat"] for g in r["games"]] == ["1", "2", "1"]
    assert all((g["plies"], g["reason"]) == (20, "move limit") for g in r["games"])  # its set
    assert f"config: {root / 'prototest.toml'}" in result.stdout
    assert "the default" not in result.stdout


def test_the_command_line_overrides_the_config(tmp_path):
    root = repo(tmp_path)
    result = run_cli("check", "--games", "1", "--seed", "9", "--time-scale", "1.5",
                     "--set", "rules.max_plies=30", tmp_path=root)
    assert result.code == 0, result.stdout + result.stderr
    r = result.report
    assert (r["seed"], r["time_scale"], len(r["games"]), r["games"][0]["plies"]) == (9, 1.5, 1, 30)
    # an explicit game wins over the config's; the bot still comes from the config
    impasse = run_cli("check", "--game", "impasse", "--games", "1", tmp_path=root / "src")
    assert impasse.report["game"] == "impasse" and impasse.report["game_source"] == "--game"
    assert impasse.code == 1 and impasse.report["hints"] == []  # a Halma bot, but the game was chosen


def test_a_bot_on_the_command_line_runs_where_prototest_runs(tmp_path):
    """Only the config's own bot runs in the config's folder: a bot given on the command
    line is found from the current folder, as without a config."""
    root = repo(tmp_path)
    result = run_cli("check", "--games", "1", "--", "python3", "bot.py", tmp_path=root / "src")
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings()
    assert f["kind"] == "crash" and any("bot.py" in line for line in f["stderr_tail"]), f


def test_pyproject_table_and_the_nearest_file_wins(tmp_path):
    root = repo(tmp_path, CONFIG.replace('game = "halma"', 'game = "impasse"'))
    inner = root / "src"
    (inner / "bot.py").write_text(BOT)
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.prototest]\n'
                                          + CONFIG.replace("games = 3", "games = 1"))
    result = run_cli("check", tmp_path=inner / "deep")
    assert result.code == 0, result.stdout + result.stderr
    assert result.report["config"] == f"{inner / 'pyproject.toml'} [tool.prototest]"
    assert result.report["game"] == "halma" and len(result.report["games"]) == 1
    # a pyproject.toml without the table is passed over
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n')
    result = run_cli("check", "--games", "1", "--no-config", tmp_path=inner)
    assert result.code == 2 and "no bot given" in result.stderr
    upper = run_cli("check", "--games", "1", tmp_path=inner)
    assert upper.report["config"] == str(root / "prototest.toml") and upper.report["game"] == "impasse"


@pytest.mark.parametrize("config,key,phrase", [
    (CONFIG + "gmae = 1\n", "gmae", "unknown key (known: game, spec, bot, games"),
    (CONFIG.replace("games = 3", 'games = "three"'), "games", "expected an integer, got 'three'"),
    (CONFIG.replace('game = "halma"', 'game = "halm"'), "game", "unknown game 'halm': did you mean halma?"),
    (CONFIG.replace('bot = "python3 bot.py"', "bot = []"), "bot", "the command is empty"),
    (CONFIG.replace("time_scale = 2", "time_scale = 0"), "time_scale", "from 0.01 to 1000"),
    (CONFIG.replace('"from-config"', "[1]"), "env", "EXAMPLE_TOKEN: expected a string"),
    (CONFIG + 'spec = "mine.toml"\n', "spec", "give game or spec, not both"),
    (CONFIG.replace('"rules.max_plies" = 20', '"time.answer_ms" = -1'), "set", "time.answer_ms: must be at least 0"),
])
def test_a_bad_config_is_one_line_naming_file_and_key(tmp_path, config, key, phrase):
    root = repo(tmp_path, config)
    line = one_line_error(run_cli("check", tmp_path=root))
    assert line.startswith(f"prototest: error: {root / 'prototest.toml'}: {key}: "), line
    assert phrase in line, line


def test_a_bad_pyproject_table_names_its_key(tmp_path):
    root = repo(tmp_path, '[tool.prototest]\ngames = 0\n', name="pyproject.toml")
    line = one_line_error(run_cli("check", tmp_path=root))
    assert f"{root / 'pyproject.toml'}: tool.prototest.games: must be at least 1" in line


def test_config_that_is_not_toml(tmp_path):
    root = repo(tmp_path, "game = halma\n")
    line = one_line_error(run_cli("check", tmp_path=root))
    assert f"{root / 'prototest.toml'}: not valid TOML" in line and "--no-config" in line


def test_an_explicit_config_file_and_no_config(tmp_path):
    root = repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_cli("check", "--games", "1", "--config", str(root / "prototest.toml"), tmp_path=elsewhere)
    assert result.code == 0, result.stdout + result.stderr  # its bot runs in its folder
    assert result.report["config"] == str(root / "prototest.toml")
    line = one_line_error(run_cli("check", "--config", str(root / "prototest.toml"), "--no-config", tmp_path=root))
    assert "--config and --no-config" in line
    assert "no bot given" in one_line_error(run_cli("check", "--no-config", tmp_path=root))
    assert "has no [tool.prototest] table" in one_line_error(
        run_cli("check", "--config", str(Path(__file__).resolve().parent.parent / "pyproject.toml"), tmp_path=root))


def test_transcripts_go_beside_the_config_file(tmp_path):
    """Run from a subfolder of the bot's repository, the transcripts of games with findings
    land in the repository's prototest-transcripts/, beside the config file, not in the
    current folder."""
    root = repo(tmp_path, CONFIG.replace('game = "halma"', 'game = "impasse"'))  # a Halma bot: it fails
    deep = root / "src" / "deep"
    result = run_cli("check", "--games", "1", tmp_path=deep, transcripts=False)
    assert result.code == 1, result.stdout + result.stderr
    [f] = result.findings()
    transcript = Path(f["transcript"])
    assert not transcript.is_absolute() or transcript.is_relative_to(root)
    written = list((root / "prototest-transcripts").glob("impasse-*/impasse-001-w.txt"))
    assert len(written) == 1 and (deep / transcript).resolve() == written[0].resolve(), (transcript, written)
    assert not (deep / "prototest-transcripts").exists()
    assert f"transcript: {transcript}" in result.stdout
