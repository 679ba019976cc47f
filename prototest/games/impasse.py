"""Impasse (Mark Steere) as the CodinGame referee acatai/CG_Impasse plays it.

Rules, as the referee's `GameState.java`, `Constants.java` and `Referee.java` implement
them:

* 8x8 board, files a..h, ranks 1..8. White (seat 0, told `w`) moves first. Each side
  has 12 checkers; `w`/`b` are singles, `W`/`B` doubles (two stacked checkers).
* White singles slide diagonally towards rank 8 and White doubles towards rank 1; Black
  mirrors. A slide goes any distance and stops before the first occupied square.
* Transpose: the top checker of a double moves onto an own single diagonally adjacent
  and one rank nearer the owner's nearest row, so the double and the single swap roles.
* A double that reaches its nearest row (rank 1 for White, 8 for Black) by a slide or a
  transpose bears off at once: its top checker leaves the board.
* With no slide and no transpose the side is at an impasse and removes one checker: a
  single, or the top of a double. Removals are listed only then.
* Crowning is mandatory: when, after the move above (bear-off included), the mover has a
  single on its furthest row (rank 8 for White, 1 for Black) and another single anywhere,
  one other single (the source) is lifted onto it. Every (target, source) pair is a turn.
* A turn is one string: `from to [source]` for a slide or transpose, `square [source]`
  for a removal: `d2f4`, `a1h8c7`, `f8g7c5`, `c3a1a1` (the single that the bear-off on
  a1 leaves crowns e8), `b6`, `h2h2`, `e8c8`. The target is implied, never written; nor
  is a bear-off. The list is sorted in plain ASCII order and matched exactly.
* A side with all 12 checkers off wins, checked after its own move. After 250 plies
  (`max_plies`) without a winner the game is drawn; a win on the last ply still counts.

Position notation, one line: the eight board rows, rank 8 first, each eight characters
from `.`, `w`, `W`, `b`, `B`, joined by `/`; a space; the side to move (`w` or `b`); a
space; the number of plies played so far. No digit compression. Checkers borne off or
removed are not stored: each side has 12 - (singles + 2 * doubles) off.

    .W.b.W.b/b.W.b.W./......../......../......../......../.B.w.B.w/w.B.w.B. w 0

Choices where the referee or the statement is silent:

* Crowning follows one rule for every kind of turn (slide, transpose, bear-off, either
  removal), computed from the singles the turn really leaves. The referee's code forgets
  the slid single as a crown source when it does not reach the furthest row and never
  crowns after removing a single; both differences need an uncrowned single beside
  another single at the start of the turn, which play never produces (see next point).
* `parse()` refuses what play cannot reach, so every parsed position is one the referee
  could show: a single on its furthest row beside another single of its side (it would
  have been crowned), a double on its own nearest row (it would have borne off), more
  than 12 checkers of a side, no checker on either side, and a side to move that has no
  checker left (it would have won on its previous move). The ply count need not match
  the side to move; it only drives the turn limit.
* Because of that invariant at most two singles stand on the furthest row, and then
  they are the only singles, so no two turns share a string. Should it happen anyway the
  string is listed once and means the crown onto the lower-lettered target.
* On a finished position `legal_moves()` is empty and `judge()` refuses every move with
  "the game is over"; the referee sends no further turn.
* `judge()` matches exactly. The referee's `random` answer and the comment after a space
  are the caller's business. Upper-case squares are malformed: the referee writes lower
  case and compares with `equals`.
"""

from __future__ import annotations

import random

import re
from typing import Any, Mapping

from .base import (
    best_scored,
    IllegalMove,
    Judged,
    OptionError,
    Outcome,
    PositionError,
    generic_perft,
    take_options,
    bundled_spec,
)
from . import draw

#: The game's spec and the bot that plays it (see base.py: a registered game's module).
SPEC = bundled_spec("impasse.toml")
BOT = "prototest.bots.impasse_bot"

DEFAULT_OPTIONS: dict[str, Any] = {"max_plies": 250}

WHITE, BLACK = 0, 1
EMPTY = "."
SINGLE = ("w", "b")
DOUBLE = ("W", "B")
SIDE_CHARS = "wb"
COLOUR = ("White", "Black")
CHECKERS = 12
#: 0-based rank of the furthest row (where singles are crowned) and of the nearest row
#: (where doubles bear off), per side.
CROWN_RANK = (7, 0)
HOME_RANK = (0, 7)
#: rank step of a single's slide per side; a double moves the other way.
FORWARD = (1, -1)

INITIAL_ROWS = (
    ".W.b.W.b",
    "b.W.b.W.",
    "........",
    "........",
    "........",
    "........",
    ".B.w.B.w",
    "w.B.w.B.",
)

#: One turn's effect: (square, new content) pairs applied in order.
Changes = tuple[tuple[int, str], ...]
Ray = tuple[int, ...]

# --------------------------------------------------------------------------------------
# Geometry, precomputed once. Square index = rank * 8 + file (a1 = 0, h8 = 63); a board
# is a 64-character string in that order, so `str.count` and slicing do the bookkeeping.

