"""Halma 16x16 rules (prototest.games.halma) against the Proglad referee's rules.

Facts copied here from the referee (`kmandelbaum/proglad`, games/halma-quad/server/main.rs):
camps, zones, the midpoint `prev + (to - prev) / 2` with truncating division, the end checks
(all home, then blockers from ply 200, then the limit at ply 1998).
"""

from __future__ import annotations

import random
from typing import Iterable

import pytest

from prototest.games.base import IllegalMove, OptionError, Outcome, PositionError, generic_perft
from prototest.games.halma import DEFAULT_OPTIONS, choose_move, make_rules

Cell = tuple[int, int]

RULES = make_rules({})

# Player 1's starting camp written out row by row (rows of 5, 5, 4, 3, 2 from y = 1).
CAMP_1 = (
    [(x, 1) for x in range(1, 6)]
    + [(x, 2) for x in range(1, 6)]
    + [(x, 3) for x in range(1, 5)]
    + [(x, 4) for x in range(1, 4)]
    + [(x, 5) for x in range(1, 3)]
)
CAMP_2 = [(17 - x, 17 - y) for x, y in CAMP_1]
# Player 1's own zone (34 cells): columns x = 1..7 hold 7, 7, 6, 5, 4, 3, 2 cells from y = 1.
ZONE_1 = [(x, y) for x, n in zip(range(1, 8), (7, 7, 6, 5, 4, 3, 2)) for y in range(1, n + 1)]
ZONE_2 = [(17 - x, 17 - y) for x, y in ZONE_1]
# 19 filler cells in rows 8 and 9: nobody's camp, nobody's zone.
MIDDLE = [(x, 8) for x in range(1, 17)] + [(x, 9) for x in range(1, 4)]
# 19 more for player 2 in rows 10 and 11 (row 10 from x = 15 on is player 2's zone).
LOWER = [(x, 10) for x in range(1, 14)] + [(x, 11) for x in range(1, 7)]


def notation(ones: Iterable[Cell], twos: Iterable[Cell], ply: int = 0) -> str:
    grid = [["."] * 16 for _ in range(16)]
    for mark, cells in (("1", ones), ("2", twos)):
        for x, y in cells:
            assert grid[y - 1][x - 1] == ".", (x, y)
            grid[y - 1][x - 1] = mark
    side = "1" if ply % 2 == 0 else "2"
    return f"{'/'.join(''.join(row) for row in grid)} {side} {ply}"


def position(ones: Iterable[Cell], twos: Iterable[Cell], ply: int = 0, rules=RULES):
    return rules.parse(notation(ones, twos, ply))


