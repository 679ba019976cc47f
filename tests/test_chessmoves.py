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
