"""Rules modules, one per game, found by the name a spec gives in `game.rules`.

A rules module provides `make_rules(options) -> Rules` and, for the built-in opponents,
`STYLES` and `opponent_moves(position, style, omit)` (see `base.py`).
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any, Mapping

from .base import OptionError, Rules


def rules_module(name: str) -> ModuleType:
    """Import `prototest.games.<name>`; a ValueError names what is missing."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"{name!r} is not a rules module name")
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{name}":
            raise ValueError(f"no rules module prototest/games/{name}.py") from None
        raise
    for attr in ("make_rules",):
        if not hasattr(module, attr):
            raise ValueError(f"prototest/games/{name}.py has no {attr}()")
    return module


def make_rules(name: str, options: Mapping[str, Any]) -> Rules:
    """Build the rules of a game; OptionError or ValueError on a bad name or option."""
    return rules_module(name).make_rules(options)


__all__ = ["rules_module", "make_rules", "OptionError"]
