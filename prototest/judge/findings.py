"""Findings: what a check saw, how much it matters, and the evidence.

A *kind* names what happened; a *severity* says how much it matters under the spec:
`fail` (the real judge would forfeit the bot) or `warn` (the real judge probably accepts
it, but the statement forbids it or it is fragile). Kinds are grouped into *checks*,
the units a report and a JUnit file show per game.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: kind -> check. The order of CHECKS is the order of the report.
KINDS: dict[str, str] = {
    "early_output": "handshake",
    "handshake": "handshake",
    "malformed": "protocol",
    "unexpected_output": "protocol",
    "illegal_move": "legality",
    "random_move": "legality",
    "rule_loss": "legality",
    "timeout": "timing",
    "slow": "timing",
    "busy_machine": "timing",
    "crash": "stability",
    "no_exit": "exit",
    "exit_status": "exit",
    "signal": "sandbox",
    "file_operation": "sandbox",
    "memory": "envelope",
    "cpu_share": "envelope",
    "processes": "envelope",
    "network": "envelope",
}
#: Findings that depend on how fast the bot ran, not on what it answered: a busy machine
#: can cause them (an answer, the start or the exit too slow). Such a finding is never
#: evidence that a bot is not deterministic, and a failure of one of these kinds is
#: played again alone before it is blamed on the bot (see prototest.play.pool, prototest.play.fuzz).
#: `busy_machine` is the warning left when it does not come back alone.
TIMING_KINDS = ("timeout", "slow", "no_exit", "cpu_share", "busy_machine")
#: A finding's figures of an answer's time (prototest.judge.answertime says what each one is).
TIME_FIELDS = ("elapsed_ms", "own_ms", "machine_ms", "bot_wait_ms", "judge_wait_ms", "others_cpu_ms",
               "thread_cpu_ms", "throttled_ms", "cpu_ms", "wait_ms")
CHECKS = ("handshake", "protocol", "legality", "timing", "stability", "exit", "sandbox", "envelope")

CHECK_TITLES = {
    "handshake": "start-up and handshake",
    "protocol": "answers follow the grammar, in turn",
    "legality": "moves are legal",
    "timing": "answers in time",
    "stability": "no crash mid-game",
    "exit": "exits when input closes",
    "sandbox": "leaves its judge and the files alone",
    "envelope": "within its platform's resources",
}


@dataclass
class Finding:
    kind: str
    severity: str  # "fail" or "warn"
    message: str
    game: int = 0
    turn: int | None = None  # the bot's own turn number, 1-based
    ply: int | None = None
    position: str | None = None
    moves: list[str] = field(default_factory=list)
    expected: str | None = None
    got: str | None = None
    elapsed_ms: float | None = None
    stderr_tail: list[str] = field(default_factory=list)
    transcript: str | None = None
    #: The limit an answer time was held to (timing findings), so that warnings measured
    #: against different limits are never folded into one.
    limit_ms: float | None = None
    #: The error line of a stack trace on the bot's stderr ("ReferenceError: x is not defined").
    stderr_error: str | None = None
    #: The file a file_operation finding is about (as the bot named it, made absolute).
    path: str | None = None
    count: int = 1  # identical findings in one game are folded into one
    #: Where and how long each folded occurrence was (the first included): the folded
    #: message shows the first one's figures only.
    occurrences: list[dict[str, Any]] = field(default_factory=list)
    rule: str = ""  # the spec rule or cause behind it ("crlf", "slow", ...), for folding
    #: The position as a board with coordinates (failures only; see games/base.py diagram).
    diagram: list[str] = field(default_factory=list)
    #: Fuzzing: in how many examples a folded warning was seen (None: one game's finding).
    examples: int | None = None
    #: What the answer it is about used: CPU time, and the time its threads were ready to
    #: run but waited for a CPU (summed over them), when measured (prototest.sandbox.envelope).
    cpu_ms: float | None = None
    wait_ms: float | None = None
    #: The answer's time in parts, each one the figure its message names
    #: (prototest.judge.answertime): the time the machine kept from it (machine_ms: the
    #: longest wait of one of the bot's threads for a CPU less the quota's, bot_wait_ms,
    #: and the judge's own wait to read it, judge_wait_ms, never more than the CPU time
    #: the machine's other processes used meanwhile, others_cpu_ms, nor than the answer's
    #: time less thread_cpu_ms, the CPU time of its busiest thread), the bot's own time
    #: (own_ms: elapsed_ms less machine_ms, and less throttled_ms, the time its CPU quota
    #: held it back, against the statement's limit), as measured; None when not.
    own_ms: float | None = None
    machine_ms: float | None = None
    bot_wait_ms: float | None = None
    judge_wait_ms: float | None = None
    others_cpu_ms: float | None = None
    thread_cpu_ms: float | None = None
    throttled_ms: float | None = None
    #: A WARN slow over the statement's limit (limit_ms): the referee's own, which it is within.
    referee_limit_ms: float | None = None
    #: The share of a limit its message states (of limit_ms, or of a platform's limit).
    limit_percent: int | None = None
    #: A cpu_share finding's worst wall time of the answer under the platform's share.
    share_worst_ms: float | None = None
    #: A busy_machine finding: the machine's load average (1 minute) and its cores.
    load_average: float | None = None
    cores: int | None = None
    #: A timeout: whether the bot was asleep by its own doing when its time ran out (every
    #: thread stopped, or asleep in a sleep, a wait for its child or a read of a pipe) and
    #: wanted almost no CPU meanwhile: a busy machine cannot cause that, so the game needs
    #: no re-check alone (see prototest.play.runner.Rechecks). None: not a timeout, or not known.
    asleep: bool | None = None

    @property
    def check(self) -> str:
        return KINDS.get(self.kind, "protocol")

    def key(self) -> tuple[str, str, str, float | None]:
        return (self.kind, self.severity, self.rule or _shape(self.message), self.limit_ms)

    def time_figures(self) -> dict[str, Any]:
        """Its figures of an answer's time (TIME_FIELDS), as its message states them."""
        return {name: getattr(self, name) for name in TIME_FIELDS}

    def occurrence(self) -> dict[str, Any]:
        return {"turn": self.turn, "ply": self.ply, "elapsed_ms": self.elapsed_ms, "limit_ms": self.limit_ms}

    def elapsed_range(self) -> tuple[float, float] | None:
        """The smallest and largest answer time over the folded occurrences."""
        times = [o["elapsed_ms"] for o in self.occurrences if o["elapsed_ms"] is not None]
        return (min(times), max(times)) if times else None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        """A finding read back from its JSON (`prototest merge`)."""
        return cls(**{k: v for k, v in data.items() if k in _FIELDS})

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["check"] = self.check
        data["occurrences"] = self.occurrences or [self.occurrence()]
        del data["rule"]
        return data


_FIELDS = frozenset(f.name for f in fields(Finding))


def _shape(message: str) -> str:
    """A message with its numbers blanked, so 'answered in 93 ms' repeats fold."""
    return re.sub(r"\d+", "#", message)


def fold(findings: list[Finding]) -> list[Finding]:
    """Keep the first of each repeated finding, counting the rest and keeping each one's
    figures in `occurrences`. Findings held to different limits stay apart (see key)."""
    seen: dict[tuple[str, str, str, float | None], Finding] = {}
    out = []
    for f in findings:
        first = seen.get(f.key())
        if first is None:
            seen[f.key()] = f
            f.occurrences = [f.occurrence()]
            out.append(f)
        else:
            first.count += 1
            first.occurrences.append(f.occurrence())
    return out


def show_moves(moves: list[str] | tuple[str, ...]) -> str:
    """Moves one after another. A move with spaces in it (Halma's "1 3 3 5") would run
    into the next one, so such moves are separated by commas."""
    return (", " if any(" " in m for m in moves) else " ").join(moves)
