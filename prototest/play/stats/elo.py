"""Results counted (trinomial, pentanomial) and the Elo figures computed from them: Elo,
nElo and LOS as fastchess's `EloWDL` and `EloPentanomial`, and cutechess's `Elo`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

from .ieee import _div, _log, _log10, _pow10, _sqrt

#: The 97.5 % quantile of the standard normal law: fastchess's `EloBase::CI95ZSCORE` (elo.hpp).
CI95_Z = 1.959963984540054


#: nElo per unit of (score - 0.5) / sigma: 800 / ln 10, fastchess's scale (elo_wdl.cpp
#: `EloWDL::scoreToNeloDiff`; sprt.cpp `SPRT::getLLR`).
NELO_SCALE = 800.0 / math.log(10)


class Trinomial(NamedTuple):
    """A match's game results from the first player's side."""

    wins: int
    draws: int
    losses: int


class Pentanomial(NamedTuple):
    """A match's game pairs by the first player's points in the pair (0, 0.5, 1, 1.5, 2)."""

    ll: int
    ld: int
    dd_wl: int
    wd: int
    ww: int


# ---------------------------------------------------------------- tallies

def trinomial(scores: Iterable[float]) -> Trinomial:
    """Count game scores (1, 0.5, 0 for the first player) into (wins, draws, losses)."""
    counts = [0, 0, 0]
    for score in scores:
        if score not in (0, 0.5, 1):
            raise ValueError(f"a game's score is 0, 0.5 or 1, not {score!r}")
        counts[{1: 0, 0.5: 1, 0: 2}[score]] += 1
    return Trinomial(*counts)


def _pair_points(pair: float | Sequence[float]) -> float:
    if isinstance(pair, (int, float)):
        return pair
    first, second = pair
    for score in (first, second):
        if score not in (0, 0.5, 1):
            raise ValueError(f"a game's score is 0, 0.5 or 1, not {score!r}")
    return first + second


def pentanomial(pairs: Iterable[float | Sequence[float]]) -> Pentanomial:
    """Count game pairs into `Pentanomial(ll, ld, dd_wl, wd, ww)`.

    A pair is its points for the first player (0, 0.5, 1, 1.5 or 2) or the two games'
    scores, e.g. (1, 0.5). fastchess counts a pair once both its games are over
    (`ScoreBoard::updatePair`); so does this function: pass complete pairs only.
    """
    counts = [0] * 5
    for pair in pairs:
        points = _pair_points(pair)
        if points not in (0, 0.5, 1, 1.5, 2):
            raise ValueError(f"a pair's points are 0, 0.5, 1, 1.5 or 2, not {points!r}")
        counts[int(points * 2)] += 1
    return Pentanomial(*counts)


def wl_dd(pairs: Iterable[Sequence[float]]) -> tuple[int, int]:
    """(win-loss pairs, draw-draw pairs) among pairs of two game scores: the split of the
    1-point bucket that fastchess's "WL/DD Ratio" divides (`Stats::wl_dd_Ratio`)."""
    wl = dd = 0
    for first, second in pairs:
        if {first, second} == {0, 1}:
            wl += 1
        elif first == second == 0.5:
            dd += 1
    return wl, dd


def _as_counts(results: Sequence[int]) -> Trinomial | Pentanomial:
    if len(results) == 3:
        return Trinomial(*results)
    if len(results) == 5:
        return Pentanomial(*results)
    raise ValueError("results are (wins, draws, losses) or (LL, LD, DD+WL, WD, WW) pairs, "
                     f"not {len(results)} numbers")


# ---------------------------------------------------------------- Elo

