"""prototest.play.stats against fastchess's and cutechess's own figures (issue 23).

The reference figures are what the programs printed, never what this module computes:
- FASTCHESS_*: fastchess's console reports in real matches between two small UCI
  engines, recorded by benchmarks/stats_reference.py (run with `--python`; it also
  checks every report of every run, 10,000 and more, not only those kept here);
- the expected values in fastchess's own tests (app/tests/elo_test.cpp, sprt_test.cpp)
  and cutechess's (projects/lib/tests/sprt/tst_sprt.cpp), with their tolerances;
- cutechess-cli and fastchess reports published in GitHub threads (cited by URL).
"""

from __future__ import annotations

import math
import random

import pytest

from prototest.play import stats
from prototest.play.stats import (CONTINUE, H0, H1, Pentanomial, Trinomial, cutechess_elo, cutechess_report,
                             elo_pentanomial, elo_to_score, elo_wdl, fastchess_report, format_cutechess_sprt,
                             format_elo, format_llr, format_los, format_ptnml, llr, pentanomial, score_to_elo,
                             sprt, sprt_bounds, trinomial, wl_dd)

# ---------------------------------------------------------------- fastchess, recorded
# Scenarios (benchmarks/stats_reference.py SCENARIOS): "greedyN" is an engine that mates
# in one or captures the most valuable piece N % of its moves, else moves at random;
# "random" moves at random; "illegal" loses every game at once; "all-draws" adjudicates
# every game a draw after one move; "wdl-*" run with `-report penta=false`. Recorded
# with fastchess alpha 1.8.2 20260729-74deac23. The SPRT of every scenario: (elo0, elo1,
# model, alpha), beta = 0.05.
FASTCHESS_SPRT = {
    'greedy30-normalized': (0, 5, 'normalized', 0.05),
    'greedy5-logistic': (0, 10, 'logistic', 0.05),
    'random-vs-greedy2': (-5, 5, 'normalized', 0.05),
    'wdl-normalized': (0, 5, 'normalized', 0.05),
    'wdl-logistic': (0, 10, 'logistic', 0.05),
    'wdl-bayesian': (0, 10, 'bayesian', 0.05),
    'sprt-h1': (0, 5, 'normalized', 0.05),
    'all-wins': (0, 5, 'normalized', 0.05),
    'all-draws': (0, 5, 'normalized', 0.05),
    'all-wins-wdl': (0, 5, 'logistic', 0.05),
    '4250-wins-wdl': (0, 10, 'normalized', 1e-60),
    '5550-ww-pairs': (0, 5, 'normalized', 1e-60),
}

