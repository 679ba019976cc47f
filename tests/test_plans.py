"""The search's plans (prototest.play.plans): Hypothesis's strategy of them is built once a
campaign, not at each example. Applying `composite` reads the drawing function's source and
signature (some 5 ms): built at each example, it was a third of a fuzz worker's own CPU beside
the game."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import HealthCheck, find, settings

from prototest.games import impasse
from prototest.play.fuzzrun import Plan
from prototest.play.plans import Planner


def _planner() -> Planner:
    target = SimpleNamespace(spec=SimpleNamespace(game=SimpleNamespace(seats=("white", "black"))),
                             rules=impasse.ImpasseRules(max_plies=200), module=impasse)
    return Planner(SimpleNamespace(target=target))  # type: ignore[arg-type]


def test_the_plans_strategy_is_built_once_for_each_set_of_modes_and_draws_plans():
    planner = _planner()
    games, mixed = planner.plans(("game",)), planner.plans(("position", "game"))
    assert planner.plans(("game",)) is games
    assert planner.plans(("position", "game")) is mixed
    assert mixed is not games
    quick = settings(database=None, max_examples=200, suppress_health_check=list(HealthCheck))
    plan = find(mixed, lambda p: p.mode == "position" and p.seat == 1 and p.config != 0, settings=quick)
    assert isinstance(plan, Plan) and plan.style.name in impasse.STYLES
    assert find(games, lambda p: True, settings=quick).mode == "game"
