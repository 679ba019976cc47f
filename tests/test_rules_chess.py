"""The chess rules adapter against python-chess itself, on reachable positions."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, strategies as st

from prototest.games import chess as judge_chess
from prototest.games.base import IllegalMove, PositionError
from prototest.play.strategies import move_sequences

RULES = judge_chess.make_rules({})
LEGAL_EP = judge_chess.make_rules({"en_passant": "legal"})


def board_after(moves: list[str]) -> tuple[chess.Board, object]:
    board, position = chess.Board(), RULES.initial()
    for move in moves:
        position = position.play(move)
        board.push(position.board.peek() if position.board.move_stack else _uci(board, move))
    return board, position


def _uci(board: chess.Board, move: str) -> chess.Move:
    if move in ("O-O", "O-O-O"):
        king = board.king(board.turn)
        return chess.Move(king, king + (2 if move == "O-O" else -2))
    m = chess.Move.from_uci(move)
    if board.piece_type_at(m.from_square) == chess.PAWN and chess.square_rank(m.to_square) in (0, 7):
        m.promotion = chess.QUEEN
    return m


@given(move_sequences(RULES, max_plies=80))
def test_moves_outcome_and_fen_agree_with_python_chess(moves):
    board, position = board_after(moves)
    expected = sorted(judge_chess.move_string(board, m) for m in board.legal_moves
                      if m.promotion in (None, chess.QUEEN))
    assert position.legal_moves() == expected
    assert position.notation() == board.fen(en_passant="fen")
    ours = position.outcome()
    theirs = board.outcome(claim_draw=False)
    assert (ours is None) == (theirs is None)
    if theirs is not None:
        assert ours.winner == (None if theirs.winner is None else (0 if theirs.winner else 1))
    assert RULES.parse(position.notation()).legal_moves() == position.legal_moves()


@given(move_sequences(RULES, max_plies=40), st.text(alphabet="abcdefgh12345678O-qx", min_size=0, max_size=6))
def test_any_string_is_judged_legal_only_if_python_chess_agrees(moves, text):
    board, position = board_after(moves)
    if position.outcome() is not None:
        return
    try:
        judged = position.judge(text)
    except IllegalMove as exc:
        assert exc.reason and text not in position.legal_moves()
        return
    assert judged.move in position.legal_moves()


def test_perft_matches_published_figures():
    assert [RULES.perft(RULES.initial(), d) for d in (1, 2, 3)] == [20, 400, 8902]
    kiwipete = RULES.parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert RULES.perft(kiwipete, 2) == 2039
    assert sum(n for _, n in RULES.divide(kiwipete, 2)) == 2039


def test_castling_and_promotion_strings():
    pos = RULES.parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"O-O", "O-O-O"} <= set(pos.legal_moves())
    assert "e1g1" not in pos.legal_moves()
    judged = pos.judge("e1g1")
    assert judged.move == "O-O" and judged.warnings and "malformed: castling written as e1g1" in judged.warnings[0]
    strict = judge_chess.make_rules({"king_move_castling": "fail"}).parse(pos.notation())
    with pytest.raises(IllegalMove, match="castling is written O-O"):
        strict.judge("e1g1")
    promo = RULES.parse("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert "e7e8" in promo.legal_moves() and not any(len(m) != 4 for m in promo.legal_moves() if m[0] != "O")
    assert promo.play("e7e8").board.piece_at(chess.E8) == chess.Piece(chess.QUEEN, chess.WHITE)


@pytest.mark.parametrize("fen,move,reason", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e3e4", "no piece of yours on e3"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e7e5", "opponent's pawn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "d1d3", "cannot move from d1 to d3"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "a1a2", "holds your own pawn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "O-O", "castling is blocked: f1, g1"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O", "no kingside castling right"),
    ("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O", "castling through or into an attacked square (f1)"),
    ("4k3/8/8/8/8/8/8/r3K2R w K - 0 1", "O-O", "castling out of check"),
    ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "leaves your own king in check"),
    ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1f1", "does not get it out of check"),
    ("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "promotion needs four characters"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1", "four characters"),
])
def test_illegal_moves_say_why(fen, move, reason):
    with pytest.raises(IllegalMove) as info:
        RULES.parse(fen).judge(move)
    assert reason in info.value.reason


#: White's h1 rook is taken on its corner by the b7 bishop (ply 6); f1 and g1 are then cleared.
ROOK_TAKEN = ["g2g3", "b7b6", "g1h3", "c8b7", "e2e3", "b7h1", "f1e2", "a7a6"]


@pytest.mark.parametrize("moves,reason", [
    (ROOK_TAKEN, "no kingside castling right (the rook on h1 was captured there by the opponent's bishop on ply 6)"),
    (ROOK_TAKEN[:-1] + ["h1b7"], "the rook on h1 was captured there by the opponent's bishop on ply 6"),  # gone again
    (["e2e4", "e7e5", "e1e2", "a7a6", "e2e1", "a6a5"], "no kingside castling right (the king moved on ply 3)"),
    (["h2h4", "a7a6", "h1h3", "a6a5", "h3h1", "a5a4", "g2g3", "b7b6", "g1f3", "b6b5", "f1g2", "b5b4"],
     "no kingside castling right (the rook on h1 moved on ply 3)"),
])
def test_a_lost_castling_right_is_told_by_what_lost_it(moves, reason):
    position = RULES.initial()
    for move in moves:
        position = position.play(move)
    with pytest.raises(IllegalMove) as info:
        position.judge("O-O")
    assert reason in info.value.reason, info.value.reason
    if moves == ROOK_TAKEN:  # f1 and g1 are empty: the king's two-square move gets the same reason
        with pytest.raises(IllegalMove) as info:
            position.judge("e1g1")
        assert info.value.reason == "castling is written O-O or O-O-O, and here it is not legal: " + reason


def test_a_captured_rook_is_named_without_the_history_too():
    """From a FEN the game before is unknown: the board still shows the capture."""
    position = RULES.initial()
    for move in ROOK_TAKEN:
        position = position.play(move)
    with pytest.raises(IllegalMove) as info:
        RULES.parse(position.notation()).judge("O-O")
    assert info.value.reason == ("no kingside castling right (no rook of yours on h1: the opponent's bishop "
                                 "stands there, so that rook was captured)")
    with pytest.raises(IllegalMove) as info:
        RULES.parse("4k3/8/8/8/8/8/8/4K2R w - - 0 1").judge("O-O")
    assert info.value.reason == ("no kingside castling right (the king or that rook has moved, or the rook "
                                 "was captured)")


def test_king_into_check_reason():
    with pytest.raises(IllegalMove, match="king would move into check on d8"):
        RULES.parse("4k3/8/8/8/8/8/8/3RK3 b - - 0 1").judge("e8d8")


def test_fivefold_repetition_and_75_move_rule():
    pos = RULES.initial()
    for _ in range(4):
        for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
            assert pos.outcome() is None
            pos = pos.play(move)
    assert pos.outcome().reason == "fivefold repetition"
    late = RULES.parse("4k3/8/8/8/8/8/8/R3K3 w - - 149 120").play("a1a2")
    assert late.outcome().reason == "75-move rule" and late.outcome().winner is None


def test_en_passant_field_conventions():
    after = RULES.initial().play("e2e4")
    assert after.notation().split()[3] == "e3"
    assert LEGAL_EP.initial().play("e2e4").notation().split()[3] == "-"


def test_bad_positions_are_refused():
    with pytest.raises(PositionError, match="not a valid FEN"):
        RULES.parse("nonsense")
    with pytest.raises(PositionError, match="not a legal chess position"):
        RULES.parse("8/8/8/8/8/8/8/8 w - - 0 1")


def test_the_opponents_gives_check_is_python_chess_s_on_every_legal_move():
    """chess.gives_check answers without playing the move; on every legal move of random
    games (castling, en passant and promotions among them) it is python-chess's answer."""
    import random

    import chess

    from prototest.games.chess import gives_check

    rng, compared, checks = random.Random(3), 0, 0
    for _ in range(40):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 250:
            for move in board.legal_moves:
                expected = board.gives_check(move)
                assert gives_check(board, move) == expected, (board.fen(), move.uci())
                compared, checks = compared + 1, checks + expected
            board.push(rng.choice(list(board.legal_moves)))
    assert compared > 100_000 and checks > 1000, (compared, checks)


