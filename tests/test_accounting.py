"""The quota's verdict without an answer (Accounting._throttled): the quota is blamed only
when the bot, given the time it held it back, could still have answered in its limit."""

from __future__ import annotations

from types import SimpleNamespace

from prototest.judge.accounting import Accounting
from prototest.sandbox.envelope import Spent

MS = 1_000_000


class Judge(SimpleNamespace):
    """Just what _throttled asks of a referee, its findings kept."""

    def _finding(self, kind, severity, message, **fields):
        return SimpleNamespace(kind=kind, severity=severity, message=message, **fields)

    def _cpu_share(self, finding, bot_usable=True):
        self.found.append(finding)


def judge() -> Judge:
    return Judge(envelope=SimpleNamespace(cpu_share=0), spec=SimpleNamespace(severity={"cpu_share": "fail"}), found=[])


def spent(wall_ms: float, throttled_ms: float) -> Spent:
    return Spent(wall_ns=int(wall_ms * MS), cpu_ns=int(20 * MS), wait_ns=int(throttled_ms * MS),
                 wait_max_ns=int(throttled_ms * MS), throttled_ns=int(throttled_ms * MS), others_ns=0)


def test_no_answer_after_the_quotas_time_was_given_back_is_not_the_quotas():
    """100 ms limit, held back 5 ms, no answer at 105 ms: a bot asleep for 200 ms (as
    halma/slow_many_moves.py) is late by itself: no cpu_share (the caller's timeout stands)."""
    j = judge()
    Accounting._throttled(j, spent(105, 5), 105 * MS, 100 * MS, "the answer limit", None)
    assert j.found == []


def test_no_answer_at_the_limit_while_the_quota_held_it_back_is_the_quotas():
    """At 101 ms, held back 5 ms: without the quota it had 4 ms left, so the quota is the cause."""
    j = judge()
    Accounting._throttled(j, spent(101, 5), 101 * MS, 100 * MS, "the answer limit", None)
    [finding] = j.found
    assert finding.kind == "cpu_share" and "held it back 5.0 ms" in finding.message


def test_an_answer_late_by_the_quota_is_the_quotas():
    j = judge()
    Accounting._throttled(j, spent(104, 5), 104 * MS, 100 * MS, "the answer limit", "e2e4")
    [finding] = j.found
    assert finding.kind == "cpu_share" and finding.got.startswith("'e2e4' after 104.0 ms")
