"""Shrinking a fuzz failure: each failure has `shrink_examples` runs of the bot to be made
short (`prototest.play.fuzz`); a timing failure's result is played once more here, any
other's is run for real by its printed replay (`prototest.play.replaycheck`).

A failure that reproduces cold (see prototest.play.cold) has its path searched for a
shorter one by Hypothesis, then moves deleted from it; a failure that needs the bot's
memory of the game has the game's opponent moves deleted instead. Two encodings take turns:
moves as strings and moves as their places in the listing (what Hypothesis's own shrinker
does). Only sequences that can still be played cost a run of the bot.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from . import lazy
from ..games.base import IllegalMove, Position, Rules
from ..judge.game import StopGame
from .evidence import Stop, cut_short, first_fail, timing
from .forced import ForcedOpponent
from .fuzzrun import Example, Failure
from .plans import worker_seed

if TYPE_CHECKING:
    from .fuzz import Campaign

#: Shorter versions of a failure tried (played or found unplayable), per run of the
#: shrink budget: unplayable ones cost no run but still take time.
SHRINK_TRIES = 20
#: Shortening a failure takes at most SHRINK_SHARE of the time the search took to find it
#: (from the run's start to the first failure), and at least SHRINK_FLOOR_S seconds
#: (SHRINK_FLOOR_TIMING_S for a timing failure, whose every run waits out a late answer):
#: the verdict comes about as soon as the failure was found, its printed replay included
#: (the cold reproducer, one exchange, is tried first, and shortening its path is the
#: rest). Under a time budget only.
SHRINK_SHARE = 0.5
SHRINK_FLOOR_S = 0.3
SHRINK_FLOOR_TIMING_S = 0.5
#: The share once a fresh bot shown the failing position fails the same way, and its floor
#: (the cold retry's own run included; a timing failure keeps SHRINK_FLOOR_TIMING_S): the
#: reproducer is then one exchange already, and shortening only makes the path to it
#: shorter, so a failure found early is not held back by it (a fresh Python bot's start
#: alone takes about 0.1 s).
SHRINK_SHARE_COLD = 0.25
SHRINK_FLOOR_COLD_S = 0.2
#: The Hypothesis search for shorter paths starts only while this much of its share of the
#: allowance is left: its start (the import, the test's set-up: about 0.2 s) would use up
#: a smaller one before any path was tried, and deleting moves needs none of it.
SEARCH_START_S = 0.25
#: A reproducer whose path to the cold start is this many plies or fewer is not
#: shortened further: a fresh bot shown a position at most one move of each side from
#: the start (`search_shorter` and `reduce` would spend their whole allowance for a ply)
SHORT_PATH = 2


class Shrinker:
    """Shortens a campaign's failures, within each one's budget of runs."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        #: the run count when shortening the current failure began, and the shorter
        #: versions tried since (played or not)
        self._from: int | None = None
        self.tries = 0
        #: the failure being shortened, as it was confirmed when played alone (a timing
        #: failure whose shortened version does not come back falls back to it)
        self._confirmed_alone: Failure | None = None
        #: when shortening the current failure began, and the seconds it may take
        self._t0 = 0.0
        self._allowed: float | None = None
        #: the least a run that shows the current failure takes (s): a timing failure's
        #: answer time, 0 for any other
        self._showing_s = 0.0

    def budget_left(self, share: float = 1.0) -> bool:
        """Whether shortening this failure may run the bot again (`share`: of its runs;
        the last run of `shrink_examples` is kept for replaying the result). Shorter
        versions that cannot be played cost no run but some time: they are counted too."""
        c = self.campaign
        return (self._from is not None
                and c.run.runs - self._from < (c.options.shrink_examples - 1) * share
                and self.tries < SHRINK_TRIES * c.options.shrink_examples
                and (self._allowed is None or time.monotonic() - self._t0 < self._allowed * share)
                and not c.out_of_time())

    def room_for_a_run(self, share: float = 1.0) -> bool:
        """budget_left, and a run of the bot as long as this failure's runs so far took on
        average (a timing failure's: at least its late answer, which any shorter version
        that still shows it takes) would still end within the time allowance's `share`:
        shortening does not start a run it cannot finish in time (a bot that thinks until
        its clock runs out takes its whole clock each run). The cold retry is not held to
        this: its reproducer (one exchange) is tried first, whatever it costs."""
        return self.budget_left(share) and self._room_in_allowance(share)

    def _room_in_allowance(self, share: float = 1.0) -> bool:
        """Whether one more run, as long as this failure's runs took on average (at least
        `_showing_s`), ends within the time allowance's `share` (always, with no time
        allowance)."""
        if self._allowed is None or self._from is None:
            return True
        runs = self.campaign.run.runs - self._from
        spent = time.monotonic() - self._t0
        return spent + max(spent / runs if runs else 0.0, self._showing_s) <= self._allowed * share

    def _time_left(self, share: float, seconds: float) -> bool:
        """Whether at least `seconds` of the allowance's `share` are left (always, with no
        time allowance)."""
        return self._allowed is None or self._allowed * share - (time.monotonic() - self._t0) >= seconds

    def past_allowance(self) -> bool:
        """Whether the time shortening may take (see SHRINK_SHARE) is spent."""
        return self._allowed is not None and time.monotonic() - self._t0 >= self._allowed

    def shrink(self, failure: Failure) -> Failure:
        """Show the failing position cold; search for a shorter path to a position that
        fails the same way; then delete what leads there; then replay it for real."""
        c = self.campaign
        self._from = c.run.runs
        self.tries = 0
        self._t0 = time.monotonic()
        found = c.run.first_failure_s
        # under a time budget only: with none (--budget 0), runs alone bound it, and the same
        # seed gives the same reproducer on any machine
        timed = c.options.budget_s is not None and found is not None
        self._confirmed_alone = failure
        late = failure.finding.elapsed_ms if timing(failure.finding) else None
        self._showing_s = late / 1000 if late is not None else 0.0
        floor = SHRINK_FLOOR_TIMING_S if timing(failure.finding) else SHRINK_FLOOR_S
        self._allowed = max(floor, SHRINK_SHARE * found) if timed and found is not None else None
        if c.target.spec.sends_position and failure.example.mode != "probe":
            failure = c.cold.retry(failure)
        if timed and found is not None and failure.cold == "reproduces":
            cold_floor = floor if timing(failure.finding) else SHRINK_FLOOR_COLD_S
            self._allowed = max(cold_floor, SHRINK_SHARE_COLD * found)
        short = failure.cold == "reproduces" and len(failure.finding.moves) <= SHORT_PATH
        if failure.cold == "reproduces" and not short:
            failure = self.search_shorter(failure)
        if not short:
            failure = self.reduce(failure)
        if timing(failure.finding):
            # the printed replay (prototest.play.replaycheck) runs the result for real
            # after this in any case; a timing failure is played once more here, where a
            # shortened version that no longer shows it falls back to the one played alone
            failure = self.replayed(failure)
        c.run.shrink_runs += c.run.runs - self._from
        return failure

    def search_shorter(self, failure: Failure) -> Failure:
        """Hypothesis searches (and shrinks) paths shorter than the reproducer's to a
        position that, shown cold, fails the same way: one exchange a try, half of the
        shrinking runs. The shortest failing path seen wins."""
        if not self.room_for_a_run(0.5) or not self._time_left(0.5, SEARCH_START_S):
            return failure
        lazy.hypothesis()
        from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings
        from hypothesis import strategies as st
        from hypothesis.errors import Flaky

        from . import strategies

        c = self.campaign
        seat, kind, turns = failure.example.seat, failure.finding.kind, failure.cold_turns
        best = [failure]
        rules, module = c.target.rules, c.target.module

        def shorter(data: st.DataObject) -> None:
            self.tries += 1
            if not self.room_for_a_run(0.5):
                raise Stop()
            limit = len(best[0].finding.moves) - 1
            if limit < turns - 1:
                raise Stop()
            styles = (data.draw(strategies.opponent_styles(module)), data.draw(strategies.opponent_styles(module)))
            path = data.draw(strategies.paths(rules, module, seat=seat, max_plies=limit, styles=styles))
            if len(path) > limit or len(path) < turns - 1:
                return
            example = c.play_cold(seat, path, turns=turns)
            fail = first_fail(example)
            if fail is not None and fail.kind == kind and list(fail.moves) == list(path):
                if len(path) < len(best[0].finding.moves):
                    best[0] = Failure(example, fail, confirmed=failure.confirmed, cold="reproduces", cold_turns=turns)
                raise AssertionError(kind)

        test = settings(max_examples=10**6, deadline=None, database=None, phases=(Phase.generate, Phase.shrink),
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        report_multiple_bugs=False, print_blob=False)(
            hypothesis_seed(worker_seed(c.options.seed, c.options.stream))(given(st.data())(shorter)))
        try:
            test()
        except (Stop, AssertionError, Flaky):
            pass
        return best[0]

    def reduce(self, failure: Failure) -> Failure:
        """Delete moves from a failing example while the bot still fails the same way:
        plies of the path to a cold start (one of each side, so that the bot keeps its
        seat), or the opponent's moves of a game. Two encodings take turns: moves as
        strings (the rest of the game stays as it was) and moves as their places in the
        listing (the rest of the game changes, but stays legal: what Hypothesis's own
        shrinker does). Only sequences that can still be played cost a run of the bot."""
        tried: set[tuple] = set()
        while self.room_for_a_run():
            for candidate in self._shorter(failure):
                if not self.room_for_a_run():
                    return failure
                found = self._retry(failure, candidate, tried)
                if found is not None:
                    failure = found
                    break
            else:
                return failure  # no deletion keeps the failure
        return failure

    def _shorter(self, failure: Failure):
        """Shorter versions of a failing example: ("path", moves) for a cold start,
        ("opponent", moves) or ("places", listing places) for a game's opponent."""
        example, rules = failure.example, self.campaign.target.rules
        if failure.cold == "reproduces":
            moves = list(failure.finding.moves)
            for cut in _cuts(len(moves), 2):
                yield ("path", tuple(m for i, m in enumerate(moves) if i not in cut))
            places = _places(rules.initial(), moves)
            for cut in _cuts(len(places), 2):
                path = _decode(rules, [p for i, p in enumerate(places) if i not in cut], example.seat)
                if path is not None:
                    yield ("path", path)
            return
        moves = example.opponent_moves
        for cut in _cuts(len(moves), 1):
            yield ("opponent", tuple(m for i, m in enumerate(moves) if i not in cut))
        places = _opponent_places(example)
        for cut in _cuts(len(places), 1):
            yield ("places", tuple(p for i, p in enumerate(places) if i not in cut))

    def _retry(self, failure: Failure, candidate: tuple, tried: set) -> Failure | None:
        """Run a shorter version of a failing example; the failure when it comes back."""
        if candidate in tried:
            return None
        tried.add(candidate)
        self.tries += 1
        c = self.campaign
        how, moves = candidate
        example = failure.example
        if how == "path":
            if not _playable(c.target.rules, moves) or len(moves) < failure.cold_turns:
                return None
            again = c.play_cold(example.seat, moves, turns=failure.cold_turns)
        else:
            opponent = ForcedOpponent(moves) if how == "opponent" else PlacesOpponent(moves)
            again = c.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                           opponent=opponent, max_turns=example.max_turns, plan=example.plan)
        fail = first_fail(again)
        if fail is None or fail.kind != failure.finding.kind:
            return None
        if how == "path" and list(fail.moves) != list(moves):
            return None  # the fresh bot went another way before the position: not this reproducer
        return replace(failure, example=again, finding=fail)

    def replayed(self, failure: Failure) -> Failure:
        """Run the minimal example once more, for real: a bot that now passes it, or
        fails it otherwise, is not deterministic and the failure is marked so."""
        c = self.campaign
        if c.run.interrupted is not None or c.options.shrink_examples < 1 or c.out_of_time():
            return failure  # (out of time: the failure stands as found)
        if not self._room_in_allowance():
            # a run that would take shortening past its time: the failure was just seen in
            # the run that made it, and its printed replay runs it once more for real
            return failure
        example = failure.example
        if failure.cold == "reproduces":
            again = c.play_cold(example.seat, failure.finding.moves, memo=False, turns=failure.cold_turns)
        else:
            again = c.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                           opponent=ForcedOpponent(example.opponent_moves), max_turns=example.max_turns)
        fail = first_fail(again)
        if fail is None and cut_short(again):
            return failure  # the budget ran out: no conclusion
        if (timing(fail) or timing(failure.finding)) and (fail is None or fail.kind != failure.finding.kind):
            # Timing is no evidence of a bot that is not deterministic. A timing failure
            # that a shortened version no longer shows falls back to the example that
            # showed it when played alone; a timing failure in the replay of another
            # failure concludes nothing.
            if timing(failure.finding) and self._confirmed_alone is not None:
                return self._confirmed_alone
            return failure
        if fail is None or fail.kind != failure.finding.kind:
            failure.reproducible = False
            return failure
        return replace(failure, example=again, finding=fail,
                       reproducible=not c.observer.answered_differently(again))


