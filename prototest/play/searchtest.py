"""The Hypothesis side of a fuzz campaign: the test that draws each example, its settings
and seed, and the example database where failures are stored and replayed.

`SearchTest` is a collaborator of `prototest.play.fuzz.Campaign`: the campaign plays each
example (`Campaign.episode`); this builds the `@given` test that calls it. The database is
made where it is first used: a Redis client belongs to the process that made it (each
worker makes its own, after the fork).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from . import exampledb, lazy
from .plans import worker_seed

if TYPE_CHECKING:
    from hypothesis import settings as Settings
    from hypothesis.database import ExampleDatabase


class SearchTest:
    """The Hypothesis test of one campaign, and its example database."""

    def __init__(self, campaign: Any) -> None:
        """`campaign`: the prototest.play.fuzz.Campaign whose examples the test plays."""
        self.campaign = campaign
        self._database: ExampleDatabase | None = None

    def database(self) -> ExampleDatabase | None:
        """The example database, made where it is first used. Under pytest
        (`test(own_settings=False)`), the active profile's."""
        database = self.campaign.options.database
        if self._database is None and database is not None:
            self._database = exampledb.open_database(database)
        return self._database

    def saved(self, modes: tuple[str, ...]) -> int:
        """How many examples the database replays under `modes`' key before any is
        generated (exampledb.count): none from a folder that does not exist, told without
        importing Hypothesis (a first run plays its warm-up games at once)."""
        where = self.campaign.options.database
        if self._database is None and (where is None or (isinstance(where, Path) and not where.exists())):
            return 0  # (under pytest, the profile's database is the one test() took)
        return exampledb.count(self.database(), self.key(modes))

    def problems(self) -> list[str]:
        """What went wrong writing to the database (prototest.play.exampledb.problems)."""
        return exampledb.problems(self._database)

    def settings(self, examples: int | None) -> Settings:
        lazy.hypothesis()
        from hypothesis import HealthCheck, Phase, Verbosity, settings

        return settings(
            max_examples=examples if examples is not None else 10**9, deadline=None, database=self.database(),
            phases=(Phase.explicit, Phase.reuse, Phase.generate),
            suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
            report_multiple_bugs=False, print_blob=False, derandomize=False,
        )

    def test(self, modes: tuple[str, ...], *, own_settings: bool = True,
             seed: int | None = None) -> Callable[[], None]:
        """The Hypothesis test: with `own_settings` False it keeps the settings of the
        active profile (its database, derandomize ...) but not its max_examples: the
        budget ends the run, or `options.examples`; `seed` then fixes the draws as
        `prototest fuzz --seed` does (None: Hypothesis's own seed)."""
        lazy.hypothesis()
        from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings
        from hypothesis import strategies as st

        c = self.campaign
        options = c.options

        def fuzz_example(data: st.DataObject) -> None:
            c.episode(data, modes)

        test = given(st.data())(fuzz_example)
        if own_settings:
            left = None
            if options.examples is not None:
                # (the warm-up games played before the test take its first places again)
                left = max(1, options.examples - c.run.examples + len(c.warmed))
            # The seed first: @seed turns the database off, the settings turn it back on.
            seed = worker_seed(options.seed, options.stream) + (0 if modes == c.search_modes else 1)
            test = self.settings(left)(hypothesis_seed(seed)(test))
        else:
            if seed is not None:
                test = hypothesis_seed(seed)(test)
            # quiet: a failure is told by prototest's reproducer and replay command, never by
            # Hypothesis's "@seed(...)" hint, which would not replay a bot's game
            examples = options.examples if options.examples is not None else 10**9
            test = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
                            phases=(Phase.explicit, Phase.reuse, Phase.generate), verbosity=Verbosity.quiet,
                            print_blob=False)(test)
            # A failure found by a branch is saved as a fresh game in the profile's database
            # (see Elites.save_as_fresh), as on the command line.
            self._database = settings.default.database
        # Stored failures are per game, modes, bot and move cap, not per this function.
        test._hypothesis_internal_database_key = self.key(modes)  # type: ignore[attr-defined]
        return test

    def key(self, modes: tuple[str, ...] | None = None) -> bytes:
        """Failures are stored per game, modes, bot command and move cap."""
        c = self.campaign
        t, o = c.target, c.options
        text = "\0".join([t.spec.name, ",".join(modes or c.search_modes), str(o.max_plies), *t.argv])
        return hashlib.sha256(text.encode()).digest()
