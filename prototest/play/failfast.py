"""The fail-fast rule of `prototest check`: stop once K games have failed the same way.

A real judge forfeits a bot on its first fault, and pytest's --maxfail stops a run at its
K-th failure: a bot that hangs or dies in every game needs no 24 clocks to be told so.
`check` stops once `max_fail` games (`--max-fail K`, or `max_fail` in the config file;
DEFAULT_MAX_FAIL; 0 plays every game) have failed with a finding of the same kind. K is
2, not 1: a second game failing the same way shows that the fault repeats, and a bot
with two different faults (an illegal move in one game, a crash in another) still shows
both before the run stops, as a run of every game would.

The rule is decided in game order (see prototest.play.runner): the games kept are the same
whatever --jobs is, and a game that began after the deciding one (in play, or ended
first) is not counted: its bot is killed, and the report says it had begun. Only the
bot's own failures count (with --opponent, the other bot's faults are its own), never an
interrupted game's, never a warning. A shard (--shard I/N) applies the rule to its own
games; `prototest merge` keeps each shard's stop.
"""

from __future__ import annotations

from ..judge.game import GameReport, Stop

#: `check --max-fail`'s K when neither the option nor the config file says: a bot that fails
#: every game the same way is stopped after its second such game.
DEFAULT_MAX_FAIL = 2


class FailFast:
    """The failures of one run's games, in game order, and the rule's decision."""

    def __init__(self, max_fail: int) -> None:
        self.max_fail = max_fail
        #: failing kind -> the games (kept, in order) that failed with it
        self.failed: dict[str, list[int]] = {}

    @property
    def active(self) -> bool:
        return self.max_fail > 0

    def tally(self, report: GameReport) -> Stop | None:
        """Count a game kept (the next in game order); the stop when the rule trips here."""
        if not self.active or report.interrupted is not None:
            return None
        kinds = failing_kinds(report)
        for kind in kinds:
            self.failed.setdefault(kind, []).append(report.index)
        tripped = next((k for k in kinds if len(self.failed[k]) >= self.max_fail), None)
        if tripped is None:
            return None
        return Stop("max_fail", after=report.index, kind=tripped, games=self.failed[tripped][:self.max_fail],
                    max_fail=self.max_fail)

    def would_stop(self, report: GameReport) -> bool:
        """Whether keeping `report` next would trip the rule (nothing is counted)."""
        if not self.active or report.interrupted is not None:
            return False
        return any(len(self.failed.get(k, ())) + 1 >= self.max_fail for k in failing_kinds(report))


def failing_kinds(report: GameReport) -> list[str]:
    """The kinds of the bot's failures in a game, in the order they came, once each."""
    return list(dict.fromkeys(f.kind for f in report.findings if f.severity == "fail"))