def score_to_elo(score: float) -> float:
    """Logistic Elo difference of an expected score: -400 log10(1/score - 1).

    fastchess `EloBase::scoreToEloDiff` (elo.hpp), cutechess `Elo::diff(qreal)` (elo.cpp).
    A score of 1 gives inf, 0 gives -inf, a score outside [0, 1] (an interval's end
    beyond the possible) NaN.
    """
    return -400.0 * _log10(_div(1.0, score) - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score of a logistic Elo difference: 1 / (1 + 10^(-elo/400)).

    fastchess `SPRT::leloToScore` (sprt.cpp).
    """
    return 1.0 / (1.0 + _pow10(-elo / 400.0))


@dataclass(frozen=True)
class Elo:
    """An Elo estimate as fastchess computes it (`EloWDL` or `EloPentanomial`).

    `n` is games (trinomial) or pairs (pentanomial); `variance` is the variance of one
    game's score, or of one pair's mean score (0..1 scale), under the observed
    distribution; `elo_error` and `nelo_error` are the half-widths fastchess prints after
    "+/-": half the distance between the Elo values of the 95 % interval's ends, whose
    Elo values are `elo_interval` (asymmetric around `elo`). `los` is a probability (0..1).
    """

    kind: str
    n: int
    score: float
    variance: float
    elo: float
    elo_error: float
    elo_interval: tuple[float, float]
    nelo: float
    nelo_error: float
    los: float


def _elo(kind: str, n: int, score: float, variance: float, nelo_sigma: float) -> Elo:
    # EloWDL::EloWDL / EloPentanomial::EloPentanomial: the score's 95 % normal interval
    # (variance / n per game or pair), each end mapped to Elo and nElo; the error is half
    # the mapped width. nElo = (score - 0.5) / sigma * 800 / ln 10, sigma the standard
    # deviation of one game's score (trinomial) or sqrt(2 var) of one pair's mean
    # (pentanomial, so that both are per game); nelo_sigma is that sigma.
    per = _div(variance, n)
    half = CI95_Z * _sqrt(per)
    upper, lower = score + half, score - half
    elo = score_to_elo(score)
    elo_low, elo_high = score_to_elo(lower), score_to_elo(upper)

    def nelo(s: float) -> float:
        return _div(s - 0.5, nelo_sigma) * NELO_SCALE

    # EloWDL::los / EloPentanomial::los: P(score > 0.5) under the normal approximation.
    los = (1.0 - math.erf(_div(-(score - 0.5), _sqrt(2.0 * per)))) / 2.0
    return Elo(kind=kind, n=n, score=score, variance=variance,
               elo=elo, elo_error=(elo_high - elo_low) / 2.0, elo_interval=(elo_low, elo_high),
               nelo=nelo(score), nelo_error=(nelo(upper) - nelo(lower)) / 2.0, los=los)


def elo_wdl(wins: int, draws: int, losses: int) -> Elo:
    """Elo, nElo and LOS from game results: fastchess `EloWDL` (elo_wdl.cpp).

    score = W + D/2 (as fractions of the games); variance = W (1-score)^2 + D (1/2-score)^2
    + L score^2 (`EloWDL::calcVariance`); score interval score +/- 1.96 sqrt(variance/n);
    nElo = (score - 1/2) / sqrt(variance) * 800 / ln 10 (`EloWDL::scoreToNeloDiff`);
    LOS = (1 - erf(-(score - 1/2) / sqrt(2 variance / n))) / 2 (`EloWDL::los`).
    """
    n = wins + draws + losses
    if n <= 0:
        raise ValueError("no games")
    w, d, l = wins / n, draws / n, losses / n
    score = w + 0.5 * d
    variance = w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * (0 - score) ** 2
    return _elo("trinomial", n, score, variance, _sqrt(variance))


def elo_pentanomial(ptnml: Sequence[int]) -> Elo:
    """Elo, nElo and LOS from game pairs: fastchess `EloPentanomial` (elo_pentanomial.cpp).

    `ptnml` is [LL, LD, DD+WL, WD, WW] (pair counts). score = WW + 3/4 WD + 1/2 (WL+DD)
    + 1/4 LD (fractions of the pairs, `calcScore`); variance = sum of p_i (a_i - score)^2
    over the pair scores a = 0, 1/4, 1/2, 3/4, 1 (`calcVariance`); interval score +/-
    1.96 sqrt(variance/pairs); nElo = (score - 1/2) / sqrt(2 variance) * 800 / ln 10
    (`scoreToNeloDiff`); LOS = (1 - erf(-(score - 1/2) / sqrt(2 variance / pairs))) / 2.
    """
    ll, ld, dd_wl, wd, ww = _as_pentanomial(ptnml)
    pairs = ll + ld + dd_wl + wd + ww
    if pairs <= 0:
        raise ValueError("no game pairs")
    p_ww, p_wd, p_1, p_ld, p_ll = ww / pairs, wd / pairs, dd_wl / pairs, ld / pairs, ll / pairs
    score = p_ww + 0.75 * p_wd + 0.5 * p_1 + 0.25 * p_ld
    variance = (p_ww * (1 - score) ** 2 + p_wd * (0.75 - score) ** 2 + p_1 * (0.5 - score) ** 2
                + p_ld * (0.25 - score) ** 2 + p_ll * (0 - score) ** 2)
    return _elo("pentanomial", pairs, score, variance, _sqrt(2 * variance))


def _as_pentanomial(ptnml: Sequence[int]) -> Pentanomial:
    if len(ptnml) != 5:
        raise ValueError(f"a pentanomial result has 5 counts [LL, LD, DD+WL, WD, WW], not {len(ptnml)}")
    return Pentanomial(*ptnml)


# ---------------------------------------------------------------- cutechess's Elo

@dataclass(frozen=True)
class CutechessElo:
    """cutechess's figures for two players (`Elo` in projects/lib/src/elo.cpp).

    `los` is a probability (0..1); cutechess prints it times 100.
    """

    score: float
    elo: float
    elo_error: float
    los: float
    draw_ratio: float


def _cutechess_erf_inv(x: float) -> float:
    # cutechess `Elo::erfInv`: Winitzki's closed-form approximation of the inverse error
    # function, a = 8 (pi - 3) / (3 pi (4 - pi)), with cutechess's pi = 3.1415926535897.
    pi = 3.1415926535897
    a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi))
    y = _log(1.0 - x * x)
    z = 2.0 / (pi * a) + y / 2.0
    ret = _sqrt(_sqrt(z * z - y / a) - z)
    return -ret if x < 0 else ret


def _cutechess_phi_inv(p: float) -> float:
    # cutechess `Elo::phiInv`: the normal quantile through the approximate erfInv, so its
    # 95 % interval uses z = 1.95716..., not 1.95996...
    return math.sqrt(2.0) * _cutechess_erf_inv(2.0 * p - 1.0)


def cutechess_elo(wins: int, draws: int, losses: int) -> CutechessElo:
    """Elo difference, error margin and LOS as cutechess computes them (`Elo`, elo.cpp).

    Score and per-game variance as fastchess's `EloWDL` (`Elo::Elo`); the margin is half
    the Elo width of score + phiInv(0.025 | 0.975) * stdev, stdev = sqrt(variance / n),
    with cutechess's approximate quantile (`Elo::errorMargin`); the LOS differs from
    fastchess's: it ignores draws, LOS = 1/2 + 1/2 erf((W - L) / sqrt(2 (W + L)))
    (`Elo::LOS`).
    """
    n = wins + draws + losses
    if n <= 0:
        raise ValueError("no games")
    w, l, d = wins / n, losses / n, draws / n
    mu = w + d / 2.0
    stdev = _div(_sqrt(w * (1.0 - mu) ** 2 + l * (0.0 - mu) ** 2 + d * (0.5 - mu) ** 2), math.sqrt(n))
    mu_min = mu + _cutechess_phi_inv(0.025) * stdev
    mu_max = mu + _cutechess_phi_inv(0.975) * stdev
    los = 0.5 + 0.5 * math.erf(_div(wins - losses, _sqrt(2.0 * (wins + losses))))
    return CutechessElo(score=mu, elo=score_to_elo(mu),
                        elo_error=(score_to_elo(mu_max) - score_to_elo(mu_min)) / 2.0,
                        los=los, draw_ratio=d)
