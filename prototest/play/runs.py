"""The runs of the bot in a fuzz campaign (`prototest.play.fuzz.Campaign`): one game of
a fresh bot, its config made from the campaign's target and options, played alone or
beside the other workers' runs (the gate: prototest.play.alone), with the bot started
ahead where the spec allows (prototest.play.spare), answered from memory for a cold start
already shown (shortening reaches one position by many paths), and what it leaves: the
example, its coverage and what it teaches (prototest.play.observe).

Every collaborator of the campaign plays the bot through here (Campaign.play and
Campaign.play_cold): the search's examples, the state probe, the runs alone, the cold
retries and shortening.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable, Sequence

from ..games.base import Position
from ..judge.game import ABANDONED, MAKE_WAY, GameConfig
from ..judge.referee import Referee
from .evidence import interrupt, replayed
from .forced import ForcedOpponent, game_seed
from .fuzzrun import Example, Plan
from .spare import Spare

if TYPE_CHECKING:
    from .fuzz import Campaign


class Runs:
    """A campaign's runs of its bot."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        #: (seat, position, last move) -> the run of a fresh bot shown it (see `play`'s memo)
        self._memo: dict[tuple, Example] = {}
        #: the next search run's bot, started ahead where the spec allows (see Spare)
        self.spare = Spare(campaign)

    def play(self, seat: int, *, start_moves: Sequence[str] = (), mode: str = "game",
             opponent: Callable[[Position], str] | None = None, max_turns: int | None = None,
             plan: Plan | None = None, memo: bool = False, alone: bool = False, coverage: bool = False,
             make_way: bool = False) -> Example:
        """One run of the bot: a game from the position after `start_moves` (the bot
        starts cold there when there are any) against `opponent`, until the game ends, the
        bot has answered `max_turns` times, or the budget runs out.

        With `alone`, nothing else of prototest's runs beside it (the gate holds the other
        campaigns' runs), and the time budget does not cut it short: it decides a verdict.

        With `memo`, a cold start in a position an earlier run already showed the bot is
        answered from memory: shortening reaches the same position by many paths, and a
        deterministic bot answers it the same way (the reproducer is run again for real at
        the end, which checks that).

        With `make_way` (the search's examples), the game is dropped when another worker
        waits to play a run alone (see `abandon`).

        With `coverage`, the bot runs with its coverage collected, where it gives it (only
        the search's examples do: see prototest.play.corpus)."""
        c = self.campaign
        spec, rules = c.target.spec, c.target.rules
        key = None
        if memo and start_moves and max_turns == 1:
            final = replayed(rules, start_moves)
            key = (seat, final.notation(), start_moves[-1])
            if key in self._memo:
                return self._memo[key]
        cap = c.options.max_plies
        covered = c.coverage.setup() if coverage else None
        cfg = GameConfig(
            spec=spec, rules=rules, rules_module=c.target.module, argv=c.target.argv,
            seat=seat, seed=game_seed(c.options.seed, 1), index=c.run.runs + 1,
            time_scale=c.target.time_scale, start_delay_ms=c.target.start_delay_ms,
            env=covered[0] if covered else c.target.env, cwd=c.target.cwd, start_moves=list(start_moves),
            opponent=opponent or ForcedOpponent(()), max_plies=cap + len(start_moves) if cap else None,
            max_bot_turns=max_turns, log_exchanges=True, deadline=None if alone else c.deadline,
            abandon=None if alone or c.should_stop is None else functools.partial(self.abandon, make_way),
            stop_when_idle=c.target.stop_when_idle, coverage=covered[1] if covered else None,
        )
        if alone:
            self.spare.kill()  # nothing of this campaign's beside a run alone
        with c.gate.alone() if alone else c.gate.running(self.spare.kill):
            if alone and c.should_stop is not None and c.should_stop():
                # another worker's failure, recorded while this run waited for its turn
                # alone: that one is the verdict, and this re-check would only hold it up
                c.stop("stopped")
            referee = Referee(cfg)
            if make_way and not alone:  # a search run: its bot may have been started ahead
                self.spare.give(referee)
            report = referee.run()
        c.run.runs += 1
        c.run.made_way += report.reason == MAKE_WAY
        example = Example(c.run.runs, mode, seat, list(start_moves), report, plan, max_turns,
                          coverage=covered is not None)
        if covered is not None:
            c.coverage.after(example)
        if report.interrupted is not None:
            c._tick()
            raise interrupt(report.interrupted)
        c.observer.observe(example)
        c._tick()
        if key is not None and report.reason != MAKE_WAY:
            self._memo[key] = example
        return example

    def abandon(self, make_way: bool) -> str | None:
        """Why this worker's game in progress is dropped at once (GameConfig.abandon):
        another worker's failure is the run's verdict (ABANDONED), or, for a search's
        example (`make_way`) while nobody has found one, another worker waits to play a
        run alone (MAKE_WAY: a timing failure's re-check would otherwise wait for this game
        to end, a bot asleep on its clock included). A dropped example is cut short, as by
        the budget; the state probe's runs are never dropped so (their evidence decides
        whether the bot starts cold)."""
        c = self.campaign
        assert c.should_stop is not None
        if c.should_stop():
            return ABANDONED
        if make_way and c._found is None and c.gate.others_alone():
            return MAKE_WAY
        return None

    def play_cold(self, seat: int, moves: Sequence[str], *, memo: bool = True, turns: int = 1,
                  alone: bool = False) -> Example:
        """A fresh bot shown the position after `moves`, for one answer; with `turns` 2,
        started a turn earlier (its own move `moves[-2]` expected, the opponent's
        `moves[-1]` then played), so that the position after `moves` is its second turn."""
        if turns == 2 and len(moves) >= 2:
            return self.play(seat, start_moves=moves[:-2], mode="position", max_turns=2,
                             opponent=ForcedOpponent(moves[-1:]), alone=alone)
        return self.play(seat, start_moves=moves, mode="position", max_turns=1, memo=memo, alone=alone)