NAMES: tuple[str, ...] = tuple(f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}" for sq in range(64))
SQUARE_OF: dict[str, int] = {name: sq for sq, name in enumerate(NAMES)}


def _ray(sq: int, file_step: int, rank_step: int) -> Ray:
    """Squares from `sq` (excluded) to the board's edge along one diagonal."""
    squares = []
    file, rank = sq % 8 + file_step, sq // 8 + rank_step
    while 0 <= file < 8 and 0 <= rank < 8:
        squares.append(rank * 8 + file)
        file, rank = file + file_step, rank + rank_step
    return tuple(squares)


def _rays(rank_step: int) -> tuple[tuple[Ray, ...], ...]:
    """Per square, the non-empty diagonal rays that go `rank_step` ranks each step."""
    return tuple(
        tuple(ray for ray in (_ray(sq, -1, rank_step), _ray(sq, 1, rank_step)) if ray)
        for sq in range(64)
    )


#: [side][square] -> rays a single (forward) or a double (backward) slides along.
SINGLE_RAYS = (_rays(FORWARD[WHITE]), _rays(FORWARD[BLACK]))
DOUBLE_RAYS = (_rays(-FORWARD[WHITE]), _rays(-FORWARD[BLACK]))
#: [side][square] -> squares a double's crown may transpose to (first step backward).
TRANSPOSE_TARGETS: tuple[tuple[Ray, ...], ...] = tuple(
    tuple(tuple(ray[0] for ray in rays) for rays in DOUBLE_RAYS[side]) for side in (0, 1)
)

# --------------------------------------------------------------------------------------
# Turn generation: the whole turn (basic move or removal, bear-off, crown) at once, as
# {referee string: changes}. Dicts keep insertion order; listing sorts the keys.


def _offer(
    turns: dict[str, Changes],
    base: str,
    changes: Changes,
    singles_after: list[int],
    side: int,
) -> None:
    """Add one turn, expanded into one turn per crown (target, source) when crowning is due."""
    crown_rank = CROWN_RANK[side]
    targets = [sq for sq in singles_after if sq >> 3 == crown_rank]
    if not targets or len(singles_after) < 2:
        turns.setdefault(base, changes)
        return
    double = DOUBLE[side]
    for target in sorted(targets):
        for source in singles_after:
            if source != target:
                crown = ((source, EMPTY), (target, double))
                turns.setdefault(base + NAMES[source], changes + crown)


def _single_slides(board: str, side: int, singles: list[int], waiting: bool,
                   turns: dict[str, Changes]) -> None:
    """Singles slide forward; reaching the furthest row may call for a crown."""
    single, crown_rank = SINGLE[side], CROWN_RANK[side]
    rays = SINGLE_RAYS[side]
    for a in singles:
        for ray in rays[a]:
            for b in ray:
                if board[b] != EMPTY:
                    break
                changes = ((a, EMPTY), (b, single))
                base = NAMES[a] + NAMES[b]
                if waiting or b >> 3 == crown_rank:
                    after = [sq for sq in singles if sq != a]
                    after.append(b)
                    _offer(turns, base, changes, after, side)
                else:
                    turns[base] = changes


def _double_slides(board: str, side: int, singles: list[int], doubles: list[int],
                   waiting: bool, turns: dict[str, Changes]) -> None:
    """Doubles slide backward; reaching the nearest row bears off, leaving a single."""
    single, double, home = SINGLE[side], DOUBLE[side], HOME_RANK[side]
    rays = DOUBLE_RAYS[side]
    for a in doubles:
        for ray in rays[a]:
            for b in ray:
                if board[b] != EMPTY:
                    break
                base = NAMES[a] + NAMES[b]
                if b >> 3 == home:
                    _offer(turns, base, ((a, EMPTY), (b, single)), singles + [b], side)
                elif waiting:
                    _offer(turns, base, ((a, EMPTY), (b, double)), singles, side)
                else:
                    turns[base] = ((a, EMPTY), (b, double))


def _transposes(board: str, side: int, singles: list[int], doubles: list[int],
                waiting: bool, turns: dict[str, Changes]) -> None:
    """A double's crown moves onto an adjacent own single one rank nearer home."""
    single, double = SINGLE[side], DOUBLE[side]
    home, crown_rank = HOME_RANK[side], CROWN_RANK[side]
    for a in doubles:
        for b in TRANSPOSE_TARGETS[side][a]:
            if board[b] != single:
                continue
            base = NAMES[a] + NAMES[b]
            if b >> 3 == home:  # the new double bears off at once: b stays a single
                _offer(turns, base, ((a, single),), singles + [a], side)
                continue
            changes = ((a, single), (b, double))
            if waiting or a >> 3 == crown_rank:
                after = [sq for sq in singles if sq != b]
                after.append(a)
                _offer(turns, base, changes, after, side)
            else:
                turns[base] = changes


def _removals(side: int, singles: list[int], doubles: list[int],
              turns: dict[str, Changes]) -> None:
    """At an impasse: remove a single, or the top of a double (which may then crown)."""
    single = SINGLE[side]
    for a in singles:
        _offer(turns, NAMES[a], ((a, EMPTY),), [sq for sq in singles if sq != a], side)
    for a in doubles:
        _offer(turns, NAMES[a], ((a, single),), singles + [a], side)


