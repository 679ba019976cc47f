"""`prototest games`: the games installed (prototest's own and those of plugins)."""

from __future__ import annotations

import typer

from .. import games
from ..judge import spec as specmod
from ..sandbox.envelope import Envelope


def execute() -> None:
    """List the registered games: each one's title, envelope and, for a plugin, its package."""
    for name in games.names():
        try:
            game = games.game(name)
            spec = specmod.load(game.spec)
            specmod.bind(spec)
            source = "" if game.source == "prototest" else f"  (from {game.source})"
            typer.echo(f"{name:10} {spec.game.title}{source}")
            typer.echo(f"{'':10} envelope: {Envelope.from_spec(spec).describe()}")
        except (games.GameError, specmod.SpecError) as exc:
            typer.echo(f"{name:10} (cannot be used: {exc})")
