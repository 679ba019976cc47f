"""Correct play shared by the broken chess bots; each bot overrides one hook of `Bot`.

Deliberately independent of the `prototest` package (a test bot must not break when
the code under test does). The play matches `prototest.bots.chess_bot`: mate in one,
else the best capture by MVV/LVA, else a quiet move seeded by the FEN; castling is
written `O-O`/`O-O-O`, promotions in four characters, never an underpromotion.
"""

from __future__ import annotations

import random
import sys
import time

import chess

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5,
          chess.QUEEN: 9, chess.KING: 100}


def candidates(board: chess.Board) -> list[chess.Move]:
    """Legal moves the protocol can write (no underpromotions), in UCI order."""
    return sorted((m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)),
                  key=chess.Move.uci)


def rng(board: chess.Board) -> random.Random:
    return random.Random(board.fen())


def mate_in_one(board: chess.Board, moves: list[chess.Move]) -> chess.Move | None:
    for move in moves:
        if board.gives_check(move):
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return move
    return None


def best_capture(board: chess.Board, moves: list[chess.Move]) -> chess.Move | None:
    def key(m: chess.Move) -> tuple[int, int]:
        victim = chess.PAWN if board.is_en_passant(m) else board.piece_type_at(m.to_square)
        return VALUES[victim], -VALUES[board.piece_type_at(m.from_square)]
    captures = [m for m in moves if board.is_capture(m)]
    return max(captures, key=key) if captures else None


def choose_move(board: chess.Board) -> chess.Move | None:
    moves = candidates(board)
    if not moves:
        return None
    return mate_in_one(board, moves) or best_capture(board, moves) or rng(board).choice(moves)


def format_move(board: chess.Board, move: chess.Move) -> str:
    if board.is_kingside_castling(move):
        return "O-O"
    if board.is_queenside_castling(move):
        return "O-O-O"
    return move.uci()[:4]


def parse_turn(line: str) -> tuple[str, int, int, str] | None:
    parts = line.split(None, 3)
    if len(parts) != 4:
        return None
    try:
        return parts[0], int(parts[1]), int(parts[2]), parts[3].strip()
    except ValueError:
        return None


def sleep_forever() -> None:
    while True:
        time.sleep(3600)


class Bot:
    """A correct bot. Hooks, in the order they run: start, (per turn) choose, format,
    send, on_status; on_eof when stdin ends or after a `D` status."""

    def __init__(self) -> None:
        self.turn = 0  # number of turn lines received so far
        self.colour: str | None = None

    def start(self) -> None:
        pass

    def choose(self, board: chess.Board) -> chess.Move | None:
        return choose_move(board)

    def format(self, board: chess.Board, move: chess.Move) -> str:
        return format_move(board, move)

    def send(self, text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def play_turn(self, last: str, mine: int, theirs: int, fen: str) -> None:
        board = chess.Board(fen)
        move = self.choose(board)
        if move is not None:
            self.send(self.format(board, move))

    def on_status(self, line: str) -> None:
        pass

    def on_eof(self) -> None:
        sys.exit(0)

    def run(self) -> None:
        self.start()
        line = sys.stdin.readline()
        if not line:
            return self.on_eof()
        self.colour = line.strip()
        while True:
            line = sys.stdin.readline()
            if not line:
                return self.on_eof()
            words = line.split()
            if not words:
                continue
            if words[0] in ("A", "D") and len(words) <= 2:
                if words[0] == "D":  # denied: the game is over
                    return self.on_eof()
                self.on_status(line)
                continue
            turn = parse_turn(line)
            if turn is not None:
                self.turn += 1
                self.play_turn(*turn)


# -- A move generator of the bot's own, for the bots that do not trust a library's legality --

KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_RAYS = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_RAYS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def own_attacked(board: chess.Board, square: int, by: chess.Color, *,
                 king_steps: tuple[tuple[int, int], ...] = KING_STEPS) -> bool:
    """Whether side `by` attacks `square`, worked out by hand (no `board.is_attacked_by`).

    With the default this is exact. `king_steps` are the steps from the attacked square
    to the squares a king attacks it from.
    """
    f, r = chess.square_file(square), chess.square_rank(square)

    def piece(df: int, dr: int) -> chess.Piece | None:
        x, y = f + df, r + dr
        return board.piece_at(chess.square(x, y)) if 0 <= x < 8 and 0 <= y < 8 else None

    def is_(p: chess.Piece | None, *types: int) -> bool:
        return p is not None and p.color == by and p.piece_type in types

    behind = -1 if by == chess.WHITE else 1  # a white pawn attacks from the rank below
    if is_(piece(-1, behind), chess.PAWN) or is_(piece(1, behind), chess.PAWN):
        return True
    if any(is_(piece(df, dr), chess.KNIGHT) for df, dr in KNIGHT_STEPS):
        return True
    if any(is_(piece(df, dr), chess.KING) for df, dr in king_steps):
        return True
    for rays, slider in ((ROOK_RAYS, chess.ROOK), (BISHOP_RAYS, chess.BISHOP)):
        for df, dr in rays:
            x, y = f + df, r + dr
            while 0 <= x < 8 and 0 <= y < 8:
                p = board.piece_at(chess.square(x, y))
                if p is not None:
                    if is_(p, slider, chess.QUEEN):
                        return True
                    break
                x, y = x + df, y + dr
    return False


def own_moves(board: chess.Board, **flags) -> list[chess.Move]:
    """The bot's own legal moves: pseudo-legal moves kept when its king is not attacked
    afterwards (by `own_attacked`, with `flags`). It never castles and promotes only to a
    queen. With the default flags these are `candidates(board)` without castling."""
    found = []
    for move in board.pseudo_legal_moves:
        if board.is_castling(move) or move.promotion not in (None, chess.QUEEN):
            continue
        after = board.copy(stack=False)
        after.push(move)
        king = after.king(board.turn)
        if king is not None and not own_attacked(after, king, not board.turn, **flags):
            found.append(move)
    return sorted(found, key=chess.Move.uci)


def choose_among(board: chess.Board, moves: list[chess.Move]) -> chess.Move | None:
    """`choose_move`'s policy over a list of the bot's own."""
    if not moves:
        return None
    return mate_in_one(board, moves) or best_capture(board, moves) or rng(board).choice(moves)
