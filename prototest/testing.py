"""`prototest fuzz` as a pytest test, for a bot's own repository.

    # tests/test_protocol.py in the bot's repository
    from prototest.testing import fuzz_test

    test_protocol = fuzz_test(["./mybot"], game="loa")
    test_games_only = fuzz_test(["./mybot"], game="loa", mode="game", budget="2m")

Each call returns a test function that runs one fuzzing campaign: a Hypothesis test of
whole games (as `prototest fuzz` plays them, with its swarm opponents, budget, state probe
and shrinking). The number of examples and the example database come from the active
Hypothesis settings profile (`max_examples`, `database`), so a long campaign shared
between machines is a profile away; the time budget (`budget`, default 60 s) also ends it.
Everything that runs pytest runs it: pytest alone, pytest-xdist (`pytest -n 4` spreads
the tests over cores).

    # conftest.py: a Redis server shared between machines (pip install 'prototest[redis]')
    import redis
    from hypothesis import settings
    from hypothesis.extra.redis import RedisExampleDatabase

    shared = RedisExampleDatabase(redis.Redis(host="ci-cache", port=6379, db=0), key_prefix=b"prototest:")
    settings.register_profile("ci", max_examples=20_000, database=shared)
    settings.load_profile("ci")

With the key prefix `prototest:`, `prototest fuzz --database redis://ci-cache:6379/0` and
the test share their failures: a failure that one found is replayed first by the other,
for the same bot command, game, mode and `max_plies`.

A failing campaign fails the test with the reproducer as its message, the first thing
pytest shows; a passing one reports its warnings (slow answers, a `random` answer, a bot
that answers the same input differently, a failure seen only after a cold start, a timing
failure that did not come back when played again alone: `busy_machine`) as pytest
warnings of the class `ProtocolWarning`. A timing failure is a failure only when it comes
back played again alone, as in `prototest fuzz`. A bot that answers the same input
differently (a time-bound search) gets its whole budget, and no Hypothesis error ever
surfaces instead of a verdict.
"""

from __future__ import annotations

import os
import shlex
import warnings
from pathlib import Path
from typing import Callable, Mapping, Sequence

from hypothesis import settings as hypothesis_settings
from hypothesis.errors import HypothesisException

from . import process, report, spec as specmod
from .settings import parse_duration
from .fuzz import BotFault, Campaign, _Stop, choose_mode
from .fuzzrun import DEFAULT_BUDGET_S, FuzzRun, Options, Target


class Incomplete(AssertionError):
    """The budget ran out before a single answer of the bot was judged: no verdict, so
    the test fails rather than pass a bot it never saw answer."""


class ProtocolWarning(UserWarning):
    """A warning of prototest's judge about the bot (it passes, but a stricter judge or a
    slower machine may not)."""


def fuzz_test(bot: str | Sequence[str], *, game: str = "chess", mode: str | None = None,
              budget: float | str | None = DEFAULT_BUDGET_S, max_plies: int | None = None,
              spec: str | Path | None = None, overrides: Sequence[str] = (),
              env: Mapping[str, str] | None = None, time_scale: float = 1.0,
              seed: int | None = None) -> Callable[[], None]:
    """A test that fuzzes `bot` (a command: a list, or a string split as a shell would)
    on `game`'s protocol; assign it to a name starting with `test_`.

    `budget` is seconds (or "90s", "5m"); None for no time limit. `seed` fixes the
    examples (default: Hypothesis's own, as for any test: derandomize it in a profile)."""
    campaign = make_campaign(bot, game=game, mode=mode, max_plies=max_plies, spec=spec,
                             overrides=overrides, env=env, time_scale=time_scale,
                             options=Options(budget_s=_seconds(budget), seed=seed or 0))
    name = f"fuzz_{campaign.target.spec.name}_{campaign.options.mode}"

    def test() -> None:
        __tracebackhide__ = True
        run = _run(campaign)
        if run.failed:
            failure = next(f for f in run.failures if f.confirmed)
            raise BotFault(failure, report.reproducer_text(failure)) from None
        if run.incomplete:  # nothing judged: never a pass (the CLI says INCOMPLETE, status 2)
            raise Incomplete(f"INCOMPLETE: no answer of the bot was judged before the "
                             f"{campaign.options.budget_s or 0:g} s budget ran out; give the test more "
                             f"time (fuzz_test(..., budget=...))")
        for text in _warnings(run):
            warnings.warn(ProtocolWarning(text), stacklevel=2)

    test.__name__ = test.__qualname__ = name
    return test


def _run(campaign: Campaign) -> FuzzRun:
    """The campaign as pytest runs it: Hypothesis's examples from the active profile."""
    campaign._start_clock()
    try:
        inner = campaign.test(own_settings=False)
        examples = hypothesis_settings.default.max_examples
        campaign.options.examples = examples
        try:
            inner()
        except _Stop:
            pass
        except HypothesisException as exc:  # never a raw Hypothesis error instead of a verdict
            campaign.run.stopped_early = f"Hypothesis stopped: {type(exc).__name__}: {exc}"
        if campaign.run.interrupted is None:
            campaign.finish()
    except KeyboardInterrupt as exc:
        campaign._interrupted(exc)
        raise
    return campaign.close()


def _warnings(run: FuzzRun) -> list[str]:
    texts = [f"{f.kind}: {f.message}" + (f" [in {f.examples} examples]" if f.examples and f.examples > 1 else "")
             for f in run.warnings]
    texts += ["\n".join(report.reproducer_lines(f.details, f.finding)) for f in run.unconfirmed]
    texts += [f"nondeterministic: the same input got {n.first!r} in example {n.first_example} and "
              f"{n.second!r} in example {n.second_example} (ply {n.ply})" for n in run.nondeterminism[:1]]
    if run.stopped_early:
        texts.append(run.stopped_early)
    if run.probe is not None and run.probe.stateful:
        texts.append(f"state probe: {run.probe.message}")
    return texts


def _seconds(budget: float | str | None) -> float | None:
    if budget is None or isinstance(budget, (int, float)):
        return float(budget) if budget else None
    return parse_duration(budget)


def make_campaign(bot: str | Sequence[str], *, game: str = "chess", mode: str | None = None,
                  max_plies: int | None = None, spec: str | Path | None = None,
                  overrides: Sequence[str] = (), env: Mapping[str, str] | None = None,
                  time_scale: float = 1.0, options: Options | None = None) -> Campaign:
    """The campaign behind `fuzz_test` (and `prototest fuzz`), for other runners."""
    argv = shlex.split(bot) if isinstance(bot, str) else list(bot)
    if not argv:
        raise ValueError("no bot command given")
    loaded = specmod.load(Path(spec) if spec is not None else specmod.spec_path_for(game), list(overrides))
    module, rules = specmod.bind(loaded)
    bot_env = process.controlled_env({"PATH": os.environ.get("PATH", os.defpath), **(env or {})})
    options = options or Options()
    options.mode = choose_mode(loaded, mode)
    options.max_plies = max_plies
    return Campaign(Target(loaded, rules, module, argv, bot_env, time_scale), options)
