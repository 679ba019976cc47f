"""`match --shard I/N --tally redis://HOST:PORT/N`: one SPRT over every shard of a match,
live, on a Redis server the shards share.

The tally of a match lives under keys named by the match's identity
(`prototest.play.matchshards.identity`: the bots' digests, the game, the openings, the
seed, the games, the SPRT's parameters), `prototest:match:{KEY}:...`, so two matches never
share one by accident:

- `claims`: a hash, pair -> the shard that started it (HSETNX when a pair's game starts);
- `pairs`: a hash, pair -> the shard that finished it and A's two scores (HSETNX);
- `totals`: a hash of counts: the pentanomial (`p0`..`p4`, by A's points in the pair),
  A's wins, draws and losses over the recorded pairs' games, `pairs`, `claimed`,
  `by:I/N` (pairs each shard recorded), and `decision` once the SPRT decided;
- `identity`: the identity, as JSON, for a person reading the server.

A finished pair is recorded by one Lua script, atomically: its HSETNX into `pairs` and the
totals' increments happen together or not at all, and a pair already recorded (a shard
played again) is not counted again. After each of its games a shard reads the totals (the
script returns them) and computes the SPRT on them; once it decides, the decision is kept
in the totals (HSETNX: the first one stands) and every shard stops at its next game's end.
A shard killed mid-run loses only its pairs in play: claimed, never recorded. A shard that
ends otherwise takes back the claims of the pairs it left unfinished (the SPRT stopped it
between a pair's two games, or a signal did; its report has those games), so the claims
left in the snapshot each shard takes at its end (`snapshot`) are the pairs of shards that
died, and `prototest merge` says how many were lost.

A server lost during the run does not end the shard: the first failed command is said
once (`problems`), and the shard plays on without the tally.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import stats
from .match import Tally, pair_of

if TYPE_CHECKING:  # the reports read a tally's totals without Redis or Hypothesis
    from .exampledb import RedisLocation

#: Keys of the tally of the match whose identity's key is KEY; the braces keep them in one
#: slot of a Redis cluster (a Lua script touches two of them).
PREFIX = "prototest:match:{%s}:"

_RECORD = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return {0, redis.call('HGETALL', KEYS[2])}
end
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
redis.call('HINCRBY', KEYS[2], 'wins', ARGV[4])
redis.call('HINCRBY', KEYS[2], 'draws', ARGV[5])
redis.call('HINCRBY', KEYS[2], 'losses', ARGV[6])
redis.call('HINCRBY', KEYS[2], 'pairs', 1)
redis.call('HINCRBY', KEYS[2], 'by:' .. ARGV[7], 1)
return {1, redis.call('HGETALL', KEYS[2])}
"""

_CLAIM = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('HINCRBY', KEYS[2], 'claimed', 1)
  return 1
