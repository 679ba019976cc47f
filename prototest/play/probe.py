"""The state probe of a fuzz campaign: whether a bot keeps state between turns, before any
bot is started cold in a position (`prototest.play.fuzz`'s position mode).

A short real game from the start, then fresh bots shown two of the positions the running
bot answered. Fresh bots that fail there, or agree with each other on another answer
(three of them), keep state: position mode is turned off. Fresh bots that disagree with
each other answer the same position differently (a time-bound search, a random choice):
whether the bot keeps state cannot be told, and the probe says so rather than guess
(CANNOT_TELL). A fresh bot that answers as the running bot did is the evidence of no state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games import opponents
from ..judge.findings import TIMING_KINDS
from ..judge.game import Exchange
from .evidence import CANNOT_TELL, first_fail, given, moves_before, same_move, same_request, timing
from .forced import game_seed
from .fuzzrun import Failure, StateProbe

if TYPE_CHECKING:
    from .fuzz import Campaign


class StateProber:
    """Runs the state probe for a campaign, and holds its verdict: True keeps state; False
    none found; CANNOT_TELL; None not probed yet."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        self.verdict: Any = None

    def probe_state(self) -> None:
        """The probe, once (see the module's docstring); its verdict published to the
        other workers, if any."""
        c = self.campaign
        c.may_probe = False
        if c.out_of_time():
            return  # no verdict: no bot is started cold, every example is a game from the start
        self.verdict = False  # no evidence of state, unless the probe finds some
        try:
            self._probe()
        finally:
            if c.publish is not None:
                c.publish(self.verdict)

    def _probe(self) -> None:
        c = self.campaign
        run = c.run
        seat = 1 if len(c.target.spec.game.seats) > 1 else 0
        warm = c.play(seat, mode="probe", max_turns=6,
                      opponent=opponents.Opponent(c.target.module, "random", game_seed(c.options.seed, 0)))
        fail = first_fail(warm)
        if fail is not None:  # a failure in a real game: a verdict, whatever budget is left
            if fail.kind in TIMING_KINDS:
                warm, fail = c.played_alone(warm, fail)
            if fail is not None:
                c.record(Failure(warm, fail))
                c.stop("failure")  # raises: the run ends
            # put down to a busy machine: the game played again alone is the running bot's
            # game to compare with (it once ended the probe without a verdict)
        exchanges = warm.report.exchanges
        turns = [i for i in (2, len(exchanges) - 1) if 0 < i < len(exchanges)]
        agreed = 0
        for turn in dict.fromkeys(turns):
            moves = moves_before(warm, turn)
            if moves is None or exchanges[turn].answer is None:
                continue
            outcome = self._cold_verdict(seat, moves, exchanges[turn])
            if outcome is None:
                continue
            verdict, text = outcome
            if verdict is True:
                self.verdict = True
                run.probe = StateProbe(True, text + ": it keeps state between turns, so position mode "
                                       "(a fresh bot started mid-game) is switched off for it; every example "
                                       "is a game from the start")
                run.modes = ("game",)
                return
            if verdict == CANNOT_TELL:
                self.verdict = CANNOT_TELL
                run.probe = StateProbe(None, text + ": it does not answer the same position the same way, so "
                                       "whether it keeps state between turns cannot be told. Position mode "
                                       "stays on; switched off: the verdict on a failure seen only after a "
                                       "cold start, which is a warning until a game from the start shows it "
                                       "(a crash aside: a fresh bot that dies in a position legal play "
                                       "reaches fails, with how often it died)")
                return
            agreed += 1
        if agreed:
            run.probe = StateProbe(False, f"fresh bots shown {agreed} position(s) of a running game answered "
                                   f"as the running bot did: position mode stays on")
        else:
            run.probe = StateProbe(False, "no fresh bot could be compared with the running bot (none was "
                                   "shown a request it answered in time): no evidence of state, position "
                                   "mode stays on")

    def _cold_verdict(self, seat: int, moves: list[str], warm: Exchange) -> tuple[Any, str] | None:
        """What fresh bots shown exactly the request a running bot answered (`warm`) say:
        (False, "") a fresh bot answers as the running bot did; (True, why) it keeps state:
        a fresh bot fails there, or three agree on another answer; (CANNOT_TELL, why): two
        fresh bots answer it differently. None: no evidence (a fresh bot not shown that very
        request, a timing failure, no answer)."""
        c = self.campaign
        spec = c.target.spec
        shown = f"shown the position after {len(moves)} plies cold"
        answers: list[str] = []
        for _ in range(3):
            cold = c.play_cold(seat, moves, memo=False)
            if not same_request(spec, warm, cold):
                return None
            fail = first_fail(cold)
            if timing(fail):
                return None  # a busy machine may have made it: no evidence of state
            if fail is not None:
                return True, (f"{shown}, a fresh bot failed ({fail.kind}: {fail.message}) where the running bot "
                              f"answered {warm.answer!r}")
            answer = given(cold)
            if answer is None:
                return None
            if answers and not same_move(spec, answer, answers[0]):
                return CANNOT_TELL, (f"{shown}, fresh bots answered {answers[0]!r} and {answer!r} (the running bot: "
                                     f"{warm.answer!r})")
            answers.append(answer)
            if same_move(spec, answer, warm.answer):
                return False, ""
        return True, (f"{shown}, three fresh bots answered {answers[0]!r} where the running bot answered "
                      f"{warm.answer!r}")
