"""The CodinGame dialogue shared by the reference bots of that family (Impasse, LOA).

Over stdin/stdout, as prototest's judge (and CodinGame's referees) speak it:

* the bot's first turn only: its colour on one line (`w` or `b`);
* every turn: the board's lines (rank 8 first: as many as the game's `board_lines()`
  gives, 8 for Impasse and LOA), the opponent's last move (`null` before
  any move; LOA may send `pass`), the number of legal moves, then the legal moves one
  a line in ASCII order;
* the answer: one line, a move (optionally a space and a comment), flushed at once;
* when the game ends the judge closes stdin: exit with status 0.

A game's bot supplies only `choose(turn) -> str`; `run` does the rest. The loop never
reads ahead of what the judge has sent, so it works on a pipe as on a terminal.
"""

from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass
from typing import Callable, Optional, TextIO


@dataclass(frozen=True)
class Turn:
    """One turn as the judge sent it."""

    colour: str  # `w` or `b`: the bot's own colour (sent on its first turn only)
    rows: tuple[str, ...]  # the board lines, rank 8 first
    last_move: str  # `null` before any move
    moves: tuple[str, ...]  # the legal moves, in the judge's order

    def notation(self) -> str:
        """The position in the game's one-line notation (the ply count is unknown: 0)."""
        return "/".join(self.rows) + " " + self.colour + " 0"

    def rng(self) -> random.Random:
        """A generator seeded by the board, so a position always gets the same answer."""
        return random.Random("/".join(self.rows) + " " + self.colour)


class _EndOfInput(Exception):
    """stdin reached EOF: the game is over."""


def _line(stdin: TextIO) -> str:
    line = stdin.readline()
    if not line:
        raise _EndOfInput
    return line.rstrip("\r\n")


def read_turn(stdin: TextIO, colour: Optional[str], height: int = 8) -> Turn:
    """Read one turn of a board of `height` rows; `colour` is None on the first turn (the
    colour line comes first).

    Raises _EndOfInput when stdin ends, ValueError when the count is not a number.
    """
    if colour is None:
        colour = _line(stdin).strip()
    rows = tuple(_line(stdin).strip() for _ in range(height))
    last_move = _line(stdin).strip()
    count = int(_line(stdin).strip())
    moves = tuple(_line(stdin).strip() for _ in range(count))
    return Turn(colour, rows, last_move, moves)


def safe_choice(turn: Turn, choose: Callable[[Turn], str]) -> str:
    """The chosen move if the judge listed it, else the first listed move."""
    try:
        move = choose(turn)
    except Exception:  # a rules problem must not cost the game: play a listed move
        move = None
    if move in turn.moves or not turn.moves:
        return move or ""
    return turn.moves[0]


def run(choose: Callable[[Turn], str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
        height: int = 8) -> int:
    """Play turns of a board of `height` rows until stdin ends; returns the exit status (0)."""
    colour: Optional[str] = None
    try:
        while True:
            turn = read_turn(stdin, colour, height)
            colour = turn.colour
            stdout.write(safe_choice(turn, choose) + "\n")
            stdout.flush()
    except _EndOfInput:
        return 0
    except BrokenPipeError:
        # The judge went away; keep the interpreter's final flush from failing loudly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 0


def greedy_chooser(game: str) -> tuple[Callable[[Turn], str], int]:
    """`choose` for a registered game whose rules module has `choose_move`: its greedy
    opponent's move; and the height of the game's board (the rows a turn sends)."""
    from prototest import games

    module = games.game(game).module
    rules = module.make_rules({})

    def choose(turn: Turn) -> str:
        position = rules.parse(turn.notation())
        return module.choose_move(position, turn.rng(), "greedy")

    return choose, len(rules.initial().board_lines())


def main_for(game: str) -> None:
    """Entry point of a reference bot: play `game` and exit with status 0."""
    choose, height = greedy_chooser(game)
    sys.exit(run(choose, height=height))
