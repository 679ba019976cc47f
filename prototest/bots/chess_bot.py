#!/usr/bin/env python3
"""Reference bot for the chess judge protocol: small, fast and always correct.

Run it as `python3 -m prototest.bots.chess_bot` (or as an executable), or, installed,
as `prototest-chess-bot`. The protocol,
over stdin/stdout, one line each way:

* start-up: write nothing; read the colour line (`white` or `black`);
* each turn: read `<last move> <my time> <their time> <FEN>` (`NONE` when White
  starts; times in units of 10 ms; the FEN is the rest of the line), answer one move
  (`e2e4`, `O-O`, `O-O-O`; a promotion is four characters and becomes a queen) and
  flush;
* then read `<status> <time>`: `A` accepted, `D` denied (the game is over);
* when the judge closes stdin, exit with status 0.

Play: mate in one if there is one, else the best capture by MVV/LVA, else a quiet
move picked at random with the FEN as seed (so a position always gets the same
answer). Underpromotions are never chosen: the protocol cannot write them.
"""

from __future__ import annotations

import os
import random
import sys

import chess

#: Piece values for MVV/LVA (most valuable victim, least valuable attacker).
VALUES = {
    chess.PAWN: 1,
    chess.KNIGHT: 3,
    chess.BISHOP: 3,
    chess.ROOK: 5,
    chess.QUEEN: 9,
    chess.KING: 100,
}


def candidate_moves(board: chess.Board) -> list[chess.Move]:
    """Legal moves the protocol can write: all but underpromotions, in UCI order."""
    moves = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
    moves.sort(key=lambda m: m.uci())
    return moves


def mate_in_one(board: chess.Board, moves: list[chess.Move]) -> chess.Move | None:
    for move in moves:
        if not board.gives_check(move):
            continue
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move
    return None


def victim_value(board: chess.Board, move: chess.Move) -> int:
    if board.is_en_passant(move):
        return VALUES[chess.PAWN]
    return VALUES[board.piece_type_at(move.to_square)]


def best_capture(board: chess.Board, moves: list[chess.Move]) -> chess.Move | None:
    captures = [m for m in moves if board.is_capture(m)]
    if not captures:
        return None
    # Highest victim first, then cheapest attacker; ties keep UCI order (stable max).
    return max(
        captures,
        key=lambda m: (victim_value(board, m), -VALUES[board.piece_type_at(m.from_square)]),
    )


def choose_move(board: chess.Board) -> chess.Move | None:
    """The move to play, or None when there is no legal move (game over)."""
    moves = candidate_moves(board)
    if not moves:
        return None
    move = mate_in_one(board, moves) or best_capture(board, moves)
    if move is not None:
        return move
    return random.Random(board.fen()).choice(moves)


def format_move(board: chess.Board, move: chess.Move) -> str:
    """The move as the judge writes it: `O-O`, `O-O-O`, or four characters."""
    if board.is_kingside_castling(move):
        return "O-O"
    if board.is_queenside_castling(move):
        return "O-O-O"
    return move.uci()[:4]


def parse_turn(line: str) -> tuple[str, int, int, str] | None:
    """Split a turn line into (last move, my time, their time, FEN); None if not one."""
    parts = line.split(None, 3)
    if len(parts) != 4:
        return None
    last, mine, theirs, fen = parts
    try:
        return last, int(mine), int(theirs), fen.strip()
    except ValueError:
        return None


def answer(line: str) -> str | None:
    """The answer to one turn line (None when the position has no legal move)."""
    turn = parse_turn(line)
    if turn is None:
        return None
    board = chess.Board(turn[3])
    move = choose_move(board)
    return None if move is None else format_move(board, move)


def main() -> None:
    stdin, stdout = sys.stdin, sys.stdout
    try:
        if not stdin.readline():  # the colour line; the FEN says whose turn it is
            return
        for line in stdin:
            words = line.split()
            if not words:
                continue
            if words[0] in ("A", "D") and len(words) <= 2:  # a status line
                if words[0] == "D":
                    return
                continue
            move = answer(line)
            if move is not None:
                stdout.write(move + "\n")
                stdout.flush()
    except BrokenPipeError:
        # The judge went away; keep the interpreter's final flush from failing loudly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
    sys.exit(0)
