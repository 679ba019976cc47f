"""The games prototest knows, found through the `prototest.games` entry-point group.

Every game, built in or added by another package, is registered the same way: an entry
point in the group `prototest.games` whose name is the game's name (what `--game` takes)
and whose value is its rules module. prototest's own four are registered in its
`pyproject.toml`; a package adds one with

    [project.entry-points."prototest.games"]
    connect4 = "prototest_connect4.rules"

and `pip install` is all it takes: `prototest check --game connect4`, `moves`, `perft`,
`fuzz` and `record` then know it, and the conformance suite (`prototest.judge.conformance`)
tests it. What a rules module provides is `base.py`'s docstring; `game(name)` checks
it when the game is loaded and says in one line what is missing.

A spec names its rules in `game.rules`: a registered game's name, or the dotted name of
a module (a spec and rules of one's own, not packaged).
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from .base import OptionError, Rules, name_problem, rules_problem, shown

#: The game when neither --game, --spec nor the config file says.
DEFAULT_GAME = "chess"

#: The entry-point group games are registered in.
GROUP = "prototest.games"


class GameError(ValueError):
    """A game that cannot be used: `str()` is one line naming the game and what is wrong."""


@dataclass(frozen=True)
class Game:
    """A registered game: its name, rules module, bundled spec and reference bot."""

    name: str
    module: ModuleType
    #: the game's spec, as `--game NAME` loads it
    spec: Path
    #: the module of its reference bot, run as `python -m BOT` (fixtures, conformance)
    bot: str
    #: the distribution that registered it ("prototest" for the built-in games)
    source: str


@functools.cache
def _registered() -> dict[str, list[Any]]:
    from importlib.metadata import entry_points  # 15 ms: not for a bot that imports a rules module

    found: dict[str, list[Any]] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, []).append(ep)
    return found


def names() -> list[str]:
    """Every registered game's name, sorted (no module is imported)."""
    return sorted(_registered())


def known() -> str:
    """The registered names, as a usage error lists them."""
    return ", ".join(names()) or "none: is prototest installed (pip install -e .)?"


@functools.cache
def did_you_mean(name: str) -> str:
    """': did you mean impasse?' for a name close to a registered game's, else ''."""
    import difflib

    close = difflib.get_close_matches(name.lower(), names(), n=1, cutoff=0.6)
    return f": did you mean {close[0]}?" if close else ""


@functools.cache
def game(name: str) -> Game:
    """The registered game `name`, its module imported and checked; GameError says in
    one line what is wrong (an unknown name lists the known ones)."""
    problem = name_problem(name)
    if problem:
        raise GameError(f"game {shown(name)}: {problem}")
    eps = _registered().get(name)
    if not eps:
        raise GameError(f"unknown game {name!r}{did_you_mean(name)} (known: {known()})")
    sources = [_source(ep) for ep in eps]
    if len(set(sources)) > 1:
        raise GameError(f"game {name!r} is registered by more than one package ({', '.join(sorted(set(sources)))}): "
                        f"uninstall one")
    ep = eps[0]
    try:
        module = ep.load()
    except Exception as exc:  # noqa: BLE001 - a plugin's import error, said in one line
        raise GameError(f"game {name!r}: its rules module {ep.value!r} cannot be imported: "
                        f"{type(exc).__name__}: {exc}") from None
    if not isinstance(module, ModuleType):
        raise GameError(f"game {name!r}: the entry point {ep.value!r} is not a module (a rules module is)")
    missing = [attr for attr in ("make_rules", "SPEC", "BOT") if not hasattr(module, attr)]
    problem = module_problem(module) or (f"its rules module {module.__name__} has no {', '.join(missing)}"
                                         if missing else "")
    if problem:
        raise GameError(f"game {name!r}: {problem}")
    spec = Path(module.SPEC)
    if not spec.is_absolute():
        spec = Path(module.__file__ or ".").parent / spec
    if not spec.is_file():
        raise GameError(f"game {name!r}: its spec {spec} is not there (SPEC in {module.__name__})")
    return Game(name, module, spec, str(module.BOT), sources[0])


def _source(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else ep.value.split(".")[0]


def module_problem(module: ModuleType) -> str:
    """What a rules module lacks, in words ("" when nothing): `make_rules`, and the
    opponents' hooks that must come together."""
    if not callable(getattr(module, "make_rules", None)):
        return f"its rules module {module.__name__} has no make_rules()"
    if tuple(getattr(module, "MOVE_CLASSES", ())) and not callable(getattr(module, "move_kinds", None)):
        return f"its rules module {module.__name__} names MOVE_CLASSES but has no move_kinds()"
    styles = tuple(getattr(module, "STYLES", ("random",)))
    if not styles or styles[0] != "random":
        return f"its rules module {module.__name__}: STYLES must start with \"random\" (got {styles!r})"
    if len(styles) > 1 and not callable(getattr(module, "prefer", None)):
        return f"its rules module {module.__name__} names STYLES beyond \"random\" but has no prefer()"
    return ""


def rules_module(name: str) -> ModuleType:
    """The rules module a spec's `game.rules` names: a registered game, or a dotted module
    name (rules of one's own); a ValueError names what is wrong."""
    if "." not in name:
        try:
            return game(name).module
        except GameError as exc:
            raise ValueError(str(exc)) from None
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", name):
        raise ValueError(f"{name!r} is neither a game's name nor a module's dotted name")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            raise ValueError(f"no module {name!r} (and no game of that name: known: {known()})") from None
        raise
    problem = module_problem(module)
    if problem:
        raise ValueError(problem)
    return module


def make_rules(name: str, options: Mapping[str, Any]) -> Rules:
    """Build the rules of a game, checked; OptionError or ValueError on a bad name or option."""
    module = rules_module(name)
    rules = module.make_rules(options)
    problem = rules_problem(rules)
    if problem:
        raise ValueError(f"{module.__name__}: {problem}")
    return rules


__all__ = ["GROUP", "Game", "GameError", "game", "known", "make_rules", "module_problem", "name_problem", "names",
           "rules_module", "shown", "OptionError"]


def registered_spec(name: str) -> Path | None:
    """The spec of the installed game `name`, resolved (None: no such game)."""
    try:
        return game(name).spec.resolve()
    except GameError:
        return None
