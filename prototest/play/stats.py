"""Match statistics: Elo, LOS, pentanomial figures and the SPRT, as chess testers report them.

Plain functions on plain data (counts in, numbers and strings out), for `prototest match`
(issue 23). The figures are those of the two tournament managers chess engine authors
trust, computed from the same formulas so that a match here and a match there print the
same numbers for the same results:

- fastchess (https://github.com/Disservin/fastchess, read at commit 74deac23,
  "alpha 1.8.2"): `app/src/matchmaking/elo/elo_wdl.cpp` (`EloWDL`),
  `elo_pentanomial.cpp` (`EloPentanomial`), `elo.hpp` (`EloBase`),
  `app/src/matchmaking/sprt/sprt.cpp` (`SPRT`), the console lines in
  `app/src/matchmaking/output/output_fastchess.hpp` and `output_cutechess.hpp`;
- cutechess (https://github.com/cutechess/cutechess, read at commit 5e84232b):
  `projects/lib/src/elo.cpp` (`Elo`), `projects/lib/src/sprt.cpp` (`Sprt::status`), the
  lines in `projects/lib/src/tournament.cpp` (`Tournament::results`).

Nothing here is their code: each function restates a formula, and its docstring names the
function it restates. tests/test_stats.py checks the results against figures fastchess
printed for real matches (benchmarks/stats_reference.py records them) and against the
expected values in the two projects' own tests.

Conventions
-----------
- A *trinomial* result is (wins, draws, losses) of the first player, `Trinomial`.
- A *pentanomial* result counts game pairs (the two games of one opening, seats swapped)
  by the first player's points in the pair: 0, 0.5, 1, 1.5, 2 points give
  `Pentanomial(ll, ld, dd_wl, wd, ww)`, the order of fastchess's "Ptnml(0-2)" line. A
  1-point pair is a win and a loss or two draws; fastchess prints their ratio ("WL/DD
  Ratio") but no statistic separates them.
- Scores are on the 0..1 scale (a pair's score is its points / 2).
- Undefined values are IEEE values, as in the C++ programs, never exceptions: all wins
  give an Elo of `inf` and an error margin of NaN; all draws a LOS of NaN. fastchess
  prints most such NaNs as "-nan" (the NaN of 0/0 or inf - inf on x86-64 has its sign
  bit set, and {fmt} prints the sign) but "nan" where the NaN comes from glibc's log10
  of a negative number (an interval end above a score of 1 in a short match); the NaNs
  here carry the same signs, and the fastchess-style formatters print them alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, NamedTuple, Sequence

__all__ = [
    "CI95_Z", "NELO_SCALE", "MODELS", "H0", "H1", "CONTINUE",
    "Trinomial", "Pentanomial", "Elo", "CutechessElo", "Sprt",
    "trinomial", "pentanomial", "wl_dd",
    "score_to_elo", "elo_to_score", "elo_wdl", "elo_pentanomial", "cutechess_elo",
    "sprt_bounds", "sprt", "llr",
    "format_elo", "format_los", "format_games", "format_ptnml", "format_llr",
    "fastchess_report", "format_cutechess_elo", "format_cutechess_sprt", "cutechess_report",
]

#: The 97.5 % quantile of the standard normal law: fastchess's `EloBase::CI95ZSCORE` (elo.hpp).
CI95_Z = 1.959963984540054
#: nElo per unit of (score - 0.5) / sigma: 800 / ln 10, fastchess's scale (elo_wdl.cpp
#: `EloWDL::scoreToNeloDiff`; sprt.cpp `SPRT::getLLR`).
NELO_SCALE = 800.0 / math.log(10)

#: SPRT models: fastchess's three (`SPRT::isValid`) and cutechess's (`Sprt::status`).
MODELS = ("normalized", "logistic", "bayesian", "cutechess")
#: SPRT decisions (fastchess's `SPRTResult`: SPRT_H0, SPRT_H1, SPRT_CONTINUE).
H0, H1, CONTINUE = "H0", "H1", "continue"

#: The NaN an invalid operation (0/0, inf - inf, sqrt(-1)) yields on x86-64: its sign bit
#: is set, and {fmt} prints it "-nan".
_INVALID = math.copysign(math.nan, -1.0)
#: glibc's log10 of a negative number is a NaN without the sign ("nan"); its log of a
#: negative number is the signed one.
_LOG10_INVALID = math.copysign(math.nan, 1.0)


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


# ---------------------------------------------------------------- IEEE arithmetic
# At the edges (all wins, all draws, a few games) the C++ programs divide by zero and take
# logarithms of 0 or of negative numbers, and print what comes out; Python raises
# instead. These give what the C++ expression gives on x86-64 with glibc, NaN sign
# included: a NaN operand propagates (its sign kept), as Python's own float arithmetic
# does on the same hardware, so the formulas below keep fastchess's order of operations.

def _div(a: float, b: float) -> float:
    if b == 0:
        if math.isnan(a):
            return a
        if a == 0:
            return _INVALID
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _log10(x: float) -> float:
    if math.isnan(x):
        return x
    if x < 0:
        return _LOG10_INVALID
    if x == 0:
        return -math.inf
    return math.log10(x)


def _log(x: float) -> float:
    if math.isnan(x):
        return x
    if x < 0:
        return _INVALID
    if x == 0:
        return -math.inf
    return math.log(x)


def _pow10(x: float) -> float:
    try:
        return 10.0 ** x
    except OverflowError:
        return math.inf


def _sqrt(x: float) -> float:
    if math.isnan(x):
        return x
    return _INVALID if x < 0 else math.sqrt(x)


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


# ---------------------------------------------------------------- SPRT

@dataclass(frozen=True)
class Sprt:
    """One SPRT evaluation: the log-likelihood ratio of H1 (elo1) against H0 (elo0).

    `decision` is H0 (llr <= lower), H1 (llr >= upper) or CONTINUE (fastchess
    `SPRT::getResult`; cutechess `Sprt::status` likewise). `kind` says which results it
    was computed from ("trinomial", "pentanomial"); `model` which Elo it tests.
    """

    llr: float
    lower: float
    upper: float
    decision: str
    model: str
    kind: str
    elo0: float
    elo1: float
    alpha: float
    beta: float

    @property
    def fraction(self) -> float:
        """How far the LLR went towards its bound, as fastchess prints it in percent
        (`SPRT::getFraction`): llr / upper when llr >= 0, else -llr / lower (so negative)."""
        return self.llr / self.upper if self.llr >= 0 else -self.llr / self.lower


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds (lower, upper) = (log(beta / (1 - alpha)), log((1 - beta) / alpha)).

    fastchess `SPRT::SPRT` (sprt.cpp), cutechess `Sprt::status` (sprt.cpp).
    """
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _check(elo0: float, elo1: float, alpha: float, beta: float, model: str) -> None:
    # fastchess `SPRT::isValid`.
    if elo0 >= elo1:
        raise ValueError("SPRT: elo0 must be less than elo1")
    if not 0 < alpha < 1:
        raise ValueError("SPRT: alpha must be between 0 and 1")
    if not 0 < beta < 1:
        raise ValueError("SPRT: beta must be between 0 and 1")
    if alpha + beta >= 1:
        raise ValueError("SPRT: alpha + beta must be less than 1")
    if model not in MODELS:
        raise ValueError(f"SPRT: model is one of {', '.join(MODELS)}, not {model!r}")


