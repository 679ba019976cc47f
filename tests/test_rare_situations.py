"""The rare situations a fuzz run aims at (issue 20, item 6): Impasse's late game and LOA's pass.

Impasse: the `projected end` measure counts, beside the ply, the turns the bot still needs
at a racing pace, so fuzz keeps the games with the most game left; the passive style keeps
both sides slow, so games go on past ply 200. LOA: a pass is reported where the rules allow it, and the run's summary says why
it was not reached and how to put a bot there directly.
"""

from __future__ import annotations

import random

from prototest.games import opponents
from prototest.games import impasse, loa
from prototest.games.opponents import Opponent, Style
from prototest.games.impasse import choose_move

from conftest import run_cli

IMPASSE = impasse.make_rules({})
LOA = loa.make_rules({})
PROJECTED = "impasse: projected end"


def test_projected_end_is_the_ply_plus_the_moves_the_bot_has_left():
    start = IMPASSE.initial()
    # At a racing pace (the bundled bot's games against the swarm styles) a game from the
    # start ends near ply 100; the same board at ply 160 would end past ply 250.
    assert 95 <= impasse.measures(start)[PROJECTED] <= 110
    late = IMPASSE.parse(start.notation().replace(" w 0", " w 160"))
    assert impasse.measures(late)[PROJECTED] == impasse.measures(start)[PROJECTED] + 160
    # Fewer checkers, nearer done: fewer moves left. White has one single left, two ranks
    # from its crown row; Black has all its checkers where they started.
    almost = "...b...b/b...b.../w......./......../......../......../.B...B../..B...B. {} 160"
    white, black = IMPASSE.parse(almost.format("w")), IMPASSE.parse(almost.format("b"))
    assert impasse.moves_left(white.board, 0) < 1 < 45 < impasse.moves_left(white.board, 1)
    # the bot is the side to move: nearly done as White, far from it as Black
    assert impasse.measures(white)[PROJECTED] == 160 + 2 * impasse.moves_left(white.board, 0) < 162
    assert impasse.measures(black)[PROJECTED] == 160 + 2 * impasse.moves_left(black.board, 1) > 250


def test_the_projection_estimates_a_racing_game_s_end_from_its_first_half():
    """Along a game of the greedy play against itself, the projection stays near the ply at
    which the game really ends: it estimates the game's length, where the plain ply grows."""
    rng, position, seen = random.Random(5), IMPASSE.initial(), []
    while position.outcome() is None:
        seen.append((position.ply(), impasse.measures(position)[PROJECTED]))
        position = position.play(choose_move(position, rng))
    end = position.ply()
    early = [value for ply, value in seen if ply < end // 2]
    assert all(abs(value - end) < 40 for value in early), (end, early)


def _passive_game(seed: int, start_plies: int) -> int:
    """A position-mode example in small: a path played by the passive style on both sides,
    then the greedy play (the bundled bot) against the passive opponent. The ply of the
    greedy side's last turn."""
    rng, seat = random.Random(seed), seed % 2
    path = opponents.path(IMPASSE, impasse, seat=seat, depth=start_plies,
                          styles=(Style("passive"), Style("passive")), rng=rng)
    position = IMPASSE.initial()
    for move in path:
        position = position.play(move)
    opponent, last = Opponent(impasse, "passive", seed), 0
    while position.outcome() is None:
        if position.turn() == seat:
            last = position.ply()
            position = position.play(choose_move(position, rng))
        else:
            position = position.play(opponent(position))
    return last


def test_the_passive_style_makes_late_games():
    """Slow on both sides from ply 160, the greedy play's last turn comes at ply 200 or
    later in most seeded games (9 of 10 when written)."""
    lasts = [_passive_game(seed, 160) for seed in range(10)]
    assert sum(last >= 200 for last in lasts) >= 6, lasts


def test_the_passive_style_holds_a_racing_bot_back():
    """It plays slowly and leaves the bot slow moves: against the greedy play, its games
    last longer than the greedy opponent's (median 137 plies against 85 when written)."""
    def length(style: str, seed: int) -> int:
        rng, opponent, position = random.Random(seed), Opponent(impasse, style, seed), IMPASSE.initial()
        while position.outcome() is None:
            mover = choose_move(position, rng) if position.turn() == seed % 2 else opponent(position)
            position = position.play(mover)
        return position.ply()

    passive = sorted(length("passive", seed) for seed in range(10))
    greedy = sorted(length("greedy", seed) for seed in range(10))
    assert passive[5] > greedy[5] + 20, (passive, greedy)
    # what it prefers: the moves whose own progress plus the bot's best reply is lowest
    position = IMPASSE.initial()
    allowed, preferred = opponents.candidates(impasse, position, Style("passive"))
    table = position._table()
    cost = {m: impasse._stall_cost(position.board, table[m], 0) for m in allowed}
    assert preferred == [m for m in allowed if cost[m] == min(cost.values())]


def test_a_pass_is_the_situation_where_the_rules_allow_it():
    position = LOA.parse(loa.PASS_POSITION)
    assert position.legal_moves() == ["pass"]
    assert loa.situations(position) == ["pass"]
    assert loa.situations(position, "pass") == ["pass"]
    after = position.play("pass")
    assert after.turn() == 1 and after.legal_moves() != ["pass"]
    assert "pass" not in loa.situations(after)
    assert loa.measures(position)["loa: cornered"] == 0.0  # the most cornered a side can be


def test_the_summary_says_why_a_pass_was_not_reached_and_how_to_reach_it(tmp_path):
    bot = ("python3", "-B", "-m", "prototest.bots.loa_bot")
    result = run_cli("fuzz", "--game", "loa", "--jobs", "1", "--budget", "0", "--examples", "3",
                     "--no-database", "--", *bot, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert result.report["situations"].get("pass", 0) == 0
    out = result.stdout
    assert "not reached: pass" in out and "    pass: a side with no legal move is rare in play" in out
    why, checks = loa.SITUATION_NOTES["pass"]
    for what, options in checks:
        line = next(line for line in out.splitlines() if line.startswith(f"      {what}: prototest check"))
        assert line.endswith("-- python3 -B -m prototest.bots.loa_bot"), line
    # the commands put a bot where the note says: a pass to answer, a pass to be told of
    answer = run_cli("check", "--game", "loa", *checks[0][1], "--", *bot, tmp_path=tmp_path / "answer")
    told = run_cli("check", "--game", "loa", *checks[1][1], "--", *bot, tmp_path=tmp_path / "told")
    assert answer.code == 0 and told.code == 0, answer.stdout + told.stdout
    assert answer.report["games"][0]["moves"][0] == "pass"
