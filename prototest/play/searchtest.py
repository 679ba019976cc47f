"""The Hypothesis side of a fuzz campaign: the search (the warm-up games, then the test
that draws each example), the test's settings and seed, and the example database where
failures are stored and replayed.

`SearchTest` is a collaborator of `prototest.play.fuzz.Campaign`: this draws each example's
plan (`SearchTest.episode`), the campaign plays it and acts on what it shows
(`Campaign.conclude`). The database is made where it is first used: a Redis client belongs
to the process that made it (each worker makes its own, after the fork).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from . import exampledb, lazy
from .evidence import Stop
from .fuzzrun import Example
from .plans import WARM_UP, simplest, worker_seed

if TYPE_CHECKING:
    from hypothesis import settings as Settings
    from hypothesis import strategies as st
    from hypothesis.database import ExampleDatabase


class SearchTest:
    """The Hypothesis test of one campaign, and its example database."""

    def __init__(self, campaign: Any) -> None:
        """`campaign`: the prototest.play.fuzz.Campaign whose examples the test plays."""
        self.campaign = campaign
        self._database: ExampleDatabase | None = None
        #: the warm-up games played before the Hypothesis test (see warm_up), whose places
        #: the test's first examples take
        self.warmed: list[Example] = []
        #: the Hypothesis example in progress (see forget_stopped)
        self._data: Any = None

    # -- the search -----------------------------------------------------------------------
    def search(self, modes: tuple[str, ...]) -> None:
        """The warm-up games, then Hypothesis's generation until a failure, the budget or
        the examples end it."""
        c = self.campaign
        c.stopping = False
        try:
            self.warm_up(modes)
            if c.options.examples is None or c.run.examples < c.options.examples:
                self.test(modes)()
        except Stop:
            self.forget_stopped(modes)
        except Exception as exc:
            if not lazy.is_flaky(exc):
                raise
            # Stopping before an example draws anything looks to Hypothesis like a test
            # that draws less than before: that is our stop, not a flaky strategy.
            if not c.stopping:
                c.run.stopped_early = f"Hypothesis stopped: {type(exc).__name__}"
        else:
            c.run.ended = c.run.ended or "examples"

    def forget_stopped(self, modes: tuple[str, ...]) -> None:
        """Hypothesis saves the example an exception leaves its test with as a failure to
        replay first: the one the budget, another worker's failure or a missing coverage
        ended is none, and is deleted again (else every later run with this database would
        replay it first, and play its warm-up games only after Hypothesis's start)."""
        data, self._data = self._data, None
        database = self.database() if data is not None and self.campaign.run.ended != "failure" else None
        if database is None:
            return
        from hypothesis.database import choices_to_bytes

        try:
            database.delete(self.key(modes), choices_to_bytes(data.conjecture_data.choices))
        except Exception:  # a lost server: said by exampledb.problems; the verdict stands
            pass

    def warm_up(self, modes: tuple[str, ...]) -> None:
        """The worker's first WARM_UP examples, games drawn as check draws its games
        (`Planner.warm_plan`), played before the Hypothesis test starts: they need no draw
        of Hypothesis's, so a fault that check finds in its first games is found as soon,
        not after Hypothesis's own start (its first draw reads every local module's source
        for constants: about half a second). Where the example database holds earlier
        failures, they come first, and the test plays the warm-up games after them, as
        `Planner.varied` has it."""
        c = self.campaign
        if c.run.examples or c.planner.saved(modes):
            return
        for n in range(WARM_UP):
            if c.options.examples is not None and n >= c.options.examples:
                return
            c.check_stop()
            self.warmed.append(c.conclude(c.planner.warm_plan(n), modes))

    def episode(self, data: st.DataObject, modes: tuple[str, ...]) -> None:
        """One example of the test: its plan drawn, then played (Campaign.conclude); the
        run stops at its first failure."""
        from hypothesis import reject

        c = self.campaign
        self._data = data
        c.check_stop()
        plan = data.draw(c.planner.plans(modes), label="plan")
        if simplest(plan.script):
            # Hypothesis opens with "simplest" examples (every choice after a short prefix
            # zero): here the same near-identical game again and again. Refused before any
            # bot runs, five in a row end that phase, and generation proper begins.
            reject()
        if self.warmed:
            # The test's first examples are the warm-up games' places, as before they were
            # played first (Planner.varied): its draws go on exactly as if it had played them.
            c.planner.seen(plan)
            self.warmed.pop(0)
            return
        c.conclude(c.planner.varied(plan, modes), modes)

    # -- the test and its database ----------------------------------------------------------

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
        from hypothesis import strategies as st  # noqa: F811 - (at run time, not only for types)

        c = self.campaign
        options = c.options

        def fuzz_example(data: st.DataObject) -> None:
            self.episode(data, modes)

        test = given(st.data())(fuzz_example)
        if own_settings:
            left = None
            if options.examples is not None:
                # (the warm-up games played before the test take its first places again)
                left = max(1, options.examples - c.run.examples + len(self.warmed))
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
        import hashlib  # here: Hypothesis's test is made after the first examples

        return hashlib.sha256(text.encode()).digest()
