"""Chess under the chess judge's move strings, on python-chess's rules.

The judge's move strings differ from UCI in two ways, both choices recorded in
`specs/chess.toml`: castling is `O-O` / `O-O-O`, and a promotion is written in four
characters and always makes a queen (so underpromotions cannot be played). This module
never re-implements a rule: legality, check and the end of the game come from
`chess.Board`; what it adds is the judge's notation and the *reason* a move is refused.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterable, Iterator, Set as AbstractSet
from typing import Any, Mapping, Sequence

import chess

from . import chessmoves, draw
from .base import (IllegalMove, Judged, OptionError, Outcome, PositionError, best_scored, bundled_spec,
                   take_options)

#: The game's spec and the bot that plays it (see base.py: a registered game's module).
SPEC = bundled_spec("chess.toml")
BOT = "prototest.bots.chess_bot"

DEFAULT_OPTIONS: dict[str, Any] = {
    "en_passant": "always",
    "king_move_castling": "warn",
    "draws": "automatic",
}

_OPTION_VALUES = {
    "en_passant": ("always", "legal"),
    "king_move_castling": ("warn", "fail", "accept"),
    "draws": ("automatic",),
}


def move_string(board: chess.Board, move: chess.Move) -> str:
    """The judge's string for a legal move of `board`."""
    if board.is_castling(move):
        return "O-O" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "O-O-O"
    return chess.square_name(move.from_square) + chess.square_name(move.to_square)


def _judge_moves(board: chess.Board) -> dict[str, chess.Move]:
    """Legal moves keyed by judge string; promotions only to a queen."""
    return {
        move_string(board, m): m
        for m in board.legal_moves
        if m.promotion in (None, chess.QUEEN)
    }


class ChessPosition:
    """An immutable position: a `chess.Board` without its move stack, plus a link to the
    position before it. Copying a board *with* its stack on every ply made a game
    quadratic; the links keep what fivefold repetition needs at the cost of one pointer."""

    __slots__ = ("board", "_options", "_moves", "_parent", "_key", "_generated", "_chosen", "_checks")

    def __init__(self, board: chess.Board, options: Mapping[str, Any],
                 parent: "ChessPosition | None" = None) -> None:
        self.board = board
        self._options = options
        self._moves: dict[str, chess.Move] | None = None
        self._parent = parent
        self._key: object = None  # the transposition key, computed when repetition matters
        self._generated: list[chess.Move] | None = None  # legal moves, queen promotions only
        self._chosen: tuple[str, chess.Move] | None = None  # the opponent's pick, known legal
        self._checks: Checks | None = None  # the opponent's check test, made when first asked

    def checks(self) -> "Checks":
        """Whether a legal move gives check, as `Checks` tells it (made once a position)."""
        if self._checks is None:
            self._checks = Checks(self.board)
        return self._checks

    def generated(self) -> list[chess.Move]:
        """Legal moves in python-chess's generation order (fixed for a position), queen
        promotions only (see prototest.games.chessmoves)."""
        if self._generated is None:
            self._generated = chessmoves.generated(self.board)
        return self._generated

    # -- the Position protocol --------------------------------------------------------
    def turn(self) -> int:
        return 0 if self.board.turn == chess.WHITE else 1

    def ply(self) -> int:
        return self.board.ply()

    def moves_by_string(self) -> dict[str, chess.Move]:
        if self._moves is None:
            self._moves = _judge_moves(self.board)
        return self._moves

    def legal_moves(self) -> list[str]:
        return sorted(self.moves_by_string())

    def judge(self, move: str) -> Judged:
        if self._chosen is not None and self._chosen[0] == move:
            return Judged(self._after(self._chosen[1]), move)
        candidate = self._parse(move)
        if candidate is None or not self.board.is_legal(candidate):
            raise IllegalMove(move, explain(self.board, move, self.history()), malformed=_malformed(move))
        if self.board.is_castling(candidate) and move not in ("O-O", "O-O-O"):
            written = move_string(self.board, candidate)
            policy = self._options["king_move_castling"]
            if policy == "fail":
                raise IllegalMove(move, f"castling is written {written}, not {move}")
            warnings: tuple[str, ...] = ()
            if policy == "warn":
                warnings = (f"malformed: castling written as {move}, the statement defines {written}; "
                            f"a strict judge refuses {move}",)
            return Judged(self._after(candidate), written, warnings)
        return Judged(self._after(candidate), move)

    def _parse(self, move: str) -> chess.Move | None:
        """The move a judge string names, legal or not; None when it names none."""
        board = self.board
        if move in ("O-O", "O-O-O"):
            king = board.king(board.turn)
            if king is None or king not in (chess.E1, chess.E8):
                return None
            return chess.Move(king, king + (2 if move == "O-O" else -2))
        if len(move) != 4:
            return None
        try:
            frm, to = chess.parse_square(move[:2]), chess.parse_square(move[2:])
        except ValueError:
            return None
        piece = board.piece_type_at(frm)
        promotion = chess.QUEEN if piece == chess.PAWN and chess.square_rank(to) in (0, 7) else None
        return chessmoves.move(frm, to, promotion)

    def play(self, move: str) -> "ChessPosition":
        return self.judge(move).position

    def history(self) -> list[chess.Board]:
        """The boards before this one, the latest first, as far as the game is known."""
        boards, node = [], self._parent
        while node is not None:
            boards.append(node.board)
            node = node._parent
        return boards

    def outcome(self) -> Outcome | None:
        """The endings that need no claim, as `Board.outcome(claim_draw=False)` has them."""
        board = self.board
        winner = 1 if board.turn == chess.WHITE else 0
        has_move = bool(self._generated) if self._generated is not None else chessmoves.has_legal_move(board)
        if not has_move:
            return Outcome(winner, "checkmate") if board.is_check() else Outcome(None, "stalemate")
        if board.is_insufficient_material():
            return Outcome(None, "insufficient material")
        if board.halfmove_clock >= 150:
            return Outcome(None, "75-move rule")
        if self._repetitions() >= 5:
            return Outcome(None, "fivefold repetition")
        return None

    def _repetitions(self) -> int:
        """How often this position stood since the last capture or pawn move. A fifth
        occurrence needs 16 reversible plies, so most positions never compute a key."""
        back = self.board.halfmove_clock
        if back < 16:
            return 1
        count, node, key = 1, self._parent, self.key()
        while node is not None and back > 0:
            if node.key() == key:
                count += 1
            node, back = node._parent, back - 1
        return count

    def key(self) -> object:
        if self._key is None:
            self._key = self.board._transposition_key()
        return self._key

    def notation(self) -> str:
        board = self.board
        if self._options["en_passant"] != "always":
            return board.fen(en_passant="legal")
        ep = chess.SQUARE_NAMES[board.ep_square] if board.ep_square is not None else "-"
        castling = board.castling_xfen() if board.castling_rights else "-"  # python-chess's answer without rights
        return (f"{fast_board_fen(board)} {'w' if board.turn else 'b'} {castling} {ep} "
                f"{board.halfmove_clock} {board.fullmove_number}")

    def board_lines(self) -> list[str]:
        return str(self.board).replace(" ", "").splitlines()

    # -- helpers --------------------------------------------------------------------------
    def _after(self, move: chess.Move) -> "ChessPosition":
        board = self.board.copy(stack=False)
        board.push(move)
        return ChessPosition(board, self._options, self)


