"""The opponent's one-pass move generation (prototest.games.chessmoves) against python-chess."""

from __future__ import annotations

import random

import chess
import pytest

from prototest.games import chess as judge_chess
from prototest.games import chessmoves

#: Positions the random games below reach rarely: pinned pawns that push, capture or
#: promote along the pin or not at all, en passant that uncovers a check along the rank,
#: en passant by a pinned pawn, castling through and out of attack, a king in check.
SPECIAL = [
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",  # mate
    "k7/P7/K7/8/8/8/8/8 b - - 0 1",  # stalemate by a pawn
    "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2",  # en passant would uncover the rook's check
    "4k3/8/8/1K1Pp2r/8/8/8/8 w - e6 0 2",
    "4k3/8/8/3Pp3/8/8/8/b3K3 w - e6 0 2",  # the bishop pins d5 along the diagonal
    "8/8/8/2k5/3Pp3/8/8/6BK b - d3 0 2",
    "4k3/8/8/8/8/8/4P3/4K2r w - - 0 1",
    "4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1",  # the pinned pawn pushes along the file
    "4k3/8/8/8/8/8/3P4/2K1r3 w - - 0 1",
    "4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1",
    "4k3/8/8/b7/8/2p5/3P4/4K3 w - - 0 1",  # the pinned pawn captures along the pin's line
    "4k3/8/8/8/b7/8/2P5/3K4 w - - 0 1",
    "3rk3/2P5/8/8/8/8/8/3K4 w - - 0 1",  # a promotion by capture, and one straight on
    "1r2k3/P7/8/8/8/8/8/K7 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1",  # f1 attacked: no O-O
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",  # in check
    "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


def _random_boards(games: int, seed: int) -> list[chess.Board]:
    """Boards of random games, every legal move drawn (underpromotions too)."""
    rng, boards = random.Random(seed), []
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 300:
            boards.append(board.copy(stack=False))
            board.push(rng.choice(list(board.legal_moves)))
    return boards


def _check(board: chess.Board) -> None:
    every = list(judge_chess.legal_moves(board))
    assert every == list(board.generate_legal_moves()), board.fen()
    assert chessmoves.generated(board) == [m for m in every if m.promotion in (None, chess.QUEEN)], board.fen()
    assert chessmoves.count_legal(board) == len(every), board.fen()
    assert chessmoves.has_legal_move(board) == bool(every), board.fen()


@pytest.mark.parametrize("fen", SPECIAL)
def test_special_positions(fen):
    _check(chess.Board(fen))


def test_random_games_give_python_chess_s_moves_in_its_order():
    """Thousands of positions: pins, checks, castling, en passant and promotions among them."""
    boards = _random_boards(60, 23)
    for board in boards:
        _check(board)
    assert len(boards) > 10_000


def _plain_situations(board: chess.Board) -> list[str]:
    """situations() as first written: every legal move asked what it is, every piece
    whether it is pinned."""
    legal = list(board.generate_legal_moves())
    names = [f"{name} available" for name, test in (("en passant", board.is_en_passant),
                                                     ("castling", board.is_castling),
                                                     ("promotion", lambda m: m.promotion is not None))
             if any(test(m) for m in legal)]
    if judge_chess._castling_refused(board):
        names.append("castling refused by an attacked square")
    if any(board.is_pinned(board.turn, sq) for sq in chess.SquareSet(board.occupied_co[board.turn])
           if board.piece_type_at(sq) != chess.KING):
        names.append("pinned piece")
    if board.is_check():
        names.append("in check")
    if len([m for m in legal if m.promotion in (None, chess.QUEEN)]) <= 3:
        names.append("three or fewer moves")
    if chess.popcount(board.occupied) <= 6:
        names.append("six or fewer pieces")
    return names


def _plain_measures(board: chess.Board) -> dict[str, float]:
    """measures() as first written: each pseudo-legal move asked whether it is legal."""
    gen = [m for m in board.generate_legal_moves() if m.promotion in (None, chess.QUEEN)]
    illegal = sum(1 for m in board.generate_pseudo_legal_moves() if not board.is_legal(m))
    rare = sum(1 for m in gen if board.is_en_passant(m) or board.is_castling(m) or m.promotion is not None)
    return {"chess: tempting but illegal": float(illegal + 3 * judge_chess._castling_refused(board)),
            "chess: rare moves listed": float(rare), "chess: cornered": -float(len(gen)),
            "chess: most moves": float(len(gen)), "chess: late": -float(chess.popcount(board.occupied))}


def test_situations_and_measures_count_what_asking_every_move_counts():
    """The quick counts (only the moves to the en passant square and the king's asked
    what they are; the illegal moves as pseudo-legal less legal; a pin from the king's
    slider blockers) equal the plain ones, position by position."""
    boards = [chess.Board(fen) for fen in SPECIAL] + _random_boards(15, 5)
    met: set[str] = set()
    for board in boards:
        position = judge_chess.ChessPosition(board, {})
        found = judge_chess.situations(position)
        assert found == _plain_situations(board), board.fen()
        assert judge_chess.measures(position) == _plain_measures(board), board.fen()
        met.update(found)
    assert met >= {"en passant available", "castling available", "promotion available", "pinned piece",
                   "castling refused by an attacked square", "in check"}
