"""The referee: one game between a bot and the built-in opponent, driven by a spec.

It joins the three layers: the spec (what is said on the wire and when), the rules
module (what is legal) and the bot process (lines and time). Every bot fault ends as a
`Finding` with its evidence, never as an exception out of `Referee.run`: a fault that
the real judge would forfeit ends the game (`Forfeit`), a warning is noted and play
goes on.
"""

from __future__ import annotations

import fcntl
import random
import re
import signal
import termios
import time
import unicodedata
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Sequence

from . import conduct, opponents, process, traces
from .findings import Finding, fold, show_moves
from .games.base import IllegalMove, Outcome, Position, Rules
from .spec import Spec
from .transcript import Transcript, show

_MS = 1_000_000
#: A game longer than this is stopped whatever the rules say (a safety net only).
MAX_PLIES = 20_000
#: How long to wait, after a timeout, for an answer stuck in an unflushed buffer.
FLUSH_PROBE_MS = 300
#: After a refused answer, how long to look for more lines (see _extra_output).
OUT_OF_TURN_PROBE_MS = 100
#: Whitespace as a referee that splits on it sees it (Rust's split_ascii_whitespace).
_WHITESPACE = re.compile(r"[ \t\n\x0c\r]+")
#: With no game chosen, the bot's first answer is given up on once the bot has sat idle in
#: a read of its input over this many probes, this far apart (times a time scale over 1).
IDLE_PROBE_MS = 100
IDLE_PROBES = 3
_CHAR_NAMES = {" ": "space", "\t": "tab", ";": "semicolon", ",": "comma"}