def generate(board: str, side: int) -> tuple[dict[str, Changes], bool]:
    """Every turn of `side` as {string: changes}, and whether it is at an impasse."""
    single, double = SINGLE[side], DOUBLE[side]
    singles = [sq for sq, c in enumerate(board) if c == single]
    doubles = [sq for sq, c in enumerate(board) if c == double]
    crown_rank = CROWN_RANK[side]
    waiting = any(sq >> 3 == crown_rank for sq in singles)
    turns: dict[str, Changes] = {}
    _single_slides(board, side, singles, waiting, turns)
    _double_slides(board, side, singles, doubles, waiting, turns)
    _transposes(board, side, singles, doubles, waiting, turns)
    if turns:
        return turns, False
    _removals(side, singles, doubles, turns)
    return turns, True


def apply(board: str, changes: Changes) -> str:
    """The board after one turn."""
    cells = list(board)
    for sq, content in changes:
        cells[sq] = content
    return "".join(cells)


def on_board(board: str, side: int) -> int:
    """Checkers of `side` still on the board, a double counting two."""
    return board.count(SINGLE[side]) + 2 * board.count(DOUBLE[side])


def decide(board: str, side_to_move: int, ply: int, max_plies: int) -> Outcome | None:
    """Win for a side with no checker left (the last mover first), else the ply limit."""
    for side in (1 - side_to_move, side_to_move):
        if SINGLE[side] not in board and DOUBLE[side] not in board:
            return Outcome(side, "all checkers off")
    if ply >= max_plies:
        return Outcome(None, "turn limit")
    return None


def fast_perft(board: str, side: int, ply: int, max_plies: int, depth: int) -> int:
    """Perft on raw boards for a position that is not over and depth >= 1."""
    turns = generate(board, side)[0]
    if depth == 1:
        return len(turns)
    single, double = SINGLE[side], DOUBLE[side]
    child_ply, other = ply + 1, 1 - side
    if child_ply >= max_plies:
        return 0
    total = 0
    for changes in turns.values():
        child = apply(board, changes)
        if single in child or double in child:
            total += fast_perft(child, other, child_ply, max_plies, depth - 1)
    return total


# --------------------------------------------------------------------------------------
# Positions


class ImpassePosition:
    """An immutable Impasse position; turns are generated once, on first use."""

    __slots__ = ("_board", "_side", "_ply", "_max_plies", "_turns", "_impasse", "_listed")

    def __init__(self, board: str, side: int, ply: int, max_plies: int) -> None:
        self._board = board
        self._side = side
        self._ply = ply
        self._max_plies = max_plies
        self._turns: dict[str, Changes] | None = None
        self._impasse = False
        self._listed: tuple[str, ...] | None = None

    def turn(self) -> int:
        return self._side

    def ply(self) -> int:
        return self._ply

    @property
    def board(self) -> str:
        """64 characters, a1 b1 .. h1 a2 .. h8."""
        return self._board

    def checkers_off(self, seat: int) -> int:
        """Checkers `seat` has borne off or removed (its score on CodinGame)."""
        return CHECKERS - on_board(self._board, seat)

    def at_impasse(self) -> bool:
        """True when the side to move has no slide or transpose and must remove."""
        self._table()
        return self._impasse

    def legal_moves(self) -> list[str]:
        if self._listed is None:
            self._listed = tuple(sorted(self._table()))
        return list(self._listed)

    def outcome(self) -> Outcome | None:
        return decide(self._board, self._side, self._ply, self._max_plies)

    def judge(self, move: str) -> Judged:
        changes = self._table().get(move)
        if changes is None:
            reason, malformed = _explain(self, move)
            raise IllegalMove(move, reason, malformed=malformed)
        return Judged(self._child(changes), move)

    def play(self, move: str) -> ImpassePosition:
        return self.judge(move).position

    def notation(self) -> str:
        return f"{'/'.join(self.board_lines())} {SIDE_CHARS[self._side]} {self._ply}"

    def board_lines(self) -> list[str]:
        return [self._board[rank * 8 : rank * 8 + 8] for rank in range(7, -1, -1)]

    def __repr__(self) -> str:
        return f"ImpassePosition({self.notation()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImpassePosition):
            return NotImplemented
        return (self._board, self._side, self._ply) == (other._board, other._side, other._ply)

    def __hash__(self) -> int:
        return hash((self._board, self._side, self._ply))

    def _table(self) -> dict[str, Changes]:
        """{string: changes} for the side to move; empty once the game is over."""
        if self._turns is None:
            if self.outcome() is not None:
                self._turns = {}
            else:
                self._turns, self._impasse = generate(self._board, self._side)
        return self._turns

    def _child(self, changes: Changes) -> ImpassePosition:
        board = apply(self._board, changes)
        return ImpassePosition(board, 1 - self._side, self._ply + 1, self._max_plies)


# --------------------------------------------------------------------------------------
# Explaining a refused move. Only called on refusal, so clarity beats speed here.

