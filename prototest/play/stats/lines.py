"""The report lines of a match's statistics, character for character as fastchess's console
prints them (output_fastchess.hpp) and as cutechess's (tournament.cpp)."""

from __future__ import annotations

import math
from typing import Sequence

from .elo import (CutechessElo, Elo, Pentanomial, Trinomial, _as_counts, _as_pentanomial, cutechess_elo,
                  elo_pentanomial, elo_wdl)
from .ieee import _div
from .sequential import H0, H1, Sprt

# ---------------------------------------------------------------- fastchess's lines

def _f(value: float, digits: int) -> str:
    """{fmt}'s "{:.Nf}": "inf", "-inf", and "nan" or "-nan" after the NaN's sign bit."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:.{digits}f}"


def format_elo(elo: Elo) -> str:
    """fastchess's "Elo: 12.34 +/- 5.67, nElo: 12.34 +/- 5.67" line (`formatElo`,
    `EloBase::getElo`, `EloWDL::nElo`)."""
    return (f"Elo: {_f(elo.elo, 2)} +/- {_f(elo.elo_error, 2)}, "
            f"nElo: {_f(elo.nelo, 2)} +/- {_f(elo.nelo_error, 2)}")


def _draw_percent(results: Trinomial | Pentanomial) -> float:
    # Stats::drawRatio (games) / Stats::drawRatioPenta (pairs of 1 point).
    if isinstance(results, Pentanomial):
        return _div(results.dd_wl, sum(results)) * 100.0
    return _div(100.0 * results.draws, sum(results))


def _pairs_ratio(ptnml: Pentanomial) -> float:
    # Stats::pairsRatio: (WW + WD) / (LD + LL).
    return _div(ptnml.ww + ptnml.wd, ptnml.ld + ptnml.ll)


def format_los(elo: Elo, results: Sequence[int]) -> str:
    """fastchess's "LOS: 99.60 %, DrawRatio: 32.36 %[, PairsRatio: 1.42]" line
    (`formatGameStats`).

    `results` are the counts `elo` was computed from: with a pentanomial the draw ratio is
    the share of 1-point pairs and the pairs ratio (WW + WD) / (LD + LL) follows; with
    (wins, draws, losses) the share of drawn games.
    """
    counts = _as_counts(results)
    line = f"LOS: {_f(elo.los * 100.0, 2)} %, DrawRatio: {_f(_draw_percent(counts), 2)} %"
    if isinstance(counts, Pentanomial):
        line += f", PairsRatio: {_f(_pairs_ratio(counts), 2)}"
    return line


def format_games(wins: int, draws: int, losses: int) -> str:
    """fastchess's "Games: N, Wins: W, Losses: L, Draws: D, Points: P (R %)" line
    (`formatGameResults`)."""
    games = wins + losses + draws
    points = wins + 0.5 * draws
    return (f"Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {draws}, "
            f"Points: {_f(points, 1)} ({_f(_div(points, games) * 100, 2)} %)")


def format_ptnml(ptnml: Sequence[int], wl_dd: tuple[int, int] | None = None) -> str:
    """fastchess's "Ptnml(0-2): [LL, LD, DD+WL, WD, WW], WL/DD Ratio: r" line
    (`formatPentaStats`, `formatWLDDRatio`); without `wl_dd` (win-loss pairs, draw-draw
    pairs) the ratio is left off."""
    line = "Ptnml(0-2): [{}, {}, {}, {}, {}]".format(*_as_pentanomial(ptnml))
    if wl_dd is not None:
        line += f", WL/DD Ratio: {_f(_div(wl_dd[0], wl_dd[1]), 2)}"
    return line


def format_llr(result: Sprt) -> str:
    """fastchess's "LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00]" line (`printSprt`,
    `SPRT::getBounds`, `SPRT::getElo`)."""
    return (f"LLR: {_f(result.llr, 2)} ({_f(result.fraction * 100.0, 1)}%) "
            f"({_f(result.lower, 2)}, {_f(result.upper, 2)}) [{_f(result.elo0, 2)}, {_f(result.elo1, 2)}]")


def fastchess_report(wdl: Sequence[int], ptnml: Sequence[int] | None = None,
                     sprt_result: Sprt | None = None, wl_dd: tuple[int, int] | None = None) -> list[str]:
    """The lines of fastchess's head-to-head report under its "Results of A vs B (...):"
    line (`Fastchess::printEloH2H`, `printSprt`).

    `wdl` is (wins, draws, losses); with `ptnml` (fastchess's default for `-games 2`) the
    Elo figures are the pentanomial ones and the Ptnml line follows; `sprt_result` adds
    the LLR line (compute it from the same kind of results: `sprt(ptnml, ...)` when
    reporting pairs, as fastchess does).
    """
    wins, draws, losses = wdl
    basis: Sequence[int] = wdl if ptnml is None else ptnml
    elo = elo_wdl(wins, draws, losses) if ptnml is None else elo_pentanomial(ptnml)
    lines = [format_elo(elo), format_los(elo, basis), format_games(wins, draws, losses)]
    if ptnml is not None:
        lines.append(format_ptnml(ptnml, wl_dd))
    if sprt_result is not None:
        lines.append(format_llr(sprt_result))
    return lines


# ---------------------------------------------------------------- cutechess's lines

def _qt_f(value: float, digits: int) -> str:
    # QString::arg(double, 0, 'f', digits): "inf", "nan" (Qt prints no sign on a NaN).
    if math.isnan(value):
        return "nan"
    return f"{value:.{digits}f}"


def _qt_g(value: float) -> str:
    # QString::arg(double, 0, 'g', 3): %g-style, 3 significant digits, trailing zeros dropped.
    if math.isnan(value):
        return "nan"
    return f"{value:.3g}"


def format_cutechess_elo(elo: CutechessElo) -> str:
    """cutechess's "Elo difference: 40.7 +/- 30.4, LOS: 99.6 %, DrawRatio: 32.4 %" line
    (`Tournament::results`, two players)."""
    return (f"Elo difference: {_qt_f(elo.elo, 1)} +/- {_qt_f(elo.elo_error, 1)}, "
            f"LOS: {_qt_f(elo.los * 100, 1)} %, DrawRatio: {_qt_f(elo.draw_ratio * 100, 1)} %")


def format_cutechess_sprt(result: Sprt) -> str:
    """cutechess's "SPRT: llr 2.52 (54.9%), lbound -4.6, ubound 4.6[ - H1 was accepted]"
    line (`Tournament::results`): its percentage is llr / ubound on both sides."""
    line = (f"SPRT: llr {_qt_g(result.llr)} ({_qt_f(result.llr / result.upper * 100, 1)}%), "
            f"lbound {_qt_g(result.lower)}, ubound {_qt_g(result.upper)}")
    if result.decision == H0:
        line += " - H0 was accepted"
    elif result.decision == H1:
        line += " - H1 was accepted"
    return line


def cutechess_report(wdl: Sequence[int], sprt_result: Sprt | None = None) -> list[str]:
    """cutechess-cli's two-player lines: its Elo line and, with an SPRT, its SPRT line
    (pass `sprt(wdl, ..., model="cutechess")` for cutechess's own test)."""
    lines = [format_cutechess_elo(cutechess_elo(*wdl))]
    if sprt_result is not None:
        lines.append(format_cutechess_sprt(sprt_result))
    return lines
