"""Hypothesis, imported where it is first needed, never before.

`prototest fuzz` plays its warm-up games before Hypothesis's test starts (see
`prototest.play.searchtest.SearchTest.warm_up`), and those need none of Hypothesis: importing it
costs a tenth of a second or more of every run's start, in the command before its workers
fork, so the modules of the search import it through `hypothesis()` inside the functions that
use it. `prototest check`, `match` and the other commands never import it at all.

The import leaves out the plugins other packages register for Hypothesis (its "hypothesis"
entry points: trio's, for one, imports trio): fuzz draws from its own strategies only, and
the entry points' scan and imports cost up to a second (HYPOTHESIS_NO_PLUGINS, set for the
import only: the environment a bot is given is not changed).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from types import ModuleType


@contextlib.contextmanager
def no_plugins() -> Iterator[None]:
    """HYPOTHESIS_NO_PLUGINS set while Hypothesis is imported, as it was after."""
    given = os.environ.get("HYPOTHESIS_NO_PLUGINS")
    os.environ["HYPOTHESIS_NO_PLUGINS"] = given or "1"
    try:
        yield
    finally:
        if given is None:
            os.environ.pop("HYPOTHESIS_NO_PLUGINS", None)
        else:
            os.environ["HYPOTHESIS_NO_PLUGINS"] = given


#: Set by the `prototest fuzz` command (its own process, never a user's pytest session):
#: Hypothesis's draws leave out constants read from the source of "local" modules.
command_only = False
_constants_off = False


def hypothesis() -> ModuleType:
    """The `hypothesis` package, imported (once) without other packages' plugins; its
    submodules `strategies`, `database` and `errors` with it."""
    module = sys.modules.get("hypothesis")
    if module is None or "hypothesis.database" not in sys.modules:
        with no_plugins():
            import hypothesis
            import hypothesis.database  # noqa: F401
            import hypothesis.errors  # noqa: F401
            import hypothesis.strategies  # noqa: F401
        module = hypothesis
    if command_only and not _constants_off:
        no_local_constants()
    return module


def no_local_constants() -> None:
    """Hypothesis (6.131 on) mixes into its draws constants read from the source of every
    "local" module loaded, that is any not in the standard library or site-packages:
    prototest's own, when it runs from a checkout or an editable install. It reads and
    parses them (some 100 files: 0.5 s) at the first example of each process, every
    worker of a campaign, and caches them in `.hypothesis/constants` of the current
    folder, with `--no-database` too. fuzz's draws are opponent choices and paths, on
    which prototest's own literals have no bearing: the command turns that collection
    off. (A hook of Hypothesis's internals: where it is not there, nothing changes.)"""
    global _constants_off
    _constants_off = True
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    empty = getattr(providers, "_local_constants", None)
    if empty is not None and callable(getattr(providers, "_get_local_constants", None)):
        setattr(providers, "_get_local_constants", lambda *args, **kwargs: empty)


def is_flaky(exc: BaseException) -> bool:
    """Whether `exc` is Hypothesis's Flaky (False when Hypothesis was never imported: then
    nothing of it ran to raise one)."""
    errors = sys.modules.get("hypothesis.errors")
    return errors is not None and isinstance(exc, errors.Flaky)
