"""The platform's limits other than time, for the referee: a bot killed by its memory
limit (its cgroup's OOM killer, or the judge's look at its peak without one) is a `memory`
finding, never a timeout or a crash; a bot whose fork or thread was refused by the pids
limit is a `processes` finding; a network attempt is a `network` finding (as events:
`prototest.judge.events`); and at the game's end, the peak memory and a WARN near a limit.

A collaborator of `prototest.judge.referee.Referee` (its accounting of each answer's time
is `prototest.judge.accounting`), made when a bot died, went silent or did something
outside the dialogue, and at the game's end: nothing here runs while a bot answers in time.
"""

from __future__ import annotations

import time
from typing import Any

from . import answertime
from ..sandbox import conduct
from ..sandbox.envelope import mb
from .findings import Finding
from .refereepart import RefereePart

_MS = 1_000_000
#: A bot whose peak memory reached this share of its limit, and that stopped answering,
#: is counted as stopped by the limit.
MEMORY_FULL_PERCENT = 97
#: After a timeout, how long at least, and in which steps, the judge waits for a bot whose
#: memory still rises (see ResourceFaults.memory_settles).
MEMORY_WAIT_MIN_MS = 1000
MEMORY_STEP_MS = 100


class ResourceFaults(RefereePart):
    """The findings of a bot over its platform's memory or process limit, or at the network."""

    def fault(self, then: str, at_limit: bool = False) -> Finding | None:
        """The platform's reason for a bot that died or went silent (`then`: what it did,
        "exited with status 1 before its handshake"), or None. `at_limit`: a bot whose
        memory reached the limit counts too (the kernel reclaims before it kills)."""
        bot = self.bot
        if bot is None:
            return None
        env = self.ref.envelope
        if env.memory_bytes and (bot.hold.oom_killed() or (at_limit and self.memory_full())):
            self.ref._reported_memory = True
            return self.memory_finding(then)
        refused = bot.hold.pids_refused() + sum(1 for e in bot.events if e.get("e") == "pids")
        if env.pids and refused:
            bot.events[:] = [e for e in bot.events if e.get("e") != "pids"]  # told here, once
            return self.ref._finding(
                "processes", self.spec.severity["processes"],
                f"started more processes and threads than {env.platform}'s {env.pids} (processes and threads "
                f"together): {refused} fork(s) or thread start(s) refused, as the platform refuses them; "
                f"then the bot {then}",
                expected=f"at most {env.pids} processes and threads", got=f"{refused} refused", rule="processes")
        return None

    def memory_full(self) -> bool:
        """With a cgroup: the bot's memory is at its limit (the kernel reclaims, stalling
        the bot, before its OOM killer comes). Without one nothing stalls it: the judge's
        look kills it once it is over."""
        bot = self.bot
        env = self.ref.envelope
        return bool(bot is not None and env.memory_bytes and bot.hold.enforced.startswith("cgroup")
                    and (bot.hold.memory_peak() or 0) * 100 >= env.memory_bytes * MEMORY_FULL_PERCENT)

    def memory_settles(self, limit_ns: int) -> bytes:
        """After a timeout, with a memory limit: while the bot's peak memory still rises,
        wait (up to the answer's limit again, MEMORY_WAIT_MIN_MS at least) for the limit to
        be reached or the bot killed, draining its output (returned). A bot whose memory
        has stopped rising is not waited for."""
        bot = self.bot
        env = self.ref.envelope
        if bot is None or not env.memory_bytes or not bot.alive():
            return b""
        out = b""
        deadline = time.perf_counter_ns() + max(limit_ns, MEMORY_WAIT_MIN_MS * _MS)
        last = bot.hold.memory_peak() or 0
        while time.perf_counter_ns() < deadline and bot.alive() and not bot.hold.oom_killed():
            if self.memory_full():
                break
            out += bot.drain(MEMORY_STEP_MS * _MS)
            peak = bot.hold.memory_peak() or 0
            if peak < last + (1 << 20):  # under a MB more in a step: not filling
                break
            last = peak
        return out

    def memory_finding(self, then: str) -> Finding:
        bot = self.bot
        assert bot is not None
        env = self.ref.envelope
        assert env.memory_bytes
        peak = (bot.hold.memory_event or {}).get("peak") or bot.hold.memory_peak() or env.memory_bytes
        if not bot.hold.oom_killed():
            how = "it reached the limit and stopped answering (the kernel reclaims memory, then kills)"
        elif bot.hold.enforced.startswith("cgroup"):
            how = "its cgroup's OOM killer ended it"
        else:
            how = "the judge killed it, as the platform's OOM killer would"
        if bot.hold.enforced.startswith("cgroup"):  # the group's peak stops at the limit: the bot asked for more
            used = f"used all of {env.platform}'s {mb(env.memory_bytes)} and asked for more"
        else:
            used = f"peak {mb(peak)}, over {env.platform}'s {mb(env.memory_bytes)}"
        return self.ref._finding(
            "memory", self.spec.severity["memory"],
            f"{used}: the platform kills the bot; {how} ({then})",
            expected=f"at most {mb(env.memory_bytes)} of memory", got=f"peak {mb(peak)}", rule="memory",
            elapsed_ms=None)

    def at_end(self) -> None:
        """At the game's end: the peak memory, a memory kill not reported yet (a child of
        the bot's), and a WARN near a limit."""
        bot = self.bot
        if bot is None:
            return
        peak = bot.hold.memory_peak()
        if peak:
            self.report.peak_memory_mb = round(peak / (1 << 20), 1)
        env = self.ref.envelope
        if self.report.result == "interrupted":
            return
        tasks = bot.hold.tasks_peak()
        if env.pids and tasks * 100 > env.pids * env.near_percent and tasks <= env.pids \
                and not any(f.kind == "processes" for f in self.report.findings):
            share = answertime.percent(tasks, env.pids)
            self.ref._note(self.ref._finding(
                "processes", "warn", f"{tasks} processes and threads at once, {share}% of "
                                     f"{env.platform}'s {env.pids}", expected=f"at most {env.pids} processes and threads",
                got=f"{tasks} at once", rule="processes:near", elapsed_ms=None, limit_percent=share))
        if not env.memory_bytes or self.ref._reported_memory:
            return
        if bot.hold.oom_killed():
            self.ref._reported_memory = True
            self.ref._note(self.memory_finding("a process of the bot was killed"))
        elif peak and peak * 100 > env.memory_bytes * env.near_percent:
            share = answertime.percent(peak, env.memory_bytes)
            self.ref._note(self.ref._finding(
                "memory", "warn",
                f"peak {mb(peak)}, {share}% of {env.platform}'s {mb(env.memory_bytes)}",
                expected=f"at most {mb(env.memory_bytes)} of memory", got=f"peak {mb(peak)}", rule="memory:near",
                elapsed_ms=None, limit_percent=share))

    def event(self, event: dict[str, Any], mark: conduct.Mark | None) -> Finding | None:
        env = self.ref.envelope
        kind = event.get("e")
        where = conduct.moment(mark)
        who = conduct.sender(event)
        if kind == "net":
            address = event.get("address") or event.get("family", "a network socket")
            call = event.get("call", "connect")
            if env.network == "none":
                fate = f"{env.platform} gives a bot no network: the call fails there, as it did here"
            else:
                fate = f"the call went on ({env.platform} states no network rule)"
            return self.ref._finding(
                "network", self.spec.severity["network"], f"{call} {address} {where}: {fate}",
                expected="no network", got=f"{call} {address} (by {who})", rule=f"network:{call}:{address}",
                elapsed_ms=None)
        if kind == "pids":  # the bot lived on (its death is `fault`'s): as it would there
            return self.ref._finding(
                "processes", "warn",
                f"a fork or thread start refused {where}: {event.get('count', '?')} processes and threads already "
                f"ran, {env.platform} allows {event.get('limit', env.pids)} (the call failed with EAGAIN, as there)",
                expected=f"at most {env.pids} processes and threads", got=f"{event.get('call', 'clone')} by {who}",
                rule="processes", elapsed_ms=None)
        return None
