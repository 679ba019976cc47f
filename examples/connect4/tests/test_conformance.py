"""The conformance suite every game passes, limited to this one (prototest.conformance)."""

import pytest

pytest.importorskip("prototest.conformance", reason="prototest.conformance is not in this prototest yet")

from prototest.conformance import *  # noqa: E402,F401,F403

GAMES = ["connect4"]