end
return 0
"""


_RELEASE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


@dataclass
class Totals:
    """The tally's counts as read: over every shard's recorded pairs."""

    wdl: tuple[int, int, int] = (0, 0, 0)
    pentanomial: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    pairs: int = 0
    claimed: int = 0
    by: dict[str, int] = field(default_factory=dict)
    #: the SPRT's decision once a shard saw it: {"decision", "pairs", "llr", "by"}
    decision: dict[str, Any] | None = None

    @classmethod
    def parse(cls, flat: Any) -> "Totals":
        """From HGETALL's answer (a dict, or the flat list a Lua script returns)."""
        if isinstance(flat, list):
            flat = dict(zip(flat[::2], flat[1::2]))
        data = {_text(k): _text(v) for k, v in (flat or {}).items()}
        count = lambda key: int(data.get(key) or 0)  # noqa: E731
        decision = json.loads(data["decision"]) if data.get("decision") else None
        return cls(wdl=(count("wins"), count("draws"), count("losses")),
                   pentanomial=tuple(count(f"p{i}") for i in range(5)),  # type: ignore[arg-type]
                   pairs=count("pairs"), claimed=count("claimed"),
                   by={k[3:]: int(v) for k, v in sorted(data.items()) if k.startswith("by:")}, decision=decision)

    @classmethod
    def of(cls, final: dict[str, Any]) -> "Totals":
        """From a report's `tally` (a shard's snapshot at its end, `SharedTally.snapshot`)."""
        return cls(wdl=tuple(final["wdl"]), pentanomial=tuple(final["pentanomial"]),  # type: ignore[arg-type]
                   pairs=final["pairs"], claimed=final.get("claimed", 0), by=dict(final.get("recorded_by") or {}),
                   decision=final.get("decision"))

    def sprt(self, options: dict[str, Any]) -> stats.Sprt | None:
        """The SPRT on the totals (on the games for the bayesian and cutechess models, as
        `Tally.sprt`), None before the first pair."""
        if not self.pairs:
            return None
        model = options.get("model", "normalized")
        basis = self.wdl if model in ("bayesian", "cutechess") else self.pentanomial
        return stats.sprt(basis, options["elo0"], options["elo1"], options["alpha"], options["beta"], model)

    def report_lines(self, sprt_result: stats.Sprt | None) -> list[str]:
        if not self.pairs:
            return ["no pair recorded yet: no statistics"]
        return stats.fastchess_report(self.wdl, self.pentanomial, sprt_result)

    def figures(self) -> dict[str, Any]:
        if not self.pairs:
            return {}
        from .match import _num

        elo = stats.elo_pentanomial(self.pentanomial)
        return {"kind": elo.kind, "elo": _num(elo.elo), "elo_error": _num(elo.elo_error),
                "elo_interval": [_num(v) for v in elo.elo_interval], "nelo": _num(elo.nelo),
                "nelo_error": _num(elo.nelo_error), "los": _num(elo.los), "score": _num(elo.score)}


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def pair_scores(t: Tally, pair: int) -> tuple[float, float] | None:
    """A's scores in the pair's two games, in game order, once both have a result."""
    games = t.pairs.get(pair, {})
    return (games[2 * pair - 1], games[2 * pair]) if len(games) == 2 else None


