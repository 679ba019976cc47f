"""The plans of a fuzz campaign's examples: what Hypothesis draws before a game starts
(the mode, the bot's seat, the opponent's swarm configuration and move choices, the path
to a start position), and the plans prototest draws itself, as check draws its games, where
Hypothesis's own would repeat (see Planner.varied).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Sequence

from . import lazy
from ..games import opponents
from ..games.base import Rules
from ..games.opponents import Style
from .forced import game_seed
from .fuzzrun import Plan

if TYPE_CHECKING:
    from hypothesis import strategies as st

    from .fuzz import Campaign

#: The opponent's script when the rules set no turn limit (chess): longer games reuse it.
DEFAULT_SCRIPT = 400
#: The deepest start position in position mode when the rules set no turn limit.
DEFAULT_START_PLIES = 160
#: A plan's branch draw ranges over BRANCH_CHOICES values, BRANCHING of which continue a
#: kept game (once there are some): three examples in eight (see prototest.play.elites).
BRANCH_CHOICES, BRANCHING = 8, 3
#: The first examples of each worker are games from the start drawn as `check` draws its
#: games (a style per game, uniformly random choices), one seat after the other: the run
#: is at least as varied as check's games before the search narrows (branches, Hypothesis).
WARM_UP = 4
#: One position plan in QUIET_SHARE starts at the boundary of the rules that end a game
#: without progress (see Planner.quiet_stretch).
QUIET_SHARE = 2
#: Where prototest's own draws come from: game seeds far from check's (`game_seed(seed,
#: i)` for i = 1, 2 ...), a block of them per worker stream, so fuzz and check with one seed
#: play different games, and workers and shards never share one.
DRAWN_SEEDS, DRAWN_BLOCK = 1 << 24, 1 << 20


def worker_seed(seed: int, worker: int) -> int:
    """The Hypothesis seed of worker `worker` (worker 0 keeps the run's own seed)."""
    return seed if worker == 0 else game_seed(seed, 1_000 + worker)


def script_length(rules: Rules) -> int:
    """The length of the opponent's script: half the rules' turn limit, or DEFAULT_SCRIPT."""
    limit = rules.max_plies
    return min(1000, limit // 2 + 1) if limit else DEFAULT_SCRIPT


def start_plies(rules: Rules) -> int:
    """The deepest start position in position mode."""
    limit = rules.max_plies
    return min(DEFAULT_START_PLIES, max(0, limit - 10)) if limit else DEFAULT_START_PLIES


class Planner:
    """Draws a campaign's plans: Hypothesis's strategy, and prototest's own draws."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        #: the plans played so far (see varied), and how many examples the example
        #: database replays first (Hypothesis's reuse phase: those are never replaced)
        self._seen: set[tuple] = set()
        self._saved: int | None = None
        #: `plans`' strategy for each tuple of modes, built once: Hypothesis's `composite`
        #: reads the drawing function's source and signature each time it is applied
        self._strategies: dict[tuple[str, ...], st.SearchStrategy[Plan]] = {}

    def plans(self, modes: tuple[str, ...]) -> st.SearchStrategy[Plan]:
        """Plans: the mode, the bot's seat, a configuration number and the opponent's move
        choices, all drawn by Hypothesis. The configuration number seeds the opponent's
        style, the moves it never plays and, in position mode, the path to the start
        (each side its own style): Hypothesis's own draws of small values repeat a lot,
        a seeded draw spreads the configurations evenly, as swarm testing wants."""
        built = self._strategies.get(modes)
        if built is None:
            built = self._strategies[modes] = self._plans(modes)
        return built

    def _plans(self, modes: tuple[str, ...]) -> st.SearchStrategy[Plan]:
        lazy.hypothesis()
        from hypothesis import strategies as st

        from . import strategies

        t = self.campaign.target
        script_len = script_length(t.rules)
        mode_of = st.sampled_from(modes)
        seat_of = st.sampled_from(range(len(t.spec.game.seats)))
        config_of = st.integers(0, 2**32 - 1)
        branch_of = st.integers(0, BRANCH_CHOICES - 1)
        script_of = strategies.scripts(script_len)

        @st.composite
        def plans(draw: Callable) -> Plan:
            mode = draw(mode_of)
            seat = draw(seat_of)
            config = draw(config_of)
            branch = draw(branch_of)
            script = draw(script_of)
            style = opponents.draw_style(t.module, self._rng(config, script)) if config else Style("random")
            # A position plan's path is not drawn here but by `varied`, once the plan is
            # played: its moves cost time, and a plan refused as Hypothesis's simplest, or
            # replaced (a warm-up game, a repeat), would have paid them for nothing.
            return Plan(mode, seat, style, (), script, None, branch, config)

        return plans()

    @staticmethod
    def _rng(config: int, script: Sequence[int]) -> random.Random:
        """The random source of a Hypothesis plan's style and path (its configuration number
        and the start of its script seed it)."""
        return random.Random(f"{config}:{script[:4]}")

    def with_path(self, plan: Plan) -> Plan:
        """Hypothesis's position plan with its path: the moves to the start position, about
        a depth drawn from the plan's own random source (after its style), played by its
        style and a path style drawn there too (see quiet_stretch too). Any other plan as
        it is."""
        if plan.mode != "position" or plan.path:
            return plan
        t = self.campaign.target
        rng = self._rng(plan.config, plan.script)
        if plan.config:
            opponents.draw_style(t.module, rng)  # the plan's style: drawn first, as `plans` drew it
        path_style = opponents.draw_style(t.module, rng)
        sides = (path_style, plan.style) if plan.seat == 0 else (plan.style, path_style)
        path = opponents.path(t.rules, t.module, seat=plan.seat, depth=rng.randrange(start_plies(t.rules) + 1),
                              styles=sides, rng=rng)
        quiet = random.Random(f"quiet:{plan.config}:{plan.script[:4]}")
        return replace(plan, path=self.quiet_stretch(tuple(path), plan.seat, quiet), path_style=path_style)

    def saved(self, modes: tuple[str, ...]) -> int:
        """How many examples the example database replays first."""
        if self._saved is None:
            self._saved = self.campaign.search_test.saved(modes)
        return self._saved

    def warming_up(self, modes: tuple[str, ...]) -> bool:
        """Whether the next example is one of the first WARM_UP past the replayed ones,
        which `varied` replaces by a game from the start."""
        if self.campaign.search_test.warmed:  # played before the test: their places come first
            return True
        n, saved = self.campaign.run.examples, self.saved(modes)
        return saved <= n < saved + WARM_UP

    def varied(self, plan: Plan, modes: tuple[str, ...]) -> Plan:
        """The plan to play: Hypothesis's own, or one drawn as check draws its games.

        Hypothesis's generation repeats itself: small configuration numbers (a quarter of
        them 0, the plain random opponent), the same opponent script under another branch
        or configuration, mutations of earlier examples (measured: 81 distinct scripts in
        200 examples). Games from the start are where check finds most faults, so fuzz's
        examples must be at least as varied as check's games. A plan is replaced by one
        drawn from prototest's own seeded stream, exactly as check draws a game (a style,
        each move class omitted half of the time, uniformly random choices), when it
        comes among this worker's first WARM_UP examples (then a game from the start,
        the seats in turn, no branch), repeats an earlier plan, or names the plain
        opponent (its mode then drawn uniformly too: Hypothesis's draws favour the first).
        The examples the example database replays first (earlier runs' failures) are
        never replaced."""
        c = self.campaign
        n = c.run.examples
        saved = self.saved(modes)
        if n < saved:
            return self.with_path(plan)
        key = _key(plan)
        warm = self.warming_up(modes)
        if not warm and key not in self._seen and plan.config != 0:
            self._seen.add(key)
            return self.with_path(plan)
        self._seen.add(key)
        if warm:
            return self.warm_plan(n, saved)
        t = c.target
        stream = c.options.stream
        rng, style, script = self._drawn(n, len(plan.script))
        mode = modes[rng.randrange(len(modes))]  # Hypothesis's own draws favour the first mode
        path: tuple[str, ...] = ()
        path_style = None
        if mode == "position":
            path_style = opponents.draw_style(t.module, rng)
            sides = (path_style, style) if plan.seat == 0 else (style, path_style)
            depth = rng.randrange(start_plies(t.rules) + 1)
            path = tuple(opponents.path(t.rules, t.module, seat=plan.seat, depth=depth, styles=sides, rng=rng))
            path = self.quiet_stretch(path, plan.seat, random.Random(f"quiet:{c.options.seed}:{stream}:{n}"))
        return Plan(mode, plan.seat, style, path, script, path_style, plan.branch, rng.getrandbits(32),
                    drawn=True)

    def seen(self, plan: Plan) -> None:
        """A plan of Hypothesis's whose place a warm-up game took (see `varied`)."""
        self._seen.add(_key(plan))

    def warm_plan(self, n: int, saved: int = 0) -> Plan:
        """The warm-up game of this worker's example `n` (the `n - saved`-th of WARM_UP past
        the `saved` examples the database replays first): a game from the start
        drawn as check draws its games (a style, uniformly random choices), the seats in
        turn, no branch. It needs nothing of Hypothesis's: `SearchTest.warm_up` plays these
        before the Hypothesis test starts, where no database replays earlier failures."""
        t = self.campaign.target
        rng, style, script = self._drawn(n, script_length(t.rules))
        seat = (n - saved + self.campaign.options.stream) % len(t.spec.game.seats)
        return Plan("game", seat, style, (), script, None, 0, rng.getrandbits(32), drawn=True)

    def _drawn(self, n: int, length: int) -> tuple[random.Random, Style, tuple[int, ...]]:
        """Example `n`'s draw from prototest's own seeded stream (its random source, then
        a swarm style as opponents.Opponent draws one, then the opponent's script)."""
        c = self.campaign
        rng = random.Random(game_seed(c.options.seed, DRAWN_SEEDS + c.options.stream * DRAWN_BLOCK + n))
        style = opponents.draw_style(c.target.module, rng)
        return rng, style, tuple(rng.randrange(opponents.CHOICES) for _ in range(length))

    def quiet_stretch(self, path: tuple[str, ...], seat: int, rng: random.Random) -> tuple[str, ...]:
        """One position plan in QUIET_SHARE goes on from its path with moves of both sides
        that make no progress (the rules module's QUIET_CLASSES never played, for a number
        of plies drawn from its QUIET_PLIES): a start position at the boundary of the
        rules that end a game without progress (chess's fifty- and 75-move rules), which
        styled paths seldom reach and where bots break (a halfmove clock past 99); where the
        module names a THINNING_STYLE, its stretch comes after the board was thinned out (a
        long ending). Its own random stream: the other plans' draws are unchanged."""
        module, rules = self.campaign.target.module, self.campaign.target.rules
        classes, span = getattr(module, "QUIET_CLASSES", ()), getattr(module, "QUIET_PLIES", None)
        if not classes or not span or rng.randrange(QUIET_SHARE):
            return path
        thinning, thin_span = getattr(module, "THINNING_STYLE", None), getattr(module, "THINNING_PLIES", None)
        if thinning and thin_span:  # the board thinned out first: the stretch is an ending
            both = (Style(thinning), Style(thinning))
            path = tuple(opponents.path(rules, module, seat=seat, depth=len(path) + rng.randrange(*thin_span),
                                        styles=both, rng=rng, start=path))
        quiet = Style("random", frozenset(classes))
        return tuple(opponents.path(rules, module, seat=seat, depth=len(path) + rng.randrange(*span),
                                    styles=(quiet, quiet), rng=rng, start=path))


def simplest(script: Sequence[int]) -> bool:
    """A script of mostly zero choices: Hypothesis's simplest extension of a prefix (a
    uniform draw has one chance in 65,536 a choice of being zero)."""
    return len(script) > 1 and script.count(0) * 2 > len(script)


def _key(plan: Plan) -> tuple:
    """What makes two plans the same for `Planner.varied`: mode, seat, script's start."""
    return (plan.mode, plan.seat, plan.script[:64])
