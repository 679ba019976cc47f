"""Through the real CLI: every figure a timing line of the summary prints is the JSON's,
within one run (no time is held to a threshold: a busy machine changes the figures, never
their agreement)."""

from __future__ import annotations

import re

import pytest

from conftest import BOTS, run_cli
from test_answertime import numbers_are_fields

HALMA = BOTS / "halma"
#: slow_warn.py sleeps 70 ms on its 3rd turn: over the statement's 50 ms, within the
#: referee's 100; with the statement's limit off and a WARN from 50 %, a near-limit WARN.
NEAR_LIMIT = ("--set", "time.statement_answer_ms=0", "--set", "time.near_limit_percent=50")


def check(tmp_path, bot: str, *extra: str):
    return run_cli("check", "--game", "halma", "--games", "1", "--platform", "none", *extra, str(HALMA / bot),
                   tmp_path=tmp_path)


def finding_lines(stdout: str) -> dict[str, list[str]]:
    """Each finding's head line (after 'WARN slow (game 1, turn 3): ') and its evidence lines."""
    found: dict[str, list[str]] = {}
    current = None
    for line in stdout.splitlines():
        head = re.match(r"^(?:WARN|FAIL) \w+ \(game \d+(?:, turn \d+)?\): (.*)$", line)
        if head:
            current = head.group(1)
            found[current] = []
        elif current is not None and line.startswith("    "):
            found[current].append(line.strip())
        else:
            current = None
    return found


def summary_agrees(result) -> None:
    """The timing and resources lines print the JSON's figures."""
    [timing] = [line for line in result.stdout.splitlines() if line.startswith("  timing: ")]
    numbers_are_fields(timing, result.report["timing"])
    [resources] = [line for line in result.stdout.splitlines() if line.startswith("  resources: ")]
    numbers_are_fields(resources.replace(" MB", ""), result.report["resources"])


@pytest.mark.parametrize("extra, rule", [((), "statement"), (NEAR_LIMIT, "near_limit")])
def test_a_slow_warnings_text_prints_its_jsons_figures(tmp_path, extra, rule):
    result = check(tmp_path, "slow_warn.py", *extra)
    assert result.code == 0, result.stdout + result.stderr
    [slow] = [f for f in result.findings() if f["kind"] == "slow"]
    shown = finding_lines(result.stdout)
    assert slow["message"] in shown, result.stdout  # the summary prints the JSON's message
    numbers_are_fields(slow["message"], slow)
    # the figures the message is about are there, and hold together
    assert slow["own_ms"] == pytest.approx(slow["elapsed_ms"] - slow["machine_ms"]
                                           - (slow["throttled_ms"] if rule == "statement" else 0), abs=0.002)
    assert f"answered in {slow['elapsed_ms']:.1f} ms" in slow["message"]
    if f"{slow['machine_ms']:.1f}" != "0.0":
        assert f"the machine kept {slow['machine_ms']:.1f} ms" in slow["message"]
        assert f"its own time, {slow['own_ms']:.1f} ms" in slow["message"]
    if rule == "near_limit":
        assert slow["limit_percent"] == round(100 * slow["own_ms"] / slow["limit_ms"])
        assert f"{slow['limit_percent']}% of the 100 ms it had" in slow["message"]
    else:
        assert slow["limit_ms"] == 50.0 and slow["limit_percent"] is None
    summary_agrees(result)


def test_a_timeouts_time_line_prints_its_jsons_figures(tmp_path):
    """too_slow.py sleeps 150 ms on its 3rd turn: a FAIL timeout whose evidence line gives
    the time the judge waited, and what the bot used meanwhile, as the JSON has them."""
    result = check(tmp_path, "too_slow.py")
    assert result.code == 1, result.stdout + result.stderr
    [timeout] = result.findings("fail")
    assert timeout["kind"] == "timeout" and timeout["limit_ms"] == 100.0
    lines = finding_lines(result.stdout)[timeout["message"]]
    [time_line] = [line for line in lines if line.startswith("time:")]
    numbers_are_fields(time_line, timeout)
    assert time_line.startswith(f"time:     {timeout['elapsed_ms']:.1f} ms")
    assert f"CPU {timeout['cpu_ms']:.1f} ms; waited for a CPU {timeout['wait_ms']:.1f} ms" in time_line
    summary_agrees(result)