def sprt(results: Sequence[int], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
         model: str = "normalized") -> Sprt:
    """The SPRT of H0: elo = elo0 against H1: elo = elo1 on `results`.

    `results` is (wins, draws, losses) or a pentanomial [LL, LD, DD+WL, WD, WW]: fastchess
    computes the LLR from the pairs when it reports pentanomial statistics (its default
    with `-games 2`), from the games otherwise (`SPRT::getLLR(const Stats&, bool)`).

    Models:
    - "normalized" (fastchess's default): elo0/elo1 are normalized Elo (nElo);
    - "logistic": logistic Elo, the Elo of `elo_wdl`'s figure;
    - "bayesian": fastchess's BayesElo model (trinomial only): the draw elo estimated from
      the sample, elo0/elo1 taken as BayesElo;
    - "cutechess": cutechess-cli's SPRT (trinomial only; `Sprt::status`): BayesElo with the
      draw elo estimated from the sample (plus a Jeffreys prior of half a game per
      outcome), elo0/elo1 taken as logistic Elo scaled to BayesElo, exact trinomial LLR.
    See `llr` for the formulas.
    """
    _check(elo0, elo1, alpha, beta, model)
    counts = _as_counts(results)
    kind = "trinomial" if isinstance(counts, Trinomial) else "pentanomial"
    if kind == "pentanomial" and model in ("bayesian", "cutechess"):
        raise ValueError(f"SPRT: the {model} model has no pentanomial form (fastchess turns pentanomial "
                         "reports off for it)")
    value = llr(counts, elo0, elo1, model)
    lower, upper = sprt_bounds(alpha, beta)
    decision = H1 if value >= upper else H0 if value <= lower else CONTINUE
    return Sprt(llr=value, lower=lower, upper=upper, decision=decision, model=model, kind=kind,
                elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)


