"""match's live view on a terminal (prototest.reports.live, as check's): the header, a line
per game in play with both bots' answer times, the running score, each game's verdict."""

from __future__ import annotations

import math

from ..judge.game import GameReport
from ..play import match as matchmod
from ..play.match import MatchRun, bot_name
from . import live
from .summary import points
from .text import plural


def live_view(run: MatchRun, jobs: int, quiet: bool, score) -> "live.View | None":
    """The live view on a terminal, as check's (prototest.reports.live): the header at once, a line
    per game in play (its ply, each bot's last answer time), the progress bar with the
    running score; None when stderr is no terminal, NO_COLOR is set or --quiet (the plain
    lines, as ever)."""
    if not live.wanted(quiet):
        return None
    planned = 2 * len(run.shard_pairs) if run.shard else None
    return live.View(header_lines(run, jobs), run.games_total,
                     [run.spec.seat_title(i) for i in range(len(run.spec.game.seats))], jobs, planned,
                     game_line=lambda game, now: running_line(run, game, now), score=score)


def header_lines(run: MatchRun, jobs: int) -> list[str]:
    """What the live view shows before the first game: the bots, the game, the games, the
    seed, the openings, the games at once, the time limits and the SPRT's bounds."""
    what = "" if run.mode == "match" else f" ({run.mode})"
    lines = [f"prototest match{what}: {run.spec.game.title or run.spec.name}"]
    lines.extend(f"  {matchmod.LETTERS[i]}: {bot_name(argv)}" for i, argv in enumerate(run.bots))
    games = plural(run.games_total, "game")
    if len(run.pairings) > 1:
        games += f" ({len(run.pairings)} pairings of {run.games_per_pairing})"
    openings = f"openings from {run.book}" if run.book else f"openings of {run.opening_plies} random plies"
    lines.append(f"  {games}, seed {run.seed}, {min(jobs, run.games_total)} at once; "
                 f"time: {live.limits(run.spec, run.time_scale)}")
    lines.append(f"  {openings}, each played twice, the seats swapped")
    if run.sprt_options is not None:
        o = run.sprt_options
        lines.append(f"  SPRT: elo0={o['elo0']:g} elo1={o['elo1']:g} alpha={o['alpha']:g} beta={o['beta']:g} "
                     f"({o['model']} model): the match stops once it decides")
    if run.shard:
        lines.append(f"  shard {run.shard}: {plural(len(run.shard_pairs), 'pair')} of {run.games_total // 2}")
    return lines


def running_line(run: MatchRun, game: "live.Running", now: float) -> str:
    """A game in play: its seats, its ply, each bot's last answer time, who thinks long."""
    first, second = run.names_of(game.index)
    seat = game.seat
    title = run.spec.seat_title
    line = (f"  game {game.index:>{len(str(run.games_total))}}/{run.games_total} "
            f"({first} {title(seat)}, {second} {title(1 - seat)}): ply {game.ply}")
    for letter, s in ((first, seat), (second, 1 - seat)):
        answer = game.answers[s] if s in (0, 1) else -1
        line += f", {letter} " + (f"{answer:.1f} ms" if answer >= 0 else "-")
    if game.asked_at and now - game.asked_at >= 0.5:
        thinking = first if game.asked_seat == seat else second
        line += f", {thinking} thinking for {now - game.asked_at:.1f} s"
    return line + f", {now - game.started:.0f} s"


def score_parts(run: MatchRun) -> list[tuple[str, str]]:
    """The running score as (text, style) parts: A's wins, draws and losses, the points and,
    once its interval is finite and not 0, the Elo so far (Tally.figures: pentanomial once a
    pair is complete); with more bots, the standings."""
    if run.mode != "match":
        return [(", ".join(f"{row['bot']} {row['points']:g}" for row in run.standings()), "")]
    t = run.tally
    mine, theirs = points(t)
    parts = [("A ", ""), (f"{t.wins} W", "green" if t.wins else ""), (", ", ""),
             (f"{t.draws} D", ""), (", ", ""), (f"{t.losses} L", "red" if t.losses else ""),
             (f", A-B {mine:g}-{theirs:g}", "")]
    figures = t.figures()
    elo, error = figures.get("elo"), figures.get("elo_error")
    # shown once it has a real interval: not infinite (all won), nor +/- 0 (one pair, or all pairs alike)
    if isinstance(elo, float) and isinstance(error, float) and math.isfinite(elo) and math.isfinite(error) \
            and error > 0:
        parts.append((f", Elo {elo + 0.0:+.0f} +/- {error:.0f}", "bold"))
    return parts


def game_verdict(g: GameReport) -> str:
    """A game's verdict for the live view: fail (a FAIL finding of either bot), warn, pass."""
    if g.interrupted is not None:
        return "stop"
    severities = {f.severity for f in [*g.findings, *g.opponent_findings]}
    return "fail" if "fail" in severities else "warn" if "warn" in severities else "pass"
