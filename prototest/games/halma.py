"""Halma 16x16 as the Proglad referee (`halma-quad`, `games/halma-quad/server/main.rs`) plays it.

Board and pieces
    x is the column 1..16 from the left, y the row 1..16 from the top. Player 1 (red, seat 0)
    starts on the 19 cells with 1 <= x <= 5 and 1 <= y <= min(7 - x, 5) (rows of 5, 5, 4, 3, 2
    from y = 1) and moves first; player 2 (seat 1) holds the mirror cells (17 - x, 17 - y).
    A player's home is the opponent's starting camp.

Moves
    A move string is the coordinate list without the word `move`: "x1 y1 x2 y2 ... xk yk".
    Either one step to one of the 8 neighbours (exactly two points), or a chain of jumps, each
    two cells in one of 8 directions over an occupied cell (either colour) into an empty one,
    never visiting a cell twice (the start counts as visited).

    `legal_moves()` lists what the statement allows: every destination once, reached by a step
    or by the shortest jump chain (breadth-first search, directions tried in the fixed order
    of `_DIRECTIONS`, so the path is deterministic). The list is sorted by the origin (x1, y1),
    then the destination (xk, yk), numerically. A step destination is never also a jump
    destination: jumps keep both coordinates' parity, steps change at least one.

What the referee accepts beyond the statement (accepted by `judge`, with a warning)
    * Knight-shaped hops. The referee accepts any hop at Chebyshev distance 2 whose "midpoint"
      `prev + (to - prev) / 2` holds a piece, with Rust's `/` truncating toward zero. For the
      8 straight and diagonal jumps that is the real midpoint. For the 8 knight shapes
      (|dx|, |dy|) in {(2, 1), (1, 2)} the odd component halves to 0, so the "midpoint" is the
      orthogonal neighbour of the hop's start along the long axis: `1 5 3 6` passes over (2,5),
      and the reverse `3 6 1 5` over (2,6) -- not over (2,5), which a floor-division formula
      ((x1 + x2) // 2, (y1 + y2) // 2) would give. Hops at distance 1 inside a chain, and hops
      at distance 3 or more, stay illegal.
    * Jumping over the starting cell. The referee never lifts the moving piece while it checks
      the path, so the start still counts as occupied. Straight jumps keep parity and can never
      pass over the start; after a knight hop a chain can, and the referee accepts it.
    * Numbers are parsed as Rust `i32`: `+3` and `03` read as 3 (accepted with a warning);
      tokens are split on ASCII whitespace only; a number outside i32, or anything else, is a
      parse error (malformed). The canonical move written back is plain decimal.

End of the game, checked after every accepted move in the referee's order
    1. all pieces home: the player whose every piece stands in its home wins ("all pieces
       home"). If the opponent is a blocker at that moment the referee also removes it and
       reports "other players dropped", but the winner is the same; we keep "all pieces home".
    2. blockers, from ply `blocker_from_ply` (200 = player 2's 100th move) on: a player with any
       piece in its own zone -- its corner's 34 cells with 1 <= x <= 7, 1 <= y <= min(9 - x, 7),
       mirrored for player 2 -- is a blocker; one blocker loses ("blocker: player N ..."), two
       draw ("both blockers").
    3. the move limit: the game is drawn once ply `max_plies` is reached (1998 = player 2's
       999th move: the referee stops at its move counter 1000 where the statement says after
       1000 moves) ("move limit").
    The referee runs the blocker check after the limit check and lets it override a limit
    draw, so applying it first (as here) gives the same result. A player with no legal move is
    not a rule of the referee: such a bot cannot answer and loses there; we report no outcome.

One-line notation
    The 16 rows (y = 1 first) joined by "/", each 16 characters of `.` (empty), `1`, `2`
    (x = 1 first); a space; the side to move, `1` or `2`; a space; the ply count (plies played
    since the start). Player 1 moves on even plies, so the side must match the ply. Each player
    has 1..19 pieces: fewer than 19 never arise in a game, but they make hand-built positions
    possible, and "all pieces home" counts the pieces a player has, as the referee does.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import AbstractSet, Any, Mapping, NamedTuple, Sequence

from .base import (
    best_scored,
    IllegalMove,
    Judged,
    OptionError,
    Outcome,
    PositionError,
    generic_divide,
    generic_perft,
    take_options,
    bundled_spec,
)
from . import draw

#: The game's spec and the bot that plays it (see base.py: a registered game's module).
SPEC = bundled_spec("halma.toml")
BOT = "prototest.bots.halma_bot"

DEFAULT_OPTIONS: dict[str, Any] = {"max_plies": 1998, "blocker_from_ply": 200}

SIZE = 16
PIECES = 19
# The board is a flat array with a one-cell wall around it: index = y * _WIDTH + x. A wall
# stops steps and jumps without bounds checks (a jump only looks past a piece, which is on
# the board, so one cell of wall is enough).
_WIDTH = SIZE + 2
_EMPTY, _WALL = 0, 3
_IS_PIECE = (False, True, True, False)
# Order fixes the BFS, hence which shortest path `legal_moves` shows.
_DIRECTIONS = (
    -_WIDTH - 1, -_WIDTH, -_WIDTH + 1,
    -1, 1,
    _WIDTH - 1, _WIDTH, _WIDTH + 1,
)
_I32 = (-(2**31), 2**31 - 1)
_ASCII_WHITESPACE = re.compile(r"[ \t\n\x0c\r]+")  # Rust's split_ascii_whitespace
_INTEGER = re.compile(r"[+-]?[0-9]+\Z")  # Rust's i32::from_str


def _index(x: int, y: int) -> int:
    return y * _WIDTH + x


def _xy(index: int) -> tuple[int, int]:
    return index % _WIDTH, index // _WIDTH


def _show(index: int) -> str:
    x, y = _xy(index)
    return f"({x},{y})"


def _corner(rows: Sequence[tuple[int, int]], seat: int) -> frozenset[int]:
    """Cells given for the top-left corner, mirrored to the bottom-right one for seat 1."""
    if seat == 0:
        return frozenset(_index(x, y) for x, y in rows)
    return frozenset(_index(SIZE + 1 - x, SIZE + 1 - y) for x, y in rows)


_CAMP_CELLS = [(x, y) for x in range(1, 6) for y in range(1, min(7 - x, 5) + 1)]
_ZONE_CELLS = [(x, y) for x in range(1, 8) for y in range(1, min(9 - x, 7) + 1)]
#: START[seat]: the starting camp; HOME[seat] = the opponent's camp; ZONE[seat]: the cells
#: the seat must have left by `blocker_from_ply`.
START = (_corner(_CAMP_CELLS, 0), _corner(_CAMP_CELLS, 1))
HOME = (START[1], START[0])
ZONE = (_corner(_ZONE_CELLS, 0), _corner(_ZONE_CELLS, 1))
_ON_BOARD = tuple(_index(x, y) for y in range(1, SIZE + 1) for x in range(1, SIZE + 1))


@dataclass(frozen=True)
class _Config:
    max_plies: int
    blocker_from_ply: int


def _trunc_half(delta: int) -> int:
    """Rust's `delta / 2` on i32: truncates toward zero, so -1 / 2 == 0 (Python's // gives -1)."""
    return delta // 2 if delta >= 0 else -((-delta) // 2)