class StopGame(Exception):
    """Raised by a forced opponent (fuzzing, replays) to end the game early: the judge
    closes the bot's input as after a real end, and the result is "stopped"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Forfeit(Exception):
    """A fault the real judge would end the game for."""

    def __init__(self, finding: Finding, *, bot_usable: bool = True, also: Sequence[Finding] = ()) -> None:
        super().__init__(finding.message)
        self.finding = finding
        #: False when the bot is dead or unresponsive, so exit checks mean nothing.
        self.bot_usable = bot_usable
        #: Findings that came with it and are reported after it (extra output).
        self.also = list(also)


@dataclass
class GameConfig:
    spec: Spec
    rules: Rules
    rules_module: ModuleType
    argv: Sequence[str]
    seat: int
    seed: int
    index: int = 1
    time_scale: float = 1.0
    start_delay_ms: int | None = None
    env: dict[str, str] = field(default_factory=process.controlled_env)
    cwd: str | None = None
    start_position: Position | None = None
    #: Moves played from the start position before the bot's first turn: the bot is
    #: shown the position after them, with the last one as the opponent's last move.
    start_moves: Sequence[str] = ()
    #: Chooses the opponent's moves instead of the spec's built-in opponent; it may
    #: raise StopGame to end the game there.
    opponent: Callable[[Position], str] | None = None
    #: Stop the game (result "stopped") once the position has this many plies, or once
    #: the bot has answered this many turns.
    max_plies: int | None = None
    max_bot_turns: int | None = None
    #: Give up on the first answer once the bot sits idle in a read of its input (no game
    #: was chosen: a bot waiting for another protocol's input must not cost the whole clock).
    stop_when_idle: bool = False
    #: Keep every exchange (what the judge sent, clock values masked, and the answer):
    #: for comparing runs of the same game (fuzzing, replays).
    log_exchanges: bool = False
    #: A `time.monotonic()` after which the game stops (result "stopped"): a fuzzing
    #: budget that covers every game.
    deadline: float | None = None


@dataclass(frozen=True)
class Exchange:
    """One request and its answer. `sent` holds every line the judge sent since the
    previous answer, with clock values shown as `<time>` so that two runs of the same
    game send the same text; `answer` is None when no answer line came."""

    sent: tuple[str, ...]
    answer: str | None
    ply: int
    elapsed_ms: float | None = None


@dataclass
class GameReport:
    index: int
    seat: int
    seat_name: str
    seed: int
    result: str = "aborted"  # win / loss / draw / forfeit
    reason: str = ""
    plies: int = 0
    moves: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    startup_ms: float | None = None
    transcript: Transcript = field(default_factory=Transcript)
    transcript_path: str | None = None
    #: The built-in opponent's style ("smothering, never capture"), when it played.
    opponent: str | None = None
    #: The signal number that stopped this game (Ctrl-C, SIGTERM), if one did.
    interrupted: int | None = None
    #: With GameConfig.log_exchanges: every request and answer, in order, and the
    #: position before each move and after the last (positions[i] is where moves[i] was played).
    exchanges: list[Exchange] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    #: How the bot's file operations were watched ("seccomp"), or None and why not; what
    #: made its processes die with prototest ("keeper", "pid-namespace", "none").
    file_watch: str | None = None
    file_watch_missing: str = ""
    containment: str = "none"

    @property
    def failed(self) -> bool:
        return any(f.severity == "fail" for f in self.findings)

    @property
    def warned(self) -> bool:
        return any(f.severity == "warn" for f in self.findings)


class _Fields(dict):
    """Template fields, computed only when a template asks for them."""

    def __init__(self, compute: dict[str, Any]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: str) -> Any:
        value = self._compute[key]()
        self[key] = value
        return value


class Referee:
    def __init__(self, cfg: GameConfig) -> None:
        self.cfg = cfg
        self.spec = cfg.spec
        self.rng = random.Random(cfg.seed)
        self.report = GameReport(cfg.index, cfg.seat, cfg.spec.game.seats[cfg.seat], cfg.seed)
        self.position: Position = cfg.start_position or cfg.rules.initial()
        self.last_move: str | None = None
        #: Lines sent since the bot's last answer, clock values masked (log_exchanges).
        self._unanswered: list[str] | None = [] if cfg.log_exchanges else None
        if cfg.log_exchanges:
            self.report.positions.append(self.position)
        for move in cfg.start_moves:
            self._played(self.position.play(move), move)
        self.bot_turns = 0
        self.last_sent = "(nothing yet)"
        #: The time of the answer being judged, for every finding about it (None between answers).
        self.answer_ms: float | None = None
        t = cfg.spec.time
        self.clock_ns = [self._scaled(t.clock_ms)] * 2 if t.clock_ms else None
        self.bot: process.Bot | None = None
        self.opponent = cfg.opponent
        self._diagram = getattr(cfg.rules_module, "diagram", None)
        #: The rest of an answer that the referee's own reader left for its next read
        #: (read.referee_line_ends): (the character, the rest), until that read fails.
        self._broken_read: tuple[str, str] | None = None
        #: Whether the answer being read was written before the judge's request
        #: (read.between_turns = "answer": the runner reads it as this turn's answer).
        self._written_before = False
        #: When each turn began, so that an event (a file written, a signal) is placed in
        #: the turn it happened in, whenever it is seen.
        self._marks: list[conduct.Mark] = []

    # -- helpers --------------------------------------------------------------------------
    def _budget_ns(self) -> int | None:
        """The end of GameConfig.deadline on the perf_counter_ns clock."""
        if self.cfg.deadline is None:
            return None
        return time.perf_counter_ns() + int((self.cfg.deadline - time.monotonic()) * 1e9)

    def _scaled(self, ms: int | float) -> int:
        return int(ms * self.cfg.time_scale * _MS)

    def _finding(self, kind: str, severity: str, message: str, **evidence: Any) -> Finding:
        evidence.setdefault("elapsed_ms", self.answer_ms)
        f = Finding(kind=kind, severity=severity, message=message, game=self.cfg.index,
                    turn=self.bot_turns or None, ply=self.position.ply(),
                    position=self.position.notation(), moves=list(self.report.moves), **evidence)
        if self.bot is not None:
            f.stderr_tail = list(self.bot.stderr_tail)[-10:]
        if severity == "fail" and self._diagram is not None:
            f.diagram = self._diagram(self.position)
        return f

    def _note(self, finding: Finding) -> None:
        if finding.severity == "ignore":
            return
        self.report.findings.append(finding)
        mark = "F" if finding.severity == "fail" else "W"
        self.report.transcript.add(mark, f"{finding.severity.upper()} {finding.kind}: {finding.message}")

    def _warn(self, key: str, kind: str, message: str, *, rule: str = "", **evidence: Any) -> None:
        """A fault whose severity the spec's [severity] table sets; `rule` (default: the
        key) says which findings fold together."""
        severity = self.spec.severity[key]
        if severity == "fail":
            raise Forfeit(self._finding(kind, "fail", message, rule=rule or key, **evidence))
        self._note(self._finding(kind, severity, message, rule=rule or key, **evidence))

    def _fields(self) -> _Fields:
        pos = self.position
        seat = self.cfg.seat
        unit = self.spec.time.clock_unit_ms * _MS
        cap = self.spec.time.clock_max or None

        def clock(side: int) -> int:
            if self.clock_ns is None:
                return 0
            units = max(0, self.clock_ns[side]) // unit
            return min(units, cap) if cap else units

        return _Fields({
            "seat": lambda: self.spec.game.seats[seat],
            "last_move": lambda: self.last_move if self.last_move is not None else self.spec.turn.no_last_move,
            "clock": lambda: clock(seat),
            "opponent_clock": lambda: clock(1 - seat),
            "position": pos.notation,
            "legal_count": lambda: len(pos.legal_moves()),
            "move": lambda: self.last_move or "",
        })

    def _expand(self, templates: Sequence[str], fields: _Fields) -> list[str]:
        lines: list[str] = []
        for template in templates:
            stripped = template.strip()
            if stripped == "{board}":
                lines.extend(self.position.board_lines())
            elif stripped == "{legal_moves}":
                lines.extend(self.position.legal_moves())
            else:
                lines.append(template.format_map(fields))
        return lines

    def _render(self, templates: Sequence[str]) -> tuple[list[str], list[str]]:
        """The lines of some templates, and the same lines with clock values masked
        (computed only when exchanges are logged)."""
        fields = self._fields()
        lines = self._expand(templates, fields)
        if self._unanswered is None or not any(
                "{clock}" in t or "{opponent_clock}" in t for t in templates):
            return lines, lines
        masked = _Fields({**fields._compute, "clock": lambda: "<time>", "opponent_clock": lambda: "<time>"})
        return lines, self._expand(templates, masked)

    def _say(self, templates: Sequence[str]) -> None:
        """Fill some templates and send them."""
        self._send(*self._render(templates))

    def _send(self, lines: list[str], masked: list[str] | None = None, limit_ns: int | None = None) -> int:
        """Write lines to the bot; a bot gone or not reading is a Forfeit."""
        assert self.bot is not None
        if not lines:
            return time.perf_counter_ns()
        deadline = time.perf_counter_ns() + (limit_ns if limit_ns is not None else self._scaled(1000))
        t = self.bot.send(lines, deadline)
        if t is None:
            self._cannot_write(lines)
        self.last_sent = lines[-1]
        if self._unanswered is not None:
            self._unanswered.extend(masked if masked is not None else lines)
            if masked is not None and masked is not lines:
                self.report.transcript.mask_sent(masked)
        return t  # type: ignore[return-value]

    def _cannot_write(self, lines: list[str]) -> None:
        assert self.bot is not None
        bot = self.bot
        expected = f"the bot reads {lines[0]!r}"
        if bot.input_closed_by_bot:
            bot.wait_exit(100 * _MS)  # an exiting bot closes its input first: give it a moment
        if not bot.alive():
            trace = traces.find(bot.stderr_since(0))
            raise Forfeit(self._finding(
                "crash", "fail",
                f"the bot {process.describe_end(bot.returncode)} before the judge could send {lines[0]!r}"
                + (f"; stderr shows {trace.describe()}" if trace else ""),
                expected=expected, stderr_error=trace.error if trace else None), bot_usable=False)
        if bot.input_closed_by_bot:
            raise Forfeit(self._finding(
                "crash", "fail",
                f"the bot closed its input (stdin) but still runs: the judge could not send {lines[0]!r}",
                expected=expected), bot_usable=False)
        raise Forfeit(self._finding(
            "timeout", "fail",
            f"the bot does not read its input: the judge could not write {lines[0]!r} (its stdin pipe stayed full)",
            expected="the bot reads each line the judge sends"), bot_usable=False)

    # -- the game -------------------------------------------------------------------------
    def run(self) -> GameReport:
        report = self.report
        report.transcript.header = [
            f"prototest transcript: game {self.cfg.index}, {self.spec.game.title or self.spec.name}",
            f"spec: {self.spec.path}",
            f"bot: {' '.join(self.cfg.argv)}",
            f"seat: {report.seat_name} (seat {self.cfg.seat}), seed {self.cfg.seed}, time scale {self.cfg.time_scale}",
        ]
        try:
            severity = self.spec.severity
            bot = process.Bot(self.cfg.argv, env=self.cfg.env, transcript=report.transcript,
                              max_line=self.spec.read.max_bytes, cwd=self.cfg.cwd,
                              cr_ends_line=self.spec.read.line_end == "cr_lf",
                              watch_files=not severity["file_operation"] == severity["runtime_cache"] == "ignore")
            report.file_watch, report.file_watch_missing = bot.file_watch, bot.file_watch_missing
            report.containment = bot.containment
        except OSError as exc:
            self._note(self._finding("crash", "fail", f"the bot could not be started: {exc.strerror or exc}"))
            report.result = "forfeit"
            return report
        except KeyboardInterrupt as exc:  # the Bot killed what it had started
            self.interrupted(exc)
            return report
        try:
            with bot:  # leaving it kills the bot, with signals held back until that is done
                self.bot = bot
                usable = True
                try:
                    self._start()
                    self._play()
                    if report.result == "stopped":  # the game goes on for the bot: output now is out of turn
                        self._check_silence("when the judge stopped the game", always=True)
                except Forfeit as forfeit:
                    self._note(forfeit.finding)
                    for finding in forfeit.also:
                        self._note(finding)
                    report.result = "forfeit"
                    report.reason = forfeit.finding.kind
                    usable = forfeit.bot_usable
                if usable:
                    self._finish(after_forfeit=report.result == "forfeit")
            self._conduct(final=True)  # what the kill brought in (a signal sent meanwhile)
        except KeyboardInterrupt as exc:  # here too when it was held back during the kill
            self.interrupted(exc)
            self._conduct(final=True)
        report.plies = self.position.ply()
        report.findings = fold(report.findings)
        report.transcript.note(f"result: {report.result}" + (f" ({report.reason})" if report.reason else ""))
        return report

    def interrupted(self, exc: KeyboardInterrupt) -> None:
        """Ctrl-C or SIGTERM: the game stops here; the bot is killed on the way out."""
        self.report.interrupted = getattr(exc, "signum", signal.SIGINT)
        self.report.result = "interrupted"
        self.report.reason = signal.Signals(self.report.interrupted).name
        self.report.transcript.note(f"interrupted by {self.report.reason}")

    def _start(self) -> None:
        start = self.spec.start
        assert self.bot is not None
        if start.handshake:
            self._handshake(start.handshake, self._scaled(start.handshake_ms))
        silent_ms = start.silent_ms if self.cfg.start_delay_ms is None else self.cfg.start_delay_ms
        if silent_ms:
            self._stay_silent(self._scaled(silent_ms) if self.cfg.start_delay_ms is None else silent_ms * _MS)
        self._say(start.send)

    def _handshake(self, expected: str, limit_ns: int) -> None:
        assert self.bot is not None
        r = self.bot.read_line(self.bot.started_ns + limit_ns)
        elapsed = (r.t_ns - self.bot.started_ns) / _MS
        if r.kind == "line":
            shown = _shown(r)
            self.report.transcript.received(shown, r.t_ns)
            text = self._text_of(r, shown, "handshake", f"the {expected!r} line", elapsed_ms=elapsed)
            if text == expected:
                self.report.startup_ms = elapsed
                return
            if text.strip().lower() == expected.lower():
                raise Forfeit(self._finding(
                    "handshake", "fail", f"the first line must be exactly {expected!r}, got {text!r}",
                    expected=expected, got=show(shown), elapsed_ms=elapsed))
            raise Forfeit(self._finding(
                "early_output", "fail", f"wrote {text!r} before {expected!r}: the first line must be {expected!r}",
                expected=expected, got=show(shown), elapsed_ms=elapsed))
        if r.kind == "eof":
            self._crashed("before its handshake")
        partial = r.data.decode("utf-8", "replace")
        raise Forfeit(self._finding(
            "handshake", "fail",
            f"no {expected!r} line within {limit_ns / _MS:.0f} ms of start-up"
            + (f" (it sent {partial!r} without a newline)" if partial else ""),
            expected=expected, got=show(partial) if partial else None, elapsed_ms=elapsed),
            bot_usable=r.kind != "timeout")

    def _stay_silent(self, duration_ns: int) -> None:
        """The judge waits before its first line; the bot must write nothing meanwhile."""
        assert self.bot is not None
        r = self.bot.read_line(time.perf_counter_ns() + duration_ns)
        if r.kind == "timeout" and not r.data:
            return
        if r.kind == "eof" and not r.data:
            self._crashed("before the judge's first line")
        text = r.data.decode("utf-8", "replace")
        if r.kind == "line":
            self.report.transcript.received(text, r.t_ns)
        elapsed = (r.t_ns - self.bot.started_ns) / _MS
        raise Forfeit(self._finding(
            "early_output", "fail",
            f"wrote {text!r} {elapsed:.0f} ms after start-up, before the judge's first line "
            f"(the statement demands silence until then)",
            expected="no output before the first line", got=show(text), elapsed_ms=elapsed))

    def _play(self) -> None:
        try:
            self._moves()
        except StopGame as stop:
            self.report.result = "stopped"
            self.report.reason = stop.reason
            self.report.transcript.note(f"game stopped after {self.position.ply()} plies: {stop.reason}")

    def _moves(self) -> None:
        cfg = self.cfg
        while True:
            outcome = self.position.outcome()
            if outcome is not None:
                self._ended(outcome)
                return
            if self._broken_read is not None:  # the referee's next read fails: so does the game
                raise Forfeit(self._broken_read_finding())
            if self.position.ply() >= MAX_PLIES:
                self._ended(Outcome(None, f"stopped by prototest after {MAX_PLIES} plies"))
                return
            if cfg.max_plies is not None and self.position.ply() >= cfg.max_plies:
                raise StopGame(f"the judge stops at ply {cfg.max_plies}")
            if cfg.max_bot_turns is not None and self.bot_turns >= cfg.max_bot_turns:
                raise StopGame(f"the judge stops after {self.bot_turns} answer(s) of the bot")
            if cfg.deadline is not None and time.monotonic() >= cfg.deadline:
                raise StopGame("the time budget ran out")
            if self.position.turn() == cfg.seat:
                self._bot_turn()
            else:
                t0 = time.perf_counter_ns()
                move = self._opponent_move()
                self._played(self.position.play(move), move)
                if self.clock_ns is not None:
                    self.clock_ns[1 - self.cfg.seat] -= time.perf_counter_ns() - t0
                if self.spec.after_move.opponent:
                    self._check_silence(f"after the judge sent {self.last_sent!r}")
                    self._say(self.spec.after_move.opponent)

    def _opponent_move(self) -> str:
        if self.opponent is None:  # the spec's built-in opponent, drawn for this game
            builtin = opponents.Opponent(self.cfg.rules_module, self.spec.opponent.style, self.cfg.seed)
            self.report.opponent = builtin.style.describe()
            self.opponent = builtin
        return self.opponent(self.position)

    def _played(self, position: Position, move: str) -> None:
        self.position = position
        self.last_move = move
        self.report.moves.append(move)
        if self._unanswered is not None:
            self.report.positions.append(position)

    def _ended(self, outcome: Outcome) -> None:
        self.report.result = outcome.result_for(self.cfg.seat)
        self.report.reason = outcome.reason
        self.report.transcript.note(f"game over after {self.position.ply()} plies: {outcome.reason}")
        if self.cfg.seat in outcome.blamed:  # the result stands; the referee calls it the bot's error
            self._soft("rule_loss", "rule_loss", f"{self.report.result} by {outcome.fault}", got=outcome.reason)

    # -- one turn of the bot --------------------------------------------------------------
    def _turn_limit_ns(self) -> tuple[int, str]:
        """The time this answer may take, and what sets it."""
        t = self.spec.time
        limits: list[tuple[int, str]] = []
        if self.clock_ns is not None:
            limits.append((max(0, self.clock_ns[self.cfg.seat]), "the time left on its clock"))
        per_answer = t.first_answer_ms if self.bot_turns == 1 and t.first_answer_ms else t.answer_ms
        if per_answer:
            which = "first answer" if self.bot_turns == 1 and t.first_answer_ms else "answer"
            limits.append((self._scaled(per_answer), f"the {which} limit"))
        return min(limits)

    def _bot_turn(self) -> None:
        self._conduct()
        self.bot_turns += 1
        self._check_silence(f"after the judge sent {self.last_sent!r}")
        templates = list(self.spec.turn.send)
        if self.bot_turns == 1:
            templates = list(self.spec.turn.first_send) + templates
        lines, masked = self._render(templates)
        for attempt in range(10):
            limit_ns, limit_what = self._turn_limit_ns()
            self._written_before = self._line_waiting()
            t_sent = self._send(lines, masked, limit_ns)
            if attempt == 0:
                self._mark(t_sent, self.bot_turns, f"on its turn {self.bot_turns}")
            r, text, elapsed_ns = self._read_answer(t_sent, limit_ns, limit_what)
            self._conduct()
            if self.clock_ns is not None:
                self.clock_ns[self.cfg.seat] -= elapsed_ns
            self.answer_ms = elapsed_ns / _MS
            try:
                self._answer(r, text, elapsed_ns, limit_ns)
                return
            except Forfeit as forfeit:
                if forfeit.finding.kind == "malformed":
                    forfeit.also.extend(self._extra_output(text, t_sent))
                raise
            except IllegalMove as exc:
                finding = self._illegal(text, exc, elapsed_ns)
                extra = self._extra_output(text, t_sent)
                self._say(self.spec.turn.denied)
                if self.spec.turn.on_illegal == "forfeit" or extra:
                    raise Forfeit(finding, also=extra) from None
                self._note(finding)
                lines = masked = []  # retry: the bot answers again, nothing more is sent
            finally:
                self.answer_ms = None
        raise Forfeit(self._finding("illegal_move", "fail", "ten illegal answers in one turn"))

    def _read_answer(self, t_sent: int, limit_ns: int, limit_what: str) -> tuple[process.Read, str, int]:
        """The answer line as read, as shown (decoded with replacement, a \\r line end
        kept), and its time; every way of not answering is a Forfeit."""
        assert self.bot is not None
        budget_ns = self._budget_ns()
        if budget_ns is not None and budget_ns < t_sent + limit_ns:
            r = self.bot.read_line(budget_ns)  # a fuzzing budget that ends before the limit
            if r.kind == "timeout":
                raise StopGame("the time budget ran out while the bot was thinking")
        elif self.cfg.stop_when_idle and self.bot_turns == 1:
            r = self._read_or_idle(t_sent + limit_ns)
        else:
            r = self.bot.read_line(t_sent + limit_ns)
        elapsed_ns = r.t_ns - t_sent
        shown = _shown(r) if r.kind == "line" else ""
        if self._unanswered is not None:
            answer = shown if r.kind == "line" and elapsed_ns <= limit_ns else None
            self.report.exchanges.append(
                Exchange(tuple(self._unanswered), answer, self.position.ply(), elapsed_ns / _MS))
            self._unanswered = []
        if r.kind == "line" and elapsed_ns > limit_ns:
            self._too_late(r, elapsed_ns, limit_ns, limit_what)
        if r.kind in ("timeout", "idle"):
            self._timed_out(r.data, elapsed_ns, limit_ns, limit_what, idle=r.kind == "idle")
        if r.kind == "eof":
            self._crashed(f"on its turn {self.bot_turns}, before answering", partial=r.data)
        if r.kind == "overflow":
            self._overflow(r, elapsed_ns)
        self.report.transcript.received(shown, r.t_ns, elapsed_ns)
        if self.bot_turns == 1 and self.report.startup_ms is None:
            self.report.startup_ms = elapsed_ns / _MS
        else:
            self.report.answer_ms.append(elapsed_ns / _MS)
        return r, shown, elapsed_ns

    def _read_or_idle(self, deadline_ns: int) -> process.Read:
        """Read the answer, but give up early (a Read of kind "idle") once the bot sits
        idle in a read of its input: the whole request read, no CPU time used over
        IDLE_PROBES probes. Nothing but more input can wake it, and none is coming: used
        when no game was chosen, where a bot waiting for another protocol's input would
        otherwise cost the whole clock."""
        assert self.bot is not None
        idle, ticks = 0, -1
        while True:
            probe_ns = int(IDLE_PROBE_MS * max(1.0, self.cfg.time_scale) * _MS)
            step = min(deadline_ns, time.perf_counter_ns() + probe_ns)
            r = self.bot.read_line(step)
            if r.kind != "timeout" or step >= deadline_ns:
                return r
            now = self.bot.cpu_ticks()
            if not r.data and now == ticks and not _unread_bytes(self.bot) and self.bot.waiting_for_input():
                idle += 1
                if idle >= IDLE_PROBES:
                    return process.Read("idle", b"", time.perf_counter_ns())
            else:
                idle = 0
            ticks = now

    def _overflow(self, r: process.Read, elapsed_ns: int) -> None:
        """No line end within read.max_bytes: a timeout or a malformed answer (read.over_max)."""
        limit = self.spec.read.max_bytes
        end = "newline" if self.spec.read.line_end == "lf" else "line end"
        got = show(r.data.decode("utf-8", "replace")) + "..."
        said = f"sent {limit} bytes without a {end}: the referee reads at most {limit} bytes of "
        if self.spec.read.over_max == "timeout":
            raise Forfeit(self._finding(
                "timeout", "fail", said + f"a turn, its {end} included, and counts a turn without one as a timeout",
                expected=self.spec.turn.answer_help, got=got, elapsed_ms=elapsed_ns / _MS, rule="over_max"),
                bot_usable=False)
        raise Forfeit(self._finding(
            "malformed", "fail", said + f"a line, its {end} included ({limit - 1} before it), and refuses a longer one",
            expected=self.spec.turn.answer_help, got=got, elapsed_ms=elapsed_ns / _MS), bot_usable=False)

    def _line_waiting(self) -> bool:
        """With read.between_turns = "answer": whether a whole line already waits in the
        bot's output, written before the request it will be read as the answer to."""
        if self.spec.read.between_turns != "answer" or self.bot is None:
            return False
        waiting = self.bot.peek()
        return b"\n" in waiting or (self.spec.read.line_end == "cr_lf" and b"\r" in waiting)

    def _answer(self, r: process.Read, raw: str, elapsed_ns: int, limit_ns: int) -> None:
        """Judge one answer line; IllegalMove when the referee would refuse the move."""
        turn = self.spec.turn
        text = self._referee_cut(self._text_of(r, raw, "malformed", "the answer line"), raw)
        move, comment = self._parse(text, raw, elapsed_ns)
        if comment is not None and turn.comment_max and len(comment) > turn.comment_max:
            shown = repr(comment) if len(comment) <= 40 else f"{comment[:40]!r}..."
            self._warn("comment_too_long", "malformed",
                       f"the comment {shown} is {len(comment)} characters; the referee keeps {turn.comment_max}",
                       got=show(raw))
        if turn.random_keyword and move == turn.random_keyword:
            self._warn("random", "random_move",
                       f"answered {move!r}: the referee plays a random move for the bot",
                       got=show(raw))
            legal = self.position.legal_moves()
            move = legal[self.rng.randrange(len(legal))]
        judged = self._judge(move, raw)
        for warning in judged.warnings:
            self._warn_rule(warning, raw)
        self._timing(elapsed_ns, limit_ns)
        self.answer_ms = None  # judged: what follows is the judge's own doing
        self._played(judged.position, judged.move)
        self._say(turn.accepted)
        if self.spec.after_move.own:
            self._say(self.spec.after_move.own)

    def _text_of(self, r: process.Read, raw: str, kind: str, what: str, **evidence: Any) -> str:
        """The line as the referee reads it: decoded (read.decode) and without its line end
        (read.line_end, read.strip_cr); a \\r taken as part of the line end is a warning."""
        cr_end = r.end[:1] == b"\r"
        text = raw[:-1] if cr_end else raw  # decoded with replacement: valid UTF-8 has no U+FFFD then
        if "\ufffd" in text:
            try:
                r.data.decode("utf-8")
            except UnicodeDecodeError as exc:
                self._invalid_utf8(r.data, exc.start, raw, kind, what, **evidence)
        if cr_end:
            self._warn("crlf", kind, f"{what} ends with \\r (\\r\\n or a bare \\r): the referee ends a "
                       f"line there too; write a plain \\n line ending", got=show(raw), **evidence)
        elif self.spec.read.strip_cr and text[-1:] == "\r":
            text = text[:-1]
            self._warn("crlf", kind, f"{what} ends with \\r\\n: the referee removes one \\r before the "
                       f"\\n; write a plain \\n line ending", got=show(raw), **evidence)
        return text

    def _invalid_utf8(self, data: bytes, start: int, raw: str, kind: str, what: str, **evidence: Any) -> None:
        bad = f"byte 0x{data[start]:02x} at offset {start}"
        sep = self.spec.read.comment_separator.encode()
        in_comment = bool(sep) and 0 <= data.find(sep) < start
        if self.spec.read.decode == "strict":
            raise Forfeit(self._finding(kind, "fail", f"{what} is not valid UTF-8 text ({bad}): the referee refuses it",
                                        got=show(raw), **evidence))
        where = "the comment" if in_comment else what
        self._warn("invalid_utf8", kind,
                   f"{where} holds bytes that are not UTF-8 ({bad}): the referee decodes them as U+FFFD"
                   + (" and plays the move" if in_comment else "")
                   + "; a stricter runner may refuse the line", got=show(raw), **evidence)

    def _referee_cut(self, text: str, raw: str) -> str:
        """The referee's own reader also ends a line at read.referee_line_ends: it takes
        the text before the first one as the answer and leaves the rest for its next read."""
        ends = self.spec.read.referee_line_ends
        if not ends or not any(c in text for c in ends):
            return text
        cut = min(i for i in (text.find(c) for c in ends) if i >= 0)
        self._broken_read = (text[cut], text[cut + 1:])
        return text[:cut]

    def _broken_read_finding(self) -> Finding:
        assert self._broken_read is not None
        char, rest = self._broken_read
        name = unicodedata.name(char, "a line separator")
        return self._finding(
            "malformed", "fail",
            f"the answer before held U+{ord(char):04X} ({name}): the referee's own reader ends a line there "
            f"too, took the text before it as the answer, and reads the rest, {rest!r}, as its next command: "
            f"the game breaks on the next turn. Keep such characters out of comments",
            expected="an answer without " + ", ".join(f"U+{ord(c):04X}" for c in self.spec.read.referee_line_ends),
            got=show(rest))

    def _parse(self, text: str, raw: str, elapsed_ns: int) -> tuple[str, str | None]:
        """The move and the comment the referee reads; a line it cannot read is a Forfeit."""
        if not self.spec.read.comment_separator:
            text = self._clean(text)
        parsed = self.spec.parse_answer(text)
        if parsed is None:
            text, parsed = self._loose_whitespace(text, raw)
        if parsed is None:
            raise Forfeit(self._finding(
                "malformed", "fail", self._grammar_message(text) + self._before_request(),
                expected=self.spec.turn.answer_help, got=show(raw), elapsed_ms=elapsed_ns / _MS))
        move, comment = parsed
        if self.spec.read.comment_separator and comment is not None and not comment.strip():
            self._warn("trailing_space", "malformed",
                       f"the comment after {move!r} is empty ({text!r}): the referee accepts it; a stricter "
                       f"judge compares the whole line", got=show(raw))
        return move, comment

    def _before_request(self) -> str:
        return (" (a line the bot wrote before this request: the referee reads it as this turn's answer)"
                if self._written_before else "")

    def _judge(self, move: str, raw: str):
        try:
            return self.position.judge(move)
        except IllegalMove:
            legal = self.position.legal_moves()
            if self.spec.turn.match == "prefix":
                for candidate in legal:
                    if move.startswith(candidate):
                        self._warn("prefix_match", "malformed",
                                   f"{move!r} is accepted by the referee as {candidate!r} (it compares prefixes"
                                   + (f"; {_whitespace_found(move)} does not start a comment" if
                                      _WHITESPACE.search(move) else "")
                                   + "); write the move alone", got=show(raw))
                        return self.position.judge(candidate)
            bare = move.split()
            if bare and bare[0] != move and bare[0] in legal:
                sep = self.spec.read.comment_separator
                until = f"all the text before the first {_CHAR_NAMES.get(sep, repr(sep))}" if sep else "the whole line"
                raise IllegalMove(move, f"the referee compares {until} with the listed moves, "
                                        f"{_whitespace_found(move)} included: write {bare[0]!r}",
                                  malformed=True) from None
            raise

    def _warn_rule(self, warning: str, raw: str) -> None:
        """A rules module's warning: "kind: message", or a plain message (illegal_move)."""
        kind, sep, message = warning.partition(": ")
        if not sep or kind not in ("malformed", "illegal_move"):
            kind, message = "illegal_move", warning
        self._note(self._finding(kind, "warn", message, got=show(raw), rule=_shape_rule(message)))

    def _clean(self, text: str) -> str:
        """Trailing blanks, which a lenient judge strips (severity.trailing_space)."""
        stripped = text.rstrip(" \t")
        if stripped != text:
            self._warn("trailing_space", "malformed",
                       f"trailing whitespace after {stripped!r}: a strict judge compares the whole line",
                       got=show(text))
        return stripped

    def _loose_whitespace(self, text: str, raw: str) -> tuple[str, tuple[str, str | None] | None]:
        """An answer that fits the grammar once its whitespace is tidied (leading blanks,
        two spaces, a tab, a \\r): a referee that splits the line on whitespace reads it so.
        The spec's severity.loose_whitespace says whether the judge does (warn) or not (fail)."""
        tidy = " ".join(_WHITESPACE.split(text.strip(" \t\n\x0c\r")))
        parsed = self.spec.parse_answer(tidy) if tidy != text else None
        if parsed is None:
            return text, None
        found = _whitespace_found(text)
        sep = self.spec.read.comment_separator
        if sep and text.startswith(sep) and self.spec.severity["loose_whitespace"] == "fail":
            message = (f"{text!r} starts with a {_CHAR_NAMES.get(sep, repr(sep))}: the referee takes the text "
                       f"before the first one as the move, an empty one here; write {tidy!r}")
        elif self.spec.severity["loose_whitespace"] == "fail":
            message = f"{text!r} has {found}: the judge reads the line as written; write {tidy!r}"
        else:
            message = (f"{text!r} has {found}: the referee splits the line on whitespace and reads "
                       f"{tidy!r}; a stricter judge would not: write single spaces")
        self._warn("loose_whitespace", "malformed", message, got=show(raw),
                   expected=self.spec.turn.answer_help)
        return tidy, parsed

    def _grammar_message(self, text: str) -> str:
        for hint in self.spec.turn.hints:
            m = hint.pattern.fullmatch(text)
            if m:
                return hint.message.format(**m.groupdict())
        if not text:
            return f"an empty line; expected {self.spec.turn.answer_help}"
        return f"{text!r} is not {self.spec.turn.answer_help}"

    def _illegal(self, raw: str, exc: IllegalMove, elapsed_ns: int) -> Finding:
        kind = "malformed" if exc.malformed else "illegal_move"
        legal = self.position.legal_moves()
        shown = show_moves(list(legal[:40]) + (["..."] if len(legal) > 40 else []))
        return self._finding(kind, "fail", f"{exc.move!r}: {exc.reason}{self._before_request()}",
                             expected=f"one of {len(legal)} legal moves: {shown}",
                             got=show(raw), elapsed_ms=elapsed_ns / _MS)

    def _timing(self, elapsed_ns: int, limit_ns: int) -> None:
        t = self.spec.time
        ms = elapsed_ns / _MS
        statement_ns = self._scaled(t.statement_answer_ms) if t.statement_answer_ms else None
        if statement_ns and elapsed_ns > statement_ns and not (self.bot_turns == 1 and t.first_answer_ms):
            self._warn("slow", "slow",
                       f"answered in {ms:.1f} ms: over the statement's {statement_ns / _MS:.0f} ms, "
                       f"within the referee's {limit_ns / _MS:.0f} ms", elapsed_ms=ms,
                       rule="slow:statement", limit_ms=statement_ns / _MS)
        elif elapsed_ns * 100 > limit_ns * t.near_limit_percent:
            self._warn("slow", "slow",
                       f"answered in {ms:.1f} ms, {100 * elapsed_ns / limit_ns:.0f}% of the {limit_ns / _MS:.0f} ms it had",
                       elapsed_ms=ms, rule="slow:near_limit", limit_ms=limit_ns / _MS)

    # -- faults ---------------------------------------------------------------------------
    def _check_silence(self, when: str, *, always: bool = False) -> None:
        """Output between turns is out of turn; unless the spec's runner reads it as the
        bot's next answer (read.between_turns), which its next turn then judges."""
        assert self.bot is not None
        if self.spec.read.between_turns == "answer" and not always:
            return
        data = self.bot.pending()
        if data:
            text = data.decode("utf-8", "replace").split("\n")[0]
            self.report.transcript.received(data.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
            raise Forfeit(self._finding(
                "unexpected_output", "fail",
                f"wrote {text!r} when it was not its turn ({when})",
                expected="silence until the next request", got=show(text)))

    def _extra_output(self, text: str, t_sent: int) -> list[Finding]:
        """More lines right after a refused answer: the bot writes several lines per
        request (debug output, or a line for every input line). The referee acts on the
        first line, so the refused answer is the main finding; this one, reported after
        it, names the extra lines (the transcript has them all)."""
        assert self.bot is not None
        deadline = time.perf_counter_ns() + OUT_OF_TURN_PROBE_MS * _MS
        extra: list[tuple[str, int]] = []
        while len(extra) < 100:
            r = self.bot.read_line(deadline)
            if r.kind != "line":
                break
            follow = r.data.decode("utf-8", "replace")
            self.report.transcript.received(follow, r.t_ns, r.t_ns - t_sent)
            extra.append((follow, r.t_ns - t_sent))
        if not extra or self._written_before:  # a line written earlier, then the real answer: no extra line
            return []
        follow, elapsed_ns = extra[0]
        more = f" and {len(extra) - 1} more lines" if len(extra) > 1 else ""
        return [self._finding(
            "unexpected_output", "fail",
            f"after {text!r} it wrote {follow!r}{more} for the same request: one line per answer, "
            f"nothing out of turn (debug output belongs on stderr)",
            expected=f"one line: {self.spec.turn.answer_help}", got=show(follow), elapsed_ms=elapsed_ns / _MS)]

    def _timed_out(self, partial: bytes, elapsed_ns: int, limit_ns: int, limit_what: str,
                   idle: bool = False) -> None:
        """A missing answer. Before giving up, tell a slow bot from one whose answer sits in
        an unflushed buffer: the latter is asleep in a read of its input (wchan), and its
        answer appears at once when that input is closed (exit flushes the buffer). `idle`:
        the judge gave up early, the bot sitting idle in a read (see _read_or_idle)."""
        assert self.bot is not None
        unread = _unread_bytes(self.bot)
        input_closed = self.bot.input_closed()
        waiting = self.bot.waiting_for_input()
        self.bot.close_stdin()
        # The partial line is still in the buffer, so what comes back starts with it.
        late = self.bot.drain(FLUSH_PROBE_MS * _MS)[len(partial):]
        message = f"no answer within {limit_ns / _MS:.0f} ms ({limit_what})"
        if idle:
            message = (f"no answer: {elapsed_ns / _MS:.0f} ms after the request the bot sat idle in a read of "
                       f"its input, so the judge stopped waiting before its {limit_ns / _MS:.0f} ms "
                       f"({limit_what}) ran out (no game was chosen)")
        got = None
        cause = ""  # kept as the finding's rule: protocol detection reads it
        if partial:
            got = show(partial.decode("utf-8", "replace"))
            message += f"; it sent {partial.decode('utf-8', 'replace')!r} without a newline"
        if late.strip():
            first = (partial + late).decode("utf-8", "replace").split("\n")[0]
            self.report.transcript.received(late.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
            if waiting:
                cause = "no_flush"
                message += (f"; the answer {first!r} arrived only when its input was closed: the bot "
                            f"probably does not flush its output (a terminal would have shown it): "
                            f"flush after every line")
            else:
                cause = "too_slow"
                message += f"; its answer {first!r} came later: too slow"
        elif waiting and not partial:
            cause = "waiting_for_input"
            message += self._silent_wait(unread)
        elif input_closed:
            cause = "closed_input"
            message += "; it closed its input (stdin) without reading the request"
        elif unread:
            cause = "not_reading"
            message += f"; it has not read its input ({unread} bytes of the request are still unread)"
        raise Forfeit(self._finding("timeout", "fail", message, expected=self.spec.turn.answer_help,
                                    got=got, elapsed_ms=elapsed_ns / _MS, rule=cause), bot_usable=False)

    def _silent_wait(self, unread: int) -> str:
        """A bot asleep in a read of its input that wrote nothing, and nothing when its
        input was closed either: no answer was seen in a buffer, so both causes stay open
        unless its exit settled it (an exit flushes the buffers: nothing came, so none
        was held)."""
        assert self.bot is not None
        read = "it read the whole request and" if not unread else f"with {unread} bytes of the request unread, it"
        if not self.bot.alive():
            return (f"; {read} waited for more input, and when its input was closed it "
                    f"{process.describe_end(self.bot.returncode)} without an answer: it expects more "
                    f"(or other) input than the judge sends")
        return (f"; {read} is waiting for more input: either it expects more (or other) input than "
                f"the judge sends, or its answer is stuck in an output buffer it never flushes "
                f"(closing its input brought nothing out)")

    def _too_late(self, r: process.Read, elapsed_ns: int, limit_ns: int, limit_what: str) -> None:
        """A whole answer that was read only after the deadline: the judge had stopped
        waiting, as a real judge would have."""
        text = r.data.decode("utf-8", "replace")
        self.report.transcript.received(text, r.t_ns, elapsed_ns)
        raise Forfeit(self._finding(
            "timeout", "fail",
            f"answered {text!r} after {elapsed_ns / _MS:.1f} ms: over the {limit_ns / _MS:.0f} ms "
            f"it had ({limit_what})",
            expected=self.spec.turn.answer_help, got=show(text), elapsed_ms=elapsed_ns / _MS),
            bot_usable=True)

    def _crashed(self, when: str, partial: bytes = b"") -> None:
        assert self.bot is not None
        code, _ = self.bot.wait_exit(500 * _MS)
        if code is None:
            message = f"the bot closed its output {when} but is still running"
        else:
            message = f"the bot {process.describe_end(code)} {when}"
        if partial:
            message += f"; its last output was {partial.decode('utf-8', 'replace')!r} without a newline"
        trace = traces.find(self.bot.stderr_since(0))
        if trace is not None:
            message += f"; stderr shows {trace.describe()}"
        raise Forfeit(self._finding("crash", "fail", message, expected=self.spec.turn.answer_help,
                                    stderr_error=trace.error if trace else None), bot_usable=False)

    def _finish(self, after_forfeit: bool = False) -> None:
        """Close the bot's input and check that it exits, as the spec says. After a
        forfeit the bot may still be answering what came before: its output then goes to
        the transcript but is no finding of its own."""
        assert self.bot is not None
        bot = self.bot
        stderr_mark = bot.stderr_count
        self._conduct(final=True)
        self._mark(time.perf_counter_ns(), None, "after the game ended")
        # Written after the last move, before or after the input was closed: the real
        # referees stop reading at the game's end, so when it came does not matter.
        late = bot.pending()
        bot.close_stdin()
        grace_ns = self._scaled(self.spec.end.exit_grace_ms)
        code, more = bot.wait_exit(grace_ns)
        late += more
        if late:
            text = late.decode("utf-8", "replace").split("\n")[0]
            self.report.transcript.received(late.decode("utf-8", "replace").rstrip("\n"), time.perf_counter_ns())
        if late and not after_forfeit:
            self._soft("output_after_end", "unexpected_output",
                       f"wrote {text!r} after the game ended (the referee reads nothing more: the result stands)",
                       got=show(text))
        if code is None:
            self._soft("no_exit", "no_exit",
                       f"still running {grace_ns / _MS:.0f} ms after its input was closed (killed)",
                       expected=f"exit within {grace_ns / _MS:.0f} ms of end of input",
                       got="still running")
            return
        trace = traces.find(bot.stderr_since(stderr_mark))
        if code != 0 or trace is not None:
            got = process.describe_status(code) + (f", {trace.describe()}" if trace else "")
            message = f"the bot {process.describe_end(code)} after its input was closed"
            if trace is not None:
                message += f", and its stderr shows {trace.describe()}"
            self._soft("exit_status", "exit_status", message, expected="exit status 0", got=got,
                       stderr_error=trace.error if trace else None)

    # -- outside the dialogue: signals and files ---------------------------------------
    def _mark(self, t_ns: int, turn: int | None, label: str) -> None:
        self._marks.append(conduct.Mark(t_ns, turn, self.position, len(self.report.moves), label))  # a tuple: cheap

    def _conduct(self, final: bool = False) -> None:
        """Findings for what the bot did outside the dialogue since the last look. A FAIL
        ends the game (a Forfeit) unless the game is over already (`final`)."""
        if self.bot is None or not (final or self.bot.events):  # the usual case: nothing, at once
            return
        findings = [f for f in map(self._event_finding, self.bot.take_events(look=final)) if f is not None]
        fails = [f for f in findings if f.severity == "fail"]
        for finding in findings:
            if final or finding.severity != "fail":
                self._note(finding)
        if fails and not final:
            raise Forfeit(fails[0], also=fails[1:])

    def _event_finding(self, event: dict[str, Any]) -> Finding | None:
        """The finding of one event, placed at the moment it happened."""
        mark = conduct.when(self._marks, event.get("t", 0))
        if event.get("e") == "signal":
            finding = self._finding("signal", "fail", conduct.signal_message(event),
                                    expected="no signal to the judge", rule="signal",
                                    got=f"{conduct.signal_name(int(event.get('sig', 0)))} from {conduct.sender(event)}")
        elif event.get("e") == "file":
            what, key, rule, cache = conduct.file_operation(event)
            severity = self.spec.severity[key]
            if severity == "ignore":
                return None
            finding = self._finding(
                "file_operation", severity, conduct.file_message(what, conduct.moment(mark), severity, cache),
                expected="no file created, written, renamed or deleted", got=f"{what} (by {conduct.sender(event)})",
                rule=rule, path=event.get("path"))
        else:
            return None
        finding.elapsed_ms = None
        finding.turn = mark.turn if mark else None
        if mark is not None:
            finding.ply, finding.position = mark.position.ply(), mark.position.notation()
            finding.moves = finding.moves[:mark.moves]
        return finding

    def _soft(self, key: str, kind: str, message: str, **evidence: Any) -> None:
        severity = self.spec.severity[key]
        self._note(self._finding(kind, severity, message, **evidence))


def _whitespace_found(text: str) -> str:
    """Name the loose whitespace in a line: 'leading whitespace', 'a tab', '2 spaces in a row'."""
    found = []
    if text[:1] in (" ", "\t", "\x0c"):
        found.append("leading whitespace")
    if "\t" in text:
        found.append("a tab")
    runs = [len(m.group()) for m in re.finditer(r" {2,}", text.lstrip(" \t\x0c"))]
    if runs:
        found.append(f"{max(runs)} spaces in a row")
    if "\x0c" in text.lstrip(" \t\x0c"):
        found.append("a form feed")
    if "\r" in text:
        found.append("a carriage return")
    return " and ".join(found) or "loose whitespace"


def _shown(r: process.Read) -> str:
    """An answer line as it crossed the pipe, for transcripts and messages: decoded with
    replacement, a \\r that ended it kept (the \\n is the line's end)."""
    data = r.data + b"\r" if r.end[:1] == b"\r" else r.data
    return data.decode("utf-8", "replace")


def _shape_rule(message: str) -> str:
    """Fold rule warnings that differ only in squares and numbers."""
    return "rule:" + re.sub(r"\d+", "#", message.split(":")[0])


def _unread_bytes(bot: process.Bot) -> int:
    """Bytes the judge wrote that the bot has not read yet (FIONREAD on the pipe)."""
    fd = bot.stdin_fd
    if fd is None:
        return 0
    try:
        buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return 0
    return int.from_bytes(buf, "little")
