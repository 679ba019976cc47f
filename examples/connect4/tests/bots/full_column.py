"""A planted fault: sometimes plays a full column.

It plays like the reference bot (a win, else a block, else the column nearest the
centre) but chooses among the columns it reads as open from the board, not among the
listed moves, and its test is off by one: a column counts as full only above 6 discs.
Once the centre column is full (an opponent that blocks it there fills it) it plays it
again. `prototest check` and `prototest fuzz --game connect4` both catch it.
"""

from __future__ import annotations

import sys

from prototest_connect4.bot import play
from prototest_connect4.rules import COLUMNS, ROWS, prefer


def choose(position, seat: str, rows: list[str], moves: list[str]) -> str:
    """The listed moves are not looked at (the fault): the columns it reads as open are."""
    heights = [sum(row[c] != "." for row in rows) for c in range(len(COLUMNS))]
    mine = [m for m, h in zip(COLUMNS, heights) if h <= ROWS]  # the fault: h < ROWS
    return (prefer(position, "greedy", mine) or mine)[0]


if __name__ == "__main__":
    sys.exit(play(choose))