SQUARE_SHAPE = re.compile(r"(?:[a-z][0-9]){1,3}")
EXAMPLES = "name 1 to 3 squares with nothing between them, e.g. b6, d2f4 or f8g7c5"


def _explain(position: ImpassePosition, move: str) -> tuple[str, bool]:
    """Why `move` is refused here, and whether it is malformed (not even a move's shape)."""
    over = position.outcome()
    if over is not None:
        return f"the game is over ({over.reason})", False
    shape = _shape_problem(move)
    if shape is not None:
        return shape, True
    squares = [SQUARE_OF[move[i : i + 2]] for i in range(0, len(move), 2)]
    if position.at_impasse():
        return _explain_removal(position, squares), False
    return _explain_basic(position, squares), False


def _shape_problem(move: str) -> str | None:
    """A syntax error in `move`, or None when it is 1 to 3 board squares."""
    if move == "":
        return f"empty move: {EXAMPLES}"
    if move == "random":
        return "'random' asks the referee to pick a move; the rules cannot judge it"
    if move != move.strip() or " " in move:
        return f"spaces are not part of a move: {EXAMPLES}"
    if any(c.isupper() for c in move):
        return f"squares are written in lower case ({move.lower()}), as the referee lists them"
    if not SQUARE_SHAPE.fullmatch(move):
        return f"{move!r} is not a move: {EXAMPLES}"
    for i in range(0, len(move), 2):
        if move[i : i + 2] not in SQUARE_OF:
            return f"{move[i : i + 2]} is not on the board (files a-h, ranks 1-8)"
    return None


def _explain_removal(position: ImpassePosition, squares: list[int]) -> str:
    """Refusal at an impasse, where a turn is `square [crown-source]`."""
    side, board = position.turn(), position.board
    examples = ", ".join(position.legal_moves()[:6])
    if len(squares) == 3:
        return ("you are at an impasse (no slide or transpose exists): remove one checker "
                f"by naming its square, one of: {examples}")
    square = squares[0]
    if board[square] == EMPTY:
        return _holds(board, square, side)
    if board[square] not in (SINGLE[side], DOUBLE[side]):
        return f"{_holds(board, square, side)}: an impasse removal takes one of your own checkers"
    return _explain_crown(position, NAMES[square], squares[1:])


def _explain_basic(position: ImpassePosition, squares: list[int]) -> str:
    """Refusal when slides or transposes exist, where a turn is `from to [source]`."""
    if len(squares) == 1:
        return ("impasse removal is only allowed when no slide or transpose exists; "
                f"you have {len(position.legal_moves())} moves, e.g. {position.legal_moves()[0]}")
    a, b = squares[0], squares[1]
    base = NAMES[a] + NAMES[b]
    if not any(m[:4] == base for m in position.legal_moves()):
        return _geometry_problem(position.board, position.turn(), a, b)
    return _explain_crown(position, base, squares[2:])


def _explain_crown(position: ImpassePosition, base: str, crown: list[int]) -> str:
    """The basic part `base` is legal; say what is wrong with the crown part."""
    table = position._table()
    crowned = {m: c for m, c in table.items() if m.startswith(base) and len(m) == len(base) + 2}
    if base in table:
        return f"no crowning follows {base}: {_why_no_crown(position, table[base])}; answer {base}"
    targets = sorted({changes[-1][0] for changes in crowned.values()})
    sources = sorted(m[len(base):] for m in crowned)
    named = " and ".join(NAMES[t] for t in targets)
    plural = "s" if len(targets) > 1 else ""
    if not crown:
        return (f"crown coordinate missing: your single{plural} on {named} must be crowned; "
                f"append the square of the single to crown with, one of: {', '.join(sources)}")
    if crown[0] in targets:
        return (f"{NAMES[crown[0]]} is the single to be crowned, not a source; "
                f"crown sources: {', '.join(sources)}")
    return (f"{NAMES[crown[0]]} is not a single of yours that can crown {named} after {base}; "
            f"crown sources: {', '.join(sources)}")


def _why_no_crown(position: ImpassePosition, changes: Changes) -> str:
    """Why a legal basic move needs no crown: nothing to crown, or nothing to crown with."""
    side = position.turn()
    after = apply(position.board, changes)
    crown_rank = CROWN_RANK[side]
    waiting = [sq for sq in range(crown_rank * 8, crown_rank * 8 + 8) if after[sq] == SINGLE[side]]
    if not waiting:
        return f"you have no single on rank {crown_rank + 1} after it"
    return f"your single on {NAMES[waiting[0]]} has no other single of yours to crown it with"


def _geometry_problem(board: str, side: int, a: int, b: int) -> str:
    """Why no slide or transpose goes from `a` to `b`."""
    piece = board[a]
    if piece == EMPTY:
        return _holds(board, a, side)
    if piece not in (SINGLE[side], DOUBLE[side]):
        return f"{_holds(board, a, side)}: move one of your own checkers"
    if a == b:
        return (f"{NAMES[a]}{NAMES[a]} goes nowhere: a slide or transpose joins two "
                "different squares")
    if piece == SINGLE[side]:
        return _single_problem(board, side, a, b)
    return _double_problem(board, side, a, b)


