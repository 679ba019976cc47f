"""Connect Four for prototest: the rules module of the game `connect4`.

Rules: a board of 7 columns and 6 rows, empty at the start. Seat 0 (`x`) moves first,
then the seats alternate. A move is a column digit, `1` (left) to `7` (right): the disc
drops to the lowest empty cell of that column, which must not be full. Four discs of one
side in a row, a column or a diagonal win at once; a full board (42 discs) is a draw. The
option `max_plies` (at most 42) ends the game earlier, drawn.

Position notation, one line: the six rows, top row first, seven characters each from `.`
(empty), `x` (seat 0) and `o` (seat 1), joined by `/`; a space; the side to move. The
ply is the number of discs, so it is not written:

    ......./......./......./......./......./...x... o

`parse()` refuses a disc above an empty cell, disc counts the turns cannot give, a side
to move that does not match them, and a side to move that already has four in a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Mapping

from prototest.games import draw
from prototest.games.base import (IllegalMove, Judged, OptionError, Outcome, PositionError, Rules,
                                  best_scored, take_options)

SPEC = "connect4.toml"
BOT = "prototest_connect4.bot"

COLS, ROWS, CELLS = 7, 6, 42
MARKS = "xo"
COLUMNS = tuple(str(c + 1) for c in range(COLS))


def _windows() -> tuple[tuple[int, ...], ...]:
    """Every line of four cells (index = row * 7 + column, row 0 at the bottom): 69."""
    out = []
    for row in range(ROWS):
        for col in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, col + i * dc) for i in range(4)]
                if all(0 <= r < ROWS and 0 <= c < COLS for r, c in cells):
                    out.append(tuple(r * COLS + c for r, c in cells))
    return tuple(out)


WINDOWS = _windows()


def four(cells: str, mark: str) -> bool:
    return any(all(cells[i] == mark for i in w) for w in WINDOWS)


@dataclass(frozen=True)
class Position:
    """An immutable position: `cells` is 42 characters, row 0 (the bottom) first."""

    cells: str
    max_plies: int = CELLS

    def turn(self) -> int:
        return self.ply() % 2

    def ply(self) -> int:
        return CELLS - self.cells.count(".")

    def height(self, col: int) -> int:
        return sum(self.cells[r * COLS + col] != "." for r in range(ROWS))

    def drop(self, col: int, mark: str) -> str:
        """The cells after `mark` drops into column `col` (not full)."""
        i = self.height(col) * COLS + col
        return self.cells[:i] + mark + self.cells[i + 1:]

    @cached_property
    def _moves(self) -> tuple[str, ...]:
        if self._outcome is not None:
            return ()
        return tuple(COLUMNS[c] for c in range(COLS) if self.height(c) < ROWS)

    @cached_property
    def _outcome(self) -> Outcome | None:
        for seat, mark in enumerate(MARKS):
            if four(self.cells, mark):
                return Outcome(seat, "four in a row")
        if self.ply() >= CELLS:
            return Outcome(None, "board full")
        return Outcome(None, "turn limit") if self.ply() >= self.max_plies else None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_moves(self) -> list[str]:
        return list(self._moves)

    def judge(self, move: str) -> Judged:
        if move not in COLUMNS:
            raise IllegalMove(move, "a move is one column digit, 1 (left) to 7 (right)", malformed=True)
        if self._outcome is not None:
            raise IllegalMove(move, f"the game is over ({self._outcome.reason}); no move is accepted")
        if move not in self._moves:
            raise IllegalMove(move, f"column {move} is full ({ROWS} discs): play another column")
        return Judged(self.play(move), move)

    def play(self, move: str) -> Position:
        if move not in self._moves:
            self.judge(move)  # raises with the reason
        return Position(self.drop(int(move) - 1, MARKS[self.turn()]), self.max_plies)

    def board_lines(self) -> list[str]:
        return [self.cells[r * COLS:(r + 1) * COLS] for r in reversed(range(ROWS))]

    def notation(self) -> str:
        return f"{'/'.join(self.board_lines())} {MARKS[self.turn()]}"

    def winning(self, mark: str) -> list[str]:
        """The listed moves with which `mark` would have four in a row now."""
        return [m for m in self._moves if four(self.drop(int(m) - 1, mark), mark)]


class Connect4Rules(Rules):
    def __init__(self, max_plies: int) -> None:
        self.max_plies = max_plies

    def initial(self) -> Position:
        return Position("." * CELLS, self.max_plies)

    def parse(self, notation: str) -> Position:
        fields = notation.split()
        if len(fields) != 2:
            raise PositionError(f"expected 2 fields (board, side to move), got {len(fields)}")
        rows = fields[0].split("/")
        if len(rows) != ROWS:
            raise PositionError(f"expected {ROWS} rows separated by '/', got {len(rows)}")
        for n, row in enumerate(rows):
            where = f"row {ROWS - n} (row {n + 1} of the notation, the top row first)"
            if len(row) != COLS:
                raise PositionError(f"{where} has {len(row)} characters, not {COLS}")
            if bad := [ch for ch in row if ch not in ".xo"]:
                raise PositionError(f"{where}: unexpected {bad[0]!r} (use '.', 'x' or 'o')")
        cells = "".join(reversed(rows))
        for i in range(COLS, CELLS):
            if cells[i] != "." and cells[i - COLS] == ".":
                raise PositionError(f"column {i % COLS + 1}: a disc in row {i // COLS + 1} above an empty cell")
        x, o = cells.count("x"), cells.count("o")
        if x - o not in (0, 1):
            raise PositionError(f"{x} x and {o} o discs: x moves first, so x has as many as o or one more")
        if fields[1] != MARKS[x - o]:
            raise PositionError(f"side to move must be {MARKS[x - o]!r} with {x} x and {o} o discs, "
                                f"got {fields[1]!r}")
        if four(cells, fields[1]):
            raise PositionError(f"the side to move ({fields[1]}) already has four in a row: "
                                "the game would have ended")
        return Position(cells, self.max_plies)


def make_rules(options: Mapping[str, object]) -> Connect4Rules:
    max_plies = take_options(options, {"max_plies": CELLS})["max_plies"]
    if not 1 <= max_plies <= CELLS:
        raise OptionError("max_plies", f"must be 1 to {CELLS} (the board has {CELLS} cells), got {max_plies}")
    return Connect4Rules(max_plies)


# -- Opponents (prototest.games.opponents): styles and move classes --------------------------

#: greedy: win now, else block the opponent's win, else the column nearest the centre;
#: edge: the outer columns; filling: the fullest column (towards full columns and a full board).
STYLES = ("random", "greedy", "edge", "filling")
MOVE_CLASSES = ("centre", "edge", "winning", "blocking")


def move_kinds(position: Position, move: str) -> frozenset[str]:
    """centre: column 4; edge: column 1 or 7; winning: four in a row now; blocking: the
    cell where the opponent would have four."""
    col = int(move) - 1
    mark, other = MARKS[position.turn()], MARKS[1 - position.turn()]
    kinds = {"centre"} if col == 3 else {"edge"} if col in (0, 6) else set()
    if four(position.drop(col, mark), mark):
        kinds.add("winning")
    if four(position.drop(col, other), other):
        kinds.add("blocking")
    return frozenset(kinds)


def prefer(position: Position, style: str, moves: list[str]) -> list[str]:
    if style == "greedy":
        return best_scored(moves, lambda m: _greedy_key(position, m))
    if style == "edge":
        return best_scored(moves, lambda m: abs(int(m) - 4) if abs(int(m) - 4) >= 2 else None)
    if style == "filling":
        return best_scored(moves, lambda m: position.height(int(m) - 1))
    raise ValueError(f"unknown style {style!r} (known: {', '.join(STYLES)})")


def _greedy_key(position: Position, move: str) -> tuple[bool, bool, int]:
    kinds = move_kinds(position, move)
    return "winning" in kinds, "blocking" in kinds, -abs(int(move) - 4)


# -- Fuzzing and reports ---------------------------------------------------------------

SITUATIONS = ("a column full", "one column left", "a win available", "a block needed", "column filled")


def situations(position: Position, move: str | None = None) -> list[str]:
    """What the side to move faces or, given a move, whether it fills its column."""
    if move is not None:  # what playing `move` makes
        ok = move in position.legal_moves() and position.height(int(move) - 1) == ROWS - 1
        return ["column filled"] if ok else []
    moves = position.legal_moves()
    if not moves:
        return []
    found = ["a column full"] if len(moves) < COLS else []
    if len(moves) == 1:
        found.append("one column left")
    if position.winning(MARKS[position.turn()]):
        found.append("a win available")
    if position.winning(MARKS[1 - position.turn()]):
        found.append("a block needed")
    return found


def measures(position: Position) -> dict[str, float]:
    """full: columns full (the rule bots forget); threats: empty cells that would complete
    a four for either side; long: plies, towards a full board."""
    threats: set[int] = set()
    for window in WINDOWS:
        marks = "".join(position.cells[i] for i in window)
        if marks.count(".") == 1 and (marks.count("x") == 3 or marks.count("o") == 3):
            threats.add(window[marks.index(".")])
    full = sum(position.height(c) == ROWS for c in range(COLS))
    return {"connect4: full columns": float(full), "connect4: threats": float(len(threats)),
            "connect4: long": float(position.ply())}


def diagram(position: Position) -> list[str]:
    """The board as sent (top row first), with row numbers and column digits."""
    return [f"{ROWS - i} {' '.join(row)}" for i, row in enumerate(position.board_lines())] + \
        ["  " + " ".join(COLUMNS)]


# The board as a picture, with prototest's drawing layer (see prototest/games/base.py).

_DEFS = draw.defs(draw.disc("connect4-x", draw.PALETTE["red"], "#7a1d16", "#f08a80"),
                  draw.disc("connect4-o", draw.PALETTE["yellow"], "#8a6a00", "#fbe38a"))
_FRAME = "#2456b8"
_HOLE = "#eef2fa"


def svg(position: Position, *, last: str | None = None, bad: str | None = None, flipped: bool = False) -> str:
    """The board as an SVG element: red `x` and yellow `o` discs in a blue frame, the
    disc just dropped tinted, a refused column crossed out (on the cell it aimed at, the
    top one when the column is full). Both seats see the board the same way up, so
    `flipped` changes nothing. Each disc carries `data-cell` (`column row`, both from 1,
    row 1 at the bottom) and `data-piece` (`x` or `o`)."""
    grid = draw.Grid(COLS, ROWS)
    holes = "".join(f'<circle cx="{draw.num(x)}" cy="{draw.num(y)}" r="{draw.num(draw.CELL * .39)}"/>'
                    for x, y in (grid.centre((c, r)) for r in range(ROWS) for c in range(COLS)))
    frame = (f'<rect x="{draw.num(grid.margin)}" y="{draw.num(grid.margin)}" width="{COLS * draw.CELL}" height="{ROWS * draw.CELL}" '
             f'rx="1.5" fill="{_FRAME}"/><g fill="{_HOLE}">{holes}</g>')
    discs = [draw.place(grid, (i % COLS, ROWS - 1 - i // COLS), f"connect4-{mark}", f"{i % COLS + 1} {i // COLS + 1}",
                        mark)
             for i, mark in enumerate(position.cells) if mark != "."]

    def dropped(move: str) -> list[tuple[int, int]]:
        col = COLUMNS.index(move)
        return [(col, ROWS - position.height(col))] if position.height(col) else []

    def aimed(move: str) -> list[tuple[int, int]]:
        col = COLUMNS.index(move.strip())
        return [(col, max(0, ROWS - 1 - position.height(col)))]

    return draw.root("connect4", position.notation(), grid, _DEFS, frame,
                     draw.labels(grid, COLUMNS, [str(r) for r in range(ROWS, 0, -1)]),
                     draw.played(grid, last, dropped), "".join(discs), draw.refused(grid, bad, aimed))