def refused(pos, move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        pos.judge(move)
    return info.value


# ---------------------------------------------------------------------------------------
# An independent brute force: dict board, the moving piece lifted, every simple jump path.

DIRS8 = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def on_board(c: Cell) -> bool:
    return 1 <= c[0] <= 16 and 1 <= c[1] <= 16


def read_rows(rows: list[str]) -> dict[Cell, str]:
    return {
        (x + 1, y + 1): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "."
    }


def brute_destinations(occupied: dict[Cell, str], player: str) -> dict[Cell, set[Cell]]:
    result = {}
    for origin, owner in occupied.items():
        if owner != player:
            continue
        others = {c: o for c, o in occupied.items() if c != origin}
        near = [(origin[0] + dx, origin[1] + dy) for dx, dy in DIRS8]
        found = {c for c in near if on_board(c) and c not in others}

        def walk(cell: Cell, seen: frozenset[Cell]) -> None:
            for dx, dy in DIRS8:
                over, land = (cell[0] + dx, cell[1] + dy), (cell[0] + 2 * dx, cell[1] + 2 * dy)
                if over in others and on_board(land) and land not in others and land not in seen:
                    found.add(land)
                    walk(land, seen | {land})

        walk(origin, frozenset([origin]))
        result[origin] = found
    return result


def brute_perft(occupied: dict[Cell, str], player: str, depth: int) -> int:
    moves = [(o, t) for o, ts in brute_destinations(occupied, player).items() for t in ts]
    if depth == 1:
        return len(moves)
    other = "2" if player == "1" else "1"
    total = 0
    for origin, target in moves:
        after = dict(occupied)
        after[target] = after.pop(origin)
        total += brute_perft(after, other, depth - 1)
    return total


def engine_destinations(pos) -> dict[Cell, set[Cell]]:
    result: dict[Cell, set[Cell]] = {}
    for move in pos.legal_moves():
        n = [int(t) for t in move.split()]
        result.setdefault((n[0], n[1]), set()).add((n[-2], n[-1]))
    return result


# ---------------------------------------------------------------------------------------
# Initial position, perft


def test_fixture_cells_are_outside_every_zone() -> None:
    assert len(ZONE_1) == 34 and len(set(MIDDLE + LOWER)) == 38
    assert not set(MIDDLE + LOWER) & set(ZONE_1 + ZONE_2 + CAMP_1 + CAMP_2)


def test_initial_layout() -> None:
    pos = RULES.initial()
    assert len(CAMP_1) == 19 and len(set(CAMP_1)) == 19
    assert pos.pieces(0) == tuple(sorted(CAMP_1))
    assert pos.pieces(1) == tuple(sorted(CAMP_2))
    lines = pos.board_lines()
    assert len(lines) == 16 and all(len(line) == 16 for line in lines)
    assert lines[:6] == [
        "11111...........",
        "11111...........",
        "1111............",
        "111.............",
        "11..............",
        "................",
    ]
    assert lines[10:] == [
        "................",
        "..............22",
        ".............222",
        "............2222",
        "...........22222",
        "...........22222",
    ]
    assert (pos.turn(), pos.ply(), pos.outcome()) == (0, 0, None)


def test_perft_initial_matches_brute_force() -> None:
    pos = RULES.initial()
    occupied = read_rows(pos.board_lines())
    assert RULES.perft(pos, 1) == 40 == brute_perft(occupied, "1", 1) == len(pos.legal_moves())
    assert RULES.perft(pos, 2) == 1600 == brute_perft(occupied, "1", 2)
    assert generic_perft(pos, 2) == 1600
    assert RULES.perft(pos, 3) == 85440 == generic_perft(pos, 3)
    expected = {o: t for o, t in brute_destinations(occupied, "1").items() if t}
    assert engine_destinations(pos) == expected


def test_initial_moves_listing_order() -> None:
    moves = RULES.initial().legal_moves()
    assert moves[:6] == ("1 3 3 5", "1 4 1 6", "1 4 3 6", "1 5 1 6", "1 5 2 6", "1 5 3 5")
    keys = [tuple(int(t) for t in m.split()[:2] + m.split()[-2:]) for m in moves]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_divide_sums_to_perft_in_listing_order() -> None:
    pos = RULES.initial()
    split = RULES.divide(pos, 2)
    assert [m for m, _ in split] == list(pos.legal_moves())
    assert sum(n for _, n in split) == RULES.perft(pos, 2)


def test_random_game_positions_match_brute_force() -> None:
    rng = random.Random(7)
    pos = RULES.initial()
    checked = 0
    while pos.ply() < 60:
        if pos.ply() % 6 == 0:
            player = "12"[pos.turn()]
            brute = brute_destinations(read_rows(pos.board_lines()), player)
            expected = {o: t for o, t in brute.items() if t}
            assert engine_destinations(pos) == expected, pos.notation()
            for move in pos.legal_moves():  # every listed path is one the judge takes cleanly
                judged = pos.judge(move)
                assert (judged.move, judged.warnings) == (move, ())
            checked += 1
        pos = pos.play(choose_move(pos, rng, "random"))
    assert checked == 10


# ---------------------------------------------------------------------------------------
# Hand-built positions: complete move lists

FAR_TWO = [(1, 16)]  # a lone player-2 piece out of everyone's way


def test_steps_in_the_open_and_in_a_corner() -> None:
    assert position([(8, 8)], FAR_TWO).legal_moves() == (
        "8 8 7 7", "8 8 7 8", "8 8 7 9", "8 8 8 7", "8 8 8 9", "8 8 9 7", "8 8 9 8", "8 8 9 9",
    )
    assert position([(1, 1)], FAR_TWO).legal_moves() == ("1 1 1 2", "1 1 2 1", "1 1 2 2")


def test_single_jumps_over_either_colour_and_no_jump_back() -> None:
    pos = position([(8, 8)], [(9, 9), (7, 8)])
    assert pos.legal_moves() == (
        "8 8 6 8", "8 8 7 7", "8 8 7 9", "8 8 8 7", "8 8 8 9", "8 8 9 7", "8 8 9 8", "8 8 10 10",
    )
    assert refused(pos, "8 8 6 8 8 8").reason == "(8,8) is visited twice"


def test_multi_jump_chain_one_shortest_path_per_destination() -> None:
    # (6,6) is two jumps away by (6,4) or by (4,6): the listing shows the BFS path only.
    pos = position([(4, 4)], [(5, 4), (4, 5), (6, 5), (5, 6)])
    assert pos.legal_moves() == (
        "4 4 3 3", "4 4 3 4", "4 4 3 5", "4 4 4 3", "4 4 4 6", "4 4 5 3", "4 4 5 5", "4 4 6 4",
        "4 4 6 4 6 6",
    )
    other = pos.judge("4 4 4 6 6 6")
    assert (other.move, other.warnings) == ("4 4 4 6 6 6", ())
    assert other.position == pos.play("4 4 6 4 6 6")
    assert refused(pos, "4 4 6 4 6 6 4 6 6 6").reason == "(6,6) is visited twice"
    assert refused(pos, "4 4 6 4 6 6 4 6 4 4").reason == "(4,4) is visited twice"


def test_long_straight_chain_lists_every_landing() -> None:
    line = position([(1, 8)], [(2, 8), (4, 8), (6, 8), (8, 8)])
    assert line.legal_moves() == (
        "1 8 1 7", "1 8 1 9", "1 8 2 7", "1 8 2 9",
        "1 8 3 8", "1 8 3 8 5 8", "1 8 3 8 5 8 7 8", "1 8 3 8 5 8 7 8 9 8",
    )


def test_chain_changes_direction() -> None:
    # (1,1) -> (3,3) over (2,2) -> (5,3) over (4,3) -> (5,5) over (5,4).
    pos = position([(1, 1)], [(2, 2), (4, 3), (5, 4)])
    assert "1 1 3 3 5 3 5 5" in pos.legal_moves()
    chains = [m for m in pos.legal_moves() if len(m.split()) > 4]
    assert chains == ["1 1 3 3 5 3", "1 1 3 3 5 3 5 5"]


# ---------------------------------------------------------------------------------------
# judge(): every reason


@pytest.mark.parametrize(
    "move, reason, malformed",
    [
        ("", "a move needs at least two points", True),
        ("1 1", "a move needs at least two points", True),
        ("1 1 2", "an odd number of coordinates (3)", True),
        ("1 a 2 2", "'a' is not an integer", True),
        ("1 3 3 5.0", "'5.0' is not an integer", True),
        # Rust splits on ASCII whitespace only
        ("1 3\u00a03 5", "'3\\xa03' is not an integer", True),
        ("1 1 99999999999 2", "'99999999999' does not fit a 32-bit integer", True),
        ("5 1 17 3", "(17,3) is off the board (1..16)", False),
        ("0 1 1 2", "(0,1) is off the board (1..16)", False),
        ("-1 3 1 5", "(-1,3) is off the board (1..16)", False),
        ("8 8 9 9", "(8,8) holds no piece of yours", False),
        ("16 16 15 15", "(16,16) holds no piece of yours", False),
        ("1 1 2 2", "(2,2) is occupied", False),
        ("5 1 7 1", "jump from (5,1) to (7,1) passes over an empty cell (6,1)", False),
        ("5 1 6 1 6 2", "a step must be the whole move ((5,1) to (6,1))", False),
        ("4 1 6 1 7 1", "a step must be the whole move ((6,1) to (7,1))", False),
        ("5 1 8 1", "(5,1) to (8,1) is neither a step nor a jump", False),
        ("3 4 3 7", "(3,4) to (3,7) is neither a step nor a jump", False),
        ("1 3 3 5 1 3", "(1,3) is visited twice", False),
        ("1 3 3 5 3 5", "(3,5) is visited twice", False),
    ],
)
def test_judge_reasons(move: str, reason: str, malformed: bool) -> None:
    error = refused(RULES.initial(), move)
    assert (error.reason, error.malformed) == (reason, malformed)


def test_judge_reason_neither_step_nor_jump_example() -> None:
    error = refused(position([(4, 4)], FAR_TWO), "4 4 7 4")
    assert error.reason == "(4,4) to (7,4) is neither a step nor a jump"


def test_judge_accepts_loose_spelling_with_warnings() -> None:
    pos = RULES.initial()
    signed = pos.judge("+1 3 3 5")
    assert signed.move == "1 3 3 5"
    assert signed.warnings == ("coordinate '+1' written with a sign",)
    assert signed.position == pos.play("1 3 3 5")
    assert pos.judge("1 03 3 5").warnings == ("coordinate '03' written with a leading zero",)
    spaced = pos.judge(" 1\t3  3\r\n5 ")
    assert (spaced.move, spaced.warnings) == ("1 3 3 5", ())


def test_statement_example_sequence() -> None:
    pos = RULES.initial().play("1 3 3 5").play("14 16 12 14")
    assert "2 2 4 4 2 6" in pos.legal_moves()
    judged = pos.judge("2 2 4 4 2 6")
    assert judged.warnings == () and judged.position.board_lines()[5][1] == "1"


# ---------------------------------------------------------------------------------------
# Knight-shaped hops: the referee's midpoint is prev + (to - prev) / 2, truncated toward 0


def test_knight_hop_from_the_initial_position_is_accepted_with_a_warning() -> None:
    pos = RULES.initial()
    assert "1 5 3 6" not in pos.legal_moves()
    judged = pos.judge("1 5 3 6")
    assert judged.move == "1 5 3 6"
    assert judged.warnings == (
        "knight-shaped hop (1,5) to (3,6) over (2,5): the referee accepts it (integer division), "
        "the statement forbids it",
    )
    assert (3, 6) in judged.position.pieces(0) and (1, 5) not in judged.position.pieces(0)


KNIGHT_SHAPES = [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (-1, 2), (1, -2), (-1, -2)]


@pytest.mark.parametrize("dx, dy", KNIGHT_SHAPES)
def test_every_knight_shape_passes_over_the_long_axis_neighbour(dx: int, dy: int) -> None:
    over = (8 + (dx // 2 if abs(dx) == 2 else 0), 8 + (dy // 2 if abs(dy) == 2 else 0))
    move = f"8 8 {8 + dx} {8 + dy}"
    judged = position([(8, 8)], [over]).judge(move)
    assert len(judged.warnings) == 1 and f"over ({over[0]},{over[1]})" in judged.warnings[0]
    # The floor-division midpoint ((x1 + x2) // 2, (y1 + y2) // 2) is not what the referee uses:
    floor_mid = ((16 + dx) // 2, (16 + dy) // 2)
    if floor_mid != over:
        error = refused(position([(8, 8)], [floor_mid]), move)
        assert error.reason.endswith(f"passes over an empty cell ({over[0]},{over[1]})")


def test_reverse_knight_hop_needs_the_cell_next_to_its_start() -> None:
    assert position([(3, 6)], [(2, 6)]).judge("3 6 1 5").warnings[0].startswith(
        "knight-shaped hop (3,6) to (1,5) over (2,6)"
    )
    # (2,5) is in player 2's home: a second piece elsewhere keeps the game going.
    assert refused(position([(3, 6)], [(2, 5), (16, 1)]), "3 6 1 5").reason == (
        "jump from (3,6) to (1,5) passes over an empty cell (2,6)"
    )


def test_knight_hops_inside_a_chain_and_over_the_start() -> None:
    # (8,8) -> (10,9) over (9,8) -> (9,7) over (10,8) -> (7,9) over (8,8): the referee never lifts
    # the moving piece, so its start still counts as occupied.
    pos = position([(8, 8)], [(9, 8), (10, 8)])
    judged = pos.judge("8 8 10 9 9 7 7 9")
    assert len(judged.warnings) == 3
    assert judged.warnings[0].startswith("knight-shaped hop (8,8) to (10,9) over (9,8)")
    assert judged.warnings[1].startswith("knight-shaped hop (10,9) to (9,7) over (10,8)")
    assert judged.warnings[2].startswith("hop (9,7) to (7,9) passes over the starting cell (8,8)")
    assert judged.position.pieces(0) == ((7, 9),)


def test_straight_chain_then_step_or_long_hop_is_refused() -> None:
    pos = position([(8, 8)], [(9, 8), (10, 8)])
    assert refused(pos, "8 8 10 8").reason == "(10,8) is occupied"
    assert refused(pos, "8 8 11 8").reason == "(8,8) to (11,8) is neither a step nor a jump"


# ---------------------------------------------------------------------------------------
# End of the game

HOME_1 = CAMP_2  # player 1's home is player 2's camp


def test_win_when_all_pieces_home() -> None:
    ones = [c for c in HOME_1 if c != (12, 16)] + [(11, 16)]
    pos = position(ones, MIDDLE, ply=100)
    assert pos.outcome() is None
    after = pos.play("11 16 12 16")
    assert after.outcome() is not None
    assert (after.outcome().winner, after.outcome().reason) == (0, "all pieces home")
    assert after.legal_moves() == ()
    assert refused(after, "1 8 1 7").reason.startswith("the game is over")


def test_all_home_is_checked_before_blockers() -> None:
    # Ply 300 with player 2 still in its zone would be a blocker win for player 1 anyway, but the
    # referee's home check runs first (its blocker removal then leaves the same winner).
    twos = MIDDLE[:18] + [(16, 10)]
    assert (16, 10) in ZONE_2
    pos = position(HOME_1, twos, ply=300)
    assert (pos.outcome().winner, pos.outcome().reason) == (0, "all pieces home")
    both = position(HOME_1, CAMP_1, ply=300)  # only a hand-built position can do this
    assert both.outcome() == Outcome(None, "all pieces home (both players)")


def test_blocker_check_starts_at_ply_200() -> None:
    ones, twos = MIDDLE[:-1] + [(7, 2)], LOWER
    assert (7, 2) in ZONE_1
    early = position(ones, twos, ply=198).play("1 8 1 7")  # ply 199 now
    assert early.outcome() is None
    pos = position(ones, twos, ply=199)
    assert pos.outcome() is None
    after = pos.play("1 10 1 12")  # player 2's 100th move
    assert after.ply() == 200
    assert (after.outcome().winner, after.outcome().reason) == (
        1, "blocker: player 1 still has a piece in its own zone"
    )


def test_both_blockers_draw() -> None:
    ones, twos = MIDDLE[:-1] + [(3, 6)], LOWER[:-1] + [(16, 11)]
    assert (3, 6) in ZONE_1 and (16, 11) in ZONE_2
    after = position(ones, twos, ply=199).play("1 10 1 12")
    assert (after.outcome().winner, after.outcome().reason) == (None, "both blockers")


def test_zone_edges() -> None:
    twos = LOWER
    edges = [((7, 2), True), ((7, 3), False), ((3, 6), True), ((3, 7), False), ((1, 7), True)]
    for cell, blocks in edges + [((8, 1), False)]:
        ones = MIDDLE[:-1] + [cell]
        after = position(ones, twos, ply=199).play("1 10 1 12")
        assert (after.outcome() is not None) == blocks, cell


def test_mover_entering_own_zone_after_ply_200_loses() -> None:
    pos = position(MIDDLE, LOWER, ply=250)
    assert pos.outcome() is None
    after = pos.play("1 8 1 7")
    assert (after.outcome().winner, after.outcome().reason) == (
        1, "blocker: player 1 still has a piece in its own zone"
    )


def test_move_limit_draw_and_the_blocker_turning_it_into_a_loss() -> None:
    ones = MIDDLE
    twos = LOWER[:-1] + [(9, 15)]
    assert (9, 15) not in ZONE_2 and (10, 15) in ZONE_2
    pos = position(ones, twos, ply=1997)
    assert pos.outcome() is None and pos.turn() == 1
    draw = pos.play("1 10 1 12")
    assert (draw.ply(), draw.outcome().winner, draw.outcome().reason) == (1998, None, "move limit")
    loss = pos.play("9 15 10 15")  # player 2's 999th move re-enters its zone
    assert (loss.outcome().winner, loss.outcome().reason) == (
        0, "blocker: player 2 still has a piece in its own zone"
    )


def test_options() -> None:
    assert DEFAULT_OPTIONS == {"max_plies": 1998, "blocker_from_ply": 200}
    short = make_rules({"max_plies": 4})
    pos = short.initial()
    for move in ("1 3 3 5", "16 14 14 12", "1 4 1 6", "16 13 16 11"):
        assert pos.outcome() is None
        pos = pos.play(move)
    assert (pos.ply(), pos.outcome().winner, pos.outcome().reason) == (4, None, "move limit")
    with pytest.raises(OptionError):
        make_rules({"max_moves": 10})
    with pytest.raises(OptionError):
        make_rules({"blocker_from_ply": 0})
    with pytest.raises(OptionError):
        make_rules({"max_plies": "10"})


# ---------------------------------------------------------------------------------------
# Notation


def test_notation_round_trip() -> None:
    pos = RULES.initial()
    assert pos.notation() == (
        "11111.........../11111.........../1111............/111............./11............../"
        + "/".join(["." * 16] * 6)
        + "/..............22/.............222/............2222"
        + "/...........22222/...........22222 1 0"
    )
    rng = random.Random(3)
    for _ in range(25):
        again = RULES.parse(pos.notation())
        assert again == pos and again.notation() == pos.notation()
        assert again.legal_moves() == pos.legal_moves()
        pos = pos.play(choose_move(pos, rng, "random"))
    assert pos.notation().endswith(" 2 25")


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "expected 3 fields"),
        ("/".join(["." * 16] * 15) + " 1 0", "expected 16 rows"),
        ("/".join(["." * 15] + ["." * 16] * 15) + " 1 0", "row y=1 has 15 cells"),
        ("/".join(["x" + "." * 15] + ["." * 16] * 15) + " 1 0", "unexpected character 'x'"),
        (notation([(8, 8)], [(1, 16)], 0).replace(" 1 0", " 3 0"), "side to move must be 1 or 2"),
        (notation([(8, 8)], [(1, 16)], 0).replace(" 1 0", " 1 -2"), "ply must be a non-negative"),
        (notation([(8, 8)], [(1, 16)], 0).replace(" 1 0", " 2 0"), "does not match ply 0"),
        (notation([], [(1, 16)], 0), "player 1 has 0 pieces"),
        (notation(MIDDLE + [(8, 12)], [(1, 16)], 0), "player 1 has 20 pieces"),
    ],
)
def test_parse_errors(text: str, problem: str) -> None:
    with pytest.raises(PositionError, match=problem):
        RULES.parse(text)


# ---------------------------------------------------------------------------------------
# Built-in opponent


def test_greedy_games_end_with_all_pieces_home_before_the_limit() -> None:
    plies = []
    for seed in (1, 2):
        rng = random.Random(seed)
        pos, moves = RULES.initial(), []
        while pos.outcome() is None:
            move = choose_move(pos, rng)
            assert move in pos.legal_moves()
            moves.append(move)
            pos = pos.play(move)
        assert pos.outcome().reason == "all pieces home", (seed, pos.ply(), pos.outcome())
        assert pos.ply() < 400
        plies.append(pos.ply())
        if seed == 1:  # deterministic for a given rng
            replay, again = random.Random(seed), RULES.initial()
            for move in moves:
                assert choose_move(again, replay) == move
                again = again.play(move)
    assert plies == [189, 162]


def test_choose_move_styles() -> None:
    pos = RULES.initial()
    assert choose_move(pos, random.Random(0), "random") in pos.legal_moves()
    with pytest.raises(ValueError):
        choose_move(pos, random.Random(0), "clever")


def test_without_classes_keeps_what_move_kinds_keeps() -> None:
    """The opponent's one-pass filter leaves out exactly the moves `move_kinds` puts in an
    omitted class, for every single class, every class and random sets of them, in
    positions of random games played to the blocker check and past it."""
    from prototest.games import halma

    rng = random.Random(11)
    classes = halma.MOVE_CLASSES
    compared = 0
    for game in range(3):
        pos = RULES.initial()
        while pos.outcome() is None and pos.ply() < 240:
            if pos.ply() % 7 == game:
                moves = halma.opponent_candidates(pos)
                omits = [frozenset([c]) for c in classes] + [frozenset(classes)]
                omits += [frozenset(c for c in classes if rng.random() < 0.5) for _ in range(4)]
                for omit in omits:
                    expected = [m for m in moves if halma.move_kinds(pos, m).isdisjoint(omit)]
                    assert halma.without_classes(pos, moves, omit) == expected, (pos.notation(), omit)
                    compared += len(moves)
            pos = pos.play(choose_move(pos, rng, "greedy" if game else "random"))
    assert compared > 10_000, compared
