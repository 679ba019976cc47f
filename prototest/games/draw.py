"""SVG boards: the small drawing layer the games' `svg()` share (see games/base.py).

A board is drawn on a grid of `CELL`-unit cells with a margin all round (`MARGIN`,
more on a large board, so that its coordinates stay readable when the page shows every
board the same width): the coordinates go in the left and bottom margins, a caption in
the top one. A game maps
its cells to (col, row), counted from the top-left corner as its diagram shows the
board; `Grid(flipped=True)` turns the board round (the second seat's view), so a game
never flips anything itself.

Everything here returns SVG text. Colours and sizes are presentation attributes on a
few `<g>` elements, never CSS: a board inlined in a page sets no style for the page,
and boards inlined side by side cannot restyle one another. Ids in `<defs>` start with
the game's name; boards of one game define each id the same way, so a page may hold
hundreds of them. The root carries the attributes a page and its tests rely on:
`class="board"`, `data-game`, and `data-position` (the position's notation).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

#: Size of one cell, and of the margin round the board, in SVG units.
CELL = 10
MARGIN = 6

#: One palette for every game.
PALETTE = {
    "light": "#f0d9b5",  # checkered boards (lichess's brown)
    "dark": "#b58863",
    "plain": "#efe9dc",  # boards of plain cells
    "line": "#a89f8c",
    "margin": "#3a3631",
    "coord": "#e8e2d6",
    "last": "#9bc700",  # the move just played: cells tinted
    "last path": "#5f7a00",
    "bad": "#e0202a",  # a refused move: arrow, cross, caption
    "check": "#ff5a1f",  # a king in check: ringed
    "white": "#fbfaf6",
    "black": "#2b2b2b",
    "red": "#d63a2f",
    "blue": "#2f6fd6",
    "yellow": "#f2c230",
    "edge": "#1d1d1d",
    "crown": "#e3a81b",
}

#: Characters XML 1.0 cannot hold at all (a control character in a bot's answer).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

Cell = tuple[int, int]


def esc(text: object) -> str:
    """`text` as XML text or attribute value: escaped, characters XML cannot hold dropped."""
    out = _NOT_XML.sub("", str(text))
    return out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def num(value: float) -> str:
    """A coordinate, short: 35, 35.5, 2.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Grid:
    """Where cells go. (col, row) counts from the top-left corner of the unflipped
    board; `flipped` turns the board by half a turn."""

    cols: int
    rows: int
    flipped: bool = False

    @property
    def scale(self) -> float:
        """How much larger than on a board of 8 the margin and its text are drawn."""
        return round(max(1.0, (max(self.cols, self.rows) / 8) ** 0.5), 2)

    @property
    def margin(self) -> float:
        return round(MARGIN * self.scale, 1)

    @property
    def font(self) -> float:
        return round(3.8 * self.scale, 1)

    @property
    def width(self) -> float:
        return self.cols * CELL + 2 * self.margin

    @property
    def height(self) -> float:
        return self.rows * CELL + 2 * self.margin

    def shown(self, cell: Cell) -> Cell:
        """The (col, row) a cell is drawn at."""
        col, row = cell
        return (self.cols - 1 - col, self.rows - 1 - row) if self.flipped else (col, row)

    def corner(self, cell: Cell) -> tuple[float, float]:
        col, row = self.shown(cell)
        return self.margin + col * CELL, self.margin + row * CELL

    def centre(self, cell: Cell) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + CELL / 2, y + CELL / 2

    def holds(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows


def root(game: str, notation: str, grid: Grid, *parts: str) -> str:
    """The whole `<svg>` element: the attributes the page relies on, then the parts."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(grid.width)} {num(grid.height)}" width="100%" '
            f'class="board" data-game="{esc(game)}" data-position="{esc(notation)}">'
            f'<rect width="{num(grid.width)}" height="{num(grid.height)}" rx="2" fill="{PALETTE["margin"]}"/>'
            + "".join(parts) + "</svg>")


def group(attrs: str, items: Iterable[str]) -> str:
    """Items sharing presentation attributes (`fill="red" opacity=".5"`); "" when none."""
    body = "".join(items)
    return f"<g {attrs}>{body}</g>" if body else ""


def defs(*items: str) -> str:
    return f"<defs>{''.join(items)}</defs>"


def _squares_path(grid: Grid, cells: Iterable[Cell]) -> str:
    parts = []
    for cell in cells:
        x, y = grid.corner(cell)
        parts.append(f"M{num(x)} {num(y)}h{CELL}v{CELL}h-{CELL}z")
    return "".join(parts)


def region(grid: Grid, cells: Iterable[Cell], attrs: str) -> str:
    """Cells filled as one path (`attrs` says how): dark squares, camps, highlights."""
    d = _squares_path(grid, cells)
    return f'<path d="{d}" {attrs}/>' if d else ""


def checkered(grid: Grid, dark: Callable[[Cell], bool]) -> str:
    """Light cells with the `dark` ones darker."""
    m = num(grid.margin)
    light = (f'<rect x="{m}" y="{m}" width="{grid.cols * CELL}" height="{grid.rows * CELL}" '
             f'fill="{PALETTE["light"]}"/>')
    cells = [(c, r) for r in range(grid.rows) for c in range(grid.cols) if dark((c, r))]
    return light + region(grid, cells, f'fill="{PALETTE["dark"]}"')


def square_cell(square: int) -> Cell:
    """The cell of square 0..63 of an 8x8 board numbered a1 = 0 ... h8 = 63 (python-chess's
    order; rank 8 at the top unflipped)."""
    return square % 8, 7 - square // 8


def chequered_8x8(grid: Grid) -> str:
    """The 8x8 board of chess, Impasse and LOA: dark squares where a1 is dark, and the files
    a-h and ranks 1-8 along its edges."""
    return (checkered(grid, lambda cell: (cell[0] + cell[1]) % 2 == 1)
            + labels(grid, "abcdefgh", "87654321"))


def plain(grid: Grid, fill: str = PALETTE["plain"]) -> str:
    """Plain cells separated by thin lines."""
    w, h = grid.cols * CELL, grid.rows * CELL
    m = grid.margin
    lines = "".join(f"M{num(m + c * CELL)} {num(m)}v{h}" for c in range(1, grid.cols))
    lines += "".join(f"M{num(m)} {num(m + r * CELL)}h{w}" for r in range(1, grid.rows))
    return (f'<rect x="{num(m)}" y="{num(m)}" width="{w}" height="{h}" fill="{fill}"/>'
            f'<path d="{lines}" stroke="{PALETTE["line"]}" stroke-width=".4"/>')


def labels(grid: Grid, cols: Sequence[str], rows: Sequence[str]) -> str:
    """Column names under the board and row names left of it, in the cells' order
    unflipped (`cols[0]` names col 0); they follow the cells when flipped."""
    texts = []
    m = grid.margin
    bottom = m + grid.rows * CELL + m * 0.72
    for col, name in enumerate(cols):
        x, _ = grid.centre((col, 0))
        texts.append(f'<text x="{num(x)}" y="{num(bottom)}">{esc(name)}</text>')
    for row, name in enumerate(rows):
        _, y = grid.centre((0, row))
        texts.append(f'<text x="{num(m / 2)}" y="{num(y + grid.font * .36)}">{esc(name)}</text>')
    return group(f'fill="{PALETTE["coord"]}" font-family="sans-serif" font-size="{num(grid.font)}" '
                 f'text-anchor="middle"', texts)


def place(grid: Grid, cell: Cell, href: str, name: str, piece: str) -> str:
    """A piece drawn from `<defs>` (`href` is its id, drawn for a cell at 0,0), with the
    cell as move strings name it and the piece's short code for tests and pages."""
    x, y = grid.corner(cell)
    return f'<use href="#{href}" x="{num(x)}" y="{num(y)}" data-cell="{esc(name)}" data-piece="{esc(piece)}"/>'


def tint(grid: Grid, cells: Iterable[Cell]) -> str:
    """Cells of the move just played, tinted (drawn under the pieces)."""
    return region(grid, dict.fromkeys(c for c in cells if grid.holds(c)), f'fill="{PALETTE["last"]}" fill-opacity=".5"')


def route(grid: Grid, cells: Sequence[Cell]) -> str:
    """A jump chain's path, dashed, a dot on each cell it lands on (drawn over the
    pieces it jumps); "" for fewer than three cells."""
    points = [grid.centre(c) for c in cells if grid.holds(c)]
    if len(points) < 3:
        return ""
    d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points)
    dots = "".join(f'<circle cx="{num(x)}" cy="{num(y)}" r="1.1"/>' for x, y in points[1:-1])
    return (f'<g fill="{PALETTE["last path"]}" opacity=".9"><path d="{d}" fill="none" stroke="{PALETTE["last path"]}" '
            f'stroke-width="1.6" stroke-linejoin="round" stroke-linecap="round" stroke-dasharray="2.6 1.6"/>{dots}</g>')