# (scenario, (wins, draws, losses), ptnml or None, (WL, DD) pairs or None, fastchess's
# lines under "Results of first vs second (1 nodes, NULL, NULL):")
FASTCHESS_REPORTS = [
    ('greedy30-normalized', (0, 2, 0), (0, 0, 1, 0, 0), (0, 1), (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %, PairsRatio: -nan',
        'Games: 2, Wins: 0, Losses: 0, Draws: 2, Points: 1.0 (50.00 %)',
        'Ptnml(0-2): [0, 0, 1, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('greedy30-normalized', (2, 2, 0), (0, 0, 1, 0, 1), (0, 1), (
        'Elo: 190.85 +/- nan, nElo: 245.67 +/- 340.48',
        'LOS: 92.14 %, DrawRatio: 50.00 %, PairsRatio: inf',
        'Games: 4, Wins: 2, Losses: 0, Draws: 2, Points: 3.0 (75.00 %)',
        'Ptnml(0-2): [0, 0, 1, 0, 1], WL/DD Ratio: 0.00',
        'LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('greedy30-normalized', (3, 3, 0), (0, 0, 1, 1, 1), (0, 1), (
        'Elo: 190.85 +/- 335.90, nElo: 300.89 +/- 278.00',
        'LOS: 98.31 %, DrawRatio: 33.33 %, PairsRatio: inf',
        'Games: 6, Wins: 3, Losses: 0, Draws: 3, Points: 4.5 (75.00 %)',
        'Ptnml(0-2): [0, 0, 1, 1, 1], WL/DD Ratio: 0.00',
        'LLR: 0.04 (1.4%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('greedy30-normalized', (11, 10, 1), (0, 0, 3, 6, 2), (1, 2), (
        'Elo: 170.39 +/- 89.57, nElo: 334.32 +/- 145.18',
        'LOS: 100.00 %, DrawRatio: 27.27 %, PairsRatio: inf',
        'Games: 22, Wins: 11, Losses: 1, Draws: 10, Points: 16.0 (72.73 %)',
        'Ptnml(0-2): [0, 0, 3, 6, 2], WL/DD Ratio: 0.50',
        'LLR: 0.15 (5.1%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('greedy30-normalized', (22, 15, 3), (0, 0, 6, 9, 5), (3, 3), (
        'Elo: 179.45 +/- 74.64, nElo: 315.42 +/- 107.67',
        'LOS: 100.00 %, DrawRatio: 30.00 %, PairsRatio: inf',
        'Games: 40, Wins: 22, Losses: 3, Draws: 15, Points: 29.5 (73.75 %)',
        'Ptnml(0-2): [0, 0, 6, 9, 5], WL/DD Ratio: 1.00',
        'LLR: 0.28 (9.4%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('greedy5-logistic', (1, 1, 0), (0, 0, 0, 1, 0), (0, 0), (
        'Elo: 190.85 +/- 0.00, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)',
        'Ptnml(0-2): [0, 0, 0, 1, 0], WL/DD Ratio: -nan',
        'LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('greedy5-logistic', (2, 2, 0), (0, 0, 0, 2, 0), (0, 0), (
        'Elo: 190.85 +/- 0.00, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 4, Wins: 2, Losses: 0, Draws: 2, Points: 3.0 (75.00 %)',
        'Ptnml(0-2): [0, 0, 0, 2, 0], WL/DD Ratio: -nan',
        'LLR: 0.06 (1.9%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('greedy5-logistic', (2, 4, 0), (0, 0, 1, 2, 0), (0, 1), (
        'Elo: 120.41 +/- 108.84, nElo: 347.44 +/- 278.00',
        'LOS: 99.28 %, DrawRatio: 33.33 %, PairsRatio: inf',
        'Games: 6, Wins: 2, Losses: 0, Draws: 4, Points: 4.0 (66.67 %)',
        'Ptnml(0-2): [0, 0, 1, 2, 0], WL/DD Ratio: 0.00',
        'LLR: 0.09 (2.9%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('greedy5-logistic', (11, 30, 1), (0, 0, 12, 8, 1), (1, 11), (
        'Elo: 84.34 +/- 46.57, nElo: 199.27 +/- 105.07',
        'LOS: 99.99 %, DrawRatio: 57.14 %, PairsRatio: inf',
        'Games: 42, Wins: 11, Losses: 1, Draws: 30, Points: 26.0 (61.90 %)',
        'Ptnml(0-2): [0, 0, 12, 8, 1], WL/DD Ratio: 0.09',
        'LLR: 0.60 (20.2%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('greedy5-logistic', (18, 61, 1), (0, 0, 24, 15, 1), (1, 23), (
        'Elo: 74.97 +/- 30.68, nElo: 192.44 +/- 76.13',
        'LOS: 100.00 %, DrawRatio: 60.00 %, PairsRatio: inf',
        'Games: 80, Wins: 18, Losses: 1, Draws: 61, Points: 48.5 (60.62 %)',
        'Ptnml(0-2): [0, 0, 24, 15, 1], WL/DD Ratio: 0.04',
        'LLR: 1.13 (38.5%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('random-vs-greedy2', (0, 2, 0), (0, 0, 1, 0, 0), (0, 1), (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %, PairsRatio: -nan',
        'Games: 2, Wins: 0, Losses: 0, Draws: 2, Points: 1.0 (50.00 %)',
        'Ptnml(0-2): [0, 0, 1, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [-5.00, 5.00]',
    )),
    ('random-vs-greedy2', (0, 3, 1), (0, 1, 1, 0, 0), (0, 1), (
        'Elo: -88.74 +/- 136.27, nElo: -245.67 +/- 340.48',
        'LOS: 7.86 %, DrawRatio: 50.00 %, PairsRatio: 0.00',
        'Games: 4, Wins: 0, Losses: 1, Draws: 3, Points: 1.5 (37.50 %)',
        'Ptnml(0-2): [0, 1, 1, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.04 (-1.4%) (-2.94, 2.94) [-5.00, 5.00]',
    )),
    ('random-vs-greedy2', (0, 5, 1), (0, 1, 2, 0, 0), (0, 2), (
        'Elo: -58.45 +/- 98.05, nElo: -173.72 +/- 278.00',
        'LOS: 11.03 %, DrawRatio: 66.67 %, PairsRatio: 0.00',
        'Games: 6, Wins: 0, Losses: 1, Draws: 5, Points: 2.5 (41.67 %)',
        'Ptnml(0-2): [0, 1, 2, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.05 (-1.7%) (-2.94, 2.94) [-5.00, 5.00]',
    )),
    ('random-vs-greedy2', (1, 33, 8), (0, 8, 12, 1, 0), (0, 12), (
        'Elo: -58.45 +/- 43.30, nElo: -145.34 +/- 105.07',
        'LOS: 0.34 %, DrawRatio: 57.14 %, PairsRatio: 0.12',
        'Games: 42, Wins: 1, Losses: 8, Draws: 33, Points: 17.5 (41.67 %)',
        'Ptnml(0-2): [0, 8, 12, 1, 0], WL/DD Ratio: 0.00',
        'LLR: -0.35 (-11.9%) (-2.94, 2.94) [-5.00, 5.00]',
    )),
    ('random-vs-greedy2', (5, 62, 13), (0, 12, 24, 4, 0), (1, 23), (
        'Elo: -34.86 +/- 32.73, nElo: -81.89 +/- 76.13',
        'LOS: 1.75 %, DrawRatio: 60.00 %, PairsRatio: 0.33',
        'Games: 80, Wins: 5, Losses: 13, Draws: 62, Points: 36.0 (45.00 %)',
        'Ptnml(0-2): [0, 12, 24, 4, 0], WL/DD Ratio: 0.04',
        'LLR: -0.51 (-17.4%) (-2.94, 2.94) [-5.00, 5.00]',
    )),
    ('wdl-normalized', (0, 1, 0), None, None, (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %',
        'Games: 1, Wins: 0, Losses: 0, Draws: 1, Points: 0.5 (50.00 %)',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('wdl-normalized', (0, 2, 0), None, None, (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %',
        'Games: 2, Wins: 0, Losses: 0, Draws: 2, Points: 1.0 (50.00 %)',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('wdl-normalized', (0, 3, 0), None, None, (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %',
        'Games: 3, Wins: 0, Losses: 0, Draws: 3, Points: 1.5 (50.00 %)',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('wdl-normalized', (7, 24, 0), None, None, (
        'Elo: 79.83 +/- 54.39, nElo: 187.64 +/- 122.30',
        'LOS: 99.87 %, DrawRatio: 77.42 %',
        'Games: 31, Wins: 7, Losses: 0, Draws: 24, Points: 19.0 (61.29 %)',
        'LLR: 0.21 (7.1%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('wdl-normalized', (10, 49, 1), None, None, (
        'Elo: 52.51 +/- 36.21, nElo: 129.95 +/- 87.91',
        'LOS: 99.81 %, DrawRatio: 81.67 %',
        'Games: 60, Wins: 10, Losses: 1, Draws: 49, Points: 34.5 (57.50 %)',
        'LLR: 0.30 (10.1%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('wdl-logistic', (1, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 1, Wins: 1, Losses: 0, Draws: 0, Points: 1.0 (100.00 %)',
        'LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-logistic', (1, 1, 0), None, None, (
        'Elo: 190.85 +/- nan, nElo: 347.44 +/- 481.51',
        'LOS: 92.14 %, DrawRatio: 50.00 %',
        'Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)',
        'LLR: 0.06 (1.9%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-logistic', (1, 2, 0), None, None, (
        'Elo: 120.41 +/- 264.53, nElo: 245.67 +/- 393.15',
        'LOS: 88.97 %, DrawRatio: 66.67 %',
        'Games: 3, Wins: 1, Losses: 0, Draws: 2, Points: 2.0 (66.67 %)',
        'LLR: 0.08 (2.9%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-logistic', (14, 16, 1), None, None, (
        'Elo: 155.27 +/- 84.88, nElo: 262.53 +/- 122.30',
        'LOS: 100.00 %, DrawRatio: 51.61 %',
        'Games: 31, Wins: 14, Losses: 1, Draws: 16, Points: 22.0 (70.97 %)',
        'LLR: 0.76 (25.7%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-logistic', (24, 34, 2), None, None, (
        'Elo: 133.61 +/- 56.21, nElo: 233.02 +/- 87.91',
        'LOS: 100.00 %, DrawRatio: 56.67 %',
        'Games: 60, Wins: 24, Losses: 2, Draws: 34, Points: 41.0 (68.33 %)',
        'LLR: 1.43 (48.5%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-bayesian', (1, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 1, Wins: 1, Losses: 0, Draws: 0, Points: 1.0 (100.00 %)',
        'LLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-bayesian', (1, 1, 0), None, None, (
        'Elo: 190.85 +/- nan, nElo: 347.44 +/- 481.51',
        'LOS: 92.14 %, DrawRatio: 50.00 %',
        'Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)',
        'LLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-bayesian', (2, 1, 0), None, None, (
        'Elo: 279.59 +/- nan, nElo: 491.35 +/- 393.15',
        'LOS: 99.28 %, DrawRatio: 33.33 %',
        'Games: 3, Wins: 2, Losses: 0, Draws: 1, Points: 2.5 (83.33 %)',
        'LLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-bayesian', (11, 19, 1), None, None, (
        'Elo: 116.23 +/- 74.07, nElo: 210.66 +/- 122.30',
        'LOS: 99.96 %, DrawRatio: 61.29 %',
        'Games: 31, Wins: 11, Losses: 1, Draws: 19, Points: 20.5 (66.13 %)',
        'LLR: 0.31 (10.5%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('wdl-bayesian', (21, 38, 1), None, None, (
        'Elo: 120.41 +/- 50.47, nElo: 229.09 +/- 87.91',
        'LOS: 100.00 %, DrawRatio: 63.33 %',
        'Games: 60, Wins: 21, Losses: 1, Draws: 38, Points: 40.0 (66.67 %)',
        'LLR: 0.50 (16.9%) (-2.94, 2.94) [0.00, 10.00]',
    )),
    ('sprt-h1', (1, 1, 0), (0, 0, 0, 1, 0), (0, 0), (
        'Elo: 190.85 +/- 0.00, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)',
        'Ptnml(0-2): [0, 0, 0, 1, 0], WL/DD Ratio: -nan',
        'LLR: 0.01 (0.5%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('sprt-h1', (2, 2, 0), (0, 0, 0, 2, 0), (0, 0), (
        'Elo: 190.85 +/- 0.00, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 4, Wins: 2, Losses: 0, Draws: 2, Points: 3.0 (75.00 %)',
        'Ptnml(0-2): [0, 0, 0, 2, 0], WL/DD Ratio: -nan',
        'LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('sprt-h1', (4, 2, 0), (0, 0, 0, 2, 1), (0, 0), (
        'Elo: 279.59 +/- 218.96, nElo: 694.87 +/- 278.00',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 6, Wins: 4, Losses: 0, Draws: 2, Points: 5.0 (83.33 %)',
        'Ptnml(0-2): [0, 0, 0, 2, 1], WL/DD Ratio: -nan',
        'LLR: 0.05 (1.7%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('sprt-h1', (118, 69, 1), (0, 1, 8, 52, 33), (0, 8), (
        'Elo: 253.22 +/- 37.41, nElo: 472.48 +/- 49.66',
        'LOS: 100.00 %, DrawRatio: 8.51 %, PairsRatio: 85.00',
        'Games: 188, Wins: 118, Losses: 1, Draws: 69, Points: 152.5 (81.12 %)',
        'Ptnml(0-2): [0, 1, 8, 52, 33], WL/DD Ratio: 0.00',
        'LLR: 1.49 (50.6%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('sprt-h1', (233, 137, 2), (0, 2, 18, 99, 67), (0, 18), (
        'Elo: 252.44 +/- 27.12, nElo: 459.21 +/- 35.31',
        'LOS: 100.00 %, DrawRatio: 9.68 %, PairsRatio: 83.00',
        'Games: 372, Wins: 233, Losses: 2, Draws: 137, Points: 301.5 (81.05 %)',
        'Ptnml(0-2): [0, 2, 18, 99, 67], WL/DD Ratio: 0.00',
        'LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins', (2, 0, 0), (0, 0, 0, 0, 1), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 1], WL/DD Ratio: -nan',
        'LLR: 0.02 (0.7%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins', (4, 0, 0), (0, 0, 0, 0, 2), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 4, Wins: 4, Losses: 0, Draws: 0, Points: 4.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 2], WL/DD Ratio: -nan',
        'LLR: 0.04 (1.4%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins', (6, 0, 0), (0, 0, 0, 0, 3), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 6, Wins: 6, Losses: 0, Draws: 0, Points: 6.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 3], WL/DD Ratio: -nan',
        'LLR: 0.06 (2.1%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-draws', (0, 2, 0), (0, 0, 1, 0, 0), (0, 1), (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %, PairsRatio: -nan',
        'Games: 2, Wins: 0, Losses: 0, Draws: 2, Points: 1.0 (50.00 %)',
        'Ptnml(0-2): [0, 0, 1, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-draws', (0, 4, 0), (0, 0, 2, 0, 0), (0, 2), (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %, PairsRatio: -nan',
        'Games: 4, Wins: 0, Losses: 0, Draws: 4, Points: 2.0 (50.00 %)',
        'Ptnml(0-2): [0, 0, 2, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-draws', (0, 6, 0), (0, 0, 3, 0, 0), (0, 3), (
        'Elo: -0.00 +/- 0.00, nElo: -nan +/- -nan',
        'LOS: -nan %, DrawRatio: 100.00 %, PairsRatio: -nan',
        'Games: 6, Wins: 0, Losses: 0, Draws: 6, Points: 3.0 (50.00 %)',
        'Ptnml(0-2): [0, 0, 3, 0, 0], WL/DD Ratio: 0.00',
        'LLR: -0.00 (-0.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins-wdl', (1, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 1, Wins: 1, Losses: 0, Draws: 0, Points: 1.0 (100.00 %)',
        'LLR: 0.01 (0.5%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins-wdl', (2, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)',
        'LLR: 0.03 (1.0%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins-wdl', (3, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 3, Wins: 3, Losses: 0, Draws: 0, Points: 3.0 (100.00 %)',
        'LLR: 0.04 (1.5%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins-wdl', (4, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 4, Wins: 4, Losses: 0, Draws: 0, Points: 4.0 (100.00 %)',
        'LLR: 0.06 (1.9%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('all-wins-wdl', (6, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 6, Wins: 6, Losses: 0, Draws: 0, Points: 6.0 (100.00 %)',
        'LLR: 0.09 (2.9%) (-2.94, 2.94) [0.00, 5.00]',
    )),
    ('4250-wins-wdl', (1, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 1, Wins: 1, Losses: 0, Draws: 0, Points: 1.0 (100.00 %)',
        'LLR: 0.03 (0.0%) (-3.00, 138.10) [0.00, 10.00]',
    )),
    ('4250-wins-wdl', (2, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)',
        'LLR: 0.06 (0.0%) (-3.00, 138.10) [0.00, 10.00]',
    )),
    ('4250-wins-wdl', (3, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 3, Wins: 3, Losses: 0, Draws: 0, Points: 3.0 (100.00 %)',
        'LLR: 0.09 (0.1%) (-3.00, 138.10) [0.00, 10.00]',
    )),
    ('4250-wins-wdl', (2126, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 2126, Wins: 2126, Losses: 0, Draws: 0, Points: 2126.0 (100.00 %)',
        'LLR: 60.30 (43.7%) (-3.00, 138.10) [0.00, 10.00]',
    )),
    ('4250-wins-wdl', (4250, 0, 0), None, None, (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %',
        'Games: 4250, Wins: 4250, Losses: 0, Draws: 0, Points: 4250.0 (100.00 %)',
        'LLR: 120.55 (87.3%) (-3.00, 138.10) [0.00, 10.00]',
    )),
    ('5550-ww-pairs', (2, 0, 0), (0, 0, 0, 0, 1), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 1], WL/DD Ratio: -nan',
        'LLR: 0.02 (0.0%) (-3.00, 138.10) [0.00, 5.00]',
    )),
    ('5550-ww-pairs', (4, 0, 0), (0, 0, 0, 0, 2), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 4, Wins: 4, Losses: 0, Draws: 0, Points: 4.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 2], WL/DD Ratio: -nan',
        'LLR: 0.04 (0.0%) (-3.00, 138.10) [0.00, 5.00]',
    )),
    ('5550-ww-pairs', (6, 0, 0), (0, 0, 0, 0, 3), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 6, Wins: 6, Losses: 0, Draws: 0, Points: 6.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 3], WL/DD Ratio: -nan',
        'LLR: 0.06 (0.0%) (-3.00, 138.10) [0.00, 5.00]',
    )),
    ('5550-ww-pairs', (5552, 0, 0), (0, 0, 0, 0, 2776), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 5552, Wins: 5552, Losses: 0, Draws: 0, Points: 5552.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 2776], WL/DD Ratio: -nan',
        'LLR: 55.92 (40.5%) (-3.00, 138.10) [0.00, 5.00]',
    )),
    ('5550-ww-pairs', (11100, 0, 0), (0, 0, 0, 0, 5550), (0, 0), (
        'Elo: inf +/- -nan, nElo: inf +/- -nan',
        'LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf',
        'Games: 11100, Wins: 11100, Losses: 0, Draws: 0, Points: 11100.0 (100.00 %)',
        'Ptnml(0-2): [0, 0, 0, 0, 5550], WL/DD Ratio: -nan',
        'LLR: 111.80 (81.0%) (-3.00, 138.10) [0.00, 5.00]',
    )),
]

# scenario: (every pair's points x 2, or every game W/D/L, in order; the LLR fastchess
# printed after each; its message if the SPRT ended the match)
FASTCHESS_SEQUENCES = {
    'greedy30-normalized': (
        '24334332233323442234',
        '-0.00 0.03 0.04 0.06 0.08 0.09 0.11 0.11 0.12 0.13 0.15 0.16 0.17 0.18 0.21 0.23 0.23 0.24 0.25 0.28',
        '',
    ),
    'greedy5-logistic': (
        '3322332232222432232233222323232223232232',
        ('0.03 0.06 0.09 0.11 0.14 0.17 0.20 0.23 0.26 0.28 0.31 0.34 0.37 0.40 0.43 0.45 0.48 0.51 0.54 0.57 '
         '0.60 0.62 0.65 0.68 0.71 0.74 0.77 0.79 0.82 0.85 0.88 0.91 0.94 0.96 0.99 1.02 1.05 1.08 1.11 1.13'),
        '',
    ),
    'random-vs-greedy2': (
        '2122223111212212221212223212132122212232',
        ('-0.00 -0.04 -0.05 -0.06 -0.06 -0.07 -0.00 -0.07 -0.12 -0.16 -0.17 -0.20 -0.21 -0.22 -0.25 -0.26 '
         '-0.27 -0.27 -0.31 -0.32 -0.35 -0.36 -0.37 -0.37 -0.35 -0.36 -0.40 -0.40 -0.44 -0.42 -0.42 -0.46 '
         '-0.47 -0.47 -0.48 -0.52 -0.53 -0.53 -0.50 -0.51'),
        '',
    ),
    'wdl-normalized': (
        'DDDWDDWDWDDWDDDWWDWDDDDDDDDDDDDDDDWDDDDDWDDDDWDDDLDDDDDDDDDD',
        ('-0.00 -0.00 -0.00 0.03 0.03 0.03 0.05 0.06 0.07 0.08 0.08 0.10 0.10 0.11 0.11 0.13 0.14 0.15 0.16 '
         '0.17 0.17 0.18 0.18 0.18 0.19 0.19 0.20 0.20 0.20 0.21 0.21 0.21 0.22 0.22 0.24 0.24 0.24 0.25 0.25 '
         '0.25 0.27 0.28 0.28 0.28 0.29 0.30 0.31 0.31 0.31 0.27 0.27 0.28 0.28 0.28 0.28 0.29 0.29 0.29 0.29 '
         '0.30'),
        '',
    ),
    'wdl-logistic': (
        'WDDWWWDDWLWWDWDWDDWDDDWDWDWDWDDDDDDWWDDWDWWDDDDLWDDDDWWDDWWD',
        ('0.03 0.06 0.08 0.11 0.14 0.17 0.20 0.23 0.26 0.19 0.22 0.25 0.27 0.31 0.33 0.36 0.38 0.40 0.44 0.46 '
         '0.48 0.51 0.54 0.56 0.60 0.62 0.65 0.68 0.71 0.73 0.76 0.78 0.81 0.83 0.85 0.89 0.92 0.94 0.97 1.00 '
         '1.03 1.06 1.09 1.12 1.14 1.17 1.19 1.09 1.12 1.15 1.17 1.19 1.22 1.25 1.29 1.31 1.33 1.37 1.40 1.43'),
        '',
    ),
    'wdl-bayesian': (
        'WDWDWDDWDDDWWDDDDDDWWDLDDWWDDDWWDDDWDDDDDDDDDDWDDWWDWWDWDWWD',
        ('0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 '
         '0.00 0.00 0.24 0.24 0.24 0.26 0.29 0.29 0.29 0.29 0.31 0.33 0.33 0.33 0.33 0.35 0.35 0.35 0.35 0.35 '
         '0.35 0.35 0.35 0.35 0.35 0.35 0.37 0.37 0.37 0.39 0.41 0.41 0.43 0.45 0.45 0.46 0.46 0.48 0.50 0.50'),
        '',
    ),
    'sprt-h1': (
        ('3343333234433334343433344333334333444343444333334444343433334332413334433334322443234234342342343333'
         '44333343433334343443334344443343343424233343323433343342233314442243344323443342424343'),
        ('0.01 0.03 0.05 0.06 0.08 0.09 0.11 0.11 0.13 0.15 0.17 0.18 0.20 0.21 0.23 0.25 0.26 0.28 0.30 0.32 '
         '0.33 0.35 0.36 0.38 0.40 0.42 0.43 0.44 0.46 0.47 0.49 0.51 0.52 0.54 0.56 0.58 0.60 0.61 0.63 0.65 '
         '0.67 0.69 0.71 0.72 0.74 0.75 0.77 0.78 0.80 0.82 0.84 0.86 0.88 0.90 0.91 0.93 0.95 0.96 0.98 0.99 '
         '1.01 1.03 1.04 1.05 1.07 1.07 1.09 1.10 1.11 1.13 1.16 1.17 1.18 1.20 1.21 1.23 1.25 1.26 1.26 1.28 '
         '1.30 1.32 1.33 1.34 1.36 1.37 1.38 1.40 1.42 1.44 1.45 1.46 1.48 1.49 1.50 1.53 1.54 1.55 1.57 1.58 '
         '1.60 1.62 1.64 1.65 1.67 1.68 1.70 1.72 1.74 1.75 1.77 1.78 1.79 1.81 1.83 1.85 1.86 1.88 1.91 1.92 '
         '1.93 1.95 1.97 1.98 2.00 2.02 2.05 2.07 2.08 2.09 2.12 2.13 2.14 2.16 2.18 2.20 2.21 2.23 2.24 2.25 '
         '2.26 2.28 2.30 2.31 2.33 2.34 2.35 2.37 2.39 2.40 2.41 2.43 2.45 2.46 2.48 2.49 2.50 2.51 2.53 2.54 '
         '2.54 2.56 2.59 2.61 2.61 2.62 2.64 2.66 2.67 2.69 2.71 2.73 2.73 2.75 2.77 2.79 2.80 2.82 2.84 2.85 '
         '2.87 2.88 2.90 2.91 2.93 2.95'),
        'SPRT ([0.00, 5.00]) completed - H1 was accepted',
    ),
    'all-wins': (
        '444',
        '0.02 0.04 0.06',
        '',
    ),
    'all-draws': (
        '222',
        '-0.00 -0.00 -0.00',
        '',
    ),
    'all-wins-wdl': (
        'WWWWWW',
        '0.01 0.03 0.04 0.06 0.07 0.09',
        '',
    ),
}


def _sprt_of(name: str, results) -> stats.Sprt:
    elo0, elo1, model, alpha = FASTCHESS_SPRT[name]
    return sprt(results, elo0, elo1, alpha, 0.05, model)


@pytest.mark.parametrize("name, wdl, ptnml, split, lines", FASTCHESS_REPORTS,
                         ids=[f"{r[0]}-{sum(r[1])}" for r in FASTCHESS_REPORTS])
def test_fastchess_reports_are_reproduced_character_for_character(name, wdl, ptnml, split, lines):
    test = _sprt_of(name, ptnml if ptnml else wdl)
    assert fastchess_report(wdl, ptnml, test, split) == list(lines)


@pytest.mark.parametrize("name", list(FASTCHESS_SEQUENCES))
def test_fastchess_llr_after_every_game_or_pair(name):
    """fastchess's LLR after every pair (or game), printed with `-ratinginterval 1`: the
    same values, the same decisions, and the run that stopped stops here at the same pair."""
    outcomes, printed, ended = FASTCHESS_SEQUENCES[name]
    printed = printed.split()
    assert len(printed) == len(outcomes)
    penta = outcomes[0].isdigit()
    counts = [0] * (5 if penta else 3)
    decisions = []
    for step, expected in zip(outcomes, printed):
        counts[int(step) if penta else "WDL".index(step)] += 1  # a pair's points x 2, or W/D/L
        test = _sprt_of(name, counts)
        assert f"{test.llr:.2f}" == expected, (step, counts)
        decisions.append(test.decision)
    if ended:  # "SPRT ([0.00, 5.00]) completed - H1 was accepted"
        assert ended.endswith(f"{decisions[-1]} was accepted")
        assert set(decisions[:-1]) == {CONTINUE}
    else:
        assert set(decisions) == {CONTINUE}


def test_the_recorded_stop_crosses_the_upper_bound():
    outcomes, printed, ended = FASTCHESS_SEQUENCES["sprt-h1"]
    assert ended == "SPRT ([0.00, 5.00]) completed - H1 was accepted"
    final = _sprt_of("sprt-h1", pentanomial(int(c) / 2 for c in outcomes))
    assert final.llr >= final.upper > _sprt_of("sprt-h1", pentanomial(int(c) / 2 for c in outcomes[:-1])).llr
    assert format_llr(final) == "LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00]"


# ---------------------------------------------------------------- fastchess's own tests

# app/tests/elo_test.cpp: Stats(wins, losses, draws) and Stats(LL, LD, WL, DD, WD, WW);
# fastchess checks its figures to 1 % (doctest::Approx(...).epsilon(0.01)) and LOS as the
# printed string: here every figure is checked as printed, to 2 decimals.
ELO_TEST_WDL = [
    # (wins, losses, draws), nElo, nElo error, Elo, Elo error, LOS, score
    ((76, 89, 123), "-20.76", "40.13", None, None, "15.53 %", 0.477),
    ((136, 96, 111), "49.77", "36.77", "40.70", "30.43", "99.60 %", 0.558),
    ((34, 356, 0), "-508.44", "34.48", None, None, None, 0.087),
]
ELO_TEST_PENTA = [
    ((34, 54, 31, 32, 64, 75), "57.94", "28.28", "55.58", "27.65", "100.00 %", 0.579),
    ((332, 433, 457, 41, 333, 334), "-9.17", "10.96", "-8.64", "10.33", "5.05 %", 0.488),
    ((7895, 8757, 5485, 200, 568, 9999), "-19.01", "2.65", "-21.04", "2.95", "0.00 %", 0.470),
]


def _check_elo(elo, nelo, nelo_error, diff, error, los, score):
    assert (f"{elo.nelo:.2f}", f"{elo.nelo_error:.2f}") == (nelo, nelo_error)
    if diff is not None:
        assert (f"{elo.elo:.2f}", f"{elo.elo_error:.2f}") == (diff, error)
    if los is not None:
        assert f"{elo.los * 100:.2f} %" == los
    assert elo.score == pytest.approx(score, abs=5e-4)


@pytest.mark.parametrize("counts, nelo, nelo_error, diff, error, los, score", ELO_TEST_WDL)
def test_fastchess_elo_test_wdl(counts, nelo, nelo_error, diff, error, los, score):
    wins, losses, draws = counts
    _check_elo(elo_wdl(wins, draws, losses), nelo, nelo_error, diff, error, los, score)


@pytest.mark.parametrize("counts, nelo, nelo_error, diff, error, los, score", ELO_TEST_PENTA)
def test_fastchess_elo_test_pentanomial(counts, nelo, nelo_error, diff, error, los, score):
    ll, ld, wl, dd, wd, ww = counts
    _check_elo(elo_pentanomial((ll, ld, wl + dd, wd, ww)), nelo, nelo_error, diff, error, los, score)


# app/tests/sprt_test.cpp, alpha = beta = 0.05, checked there to 1 % (epsilon(0.01)).
# Two of its figures are loose: (4250, 0, 0) is 120.56 there, 111.82 for 5550 WW pairs;
# fastchess itself prints 120.55 and 111.80 for them (scenarios 4250-wins-wdl and
# 5550-ww-pairs above), and so does this module.
SPRT_TEST = [
    ((36433, 36027, 68692), 0, 2, "normalized", 0.92),
    ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    ((4250, 0, 0), 0, 10, "normalized", 120.56),
    ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    ((57433, 57030, 106593), 0, 2, "logistic", -2.59),
    ((68965, 68526, 128429), 0, 2, "bayesian", -1.26),
    ((21629, 21484, 41111), 0.5, 2.5, "bayesian", -1.13),
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize("counts, elo0, elo1, model, expected", SPRT_TEST)
def test_fastchess_sprt_test(counts, elo0, elo1, model, expected):
    if len(counts) == 3:
        wins, losses, draws = counts
        results = (wins, draws, losses)
    else:
        ll, ld, wl, dd, wd, ww = counts
        results = (ll, ld, wl + dd, wd, ww)
    test = sprt(results, elo0, elo1, 0.05, 0.05, model)
    assert test.llr == pytest.approx(expected, rel=0.01)
    if abs(expected) < 100:
        assert test.llr == pytest.approx(expected, abs=0.005)
    assert test.model == model and test.kind == ("trinomial" if len(counts) == 3 else "pentanomial")


# ---------------------------------------------------------------- cutechess

# projects/lib/tests/sprt/tst_sprt.cpp: elo0 = 0, elo1 = 10, alpha = beta = 0.01,
# (wins, losses, draws) -> llr, lbound, ubound, compared there to within 0.01.
@pytest.mark.parametrize("wins, losses, draws, expected", [
    (1477, 1351, 2942, 2.52), (555, 555, 298, -0.74), (3, 149, 1, -4.69)])
def test_cutechess_tst_sprt(wins, losses, draws, expected):
    test = sprt((wins, draws, losses), 0, 10, 0.01, 0.01, "cutechess")
    assert test.llr == pytest.approx(expected, abs=0.01)
    assert (test.lower, test.upper) == (pytest.approx(-4.6, abs=0.01), pytest.approx(4.6, abs=0.01))
    assert test.decision == (H0 if expected < -4.6 else CONTINUE)


# cutechess-cli's two-player lines as published: "Score of A vs B: W - L - D [...]" and
# the lines after it.
CUTECHESS_PUBLISHED = [
    ((332, 316, 352), "Elo difference: 5.6 +/- 17.3, LOS: 73.5 %, DrawRatio: 35.2 %",
     "https://github.com/JoAnnP38/Pedantic/pull/8"),
    ((1342, 1317, 1341), "Elo difference: 2.2 +/- 8.8, LOS: 68.6 %, DrawRatio: 33.5 %",
     "https://github.com/JoAnnP38/Pedantic/pull/10"),
    ((143, 129, 368), "Elo difference: 7.6 +/- 17.5, LOS: 80.2 %, DrawRatio: 57.5 %",
     "https://github.com/kelseyde/calvin-chess-engine/pull/97"),
    ((540, 531, 1590), "Elo difference: 1.2 +/- 8.4, LOS: 60.8 %, DrawRatio: 59.8 %",
     "https://github.com/kelseyde/calvin-chess-engine/pull/97"),
    ((1216, 1199, 3939), "Elo difference: 0.9 +/- 5.3, LOS: 63.5 %, DrawRatio: 62.0 %",
     "https://github.com/kelseyde/calvin-chess-engine/pull/97"),
    ((215, 158, 612), "Elo difference: 20.1 +/- 13.3, LOS: 99.8 %, DrawRatio: 62.1 %",
     "https://github.com/kelseyde/calvin-chess-engine/pull/106"),
    ((278, 266, 666), "Elo difference: 3.4 +/- 13.1, LOS: 69.7 %, DrawRatio: 55.0 %",
     "https://github.com/kelseyde/calvin-chess-engine/pull/120"),
    ((340, 352, 737), "Elo difference: -2.9 +/- 12.5, LOS: 32.4 %, DrawRatio: 51.6 %",
     "https://github.com/kelseyde/calvin-chess-engine/pull/120"),
    ((509, 396, 1058), "Elo difference: 20.0 +/- 10.4, LOS: 100.0 %, DrawRatio: 53.9 %",
     "https://github.com/spamdrew128/Wahoo/pull/104"),
    # cutechess 1.5.0-beta5: an interval end below a score of 0 (Qt prints the NaN "nan")
    ((1, 726, 1), "Elo difference: -1074.1 +/- nan, LOS: 0.0 %, DrawRatio: 0.1 %",
     "https://github.com/cutechess/cutechess/issues/881"),
]


@pytest.mark.parametrize("score, line, url", CUTECHESS_PUBLISHED,
                         ids=[f"{c[2]}-{sum(c[0])}" for c in CUTECHESS_PUBLISHED])
def test_cutechess_published_elo_lines(score, line, url):
    wins, losses, draws = score
    assert cutechess_report((wins, draws, losses)) == [line]


def test_cutechess_published_sprt_stop():
    # https://github.com/cutechess/cutechess/issues/543: -sprt elo0=0.0 elo1=5.0 alpha=0.05 beta=0.05,
    # "880 - 759 - 1863 [0.517] 3502"
    test = sprt((880, 1863, 759), 0, 5, 0.05, 0.05, "cutechess")
    assert cutechess_report((880, 1863, 759), test) == [
        "Elo difference: 12.0 +/- 7.9, LOS: 99.9 %, DrawRatio: 53.2 %",
        "SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted"]
    assert test.decision == H1 and test.model == "cutechess"


def test_fastchess_published_report():
    # https://github.com/Disservin/fastchess/issues/807 (W/L/D 30/84/6, no 2-draw pairs:
    # "WL/DD Ratio: inf")
    assert fastchess_report((30, 6, 84), (30, 6, 18, 0, 6), None, (18, 0)) == [
        "Elo: -168.40 +/- 73.37, nElo: -170.08 +/- 62.16",
        "LOS: 0.00 %, DrawRatio: 30.00 %, PairsRatio: 0.17",
        "Games: 120, Wins: 30, Losses: 84, Draws: 6, Points: 33.0 (27.50 %)",
        "Ptnml(0-2): [30, 6, 18, 0, 6], WL/DD Ratio: inf"]


def test_cutechess_and_fastchess_differ_where_their_formulas_do():
    """Same Elo; cutechess's margin uses an approximate normal quantile (1.9572 for
    1.95996) and its LOS leaves draws out: erf((W - L) / sqrt(2 (W + L)))."""
    fast, cute = elo_wdl(136, 111, 96), cutechess_elo(136, 111, 96)
    assert cute.elo == fast.elo and cute.score == fast.score
    assert cute.elo_error == pytest.approx(fast.elo_error * 1.95716 / 1.95996, rel=1e-3)
    assert cute.los == pytest.approx(0.5 + 0.5 * math.erf(40 / math.sqrt(2 * 232)))
    assert f"{fast.los:.4f}" != f"{cute.los:.4f}"


# ---------------------------------------------------------------- by hand

def test_score_and_elo():
    assert score_to_elo(0.5) == 0
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85, as in the reports
    assert elo_to_score(score_to_elo(0.6)) == pytest.approx(0.6)
    assert (score_to_elo(1.0), score_to_elo(0.0)) == (math.inf, -math.inf)
    assert math.isnan(score_to_elo(1.2)) and math.isnan(score_to_elo(-0.1))


def test_even_match_by_hand():
    elo = elo_wdl(10, 0, 10)  # score 1/2, variance 1/4, interval 1/2 +/- 1.96 sqrt(1/80)
    half = stats.CI95_Z * math.sqrt(0.25 / 20)
    assert (elo.score, elo.variance, elo.elo, elo.nelo, elo.los) == (0.5, 0.25, 0, 0, 0.5)
    assert elo.elo_error == pytest.approx(score_to_elo(0.5 + half))
    assert elo.elo_interval == pytest.approx((-elo.elo_error, elo.elo_error))
    assert elo.nelo_error == pytest.approx(half / 0.5 * 800 / math.log(10))


def test_pentanomial_by_hand():
    # 2 pairs of 1.5 points and 2 of 1: pair scores 0.75 and 0.5, mean 0.625, each
    # 0.125 from it: variance 0.125^2
    elo = elo_pentanomial((0, 0, 2, 2, 0))
    assert elo.score == 0.625 and elo.variance == pytest.approx(0.015625) and elo.n == 4
    assert elo.nelo == pytest.approx(0.125 / math.sqrt(2 * 0.015625) * 800 / math.log(10))


def test_all_wins_all_losses_all_draws_print_as_fastchess_prints_them():
    wins = elo_wdl(7, 0, 0)
    assert (wins.elo, wins.los) == (math.inf, 1.0) and math.isnan(wins.elo_error)
    assert format_elo(wins) == "Elo: inf +/- -nan, nElo: inf +/- -nan"
    losses = elo_pentanomial((4, 0, 0, 0, 0))
    assert (losses.elo, losses.los) == (-math.inf, 0.0)
    assert format_elo(losses) == "Elo: -inf +/- -nan, nElo: -inf +/- -nan"
    assert format_los(losses, (4, 0, 0, 0, 0)) == "LOS: 0.00 %, DrawRatio: 0.00 %, PairsRatio: 0.00"
    draws = elo_wdl(0, 5, 0)
    assert draws.elo == 0 and math.isnan(draws.los) and math.isnan(draws.nelo)
    assert format_los(draws, (0, 5, 0)) == "LOS: -nan %, DrawRatio: 100.00 %"
    with pytest.raises(ValueError):
        elo_wdl(0, 0, 0)
    with pytest.raises(ValueError):
        elo_pentanomial((0, 0, 0, 0, 0))


@pytest.mark.parametrize("wins, draws, losses", [(136, 111, 96), (3, 0, 1), (20, 60, 5), (1, 1, 0)])
def test_los_and_elo_are_symmetric(wins, draws, losses):
    a, b = elo_wdl(wins, draws, losses), elo_wdl(losses, draws, wins)
    assert a.los + b.los == pytest.approx(1.0)
    assert a.elo == pytest.approx(-b.elo) and a.nelo == pytest.approx(-b.nelo)
    assert a.nelo_error == pytest.approx(b.nelo_error)
    ptnml = (losses % 7, wins % 5, draws, wins, losses)
    c, d = elo_pentanomial(ptnml), elo_pentanomial(ptnml[::-1])
    assert c.los + d.los == pytest.approx(1.0) and c.elo == pytest.approx(-d.elo)
    even = elo_wdl(wins, draws, wins)
    assert even.los == 0.5 and even.elo == 0


# ---------------------------------------------------------------- the SPRT

def test_bounds_and_result():
    assert sprt_bounds(0.05, 0.05) == (math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    test = sprt(Trinomial(30, 40, 10), 0, 5, model="logistic")
    assert (test.model, test.kind, test.elo0, test.elo1, test.alpha, test.beta) == \
        ("logistic", "trinomial", 0, 5, 0.05, 0.05)
    assert f"{test.lower:.2f} {test.upper:.2f}" == "-2.94 2.94"
    assert test.llr == llr((30, 40, 10), 0, 5, "logistic")
    assert sprt(Pentanomial(1, 2, 3, 4, 5), 0, 5).kind == "pentanomial"


def _stream(seed: int, win: float, draw: float):
    """Game pairs of a side that wins `win` and draws `draw` of its games."""
    rng = random.Random(seed)

    def game() -> float:
        x = rng.random()
        return 1.0 if x < win else 0.5 if x < win + draw else 0.0
    while True:
        yield game(), game()


@pytest.mark.parametrize("model, penta", [("normalized", True), ("logistic", True), ("normalized", False),
                                          ("logistic", False), ("bayesian", False), ("cutechess", False)])
@pytest.mark.parametrize("win, draw, expected", [(0.45, 0.35, H1), (0.2, 0.35, H0)])
def test_a_clearly_stronger_or_weaker_side_crosses_a_bound(model, penta, win, draw, expected):
    pairs, decisions = [], []
    for pair in _stream(23, win, draw):
        pairs.append(pair)
        results = pentanomial(pairs) if penta else trinomial(s for p in pairs for s in p)
        test = sprt(results, 0, 10, model=model)
        decisions.append(test.decision)
        if test.decision != CONTINUE or len(pairs) == 2000:
            break
    assert decisions[-1] == expected and set(decisions[:-1]) <= {CONTINUE}
    assert (test.llr >= test.upper) if expected == H1 else (test.llr <= test.lower)
    assert test.model == model


def test_fraction_and_llr_line():
    test = sprt((0, 12, 24, 4, 0), -5, 5)  # FASTCHESS random-vs-greedy2's last report
    assert test.fraction < 0
    assert format_llr(test) == "LLR: -0.51 (-17.4%) (-2.94, 2.94) [-5.00, 5.00]"
    h0 = sprt((3, 1, 149), 0, 10, 0.01, 0.01, "cutechess")
    assert format_cutechess_sprt(h0) == "SPRT: llr -4.69 (-102.1%), lbound -4.6, ubound 4.6 - H0 was accepted"


@pytest.mark.parametrize("args, message", [
    (((1, 2, 3), 5, 5), "elo0 must be less"),
    (((1, 2, 3), 0, 5, 0, 0.05), "alpha"),
    (((1, 2, 3), 0, 5, 0.05, 1), "beta"),
    (((1, 2, 3), 0, 5, 0.6, 0.5), "alpha \\+ beta"),
    (((1, 2, 3), 0, 5, 0.05, 0.05, "davidson"), "model is one of"),
    (((1, 2, 3, 4, 5), 0, 5, 0.05, 0.05, "bayesian"), "no pentanomial form"),
    (((1, 2, 3, 4, 5), 0, 5, 0.05, 0.05, "cutechess"), "no pentanomial form"),
    (((1, 2, 3, 4), 0, 5), "not 4 numbers"),
])
def test_sprt_refuses_what_fastchess_refuses(args, message):
    with pytest.raises(ValueError, match=message):
        sprt(*args)


# ---------------------------------------------------------------- tallies and lines

def test_tallies():
    assert trinomial([1, 0.5, 0, 1, 1]) == Trinomial(3, 1, 1)
    pairs = [(1, 1), (1, 0), (0.5, 0.5), (0, 0.5), (0.5, 1), (0, 0)]
    assert pentanomial(pairs) == Pentanomial(ll=1, ld=1, dd_wl=2, wd=1, ww=1)
    assert pentanomial([2, 1.5, 1, 1, 0.5, 0]) == (1, 1, 2, 1, 1)
    assert wl_dd(pairs) == (1, 1)
    with pytest.raises(ValueError):
        trinomial([2])
    with pytest.raises(ValueError):
        pentanomial([(1, 2)])


def test_ptnml_and_games_lines():
    assert format_ptnml((0, 2, 18, 99, 67)) == "Ptnml(0-2): [0, 2, 18, 99, 67]"
    assert format_ptnml((0, 2, 18, 99, 67), (1, 17)) == "Ptnml(0-2): [0, 2, 18, 99, 67], WL/DD Ratio: 0.06"
    assert stats.format_games(233, 137, 2) == "Games: 372, Wins: 233, Losses: 2, Draws: 137, Points: 301.5 (81.05 %)"