def _random_positions(games: int, seed: int, every: int = 1):
    """Positions of random games (every legal move drawn, underpromotions too), as the
    judge's positions."""
    import random

    rng, found = random.Random(seed), []
    for _ in range(games):
        position = RULES.initial()
        while position.outcome() is None and position.ply() < 250:
            if position.ply() % every == 0:
                found.append(position)
            board = position.board.copy(stack=False)
            board.push(rng.choice(list(board.legal_moves)))
            position = judge_chess.ChessPosition(board, RULES.options, position)
    return found


def test_the_opponents_check_test_made_once_a_position_is_python_chess_s():
    """Checks (what a check is, worked out once a board) answers as python-chess for every
    legal move of random games: direct and discovered checks, castling, en passant and
    every promotion."""
    compared = checks = discovered = 0
    for position in _random_positions(30, 5):
        board, test = position.board, position.checks()
        for move in board.legal_moves:
            expected = board.gives_check(move)
            assert test(move) == expected, (board.fen(), move.uci())
            compared, checks = compared + 1, checks + expected
            discovered += expected and bool(test.discover & chess.BB_SQUARES[move.from_square])
    assert compared > 50_000 and checks > 1000 and discovered > 20, (compared, checks, discovered)


def test_the_judges_legal_moves_are_python_chess_s_in_its_order():
    """legal_moves (python-chess's legality test written out) gives exactly
    generate_legal_moves's list, in its order: pins, en passant, castling, checks."""
    compared = 0
    for position in _random_positions(40, 17):
        board = position.board
        assert list(judge_chess.legal_moves(board)) == list(board.generate_legal_moves()), board.fen()
        compared += 1
    assert compared > 4000, compared