def arrow(grid: Grid, cells: Sequence[Cell], colour: str, width: float = 2.2) -> str:
    """A thick arrow through the cells' centres, its head on the last one."""
    points = [grid.centre(c) for c in cells]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = max(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1e-9)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = min(width * 2.2, length * 0.6)
    tip = (x1 - ux * CELL * 0.12, y1 - uy * CELL * 0.12)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points[:-1] + [base])
    wing = width * 1.3
    head_d = (f"M{num(tip[0])} {num(tip[1])}L{num(base[0] - uy * wing)} {num(base[1] + ux * wing)}"
              f"L{num(base[0] + uy * wing)} {num(base[1] - ux * wing)}z")
    return (f'<g fill="{colour}" stroke="{colour}" opacity=".78"><path d="{d}" fill="none" stroke-width="{num(width)}" '
            f'stroke-linejoin="round"/><path d="{head_d}" stroke="none"/></g>')


def cross(grid: Grid, cell: Cell, colour: str) -> str:
    """An X over one cell."""
    x, y = grid.corner(cell)
    a, b = CELL * 0.2, CELL * 0.8
    d = (f"M{num(x + a)} {num(y + a)}L{num(x + b)} {num(y + b)}"
         f"M{num(x + b)} {num(y + a)}L{num(x + a)} {num(y + b)}")
    return f'<path d="{d}" stroke="{colour}" stroke-width="2" stroke-linecap="round" opacity=".85"/>'


