"""Chess move generation for the judge's opponent, from python-chess's bitboards in one pass.

The opponent draws from the legal moves in python-chess's generation order (fixed for a
position), and the smothering style counts the replies of each of its moves: together a
third of the judge's CPU time per ply, most of it python-chess's generators (a Move made,
yielded and tested one at a time, through several layers of calls). The two functions
here give the same answers with the board's masks, in one function each:

* `generated(board)`: the list `[m for m in legal_moves(board) if m.promotion in (None,
  QUEEN)]`, the same moves in the same order (see prototest.games.chess.legal_moves);
* `count_legal(board)`: `sum(1 for _ in legal_moves(board))`, every promotion counted
  (four moves), without making a move at all.

In check (or without a king) both ask python-chess's own generator, as `legal_moves`
does; so do en passant captures (their safety test) and castling (rare). Out of check, a
move is legal when it is pseudo-legal and: a king's step is onto a square the other side
does not attack; a piece pinned to its king moves along the pin's line; anything else
is. tests/test_chessmoves.py holds both to python-chess's answers over many positions.
"""

from __future__ import annotations

import chess

_SQUARES = chess.BB_SQUARES
_KNIGHT, _KING, _RAYS = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS, chess.BB_RAYS
_DIAG_ATTACKS, _DIAG_MASKS = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_RANK_ATTACKS, _RANK_MASKS = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATTACKS, _FILE_MASKS = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_BACKRANKS = chess.BB_RANKS[0] | chess.BB_RANKS[7]
_QUEEN, _Move = chess.QUEEN, chess.Move


def _move_tables() -> tuple[list[list[chess.Move | None]], dict[int, chess.Move]]:
    """Every move a piece can make on an empty board (along a line, or a knight's jump),
    made once: `_MOVES[from][to]`; and the pawns' promotions to a queen, by `from << 6 | to`.
    A chess.Move is a dataclass whose construction cost a third of `generated`; the moves
    are values (compared and hashed by their squares) that nothing changes, so one object
    serves every position."""
    table: list[list[chess.Move | None]] = []
    for frm in range(64):
        knight = chess.BB_KNIGHT_ATTACKS[frm]
        table.append([_Move(frm, to) if to != frm and (_RAYS[frm][to] or knight & _SQUARES[to]) else None
                      for to in range(64)])
    queening = {}
    for frm in list(range(8, 16)) + list(range(48, 56)):
        for to in range(64):
            if abs((to >> 3) - (frm >> 3)) == 1 and to >> 3 in (0, 7) and abs((to & 7) - (frm & 7)) <= 1:
                queening[frm << 6 | to] = _Move(frm, to, _QUEEN)
    return table, queening


_MOVES, _QUEENING = _move_tables()


def move(frm: int, to: int, promotion: int | None = None) -> chess.Move:
    """`chess.Move(frm, to, promotion)`, the made one where there is one."""
    if promotion is None:
        made = _MOVES[frm][to]
        if made is not None:
            return made
    elif promotion == _QUEEN:
        made = _QUEENING.get(frm << 6 | to)
        if made is not None:
            return made
    return _Move(frm, to, promotion)


def _in_check_or_kingless(board: chess.Board) -> int | None:
    """The king of the side to move, or None when it has none or is in check (then
    python-chess's generator answers)."""
    turn = board.turn
    king = board.king(turn)
    if king is None or board.attackers_mask(not turn, king):
        return None
    return king


def _piece_targets(board: chess.Board, frm: int, sq: int, occupied: int) -> int:
    """`board.attacks_mask(frm)` for a piece that is not a pawn (`sq`: its square's bit)."""
    if sq & board.knights:
        return _KNIGHT[frm]
    if sq & board.kings:
        return _KING[frm]
    targets = 0
    if sq & (board.bishops | board.queens):
        targets = _DIAG_ATTACKS[frm][_DIAG_MASKS[frm] & occupied]
    if sq & (board.rooks | board.queens):
        targets |= _RANK_ATTACKS[frm][_RANK_MASKS[frm] & occupied] | _FILE_ATTACKS[frm][_FILE_MASKS[frm] & occupied]
    return targets


def _safe_king_steps(board: chess.Board, targets: int) -> int:
    """The squares of `targets` the side not to move does not attack."""
    them = not board.turn
    safe = 0
    while targets:
        to = targets.bit_length() - 1
        bit = _SQUARES[to]
        targets ^= bit
        if not board.attackers_mask(them, to):
            safe |= bit
    return safe


def _pawn_pushes(board: chess.Board, pawns: int) -> tuple[int, int, int]:
    """(single pushes' target squares, double pushes' target squares, the step) of `pawns`."""
    empty = ~board.occupied
    if board.turn == chess.WHITE:
        single = pawns << 8 & empty
        return single, single << 8 & empty & (chess.BB_RANK_3 | chess.BB_RANK_4), 8
    single = pawns >> 8 & empty
    return single, single >> 8 & empty & (chess.BB_RANK_6 | chess.BB_RANK_5), -8


