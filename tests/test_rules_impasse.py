"""Impasse rules, checked against facts read from the CodinGame referee (acatai/CG_Impasse):
perft 22 / 492 / 9,692 from the start, moves sorted in plain ASCII order, a whole turn in
one string (`from to [crown-source]` or `square [crown-source]`), bear-off never written,
crowning mandatory (its source may be the single a bear-off just left), removals only at
an impasse, a win with all 12 checkers off and a draw after 250 plies.

Every hand-built position below lists its complete move list, worked out by hand from the
rules; the comments give the reasoning.
"""

from __future__ import annotations

import random

import pytest

from prototest.games.base import IllegalMove, OptionError, Outcome, PositionError, generic_perft
from prototest.games.impasse import DEFAULT_OPTIONS, choose_move, make_rules

RULES = make_rules({})
INITIAL = ".W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B. w 0"

WHITE_FIRST_MOVES = [
    "c7a5", "c7b6", "c7d6", "c7e5", "c7f4", "c7g3",
    "d2a5", "d2b4", "d2c3", "d2e3", "d2f4", "d2g5", "d2h6",
    "g7c3", "g7d4", "g7e5", "g7f6", "g7h6",
    "h2d6", "h2e5", "h2f4", "h2g3",
]


def position(pieces: dict[str, str], side: str = "w", ply: int = 20) -> str:
    """Notation from {square: piece}; every other square is empty."""
    rows = []
    for rank in range(8, 0, -1):
        rows.append("".join(pieces.get(f"{f}{rank}", ".") for f in "abcdefgh"))
    return "/".join(rows) + f" {side} {ply}"


def moves_of(pieces: dict[str, str], side: str = "w") -> list[str]:
    return RULES.parse(position(pieces, side)).legal_moves()


