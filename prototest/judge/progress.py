"""What a game in play is doing, for the live view: a few numbers per game in memory shared
with the forked workers (`Slots`), written by the referee as the game goes (`played`,
`asked`, `answered`: one store into a shared array each, no lock, no rendering) and by
the runner as games start and end. The view (prototest.reports.live) reads them on its
refresh timer in the main process and sets `board` while it shows; without a view, the
hooks do nothing.

Here, below the view, so that the judge and the play layers can write what the reports
layer draws without importing it.
"""

from __future__ import annotations

import time
from typing import NamedTuple

#: index, seat (the referee's bot's), ply, last answer of the bot in seat 0 and in seat 1 (ms,
#: -1 none), asked at (perf_counter seconds, 0 none), the seat asked, started at. Both seats'
#: answers are kept: a match (or check --opponent) has a bot in each, each with its referee.
_FIELDS = 8
_INDEX, _SEAT, _PLY, _ANSWER0, _ANSWER1, _ASKED, _ASKED_SEAT, _STARTED = range(_FIELDS)

#: How many of the games played again alone the slots remember (a few at a time at most)
_ALONE_KEPT = 16

#: The slots of this run when the live view is on (None: the referee's hooks do nothing).
board: "Slots | None" = None
#: This process's slot for the game it plays (-1: none).
_mine = -1


class Slots:
    """A few numbers per game in play, in memory shared with the forked workers."""

    def __init__(self, count: int) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self.count = count
        self.values = ctx.RawArray("d", count * _FIELDS)
        self.lock = ctx.Lock()  # taken to claim and free a slot (once a game), never per ply
        #: the games played again alone (prototest.play.runner.Rechecks), the last few: [count, index...]
        self.alone = ctx.RawArray("d", 1 + _ALONE_KEPT)

    def again_alone(self, index: int) -> None:
        with self.lock:
            at = int(self.alone[0])
            self.alone[1 + at % _ALONE_KEPT] = index
            self.alone[0] = at + 1

    def alone_now(self) -> set[int]:
        return {int(i) for i in self.alone[1:] if i}

    def claim(self, index: int, seat: int) -> int:
        with self.lock:
            for slot in range(self.count):
                base = slot * _FIELDS
                if self.values[base + _INDEX] == 0:
                    self.values[base + _SEAT] = seat
                    self.values[base + _PLY] = 0
                    self.values[base + _ANSWER0] = -1
                    self.values[base + _ANSWER1] = -1
                    self.values[base + _ASKED] = 0
                    self.values[base + _ASKED_SEAT] = seat
                    self.values[base + _STARTED] = time.perf_counter()
                    self.values[base + _INDEX] = index
                    return slot
        return -1

    def free(self, slot: int) -> None:
        with self.lock:
            self.values[slot * _FIELDS + _INDEX] = 0

    def running(self) -> list["Running"]:
        """Each game in play, by its number."""
        out = []
        v = self.values
        for slot in range(self.count):
            base = slot * _FIELDS
            index = int(v[base + _INDEX])
            if index:
                out.append(Running(index, int(v[base + _SEAT]), int(v[base + _PLY]),
                                   (v[base + _ANSWER0], v[base + _ANSWER1]), v[base + _ASKED],
                                   int(v[base + _ASKED_SEAT]), v[base + _STARTED]))
        return sorted(out)


class Running(NamedTuple):
    """A game in play, as its slot has it."""

    index: int
    #: the referee's bot's seat (check's bot, a match game's first bot)
    seat: int
    ply: int
    #: the last answer time (ms, -1 none) of the bot in seat 0 and in seat 1
    answers: tuple[float, float]
    #: when a bot was last asked (perf_counter seconds; 0: the answer came), and its seat
    asked_at: float
    asked_seat: int
    started: float


# -- the referee's hooks (in whichever process plays the game) ---------------------------------

def game_started(index: int, seat: int) -> None:
    global _mine
    if board is not None:
        _mine = board.claim(index, seat)


def game_ended() -> None:
    global _mine
    if board is not None and _mine >= 0:
        board.free(_mine)
    _mine = -1


def again_alone(index: int) -> None:
    """Game `index` is to be played again alone (a re-check: prototest.play.runner.Rechecks);
    its live line says so. Called in whichever process decides it."""
    if board is not None:
        board.again_alone(index)


def played(ply: int) -> None:
    """A move was played: the game is at `ply`."""
    if _mine >= 0 and board is not None:
        board.values[_mine * _FIELDS + _PLY] = ply


def asked(t_ns: int, seat: int | None = None) -> None:
    """The bot in `seat` (default: the referee's bot's) was asked for its answer at
    perf_counter_ns `t_ns`."""
    if _mine >= 0 and board is not None:
        base = _mine * _FIELDS
        board.values[base + _ASKED_SEAT] = board.values[base + _SEAT] if seat is None else seat
        board.values[base + _ASKED] = t_ns / 1e9


def answered(ms: float, seat: int | None = None) -> None:
    """The answer of the bot in `seat` (default: the referee's bot's) came after `ms`."""
    if _mine >= 0 and board is not None:
        base = _mine * _FIELDS
        seat = int(board.values[base + _SEAT]) if seat is None else seat
        board.values[base + (_ANSWER1 if seat == 1 else _ANSWER0)] = ms
        board.values[base + _ASKED] = 0
