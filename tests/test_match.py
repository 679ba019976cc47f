"""prototest.play.match alone: openings, pairs, tallies and the SPRT options, on plain data."""

from __future__ import annotations

import pytest

from prototest.play import match, stats
from prototest.judge.game import GameReport
from prototest.commands.common import load_spec


def report(index: int, result: str, reason: str = "", forfeited: str | None = None) -> GameReport:
    r = GameReport(index, match.a_seat(index), "?", 0)
    r.result, r.reason, r.opponent_forfeited = result, reason, forfeited
    return r


def test_pairs_and_seats():
    assert [match.pair_of(i) for i in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [match.a_seat(i) for i in range(1, 7)] == [0, 1, 0, 1, 0, 1]


@pytest.mark.parametrize("game", ["chess", "impasse", "loa", "halma"])
def test_openings_are_seeded_legal_and_leave_a_game(game):
    _, _, rules = load_spec(game, None, [])
    first = match.opening(rules, 6, seed=1, pair=1)
    assert first == match.opening(rules, 6, seed=1, pair=1)
    assert first != match.opening(rules, 6, seed=1, pair=2) or first != match.opening(rules, 6, seed=2, pair=1)
    position = rules.initial()
    for move in first:
        position = position.play(move)
    assert len(first) == 6 and position.outcome() is None
    assert match.opening(rules, 0, seed=1, pair=1) == []


def test_tally_counts_forfeits_as_losses_of_the_faulty_bot():
    t = match.Tally()
    for r in (report(1, "win", "checkmate"), report(2, "forfeit", "crash"),
              report(3, "win", "the opponent forfeited: timeout", "timeout"), report(4, "draw", "stalemate"),
              report(5, "stopped", "the time budget ran out")):
        t.add(r)
    assert t.wdl == (2, 1, 1) and t.uncounted == 1
    assert t.forfeits == [1, 1]
    assert t.complete_pairs() == [(1.0, 0.0), (1.0, 0.5)]
    assert t.pentanomial() == stats.Pentanomial(0, 0, 1, 1, 0)
    assert t.report_lines() == stats.fastchess_report((2, 1, 1), [0, 0, 1, 1, 0], None, (1, 0))


def test_ended_names_who_won_and_how():
    assert match.ended(report(1, "win", "checkmate")) == "A won (checkmate)"
    assert match.ended(report(1, "loss", "checkmate")) == "B won (checkmate)"
    assert match.ended(report(1, "forfeit", "crash")) == "B won by A's forfeit: crash"
    assert match.ended(report(1, "win", "the opponent forfeited: timeout", "timeout")) == "A won by B's forfeit: timeout"
    assert match.ended(report(1, "forfeit", "crash"), ("C", "A")) == "A won by C's forfeit: crash"
    assert match.ended(report(1, "draw", "stalemate"), ("C", "A")) == "draw (stalemate)"


def test_the_opponents_forfeit_is_the_reports_field_not_its_words():
    """A win is by the opponent's forfeit when the report says so (GameReport.opponent_forfeited),
    whatever words its reason holds."""
    lookalike = report(1, "win", "the opponent forfeited: nothing (a rule's own words)")
    assert match.ended(lookalike) == "A won (the opponent forfeited: nothing (a rule's own words))"
    t = match.Tally()
    t.add(lookalike)
    t.add(report(2, "win", "checkmate, after all", "crash"))
    assert t.forfeits == [0, 1]
    assert match.ended(report(2, "win", "checkmate, after all", "crash")) == "A won by B's forfeit: crash"


def test_pairings():
    assert match.pairings(2) == [(0, 1)]
    assert match.pairings(3) == [(0, 1), (0, 2), (1, 2)]
    assert match.pairings(4, gauntlet=True) == [(0, 1), (0, 2), (0, 3)]


def test_sprt_options():
    options = match.parse_sprt("elo0=0 elo1=5 alpha=0.05 beta=0.1")
    assert options == {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.1, "model": "normalized"}
    assert match.parse_sprt("elo0=-1,elo1=3,model=logistic")["model"] == "logistic"
    for bad in ("elo0=5 elo1=0", "elo1=5", "elo0=0 elo1=5 gamma=1", "elo0=x elo1=5", "elo0=0 elo1=5 model=nope"):
        with pytest.raises(ValueError):
            match.parse_sprt(bad)


def test_sprt_decides_on_the_pairs():
    t = match.Tally()
    for i in range(1, 41):
        t.add(report(i, "win", "checkmate"))
    result = t.sprt({"elo0": 0, "elo1": 100, "alpha": 0.05, "beta": 0.05, "model": "normalized"})
    assert result is not None and result.decision == stats.H1 and result.kind == "pentanomial"
    assert match.Tally().sprt({"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05}) is None


def test_rechecks_stop_at_the_cap_for_each_seat_apart():
    """One tally of re-checks alone (runner.Rechecks) for check's games at once, a bot
    started ahead and a match: a game with a timing finding of either bot is played alone
    again until that bot's kind came back alone in RECHECKS games, then no more."""
    from prototest.play import runner
    from prototest.judge.findings import Finding

    def game(index: int, mine: tuple[str, ...] = (), theirs: tuple[str, ...] = ()) -> GameReport:
        r = report(index, "win")
        r.findings = [Finding(kind, "fail", kind, game=index, elapsed_ms=1200.0) for kind in mine]
        r.opponent_findings = [Finding(kind, "fail", kind, game=index) for kind in theirs]
        return r

    rechecks = runner.Rechecks(either=True)
    assert not rechecks.wanted(game(1, ("illegal_move",)))
    for index in range(1, runner.RECHECKS + 1):
        first = game(index, theirs=("timeout",))
        assert rechecks.wanted(first)
        alone = game(index, theirs=("timeout",))
        rechecks.alone(alone, first)
        assert alone.rechecked == "timeout"
    assert not rechecks.wanted(game(9, theirs=("timeout",)))  # the opponent's timeout came back: shown
    assert rechecks.shown(game(9, theirs=("timeout",))) == list(range(1, runner.RECHECKS + 1))
    assert rechecks.wanted(game(9, mine=("timeout",)))  # the other bot's own timeout is not
    assert not runner.Rechecks().wanted(game(9, theirs=("timeout",)))  # check: the candidate's alone
    alone = game(3)
    runner.Rechecks().alone(alone, game(3, mine=("timeout",)))
    assert alone.rechecked == "timeout (1200 ms)"


def test_the_seats_transcript_is_a_view_of_the_games():
    """The bot in the other seat writes to the game's one transcript through a view
    (Transcript.seat): every line and header line prefixed, one stderr budget for both."""
    from prototest.sandbox import transcript

    main = transcript.Transcript()
    seat = main.seat("[opponent] ")
    main.head(["bot: a"])
    seat.head(["bot: b"])
    main.sent("white", main.t0)
    seat.received("e2e4", main.t0 + 1_000_000, elapsed_ns=1_000_000)
    seat.note("stdin closed")
    assert main.header == ["bot: a", "[opponent] bot: b"]
    assert [(m, t) for _, m, t in main.events] == [
        (">", "white"), ("<", f"{'[opponent] e2e4':<40} [1.0 ms]"), ("#", "[opponent] stdin closed")]
    assert main.dialogue()[1] == ("<", "[opponent] e2e4")
    seat.stderr("x" * transcript.STDERR_KEEP_BYTES, main.t0)
    main.stderr("y", main.t0)
    assert main.stderr_dropped > 0 and "more bytes of stderr were not kept" in main.render()


def test_the_live_views_lines_name_seats_by_title_and_show_both_bots_times():
    """prototest match's live view, on plain data: a game in play with each bot's last answer
    time (by seat), who thinks long, the running score with A's W/D/L and the Elo, the
    seats column as wide as Halma's titles."""
    from prototest.play.match import MatchRun
    from prototest.reports import live, matchview, summary

    spec, _, _ = load_spec("impasse", None, [])
    run = MatchRun(spec, [["a"], ["b"]], 1, 1.0, 4, 4)
    game = live.Running(index=2, seat=1, ply=7, answers=(3.25, -1), asked_at=10.0, asked_seat=1, started=9.0)
    assert matchview.running_line(run, game, now=12.0) == \
        "  game 2/4 (A black, B white): ply 7, A -, B 3.2 ms, A thinking for 2.0 s, 3 s"
    assert "".join(t for t, _ in matchview.score_parts(run)) == "A 0 W, 0 D, 0 L, A-B 0-0"
    for i, result in enumerate(["win", "draw", "loss"], 1):
        g = report(i, result)
        run.games.append(g)
        run.tally.add(g)
    # one complete pair: its Elo has no interval yet (+/- 0), so none is shown
    assert "".join(t for t, _ in matchview.score_parts(run)) == "A 1 W, 1 D, 1 L, A-B 1.5-1.5"
    run.tally.add(report(4, "win"))
    elo = stats.elo_pentanomial(run.tally.pentanomial())
    assert "".join(t for t, _ in matchview.score_parts(run)) == \
        f"A 2 W, 1 D, 1 L, A-B 2.5-1.5, Elo {elo.elo:+.0f} +/- {elo.elo_error:.0f}"
    assert summary.match_seats(run, report(1, "win")) == "A white, B black"
    halma, _, _ = load_spec("halma", None, [])
    assert summary.match_seats_width(MatchRun(halma, [["a"], ["b"]], 1, 1.0, 2, 0)) == len("A player 1, B player 2")
