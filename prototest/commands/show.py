"""`prototest show TRANSCRIPT|FIXTURE`: a saved game at one ply, in the terminal (the
board, the move that led there, the transcript lines of that ply), and with --html the
whole game as a page to step through (prototest.reports.htmlpage)."""

from __future__ import annotations

from pathlib import Path

import typer

from ..reports import gameview
from .common import check_output
from .exits import UsageProblem


def execute(*, path: Path, ply: int | None, html_path: Path | None) -> None:
    if html_path is not None:
        check_output("--html", html_path)
    try:
        view = gameview.load(path)
    except gameview.ViewError as exc:
        raise UsageProblem(str(exc)) from None
    if ply is not None and ply > view.last:
        raise UsageProblem(f"--ply {ply}: {path} has plies 0 to {view.last}")
    at = view.opening_ply if ply is None else ply
    typer.echo("\n".join(lines(view, at)))
    if html_path is not None:
        from ..reports import htmlpage

        try:
            htmlpage.write_view(view, html_path)
        except OSError as exc:
            raise UsageProblem(f"--html {html_path}: cannot write: {exc.strerror or exc}") from None
        typer.echo(f"page: {html_path}")


def lines(view: gameview.View, ply: int) -> list[str]:
    """What the terminal shows of one ply: where it is, the board, and its transcript lines."""
    seat = f", the bot as {view.seat_name}" if view.seat_name else ""
    out = [f"{view.title}: {view.game}{seat}, {'1 ply' if len(view.moves) == 1 else f'{len(view.moves)} plies'}" + (f", {view.result}" if view.result else "")
           + (f"; {view.verdict}" if view.verdict else "")]
    if view.problem:
        out.append(f"note: {view.problem}")
    where = "the failing ply" if ply == view.failing_ply else "the last ply" if ply == view.last else ""
    if ply == 0:
        out.append(f"ply 0 of {view.last}: the start position" + (f" ({where})" if where else ""))
    else:
        who = {"bot": "the bot's", "opponent": "the opponent's", "given": "a given"}.get(view.mover(ply), "")
        out.append(f"ply {ply} of {view.last}" + (f" ({where})" if where else "")
                   + f": after move {ply} {view.moves[ply - 1]}" + (f" ({who} move)" if who else ""))
    bad = view.bad_at(ply)
    if bad is not None:
        out.append(f"{view.who(view.refused_by(ply))} answered {bad} here: refused by the judge")
    out.append("")
    out.extend(f"  {row}" for row in view.diagram(ply))
    out.append(f"  position: {view.notation(ply)}")
    here = [line.text for line in view.lines_at(ply) if line.mark != "h"]
    if here:
        out.append("")
        out.append(f"transcript lines of ply {ply}:")
        out.extend(here)
    return out
