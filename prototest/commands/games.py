"""`prototest games`: the bundled protocols."""

from __future__ import annotations

import typer

from .. import spec as specmod
from ..envelope import Envelope


def execute() -> None:
    """List the bundled protocols."""
    for name in specmod.builtin_games():
        try:
            spec = specmod.load(specmod.spec_path_for(name))
            typer.echo(f"{name:10} {spec.game.title}")
            typer.echo(f"{'':10} envelope: {Envelope.from_spec(spec).describe()}")
        except specmod.SpecError as exc:
            typer.echo(f"{name:10} (invalid: {exc})")
