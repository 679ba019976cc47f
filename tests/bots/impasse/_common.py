"""Correct play shared by the broken Impasse bots; each bot overrides one hook of `Bot`.

Deliberately independent of the `prototest` package and stdlib only (a test bot must
not break when the code under test does). The dialogue is CodinGame's: the colour
(`w`/`b`) on the first turn only; every turn 8 board lines (rank 8 first, `. w W b B`),
the opponent's last move (`null` at first), the number of legal moves and the moves,
one a line. The answer is one listed move, flushed; exit 0 when stdin ends.

Correct play: the listed move that makes the most progress (a crown first, then the
longest advance of a single towards its furthest row), ties broken by a generator seeded
with the board, so a position always gets the same answer.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

FILES = "abcdefgh"
#: rank step of a single's slide: White (w) moves up, Black (b) down.
FORWARD = {"w": 1, "b": -1}


@dataclass
class Turn:
    colour: str  # `w` or `b`
    rows: list[str]  # 8 board lines, rank 8 first
    last_move: str
    moves: list[str]  # as listed, ASCII order

    def at(self, square: str) -> str:
        """The content of a square (`a1`..`h8`) as the judge sent it."""
        return self.rows[8 - int(square[1])][FILES.index(square[0])]

    def rng(self) -> random.Random:
        return random.Random("/".join(self.rows) + " " + self.colour)


def rank_gain(turn: Turn, move: str) -> int:
    """How far a slide brings a checker towards the mover's furthest row."""
    if len(move) < 4:
        return 0
    return (int(move[3]) - int(move[1])) * FORWARD[turn.colour]


def progress_choice(turn: Turn) -> str:
    """The correct play described in the module docstring."""
    rng = turn.rng()
    crowns = [m for m in turn.moves if len(m) == 6]
    if crowns:
        return rng.choice(crowns)
    best = max(rank_gain(turn, m) for m in turn.moves)
    return rng.choice([m for m in turn.moves if rank_gain(turn, m) == best])


def sleep_forever() -> None:
    while True:
        time.sleep(3600)


class EndOfInput(Exception):
    pass


class Bot:
    """A correct bot. Hooks, in the order they run: start, (per turn) read_turn, choose,
    format, send; on_eof when stdin ends."""

    def __init__(self) -> None:
        self.turn = 0  # number of turns received so far
        self.colour: str | None = None

    def line(self) -> str:
        text = sys.stdin.readline()
        if not text:
            raise EndOfInput
        return text.rstrip("\r\n")

    def start(self) -> None:
        pass

    def read_turn(self) -> Turn:
        if self.colour is None:
            self.colour = self.line().strip()
        rows = [self.line().strip() for _ in range(8)]
        last = self.line().strip()
        count = int(self.line())
        moves = [self.line().strip() for _ in range(count)]
        return Turn(self.colour, rows, last, moves)

    def choose(self, turn: Turn) -> str:
        return progress_choice(turn)

    def format(self, turn: Turn, move: str) -> str:
        return move

    def send(self, text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def on_eof(self) -> None:
        sys.exit(0)

    def run(self) -> None:
        self.start()
        try:
            while True:
                turn = self.read_turn()
                self.turn += 1
                self.send(self.format(turn, self.choose(turn)))
        except EndOfInput:
            pass
        except BrokenPipeError:
            sys.exit(0)
        self.on_eof()


# -- What a bot that keeps its own accounts works out from a move ----------------------

#: A side's nearest row (where its doubles bear off) and furthest row (where singles crown).
NEAREST = {"w": 1, "b": 8}
FURTHEST = {"w": 8, "b": 1}


def own_checkers(turn: Turn) -> int:
    """The bot's checkers on the board: a single counts 1, a double 2."""
    text = "".join(turn.rows)
    return text.count(turn.colour) + 2 * text.count(turn.colour.upper())


def is_transpose(turn: Turn, move: str) -> bool:
    """A move from one of the bot's doubles onto one of its singles on a diagonally
    adjacent square one rank nearer its nearest row."""
    if len(move) < 4 or abs(FILES.index(move[0]) - FILES.index(move[2])) != 1:
        return False
    return (turn.at(move[:2]) == turn.colour.upper() and turn.at(move[2:4]) == turn.colour
            and int(move[3]) - int(move[1]) == -FORWARD[turn.colour])


def checkers_taken_off(turn: Turn, move: str, *, transpose_bears_off: bool = True) -> int:
    """How many of the bot's checkers a listed move takes off the board (0 or 1).

    A bear-off (a double ending in the nearest row, by a slide or by a transpose) and an
    impasse removal (`c5`, or `e8c8` with its crown) each take one. `transpose_bears_off=False`
    forgets that a transpose onto a single in the nearest row bears off too.
    """
    if len(move) == 2:
        return 1  # impasse removal
    target = turn.at(move[2:4])
    if target == ".":  # a slide: a double that reaches the nearest row bears off
        double = turn.at(move[:2]) == turn.colour.upper()
        return int(double and int(move[3]) == NEAREST[turn.colour])
    if is_transpose(turn, move):
        return int(transpose_bears_off and int(move[3]) == NEAREST[turn.colour])
    return 1  # impasse removal followed by its crown (`e8c8`)