def test_without_classes_keeps_what_move_kinds_keeps():
    """The opponent's one-pass filter leaves out exactly the moves `move_kinds` puts in an
    omitted class, for every single class, every class, and random sets of them."""
    import random

    rng = random.Random(7)
    classes = judge_chess.MOVE_CLASSES
    for position in _random_positions(12, 11, every=3):
        moves = position.generated()
        omits = [frozenset([c]) for c in classes] + [frozenset(classes)]
        omits += [frozenset(c for c in classes if rng.random() < 0.5) for _ in range(4)]
        for omit in omits:
            expected = [m for m in moves if judge_chess.move_kinds(position, m).isdisjoint(omit)]
            assert judge_chess.without_classes(position, moves, omit) == expected, (position.notation(), omit)


def _preferred_by_python_chess(board: chess.Board, style: str, moves: list[chess.Move]) -> list[chess.Move]:
    """What each style prefers, written with python-chess's own tests (the oracle)."""
    value = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}

    def best(score):
        scored = [(score(m), m) for m in moves if score(m) is not None]
        top = max((s for s, _ in scored), default=None)
        return [m for s, m in scored if s == top]

    if style == "greedy":
        return best(lambda m: (1 if board.is_en_passant(m) else value[board.piece_type_at(m.to_square)]) * 10
                    - value[board.piece_type_at(m.from_square)] if board.is_capture(m) else None)
    if style == "checking":
        return [m for m in moves if board.gives_check(m)] or [m for m in moves if board.is_capture(m)]
    if style == "smothering":
        counts = []
        for m in moves[:40]:
            board.push(m)
            counts.append(board.legal_moves.count())
            board.pop()
        return [m for m, c in zip(moves, counts) if c == min(counts)]
    if style == "passive":
        return [m for m in moves if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN
                and not board.gives_check(m)]
    if style == "pawn-storm":
        ahead = 1 if board.turn == chess.WHITE else -1
        return best(lambda m: chess.square_rank(m.to_square) * ahead
                    if board.piece_type_at(m.from_square) == chess.PAWN else None)
    if style == "king-walk":
        return [m for m in moves if board.piece_type_at(m.from_square) == chess.KING and not board.is_castling(m)]
    assert style == "generous"
    return [m for m in moves if board.is_attacked_by(not board.turn, m.to_square)
            and board.piece_type_at(m.from_square) != chess.KING]


def test_every_style_prefers_what_python_chess_s_own_tests_give():
    """prefer's mask and check-test shortcuts against the styles written plainly."""
    for position in _random_positions(10, 13, every=2):
        moves = position.generated()
        for style in judge_chess.STYLES[1:]:
            expected = _preferred_by_python_chess(position.board.copy(), style, moves)
            assert judge_chess.prefer(position, style, moves) == expected, (position.notation(), style)
