"""The layers hold: the import-linter contract in pyproject.toml is kept, and it breaks when a
lower layer imports a higher one (a copy of the package with one such import planted)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import prototest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(prototest.__file__).resolve().parent
LINT = shutil.which("lint-imports", path=os.path.dirname(sys.executable)) or shutil.which("lint-imports")

pytestmark = pytest.mark.skipif(LINT is None and not os.environ.get("PROTOTEST_REQUIRE_LINT"),
                                reason="import-linter is not installed (the test extra has it)")


def lint(cwd: Path, python_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(python_path)}
    return subprocess.run([LINT, "--config", str(cwd / "pyproject.toml"), "--no-cache"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_layers_contract_is_kept():
    result = lint(ROOT, ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 3 kept, 0 broken." in result.stdout, result.stdout


@pytest.mark.parametrize("module, planted", [
    ("games/draw.py", "from ..judge import spec as _planted  # noqa"),   # rules importing the judge
    ("judge/findings.py", "from ..play import stats as _planted  # noqa"),  # the judge importing play
    ("sandbox/linux.py", "from ..games import base as _planted  # noqa"),  # sandbox and games are independent
])
def test_a_lower_layer_importing_a_higher_one_breaks_the_contract(tmp_path, module, planted):
    copy = tmp_path / "prototest"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = copy / module
    target.write_text(target.read_text() + f"\n{planted}\n")
    result = lint(tmp_path, tmp_path)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout and "prototest." + module.replace("/", ".")[:-3] in result.stdout, result.stdout


def test_every_package_is_installed():
    """pyproject.toml lists the packages to install: each folder of prototest/ with an
    __init__.py is there (a new subpackage left out installs nothing with `pip install .`)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(PACKAGE.parent).parts) for init in PACKAGE.rglob("__init__.py")
             if "__pycache__" not in init.parts}
    assert found <= listed, sorted(found - listed)
    assert {name for name in listed if name != "prototest.specs"} <= found, sorted(listed - found)
