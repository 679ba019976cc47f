"""`prototest fuzz` as a pytest test, for a bot's own repository.

    # tests/test_protocol.py in the bot's repository
    from prototest.testing import fuzz_test

    test_positions = fuzz_test(["./mybot"], game="loa", mode="position")
    test_games = fuzz_test(["./mybot"], game="loa", mode="game")

Each call returns an ordinary Hypothesis test (`@given`), so everything that runs
Hypothesis tests runs it: pytest alone, pytest-xdist (`pytest -n 4` spreads the tests
over cores), a settings profile for a long campaign (`max_examples`, a shared
`database`), or a Hypothesis fuzzing runner. The examples, the judging and the
findings are those of `prototest fuzz`; a failing example raises an AssertionError
whose message is the reproducer, and Hypothesis shrinks it as it shrinks any test.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Callable, Mapping, Sequence

from . import process, spec as specmod
from .fuzz import Campaign, Options, Target, choose_mode
from .games import rules_module


def fuzz_test(bot: str | Sequence[str], *, game: str = "chess", mode: str | None = None,
              max_plies: int | None = None, spec: str | Path | None = None,
              overrides: Sequence[str] = (), env: Mapping[str, str] | None = None,
              time_scale: float = 1.0) -> Callable[[], None]:
    """A Hypothesis test that fuzzes `bot` (a command: a list, or a string split as a
    shell would) on `game`'s protocol; assign it to a name starting with `test_`.

    Examples and database come from the active Hypothesis settings profile; `mode`
    defaults to mixed for protocols that send the position, game otherwise."""
    campaign = make_campaign(bot, game=game, mode=mode, max_plies=max_plies, spec=spec,
                             overrides=overrides, env=env, time_scale=time_scale)
    test = campaign.test(own_settings=False)
    test.__name__ = test.__qualname__ = f"fuzz_{campaign.target.spec.name}_{campaign.options.mode}"
    return test


def make_campaign(bot: str | Sequence[str], *, game: str = "chess", mode: str | None = None,
                  max_plies: int | None = None, spec: str | Path | None = None,
                  overrides: Sequence[str] = (), env: Mapping[str, str] | None = None,
                  time_scale: float = 1.0, options: Options | None = None) -> Campaign:
    """The campaign behind `fuzz_test` (and `prototest fuzz`), for other runners."""
    argv = shlex.split(bot) if isinstance(bot, str) else list(bot)
    if not argv:
        raise ValueError("no bot command given")
    loaded = specmod.load(Path(spec) if spec is not None else specmod.spec_path_for(game), list(overrides))
    module = rules_module(loaded.game.rules)
    rules = module.make_rules(loaded.rules)
    mode = choose_mode(loaded, mode)
    bot_env = process.controlled_env({"PATH": os.environ.get("PATH", os.defpath), **(env or {})})
    options = options or Options()
    options.mode = mode
    options.max_plies = max_plies or loaded.fuzz.max_plies
    return Campaign(Target(loaded, rules, module, argv, bot_env, time_scale), options)
