"""The kept games of a fuzz campaign, and the examples that branch from them.

Each rules module's `measures()` gives general measures of the game's boundaries. The
games that went furthest on each measure are kept (ELITES a measure), and three examples in
eight branch from one of them: its opponent moves replayed up to a few before its best
point, then the example's own draws. A failure found by a branch is saved in the example
database as a fresh game that plays the same opponent moves, so that a later run replays it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING


from ..games import opponents
from ..games.opponents import Style
from . import lazy
from .evidence import CANNOT_TELL
from .fuzzrun import Example, Plan
from .plans import BRANCH_CHOICES, BRANCHING, script_length

if TYPE_CHECKING:
    from .fuzz import Campaign

#: Games kept per measure, and how many opponent moves before the best point at most a
#: branch goes back.
ELITES, BRANCH_BACK = 6, 8


@dataclass(frozen=True)
class Elite:
    """A game that came near a boundary (a measure's best value): its opponent moves up to
    there, to replay and play on from somewhere before that point."""

    seat: int
    start_moves: tuple[str, ...]
    opponent_moves: tuple[str, ...]
    #: how many of the opponent's moves were played before the position of the best value
    reached_after: int
    value: float
    #: how many opponent moves before that point a branch may go back (fewer for the
    #: coverage corpus: prototest.play.corpus)
    back: int = BRANCH_BACK


class Elites:
    """A campaign's kept games, by measure, and the choice of one to branch from."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        #: measure label -> the games that came nearest its boundary, best first
        self.kept: dict[str, list[Elite]] = {}

    def branch(self, plan: Plan) -> Elite | None:
        """The kept game a branch plan continues: one of those that came nearest some
        boundary (a measure's best values), replayed from the start (for a deterministic
        bot, the same game) up to a few opponent moves before that point, then played on
        with the plan's own choices. Games near a boundary are where its faults are."""
        c = self.campaign
        corpus = c.coverage.corpus
        # with a coverage corpus, one example more in eight branches, and half of the
        # branches continue an example that reached new code (prototest.play.corpus)
        if plan.branch < BRANCH_CHOICES - BRANCHING - (1 if corpus else 0) or not (self.kept or corpus):
            return None
        cold_ok = not c.positions_off.is_set() and c.state_verdict() in (False, CANNOT_TELL)
        if corpus:
            rng = random.Random(f"corpus:{plan.config}:{plan.script[:4]}")
            if not self.kept or plan.branch == BRANCH_CHOICES - BRANCHING - 1 or rng.random() < 0.5:
                chosen = c.coverage.pick(rng, cold_ok)
                if chosen is not None or not self.kept:
                    return chosen
        labels = sorted(label for label, kept in self.kept.items()
                        if any(cold_ok or not e.start_moves for e in kept))
        if not labels:
            return None
        rng = random.Random(f"elite:{plan.config}:{plan.script[:4]}")
        kept = [e for e in self.kept[rng.choice(labels)] if cold_ok or not e.start_moves]
        return rng.choice(kept)

    @staticmethod
    def cut(elite: Elite, plan: Plan) -> int:
        """How many of the kept game's opponent moves a branch replays: up to BRANCH_BACK
        before its best point."""
        rng = random.Random(f"branch:{plan.config}:{plan.script[:4]}")
        return max(0, elite.reached_after - rng.randrange(elite.back + 1 if elite.back < BRANCH_BACK else BRANCH_BACK))

    def keep(self, example: Example, best_at: dict[str, tuple[float, int]]) -> None:
        """Keep the games with the best values of each measure (ELITES a measure)."""
        if example.mode not in ("game", "position") or example.max_turns is not None:
            return
        report, start = example.report, len(example.start_moves)
        for label, (value, index) in best_at.items():
            kept = self.kept.setdefault(label, [])
            if len(kept) >= ELITES and value <= kept[-1].value:
                continue
            reached = sum(1 for i in range(start, min(index, len(report.moves)))
                          if report.positions[i].turn() != example.seat)
            elite = Elite(example.seat, tuple(example.start_moves), tuple(example.opponent_moves), reached, value)
            kept.append(elite)
            kept.sort(key=lambda e: -e.value)
            del kept[ELITES:]

    def save_as_fresh(self, example: Example, modes: tuple[str, ...]) -> None:
        """A failure found by continuing a kept game cannot be replayed from its own plan
        in a later run (the kept games will differ): save, in the example database, the
        plan of a fresh game that plays the same opponent moves (the plain random style:
        a choice is the move's place in its listing), so that the next run replays it
        first as it replays any other failure."""
        c = self.campaign
        database, t = c.search_test.database(), c.target
        if database is None or example.start_moves:
            return
        script_len = script_length(t.rules)
        report, plain = example.report, Style("random")
        values = []
        for i, move in enumerate(report.moves):
            if report.positions[i].turn() == example.seat:
                continue
            allowed, _ = opponents.candidates(t.module, report.positions[i], plain)
            text = getattr(t.module, "move_text", None)
            listed = [text(report.positions[i], m) if text else m for m in allowed]
            if move not in listed:
                return
            values.append(listed.index(move) + len(listed))  # never 0: not a "simplest" script
        if len(values) > script_len:
            return
        values += [0x5555] * (script_len - len(values))
        script = b"".join(v.to_bytes(2, "big") for v in values)
        choices = ((modes.index("game"),) if len(modes) > 1 else ()) + (example.seat, 0, 0, script)
        lazy.hypothesis()
        from hypothesis.database import choices_to_bytes

        database.save(c.search_test.key(modes), choices_to_bytes(choices))
