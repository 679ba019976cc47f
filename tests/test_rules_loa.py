"""Lines of Action rules, checked against facts read from the CodinGame referee
(darkhorse64/CG_LinesOfAction): perft 36 / 1,244 / 44,952 from the start, moves sorted in
plain ASCII order, `pass` only when no move exists, the mover checked for connection first,
one checker counting as connected and a draw after 150 plies.

Every hand-built position below lists its complete move list, worked out by hand from the
rules (the comments show the line counts used).
"""

from __future__ import annotations

import random

import pytest

from prototest.games.base import IllegalMove, OptionError, Outcome, PositionError, generic_perft
from prototest.games.loa import DEFAULT_OPTIONS, choose_move, make_rules

RULES = make_rules({})
INITIAL = ".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b 0"

INITIAL_MOVES = [
    "b1b3", "b1d3", "b1h1", "b8b6", "b8d6", "b8h8",
    "c1a3", "c1c3", "c1e3", "c8a6", "c8c6", "c8e6",
    "d1b3", "d1d3", "d1f3", "d8b6", "d8d6", "d8f6",
    "e1c3", "e1e3", "e1g3", "e8c6", "e8e6", "e8g6",
    "f1d3", "f1f3", "f1h3", "f8d6", "f8f6", "f8h6",
    "g1a1", "g1e3", "g1g3", "g8a8", "g8e6", "g8g6",
]


def board(rows: dict[int, str], side: str = "b", ply: int = 10) -> str:
    """Notation from {rank: row}; missing ranks are empty."""
    return "/".join(rows.get(rank, "........") for rank in range(8, 0, -1)) + f" {side} {ply}"


# Black a8, d4; White d7, h1.
BOTH_COLOURS = board({8: "b.......", 7: "...w....", 4: "...b....", 1: ".......w"})
# Black a1 b1 c1 (a group) and h8; White e8, e6.
JUMP_OWN = board({8: "....w..b", 6: "....w...", 1: "bbb....."})
# Black a1, c1; White b1 between them, and h8.
ENEMY_BLOCKS = board({8: ".......w", 1: "bwb....."})
# Black a1, f3; White c1, h8.
CAPTURE = board({8: ".......w", 3: ".....b..", 1: "b.w....."})
# Black a1, c1; White h8, h6.
OWN_TARGET = board({8: ".......w", 6: ".......w", 1: "b.b....."})
# Black a1, h8, each walled in by three white checkers.
PASS_ONLY = board({8: "......wb", 7: "......ww", 2: "ww......", 1: "bw......"})
# Black a1 b1 c4; White c2 (a straggler next to b1), g8 h8.
BOTH_CONNECT = board({8: "......ww", 4: "..b.....", 2: "..w.....", 1: "bb......"})
BOTH_CONNECT_MOVES = [
    "a1a2", "a1c1", "a1c3",  # row 1 holds 2; a1-h8 diagonal holds a1, h8
    "b1a2", "b1b2", "b1d1",  # b1-h7 diagonal holds b1, c2: b1d3 would jump c2
    "c4a2", "c4b4", "c4b5", "c4c2", "c4c6", "c4d3", "c4d4", "c4e6",
]


def swap_colours(notation: str, side: str, ply: int) -> str:
    rows = notation.split()[0].translate(str.maketrans("bw", "wb"))
    return f"{rows} {side} {ply}"