class SharedTally:
    """The tally of one match on a Redis server, as one shard uses it: it claims its pairs
    as they start (in whichever process plays them), records them as they end, reads the
    totals, and stops the shard once the SPRT over all shards decided."""

    def __init__(self, where: RedisLocation, identity: dict[str, Any], owner: str) -> None:
        self.where, self.identity, self.owner = where, identity, owner
        self.options: dict[str, Any] = identity["sprt"]
        self.prefix = PREFIX % identity["key"]
        self._client: Any = None
        self._pid = 0
        self.problems: list[str] = []
        #: pairs this shard recorded, and pairs it finished that the tally already had
        self.recorded: list[int] = []
        self.again: list[int] = []
        self.totals = Totals()
        #: this shard stopped because the SPRT over all shards decided
        self.stopped = False
        self.final: dict[str, Any] | None = None

    def key(self, name: str) -> str:
        return self.prefix + name

    def _conn(self) -> Any:
        """A client of this process's own (a worker after the fork makes a new one)."""
        if self._client is None or self._pid != os.getpid():
            from .exampledb import client

            self._client, self._pid = client(self.where), os.getpid()
        return self._client

    def _try(self, what: str, call, default=None):
        if self.problems:
            return default
        import redis

        try:
            return call(self._conn())
        except (redis.RedisError, OSError) as exc:
            self.problems.append(f"--tally {self.where}: could not {what}, and the shard went on without the "
                                 f"tally: {' '.join(str(exc).split()) or type(exc).__name__}")
            return default

    def start(self) -> Totals:
        """The tally as the shard starts (its identity written if it is the first): a shard
        that finds the SPRT decided plays nothing."""
        def begin(conn: Any) -> Totals:
            conn.set(self.key("identity"), json.dumps(self.identity, sort_keys=True), nx=True)
            return Totals.parse(conn.hgetall(self.key("totals")))

        self.totals = self._try("read the tally", begin, self.totals)
        self.stopped = self.totals.decision is not None
        return self.totals

    def claim(self, pair: int) -> None:
        """Pair `pair` starts here (called as each of its games starts; only the first claim
        counts). A failure is left to the next record or read to say."""
        try:
            self._conn().eval(_CLAIM, 2, self.key("claims"), self.key("totals"), pair, self.owner)
        except Exception:  # noqa: BLE001 - in a worker: the parent's next command says it
            pass

    def after_game(self, t: Tally, index: int) -> bool:
        """After game `index` ended (it is in `t`): its pair recorded if it is complete, the
        totals read, the SPRT over all shards evaluated; True once it decided (stop)."""
        if self.problems:
            return False
        pair = pair_of(index)
        scores = pair_scores(t, pair)
        if scores is not None:
            added = self._record(pair, scores)
            if added is None:
                return False
            (self.recorded if added else self.again).append(pair)
        else:
            self.totals = self._try("read the tally", lambda c: Totals.parse(c.hgetall(self.key("totals"))),
                                    self.totals)
        if self.totals.decision is None:
            result = self.totals.sprt(self.options)
            if result is not None and result.decision != stats.CONTINUE:
                decision = {"decision": result.decision, "pairs": self.totals.pairs, "llr": result.llr,
                            "by": self.owner}
                self._try("record the SPRT's decision",
                          lambda c: c.hsetnx(self.key("totals"), "decision", json.dumps(decision)))
                self.totals.decision = decision
        self.stopped = self.totals.decision is not None
        return self.stopped

    def _record(self, pair: int, scores: tuple[float, float]) -> bool | None:
        """Record a finished pair: True, False if the tally had it already, None if the
        server is lost."""
        value = json.dumps({"by": self.owner, "scores": list(scores)})
        wins, draws = sum(s == 1 for s in scores), sum(s == 0.5 for s in scores)
        args = (pair, value, f"p{int(sum(scores) * 2)}", wins, draws, 2 - wins - draws, self.owner)
        answer = self._try("record a pair", lambda c: c.eval(_RECORD, 2, self.key("pairs"), self.key("totals"), *args))
        if answer is None:
            return None
        self.totals = Totals.parse(answer[1])
        return bool(answer[0])

    def snapshot(self, left: list[int]) -> dict[str, Any]:
        """The tally at this shard's end, for its report: the totals, and the pairs claimed
        and never recorded (in play in another shard, or lost with a shard that died).
        `left`: this shard's pairs it started and did not finish (the SPRT stopped it, or a
        signal): their claims are taken back, so only a shard that died leaves a claim."""
        for pair in left:
            self._try("take back a claim", lambda c: c.eval(_RELEASE, 1, self.key("claims"), pair, self.owner))

        def read(conn: Any) -> tuple[Any, Any, Any]:
            pipe = conn.pipeline(transaction=True)
            pipe.hgetall(self.key("claims"))
            pipe.hkeys(self.key("pairs"))
            pipe.hgetall(self.key("totals"))
            return tuple(pipe.execute())

        claims, done, totals = self._try("read the tally at the end", read, ({}, [], None))
        if totals is not None:
            self.totals = Totals.parse(totals)
        finished = {int(_text(p)) for p in done}
        unfinished = {int(_text(p)): _text(o) for p, o in claims.items() if int(_text(p)) not in finished}
        t = self.totals
        self.final = {"url": str(self.where), "key": self.identity["key"], "owner": self.owner,
                      "wdl": list(t.wdl), "pentanomial": list(t.pentanomial), "pairs": t.pairs,
                      "claimed": t.claimed, "recorded_by": dict(t.by), "decision": t.decision,
                      "unfinished": {str(p): o for p, o in sorted(unfinished.items())},
                      "recorded_here": sorted(self.recorded), "already_recorded": sorted(self.again),
                      "left_unfinished": sorted(left),
                      "stopped_here": self.stopped, "problems": list(self.problems)}
        return self.final


def check(where: RedisLocation) -> None:
    """The server answers (as `fuzz --database` checks it): ValueError, one line, otherwise."""
    from . import exampledb

    try:
        exampledb.check(where)
    except ValueError as exc:
        raise ValueError(str(exc).replace("--database", "--tally", 1)) from None
