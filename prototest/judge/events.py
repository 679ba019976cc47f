"""What the bot did outside the dialogue, as findings: a signal sent to its judge, a file
created, written, renamed or deleted (a runtime's cache writes folded into one finding a
game), a network attempt, a fork the platform refused. Each is placed in the turn it
happened in (the referee's marks), whenever it is seen.

A collaborator of `prototest.judge.referee.Referee`, which looks for events between turns
(`Referee._conduct`: nothing to do, at once, when there are none) and notes or raises
what this makes of them.
"""

from __future__ import annotations

import os
import weakref
from typing import Any

from ..sandbox import conduct
from .findings import TIME_FIELDS, Finding
from .resources import ResourceFaults


class EventFindings:
    """The findings of one game's events, for its referee."""

    def __init__(self, referee: Any) -> None:
        """`referee`: the prototest.judge.referee.Referee whose bot's events these are;
        held weakly, so that the referee and its game are freed at once, not by the cycle
        collector."""
        self.ref = weakref.proxy(referee)
        #: A runtime's cache writes (its RUNTIME_CACHES hint -> [(event, mark)]): one
        #: finding a game at its end (at once when the spec fails them).
        self._caches: dict[str, list[tuple[dict[str, Any], conduct.Mark | None]]] = {}
        #: The runtimes whose cache writes already made a FAIL: later ones add nothing.
        self._caches_failed: set[str] = set()

    def take(self, final: bool) -> list[Finding]:
        """The findings of the events seen since the last look (`final`: the game is over:
        a last look, and the cache writes' finding however the spec rates them)."""
        bot = self.ref.bot
        findings = [f for f in map(self._finding_of, bot.take_events(look=final)) if f is not None]
        if self._caches and (self.ref.spec.severity["runtime_cache"] == "fail" or final and not bot.alive()):
            findings += self._cache_findings()  # a warning once the bot is gone: its exit may write too
        return findings

    def _finding_of(self, event: dict[str, Any]) -> Finding | None:
        """The finding of one event, placed at the moment it happened."""
        mark = conduct.when(self.ref._marks, event.get("t", 0))
        if event.get("e") == "signal":
            finding = self.ref._finding(
                "signal", "fail", conduct.signal_message(event), expected="no signal to the judge", rule="signal",
                got=f"{conduct.signal_name(int(event.get('sig', 0)))} from {conduct.sender(event)}")
        elif event.get("e") in ("net", "pids"):
            finding = ResourceFaults(self.ref).event(event, mark)
            if finding is None:
                return None
        elif event.get("e") == "file":
            what, key, rule, cache = conduct.file_operation(event, self._folder())
            cfg = self.ref.cfg
            cache = conduct.cache_advice(cache, event, cfg.argv, cfg.cwd)  # for the process that wrote it
            severity = self.ref.spec.severity[key]
            if severity == "ignore":
                return None
            if cache:  # one finding a game: _cache_findings
                if cache not in self._caches_failed:
                    self._caches.setdefault(cache, []).append((event, mark))
                return None
            finding = self.ref._finding(
                "file_operation", severity, conduct.file_message(what, conduct.moment(mark), severity),
                expected="no file created, written, renamed or deleted", got=f"{what} (by {conduct.sender(event)})",
                rule=rule, path=event.get("path"))
        else:
            return None
        return placed(finding, mark)

    def _folder(self) -> str:
        """The folder the bot runs in: findings show the paths inside it relative to it."""
        return self.ref.cfg.cwd or os.getcwd()

    def _cache_findings(self) -> list[Finding]:
        """One finding for each runtime's cache writes seen so far, placed at the first."""
        severity, found = self.ref.spec.severity["runtime_cache"], []
        for hint, seen in self._caches.items():
            events = [event for event, _ in seen]
            first, mark = seen[0]
            message = conduct.cache_message(hint, events, self._folder(), conduct.moment(mark))
            rule = conduct.file_operation(first)[2]
            finding = self.ref._finding("file_operation", severity, message, rule=rule,
                                        expected="no file created, written, renamed or deleted",
                                        got=self._cache_evidence(events),
                                        path=conduct.cache_files(events)[0][0])
            found.append(placed(finding, mark))
            if severity == "fail":
                self._caches_failed.add(hint)
        self._caches.clear()
        return found

    def _cache_evidence(self, events: list[dict[str, Any]], shown: int = 6) -> str:
        """The first cache writes in words, for the report's `got`."""
        whats = [conduct.file_operation(event, self._folder())[0] for event in events[:shown]]
        more = f"; {len(events) - shown} more" if len(events) > shown else ""
        return f"{'; '.join(whats)}{more} (by {conduct.sender(events[0])})"


def placed(finding: Finding, mark: conduct.Mark | None) -> Finding:
    """The finding placed at the moment its event happened."""
    for name in TIME_FIELDS:  # no answer's time: what happened then is not timed
        setattr(finding, name, None)
    finding.turn = mark.turn if mark else None
    if mark is not None:
        finding.ply, finding.position = mark.position.ply(), mark.position.notation()
        finding.moves = finding.moves[:mark.moves]
    return finding