def legal_moves(board: chess.Board) -> Iterator[chess.Move]:
    """`board.generate_legal_moves()`, the same moves in the same order, a third faster
    out of check: python-chess's test of each pseudo-legal move (`_is_safe`, a call that
    asks whether it castles and whether it takes en passant) is written out here, and
    asked only of king moves and en passant. In check (or without a king), python-chess's
    own generator."""
    turn = board.turn
    king = board.king(turn)
    if king is None or board.attackers_mask(not turn, king):
        yield from board.generate_legal_moves()
        return
    blockers, king_bb, ep, squares, rays = board._slider_blockers(king), chess.BB_SQUARES[king], board.ep_square, \
        chess.BB_SQUARES, chess.BB_RAYS
    for move in board.generate_pseudo_legal_moves():
        frm = move.from_square
        if frm == king:
            if board.is_castling(move) or not board.is_attacked_by(not turn, move.to_square):
                yield move
        elif move.to_square == ep and board.is_en_passant(move):
            if board._is_safe(king, blockers, move):
                yield move
        elif not blockers & squares[frm] or rays[frm][move.to_square] & king_bb:
            yield move


_RUNS = [("1" * n, str(n)) for n in range(8, 1, -1)]


def fast_board_fen(board: chess.Board) -> str:
    """`board.board_fen()` from the piece bitboards: the judge builds one FEN per
    exchange, and python-chess's square-by-square version was a fifth of its cost."""
    cells = ["1"] * 64
    white = board.occupied_co[chess.WHITE]
    for mask, upper, lower in ((board.pawns, "P", "p"), (board.knights, "N", "n"), (board.bishops, "B", "b"),
                               (board.rooks, "R", "r"), (board.queens, "Q", "q"), (board.kings, "K", "k")):
        for bb, symbol in ((mask & white, upper), (mask & ~white, lower)):
            while bb:
                square = bb.bit_length() - 1
                cells[square] = symbol
                bb ^= 1 << square
    join = "".join
    text = "/".join([join(cells[56:64]), join(cells[48:56]), join(cells[40:48]), join(cells[32:40]),
                     join(cells[24:32]), join(cells[16:24]), join(cells[8:16]), join(cells[0:8])])
    for run, digit in _RUNS:
        if run in text:
            text = text.replace(run, digit)
    return text