def llr(results: Sequence[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    """The log-likelihood ratio of `sprt` (same arguments, no bounds).

    fastchess (`SPRT::getLLR`, sprt.cpp): the counts, each 0 replaced by 1e-3
    (`regularize`), give the empirical distribution p^ over the outcome scores a (0, 1/2,
    1 for games; 0, 1/4, 1/2, 3/4, 1 for pairs). For each hypothesis the maximum-
    likelihood distribution p under its constraint is found, and LLR = N * sum p^_i
    log(p1_i / p0_i) (the generalized LLR, N the regularized total):
    - "logistic" (and "bayesian"): the constraint is a mean score s (`leloToScore`,
      `bayeseloToScore`); p_i = p^_i / (1 + theta (a_i - s)) with theta the root of
      sum p^_i (a_i - s) / (1 + theta (a_i - s)) = 0 (`getLLR_logistic`; Van den Bergh,
      "Comparing the approximations for the generalized log likelihood ratio of a
      multinomial distribution", Prop. 1.1);
    - "normalized": the constraint is t = (mu - 1/2) / sigma = t0|t1, t = nElo / (800 /
      ln 10), times sqrt 2 for pairs; p is the fixed point of p_i = p^_i / (1 + theta
      phi_i), phi_i = a_i - 1/2 - t/2 sigma (1 + ((a_i - mu) / sigma)^2), from the uniform
      distribution, at most 10 rounds, until no p_i moves by 1e-4
      (`getLLR_normalized`; Van den Bergh, "Comments on normalized Elo", section 4.1).
    theta is found as fastchess finds it, by the ITP method (`itp`; Oliveira and
    Takahashi, ACM TOMS 47(1), 2020) with k1 = 0.1, k2 = 2, n0 = 0.99 and tolerance 1e-3
    (logistic) or 1e-7 (normalized). The logistic tolerance is coarse: its theta moves
    the LLR by up to ~1e-3 from the exact root's (-4.9796 against -4.9787 on fastchess's
    "logistic pentanomial 2" test), enough to change the printed second decimal near a
    rounding edge, so the root finder here takes fastchess's steps, not another's.
    - "bayesian" (trinomial): 0 unless both wins and losses > 0; drawelo = 200 log10((1-L)
      / L (1-W) / W) from the regularized fractions; s = P(win) + P(draw)/2 under
      BayesElo elo0|elo1 with that drawelo (`bayeseloToScore`); then as "logistic".
    cutechess (`Sprt::status`, "cutechess" model): W, L, D each plus 1/2; BayesElo and
    drawelo of those fractions (`BayesElo(const SprtProbability&)`); scale =
    4x / (1+x)^2, x = 10^(-drawelo/400) (`BayesElo::scale`); under H0|H1 the trinomial
    probabilities of BayesElo elo0|elo1 / scale with that drawelo; LLR = sum count_i
    log(p1_i / p0_i) over the regularized counts.
    """
    if model not in MODELS:
        raise ValueError(f"SPRT: model is one of {', '.join(MODELS)}, not {model!r}")
    counts = _as_counts(results)
    if model == "cutechess":
        if not isinstance(counts, Trinomial):
            raise ValueError("SPRT: the cutechess model is trinomial")
        return _cutechess_llr(counts, elo0, elo1)
    if isinstance(counts, Trinomial):
        return _fastchess_llr_wdl(counts, elo0, elo1, model)
    if model == "bayesian":
        raise ValueError("SPRT: the bayesian model is trinomial")
    return _fastchess_llr_penta(counts, elo0, elo1, model)


def _regularize(count: int) -> float:
    # fastchess sprt.cpp `regularize`: an empty bucket counts as 1e-3.
    return 1e-3 if count == 0 else float(count)


def _fastchess_llr_wdl(counts: Trinomial, elo0: float, elo1: float, model: str) -> float:
    # fastchess `SPRT::getLLR(int win, int draw, int loss)`.
    lo, dr, wi = _regularize(counts.losses), _regularize(counts.draws), _regularize(counts.wins)
    total = lo + dr + wi
    probs = (lo / total, dr / total, wi / total)
    scores = (0.0, 0.5, 1.0)
    if model == "normalized":
        return _llr_normalized(total, scores, probs, elo0 / NELO_SCALE, elo1 / NELO_SCALE)
    if model == "bayesian":
        if counts.wins == 0 or counts.losses == 0:
            return 0.0
        p_loss, p_win = probs[0], probs[2]
        drawelo = 200 * math.log10((1 - p_loss) / p_loss * (1 - p_win) / p_win)
        return _llr_logistic(total, scores, probs, _bayeselo_to_score(elo0, drawelo),
                             _bayeselo_to_score(elo1, drawelo))
    return _llr_logistic(total, scores, probs, elo_to_score(elo0), elo_to_score(elo1))


def _fastchess_llr_penta(counts: Pentanomial, elo0: float, elo1: float, model: str) -> float:
    # fastchess `SPRT::getLLR(int penta_WW, ..., int penta_LL)`.
    ll, ld = _regularize(counts.ll), _regularize(counts.ld)
    one, wd, ww = _regularize(counts.dd_wl), _regularize(counts.wd), _regularize(counts.ww)
    total = ww + wd + one + ld + ll
    probs = (ll / total, ld / total, one / total, wd / total, ww / total)
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)
    if model == "normalized":
        root2 = math.sqrt(2.0)
        return _llr_normalized(total, scores, probs, root2 * elo0 / NELO_SCALE, root2 * elo1 / NELO_SCALE)
    return _llr_logistic(total, scores, probs, elo_to_score(elo0), elo_to_score(elo1))


def _bayeselo_to_score(bayeselo: float, drawelo: float) -> float:
    # fastchess `SPRT::bayeseloToScore`.
    p_win = 1.0 / (1.0 + _pow10((-bayeselo + drawelo) / 400.0))
    p_loss = 1.0 / (1.0 + _pow10((bayeselo + drawelo) / 400.0))
    return p_win + 0.5 * (1.0 - p_win - p_loss)


def _dot(x: Sequence[float], p: Sequence[float]) -> float:
    total = 0.0
    for x_i, p_i in zip(x, p):
        total += x_i * p_i
    return total


def _itp(f: Callable[[float], float], a: float, b: float, f_a: float, f_b: float,
         k1: float, k2: float, n0: float, eps: float) -> float:
    """A root of f between a and b by the ITP method, as fastchess's `itp` (sprt.cpp) runs it.

    Interpolate (regula falsi), truncate towards the midpoint by k1 |b-a|^k2, project into
    the minmax disc of radius r = eps 2^(n_max - j) - (b-a)/2 around the midpoint; keep the
    bracket whose ends' signs differ. fastchess starts with f(a) = +inf, f(b) = -inf (the
    poles of the theta equations): while an end's value is infinite the interpolation is
    NaN and the step is plain bisection, and after the swap that puts the negative end at
    `a` the bracket may run from high to low; both are reproduced as they are.
    """
    if f_a > 0:
        a, b, f_a, f_b = b, a, f_b, f_a
    n_max = math.ceil(math.log2(abs(b - a) / (2.0 * eps))) + n0
    j = 0
    # ITP ends within n_max steps in exact arithmetic; the cap only stops a bracket that
    # floating point cannot narrow to 2 eps (a root beyond ~1e9), where fastchess would spin.
    while abs(b - a) > 2.0 * eps and j < 10_000:
        x_half = (a + b) / 2.0
        r = eps * 2.0 ** (n_max - j) - (b - a) / 2.0
        delta = k1 * math.pow(b - a, k2)
        x_f = _div(f_b * a - f_a * b, f_b - f_a)
        gap = x_half - x_f
        sigma = _div(gap, abs(gap))
        x_t = x_f + sigma * delta if delta <= abs(gap) else x_half
        x_itp = x_t if abs(x_t - x_half) <= r else x_half - sigma * r
        f_itp = f(x_itp)
        if f_itp == 0:
            a = b = x_itp
        elif math.copysign(1.0, f_itp) < 0:
            a, f_a = x_itp, f_itp
        else:
            b, f_b = x_itp, f_itp
        j += 1
    return (a + b) / 2.0


def _llr_logistic(total: float, scores: Sequence[float], probs: Sequence[float], s0: float, s1: float) -> float:
    # fastchess `SPRT::getLLR_logistic`: the ML distribution of mean s closest to the
    # empirical one, p_i = p^_i / (1 + theta (a_i - s)) (Van den Bergh, eq. 1.2, 1.3).
    def mle(s: float) -> list[float]:
        def f(x: float) -> float:
            result = 0.0
            for a_i, p_i in zip(scores, probs):
                result += _div(p_i * (a_i - s), 1.0 + x * (a_i - s))
            return result

        theta = _itp(f, -1.0 / (scores[-1] - s), -1.0 / (scores[0] - s), math.inf, -math.inf,
                     0.1, 2.0, 0.99, 1e-3)
        return [p_i / (1 + theta * (a_i - s)) for a_i, p_i in zip(scores, probs)]

    p0, p1 = mle(s0), mle(s1)
    return total * _dot([_log(q1) - _log(q0) for q0, q1 in zip(p0, p1)], probs)


def _llr_normalized(total: float, scores: Sequence[float], probs: Sequence[float], t0: float, t1: float) -> float:
    # fastchess `SPRT::getLLR_normalized` (Van den Bergh, "Comments on normalized Elo", 4.1).
    n = len(scores)

    def mle(mu_ref: float, t_star: float) -> list[float]:
        p = [1.0 / n] * n
        for _ in range(10):
            mu = _dot(scores, p)
            var = 0.0
            for a_i, p_i in zip(scores, p):
                var += p_i * (a_i - mu) * (a_i - mu)
            sigma = _sqrt(var)
            phi = []
            for a_i in scores:
                z = _div(a_i - mu, sigma)
                phi.append(a_i - mu_ref - 0.5 * t_star * sigma * (1.0 + z * z))

            def f(x: float) -> float:
                result = 0.0
                for p_i, phi_i in zip(probs, phi):
                    result += _div(p_i * phi_i, 1.0 + x * phi_i)
                return result

            theta = _itp(f, _div(-1.0, max(phi)), _div(-1.0, min(phi)), math.inf, -math.inf,
                         0.1, 2.0, 0.99, 1e-7)
            max_diff = 0.0
            for i, (p_i, phi_i) in enumerate(zip(probs, phi)):
                new = p_i / (1.0 + theta * phi_i)
                max_diff = max(max_diff, abs(new - p[i]))
                p[i] = new
            if max_diff < 1e-4:
                break
        return p

    p0, p1 = mle(0.5, t0), mle(0.5, t1)
    return total * _dot([_log(q1) - _log(q0) for q0, q1 in zip(p0, p1)], probs)


def _cutechess_llr(counts: Trinomial, elo0: float, elo1: float) -> float:
    # cutechess `Sprt::status` (projects/lib/src/sprt.cpp).
    wins, losses, draws = counts.wins + 0.5, counts.losses + 0.5, counts.draws + 0.5
    count = wins + losses + draws
    p_win, p_loss = wins / count, losses / count
    # BayesElo(const SprtProbability&): the sample's draw elo (its bayes elo is unused).
    drawelo = 200.0 * math.log10((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win)
    x = _pow10(-drawelo / 400.0)
    scale = 4.0 * x / ((1.0 + x) * (1.0 + x))

    def probabilities(bayeselo: float) -> tuple[float, float, float]:
        # SprtProbability(const BayesElo&)
        win = 1.0 / (1.0 + _pow10((drawelo - bayeselo) / 400.0))
        loss = 1.0 / (1.0 + _pow10((drawelo + bayeselo) / 400.0))
        return win, loss, 1.0 - win - loss

    w0, l0, d0 = probabilities(elo0 / scale)
    w1, l1, d1 = probabilities(elo1 / scale)
    return wins * math.log(w1 / w0) + losses * math.log(l1 / l0) + draws * math.log(d1 / d0)


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