def reason(notation: str, move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        RULES.parse(notation).judge(move)
    return caught.value


def rotate(move: str) -> str:
    """The same move seen from the other side: each square turned 180 degrees."""
    return "".join(
        "abcdefgh"[7 - "abcdefgh".index(move[i])] + str(9 - int(move[i + 1]))
        for i in range(0, len(move), 2)
    )


# --------------------------------------------------------------------------------------
# The start


def test_initial_position_and_board_lines() -> None:
    start = RULES.initial()
    assert start.notation() == INITIAL
    assert start.board_lines() == [
        ".W.b.W.b", "b.W.b.W.", "........", "........",
        "........", "........", ".B.w.B.w", "w.B.w.B.",
    ]
    assert start.turn() == 0 and start.ply() == 0
    assert start.checkers_off(0) == 0 and start.checkers_off(1) == 0
    assert start.outcome() is None


def test_white_first_moves_exactly() -> None:
    assert RULES.initial().legal_moves() == WHITE_FIRST_MOVES


@pytest.mark.parametrize("depth, count", [(1, 22), (2, 492), (3, 9692)])
def test_perft_from_start(depth: int, count: int) -> None:
    assert RULES.perft(RULES.initial(), depth) == count


def test_fast_perft_agrees_with_generic() -> None:
    start = RULES.initial()
    assert generic_perft(start, 3) == RULES.perft(start, 3) == 9692
    after = start.play("d2f4")
    assert generic_perft(after, 2) == RULES.perft(after, 2)


def test_divide_lists_moves_in_order_and_sums_to_perft() -> None:
    split = RULES.divide(RULES.initial(), 2)
    assert [m for m, _ in split] == WHITE_FIRST_MOVES
    assert sum(n for _, n in split) == 492
    assert RULES.divide(RULES.initial(), 0) == []


def test_black_moves_mirror_white_moves() -> None:
    # The start is symmetric under a half turn with colours swapped, so Black to move
    # on it has White's 22 moves turned round.
    black = RULES.parse(INITIAL.replace(" w 0", " b 1"))
    assert black.legal_moves() == sorted(rotate(m) for m in WHITE_FIRST_MOVES)
    assert "e7h4" in black.legal_moves()  # a Black single slides towards rank 1


# --------------------------------------------------------------------------------------
# Slides and transposes


def test_single_slides_stop_before_any_checker() -> None:
    # d4: c5 then Black b6 blocks; e5 then Black f6 blocks.
    # e3: d4 is White's own single at once; f4, g5 then Black h6 blocks.
    pieces = {"d4": "w", "e3": "w", "b6": "b", "f6": "b", "h6": "b"}
    assert moves_of(pieces) == ["d4c5", "d4e5", "e3f4", "e3g5"]


def test_double_slides_and_transpose() -> None:
    # Double d5 slides towards rank 1: c4 is its own single (transpose d5c4), and e4, f3
    # before Black g2. Single c4 slides b5, a6; d5 above it blocks the other way.
    pieces = {"d5": "W", "c4": "w", "g2": "b"}
    assert moves_of(pieces) == ["c4a6", "c4b5", "d5c4", "d5e4", "d5f3"]
    after = RULES.parse(position(pieces)).play("d5c4")
    assert after.board_lines()[3:5] == ["...w....", "..W....."]


def test_bear_off_by_slide_is_never_written() -> None:
    # Double c3 reaches rank 1 on a1 or e1 and bears off there: no crown is due because
    # White has no single on rank 8.
    pieces = {"c3": "W", "h5": "B"}
    notation = position(pieces)
    start = RULES.parse(notation)
    assert start.legal_moves() == ["c3a1", "c3b2", "c3d2", "c3e1"]
    assert start.checkers_off(0) == 10
    after = start.play("c3a1")
    assert after.board_lines()[7] == "w......."
    assert after.checkers_off(0) == 11
    assert start.play("c3b2").board_lines()[6] == ".W......"


def test_bear_off_by_transpose() -> None:
    # Double b2's crown moves onto a1 or c1, which bear off at once and stay singles;
    # b2 becomes a single. Its slides are blocked by its own singles. c1 slides to d2
    # before Black e3; a1's only diagonal starts with b2.
    pieces = {"b2": "W", "a1": "w", "c1": "w", "e3": "b"}
    start = RULES.parse(position(pieces))
    assert start.legal_moves() == ["b2a1", "b2c1", "c1d2"]
    after = start.play("b2a1")
    assert after.board_lines()[6:] == [".w......", "w.w....."]
    assert after.checkers_off(0) == start.checkers_off(0) + 1


def test_transpose_only_towards_the_nearest_row() -> None:
    # Double d4 with own singles c5 (a rank farther from rank 1) and e3 (nearer):
    # only e3 can take the crown.
    pieces = {"d4": "W", "c5": "w", "e3": "w", "b6": "b", "d6": "b", "c3": "b", "f4": "b"}
    # c5: b6 and d6 are Black. e3: d4 own, f4 Black. d4 slides: c3 Black, e3 own.
    assert moves_of(pieces) == ["d4e3"]


# --------------------------------------------------------------------------------------
# Crowning


def test_crown_after_slide_to_the_furthest_row() -> None:
    # a1 runs the long diagonal; on h8 it must be crowned with c5, the only other single.
    # c5 reaches f8 the same way and is crowned with a1.
    pieces = {"a1": "w", "c5": "w", "h3": "B"}
    assert moves_of(pieces) == [
        "a1b2", "a1c3", "a1d4", "a1e5", "a1f6", "a1g7", "a1h8c5",
        "c5a7", "c5b6", "c5d6", "c5e7", "c5f8a1",
    ]
    after = RULES.parse(position(pieces)).play("a1h8c5")
    assert after.board_lines()[0] == ".......W"
    assert "w" not in "".join(after.board_lines())


def test_crown_after_transpose_leaves_a_single_on_the_furthest_row() -> None:
    # Double f8: slides e7, d6 (then own c5); g7 is an own single: transpose f8g7 leaves a
    # single on f8, crowned with c5 (g7 became a double). g7 reaches h8, crowned with c5.
    pieces = {"f8": "W", "g7": "w", "c5": "w", "a3": "B"}
    assert moves_of(pieces) == [
        "c5a7", "c5b6", "c5d6", "c5e7", "f8d6", "f8e7", "f8g7c5", "g7h8c5",
    ]
    after = RULES.parse(position(pieces)).play("f8g7c5")
    assert after.board_lines()[:4] == [".....W..", "......W.", "........", "........"]


def test_crown_source_created_by_the_same_turns_bear_off() -> None:
    # e8 waits uncrowned (no other single). Double c3 bearing off on a1 or e1 leaves a
    # single there, which must crown e8 at once: c3a1a1, c3e1e1.
    pieces = {"e8": "w", "c3": "W", "h5": "B"}
    start = RULES.parse(position(pieces))
    assert start.legal_moves() == ["c3a1a1", "c3b2", "c3d2", "c3e1e1"]
    after = start.play("c3a1a1")
    assert after.board_lines()[0] == "....W..."
    assert after.board_lines()[7] == "........"
    assert after.checkers_off(0) == start.checkers_off(0) + 1


def test_no_crown_without_another_single_then_crown_when_one_appears() -> None:
    # g7 alone reaches f8 or h8 and waits there. b4 bearing off on e1 now is not a crown
    # (g7 is not on rank 8 yet).
    pieces = {"g7": "w", "b4": "W", "a8": "b"}
    start = RULES.parse(position(pieces))
    assert start.legal_moves() == ["b4a3", "b4c3", "b4d2", "b4e1", "g7f8", "g7h8"]
    waiting = start.play("g7f8").play("a8b7")
    # The bear-off on e1 gives f8 its crown source.
    assert waiting.legal_moves() == ["b4a3", "b4c3", "b4d2", "b4e1e1"]
    assert waiting.play("b4e1e1").board_lines()[0] == ".....W.."


def test_two_singles_on_the_furthest_row_either_is_the_target() -> None:
    # e8 waits alone; double c8 is hemmed in by Black b7, d7, so White is at an impasse.
    # Removing c8's crown leaves two singles on rank 8: c8c8 crowns e8 with c8, c8e8
    # crowns c8 with e8. Removing the single e8 needs no crown.
    pieces = {"e8": "w", "c8": "W", "b7": "b", "d7": "b"}
    start = RULES.parse(position(pieces))
    assert start.at_impasse()
    assert start.legal_moves() == ["c8c8", "c8e8", "e8"]
    assert start.play("c8c8").board_lines()[0] == "....W..."
    assert start.play("c8e8").board_lines()[0] == "..W....."
    assert start.play("e8").board_lines()[0] == "..W....."


def test_impasse_removal_of_a_crown_then_crowning_e8c8() -> None:
    # Mirror of the referee's e8c8: double e8 (hemmed in by d7, f7), single c8 waiting.
    pieces = {"e8": "W", "c8": "w", "d7": "b", "f7": "b"}
    start = RULES.parse(position(pieces))
    assert start.legal_moves() == ["c8", "e8c8", "e8e8"]
    assert start.play("e8c8").board_lines()[0] == "....W..."
    assert start.play("e8e8").board_lines()[0] == "..W....."
    assert start.play("e8c8").checkers_off(0) == start.checkers_off(0) + 1


def test_impasse_removal_h2h2() -> None:
    # Double h2 can only go to g1, where Black stands: impasse. Removing its crown leaves
    # a single on h2 that must crown the waiting e8.
    pieces = {"e8": "w", "h2": "W", "g1": "b"}
    start = RULES.parse(position(pieces))
    assert start.legal_moves() == ["e8", "h2h2"]
    assert start.play("h2h2").board_lines() == [
        "....W...", "........", "........", "........",
        "........", "........", "........", "......b.",
    ]


def test_black_bears_off_on_rank_8_and_crowns_on_rank_1() -> None:
    # Black mirror of c3a1a1: d1 waits, double c6 slides towards rank 8.
    pieces = {"d1": "b", "c6": "B", "h4": "W"}
    start = RULES.parse(position(pieces, "b"))
    assert start.legal_moves() == ["c6a8a8", "c6b7", "c6d7", "c6e8e8"]
    after = start.play("c6e8e8")
    assert after.board_lines()[7] == "...B...."
    assert after.checkers_off(1) == start.checkers_off(1) + 1


# --------------------------------------------------------------------------------------
# End of the game


def test_win_when_the_last_checker_comes_off() -> None:
    start = RULES.parse(position({"h8": "w", "a1": "B"}))
    assert start.legal_moves() == ["h8"]
    end = start.play("h8")
    assert end.checkers_off(0) == 12
    assert end.outcome() == Outcome(0, "all checkers off")
    assert end.legal_moves() == []
    with pytest.raises(IllegalMove) as caught:
        end.judge("a1")
    assert caught.value.reason == "the game is over (all checkers off)"


def test_turn_limit_draw_after_250_plies() -> None:
    start = RULES.parse(position({"d4": "w", "e5": "B"}, ply=249))
    assert start.outcome() is None
    end = start.play("d4c5")
    assert end.ply() == 250
    assert end.outcome() == Outcome(None, "turn limit")
    assert end.legal_moves() == []
    assert RULES.perft(end, 1) == 0


def test_win_on_the_last_ply_beats_the_limit() -> None:
    end = RULES.parse(position({"h8": "w", "a1": "B"}, ply=249)).play("h8")
    assert end.outcome() == Outcome(0, "all checkers off")


def test_max_plies_option() -> None:
    rules = make_rules({"max_plies": 2})
    game = rules.initial().play("d2f4")
    assert game.outcome() is None
    assert game.play("e7c5").outcome() == Outcome(None, "turn limit")
    assert rules.perft(rules.initial(), 3) == 0
    assert DEFAULT_OPTIONS == {"max_plies": 250}


def test_bad_options() -> None:
    with pytest.raises(OptionError):
        make_rules({"plies": 10})
    with pytest.raises(OptionError):
        make_rules({"max_plies": 0})
    with pytest.raises(OptionError):
        make_rules({"max_plies": "250"})


# --------------------------------------------------------------------------------------
# Notation


def test_notation_round_trip() -> None:
    notation = position({"e8": "w", "c3": "W", "h5": "B", "a2": "b"}, "b", 37)
    parsed = RULES.parse(notation)
    assert parsed.notation() == notation
    assert parsed.turn() == 1 and parsed.ply() == 37
    assert RULES.parse(INITIAL) == RULES.initial()


def test_positions_of_real_games_round_trip() -> None:
    """Play never reaches a position that `parse` would refuse as unreachable."""
    for seed in range(4):
        rng, game = random.Random(seed), RULES.initial()
        while game.outcome() is None:
            game = game.play(choose_move(game, rng, "random" if seed % 2 else "greedy"))
            assert RULES.parse(game.notation()) == game


@pytest.mark.parametrize(
    "notation, words",
    [
        ("8/8/8/8/8/8/8/8 w 0", "dots, not digits"),
        (".W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w w 0", "8 rows"),
        (INITIAL.replace("w.B.w.B.", "w.B.w.B"), "has 7 squares"),
        (INITIAL.replace("w.B.w.B.", "w.B.x.B."), "unknown square 'x'"),
        (INITIAL.replace(" w 0", " x 0"), "side to move"),
        (INITIAL.replace(" w 0", " w -1"), "ply"),
        (INITIAL.replace(" w 0", " w"), "expected 3 fields"),
        (INITIAL.replace("w.B.w.B.", "wwB.w.B."), "13 checkers"),
        (position({"c1": "W", "h8": "b"}), "would have borne off"),
        (position({"e8": "w", "d4": "w", "a1": "b"}), "would have been crowned"),
        (position({"d4": "b"}, "w"), "White has no checker left but is to move"),
        (position({}, "w"), "neither side"),
    ],
)
def test_parse_errors_name_the_problem(notation: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        RULES.parse(notation)
    assert words in str(caught.value)


# --------------------------------------------------------------------------------------
# Refusals a bot author can act on

TRANSPOSE = position({"f8": "W", "g7": "w", "c5": "w", "a3": "B"})
DOUBLE = position({"d5": "W", "c4": "w", "g2": "b", "e6": "w", "b3": "w"})
IMPASSE = position({"e8": "w", "h2": "W", "g1": "b"})


@pytest.mark.parametrize(
    "notation, move, expected",
    [
        (INITIAL, "c5d6", "no checker of yours on c5 (it is empty)"),
        (INITIAL, "a7b6", "a7 holds Black's single: move one of your own checkers"),
        (INITIAL, "d2d4", "d4 is not on a diagonal from d2: checkers move diagonally"),
        (INITIAL, "h2b8", "the slide from h2 to b8 is blocked at c7"),
        (INITIAL, "h2c7", "c7 holds your double: a slide must end on an empty square"),
        (INITIAL, "d2", "impasse removal is only allowed when no slide or transpose exists"),
        (INITIAL, "d2f4c5", "no crowning follows d2f4: you have no single on rank 8 after it"),
        (DOUBLE, "e6f5", "a single slides forward only (towards rank 8 for White)"),
        (DOUBLE, "d5e6", "a transpose target must be one rank nearer your home row"),
        (DOUBLE, "d5c6", "a double slides backward only (towards rank 1 for White)"),
        (DOUBLE, "c4b3", "c4 is not your double: only a double's crown can transpose"),
        (TRANSPOSE, "f8g7", "crown coordinate missing: your single on f8 must be crowned"),
        (TRANSPOSE, "f8g7e5", "e5 is not a single of yours that can crown f8 after f8g7"),
        (TRANSPOSE, "c5d6a3", "no crowning follows c5d6"),
        (IMPASSE, "h2", "crown coordinate missing: your single on e8 must be crowned"),
        (IMPASSE, "g1", "g1 holds Black's single: an impasse removal takes one of your own"),
        (IMPASSE, "h2g1e8", "you are at an impasse (no slide or transpose exists)"),
        (IMPASSE, "e8h2", "no crowning follows e8"),
        (IMPASSE, "h2e8", "e8 is the single to be crowned, not a source; crown sources: h2"),
        (IMPASSE, "c3", "no checker of yours on c3 (it is empty)"),
    ],
)
def test_refusal_reasons(notation: str, move: str, expected: str) -> None:
    refusal = reason(notation, move)
    assert refusal.reason.startswith(expected), refusal.reason
    assert refusal.malformed is False
    assert refusal.move == move


@pytest.mark.parametrize(
    "move, expected",
    [
        ("", "empty move"),
        ("D2F4", "squares are written in lower case (d2f4)"),
        ("i2a3", "i2 is not on the board"),
        ("d2f9", "f9 is not on the board"),
        ("d2-f4", "'d2-f4' is not a move"),
        ("d2f4c5e3", "'d2f4c5e3' is not a move"),
        ("d2f4 ", "spaces are not part of a move"),
        ("random", "'random' asks the referee to pick a move"),
    ],
)
def test_malformed_moves(move: str, expected: str) -> None:
    refusal = reason(INITIAL, move)
    assert refusal.reason.startswith(expected), refusal.reason
    assert refusal.malformed is True


def test_crown_sources_are_named() -> None:
    refusal = reason(TRANSPOSE, "f8g7")
    assert refusal.reason.endswith("one of: c5")


def test_judge_returns_the_canonical_string_and_next_position() -> None:
    judged = RULES.initial().judge("d2f4")
    assert judged.move == "d2f4"
    assert judged.warnings == ()
    assert judged.position.turn() == 1 and judged.position.ply() == 1
    assert judged.position.board_lines()[4:7] == [".....w..", "........", ".B...B.w"]


# --------------------------------------------------------------------------------------
# Built-in opponent


def test_choose_move_is_deterministic_and_legal() -> None:
    start = RULES.initial()
    for style in ("random", "greedy"):
        first = choose_move(start, random.Random(7), style)
        assert first in start.legal_moves()
        assert choose_move(start, random.Random(7), style) == first
    with pytest.raises(ValueError):
        choose_move(start, random.Random(0), "clever")


def test_greedy_prefers_progress() -> None:
    # The bear-off (a checker off) beats every other move.
    start = RULES.parse(position({"c3": "W", "h5": "B", "g5": "w"}))
    assert choose_move(start, random.Random(1)) in ("c3a1", "c3e1")


def test_seeded_games_reach_the_late_rules_and_finish() -> None:
    seen: set[str] = set()
    for seed in range(6):
        rng, game = random.Random(seed), RULES.initial()
        styles = ("greedy", "greedy" if seed % 2 else "random")
        while game.outcome() is None:
            move = choose_move(game, rng, styles[game.turn()])
            if game.at_impasse():
                seen.add("impasse")
            if len(move) == 6 or (game.at_impasse() and len(move) == 4):
                seen.add("crown")
            before = game.checkers_off(game.turn())
            after = game.play(move)
            if not game.at_impasse() and after.checkers_off(game.turn()) > before:
                seen.add("bear-off")
            game = after
        outcome = game.outcome()
        assert outcome is not None and outcome.reason == "all checkers off"
        assert game.ply() < 250
    assert seen == {"impasse", "crown", "bear-off"}