def generated(board: chess.Board) -> list[chess.Move]:
    """The legal moves of `board`, promotions to a queen only, in python-chess's
    generation order (see the module's docstring)."""
    king = _in_check_or_kingless(board)
    if king is None:
        return [m for m in board.generate_legal_moves() if m.promotion in (None, _QUEEN)]
    turn = board.turn
    ours, theirs, occupied = board.occupied_co[turn], board.occupied_co[not turn], board.occupied
    pinned = board._slider_blockers(king)
    moves: list[chess.Move] = []
    append = moves.append
    pieces = ours & ~board.pawns
    while pieces:  # pieces, the highest square first, each one's targets the highest first
        frm = pieces.bit_length() - 1
        sq = _SQUARES[frm]
        pieces ^= sq
        targets = _piece_targets(board, frm, sq, occupied) & ~ours
        if frm == king:
            targets = _safe_king_steps(board, targets)
        elif sq & pinned:
            targets &= _RAYS[king][frm]
        row = _MOVES[frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= _SQUARES[to]
            append(row[to])
    if board.castling_rights & _BACKRANKS & ours:
        for move in board.generate_castling_moves():
            if move.from_square == king or not pinned & _SQUARES[move.from_square] \
                    or _RAYS[move.from_square][move.to_square] & _SQUARES[king]:
                append(move)
    pawns = board.pawns & ours
    if not pawns:
        return moves
    attacks = _PAWN_ATTACKS[turn]
    capturers = pawns
    while capturers:
        frm = capturers.bit_length() - 1
        sq = _SQUARES[frm]
        capturers ^= sq
        targets = attacks[frm] & theirs
        if sq & pinned:
            targets &= _RAYS[king][frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= _SQUARES[to]
            append(_QUEENING[frm << 6 | to] if _SQUARES[to] & _BACKRANKS else _MOVES[frm][to])
    single, double, step = _pawn_pushes(board, pawns)
    for targets, back in ((single, step), (double, 2 * step)):
        while targets:
            to = targets.bit_length() - 1
            targets ^= _SQUARES[to]
            frm = to - back
            if _SQUARES[frm] & pinned and not _RAYS[king][frm] & _SQUARES[to]:
                continue
            append(_QUEENING[frm << 6 | to] if _SQUARES[to] & _BACKRANKS else _MOVES[frm][to])
    if board.ep_square:
        for move in board.generate_pseudo_legal_ep():
            if board._is_safe(king, pinned, move):
                append(move)
    return moves


def count_legal(board: chess.Board) -> int:
    """How many legal moves `board` has, every promotion counted as four (python-chess's
    count), worked out from the masks without making a move."""
    king = _in_check_or_kingless(board)
    if king is None:
        return sum(1 for _ in board.generate_legal_moves())
    turn = board.turn
    ours, theirs, occupied = board.occupied_co[turn], board.occupied_co[not turn], board.occupied
    pinned = board._slider_blockers(king)
    count = 0
    pieces = ours & ~board.pawns
    while pieces:
        frm = pieces.bit_length() - 1
        sq = _SQUARES[frm]
        pieces ^= sq
        targets = _piece_targets(board, frm, sq, occupied) & ~ours
        if frm == king:
            targets = _safe_king_steps(board, targets)
        elif sq & pinned:
            targets &= _RAYS[king][frm]
        count += targets.bit_count()
    if board.castling_rights & _BACKRANKS & ours:
        count += sum(1 for m in board.generate_castling_moves()
                     if m.from_square == king or not pinned & _SQUARES[m.from_square]
                     or _RAYS[m.from_square][m.to_square] & _SQUARES[king])
    pawns = board.pawns & ours
    if not pawns:
        return count
    free, held = pawns & ~pinned, pawns & pinned
    attacks = _PAWN_ATTACKS[turn]
    while pawns:
        frm = pawns.bit_length() - 1
        sq = _SQUARES[frm]
        pawns ^= sq
        targets = attacks[frm] & theirs
        if sq & held:
            targets &= _RAYS[king][frm]
        count += targets.bit_count() + 3 * (targets & _BACKRANKS).bit_count()
    single, double, step = _pawn_pushes(board, free)
    count += single.bit_count() + 3 * (single & _BACKRANKS).bit_count() + double.bit_count()
    if held:
        single, double, step = _pawn_pushes(board, held)
        for targets, back in ((single, step), (double, 2 * step)):
            while targets:
                to = targets.bit_length() - 1
                targets ^= _SQUARES[to]
                if _RAYS[king][to - back] & _SQUARES[to]:
                    count += 4 if _SQUARES[to] & _BACKRANKS else 1
    if board.ep_square:
        count += sum(1 for m in board.generate_pseudo_legal_ep() if board._is_safe(king, pinned, m))
    return count


def has_legal_move(board: chess.Board) -> bool:
    """Whether `board` has a legal move: out of check, most often a piece that is neither
    the king nor pinned and has a square to go to (the first one looked at); otherwise
    the moves are counted."""
    king = _in_check_or_kingless(board)
    if king is None:
        return any(True for _ in board.generate_legal_moves())
    ours, occupied = board.occupied_co[board.turn], board.occupied
    pieces = ours & ~board.pawns & ~board.kings & ~board._slider_blockers(king)
    while pieces:
        frm = pieces.bit_length() - 1
        sq = _SQUARES[frm]
        pieces ^= sq
        if _piece_targets(board, frm, sq, occupied) & ~ours:
            return True
    return count_legal(board) > 0