def _malformed(move: str) -> bool:
    if move in ("O-O", "O-O-O"):
        return False
    if len(move) != 4:
        return True
    try:
        chess.parse_square(move[:2]), chess.parse_square(move[2:])
    except ValueError:
        return True
    return False


def explain(board: chess.Board, move: str, history: Sequence[chess.Board] = ()) -> str:
    """Why the judge refuses `move` in `board`: one sentence a bot author can act on.
    `history`, the boards before it (the latest first), lets a lost castling right be
    told by what lost it."""
    if move in ("O-O", "O-O-O"):
        return _explain_castling(board, move, history)
    if len(move) == 5 and move[4] in "qrbnQRBN":
        return f"promotion needs four characters: write {move[:4]} (the pawn becomes a queen)"
    if len(move) != 4:
        return f"a move is four characters like e2e4, or O-O / O-O-O; got {len(move)} characters"
    try:
        frm, to = chess.parse_square(move[:2]), chess.parse_square(move[2:])
    except ValueError:
        return f"{move!r} does not name two squares a1..h8"
    colour = "white" if board.turn == chess.WHITE else "black"
    piece = board.piece_at(frm)
    if piece is None:
        return f"no piece of yours on {move[:2]} (the square is empty)"
    if piece.color != board.turn:
        return f"no piece of yours on {move[:2]} ({colour} to move; that is the opponent's {chess.piece_name(piece.piece_type)})"
    if frm == to:
        return "the from-square and the to-square are the same"
    target = board.piece_at(to)
    if target is not None and target.color == board.turn:
        return f"{move[2:]} holds your own {chess.piece_name(target.piece_type)}"
    uci = chess.Move(frm, to, promotion=chess.QUEEN if _reaches_last_rank(piece, to) else None)
    if piece.piece_type == chess.KING and abs(chess.square_file(frm) - chess.square_file(to)) == 2:
        return "castling is written O-O or O-O-O, and here it is not legal: " + _explain_castling(
            board, "O-O" if to > frm else "O-O-O", history)
    if not board.is_pseudo_legal(uci):
        return f"a {chess.piece_name(piece.piece_type)} cannot move from {move[:2]} to {move[2:]}" + _pawn_detail(board, piece, frm, to)
    return _explain_check(board, uci)


def _reaches_last_rank(piece: chess.Piece, to: chess.Square) -> bool:
    return piece.piece_type == chess.PAWN and chess.square_rank(to) in (0, 7)


def _pawn_detail(board: chess.Board, piece: chess.Piece, frm: int, to: int) -> str:
    if piece.piece_type != chess.PAWN:
        return ""
    if chess.square_file(frm) != chess.square_file(to) and board.piece_at(to) is None:
        if board.ep_square == to:
            return ""
        return " (a pawn captures diagonally only onto an enemy piece or the en-passant square)"
    if chess.square_file(frm) == chess.square_file(to) and board.piece_at(to) is not None:
        return f" ({chess.square_name(to)} is occupied: a pawn cannot capture straight ahead)"
    ep = board.ep_square
    if (ep is not None and chess.square_rank(frm) == chess.square_rank(to)
            and abs(chess.square_file(frm) - chess.square_file(to)) == 1
            and chess.square_file(to) == chess.square_file(ep)):
        return (f" (an en passant capture lands behind the pawn it takes: "
                f"write {chess.square_name(frm)}{chess.square_name(ep)})")
    return ""


def _explain_check(board: chess.Board, move: chess.Move) -> str:
    if board.is_check():
        return "your king is in check and this move does not get it out of check"
    if board.piece_type_at(move.from_square) == chess.KING:
        return f"the king would move into check on {chess.square_name(move.to_square)}"
    return "this move leaves your own king in check (the piece is pinned)"


def _explain_castling(board: chess.Board, move: str, history: Sequence[chess.Board] = ()) -> str:
    side = board.turn
    king = board.king(side)
    rank = 0 if side == chess.WHITE else 7
    kingside = move == "O-O"
    rights = board.has_kingside_castling_rights(side) if kingside else board.has_queenside_castling_rights(side)
    if not rights:
        wing = "kingside" if kingside else "queenside"
        return f"no {wing} castling right ({_right_lost(board, side, kingside, history)})"
    if board.is_check():
        return "castling out of check is not allowed"
    path = [chess.square(f, rank) for f in ((5, 6) if kingside else (1, 2, 3))]
    blocked = [chess.square_name(s) for s in path if board.piece_at(s) is not None]
    if blocked:
        return f"castling is blocked: {', '.join(blocked)} must be empty"
    through = [chess.square(f, rank) for f in ((5, 6) if kingside else (3, 2))]
    for s in through:
        if board.is_attacked_by(not side, s):
            return f"castling through or into an attacked square ({chess.square_name(s)})"
    return f"castling is not legal here (king on {chess.square_name(king) if king is not None else '?'})"


