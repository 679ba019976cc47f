"""`prototest perft`: count the leaf positions at a depth (perft), split by first move
with --divide."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import load_spec, parse_position


def execute(*, position: str | None, depth: int, divide: bool, game: str, spec_path: Path | None,
            overrides: list[str]) -> None:
    """Count the leaf positions at DEPTH (perft); --divide splits it by first move."""
    spec, _, rules = load_spec(game, spec_path, overrides)
    pos = parse_position(rules, position)
    if divide:
        total = 0
        for move, count in rules.divide(pos, depth):
            typer.echo(f"{spec.answer_for(move)}: {count}")
            total += count
        typer.echo("")
        typer.echo(f"total: {total}" if depth else f"total: {rules.perft(pos, depth)}")
    else:
        typer.echo(str(rules.perft(pos, depth)))
