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

The package
-----------
- `elo`: the results counted (trinomial, pentanomial) and the Elo, nElo and LOS figures,
  fastchess's and cutechess's;
- `sequential`: the SPRT, its log-likelihood ratio in each model, and Wald's bounds;
- `lines`: fastchess's and cutechess's report lines;
- `ieee`: the C++ programs' arithmetic at the edges, which the three share.
Everything public is imported here: `stats.elo_wdl(...)`, `stats.sprt(...)`.
"""

from __future__ import annotations

from .elo import (CI95_Z, NELO_SCALE, CutechessElo, Elo, Pentanomial, Trinomial, cutechess_elo, elo_pentanomial,
                  elo_to_score, elo_wdl, pentanomial, score_to_elo, trinomial, wl_dd)
from .lines import (cutechess_report, fastchess_report, format_cutechess_elo, format_cutechess_sprt, format_elo,
                    format_games, format_llr, format_los, format_ptnml)
from .sequential import CONTINUE, H0, H1, MODELS, Sprt, llr, sprt, sprt_bounds

__all__ = [
    "CI95_Z", "NELO_SCALE", "MODELS", "H0", "H1", "CONTINUE",
    "Trinomial", "Pentanomial", "Elo", "CutechessElo", "Sprt",
    "trinomial", "pentanomial", "wl_dd",
    "score_to_elo", "elo_to_score", "elo_wdl", "elo_pentanomial", "cutechess_elo",
    "sprt_bounds", "sprt", "llr",
    "format_elo", "format_los", "format_games", "format_ptnml", "format_llr",
    "fastchess_report", "format_cutechess_elo", "format_cutechess_sprt", "cutechess_report",
]