def ring(grid: Grid, cell: Cell, colour: str) -> str:
    """A ring round one cell's piece (a king in check)."""
    x, y = grid.centre(cell)
    return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(CELL * .44)}" fill="{colour}" fill-opacity=".18" '
            f'stroke="{colour}" stroke-width="1.1"/>')


def caption(grid: Grid, text: str, colour: str = PALETTE["bad"]) -> str:
    """One line of text in the top margin."""
    return (f'<text x="{num(grid.width / 2)}" y="{num(grid.margin * 0.75)}" fill="{colour}" '
            f'font-family="sans-serif" font-size="{num(grid.font)}" text-anchor="middle">{esc(text)}</text>')


def refused(grid: Grid, move: object, read: Callable[[str], Sequence[Cell]]) -> str:
    """A refused move in red: an arrow through the cells `read(move)` finds on the board,
    a cross on a single one, else a caption with the text. Never raises: whatever `read`
    makes of the string, or fails to, something or nothing is drawn."""
    if move is None:
        return ""
    text = move if isinstance(move, str) else str(move)
    read_off = read_cells(grid, text, read)
    cells = [c for i, c in enumerate(read_off) if i == 0 or c != read_off[i - 1]]  # a1a1 is one cell
    colour = PALETTE["bad"]
    if len(cells) >= 2:
        return region(grid, [cells[0]], f'fill="{colour}" fill-opacity=".25"') + arrow(grid, cells, colour)
    if cells:
        return cross(grid, cells[0], colour)
    shown = repr(text)
    return caption(grid, f"refused: {shown if len(shown) <= 40 else shown[:36] + '...' + shown[0]}")


def read_cells(grid: Grid, move: object, read: Callable[[str], Sequence[Cell]]) -> list[Cell]:
    """The cells `read(move)` finds on the board; none when it raises or `move` is no text."""
    if not isinstance(move, str) or not move:
        return []
    try:
        return [c for c in read(move) if grid.holds(c)]
    except Exception:  # noqa: BLE001 - an unreadable move names no cell
        return []


def played(grid: Grid, move: object, read: Callable[[str], Sequence[Cell]], *, ends: bool = False) -> str:
    """The move just played, its cells tinted (with `ends`, only the first and the last:
    a jump chain, whose path `route` draws). Like `refused`, never raises."""
    cells = read_cells(grid, move, read)
    return tint(grid, cells[:1] + cells[-1:] if ends else cells)


def disc(ident: str, fill: str, edge: str, ring: str, *, dy: float = 0) -> str:
    """A checker for `<defs>`, drawn for a cell at 0,0: a disc with a groove."""
    c, cy = CELL / 2, CELL / 2 + dy
    return (f'<g id="{ident}"><circle cx="{num(c)}" cy="{num(cy)}" r="{num(CELL * .39)}" fill="{fill}" stroke="{edge}" '
            f'stroke-width=".5"/><circle cx="{num(c)}" cy="{num(cy)}" r="{num(CELL * .25)}" fill="none" '
            f'stroke="{ring}" stroke-width=".45"/></g>')


def crowned(ident: str, fill: str, edge: str, ring: str) -> str:
    """Two checkers stacked, the top one crowned, for `<defs>` like `disc`."""
    low = (f'<circle cx="{num(CELL / 2)}" cy="{num(CELL * .58)}" r="{num(CELL * .39)}" fill="{fill}" stroke="{edge}" '
           f'stroke-width=".5"/>')
    top = (f'<circle cx="{num(CELL / 2)}" cy="{num(CELL * .44)}" r="{num(CELL * .39)}" fill="{fill}" stroke="{edge}" '
           f'stroke-width=".5"/>')
    s = CELL / 10
    points = [(2.9, 5.5), (2.6, 3.1), (3.9, 4.2), (5, 2.5), (6.1, 4.2), (7.4, 3.1), (7.1, 5.5)]
    d = "M" + "L".join(f"{num(x * s)} {num(y * s)}" for x, y in points) + "z"
    return (f'<g id="{ident}">{low}{top}<path d="{d}" fill="{PALETTE["crown"]}" stroke="{ring}" stroke-width=".4" '
            f'stroke-linejoin="round"/></g>')
