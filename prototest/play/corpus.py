"""Coverage steers a fuzz campaign: the bot's own code that each example reached (see
prototest.sandbox.coverage), a corpus of the examples that reached new code, and what the
run reached of the bot's code in the end.

An example whose answers set slots of the map that no earlier example of the campaign set
joins the corpus, libFuzzer style: kept are its start and the opponent moves up to the answer
that reached the last new slot. A branch plan (see prototest.play.elites) then replays one
of them to that answer, give or take COVERAGE_BACK opponent moves, and plays on with its own
draws: the search spends its time past the code it has just reached. An entry's energy is
the rarity of the code it reached first (FairFuzz's rare branches, AFL's power schedules):
1 / the number of examples that reached its rarest new slot, so an entry whose new code few
examples reach (a mode of the bot's, entered after another rare branch ran on an earlier
turn) is picked far more often than the first game, whose hundreds of new lines every game
reaches; less each time it is picked. Its branches that reach that code again make it less
rare, so the energy moves on to what they reach next. An entry that reached no new line,
only a new distance between two values a branch compares (a Python bot's value profile,
see prototest.sandbox.coverage.collector), gets VALUE_SHARE of the picks at most while
entries of new lines are kept. (Hypothesis's own `target()` and its
mutation of draws would not replay a game's prefix once the bot answers otherwise.)

Code that every run reaches is no news after a few runs: once COMMON_AFTER runs with
coverage have all reached a line, its store is left out of the code prototest compiles
ahead for the bot before Python 3.12 (the lines each later start sets are then only the
ones not every run reached: a hot loop of the bot's own runs as fast as without the
collector; UnTracer's "coverage-guided tracing", in its spirit). Such a line counts as
reached by every later example (its rarity is that of code every example reaches).

The collector never changes a verdict: only the search's examples run with it; everything
that decides a verdict (a timing failure played again alone, shortening, the printed
replay) runs the bot without it, and a timing warning seen with it is kept only when the
example played again without it shows it too.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..judge.findings import TIMING_KINDS, Finding
from ..sandbox.coverage import CoverageMap, injection
from ..sandbox.coverage.shm import line_slots
from .elites import Elite
from .forced import ForcedOpponent
from .fuzzrun import Example, FuzzRun

if TYPE_CHECKING:
    from .fuzz import Campaign

#: Entries kept at most (the least promising dropped first); opponent moves a branch goes
#: back at most before the answer that reached new code; timing warnings played again
#: without the collector, at most, in a campaign.
CORPUS_MAX, COVERAGE_BACK, WARNING_RECHECKS = 256, 3, 3
#: The share of picks that go to the entries that reached only a new distance between
#: compared values (a Python bot's value profile), while entries that reached new lines
#: exist too: a count that comes closer to its branch never takes more than this from
#: the search past new code.
VALUE_SHARE = 0.25
#: Runs with coverage after which the lines every one of them reached lose their stores.
COMMON_AFTER = 4
#: Functions never reached that the report names, at most.
UNREACHED_SHOWN = 30


@dataclass
class Entry:
    elite: Elite
    new: int
    #: the slots this example reached first (its new code)
    slots: frozenset[int] = frozenset()
    picked: int = 0
    #: kept by this worker (False: taken from another's, counted there)
    own: bool = True
    #: its new slots are all values compared, no line (see VALUE_SHARE)
    values: bool = False

    def weight(self, hits: Counter[int]) -> float:
        """Its energy: the rarity of its rarest new slot (1 / the examples that reached it),
        less each time it was picked."""
        rarest = min((hits[s] for s in self.slots), default=0)
        return (1.0 / max(1, rarest)) / (1 + self.picked) ** 0.5


class SharedCorpus:
    """The corpus entries of a campaign's workers (`fuzz --jobs`), shared as libFuzzer's
    `-jobs` share a corpus folder: each worker appends the entries it keeps to its own file
    in a folder (one JSON line each), and takes the others' new lines before it picks. A
    slot names a file's line whatever the map (prototest.sandbox.coverage), so one worker's
    entries mean the same to another; what another worker reached counts as reached."""

    def __init__(self, folder: str | os.PathLike[str], worker: int) -> None:
        self.folder = Path(folder)
        self.worker = worker
        self._read: dict[str, int] = {}

    def publish(self, elite: Elite, slots: frozenset[int]) -> None:
        line = json.dumps({"seat": elite.seat, "start": list(elite.start_moves), "opponent": list(elite.opponent_moves),
                           "reached": elite.reached_after, "value": elite.value, "slots": sorted(slots)})
        data = (line + "\n").encode("utf-8")
        try:
            fd = os.open(self.folder / f"{self.worker}.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, data)  # one write: a line is whole or, if cut short, skipped by take()
            finally:
                os.close(fd)
        except OSError:
            pass  # sharing is a help, never a condition

    def take(self) -> list[tuple[Elite, frozenset[int]]]:
        """The entries the other workers kept since the last call."""
        out = []
        try:
            paths = sorted(self.folder.glob("*.jsonl"))
        except OSError:
            return out
        for path in paths:
            if path.stem == str(self.worker):
                continue
            try:
                with open(path, "rb") as fh:
                    fh.seek(self._read.get(path.name, 0))
                    data = fh.read()
            except OSError:
                continue
            complete = data[:data.rfind(b"\n") + 1]  # a line being written waits for the next call
            self._read[path.name] = self._read.get(path.name, 0) + len(complete)
            for line in complete.splitlines():
                try:
                    d = json.loads(line)
                    elite = Elite(d["seat"], tuple(d["start"]), tuple(d["opponent"]), d["reached"], d["value"],
                                  back=COVERAGE_BACK)
                    slots = frozenset(d["slots"])
                except (ValueError, KeyError, TypeError):
                    continue  # a line a failed write cut short: sharing is a help, never a condition
                out.append((elite, slots))
        return out


class Coverage:
    """A campaign's coverage: whether the bot gives it, the map, what was reached, the corpus."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        t, mode = campaign.target, campaign.options.coverage
        self.injection = None if mode == "off" else injection(t.argv, t.env, t.cwd)
        #: the bot's branches' comparisons recorded too (`fuzz --value-profile`): a Python
        #: bot's collector compiles them before 3.12 (sys.monitoring records lines only)
        self.values = (campaign.options.values and self.injection is not None
                       and self.injection.kind == "python" and sys.version_info < (3, 12))
        #: why coverage is off (None: on, or not known yet for a native bot)
        self.off: str | None = "--coverage off" if mode == "off" else self.injection.off  # type: ignore[union-attr]
        self.map: CoverageMap | None = None
        self.corpus: list[Entry] = []
        #: slot -> how many examples run with coverage reached it
        self.hits: Counter[int] = Counter()
        #: the other workers' entries (set by prototest.play.workers), or None
        self.shared: SharedCorpus | None = None
        self._warnings: dict[tuple, bool] = {}
        self._rechecks = 0
        #: the files compiled ahead for the collector (see codecache), and whether those of
        #: the bot's first run were
        self._ahead: set[str] = set()
        self._first_compiled = False
        #: the slots every run reached in the first COMMON_AFTER (their stores left out of
        #: the code compiled ahead), and the runs whose reach hits counts
        self.common: frozenset[int] = frozenset()
        self._covered = 0

    @property
    def active(self) -> bool:
        return self.off is None and self.injection is not None and self.injection.kind is not None

    def setup(self) -> tuple[dict[str, str], CoverageMap] | None:
        """Before a run of the bot with coverage (or the start of a bot ahead of its run:
        prototest.play.spare): its environment and the map (zeroed after each run: `after`)."""
        if not self.active:
            return None
        if self.map is None:
            try:
                self.map = CoverageMap()
            except OSError as exc:
                self.off = f"no map could be made ({exc})"
                return None
        assert self.injection is not None
        if self.injection.kind == "python" and sys.version_info < (3, 12):
            # the files the collector named in earlier runs (before the first, those the main
            # script imports from its folder), compiled once here, are loaded by this start
            # of the bot and every later one (before a run, so that a failure of the last one
            # is said without waiting for it); once more after COMMON_AFTER runs, without
            # the stores of the lines each of them reached
            from ..sandbox.coverage import codecache

            named = list(self.map.files)
            if not self._first_compiled and self.injection.script is not None:
                named = codecache.first_files(self.injection.script) + named
            self._first_compiled = True
            if not self.common and self._covered == COMMON_AFTER:
                self.common = frozenset(s for s, n in self.hits.items() if n == self._covered)
                if self.common:
                    self._ahead.clear()  # every file again, without those stores
            for path in named:
                if path not in self._ahead:
                    self._ahead.add(path)
                    codecache.compile_ahead(self.map.folder, path, self.map.size, self.common, self.values)
        values = {"PROTOTEST_COVERAGE_VALUES": "1"} if self.values else {}
        return {**self.campaign.target.env, **self.injection.env(self.map), **values}, self.map

    def after(self, example: Example) -> None:
        """After a run with coverage: the rest of what it reached (its exit), the names the
        collector gave, and the example kept in the corpus if it reached new code."""
        cmap, run = self.map, self.campaign.run
        if cmap is None:
            return
        report = example.report
        report.coverage.append((report.plies, cmap.take()))
        # zeroed for the next run now, not at its start: what a bot started ahead of it
        # (prototest.play.spare) reaches meanwhile, its start-up, is the next run's
        cmap.reset()
        cmap.read_index()
        run.coverage_runs += 1
        if cmap.off is not None:
            self.off = cmap.off
            return
        start = len(example.start_moves)
        new, last, first = 0, None, set()
        reached: set[int] = set()
        for ply, slots in report.coverage:
            reached.update(slots)
            fresh = [s for s in slots if s not in run.coverage_reached]
            if fresh:
                run.coverage_reached.update(fresh)
                first.update(fresh)
                new += len(fresh)
                last = ply
        self.hits.update(reached | self.common)  # a common line: reached by every example
        self._covered += 1
        for path in cmap.files:
            if path not in run.coverage_files:
                run.coverage_files.append(path)
        if not run.coverage_reached and run.coverage_runs >= 1 and (report.answer_ms or report.startup_ms):
            self.off = _nothing(self.injection.kind if self.injection else None, self.injection.root if self.injection else "")
            return
        if not new:
            return
        run.coverage_new += 1
        example.coverage_new = new
        if example.mode not in ("game", "position") or example.max_turns is not None or last is None:
            return
        reached = sum(1 for i in range(start, min(last, len(report.moves)))
                      if report.positions[i].turn() != example.seat)
        elite = Elite(example.seat, tuple(example.start_moves), tuple(example.opponent_moves), reached, float(new),
                      back=COVERAGE_BACK)
        self.keep(Entry(elite, new, frozenset(first), values=self.values_only(first)))
        if self.shared is not None:
            self.shared.publish(elite, frozenset(first))

    def keep(self, entry: Entry) -> None:
        self.corpus.append(entry)
        if len(self.corpus) > CORPUS_MAX:
            self.corpus.remove(min(self.corpus, key=lambda e: e.weight(self.hits)))

    def take_shared(self) -> None:
        """The other workers' new entries joined to this corpus; their code counts as reached."""
        if self.shared is None:
            return
        run = self.campaign.run
        for elite, slots in self.shared.take():
            run.coverage_reached.update(slots)
            self.keep(Entry(elite, len(slots), slots, own=False, values=self.values_only(slots)))

    def values_only(self, slots: "set[int] | frozenset[int]") -> bool:
        """Whether these new slots are all values compared (`--value-profile`: the map's last
        quarter, see prototest.sandbox.coverage.collector), none a line."""
        if not self.values or self.map is None:
            return False
        first_value = line_slots(self.map.size)
        return bool(slots) and all(s >= first_value for s in slots)

    def pick(self, rng: random.Random, cold_ok: bool) -> Elite | None:
        """An entry to branch from: weighted by its energy (Entry.weight), among the
        entries of values only in VALUE_SHARE of the picks where both kinds are kept."""
        self.take_shared()
        entries = [e for e in self.corpus if cold_ok or not e.elite.start_moves]
        if not entries:
            return None
        values = [e for e in entries if e.values]
        if values and len(values) < len(entries):
            entries = values if rng.random() < VALUE_SHARE else [e for e in entries if not e.values]
        entry = rng.choices(entries, weights=[e.weight(self.hits) for e in entries])[0]
        entry.picked += 1
        return entry.elite

    def held(self, example: Example, finding: Finding) -> bool:
        """Whether a warning of an example run with coverage is held back: a timing
        warning, which the collector's cost may have made (see recheck_warnings)."""
        return example.coverage and finding.kind in TIMING_KINDS

    def keeps(self, example: Example, finding: Finding) -> bool:
        """Whether a warning counts: any, but a held one not yet seen without the collector."""
        return not self.held(example, finding) or self._warnings.get(finding.key(), False)

    def recheck_warnings(self, example: Example) -> None:
        """The timing warnings of an example run with coverage, not seen before: the
        example played again without the collector, and only what comes back is kept."""
        c = self.campaign
        held = [f for f in example.report.findings
                if f.severity == "warn" and self.held(example, f) and f.key() not in self._warnings]
        if not held:
            return
        if self._rechecks >= WARNING_RECHECKS or c.out_of_time():
            c.run.coverage_timing_rechecked += len(held)
            return
        self._rechecks += 1
        again = c.play(example.seat, start_moves=example.start_moves, mode=example.mode,
                       opponent=ForcedOpponent(example.opponent_moves), max_turns=example.max_turns,
                       plan=example.plan)  # without coverage: its warnings are kept as any others
        back = {f.key() for f in again.report.findings if f.severity == "warn"}
        for f in held:
            self._warnings[f.key()] = f.key() in back
            if f.key() not in back:
                c.run.coverage_timing_rechecked += 1

    def timing_not_back(self) -> None:
        """A timing failure seen with coverage that did not come back without it."""
        self.campaign.run.coverage_timing_rechecked += 1

    def close(self) -> None:
        run = self.campaign.run
        run.coverage_kind = self.injection.kind if self.injection is not None else None
        run.coverage_root = self.injection.root if self.injection is not None else None
        run.coverage_values = self.values
        if self.off is None and self.injection is not None and self.injection.kind and not run.coverage_runs:
            self.off = "no example ran the bot with coverage"
        run.coverage_off = self.off
        run.coverage_corpus = sum(1 for e in self.corpus if e.own)  # the workers' counts are added up
        if self.map is not None:
            self.map.close()
            self.map = None