def _right_lost(board: chess.Board, side: chess.Color, kingside: bool, history: Sequence[chess.Board]) -> str:
    """What took a castling right away: the move that lost it, found in the history, or
    failing that what the board shows now."""
    corner = chess.square(7 if kingside else 0, 0 if side == chess.WHITE else 7)
    corner_name = chess.square_name(corner)
    after = board
    for before in history:  # the latest first: find the move after which the right was gone
        if _has_right(before, side, kingside):
            return _what_moved(before, after, side, corner)
        after = before
    piece = board.piece_at(corner)
    if piece is not None and piece.color != side:
        return (f"no rook of yours on {corner_name}: the opponent's {chess.piece_name(piece.piece_type)} "
                f"stands there, so that rook was captured")
    return "the king or that rook has moved, or the rook was captured"


def _has_right(board: chess.Board, side: chess.Color, kingside: bool) -> bool:
    return board.has_kingside_castling_rights(side) if kingside else board.has_queenside_castling_rights(side)


def _what_moved(before: chess.Board, after: chess.Board, side: chess.Color, corner: chess.Square) -> str:
    """What the move from `before` to `after` did that took the right."""
    corner_name, ply = chess.square_name(corner), before.ply() + 1
    taker = after.piece_at(corner)
    if before.piece_at(corner) == chess.Piece(chess.ROOK, side) and taker is not None and taker.color != side:
        return (f"the rook on {corner_name} was captured there by the opponent's "
                f"{chess.piece_name(taker.piece_type)} on ply {ply}")
    if before.king(side) != after.king(side):
        return f"the king moved on ply {ply}"
    return f"the rook on {corner_name} moved on ply {ply}"


