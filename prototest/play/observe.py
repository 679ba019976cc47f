"""What a fuzz campaign learns from each example it plays: the run's figures (answer
times, the machine's use), its warnings folded across examples, the situations met and the
measures' best values (which feed the kept games, prototest.play.elites), and whether the
bot ever answered the same input differently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..judge.findings import Finding
from ..judge.game import Exchange, GameReport
from .fuzzrun import Example, FuzzRun, Nondeterminism

try:  # hashlib's own blake2b, without the OpenSSL hashlib loads first (3 ms of fuzz's start)
    from _blake2 import blake2b
except ImportError:  # another Python
    from hashlib import blake2b

if TYPE_CHECKING:
    from .fuzz import Campaign

#: Positions per game whose measures and situations are computed (spread evenly, the
#: last one always): enough to steer, cheap beside the game.
SAMPLED_POSITIONS = 16


class Observer:
    """Reads every example a campaign plays into its run's figures and its memory."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        module = campaign.target.module
        self._situations = getattr(module, "situations", None)
        self._measures = getattr(module, "measures", None)
        #: digest of everything sent before an answer -> (answer, run number)
        self._answers: dict[bytes, tuple[str | None, int]] = {}
        #: inputs that got different answers in different runs
        self.unstable: set[bytes] = set()
        self._warned: dict[tuple, Finding] = {}

    def observe(self, example: Example) -> None:
        run = self.campaign.run
        report = example.report
        run.answer_ms.extend(report.answer_ms)
        if report.startup_ms is not None:
            run.first_answer_ms.append(report.startup_ms)
        _tally_resources(run, report)
        self._check_determinism(example)
        for f in report.findings:
            if f.severity == "warn" and self.campaign.coverage.keeps(example, f):
                self.keep_warning(f)
        seen, best_at = self._walk(example)
        self.campaign.elites.keep(example, best_at)
        for name in seen:
            run.situations[name] += 1

    def keep_warning(self, f: Finding) -> None:
        """A warning, folded with the same one of earlier examples."""
        key = f.key()
        if key in self._warned:
            first = self._warned[key]
            first.count += f.count
            first.occurrences.extend(f.occurrences or [f.occurrence()])
            first.examples = (first.examples or 1) + 1
        else:
            f.examples = 1
            self._warned[key] = f
            self.campaign.run.warnings.append(f)

    def _walk(self, example: Example) -> tuple[set[str], dict[str, tuple[float, int]]]:
        """The situations met (a sample of the positions shown to the bot, the moves
        played, the end of the game) and the best value of each measure over them, with
        the index of the position where it was first seen."""
        report = example.report
        seen: set[str] = set()
        best: dict[str, tuple[float, int]] = {}
        if report.result not in ("forfeit", "stopped", "aborted", "interrupted") and report.reason:
            seen.add(f"game end: {report.reason}")
        if self._situations is None and self._measures is None:
            return seen, best
        start = len(example.start_moves)
        positions, moves = report.positions, report.moves
        shown = [i for i, position in enumerate(positions)
                 if i >= start and position.turn() == example.seat and position.outcome() is None]
        if len(shown) > SAMPLED_POSITIONS:
            step = len(shown) / SAMPLED_POSITIONS
            shown = sorted({shown[int(k * step)] for k in range(SAMPLED_POSITIONS)} | {shown[-1]})
        for i in shown:
            position = positions[i]
            if self._situations is not None:
                seen.update(self._situations(position))
                # the move that led here (the opponent's) and the bot's answer, if played
                for j in (i - 1, i):
                    if 0 <= j < len(moves):
                        seen.update(self._situations(positions[j], moves[j]))
            if self._measures is not None:
                for label, value in self._measures(position).items():
                    if label not in best or value > best[label][0]:
                        best[label] = (value, i)
        return seen, best

    def _check_determinism(self, example: Example) -> None:
        """Compare every answer with the answer an earlier run gave to the same input.
        Only answers read within their limit count, on either side: no answer (a timeout,
        a crash) and an answer read too late (`Exchange.answer` None) are no evidence of
        a bot that answers otherwise; a busy machine makes them."""
        run = self.campaign.run
        for key, exchange in _keyed(example.report.exchanges):
            if exchange.answer is None:
                continue
            known = self._answers.get(key)
            if known is None:
                self._answers[key] = (exchange.answer, example.number)
                continue
            if known[0] != exchange.answer:
                self.unstable.add(key)
                if len(run.nondeterminism) < 5:
                    run.nondeterminism.append(Nondeterminism(
                        exchange.sent, known[0], exchange.answer, known[1], example.number, exchange.ply))
                return  # later inputs differ anyway

    def answered_differently(self, example: Example) -> bool:
        """Whether some run answered an input of this example differently."""
        return any(key in self.unstable for key, _ in _keyed(example.report.exchanges))


def _keyed(exchanges: Sequence[Exchange]):
    """(key, exchange) pairs: the key digests everything sent before the answer and the
    earlier answers, so two runs share a key exactly when the bot saw the same input."""
    digest = blake2b(digest_size=16)
    for exchange in exchanges:
        for line in exchange.sent:
            digest.update(line.encode("utf-8", "replace") + b"\n")
        yield digest.digest(), exchange
        digest.update(b"< " + (exchange.answer or "").encode("utf-8", "replace") + b"\n")


def _tally_resources(run: FuzzRun, report: GameReport) -> None:
    """An example's use of the machine, added to the run's figures."""
    run.answer_cpu_ms.extend(report.answer_cpu_ms)
    run.answer_wait_ms.extend(report.answer_wait_ms)
    if report.peak_memory_mb is not None:
        run.peak_memory_mb.append(report.peak_memory_mb)
    run.throttled_ms += report.throttled_ms
    if report.share_worst_ms is not None:
        run.share_worst_ms.append(report.share_worst_ms)
    if report.enforced != "none" or report.envelope:
        run.envelope, run.enforced, run.enforced_missing = report.envelope, report.enforced, report.enforced_missing
