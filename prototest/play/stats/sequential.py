"""The SPRT: the log-likelihood ratio of a match's results under two Elo hypotheses and
Wald's bounds, in fastchess's three models (`SPRT`, sprt.cpp) and cutechess's
(`Sprt::status`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from .elo import NELO_SCALE, Pentanomial, Trinomial, _as_counts, elo_to_score
from .ieee import _div, _log, _pow10, _sqrt

#: SPRT models: fastchess's three (`SPRT::isValid`) and cutechess's (`Sprt::status`).
MODELS = ("normalized", "logistic", "bayesian", "cutechess")


#: SPRT decisions (fastchess's `SPRTResult`: SPRT_H0, SPRT_H1, SPRT_CONTINUE).
H0, H1, CONTINUE = "H0", "H1", "continue"


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