class PlacesOpponent:
    """Plays `legal_moves()[place % n]` for each of its places in turn; then stops the
    game (a shortened game keeps the listing places of the opponent's moves)."""

    def __init__(self, places: Sequence[int]) -> None:
        self.places = list(places)
        self.played = 0

    def __call__(self, position: Position) -> str:
        if self.played >= len(self.places):
            raise StopGame(f"the {len(self.places)} opponent moves are played")
        legal = position.legal_moves()
        self.played += 1
        return legal[self.places[self.played - 1] % len(legal)]


def _places(position: Position, moves: Sequence[str]) -> list[int]:
    """Each move's place in the listing of the position it was played in."""
    places = []
    for move in moves:
        legal = list(position.legal_moves())
        places.append(legal.index(move) if move in legal else 0)
        position = position.play(move)
    return places


def _opponent_places(example: Example) -> list[int]:
    report, start = example.report, len(example.start_moves)
    return [list(report.positions[i].legal_moves()).index(move)
            for i, move in enumerate(report.moves)
            if i >= start and report.positions[i].turn() != example.seat
            and move in report.positions[i].legal_moves()]


def _decode(rules: Rules, places: Sequence[int], seat: int) -> tuple[str, ...] | None:
    """The moves that listing places name from the initial position; None when the game
    ends on the way or leaves the other side to move."""
    position, moves = rules.initial(), []
    for place in places:
        if position.outcome() is not None:
            return None
        legal = position.legal_moves()
        move = legal[place % len(legal)]
        moves.append(move)
        position = position.play(move)
    if position.outcome() is not None or position.turn() != seat:
        return None
    return tuple(moves)


def _cuts(n: int, step: int):
    """Sets of indices to delete from a list of n moves, big cuts first: halves,
    quarters ... of consecutive moves (of `step` granularity), then, with step 2, any
    two moves of different sides."""
    size = n // 2 // step * step
    while size >= step:
        for start in range(0, n - size + 1, step if size == step else size // 2 or 1):
            yield frozenset(range(start, start + size))
        size = size // 2 // step * step
    if step == 2:
        for gap in range(1, n, 2):
            for i in range(n - gap):
                yield frozenset((i, i + gap))


def _playable(rules: Rules, moves: Sequence[str]) -> bool:
    """Whether the moves can be played in order and leave a game still going."""
    position = rules.initial()
    for move in moves:
        if position.outcome() is not None:
            return False
        try:
            position = position.judge(move).position
        except IllegalMove:
            return False
    return position.outcome() is None
