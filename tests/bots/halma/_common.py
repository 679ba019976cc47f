"""Correct play shared by the broken Halma bots; each bot overrides one hook of `Bot`.

The play is the reference bot's (`prototest/bots/halma_bot.py`): the position is tracked
from the `move ...` echoes with `prototest.games.halma`, the answer is
`halma.choose_move(position, rng, "greedy")` with a fixed seed, written `move x1 y1 ...`
and flushed; exit 0 when stdin ends. The bots run with the venv's `python3` first on PATH,
which has prototest installed.

Coordinates are 1-based, x the column from the left, y the row from the top.
"""

from __future__ import annotations

import random
import sys
import time

from prototest.games import halma

SEED = 20240601
SIZE = 16
#: The 8 directions as (dx, dy), in a fixed order.
DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
KNIGHT = [(2, 1), (1, 2), (-2, 1), (-1, 2), (2, -1), (1, -2), (-2, -1), (-1, -2)]


def cell(position, x: int, y: int) -> str:
    """'.', '1', '2', or '#' off the board."""
    if not (1 <= x <= SIZE and 1 <= y <= SIZE):
        return "#"
    return position.board_lines()[y - 1][x - 1]


def points(move: str) -> list[tuple[int, int]]:
    numbers = [int(n) for n in move.split()]
    return list(zip(numbers[0::2], numbers[1::2]))


def text(pts) -> str:
    return " ".join(f"{x} {y}" for x, y in pts)


def refused(position, move: str) -> bool:
    """True when the referee's rules refuse the move string outright."""
    try:
        position.judge(move)
    except halma.IllegalMove:
        return True
    return False


def sleep_forever() -> None:
    while True:
        time.sleep(3600)


class Bot:
    """A correct bot. Hooks, in the order they run: handshake, (per turn) choose, format,
    send; on_echo after each `move` line; on_eof when stdin ends."""

    def __init__(self) -> None:
        self.rules = halma.make_rules({})
        self.position = self.rules.initial()
        self.rng = random.Random(SEED)
        self.seat: int | None = None  # 0 for player 1, 1 for player 2
        self.turn = 0  # number of `yourmove` lines received so far

    # -- hooks -------------------------------------------------------------------------
    def handshake(self) -> None:
        self.send("ready")

    def choose(self, position) -> str:
        return halma.choose_move(position, self.rng, "greedy")

    def format(self, move: str) -> str:
        return f"move {move}"

    def send(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def on_echo(self, move: str, mine: bool) -> None:
        pass

    def on_eof(self) -> None:
        sys.exit(0)

    # -- the dialogue ------------------------------------------------------------------
    def play_turn(self) -> None:
        self.send(self.format(self.choose(self.position)))

    def mine(self) -> list[tuple[int, int]]:
        return list(self.position.pieces(self.position.turn()))

    def run(self) -> None:
        self.handshake()
        while True:
            line = sys.stdin.readline()
            if not line:
                return self.on_eof()
            words = line.split()
            if not words:
                continue
            if words[0] == "start" and len(words) == 2:
                self.seat = int(words[1]) - 1
            elif words[0] == "yourmove":
                self.turn += 1
                self.play_turn()
            elif words[0] == "move":
                move = " ".join(words[1:])
                mine = self.position.turn() == self.seat
                self.position = self.position.play(move)
                self.on_echo(move, mine)


# -- Where a bot's pieces stand, for the bots that plan their endgame themselves --------

#: Each seat's starting camp (1-based (x, y)): rows of 5, 5, 4, 3, 2 in its corner.
CAMP = (
    frozenset((x, y) for x in range(1, 6) for y in range(1, 6) if x + y <= 7),
    frozenset((17 - x, 17 - y) for x in range(1, 6) for y in range(1, 6) if x + y <= 7),
)
#: The far corner of each seat's home (the opponent's camp).
FAR_CORNER = ((SIZE, SIZE), (1, 1))


def home(seat: int) -> frozenset:
    """Where seat's pieces must go: the other seat's camp."""
    return CAMP[1 - seat]


def king_distance(a, b) -> int:
    """Steps between two cells for a king (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
