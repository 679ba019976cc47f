"""The referee: one game between a bot and the built-in opponent, driven by a spec.

It joins the three layers: the spec (what is said on the wire and when), the rules
module (what is legal) and the bot process (lines and time). Every bot fault ends as a
`Finding` with its evidence, never as an exception out of `Referee.run`: a fault that
the real judge would forfeit ends the game (`Forfeit`), a warning is noted and play
goes on.

This module holds the game itself (its run, the turns); the bot's start is
`prototest.judge.startup`, the dialogue on the pipes `prototest.judge.dialogue`, the judging
of each answer line `prototest.judge.judging`, the accounting of its time and resources
`prototest.judge.accounting`, its findings made and noted `prototest.judge.faults`, what the
bot did outside the dialogue `prototest.judge.events`, how the game ended in its report
`prototest.judge.gameend`, and the game's data (GameConfig, GameReport, Exchange, StopGame,
Forfeit) `prototest.judge.game`, re-exported here.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from . import progress, startup
from ..sandbox import conduct, process
from ..games import opponents
from .accounting import Accounting
from .dialogue import Dialogue
from ..sandbox.envelope import Envelope
from ..sandbox.transcript import Transcript
from .events import EventFindings
from .faults import Faults
from .gameend import GameEnd
from .game import Exchange, Forfeit, GameConfig, GameReport, StopGame
from ..games.base import IllegalMove, Outcome, Position
from .judging import Judging
from .seat import BotSeat, OpponentForfeit
from .startup import StartUp, launch, started_ahead

__all__ = ["MAX_PLIES", "Exchange", "Forfeit", "GameConfig", "GameReport", "Referee", "StopGame"]

_MS = 1_000_000
#: A game longer than this is stopped whatever the rules say (a safety net only).
MAX_PLIES = 20_000


class Referee(Dialogue, Judging, Accounting, Faults):
    def __init__(self, cfg: GameConfig) -> None:
        self.cfg = cfg
        self.spec = cfg.spec
        self.rng = random.Random(cfg.seed)
        self.report = GameReport(cfg.index, cfg.seat, cfg.spec.game.seats[cfg.seat], cfg.seed, bot_moves=0)
        self.position: Position = cfg.start_position or cfg.rules.initial()
        self.last_move: str | None = None
        #: Lines sent since the bot's last answer, clock values masked (log_exchanges).
        self._unanswered: list[str] | None = [] if cfg.log_exchanges else None
        if cfg.log_exchanges:
            self.report.positions.append(self.position)
        self.report.transcript.board = _board(cfg, self.position)
        for move in cfg.start_moves:
            self._played(self.position.play(move), move)
        self.bot_turns = 0
        #: the game was stopped while the bot was thinking (the machine kept it from a CPU)
        self._stopped_mid_answer = False
        #: the game was dropped as it stood (StopGame.abandon): no end of input, no exit judged
        self._abandoned = False
        self.last_sent = "(nothing yet)"
        #: Lines written to the bot since its last answer was read (see Dialogue._send).
        self.sent_since_answer = 0
        #: The time of the answer being judged, for every finding about it (None between answers).
        self.answer_ms: float | None = None
        t = cfg.spec.time
        self.clock_ns = [self._scaled(t.clock_ms)] * 2 if t.clock_ms else None
        self.bot: process.Bot | None = None
        self._launched = False
        #: Called once, when the bot's first answer line is read (runner.Ahead starts the
        #: next game's bot then: its start-up does not compete with this one's).
        self.after_first_answer: Callable[[], object] | None = None
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
        #: What the bot did outside the dialogue, as findings (see prototest.judge.events).
        self.event_findings = EventFindings(self)
        #: The platform's limits (the spec's [envelope]; see prototest.judge.accounting).
        self.envelope = Envelope.from_spec(cfg.spec)
        #: The other seat, when a bot plays it (see prototest.judge.seat).
        self.seat: BotSeat | None = BotSeat(self) if cfg.opponent_argv else None
        if self.seat is not None:
            self.report.opponent = "bot: " + " ".join(cfg.opponent_argv or ())

    def _scaled(self, ms: int | float) -> int:
        return int(ms * self.cfg.time_scale * _MS)

    # -- the game -------------------------------------------------------------------------
    def launch(self) -> bool:
        """Start the bot (run() does, unless it was started ahead: see runner.Ahead);
        False when it could not be started (the report says why). See
        prototest.judge.startup."""
        if self.bot is not None or self._launched:
            return self.bot is not None
        self._launched = True
        return launch(self)

    def adopt(self, bot: process.Bot, transcript: Transcript) -> None:
        """The game is played by `bot`, started ahead before this referee existed, whose
        start is in `transcript` (prototest.play.spare: the fuzz search's next run); run()
        then says it was started ahead, as for runner.Ahead's."""
        assert self.bot is None and not self._launched
        self._launched = True
        startup.adopt(self, bot, transcript)

    def abandon(self) -> None:
        """A bot started ahead for a game that will not be played: killed (the other
        seat's too, whatever the first kill raised: an interrupt read meanwhile)."""
        try:
            if self.bot is not None:
                self.bot.kill()
        finally:
            if self.seat is not None:
                self.seat.referee.abandon()

    def launch_all(self) -> None:
        """Start the game's bots ahead of it (runner.Ahead): this one, and the other seat's."""
        if self.launch() and self.seat is not None:
            self.seat.launch()

    def run(self) -> GameReport:
        try:
            return self._run()
        finally:
            if self.seat is not None:  # its bot told the game is over, then killed
                self.seat.close()

    def _run(self) -> GameReport:
        report = self.report
        ahead_ns = None if self.bot is None else time.perf_counter_ns() - self.bot.started_ns
        if not self.launch():
            return report
        bot = self.bot
        assert bot is not None
        if ahead_ns is not None:
            started_ahead(report, ahead_ns)
        if self.seat is not None:  # started with the bot (or ahead with it): their start-ups overlap
            self.seat.launch()
        try:
            with bot:  # leaving it kills the bot, with signals held back until that is done
                self.bot = bot
                usable = True
                try:
                    try:
                        self._start()
                    except StopGame as stop:  # the machine too busy for the bot's start-up
                        self._stopped(stop)
                    else:
                        self._play()
                    if report.result == "stopped" and not (self._stopped_mid_answer or self._abandoned):
                        # the game goes on for the bot: output now is out of turn
                        self._check_silence("when the judge stopped the game", always=True)
                except Forfeit as forfeit:
                    usable = GameEnd(self).forfeited(forfeit)
                if self._abandoned:  # killed on the way out of `with bot`, as it stands
                    usable = False
                elif self.seat is not None:  # both bots' inputs closed, then both exits waited for at once
                    self.seat.end_input()
                if usable:  # an answer still coming after a forfeit or a stop mid-answer is no finding
                    self._finish(answer_pending=report.result == "forfeit" or self._stopped_mid_answer)
            self._conduct(final=True)  # what the kill brought in (a signal sent meanwhile)
            self._envelope_end()
        except KeyboardInterrupt as exc:  # here too when it was held back during the kill
            self.interrupted(exc)
            self._conduct(final=True)
        GameEnd(self).close()
        return report

    def interrupted(self, exc: KeyboardInterrupt) -> None:
        """Ctrl-C or SIGTERM: the game stops here; the bot is killed on the way out."""
        GameEnd(self).interrupted(exc)

    def _start(self) -> None:
        """The bot's start-up: handshake, silence, the judge's first lines (see
        prototest.judge.startup)."""
        StartUp(self)()

    def _play(self) -> None:
        try:
            if self.seat is not None:
                self.seat.start()
            self._moves()
        except StopGame as stop:
            self._stopped(stop)
        except OpponentForfeit as forfeit:  # the other seat's fault: the bot wins
            GameEnd(self).opponent_forfeited(forfeit.finding.kind)

    def _stopped(self, stop: StopGame) -> None:
        GameEnd(self).stopped(stop)

    def _moves(self) -> None:
        cfg = self.cfg
        while True:
            outcome = self.position.outcome()
            if outcome is not None:
                if self.seat is not None:  # the bot in the other seat told the last move, as its judge tells it
                    self.seat.observe(self.position, self.report.moves, self.clock_ns)
                GameEnd(self).ended(outcome)
                return
            if self._broken_read is not None:  # the referee's next read fails: so does the game
                raise Forfeit(self._broken_read_finding())
            if self.position.ply() >= MAX_PLIES:
                GameEnd(self).ended(Outcome(None, f"stopped by prototest after {MAX_PLIES} plies"))
                return
            if cfg.max_plies is not None and self.position.ply() >= cfg.max_plies:
                raise StopGame(f"the judge stops at ply {cfg.max_plies}")
            if cfg.max_bot_turns is not None and self.bot_turns >= cfg.max_bot_turns:
                raise StopGame(f"the judge stops after {self.bot_turns} answer(s) of the bot")
            if cfg.deadline is not None and self.bot_turns and time.monotonic() >= cfg.deadline:
                # between answers only, from the first on: an answer asked for is judged to its
                # limit, so a budget never hides a failure in progress
                raise StopGame("the time budget ran out")
            why = cfg.abandon() if cfg.abandon is not None else None
            if why:
                raise StopGame(why, abandon=True)
            if self.position.turn() == cfg.seat:
                self._bot_turn()
            elif self.seat is not None:  # a bot in the other seat keeps its own clock
                move = self.seat.move(self.position, self.report.moves, self.clock_ns)
                self._played(self.seat.referee.position, move)  # the position its judging reached
                if self.spec.after_move.opponent:
                    self._check_silence(f"after the judge sent {self.last_sent!r}")
                    self._say(self.spec.after_move.opponent)
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
        self.report.transcript.played(move)  # a seat's view has no board: the bot's referee keeps it
        progress.played(len(self.report.moves))  # one store in shared memory when the live view is on
        if self._unanswered is not None:
            self.report.positions.append(position)

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
            before = self._usage_at_request()
            t_sent = self._send(lines, masked, limit_ns)
            if attempt == 0:
                self._mark(t_sent, self.bot_turns, f"on its turn {self.bot_turns}")
                progress.asked(t_sent, self.cfg.seat)
            r, text, elapsed_ns = self._read_answer(t_sent, limit_ns, limit_what, before)
            if self.after_first_answer is not None and r.kind == "line":  # the next game's bot, started ahead
                start_next, self.after_first_answer = self.after_first_answer, None
                start_next()
            self._conduct()
            if self.clock_ns is not None:  # less the time the machine kept from the answer
                self.clock_ns[self.cfg.seat] -= elapsed_ns - (self.answer_time.machine_ns if self.answer_time else 0)
            self.answer_ms = elapsed_ns / _MS
            progress.answered(self.answer_ms, self.cfg.seat)
            try:
                self._answer(r, text, elapsed_ns, limit_ns)
                return
            except Forfeit as forfeit:
                if forfeit.finding.kind == "malformed":
                    forfeit.also.extend(self._extra_output(text, t_sent))
                raise
            except IllegalMove as exc:
                self.report.transcript.refused(exc.move)
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

    def _answer(self, r: process.Read, raw: str, elapsed_ns: int, limit_ns: int) -> None:
        """Judge one answer line and play its move; IllegalMove when the referee would
        refuse the move."""
        judged = self._judged_answer(r, raw, elapsed_ns, limit_ns)
        self.answer_ms = None  # judged: what follows is the judge's own doing
        self._played(judged.position, judged.move)
        self.report.bot_moves += 1
        self._say(self.spec.turn.accepted)
        if self.spec.after_move.own:
            self._say(self.spec.after_move.own)

    # -- outside the dialogue: signals and files ---------------------------------------
    def _mark(self, t_ns: int, turn: int | None, label: str) -> None:
        self._marks.append(conduct.Mark(t_ns, turn, self.position, len(self.report.moves), label))  # a tuple: cheap

    def _conduct(self, final: bool = False) -> None:
        """Findings for what the bot did outside the dialogue since the last look (see
        prototest.judge.events). A FAIL ends the game (a Forfeit) unless the game is over
        already (`final`)."""
        if self.bot is None or not (final or self.bot.events):  # the usual case: nothing, at once
            return
        findings = self.event_findings.take(final)
        fails = [f for f in findings if f.severity == "fail"]
        for finding in findings:
            if final or finding.severity != "fail":
                self._note(finding)
        if fails and not final:
            raise Forfeit(fails[0], also=fails[1:])


def _board(cfg: GameConfig, start: Position) -> dict[str, Any]:
    """What a viewer needs to rebuild the game's positions (Transcript.board): the rules,
    the seats, the start, the time limits (scaled, ms); the moves are added as played."""
    spec, t = cfg.spec, cfg.spec.time
    limits = {"first answer": t.first_answer_ms, "answer": t.answer_ms, "statement": t.statement_answer_ms,
              "clock": t.clock_ms}
    return {"game": spec.name, "rules": spec.game.rules, "options": dict(spec.rules),
            "seats": list(spec.game.seats),
            "titles": [spec.seat_title(i) for i in range(len(spec.game.seats))], "seat": cfg.seat, "start": start.notation(),
            "limits": {k: v * cfg.time_scale for k, v in limits.items() if v}, "given": len(cfg.start_moves),
            "moves": [], "at": [], "refused": []}