# ---------------------------------------------------------------------------------------
# Move generation


def _steps(board: bytes | bytearray, origin: int) -> list[int]:
    return [origin + d for d in _DIRECTIONS if board[origin + d] == _EMPTY]


def _jump_tree(board: bytes | bytearray, origin: int) -> dict[int, int]:
    """Breadth-first jump search: {cell reached: cell it was jumped from}, origin included.

    Shortest paths are simple, so "never visit a cell twice" needs no extra bookkeeping, and
    the moving piece can stay on the origin: a straight jump never passes over it (parity).
    """
    parents = {origin: origin}
    frontier = [origin]
    for cell in frontier:  # grows while we walk it: a queue without popping
        for d in _DIRECTIONS:
            over = cell + d
            if _IS_PIECE[board[over]]:
                land = over + d
                if board[land] == _EMPTY and land not in parents:
                    parents[land] = cell
                    frontier.append(land)
    return parents


def _count_moves(board: bytes | bytearray, pieces: Sequence[int]) -> int:
    """Number of legal moves, without building any path (fast perft leaves)."""
    total = 0
    for origin in pieces:
        total += len(_steps(board, origin)) + len(_jump_tree(board, origin)) - 1
    return total


# Per cell: its text in a move string and its place in the listing order (x, then y).
_CELL_TEXT = tuple(f"{i % _WIDTH} {i // _WIDTH}" for i in range(_WIDTH * _WIDTH))
_LISTING_RANK = tuple((i % _WIDTH) * _WIDTH + i // _WIDTH for i in range(_WIDTH * _WIDTH))


def _move_string(cells: Sequence[int]) -> str:
    return " ".join([_CELL_TEXT[c] for c in cells])


class _Candidate(NamedTuple):
    """One legal move: origin and destination cells, and the move as the referee writes it."""

    origin: int
    target: int
    text: str

    def sort_key(self) -> int:
        """Listing order: origin (x1, y1), then destination (xk, yk), numerically."""
        return _LISTING_RANK[self.origin] * _WIDTH * _WIDTH + _LISTING_RANK[self.target]


def _candidates(board: bytes | bytearray, pieces: Sequence[int]) -> list[_Candidate]:
    """Every legal move, unsorted. A jump path's text extends its BFS parent's, which the
    tree lists first, so writing all paths out costs one string join per destination."""
    found: list[_Candidate] = []
    for origin in pieces:
        start = _CELL_TEXT[origin]
        for t in _steps(board, origin):
            found.append(_Candidate(origin, t, f"{start} {_CELL_TEXT[t]}"))
        texts = {origin: start}
        for target, parent in _jump_tree(board, origin).items():
            if target != origin:
                texts[target] = text = f"{texts[parent]} {_CELL_TEXT[target]}"
                found.append(_Candidate(origin, target, text))
    return found


def _destinations(board: bytes | bytearray, pieces: Sequence[int]) -> list[tuple[int, int]]:
    """Every legal move as (origin, target), without its path (perft)."""
    pairs = []
    for origin in pieces:
        pairs.extend((origin, t) for t in _steps(board, origin))
        pairs.extend((origin, t) for t in _jump_tree(board, origin) if t != origin)
    return pairs


# ---------------------------------------------------------------------------------------
# Judging a bot's path


def _read_numbers(move: str, warnings: list[str]) -> list[int]:
    """Tokens as the referee reads them (`i32` parse), with warnings for non-canonical ones."""
    numbers = []
    for token in _ASCII_WHITESPACE.split(move):
        if not token:
            continue
        if not _INTEGER.match(token):
            raise IllegalMove(move, f"{token!r} is not an integer", malformed=True)
        value = int(token)
        if not _I32[0] <= value <= _I32[1]:
            raise IllegalMove(move, f"{token!r} does not fit a 32-bit integer", malformed=True)
        digits = token.lstrip("+-")
        if token.startswith("+"):
            warnings.append(f"coordinate {token!r} written with a sign")
        elif len(digits) > 1 and digits.startswith("0"):
            warnings.append(f"coordinate {token!r} written with a leading zero")
        numbers.append(value)
    return numbers


def _read_points(move: str, warnings: list[str]) -> list[tuple[int, int]]:
    numbers = _read_numbers(move, warnings)
    if len(numbers) % 2:
        raise IllegalMove(move, f"an odd number of coordinates ({len(numbers)})", malformed=True)
    points = list(zip(numbers[0::2], numbers[1::2]))
    if len(points) < 2:
        raise IllegalMove(move, "a move needs at least two points", malformed=True)
    for x, y in points:
        if not (1 <= x <= SIZE and 1 <= y <= SIZE):
            raise IllegalMove(move, f"({x},{y}) is off the board (1..{SIZE})")
    return points


def _check_hop(
    move: str, board: bytes, origin: int, prev: int, cell: int, whole: bool, warnings: list[str]
) -> None:
    """One hop of a path, as `Game::try_move` checks it; the target is known to be empty."""
    (px, py), (x, y) = _xy(prev), _xy(cell)
    dx, dy = x - px, y - py
    distance = max(abs(dx), abs(dy))
    if distance == 1:
        if not whole:
            hop = f"{_show(prev)} to {_show(cell)}"
            raise IllegalMove(move, f"a step must be the whole move ({hop})")
        return
    if distance != 2:
        raise IllegalMove(move, f"{_show(prev)} to {_show(cell)} is neither a step nor a jump")
    over = _index(px + _trunc_half(dx), py + _trunc_half(dy))
    if not _IS_PIECE[board[over]]:
        raise IllegalMove(
            move,
            f"jump from {_show(prev)} to {_show(cell)} passes over an empty cell {_show(over)}",
        )
    if abs(dx) != abs(dy) and 0 not in (dx, dy):
        warnings.append(
            f"knight-shaped hop {_show(prev)} to {_show(cell)} over {_show(over)}: the referee "
            "accepts it (integer division), the statement forbids it"
        )
    if over == origin:
        warnings.append(
            f"hop {_show(prev)} to {_show(cell)} passes over the starting cell {_show(origin)}, "
            "which the referee still counts as occupied; the statement forbids it"
        )


def _check_path(
    move: str, board: bytes, seat: int, points: list[tuple[int, int]], warnings: list[str]
) -> list[int]:
    """Validate the whole path in time linear in its length; return it as cell indices."""
    cells = [_index(x, y) for x, y in points]
    origin = cells[0]
    if board[origin] != seat + 1:
        raise IllegalMove(move, f"{_show(origin)} holds no piece of yours")
    visited = {origin}
    whole = len(cells) == 2
    for prev, cell in zip(cells, cells[1:]):
        if cell in visited:
            raise IllegalMove(move, f"{_show(cell)} is visited twice")
        if board[cell] != _EMPTY:
            raise IllegalMove(move, f"{_show(cell)} is occupied")
        visited.add(cell)
        _check_hop(move, board, origin, prev, cell, whole, warnings)
    return cells


# ---------------------------------------------------------------------------------------
# End of the game


def _all_home(seat: int, pieces: Sequence[int]) -> bool:
    home = HOME[seat]
    return all(c in home for c in pieces)


def _is_blocker(seat: int, pieces: Sequence[int]) -> bool:
    zone = ZONE[seat]
    return any(c in zone for c in pieces)


def _blocker_fault(config: _Config, pieces: tuple[Sequence[int], Sequence[int]], seats: Sequence[int],
                   ply: int) -> str:
    """The blocker rule as the referee applies it, with the pieces that broke it."""
    left = "; ".join(f"player {seat + 1} still has " + ", ".join(_show(c) for c in sorted(pieces[seat]) if c in ZONE[seat])
                     for seat in seats)
    return (f"the blocker rule, which Proglad reports as a player error (\"blocking another players home\"): from ply "
            f"{config.blocker_from_ply} on, a player with a piece in its own 34-cell zone (its camp and the "
            f"strip next to it) is removed; at ply {ply} {left} there")


def _end_of_game(
    config: _Config, pieces: tuple[Sequence[int], Sequence[int]], ply: int
) -> Outcome | None:
    """The referee's checks after a move; see the module docstring for the order."""
    home = [_all_home(seat, pieces[seat]) for seat in (0, 1)]
    if all(home):  # only a hand-built position; the referee calls it a draw
        return Outcome(None, "all pieces home (both players)")
    if any(home):
        return Outcome(home.index(True), "all pieces home")
    if ply >= config.blocker_from_ply:
        blockers = [seat for seat in (0, 1) if _is_blocker(seat, pieces[seat])]
        if len(blockers) == 2:
            return Outcome(None, "both blockers", tuple(blockers), _blocker_fault(config, pieces, blockers, ply))
        if blockers:
            b = blockers[0]
            return Outcome(1 - b, f"blocker: player {b + 1} still has a piece in its own zone",
                           (b,), _blocker_fault(config, pieces, blockers, ply))
    if ply >= config.max_plies:
        return Outcome(None, "move limit")
    return None


# ---------------------------------------------------------------------------------------
# Positions


class HalmaPosition:
    """An immutable Halma position: board, ply, and the outcome the last move produced."""

    __slots__ = ("_config", "_board", "_pieces", "_ply", "_outcome", "_listing")

    def __init__(
        self,
        config: _Config,
        board: bytes,
        pieces: tuple[tuple[int, ...], tuple[int, ...]],
        ply: int,
    ) -> None:
        self._config = config
        self._board = board
        self._pieces = pieces
        self._ply = ply
        self._outcome = _end_of_game(config, pieces, ply)
        self._listing: dict[str, _Candidate] | None = None

    # -- the Position protocol ----------------------------------------------------------

    def turn(self) -> int:
        return self._ply % 2

    def ply(self) -> int:
        return self._ply

    def legal_moves(self) -> Sequence[str]:
        """Statement-legal moves, one shortest path per destination; empty once the game is over."""
        return tuple(self._moves())

    def judge(self, move: str) -> Judged:
        if self._outcome is not None:
            raise IllegalMove(move, f"the game is over ({self._outcome.reason})")
        warnings: list[str] = []
        points = _read_points(move, warnings)
        cells = _check_path(move, self._board, self.turn(), points, warnings)
        return Judged(self._after(cells[0], cells[-1]), _move_string(cells), tuple(warnings))

    def play(self, move: str) -> HalmaPosition:
        known = self._moves().get(move)
        if known is not None:
            return self._after(known.origin, known.target)
        return self.judge(move).position  # type: ignore[return-value]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def notation(self) -> str:
        side = "1" if self.turn() == 0 else "2"
        return f"{'/'.join(self.board_lines())} {side} {self._ply}"

    def board_lines(self) -> list[str]:
        chars = ".12#"
        b = self._board
        return [
            "".join(chars[b[_index(x, y)]] for x in range(1, SIZE + 1)) for y in range(1, SIZE + 1)
        ]

    # -- helpers -------------------------------------------------------------------------

    def pieces(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The seat's pieces as (x, y), sorted."""
        return tuple(sorted(_xy(c) for c in self._pieces[seat]))

    def _moves(self) -> dict[str, _Candidate]:
        """The listing, computed once: {move text: candidate}, in listing order."""
        if self._listing is None:
            found = [] if self._outcome else _candidates(self._board, self._pieces[self.turn()])
            found.sort(key=_Candidate.sort_key)
            self._listing = {c.text: c for c in found}
        return self._listing

    def _after(self, origin: int, target: int) -> HalmaPosition:
        board = bytearray(self._board)
        board[target], board[origin] = board[origin], _EMPTY
        seat = self.turn()
        moved = tuple(target if c == origin else c for c in self._pieces[seat])
        pieces = (moved, self._pieces[1]) if seat == 0 else (self._pieces[0], moved)
        return HalmaPosition(self._config, bytes(board), pieces, self._ply + 1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HalmaPosition):
            return NotImplemented
        return (self._board, self._ply) == (other._board, other._ply)

    def __hash__(self) -> int:
        return hash((self._board, self._ply))

    def __repr__(self) -> str:
        return f"HalmaPosition({self.notation()!r})"


def _empty_board() -> bytearray:
    board = bytearray([_WALL]) * (_WIDTH * _WIDTH)
    for c in _ON_BOARD:
        board[c] = _EMPTY
    return board


def _position(config: _Config, board: bytearray, ply: int) -> HalmaPosition:
    pieces = tuple(tuple(c for c in _ON_BOARD if board[c] == seat + 1) for seat in (0, 1))
    return HalmaPosition(config, bytes(board), pieces, ply)  # type: ignore[arg-type]


def _parse(config: _Config, text: str) -> HalmaPosition:
    fields = text.split()
    if len(fields) != 3:
        raise PositionError(f"expected 3 fields (rows, side to move, ply), got {len(fields)}")
    rows_text, side, ply_text = fields
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        raise PositionError(f"expected {SIZE} rows separated by '/', got {len(rows)}")
    board = _empty_board()
    for y, row in enumerate(rows, start=1):
        if len(row) != SIZE:
            raise PositionError(f"row y={y} has {len(row)} cells, expected {SIZE}")
        for x, char in enumerate(row, start=1):
            if char not in ".12":
                raise PositionError(f"row y={y}, x={x}: unexpected character {char!r} (use . 1 2)")
            board[_index(x, y)] = ".12".index(char)
    if side not in ("1", "2"):
        raise PositionError(f"side to move must be 1 or 2, got {side!r}")
    if not ply_text.isdigit() or not ply_text.isascii():
        raise PositionError(f"ply must be a non-negative integer, got {ply_text!r}")
    ply = int(ply_text)
    if int(side) - 1 != ply % 2:
        raise PositionError(
            f"side to move {side} does not match ply {ply}: player 1 moves on even plies, "
            "player 2 on odd ones"
        )
    for seat in (0, 1):
        count = sum(1 for c in _ON_BOARD if board[c] == seat + 1)
        if not 1 <= count <= PIECES:
            raise PositionError(f"player {seat + 1} has {count} pieces, expected 1..{PIECES}")
    return _position(config, board, ply)


# ---------------------------------------------------------------------------------------
# Rules


class HalmaRules:
    """Halma 16x16 rules configured by a spec's `[rules]` table."""

    def __init__(self, config: _Config) -> None:
        self.config = config
        #: The turn limit (a draw at this ply), which also sizes fuzz's games.
        self.max_plies = config.max_plies

    def initial(self) -> HalmaPosition:
        board = _empty_board()
        for seat in (0, 1):
            for c in START[seat]:
                board[c] = seat + 1
        return _position(self.config, board, 0)

    def parse(self, notation: str) -> HalmaPosition:
        return _parse(self.config, notation)

    def perft(self, position: Any, depth: int) -> int:
        if not isinstance(position, HalmaPosition):
            return generic_perft(position, depth)
        return _perft(position, depth)

    def divide(self, position: Any, depth: int) -> list[tuple[str, int]]:
        return generic_divide(self, position, depth)


def _perft(position: HalmaPosition, depth: int) -> int:
    """Perft on cell pairs: no move strings and no paths (a move is its origin and target)."""
    if depth == 0:
        return 1
    if position.outcome() is not None:
        return 0
    board, mine = position._board, position._pieces[position.turn()]
    if depth == 1:
        return _count_moves(board, mine)
    return sum(_perft(position._after(o, t), depth - 1) for o, t in _destinations(board, mine))


def make_rules(options: Mapping[str, Any]) -> HalmaRules:
    merged = take_options(options, DEFAULT_OPTIONS)
    for key in ("max_plies", "blocker_from_ply"):
        if merged[key] < 1:
            raise OptionError(key, f"must be at least 1, got {merged[key]}")
    return HalmaRules(_Config(merged["max_plies"], merged["blocker_from_ply"]))


# ---------------------------------------------------------------------------------------
# Built-in opponent


# Far corner of each seat's home: the greedy player's fixed measure of progress.
_CORNER = (_index(SIZE, SIZE), _index(1, 1))
# How close to blocker_from_ply the greedy player starts to clear its own zone.
_ZONE_RUSH_PLIES = 40
#: How close to blocker_from_ply the other styles start to leave their zone (one piece a
#: move: they need longer than greedy, which heads out all along).
_STYLE_RUSH_PLIES = 150
_RUSH_BONUS = 10**9
_ZONE_PENALTY = 10**12


def _chebyshev(a: int, b: int) -> int:
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return max(abs(ax - bx), abs(ay - by))


def _distance_cost(seat: int) -> tuple[int, ...]:
    """Per cell: (Manhattan distance to the far corner, +1 outside home) cubed.

    A fixed potential (rather than one aimed at a moving target) means every move the greedy
    player makes for this score strictly lowers it, so it cannot shuffle in circles; cubing
    makes one stride of a straggler worth more than the same stride of a leading piece, which
    keeps the army together and empties the own zone in time. The +1 makes the 19 home cells
    exactly the cheapest ones (the two cells at distance 5 outside home cost 6).
    """
    cx, cy = _xy(_CORNER[seat])
    cost = [0] * (_WIDTH * _WIDTH)
    for c in _ON_BOARD:
        x, y = _xy(c)
        f = abs(x - cx) + abs(y - cy) + (0 if c in HOME[seat] else 1)
        cost[c] = f**3
    return tuple(cost)


_COST = (_distance_cost(0), _distance_cost(1))


def _progress(position: HalmaPosition, seat: int, move: _Candidate) -> int:
    """Primary greedy score: the fall in `_COST`, overridden near `blocker_from_ply`.

    From `_ZONE_RUSH_PLIES` before the blocker check on, leaving the own zone trumps
    everything, and entering it (an immediate loss once the check runs) is never chosen while
    anything else is possible.
    """
    cost = _COST[seat]
    score = cost[move.origin] - cost[move.target]
    if position.ply() >= position._config.blocker_from_ply - _ZONE_RUSH_PLIES:
        zone = ZONE[seat]
        if move.origin in zone and move.target not in zone:
            score += _RUSH_BONUS
        if move.target in zone:
            score -= _ZONE_PENALTY
    return score


def _hole_approach(board: bytes, seat: int, move: _Candidate) -> int:
    """Tie-break: how much closer an outside piece gets to the nearest free home cell.

    The fixed potential cannot see that the last pieces must slide sideways to reach the one
    free home cell; this steers them there.
    """
    home = HOME[seat]
    if move.origin in home:
        return 0
    free = [c for c in home if board[c] == _EMPTY]
    if not free:
        return 0
    before = min(_chebyshev(move.origin, c) for c in free)
    after = 0 if move.target in home else min(_chebyshev(move.target, c) for c in free)
    return before - after


def choose_move(position: HalmaPosition, rng: random.Random, style: str = "greedy") -> str:
    """The bundled reference bot's play: "random" (uniform) or "greedy"; the judge's
    opponents are in `prefer` (see prototest.games.opponents).

    Greedy maximises `_progress`, then `_hole_approach`, and breaks remaining ties with `rng`;
    deterministic for a given `rng` state.
    """
    if position.outcome() is not None:
        raise ValueError("the game is over")
    moves = position._moves()
    if not moves:
        raise ValueError("no legal moves")
    if style == "random":
        return rng.choice(list(moves))
    if style != "greedy":
        raise ValueError(f"unknown style {style!r} (known: greedy, random)")
    seat = position.turn()
    scored = [(_progress(position, seat, c), text, c) for text, c in moves.items()]
    best = max(score for score, _, _ in scored)
    tied = [(text, c) for score, text, c in scored if score == best]
    if len(tied) > 1:
        approach = [(_hole_approach(position._board, seat, c), text) for text, c in tied]
        top = max(a for a, _ in approach)
        return rng.choice([text for a, text in approach if a == top])
    return tied[0][0]


# ---------------------------------------------------------------------------------------
# Opponent styles and fuzzing hooks (see games/base.py)

#: Opponent styles (see prototest.games.opponents): "random" plays any allowed move.
STYLES = ("random", "greedy", "racing", "wandering", "crowding", "stalling")
#: Move classes a swarm opponent may never play.
MOVE_CLASSES = ("jump", "long chain", "step", "backward", "edge landing")
#: Jumps in a chain from which a move counts as a long chain.
LONG_CHAIN = 4


@functools.lru_cache(maxsize=1 << 16)
def _hops(move: str) -> int:
    """Jumps in a move: a chain of k jumps names k + 1 points; a step names 2 (0 jumps)."""
    numbers = move.split()
    if len(numbers) == 4 and max(abs(int(numbers[2]) - int(numbers[0])),
                                 abs(int(numbers[3]) - int(numbers[1]))) == 1:
        return 0
    return len(numbers) // 2 - 1


def _gain(seat: int, c: _Candidate) -> int:
    """How much nearer its far corner the move brings the piece (Manhattan distance)."""
    (ox, oy), (tx, ty), (cx, cy) = _xy(c.origin), _xy(c.target), _xy(_CORNER[seat])
    return abs(ox - cx) + abs(oy - cy) - abs(tx - cx) - abs(ty - cy)


def _on_edge(cell: int) -> bool:
    x, y = _xy(cell)
    return x in (1, SIZE) or y in (1, SIZE)


def move_kinds(position: HalmaPosition, move: str) -> frozenset[str]:
    """What a listed move does: "jump" or "step", "long chain" (4+ hops), "backward"
    (away from the mover's home), "edge landing"."""
    c = position._moves()[move]
    hops = _hops(move)
    kinds = {"jump" if hops else "step"}
    if hops >= LONG_CHAIN:
        kinds.add("long chain")
    if _gain(position.turn(), c) < 0:
        kinds.add("backward")
    if _on_edge(c.target):
        kinds.add("edge landing")
    return frozenset(kinds)


def without_classes(position: HalmaPosition, moves: Sequence[str], omit: AbstractSet[str]) -> list[str]:
    """The moves of `moves` of no class in `omit`, in their order: `move_kinds`'s answer for
    each (see prototest.games.opponents), with the listing read once and only the omitted
    classes worked out (asked move by move, the opponent's filter cost more than its
    preference)."""
    listing, seat = position._moves(), position.turn()
    jump, step, chain = "jump" in omit, "step" in omit, "long chain" in omit
    backward, edge = "backward" in omit, "edge landing" in omit
    kept = []
    for move in moves:
        hops = _hops(move)
        if (jump and hops) or (step and not hops) or (chain and hops >= LONG_CHAIN):
            continue
        if backward or edge:
            c = listing[move]
            if (backward and _gain(seat, c) < 0) or (edge and _on_edge(c.target)):
                continue
        kept.append(move)
    return kept


def opponent_candidates(position: HalmaPosition) -> list[str]:
    """The opponent's moves in listing order."""
    return list(position._moves())


def prefer(position: HalmaPosition, style: str, moves: list[str]) -> list[str]:
    """The moves a style prefers (see games/base.py). greedy: progress on a fixed potential,
    leaving the own zone before the blocker check; racing: the longest strides towards home
    (long chains); wandering: steps only; crowding: moves that land beside the most enemy
    pieces (bridges for long chains, on both sides); stalling: the least progress (a
    stalling side may stay a blocker)."""
    if style in ("stalling", "greedy"):  # greedy heads out of its zone by itself
        return _style_moves(position, style, moves)
    # The other styles move their pieces out of their own zone before the blocker check,
    # as a player that means to win does, so that games go on past it.
    listing, seat = position._moves(), position.turn()
    if position.ply() >= position._config.blocker_from_ply - _STYLE_RUSH_PLIES:
        zone = ZONE[seat]
        leaving = [m for m in moves if listing[m].origin in zone and _gain(seat, listing[m]) > 0]
        if leaving:
            return _style_moves(position, style, leaving) or leaving
    return _style_moves(position, style, moves)


def _style_moves(position: HalmaPosition, style: str, moves: list[str]) -> list[str]:
    listing, seat = position._moves(), position.turn()
    if style == "greedy":
        scored = [(_progress(position, seat, listing[m]), m) for m in moves]
        best = max(score for score, _ in scored)
        tied = [m for score, m in scored if score == best]
        return best_scored(tied, lambda m: _hole_approach(position._board, seat, listing[m]))
    if style == "racing":
        return best_scored(moves, lambda m: _gain(seat, listing[m]))
    if style == "wandering":
        return [m for m in moves if not _hops(m)]
    if style == "crowding":
        beside = Counter(e + d for e in position._pieces[1 - seat] for d in _DIRECTIONS)
        return best_scored(moves, lambda m: beside[listing[m].target])
    if style == "stalling":
        return best_scored(moves, lambda m: -_gain(seat, listing[m]))
    raise ValueError(f"unknown style {style!r} (known: {', '.join(STYLES)})")



#: Every name `situations` can give, for the summary of what a run did not reach.
SITUATIONS = (f"jump chain of {LONG_CHAIN}+ hops available", "piece on the edge", "blocker rule checked",
              "ply 400 or later", "15 or more pieces home", f"jump chain of {LONG_CHAIN}+ hops")


def situations(position: HalmaPosition, move: str | None = None) -> list[str]:
    if move is not None:
        found = [f"jump chain of {LONG_CHAIN}+ hops"] if _hops(move) >= LONG_CHAIN else []
        if position.ply() + 1 >= position._config.blocker_from_ply:
            found.append("blocker rule checked")
        return found
    seat = position.turn()
    found = []
    if any(_hops(m) >= LONG_CHAIN for m in position.legal_moves()):
        found.append(f"jump chain of {LONG_CHAIN}+ hops available")
    if any(_on_edge(c) for c in position._pieces[seat]):
        found.append("piece on the edge")
    if position.ply() >= 400:
        found.append("ply 400 or later")
    if sum(1 for c in position._pieces[seat] if c in HOME[seat]) >= 15:
        found.append("15 or more pieces home")
    return found


def measures(position: HalmaPosition) -> dict[str, float]:
    """Where bots' own generators and parsers break, as numbers the fuzz search keeps the
    furthest games of (prototest.play.elites): chain: the longest jump chain open to
    the bot; cornered: how few moves it has; most moves: how many (buffers sized for the
    usual, orderings that cost too much
    in the most open positions); edge: its pieces on the board's edge (coordinates 1 and
    16); home: its pieces home (the end of the game); long: the ply (the blocker rule
    from ply 200, the move limit)."""
    moves = position.legal_moves()
    seat = position.turn()
    mine = position._pieces[seat]
    return {"halma: longest chain": float(max((_hops(m) for m in moves), default=0)),
            "halma: cornered": -float(len(moves)),
            "halma: most moves": float(len(moves)),
            "halma: edge": float(sum(1 for c in mine if _on_edge(c))),
            "halma: home": float(sum(1 for c in mine if c in HOME[seat])),
            "halma: long": float(position.ply())}


def diagram(position: HalmaPosition) -> list[str]:
    """The 16x16 grid with x (columns) and y (rows) numbered 1..16, row 1 at the top."""
    head = "    " + " ".join(f"{x:>2}" for x in range(1, SIZE + 1))
    rows = [f"{y:>2}  " + " ".join(f"{c:>2}" for c in row) for y, row in enumerate(position.board_lines(), 1)]
    return [head + "   (x)", *rows, " (y)"]


# --------------------------------------------------------------------------------------
# The board as a picture (see games/base.py and prototest.games.draw)

_DEFS = draw.defs(
    draw.disc("halma-1", draw.PALETTE["red"], "#7a1d16", "#f08a80"),
    draw.disc("halma-2", draw.PALETTE["blue"], "#15386f", "#8fb4f0"),
)
_CAMPS = ("#f3c9c2", "#c6d6f3")
_NUMBERS = tuple(str(n) for n in range(1, SIZE + 1))


def svg(position: HalmaPosition, *, last: str | None = None, bad: str | None = None,
        flipped: bool = False) -> str:
    """The board as an SVG element: the two starting camps tinted in their player's
    colour, red and blue pieces, the move just played (its first and last cell tinted, a
    jump chain's path dashed), a refused move in red. Each piece carries `data-cell`
    (`x y`, as moves name it) and `data-piece` (`1` or `2`, as the notation writes it)."""
    grid = draw.Grid(SIZE, SIZE, flipped)
    camps = "".join(draw.region(grid, [_cell(c) for c in sorted(START[seat])], f'fill="{_CAMPS[seat]}"')
                    for seat in (0, 1))
    pieces = [draw.place(grid, _cell(c), f"halma-{seat + 1}", _CELL_TEXT[c], str(seat + 1))
              for seat in (0, 1) for c in sorted(position._pieces[seat])]
    return draw.root(
        "halma", position.notation(), grid, _DEFS,
        draw.plain(grid), camps,
        draw.labels(grid, _NUMBERS, _NUMBERS),
        draw.played(grid, last, _read_cells, ends=True),
        "".join(pieces),
        draw.route(grid, draw.read_cells(grid, last, _read_cells)),
        draw.refused(grid, bad, _read_cells))


def _cell(index: int) -> draw.Cell:
    x, y = _xy(index)
    return x - 1, y - 1


def _read_cells(move: str) -> list[draw.Cell]:
    """The points a move string names, as far as they are pairs of plain numbers."""
    numbers = []
    for token in move.split():
        if not token.isascii() or not _INTEGER.match(token) or len(token) > 6:
            break
        numbers.append(int(token))
    return [(x - 1, y - 1) for x, y in zip(numbers[::2], numbers[1::2])]
