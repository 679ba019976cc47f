"""Correct play shared by the broken LOA bots; each bot overrides one hook of `Bot`.

Deliberately independent of the `prototest` package and stdlib only (a test bot must
not break when the code under test does). The dialogue is CodinGame's: the colour
(`b`/`w`) on the first turn only; every turn 8 board lines (rank 8 first, `. b w`), the
opponent's last move (`null` at first, `pass` after a pass), the number of legal moves
and the moves, one a line (`pass` alone when there is no move). The answer is one listed
move, flushed; exit 0 when stdin ends.

Correct play: a listed move picked by a generator seeded with the board, preferring
captures. `own_moves` is a move generator of its own, for the bots that compute their
moves instead of reading the list; with the default flags it lists exactly the judge's
moves (a checker moves as many squares as there are checkers of both colours on its
line, may jump its own checkers but not the enemy's, and lands on an empty square or
an enemy checker).
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

FILES = "abcdefgh"
#: The eight directions (file step, rank step), grouped by line: row, column, diagonals.
LINES = (((1, 0), (-1, 0)), ((0, 1), (0, -1)), ((1, 1), (-1, -1)), ((1, -1), (-1, 1)))


def name(file: int, rank: int) -> str:
    """Square name from 0-based file and rank."""
    return f"{FILES[file]}{rank + 1}"


@dataclass
class Turn:
    colour: str  # `b` or `w`
    rows: list[str]  # 8 board lines, rank 8 first
    last_move: str
    moves: list[str]  # as listed, ASCII order

    def at(self, file: int, rank: int) -> str:
        """The content of a square (0-based file and rank): `.`, `b` or `w`."""
        return self.rows[7 - rank][file]

    def own_squares(self) -> list[tuple[int, int]]:
        """The bot's checkers as (file, rank), a1 first, then b1 .. h8."""
        return [(f, r) for r in range(8) for f in range(8) if self.at(f, r) == self.colour]

    def rng(self) -> random.Random:
        return random.Random("/".join(self.rows) + " " + self.colour)


def own_moves(turn: Turn, *, count_enemy: bool = True, jump_enemy: bool = False,
              enemy_look: int = 7) -> list[tuple[str, bool]]:
    """(move, jumps an enemy) for every move the bot believes legal, in ASCII order.

    `count_enemy=False` counts only the bot's own checkers on a line; `jump_enemy=True`
    lets a checker jump the enemy's; `enemy_look` is how many squares of a path it looks at
    for an enemy checker in the way (the rest are not looked at). With the defaults this is
    the judge's list.
    """
    me = turn.colour
    found = []
    for f, r in turn.own_squares():
        for line in LINES:
            on_line = 1  # the checker itself
            for df, dr in line:
                x, y = f + df, r + dr
                while 0 <= x < 8 and 0 <= y < 8:
                    if turn.at(x, y) == me or (count_enemy and turn.at(x, y) != "."):
                        on_line += 1
                    x, y = x + df, y + dr
            for df, dr in line:
                tx, ty = f + df * on_line, r + dr * on_line
                if not (0 <= tx < 8 and 0 <= ty < 8) or turn.at(tx, ty) == me:
                    continue
                between = [turn.at(f + df * i, r + dr * i) for i in range(1, min(on_line, enemy_look + 1))]
                jumps = any(c not in (".", me) for c in between)
                if jumps and not jump_enemy:
                    continue
                found.append((name(f, r) + name(tx, ty), jumps))
    return sorted(found)


def listed_choice(turn: Turn) -> str:
    """The correct play described in the module docstring."""
    rng = turn.rng()
    captures = [m for m in turn.moves
                if m != "pass" and turn.at(FILES.index(m[2]), int(m[3]) - 1) not in (".", turn.colour)]
    return rng.choice(captures or turn.moves)


def own_choice(turn: Turn, moves: list[str]) -> str:
    """`listed_choice`'s policy over a list of the bot's own (`pass` when it is empty)."""
    rng = turn.rng()
    captures = [m for m in moves if turn.at(FILES.index(m[2]), int(m[3]) - 1) not in (".", turn.colour)]
    return rng.choice(captures or moves) if moves else "pass"


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
        return listed_choice(turn)

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