def _single_problem(board: str, side: int, a: int, b: int) -> str:
    """Why the single on `a` cannot slide to `b`."""
    rank_step = _diagonal_step(a, b)
    if board[b] == SINGLE[side] and abs(b // 8 - a // 8) == 1 and rank_step:
        return f"{NAMES[a]} is not your double: only a double's crown can transpose onto a single"
    if rank_step == 0:
        return f"{NAMES[b]} is not on a diagonal from {NAMES[a]}: checkers move diagonally"
    if rank_step != FORWARD[side]:
        return (f"a single slides forward only (towards rank {CROWN_RANK[side] + 1} for "
                f"{COLOUR[side]}), and {NAMES[b]} lies behind {NAMES[a]}")
    return _blocked(board, side, a, b)


def _double_problem(board: str, side: int, a: int, b: int) -> str:
    """Why the double on `a` can neither slide nor transpose to `b`."""
    rank_step = _diagonal_step(a, b)
    home = f"rank {HOME_RANK[side] + 1} for {COLOUR[side]}"
    if board[b] == DOUBLE[side]:
        return f"{NAMES[b]} is already a double of yours: a crown can only move onto a single"
    if board[b] == SINGLE[side] and abs(b // 8 - a // 8) == 1 and rank_step:
        return (f"a transpose target must be one rank nearer your home row ({home}); "
                f"{NAMES[b]} is farther from it than {NAMES[a]}")
    if board[b] == SINGLE[side] and rank_step:
        return (f"a transpose moves a crown to a diagonally adjacent single, and {NAMES[b]} "
                f"is not next to {NAMES[a]}; a slide must end on an empty square")
    if rank_step == 0:
        return f"{NAMES[b]} is not on a diagonal from {NAMES[a]}: checkers move diagonally"
    if rank_step == FORWARD[side]:
        return (f"a double slides backward only (towards {home}), "
                f"and {NAMES[b]} lies ahead of {NAMES[a]}")
    return _blocked(board, side, a, b)


def _diagonal_step(a: int, b: int) -> int:
    """+1 or -1, the rank step from `a` towards `b` along a diagonal; 0 when off-diagonal."""
    file_gap, rank_gap = b % 8 - a % 8, b // 8 - a // 8
    if rank_gap == 0 or abs(file_gap) != abs(rank_gap):
        return 0
    return 1 if rank_gap > 0 else -1


def _blocked(board: str, side: int, a: int, b: int) -> str:
    """The first occupied square on the diagonal from `a` to `b` (b included)."""
    file_step = 1 if b % 8 > a % 8 else -1
    rank_step = 1 if b > a else -1
    sq = a
    while sq != b:
        sq += rank_step * 8 + file_step
        if board[sq] != EMPTY:
            break
    if sq == b:
        return f"{_holds(board, b, side)}: a slide must end on an empty square"
    return f"the slide from {NAMES[a]} to {NAMES[b]} is blocked at {NAMES[sq]}"


def _holds(board: str, sq: int, side: int) -> str:
    """'no checker on c3' or 'c3 holds a Black double', said from `side`'s point of view."""
    content = board[sq]
    if content == EMPTY:
        return f"no checker of yours on {NAMES[sq]} (it is empty)"
    owner = WHITE if content in "wW" else BLACK
    kind = "single" if content in "wb" else "double"
    whose = "your" if owner == side else f"{COLOUR[owner]}'s"
    return f"{NAMES[sq]} holds {whose} {kind}"


# --------------------------------------------------------------------------------------
# Reading a notation


def parse_position(notation: str, max_plies: int) -> ImpassePosition:
    """Read the one-line notation; PositionError names the first problem found."""
    fields = notation.split()
    if len(fields) != 3:
        raise PositionError(
            f"expected 3 fields (board, side to move, ply), got {len(fields)} in {notation!r}")
    board = _parse_board(fields[0])
    if fields[1] not in ("w", "b"):
        raise PositionError(f"side to move must be 'w' or 'b', got {fields[1]!r}")
    if not (fields[2].isascii() and fields[2].isdigit()):
        raise PositionError(f"ply must be a non-negative integer, got {fields[2]!r}")
    side = SIDE_CHARS.index(fields[1])
    _check_reachable(board, side)
    return ImpassePosition(board, side, int(fields[2]), max_plies)


def _parse_board(text: str) -> str:
    """Eight rows rank 8 first -> the 64-character board, a1 first."""
    rows = text.split("/")
    if len(rows) != 8:
        raise PositionError(f"the board needs 8 rows separated by '/', got {len(rows)}")
    for index, row in enumerate(rows):
        rank = 8 - index
        if any(c.isdigit() for c in row):
            raise PositionError(f"rank {rank} ({row!r}): write empty squares as dots, not digits")
        if len(row) != 8:
            raise PositionError(f"rank {rank} ({row!r}) has {len(row)} squares, expected 8")
        bad = [c for c in row if c not in ".wWbB"]
        if bad:
            raise PositionError(
                f"rank {rank} ({row!r}): unknown square {bad[0]!r} (use . w W b B)")
    return "".join(reversed(rows))


def _check_reachable(board: str, side_to_move: int) -> None:
    """Refuse boards that play from the initial position can never show."""
    for side in (WHITE, BLACK):
        _check_side(board, side)
    if on_board(board, WHITE) == 0 and on_board(board, BLACK) == 0:
        raise PositionError("neither side has a checker on the board")
    if on_board(board, side_to_move) == 0:
        raise PositionError(f"{COLOUR[side_to_move]} has no checker left but is to move: "
                            "the game ended when its last checker came off")


def _check_side(board: str, side: int) -> None:
    """One side's count, no double on its nearest row, no single left uncrowned."""
    name, single, double = COLOUR[side], SINGLE[side], DOUBLE[side]
    if on_board(board, side) > CHECKERS:
        raise PositionError(f"{name} has {on_board(board, side)} checkers on the board, "
                            f"at most {CHECKERS} (a double counts 2)")
    home, crown = HOME_RANK[side], CROWN_RANK[side]
    for sq in range(home * 8, home * 8 + 8):
        if board[sq] == double:
            raise PositionError(f"{name} double on {NAMES[sq]} stands on its nearest row "
                                f"(rank {home + 1}); it would have borne off")
    singles = [sq for sq, c in enumerate(board) if c == single]
    waiting = [sq for sq in singles if sq >> 3 == crown]
    if waiting and len(singles) > 1:
        other = next(sq for sq in singles if sq != waiting[0])
        raise PositionError(f"{name} single on {NAMES[waiting[0]]} stands on its furthest row "
                            f"beside another {name} single ({NAMES[other]}); it would have "
                            "been crowned")


# --------------------------------------------------------------------------------------
# Rules object


class ImpasseRules:
    """Impasse configured by a spec's `[rules]` table."""

    def __init__(self, max_plies: int) -> None:
        self.max_plies = max_plies

    def initial(self) -> ImpassePosition:
        return ImpassePosition("".join(reversed(INITIAL_ROWS)), WHITE, 0, self.max_plies)

    def parse(self, notation: str) -> ImpassePosition:
        return parse_position(notation, self.max_plies)

    def perft(self, position: Any, depth: int) -> int:
        if not isinstance(position, ImpassePosition):
            return generic_perft(position, depth)
        if depth == 0:
            return 1
        if position.outcome() is not None:
            return 0
        return fast_perft(position.board, position.turn(), position.ply(),
                          self.max_plies, depth)

    def divide(self, position: ImpassePosition, depth: int) -> list[tuple[str, int]]:
        if depth < 1 or position.outcome() is not None:
            return []
        return [(m, self.perft(position.play(m), depth - 1)) for m in position.legal_moves()]


def make_rules(options: Mapping[str, Any]) -> ImpasseRules:
    """Rules from spec options: `max_plies` (default 250, the CodinGame turn limit)."""
    merged = take_options(options, DEFAULT_OPTIONS)
    if merged["max_plies"] < 1:
        raise OptionError("max_plies", f"must be at least 1, got {merged['max_plies']}")
    return ImpasseRules(merged["max_plies"])


def choose_move(position: ImpassePosition, rng: random.Random, style: str = "greedy") -> str:
    """The bundled reference bots' play: "random", or "greedy" (most progress, rng ties);
    the judge's opponents are in `prefer` (see prototest.games.opponents).

    Greedy drives games to their late phases (crowns, bear-offs, impasses) so that seeded
    games exercise every rule and mostly finish inside the turn limit.
    """
    moves = position.legal_moves()
    if not moves:
        raise ValueError("no legal move: the game is over")
    if style == "random":
        return rng.choice(moves)
    if style != "greedy":
        raise ValueError(f"unknown style {style!r} (known: greedy, random)")
    table, side = position._table(), position.turn()
    scored = [(_progress(apply(position.board, table[m]), side), m) for m in moves]
    best = max(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == best])


# --------------------------------------------------------------------------------------
# Opponent styles and fuzzing hooks (see games/base.py)

#: Opponent styles (see prototest.games.opponents): "random" plays any allowed move.
STYLES = ("random", "greedy", "racing", "smothering", "passive", "transposing", "bearing-off")
#: Move classes a swarm opponent may never play (impasse removals are never omitted:
#: they are the only moves when they are listed).
MOVE_CLASSES = ("crown", "transpose", "bear-off", "double slide", "single slide", "long slide")


def move_kinds(position: ImpassePosition, move: str) -> frozenset[str]:
    """What a listed move does: "impasse" (a removal), "crown", "transpose", "bear-off",
    "double slide", "single slide", "long slide" (three squares or more)."""
    if position.at_impasse():
        return frozenset(("impasse", "crown") if len(move) == 4 else ("impasse",))
    board, side = position.board, position.turn()
    a, b = SQUARE_OF[move[:2]], SQUARE_OF[move[2:4]]
    kinds = {"crown"} if len(move) == 6 else set()
    if board[a] == DOUBLE[side]:
        if board[b] == SINGLE[side]:
            kinds.add("transpose")
            if b >> 3 == HOME_RANK[side]:
                kinds.add("bear-off")
        else:
            kinds.add("double slide")
            if b >> 3 == HOME_RANK[side]:
                kinds.add("bear-off")
    else:
        kinds.add("single slide")
    if "transpose" not in kinds and abs((a >> 3) - (b >> 3)) >= 3:
        kinds.add("long slide")
    return frozenset(kinds)


def prefer(position: ImpassePosition, style: str, moves: list[str]) -> list[str]:
    """The moves a style prefers (see games/base.py). greedy: the most progress (checkers
    off, then distance left); racing: the singles' longest forward slides; smothering: the
    moves that leave the bot the fewest moves (towards its impasse); passive: the least
    progress, counting as its own the most progress its move leaves the bot for its next
    move (it blocks the bot: towards the turn limit); transposing: transposes; bearing off:
    bear-offs and crowns."""
    table, side, board = position._table(), position.turn(), position.board
    if style == "greedy":
        return best_scored(moves, lambda m: _progress(apply(board, table[m]), side))
    if style == "passive":
        return best_scored(moves, lambda m: -_stall_cost(board, table[m], side))
    if style == "racing":
        forward = FORWARD[side]
        return best_scored(moves, lambda m: ((SQUARE_OF[m[2:4]] >> 3) - (SQUARE_OF[m[:2]] >> 3)) * forward
                     if len(m) >= 4 and board[SQUARE_OF[m[:2]]] == SINGLE[side] else None)
    if style == "smothering":
        other = 1 - side
        return best_scored(moves, lambda m: -len(generate(apply(board, table[m]), other)[0]))
    if style == "transposing":
        return [m for m in moves if "transpose" in move_kinds(position, m)]
    if style == "bearing-off":
        return [m for m in moves if move_kinds(position, m) & {"bear-off", "crown"}]
    raise ValueError(f"unknown style {style!r} (known: {', '.join(STYLES)})")



def _stall_cost(board: str, changes: Changes, side: int) -> int:
    """The progress a turn makes for `side`, plus the most the other side can then make
    with one turn of its own: what the passive style keeps low. Leaving the bot slow
    moves matters as much as moving slowly: against a bot that races, a merely slow
    opponent still loses by ply 100 or so (the bot's pace makes the game's length)."""
    after = apply(board, changes)
    other = 1 - side
    base = _progress(after, other)
    replies = generate(after, other)[0].values()
    best = max((_progress(apply(after, c), other) for c in replies), default=base)
    return _progress(after, side) - _progress(board, side) + best - base


def _crowns_after_bear_off(move: str) -> bool:
    """`c3a1a1`: the crown's source is the single that the bear-off on a1 left."""
    return len(move) == 6 and move[2:4] == move[4:6]


#: Every name `situations` can give, for the summary of what a run did not reach.
SITUATIONS = ("impasse", "crown available", "transpose available", "bear-off available",
              "crown after bear-off available", "three or fewer checkers", "ply 200 or later",
              "impasse removal", "crown after bear-off")


#: Why a run may not reach a situation (see games/base.py).
SITUATION_NOTES = {
    "ply 200 or later": ("a game ends when a side has all its checkers off, and a bot that races ends it by "
                         "ply 100 to 160 whatever the opponent does; only slow starts in position mode (up to "
                         "ply 160, both sides played slowly), and the games kept for the 'projected end' "
                         "measure, go on past ply 200: a longer --budget reaches it more often", ()),
}


def situations(position: ImpassePosition, move: str | None = None) -> list[str]:
    if move is not None:
        found = ["impasse removal"] if position.at_impasse() else []
        return found + (["crown after bear-off"] if _crowns_after_bear_off(move) else [])
    moves = position.legal_moves()
    found = ["impasse"] if position.at_impasse() else []
    kinds = set().union(*(move_kinds(position, m) for m in moves)) if moves else set()
    found += [f"{k} available" for k in ("crown", "transpose", "bear-off") if k in kinds]
    if any(_crowns_after_bear_off(m) for m in moves):
        found.append("crown after bear-off available")
    if on_board(position.board, position.turn()) <= 3:
        found.append("three or fewer checkers")
    if position.ply() >= 200:
        found.append("ply 200 or later")
    return found


_RARE_WEIGHT = {"impasse": 4, "bear-off": 2, "transpose": 2, "crown": 1}


def measures(position: ImpassePosition) -> dict[str, float]:
    """Where bots' own generators and parsers break, as numbers the fuzz search keeps the
    furthest games of (prototest.play.elites): rare: the rarest entries of the bot's
    list (removals, bear-offs, transposes, crowns; the kinds present count most);
    cornered: how few moves it has; late: how
    few of its checkers are left; edge: its checkers on the board's edge files and ranks;
    long: the ply, towards the turn limit; projected end: the ply at which the game
    would end if the bot went on at a racing pace (`moves_left`) and the opponent
    took longer (the game is the opponent's to drag on).

    `long` only says how far a game went. `projected end` also counts what the bot still
    has to do: of two positions at the same ply, the one where the bot is further from
    done is worth more, so the games kept for it are those with the most game left, and
    the examples that go on from them reach ply 200, which games against a racing bot
    seldom do otherwise. Measured in an offline model of a run (500 examples, the
    bundled bot's play, fuzz's kept games and branches), ply 200 was reached in 17 runs
    of 20 with it and the passive style, 14 with the side nearer done in place of the
    bot, 12 with the passive style alone, 10 with it alone, 8 with neither."""
    moves = position.legal_moves()
    kinds = [move_kinds(position, m) for m in moves]
    present = set().union(*kinds) if kinds else set()
    rare = sum(4 * _RARE_WEIGHT[k] for k in present if k in _RARE_WEIGHT)
    rare += sum(_RARE_WEIGHT.get(k, 0) for ks in kinds for k in ks) / 8
    side, board = position.turn(), position.board
    mine = (SINGLE[side], DOUBLE[side])
    edge = sum(1 for sq, c in enumerate(board) if c in mine and (sq & 7 in (0, 7) or sq >> 3 in (0, 7)))
    return {"impasse: rare moves listed": float(rare), "impasse: cornered": -float(len(moves)),
            "impasse: late": -float(on_board(board, side)), "impasse: edge": float(edge),
            "impasse: long": float(position.ply()),
            "impasse: projected end": position.ply() + 2 * moves_left(board, side)}


def moves_left(board: str, side: int) -> float:
    """About how many more turns `side` needs to take all its checkers off at a racing
    pace: 3.7 a single and 5 a double on the board, plus 0.35 a rank a single still has
    to climb and 0.42 a rank a double still has to descend, less 3.9 (a least-squares
    fit of the turns the bundled greedy bot really had left, at its 10,137 turns in 300
    seeded games against the swarm styles, half of them from position-mode starts, that
    it finished: correlation 0.92, error 6 turns). Never below 0."""
    single, double = SINGLE[side], DOUBLE[side]
    crown, home = CROWN_RANK[side], HOME_RANK[side]
    total = -3.9
    for sq, content in enumerate(board):
        if content == single:
            total += 3.7 + 0.35 * abs(crown - (sq >> 3))
        elif content == double:
            total += 5.0 + 0.42 * abs((sq >> 3) - home)
    return max(0.0, total)


def diagram(position: ImpassePosition) -> list[str]:
    """The board as sent (rank 8 first), with ranks and files."""
    return [f"{8 - i} {' '.join(row)}" for i, row in enumerate(position.board_lines())] + ["  a b c d e f g h"]


def _progress(board: str, side: int) -> int:
    """Higher when `side` is nearer done: checkers off weigh most, then distance left.

    A single still has to reach the furthest row and a double the nearest row, so the
    distance sum rewards long slides, transposes and crowning with the rearmost single.
    """
    single, double = SINGLE[side], DOUBLE[side]
    crown, home = CROWN_RANK[side], HOME_RANK[side]
    distance = 0
    for sq, content in enumerate(board):
        if content == single:
            distance += abs(crown - (sq >> 3))
        elif content == double:
            distance += abs((sq >> 3) - home)
    return -20 * on_board(board, side) - distance


# --------------------------------------------------------------------------------------
# The board as a picture (see games/base.py and prototest.games.draw)

_SQUARE_RUN = re.compile(r"\s*((?:[a-h][1-8]){1,3})\s*")
_DEFS = draw.defs(
    draw.disc("impasse-w", draw.PALETTE["white"], draw.PALETTE["edge"], "#b9b3a6"),
    draw.disc("impasse-b", draw.PALETTE["black"], draw.PALETTE["edge"], "#6b6b6b"),
    draw.crowned("impasse-W", draw.PALETTE["white"], draw.PALETTE["edge"], "#7a5a00"),
    draw.crowned("impasse-B", draw.PALETTE["black"], draw.PALETTE["edge"], "#7a5a00"),
)


def svg(position: ImpassePosition, *, last: str | None = None, bad: str | None = None,
        flipped: bool = False) -> str:
    """The board as an SVG element: checkers on the dark squares, a double as two
    stacked checkers under a crown, the squares of the move just played tinted, a refused
    move in red. Each single or double carries `data-cell` (its square) and `data-piece`
    (`w`, `b`, `W` or `B`, as the notation writes it)."""
    grid = draw.Grid(8, 8, flipped)
    pieces = [draw.place(grid, draw.square_cell(sq), f"impasse-{content}", NAMES[sq], content)
              for sq, content in enumerate(position.board) if content != EMPTY]
    return draw.root(
        "impasse", position.notation(), grid, _DEFS,
        draw.chequered_8x8(grid),
        draw.played(grid, last, _read_squares),
        "".join(pieces),
        draw.refused(grid, bad, _read_squares))



def _read_squares(move: str) -> list[draw.Cell]:
    """The squares a move string names, in order; none when it is not 1 to 3 squares."""
    found = _SQUARE_RUN.fullmatch(move)
    if found is None:
        return []
    text = found.group(1)
    return [draw.square_cell(SQUARE_OF[text[i:i + 2]]) for i in range(0, len(text), 2)]


__all__ = [
    "DEFAULT_OPTIONS",
    "ImpassePosition",
    "ImpasseRules",
    "make_rules",
    "move_kinds",
    "prefer",
]
