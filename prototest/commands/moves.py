"""`prototest moves`: the legal moves of a position, one a line, as the judge accepts them."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import load_spec, parse_position


def execute(*, position: str | None, game: str, spec_path: Path | None, overrides: list[str]) -> None:
    """List the legal moves, one a line, exactly as the judge accepts them."""
    spec, _, rules = load_spec(game, spec_path, overrides)
    pos = parse_position(rules, position)
    for move in pos.legal_moves():
        typer.echo(spec.answer_for(move))