def reason(position_notation: str, move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        RULES.parse(position_notation).judge(move)
    return caught.value


# ---------------------------------------------------------------------------- perft


@pytest.mark.parametrize("depth, nodes", [(1, 36), (2, 1244), (3, 44952)])
def test_perft_from_initial(depth: int, nodes: int) -> None:
    assert RULES.perft(RULES.initial(), depth) == nodes


def test_generic_perft_agrees() -> None:
    assert generic_perft(RULES.initial(), 2) == 1244


def test_divide_lists_moves_in_order_and_sums_to_perft() -> None:
    split = RULES.divide(RULES.initial(), 2)
    assert [move for move, _ in split] == INITIAL_MOVES
    assert sum(count for _, count in split) == 1244
    assert dict(split)["b1h1"] == RULES.perft(RULES.initial().play("b1h1"), 1)


def test_perft_counts_pass_and_stops_at_game_end() -> None:
    stuck = RULES.parse(PASS_ONLY)
    assert RULES.perft(stuck, 1) == 1
    assert RULES.divide(stuck, 1) == [("pass", 1)]
    assert RULES.perft(stuck, 2) == len(stuck.play("pass").legal_moves())
    won = RULES.parse(BOTH_CONNECT).play("c4c2")
    assert RULES.perft(won, 0) == 1
    assert RULES.perft(won, 2) == 0
    assert RULES.divide(won, 2) == []


# ---------------------------------------------------------------------- initial position


def test_initial_position() -> None:
    start = RULES.initial()
    assert start.notation() == INITIAL
    assert start.turn() == 0 and start.ply() == 0
    assert start.legal_moves() == INITIAL_MOVES
    assert start.outcome() is None
    assert start.board_lines() == [".bbbbbb."] + ["w......w"] * 6 + [".bbbbbb."]


def test_white_moves_second_and_sees_its_own_moves() -> None:
    after = RULES.initial().play("b1h1")
    assert after.turn() == 1 and after.ply() == 1
    assert after.board_lines()[7] == "..bbbbbb"
    # a2: row 2 holds a2, h2 -> a2c2; column a holds six whites -> a2a8 over a3..a7.
    assert {"a2c2", "a2a8"} <= set(after.legal_moves())
    assert all(move[0] in "ah" for move in after.legal_moves())


# ------------------------------------------------------------- hand-built move lists


def test_distance_counts_both_colours() -> None:
    # d-file holds d4 and white d7: 2 squares. a8-h1 diagonal holds a8 and white h1: 2.
    # Row 4, the a1-h8 diagonal and the a7-g1 diagonal hold d4 alone: 1 square.
    assert RULES.parse(BOTH_COLOURS).legal_moves() == [
        "a8a7", "a8b8", "a8c6",
        "d4c3", "d4c4", "d4c5", "d4d2", "d4d6", "d4e3", "d4e4", "d4e5",
    ]


def test_jumping_own_checkers_is_allowed() -> None:
    # Row 1 holds a1 b1 c1: 3 squares, over own checkers (a1d1, b1e1, c1f1).
    # Row 8 holds white e8 and h8; the a1-h8 diagonal holds a1 and h8.
    assert RULES.parse(JUMP_OWN).legal_moves() == [
        "a1a2", "a1c3", "a1d1",
        "b1a2", "b1b2", "b1c2", "b1e1",
        "c1b2", "c1c2", "c1d2", "c1f1",
        "h8f6", "h8f8", "h8h7",
    ]


def test_enemy_checker_blocks() -> None:
    # Row 1 holds a1, b1, c1: a1d1 would pass over white b1, so it is absent.
    assert RULES.parse(ENEMY_BLOCKS).legal_moves() == [
        "a1a2", "a1c3", "c1b2", "c1c2", "c1d2", "c1f1",
    ]


def test_capture_on_landing() -> None:
    # Row 1 holds a1 and white c1: a1c1 lands on c1 and captures it.
    position = RULES.parse(CAPTURE)
    assert position.legal_moves() == [
        "a1a2", "a1c1", "a1c3",
        "f3e2", "f3e3", "f3e4", "f3f2", "f3f4", "f3g2", "f3g3", "f3g4",
    ]
    after = position.play("a1c1")
    assert after.board_lines()[7] == "..b....."
    assert "".join(after.board_lines()).count("w") == 1


def test_cannot_land_on_own_checker() -> None:
    # Row 1 holds a1 and c1: a1c1 and c1a1 would land on black; c1e1 is fine.
    # The c1-h6 diagonal holds c1 and white h6: c1e3.
    assert RULES.parse(OWN_TARGET).legal_moves() == [
        "a1a2", "a1c3", "c1b2", "c1c2", "c1e1", "c1e3",
    ]


def test_pass_only_position() -> None:
    position = RULES.parse(PASS_ONLY)
    assert position.outcome() is None
    assert position.legal_moves() == ["pass"]
    after = position.judge("pass").position
    assert after.turn() == 1 and after.ply() == 11
    assert after.board_lines() == position.board_lines()
    assert "pass" not in after.legal_moves() and after.legal_moves()


def test_mover_checked_first_when_both_connect() -> None:
    position = RULES.parse(BOTH_CONNECT)
    assert position.legal_moves() == BOTH_CONNECT_MOVES
    after = position.play("c4c2")  # joins a1 b1 and removes white's straggler
    assert after.outcome() == Outcome(0, "both sides connected: the mover wins")
    assert after.legal_moves() == []
    # The same with White moving: White wins.
    mirrored = RULES.parse(swap_colours(BOTH_CONNECT, "w", 11))
    assert mirrored.legal_moves() == BOTH_CONNECT_MOVES
    assert mirrored.play("c4c2").outcome().winner == 1


def test_connecting_only_yourself_wins() -> None:
    after = RULES.parse(BOTH_CONNECT).play("c4a2")
    assert after.outcome() == Outcome(0, "all checkers connected")


def test_one_checker_left_is_connected_and_wins_for_its_owner() -> None:
    # Capturing c1 leaves White only h8: White is connected, Black (a1 gone to c1, f3)
    # is not, so White wins on Black's move.
    after = RULES.parse(CAPTURE).play("a1c1")
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == 1
    lone = RULES.parse(board({8: ".......w", 3: ".....b..", 1: "b......."}, "b", 4))
    assert lone.outcome() is not None and lone.outcome().winner == 1


def test_turn_limit_draw_after_150_plies() -> None:
    assert DEFAULT_OPTIONS == {"max_plies": 150}
    position = RULES.parse(swap_colours(BOTH_CONNECT, "w", 149))
    assert position.legal_moves() == BOTH_CONNECT_MOVES
    drawn = position.play("c4d4")
    assert drawn.ply() == 150
    assert drawn.outcome() == Outcome(None, "turn limit")
    assert drawn.legal_moves() == []
    # A win on the last ply is still a win: wins are checked before the limit.
    assert position.play("c4c2").outcome().winner == 1
    assert RULES.parse(BOTH_CONNECT).outcome() is None  # ply 10


def test_max_plies_option() -> None:
    short = make_rules({"max_plies": 12})
    position = short.parse(BOTH_CONNECT.replace(" 10", " 11"))
    assert position.outcome() is None
    assert position.play("c4d4").outcome() == Outcome(None, "turn limit")
    with pytest.raises(OptionError):
        make_rules({"max_plies": 0})
    with pytest.raises(OptionError):
        make_rules({"max_plies": True})
    with pytest.raises(OptionError):
        make_rules({"turns": 150})


# ---------------------------------------------------------------- independent check


def square_name(square: tuple[int, int]) -> str:
    return "abcdefgh"[square[0]] + str(square[1] + 1)


def slow_moves(position) -> list[str]:
    """A direct reading of the rules on the text board, sharing no code with the module."""
    grid = {}
    for index, row in enumerate(position.board_lines()):
        for file, char in enumerate(row):
            grid[(file, 7 - index)] = char
    me = "bw"[position.turn()]
    them = "wb"[position.turn()]
    moves = []
    for (file, rank), char in grid.items():
        if char != me:
            continue
        for df, dr in [(1, 0), (0, 1), (1, 1), (1, -1)]:
            line = [(file + k * df, rank + k * dr) for k in range(-7, 8)]
            count = sum(1 for sq in line if grid.get(sq, ".") != ".")
            for sign in (1, -1):
                path = [(file + k * sign * df, rank + k * sign * dr) for k in range(1, count + 1)]
                if path[-1] not in grid:
                    continue
                if any(grid[sq] == them for sq in path[:-1]) or grid[path[-1]] == me:
                    continue
                moves.append(square_name((file, rank)) + square_name(path[-1]))
    return sorted(moves) or ["pass"]


def test_move_generation_matches_a_direct_reading_of_the_rules() -> None:
    rng = random.Random(7)
    checked = 0
    for _game in range(6):
        position = RULES.initial()
        while position.outcome() is None:
            assert position.legal_moves() == slow_moves(position)
            checked += 1
            position = position.play(rng.choice(position.legal_moves()))
    assert checked > 100


def test_every_refused_move_gets_a_specific_reason() -> None:
    rng = random.Random(3)
    squares = [f + r for f in "abcdefgh" for r in "12345678"]
    position = RULES.initial()
    for _ in range(30):
        legal = set(position.legal_moves())
        for src in squares:
            for dst in squares:
                move = src + dst
                if move in legal:
                    assert position.judge(move).move == move
                else:
                    with pytest.raises(IllegalMove) as caught:
                        position.judge(move)
                    assert "not a legal move" not in caught.value.reason
                    assert caught.value.malformed is False
        if position.outcome() is not None:
            break
        position = position.play(rng.choice(position.legal_moves()))


# ------------------------------------------------------------------------- notation


@pytest.mark.parametrize("notation", [
    INITIAL, BOTH_COLOURS, JUMP_OWN, PASS_ONLY, swap_colours(BOTH_CONNECT, "w", 149),
])
def test_notation_round_trip(notation: str) -> None:
    assert RULES.parse(notation).notation() == notation


def test_notation_round_trip_through_play() -> None:
    position = RULES.initial().play("b1h1").play("a2c2").play("c8a6")
    text = position.notation()
    assert text == ".b.bbbb./w......w/b......w/w......w/w......w/w......w/..w....w/..bbbbbb w 3"
    again = RULES.parse(text)
    assert again == position
    assert again.legal_moves() == position.legal_moves()


@pytest.mark.parametrize("notation, words", [
    ("", "3 space-separated fields"),
    (INITIAL.replace(" b 0", " x 0"), "side to move"),
    (INITIAL.replace(" b 0", " b -1"), "ply count"),
    (INITIAL.replace(" b 0", " b one"), "ply count"),
    (INITIAL.replace("/.bbbbbb. b", " b"), "8 rows"),
    (INITIAL.replace(".bbbbbb. b", ".bbbbbb b"), "rank 1 has 7 characters"),
    (INITIAL.replace(".bbbbbb. b", ".bbbbbbx b"), "h1: unexpected 'x'"),
    (board({1: "b.b....."}), "white has no checker"),
    (board({8: "bbbbbbbb", 7: "bbbbb...", 1: "w.w....."}), "black has 13 checkers"),
])
def test_parse_errors_name_the_problem(notation: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        RULES.parse(notation)


# --------------------------------------------------------------------- illegal moves


@pytest.mark.parametrize("notation, move, words, malformed", [
    (INITIAL, "e2", "a move is 4 characters like e2e3", True),
    (INITIAL, "b1b3junk", "a move is 4 characters like e2e3", True),
    (INITIAL, "B1B3", "lower case: b1b3", True),
    (INITIAL, "i9b3", "i9 is not on the board", False),
    (INITIAL, "b1b0", "b0 is not on the board", False),
    (INITIAL, "b1b1", "a checker must move", False),
    (INITIAL, "e3e4", "no checker of yours on e3 (it holds nothing)", False),
    (INITIAL, "a2a4", "no checker of yours on a2 (it holds an enemy checker)", False),
    (INITIAL, "b1c3", "b1 and c3 are not on one row, column or diagonal", False),
    (INITIAL, "b1b2", "exactly 2 squares on this column (2 checkers stand on it), not 1",
     False),
    (INITIAL, "b1c2", "exactly 2 squares on this diagonal", False),
    (INITIAL, "c1h1", "exactly 6 squares on this row", False),
    (BOTH_COLOURS, "d4d5", "exactly 2 squares on this column", False),
    (ENEMY_BLOCKS, "a1d1", "blocked by an enemy checker on b1", False),
    (OWN_TARGET, "a1c1", "c1 holds your own checker", False),
    (PASS_ONLY, "a1c1", "no legal move exists: answer pass", False),
    (PASS_ONLY, "xx", "no legal move exists: answer pass", True),
    (INITIAL, "pass", "pass is only allowed when no move exists", False),
    (swap_colours(BOTH_CONNECT, "w", 150), "c4c2", "the game is over (turn limit)", False),
])
def test_illegal_move_reasons(notation: str, move: str, words: str, malformed: bool) -> None:
    error = reason(notation, move)
    assert words in error.reason
    assert error.move == move
    assert error.malformed is malformed


def test_judge_matches_exactly_and_play_refuses_too() -> None:
    start = RULES.initial()
    judged = start.judge("b1h1")
    assert judged.move == "b1h1" and judged.warnings == ()
    assert judged.position.notation() == start.play("b1h1").notation()
    with pytest.raises(IllegalMove):
        start.judge("b1h1 ")
    with pytest.raises(IllegalMove, match="exactly"):
        start.play("b1b2")
    assert start.notation() == INITIAL  # positions are immutable


# ------------------------------------------------------------------ built-in opponent


def test_choose_move_takes_a_win() -> None:
    position = RULES.parse(BOTH_CONNECT)
    for seed in range(5):
        assert choose_move(position, random.Random(seed)) in {"c4c2", "c4a2"}


def test_choose_move_avoids_handing_over_the_win() -> None:
    position = RULES.parse(CAPTURE)
    for seed in range(10):
        assert choose_move(position, random.Random(seed)) != "a1c1"


def test_choose_move_styles_passes_and_determinism() -> None:
    start = RULES.initial()
    assert choose_move(RULES.parse(PASS_ONLY), random.Random(1)) == "pass"
    assert choose_move(RULES.parse(PASS_ONLY), random.Random(1), "random") == "pass"
    assert choose_move(start, random.Random(1), "random") in INITIAL_MOVES
    assert [choose_move(start, random.Random(9)) for _ in range(3)] == [
        choose_move(start, random.Random(9))] * 3
    with pytest.raises(ValueError):
        choose_move(start, random.Random(1), "clever")
    with pytest.raises(ValueError):
        choose_move(RULES.parse(BOTH_CONNECT).play("c4c2"), random.Random(1))


def test_seeded_games_end_with_captures_and_results() -> None:
    results = set()
    for seed in range(4):
        rng = random.Random(seed)
        position = RULES.initial()
        while position.outcome() is None:
            style = "greedy" if position.turn() == 0 else "random"
            position = position.play(choose_move(position, rng, style))
        assert "".join(position.board_lines()).count(".") > 40  # captures happened
        results.add(position.outcome().winner)
    assert 0 in results  # greedy Black beats random White


def test_the_evasive_style_keeps_the_game_going_and_leaves_the_bot_no_capture() -> None:
    """`prefer(.., "evasive", ..)`: exactly the moves after which the game goes on and none of
    the bot's listed moves lands on one of the mover's checkers (read through the position's
    own API, not the bitboards the style uses); over positions of random games, where both
    kinds of move occur."""
    from prototest.games import loa

    rng = random.Random(3)
    seen_both = 0
    for _ in range(12):
        position = RULES.initial()
        while position.outcome() is None and position.ply() < 60:
            moves = position.legal_moves()
            if moves != ["pass"]:
                mover = position.turn()
                expected = []
                for move in moves:
                    after = position.play(move)
                    if after.outcome() is not None:
                        continue
                    mine = {(f, r) for r, line in enumerate(after.board_lines()) for f, c in enumerate(line)
                            if c == "bw"[mover]}
                    bot_captures = [m for m in after.legal_moves()
                                    if m != "pass" and ("abcdefgh".index(m[2]), 8 - int(m[3])) in mine]
                    if not bot_captures:
                        expected.append(move)
                assert loa.prefer(position, "evasive", moves) == expected
                seen_both += 0 < len(expected) < len(moves)
            position = position.play(rng.choice(moves))
    assert seen_both > 15


def test_can_capture_agrees_with_the_move_list() -> None:
    """can_capture (the evasive style's) says whether generate's list holds a capture, for
    both sides of the positions of random games and of every position one move on."""
    from prototest.games.loa import SQUARE_OF, apply, can_capture, generate

    rng = random.Random(5)
    checked = captures = 0
    for _game in range(4):
        position = RULES.initial()
        while position.outcome() is None:
            own, enemy = position.own_enemy()
            boards = [(own, enemy)] + [apply(own, enemy, SQUARE_OF[m[:2]], SQUARE_OF[m[2:]])
                                       for m in position.legal_moves() if m != "pass"]
            for a, b in boards:
                for mover, other in ((a, b), (b, a)):
                    moves = generate(mover, other)
                    capture = any((other >> dst) & 1 for _, dst in moves)
                    assert can_capture(mover, other) == capture
                    checked += 1
                    captures += capture
            position = position.play(rng.choice(position.legal_moves()))
    assert checked > 5_000 and 0 < captures < checked, (checked, captures)


def test_the_greedy_style_prefers_the_moves_of_the_highest_key() -> None:
    """The greedy style's preference, its key's parts worked out one at a time, is
    best_scored over the whole key: the same moves, in the same order, in every position
    of random games (ties of several moves among them)."""
    from prototest.games.base import best_scored
    from prototest.games.loa import SQUARE_OF, _spread, apply, connected, group_count, prefer

    def greedy_key(own: int, enemy: int, move: str) -> tuple[int, int, int, int]:
        """The whole key at once: a win, not a loss, fewer groups, a capture, a tighter cluster."""
        dst = SQUARE_OF[move[2:]]
        new_own, new_enemy = apply(own, enemy, SQUARE_OF[move[:2]], dst)
        verdict = 2 if connected(new_own) else 0 if connected(new_enemy) else 1
        return verdict, -group_count(new_own), (enemy >> dst) & 1, -_spread(new_own)

    rng = random.Random(9)
    checked = ties = 0
    for _game in range(5):
        position = RULES.initial()
        while position.outcome() is None:
            moves = [m for m in position.legal_moves() if m != "pass"]
            if moves:
                own, enemy = position.own_enemy()
                expected = best_scored(moves, lambda m: greedy_key(own, enemy, m))
                assert prefer(position, "greedy", moves) == expected, position.notation()
                checked += 1
                ties += len(expected) > 1
            position = position.play(rng.choice(position.legal_moves()))
    assert checked > 200 and ties > 0, (checked, ties)