class ChessRules:
    #: The judge lists a promotion once (its 4-character moves promote to a queen); the
    #: perft engine authors compare with counts all four, past draws by rule too.
    perft_counts = "python-chess's legal moves, every promotion counted, as published perft figures count"
    #: No turn limit: a game ends by mate, stalemate, the 75-move rule, fivefold repetition
    #: or lack of material (python-chess's automatic draws).
    max_plies: int | None = None

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = options

    def initial(self) -> ChessPosition:
        return ChessPosition(chess.Board(), self.options)

    def parse(self, notation: str) -> ChessPosition:
        try:
            board = chess.Board(notation)
        except ValueError as exc:
            raise PositionError(f"not a valid FEN: {exc}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            problems = [f.name.lower().replace("_", " ") for f in chess.Status if f and f in status]
            raise PositionError(f"not a legal chess position: {', '.join(problems)}")
        return ChessPosition(board, self.options)

    def perft(self, position: ChessPosition, depth: int) -> int:
        """Standard perft (every promotion counted), comparable with published figures."""
        return _perft(position.board.copy(stack=False), depth)

    def divide(self, position: ChessPosition, depth: int) -> list[tuple[str, int]]:
        board = position.board.copy(stack=False)
        out = []
        for move in board.legal_moves:
            board.push(move)
            out.append((move.uci(), _perft(board, depth - 1)))
            board.pop()
        return out


def _perft(board: chess.Board, depth: int) -> int:
    if depth <= 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _perft(board, depth - 1)
        board.pop()
    return total


def make_rules(options: Mapping[str, Any]) -> ChessRules:
    merged = take_options(options, DEFAULT_OPTIONS)
    for key, allowed in _OPTION_VALUES.items():
        if merged[key] not in allowed:
            raise OptionError(key, f"must be one of {', '.join(allowed)}; got {merged[key]!r}")
    return ChessRules(merged)


def choose_move(position: ChessPosition, rng: random.Random, style: str = "random") -> str:
    """A seeded random legal mover (queen promotions only): the bundled reference bot's
    fallback and the play of the broken test bots; the judge's opponents are in
    `prefer` (see prototest.games.opponents).

    It draws from python-chess's generation order, which is fixed for a position, and
    names only the move it picks: building every move's string cost more than the draw."""
    moves = position.generated()
    move = moves[rng.randrange(len(moves))]
    text = move_string(position.board, move)
    position._chosen = (text, move)
    return text


# -- opponent styles and fuzzing hooks (see games/base.py) ---------------------------------

#: Opponent styles (see prototest.games.opponents): "random" plays any allowed move; the others
#: prefer one kind of move and fall back to any when there is none.
STYLES = ("random", "greedy", "checking", "smothering", "passive", "pawn-storm", "king-walk", "generous")
#: Move classes a swarm opponent may never play.
MOVE_CLASSES = ("capture", "check", "castling", "en passant", "promotion", "pawn move", "king move")
#: The moves that make no progress (the halfmove clock counts them; checks too, which may
#: leave only a capture), which a quiet stretch of a start position never plays, and how many
#: plies it plays (see prototest.play.fuzz): up to the draw rules' boundary, the fifty-move claim
#: at 100 and the 75-move end at 150 (GNU Chess 6 judges every move a draw from 100 on,
#: searches to depth 63 in two milliseconds and sometimes dies of its own output there).
QUIET_CLASSES = ("capture", "pawn move", "check")
QUIET_PLIES = (90, 150)
#: Before its quiet stretch, a start position thins the board out: both sides play this
#: style (captures first) for a number of plies drawn from THINNING_PLIES, so the stretch
#: is a long ending (what GNU Chess dies in; with a full board it did not).
THINNING_STYLE, THINNING_PLIES = "greedy", (40, 120)
_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
#: Smothering weighs at most this many moves (each costs a count of the replies).
_SMOTHER_LIMIT = 40


def gives_check(board: chess.Board, move: chess.Move) -> bool:
    """`board.gives_check(move)` for a legal move, without playing it (python-chess plays
    and takes back the move: 10 times slower). The moved piece's attacks from its new
    square, and the attacks of the others through the square it left, on the other
    king; castling, en passant and promotions, rare, ask python-chess."""
    if move.promotion is not None or board.is_castling(move) or board.is_en_passant(move):
        return board.gives_check(move)
    us = board.turn
    king = board.king(not us)
    if king is None:
        return False
    frm, to = move.from_square, move.to_square
    occupied = (board.occupied & ~chess.BB_SQUARES[frm]) | chess.BB_SQUARES[to]
    if board.attackers_mask(us, king, occupied) & ~chess.BB_SQUARES[frm]:
        return True  # a discovered check (the moved piece's old square left out)
    piece = board.piece_type_at(frm)
    target = chess.BB_SQUARES[king]
    if piece == chess.PAWN:
        return bool(chess.BB_PAWN_ATTACKS[us][to] & target)
    if piece == chess.KNIGHT:
        return bool(chess.BB_KNIGHT_ATTACKS[to] & target)
    attacks = 0
    if piece in (chess.BISHOP, chess.QUEEN):
        attacks |= chess.BB_DIAG_ATTACKS[to][chess.BB_DIAG_MASKS[to] & occupied]
    if piece in (chess.ROOK, chess.QUEEN):
        attacks |= (chess.BB_RANK_ATTACKS[to][chess.BB_RANK_MASKS[to] & occupied]
                    | chess.BB_FILE_ATTACKS[to][chess.BB_FILE_MASKS[to] & occupied])
    return bool(attacks & target)


class Checks:
    """`board.gives_check(move)` for the legal moves of one board, each in a few bit
    operations: what makes a check is worked out once for the board (Stockfish's "check
    squares" and "discovered check candidates"), not once a move as `gives_check` does.

    * A direct check: the moved piece lands on a square from which a piece of its type
      attacks the other king through the board as it is. The square the piece leaves
      cannot open that line: it would lie between, and the piece there would attack the
      king already (the side not to move in check: an illegal position, see below).
    * A discovered check: the moved piece is the only one between a rook, bishop or queen
      of the side to move and the other king, and it leaves that line.
    * Castling, en passant and promotions (rare) ask python-chess, as does every move of a
      board whose side not to move is in check (never reached by play: positions are
      checked when set up), where the reasoning above does not hold."""

    __slots__ = ("board", "direct", "discover", "king", "slow")

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        us = board.turn
        king = board.king(not us)
        self.king = king
        self.slow = king is None or board.is_attacked_by(us, king)
        self.direct: dict[int, int] = {}
        self.discover = 0
        if self.slow or king is None:
            return
        occupied = board.occupied
        diagonal = chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & occupied]
        straight = (chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & occupied]
                    | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & occupied])
        self.direct = {chess.PAWN: chess.BB_PAWN_ATTACKS[not us][king], chess.KNIGHT: chess.BB_KNIGHT_ATTACKS[king],
                       chess.BISHOP: diagonal, chess.ROOK: straight, chess.QUEEN: diagonal | straight, chess.KING: 0}
        ours = board.occupied_co[us]
        snipers = ours & (((chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0])
                           & (board.rooks | board.queens))
                          | (chess.BB_DIAG_ATTACKS[king][0] & (board.bishops | board.queens)))
        while snipers:
            sniper = snipers & -snipers
            snipers ^= sniper
            between = chess.between(king, sniper.bit_length() - 1) & occupied
            if between and not between & (between - 1) and between & ours:  # one piece, ours
                self.discover |= between

    def __call__(self, move: chess.Move) -> bool:
        board = self.board
        frm, to = move.from_square, move.to_square
        if self.slow or move.promotion is not None or (board.kings & chess.BB_SQUARES[frm] and (
                abs((frm & 7) - (to & 7)) > 1 or board.rooks & board.occupied_co[board.turn] & chess.BB_SQUARES[to])) \
                or (to == board.ep_square and board.pawns & chess.BB_SQUARES[frm] and (frm ^ to) & 7):
            return board.gives_check(move)  # castling, en passant, a promotion (or a board not to reason on)
        if self.discover & chess.BB_SQUARES[frm] and not chess.BB_RAYS[frm][self.king] & chess.BB_SQUARES[to]:
            return True
        return bool(self.direct[board.piece_type_at(frm)] & chess.BB_SQUARES[to])  # type: ignore[index]