def _nothing(kind: str | None, root: str) -> str:
    if kind == "python":
        return f"the collector recorded no line of the bot's own files (under {root})"
    return ("the bot reported no coverage: a native bot gives it when built with the compiler's coverage "
            "instrumentation and prototest's runtime (see `prototest coverage-runtime`)")


def summarize(run: FuzzRun) -> dict[str, Any]:
    """What the run reached of the bot's code, as the reports show it (the JSON's `coverage`):
    for a Python bot, lines reached of the lines of the files it ran and the functions never
    reached (its files compiled here); for a native bot, the map's slots reached."""
    if run.coverage_off is not None or not run.coverage_kind:
        return {"state": "off", "reason": run.coverage_off or "not asked for"}
    reached = run.coverage_reached
    out: dict[str, Any] = {"state": "on", "kind": run.coverage_kind, "values": run.coverage_values, "slots": len(reached),
                           "runs": run.coverage_runs, "new_examples": run.coverage_new,
                           "corpus": run.coverage_corpus, "timing_rechecked": run.coverage_timing_rechecked}
    if run.coverage_kind != "python":
        return out
    from ..sandbox.coverage.pysource import compiled, missing_ranges  # at the end only

    files, unreached, lines, total = [], [], 0, 0
    root = run.coverage_root or ""
    for path in sorted(run.coverage_files):
        source = compiled(path)
        if source is None:
            continue
        shown = os.path.relpath(path, root) if root and path.startswith(root.rstrip(os.sep) + os.sep) else path
        file_total = len(source.line_slots)  # lines, as the source view and `reached` count them
        file_lines = sum(1 for s in source.line_slots.values() if s in reached)
        missed = [f"{shown}:{f.line} {f.name}" for f in source.functions
                  if f.slots and f.name != "<module>" and not f.slots & reached]
        files.append({"path": shown, "lines": file_lines, "total": file_total,
                      "missing": missing_ranges(source, reached), "unreached_functions": len(missed),
                      "reached": sorted(line for line, s in source.line_slots.items() if s in reached)})
        unreached.extend(missed)
        lines += file_lines
        total += file_total
    out.update(lines=lines, lines_total=total, files=files, unreached_functions=unreached[:UNREACHED_SHOWN],
               unreached_count=len(unreached))
    return out
