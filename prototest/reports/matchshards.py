"""The lines of a match's summary about its shards: which pairs a shard played, the shared
tally over every shard (`--tally`) and its SPRT, and what a merge joined, missed and lost.
The figures are the JSON's (`shard_pairs`, `pairs_played`, `tally`, `merged`)."""

from __future__ import annotations

from ..play import stats
from ..play.match import MatchRun
from .text import game_ranges, plural

DECISIONS = {stats.H0: "H0 accepted (elo <= elo0)", stats.H1: "H1 accepted (elo >= elo1)", stats.CONTINUE: "undecided"}


def head_lines(run: MatchRun) -> list[str]:
    """Under the bots: the shard's pairs, or the shards a merge joined and the pairs lost."""
    total = run.games_total // 2
    lines = []
    if run.merged is not None:
        m = run.merged
        lines.append(f"  {plural(len(m['shards']), 'shard')} merged ({', '.join(s['shard'] for s in m['shards'])}): "
                     f"pairs {game_ranges(run.pairs_played()) or 'none'} of {total}")
        for missing in m.get("missing", []):
            recorded = (m.get("recorded_without_report") or {}).get(missing, 0)
            lines.append(f"  shard {missing}: no report (a shard that died?); the tally has {plural(recorded, 'pair')} "
                         f"of it, counted in the SPRT over all shards; their games are not here")
        lost = m.get("lost_pairs") or {}
        if m.get("tally"):
            words = ", ".join(f"pair {p} (shard {o})" for p, o in sorted(lost.items(), key=lambda i: int(i[0])))
            lines.append(f"  pairs lost: {len(lost)}" + (f", started by a shard that died: {words}" if lost else ""))
        if m.get("unfinished_pairs"):
            lines.append(f"  pairs with a game short or without a result (stopped, interrupted): "
                         f"{game_ranges(m['unfinished_pairs'])}; their games count, the pentanomial has whole pairs only")
    elif run.shard:
        played = run.pairs_played()
        count = int(run.shard.split("/")[1])
        pairs = game_ranges(run.shard_pairs) or "none"
        if len(run.shard_pairs) > 6:  # one in N, from the I-th
            first, second = run.shard_pairs[:2]
            pairs = f"{first}, {second}, ... (one in {count}, {len(run.shard_pairs)} pairs)"
        lines.append(f"  shard {run.shard}: pairs {pairs} of {total}, "
                     f"{len(played)} played; prototest merge joins the shards' JSON reports")
    return lines


def tally_lines(run: MatchRun) -> list[str]:
    """The SPRT over every shard: the tally's totals as last read, and its decision."""
    if run.shared is None:
        return []
    from ..play.matchtally import Totals

    s = run.shared
    totals = Totals.of(s)
    sprt_result = totals.sprt(run.sprt_options) if run.sprt_options else None
    by = ", ".join(f"{owner} {n}" for owner, n in sorted(totals.by.items()))
    lines = ["", f"Results of all shards (the tally on {s['url']}, {plural(totals.pairs, 'pair')} recorded"
             + (f": {by}" if by else "") + f", {totals.claimed} started):"]
    lines.extend("  " + line for line in totals.report_lines(sprt_result))
    decision = s.get("decision")
    if decision is not None:
        text = (f"  SPRT over all shards: {DECISIONS.get(decision['decision'], decision['decision'])} after "
                f"{plural(decision['pairs'], 'pair')} (seen first by shard {decision['by']}); every shard stops")
    else:
        text = "  SPRT over all shards: undecided"
    lines.append(text)
    if run.merged is None:
        mine, again = s.get("recorded_here") or [], s.get("already_recorded") or []
        lines.append(f"  this shard recorded {plural(len(mine), 'pair')}"
                     + (f"; {plural(len(again), 'pair')} the tally had already, not counted again" if again else "")
                     + ("; it stopped on the SPRT over all shards" if s.get("stopped_here") else ""))
    return lines