#: Each move class's test of a generated move.
_CLASS_TESTS: dict[str, Callable[[chess.Board, chess.Move], bool]] = {
    "capture": chess.Board.is_capture,
    "check": gives_check,
    "castling": chess.Board.is_castling,
    "en passant": chess.Board.is_en_passant,
    "promotion": lambda board, move: move.promotion is not None,
    "pawn move": lambda board, move: board.piece_type_at(move.from_square) == chess.PAWN,
    "king move": lambda board, move: board.piece_type_at(move.from_square) == chess.KING,
}
assert tuple(_CLASS_TESTS) == MOVE_CLASSES
#: The classes in the order the swarm filter tests them: the dearest last, so that a move
#: already of a cheaper omitted class is never tested for a check.
_CHEAP_FIRST = tuple(sorted(MOVE_CLASSES, key=lambda name: name == "check"))


def move_kinds(position: ChessPosition, move: chess.Move) -> AbstractSet[str]:
    """The classes of MOVE_CLASSES a generated move is of, each worked out when asked:
    `gives_check` plays the move, and the swarm filter asks only for the omitted classes
    (every class worked out for every move: swarm draws measured 1.4 times slower)."""
    return _Kinds(position.board, move)


class _Kinds(AbstractSet[str]):
    """A move's classes as a set whose members are tested when asked."""

    __slots__ = ("board", "move")

    def __init__(self, board: chess.Board, move: chess.Move) -> None:
        self.board, self.move = board, move

    def __contains__(self, name: object) -> bool:
        test = _CLASS_TESTS.get(name)  # type: ignore[call-overload]
        return test is not None and test(self.board, self.move)

    def isdisjoint(self, other: Iterable[object]) -> bool:
        board, move, wanted = self.board, self.move, set(other)
        for name in _CHEAP_FIRST:
            if name in wanted and _CLASS_TESTS[name](board, move):
                return False
        return True

    def __iter__(self) -> Iterator[str]:
        return (name for name, test in _CLASS_TESTS.items() if test(self.board, self.move))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def without_classes(position: ChessPosition, moves: Sequence[chess.Move], omit: AbstractSet[str]) -> list[chess.Move]:
    """The moves of `moves` of no class in `omit`, in their order: `move_kinds`'s answer
    for each (see prototest.games.opponents), worked out from the board's masks in one pass
    (the class tests one by one cost the opponent more than generating the moves)."""
    board = position.board
    capture, en_passant, castling = "capture" in omit, "en passant" in omit, "castling" in omit
    promotion, pawn_move, king_move = "promotion" in omit, "pawn move" in omit, "king move" in omit
    checks = position.checks() if "check" in omit else None
    theirs, own_rooks = board.occupied_co[not board.turn], board.rooks & board.occupied_co[board.turn]
    pawns, kings, ep, occupied, squares = board.pawns, board.kings, board.ep_square, board.occupied, chess.BB_SQUARES
    kept = []
    for move in moves:
        frm, to = move.from_square, move.to_square
        if pawns & squares[frm]:
            if pawn_move or (promotion and move.promotion is not None):
                continue
            if (capture or en_passant) and to == ep and abs(to - frm) in (7, 9) and not occupied & squares[to]:
                continue  # en passant (a capture too)
        elif kings & squares[frm]:
            if king_move or (castling and (abs((frm & 7) - (to & 7)) > 1 or own_rooks & squares[to])):
                continue
        if capture and theirs & squares[to]:
            continue
        if checks is not None and checks(move):
            continue
        kept.append(move)
    return kept


def opponent_candidates(position: ChessPosition) -> list[chess.Move]:
    """The opponent's moves in python-chess's generation order, as `chess.Move`s: only the
    one played is written as the judge writes it (`move_text`)."""
    return position.generated()


def move_text(position: ChessPosition, move: chess.Move) -> str:
    """The judge's string of a move `opponent_candidates` gave, noted as known legal."""
    text = move_string(position.board, move)
    position._chosen = (text, move)
    return text


def prefer(position: ChessPosition, style: str, moves: list[chess.Move]) -> list[chess.Move]:
    """The moves a style prefers (see games/base.py). greedy: the most valuable capture;
    checking: checks, else captures; smothering: the moves that leave the bot the fewest
    replies (mate first); passive: quiet piece moves (no capture, check or pawn move); pawn
    storm: the pawn moves that go furthest; king walk: king moves; generous: moves onto a
    square the bot attacks (it takes a lot, and the game thins out into an endgame)."""
    board = position.board
    squares = chess.BB_SQUARES
    if style == "greedy":
        return best_scored(moves, lambda m: _captured_value(board, m) * 10 - _VALUE[board.piece_type_at(m.from_square)]
                     if board.is_capture(m) else None)
    if style == "checking":
        checks = position.checks()
        return [m for m in moves if checks(m)] or [m for m in moves if board.is_capture(m)]
    if style == "smothering":
        return _fewest_replies(board, moves[:_SMOTHER_LIMIT])
    if style == "passive":
        checks, pawns, theirs = position.checks(), board.pawns, board.occupied_co[not board.turn]
        return [m for m in moves if not (theirs & squares[m.to_square] or pawns & squares[m.from_square])
                and not checks(m)]  # no capture (an en passant one moves a pawn), no pawn move, no check
    if style == "pawn-storm":
        ahead, pawns = (1 if board.turn == chess.WHITE else -1), board.pawns
        return best_scored(moves, lambda m: (m.to_square >> 3) * ahead if pawns & squares[m.from_square] else None)
    if style == "king-walk":
        kings = board.kings
        return [m for m in moves if kings & squares[m.from_square] and not board.is_castling(m)]
    if style == "generous":
        attacked, kings = _attacked_by(board, not board.turn), board.kings
        return [m for m in moves if attacked & squares[m.to_square] and not kings & squares[m.from_square]]
    raise ValueError(f"unknown style {style!r} (known: {', '.join(STYLES)})")


def _attacked_by(board: chess.Board, colour: chess.Color) -> int:
    """The squares `colour` attacks (`board.is_attacked_by(colour, square)` of every square
    at once: the union of its pieces' attacks)."""
    attacked, pieces = 0, board.occupied_co[colour]
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        attacked |= board.attacks_mask(low.bit_length() - 1)
    return attacked


def _captured_value(board: chess.Board, move: chess.Move) -> int:
    if board.is_en_passant(move):
        return _VALUE[chess.PAWN]
    return _VALUE.get(board.piece_type_at(move.to_square) or chess.PAWN, 0)


def _fewest_replies(board: chess.Board, moves: Sequence[chess.Move]) -> list[chess.Move]:
    """The moves that leave the other side the fewest legal replies (every promotion
    counted), in their order (as `best_scored` by minus the count); each move's replies
    are counted from the masks (chessmoves.count_legal), none of them made."""
    fewest, best = None, []
    for i, move in enumerate(moves):
        board.push(move)
        try:
            count = chessmoves.count_legal(board)
        finally:
            board.pop()
        if fewest is None or count < fewest:
            fewest, best = count, [i]
        elif count == fewest:
            best.append(i)
    return [moves[i] for i in sorted(best)]


#: Every name `situations` can give, for the summary of what a run did not reach.
SITUATIONS = ("en passant available", "castling available", "promotion available",
              "castling refused by an attacked square", "pinned piece", "in check", "three or fewer moves",
              "six or fewer pieces", "en passant", "castling", "promotion")


def situations(position: ChessPosition, move: str | None = None) -> list[str]:
    board = position.board
    if move is not None:
        played = position._parse(move)
        if played is None or not board.is_legal(played):
            return []
        return [name for name, test in _MOVE_KINDS if test(board, played)]
    gen = position.generated()
    ep, castling, promotion = _rare_moves(board, gen)
    names = [f"{name} available" for (name, _), count in zip(_MOVE_KINDS, (ep, castling, promotion)) if count]
    if _castling_refused(board):
        names.append("castling refused by an attacked square")
    if _pinned(board):
        names.append("pinned piece")
    if board.is_check():
        names.append("in check")
    if len(gen) <= 3:
        names.append("three or fewer moves")
    if chess.popcount(board.occupied) <= 6:
        names.append("six or fewer pieces")
    return names


_MOVE_KINDS = (
    ("en passant", chess.Board.is_en_passant),
    ("castling", chess.Board.is_castling),
    ("promotion", lambda board, m: m.promotion is not None),
)


def _rare_moves(board: chess.Board, gen: Sequence[chess.Move]) -> tuple[int, int, int]:
    """How many of the legal moves `gen` are en passant captures, castlings, promotions:
    only the moves to the en passant square and the king's are asked what they are."""
    ep_square, king = board.ep_square, board.king(board.turn)
    ep = sum(1 for m in gen if m.to_square == ep_square and board.is_en_passant(m)) if ep_square is not None else 0
    castling = sum(1 for m in gen if m.from_square == king and board.is_castling(m)) if king is not None else 0
    return ep, castling, sum(1 for m in gen if m.promotion is not None)


def measures(position: ChessPosition) -> dict[str, float]:
    """Where bots' own move generators break, as numbers the fuzz search keeps
    the furthest games of (prototest.play.elites):

    * tempting: moves a simpler reading of the rules allows and chess refuses (a
      pseudo-legal move that leaves the king in check: pins, a king stepping into check,
      an en passant capture that uncovers it; castling with the right and an empty path,
      refused for check or an attacked square);
    * rare: the rarely legal kinds in the bot's list (en passant, castling, promotion);
    * cornered: how few legal moves the bot has;
    * most moves: how many (move lists sized for the usual, orderings that cost too much
      in the most open positions);
    * late: how few pieces are left."""
    board = position.board
    gen = position.generated()
    ep, castling, promotion = _rare_moves(board, gen)
    return {"chess: tempting but illegal": float(_tempting(board, gen, promotion)),
            "chess: rare moves listed": float(ep + castling + promotion),
            "chess: cornered": -float(len(gen)), "chess: most moves": float(len(gen)),
            "chess: late": -float(chess.popcount(board.occupied))}


def _tempting(board: chess.Board, gen: Sequence[chess.Move], promotions: int) -> int:
    """Pseudo-legal moves that are illegal, and three for each castling refused. Every
    legal move is one of python-chess's pseudo-legal ones, and `gen` holds them all but
    the under-promotions (three a queen promotion): the illegal ones are the rest."""
    pseudo = sum(1 for _ in board.generate_pseudo_legal_moves())
    return pseudo - (len(gen) + 3 * promotions) + 3 * _castling_refused(board)


def _castling_refused(board: chess.Board) -> int:
    """Castlings the side to move has the right to and an empty path for, yet may not play."""
    refused = 0
    rank = 0 if board.turn == chess.WHITE else 7
    for kingside, between in ((True, (5, 6)), (False, (1, 2, 3))):
        rights = (board.has_kingside_castling_rights(board.turn) if kingside
                  else board.has_queenside_castling_rights(board.turn))
        if not rights or any(board.piece_at(chess.square(f, rank)) for f in between):
            continue
        king = board.king(board.turn)
        if king is None:
            continue
        move = chess.Move(king, king + (2 if kingside else -2))
        if not board.is_legal(move):
            refused += 1
    return refused


def _pinned(board: chess.Board) -> bool:
    """Whether a piece of the side to move is pinned to its king (the only piece between
    the king and an enemy slider on a line)."""
    king = board.king(board.turn)
    return king is not None and bool(board._slider_blockers(king))


def diagram(position: ChessPosition) -> list[str]:
    """The board as a bot author reads it: rank 8 at the top, files under it."""
    rows = str(position.board).splitlines()
    return [f"{8 - i} {row}" for i, row in enumerate(rows)] + ["  a b c d e f g h"]


# -- the board as a picture (see games/base.py and prototest.games.draw) --------------------------

_SQUARES = re.compile(r"\s*([a-h][1-8])([a-h][1-8])?[qrbnQRBN]?\s*")


def svg(position: ChessPosition, *, last: str | None = None, bad: str | None = None, flipped: bool = False) -> str:
    """The board as an SVG element: python-chess's pieces on prototest's board, the move
    just played tinted, a refused move in red, a king in check marked. Each piece is a
    `<use>` with `data-cell` (its square) and `data-piece` (its FEN letter)."""
    board = position.board
    grid = draw.Grid(8, 8, flipped)
    present = {piece.symbol() for piece in board.piece_map().values()}
    pieces = [draw.place(grid, draw.square_cell(square), f"chess-{_PIECE_ID[piece.symbol()]}",
                         chess.square_name(square), piece.symbol())
              for square, piece in sorted(board.piece_map().items())]
    king = board.king(board.turn) if board.is_check() else None
    check = "" if king is None else draw.ring(grid, draw.square_cell(king), draw.PALETTE["check"])
    mover = not board.turn
    return draw.root(
        "chess", position.notation(), grid,
        draw.defs(*(_piece_def(symbol) for symbol in sorted(present))),
        draw.chequered_8x8(grid),
        draw.played(grid, last, lambda move: _read_squares(board, move, mover)),
        "".join(pieces),
        check,
        draw.refused(grid, bad, lambda move: _read_squares(board, move, board.turn)))



def _read_squares(board: chess.Board, move: str, side: chess.Color) -> list[draw.Cell]:
    """The squares a move string names (castling: the king's from and to, for `side`:
    the judge castles only from e1 or e8); none when it names none."""
    if move in ("O-O", "O-O-O"):
        start = chess.E1 if side == chess.WHITE else chess.E8
        return [draw.square_cell(start), (6 if move == "O-O" else 2, 7 - chess.square_rank(start))]
    found = _SQUARES.fullmatch(move)
    if found is None:
        return []
    return [draw.square_cell(chess.parse_square(name)) for name in found.groups() if name]


_PIECE_ID = {symbol: ("w" if symbol.isupper() else "b") + symbol.lower() for symbol in "PNBRQKpnbrqk"}


@functools.cache
def _piece_def(symbol: str) -> str:
    """python-chess's drawing of a piece (45 units), scaled to a cell, as a `<defs>` entry."""
    import chess.svg

    text = chess.svg.PIECES[symbol]
    return re.sub(r'^<g id="[^"]*" class="[^"]*"',
                  f'<g id="chess-{_PIECE_ID[symbol]}" transform="scale({draw.CELL / 45:.4f})"', text)
