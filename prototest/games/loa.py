"""Lines of Action as the CodinGame referee (darkhorse64/CG_LinesOfAction) plays it.

Rules, as the referee's `Board.java` and `Referee.java` implement them:

* 8x8 board, files a..h, ranks 1..8. Black (seat 0, told `b`) starts on b1..g1 and
  b8..g8 and moves first; White (seat 1, told `w`) starts on a2..a7 and h2..h7.
* A checker moves along its row, column or one of its two diagonals exactly as many
  squares as there are checkers of both colours on that whole line (both directions
  from the checker, the checker itself included). It may jump its own checkers, never
  an enemy's; it lands on an empty square or captures the enemy checker standing there,
  never on its own.
* Moves are written `e2e3` (from, to). The referee lists them sorted in plain ASCII
  order. When the side to move has no move the list is the single move `pass`, and
  `pass` is accepted only then.
* After every move (a pass included) the mover is checked first: if all its checkers
  form one 8-connected group it wins, even when the move also connected the opponent.
  Otherwise, if the opponent is connected, the opponent wins. A side with one checker
  is connected. When nobody has won and `max_plies` plies (150 on CodinGame) have been
  played, the game is drawn: wins are checked before the limit.

Position notation, one line: the eight board rows, rank 8 first, each eight characters
from `.` (empty), `b` (black) and `w` (white), joined by `/`; a space; the side to move
(`b` or `w`); a space; the number of plies played so far. No digit compression:

    .bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b 0

Choices where the referee leaves a gap (the referee only ever sees positions reached
from the start, so these concern hand-built positions and calls after the end):

* `outcome()` is read from the board alone: the side NOT to move is taken as the last
  mover and checked first, then the side to move, then the ply limit. A parsed position
  can therefore already be over.
* On a finished position `legal_moves()` is empty and `judge()` refuses every move with
  "the game is over"; the referee sends no further turn.
* `parse()` refuses a side with no checker (the referee's connectivity test would crash
  on it, and it cannot arise: the game ends as soon as a side is down to one checker,
  which is connected) and a side with more than 12 (checkers are never created). The
  ply count need not match the side to move; it only drives the turn limit.
* `judge()` matches exactly. The referee's prefix matching (`e2e3junk`), its comment
  after a space and its `random` answer are the caller's business. Upper-case squares
  are malformed: the referee compares with lower-case names.
"""

from __future__ import annotations

import functools
import random

import re
from typing import Iterator, Mapping

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
SPEC = bundled_spec("loa.toml")
BOT = "prototest.bots.loa_bot"

DEFAULT_OPTIONS: dict[str, int] = {"max_plies": 150}

BLACK, WHITE = 0, 1
COLOUR_CHARS = "bw"
MAX_CHECKERS = 12
PASS = "pass"
INITIAL_NOTATION = (
    ".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b 0"
)

# --------------------------------------------------------------------------------------
# Precomputed geometry. Square index = rank * 8 + file (a1 = 0, h1 = 7, h8 = 63), so
# a board side is a 64-bit Python int and a line count is one `bit_count()`.

FULL = (1 << 64) - 1
FILE_A = sum(1 << (r * 8) for r in range(8))
NOT_FILE_A = FULL ^ FILE_A
NOT_FILE_H = FULL ^ (FILE_A << 7)

NAMES: tuple[str, ...] = tuple(f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}" for sq in range(64))
SQUARE_OF: dict[str, int] = {name: sq for sq, name in enumerate(NAMES)}

#: The four line kinds and the two directions (rank step, file step) of each.
LINE_KINDS: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...] = (
    ("row", (0, 1), (0, -1)),
    ("column", (1, 0), (-1, 0)),
    ("diagonal", (1, 1), (-1, -1)),
    ("diagonal", (1, -1), (-1, 1)),
)

#: A jump table for one direction: entry n (n >= 1) is (target square, mask of the
#: squares strictly between) for a move of n squares; entry 0 is unused.
JumpTable = tuple[tuple[int, int], ...]


def _ray(sq: int, step: tuple[int, int]) -> list[int]:
    """Squares from `sq` (excluded) to the board edge in direction `step`."""
    rank, file = divmod(sq, 8)
    out = []
    rank, file = rank + step[0], file + step[1]
    while 0 <= rank < 8 and 0 <= file < 8:
        out.append(rank * 8 + file)
        rank, file = rank + step[0], file + step[1]
    return out


def _jump_table(ray: list[int]) -> JumpTable:
    table: list[tuple[int, int]] = [(-1, 0)]
    between = 0
    for target in ray:
        table.append((target, between))
        between |= 1 << target
    return tuple(table)


def _build_lines() -> tuple[tuple[tuple[int, JumpTable, JumpTable], ...], ...]:
    """For every square, per line kind: (whole-line mask, forward table, backward table)."""
    lines = []
    for sq in range(64):
        per_square = []
        for _kind, forward, backward in LINE_KINDS:
            ahead, behind = _ray(sq, forward), _ray(sq, backward)
            mask = 1 << sq
            for other in ahead + behind:
                mask |= 1 << other
            per_square.append((mask, _jump_table(ahead), _jump_table(behind)))
        lines.append(tuple(per_square))
    return tuple(lines)


LINES = _build_lines()


def _bits(board: int) -> Iterator[int]:
    """Square indices of the set bits, lowest first."""
    while board:
        low = board & -board
        yield low.bit_length() - 1
        board ^= low


def _dilate(board: int) -> int:
    """The board grown by one step in all eight directions."""
    wide = board | ((board << 1) & NOT_FILE_A) | ((board >> 1) & NOT_FILE_H)
    return (wide | (wide << 8) | (wide >> 8)) & FULL


def _component(seed: int, board: int) -> int:
    """The 8-connected group of `board` containing the squares of `seed`."""
    while True:
        grown = _dilate(seed) & board
        if grown == seed:
            return seed
        seed = grown


def connected(board: int) -> bool:
    """True when the checkers of `board` form one group; 0 or 1 checker counts as one."""
    if board & (board - 1) == 0:
        return True
    return _component(board & -board, board) == board


def group_count(board: int) -> int:
    count = 0
    while board:
        board &= ~_component(board & -board, board)
        count += 1
    return count


def generate(own: int, enemy: int) -> list[tuple[int, int]]:
    """Every (from, to) move of the side owning `own`, in no particular order.

    Each line's count is read once per checker and serves both directions.
    """
    occupied = own | enemy
    moves: list[tuple[int, int]] = []
    for sq in _bits(own):
        for mask, ahead, behind in LINES[sq]:
            n = (occupied & mask).bit_count()
            if n < len(ahead):
                target, between = ahead[n]
                if not between & enemy and not (own >> target) & 1:
                    moves.append((sq, target))
            if n < len(behind):
                target, between = behind[n]
                if not between & enemy and not (own >> target) & 1:
                    moves.append((sq, target))
    return moves


def can_capture(own: int, enemy: int) -> bool:
    """Whether a move of `own`'s side lands on a checker of `enemy`'s (any of generate's
    moves a capture), stopping at the first."""
    occupied = own | enemy
    for sq in _bits(own):
        for mask, ahead, behind in LINES[sq]:
            n = (occupied & mask).bit_count()
            if n < len(ahead):
                target, between = ahead[n]
                if (enemy >> target) & 1 and not between & enemy:
                    return True
            if n < len(behind):
                target, between = behind[n]
                if (enemy >> target) & 1 and not between & enemy:
                    return True
    return False


def apply(own: int, enemy: int, src: int, dst: int) -> tuple[int, int]:
    """(own, enemy) after moving src -> dst; a checker on dst is captured."""
    return (own & ~(1 << src)) | (1 << dst), enemy & ~(1 << dst)


def decide(last_mover: int, to_move: int, ply: int, max_plies: int) -> Outcome | None:
    """The referee's end test, as seats relative to the last mover.

    Returns winner 0 for the last mover and 1 for the side to move; the caller maps
    these to seats. The mover is tested first, so a move connecting both sides wins.
    """
    mover_done = connected(last_mover)
    if mover_done:
        reason = "all checkers connected"
        if connected(to_move):
            reason = "both sides connected: the mover wins"
        return Outcome(0, reason)
    if connected(to_move):
        return Outcome(1, "all checkers connected (by the opponent's move)")
    if ply >= max_plies:
        return Outcome(None, "turn limit")
    return None


def fast_perft(own: int, enemy: int, ply: int, max_plies: int, depth: int) -> int:
    """Perft on raw bitboards, `own` being the side to move; same counts as generic_perft."""
    if depth == 0:
        return 1
    if decide(enemy, own, ply, max_plies) is not None:
        return 0
    moves = generate(own, enemy)
    if depth == 1:
        return len(moves) or 1
    if not moves:
        return fast_perft(enemy, own, ply + 1, max_plies, depth - 1)
    total = 0
    for src, dst in moves:
        new_own, new_enemy = apply(own, enemy, src, dst)
        total += fast_perft(new_enemy, new_own, ply + 1, max_plies, depth - 1)
    return total


# --------------------------------------------------------------------------------------
# Positions.

_UNSET = object()
_MOVE_SHAPE = re.compile(r"[a-z][0-9][a-z][0-9]")


class LoaPosition:
    """An immutable LOA position; legal moves and outcome are computed once, on demand."""

    __slots__ = ("boards", "_turn", "_ply", "max_plies", "_moves", "_move_set", "_outcome")

    def __init__(self, black: int, white: int, turn: int, ply: int, max_plies: int) -> None:
        self.boards = (black, white)
        self._turn = turn
        self._ply = ply
        self.max_plies = max_plies
        self._moves: list[str] | None = None
        self._move_set: frozenset[str] | None = None
        self._outcome: object = _UNSET

    # -- Position protocol ----------------------------------------------------------

    def turn(self) -> int:
        return self._turn

    def ply(self) -> int:
        return self._ply

    def own_enemy(self) -> tuple[int, int]:
        """(checkers of the side to move, checkers of the other side) as bitboards."""
        return self.boards[self._turn], self.boards[1 - self._turn]

    def legal_moves(self) -> list[str]:
        if self._moves is None:
            if self.outcome() is not None:
                self._moves = []
            else:
                pairs = generate(*self.own_enemy())
                self._moves = sorted(NAMES[s] + NAMES[d] for s, d in pairs) or [PASS]
        return list(self._moves)

    def outcome(self) -> Outcome | None:
        if self._outcome is _UNSET:
            own, enemy = self.own_enemy()
            rel = decide(enemy, own, self._ply, self.max_plies)
            if rel is not None and rel.winner is not None:
                seat = 1 - self._turn if rel.winner == 0 else self._turn
                rel = Outcome(seat, rel.reason)
            self._outcome = rel
        return self._outcome  # type: ignore[return-value]

    def judge(self, move: str) -> Judged:
        if move not in self._legal_set():
            raise IllegalMove(move, self._explain(move), malformed=not _well_formed(move))
        return Judged(position=self._after(move), move=move)

    def play(self, move: str) -> LoaPosition:
        if move not in self._legal_set():
            self.judge(move)  # raises with the reason
        return self._after(move)

    def notation(self) -> str:
        return f"{'/'.join(self.board_lines())} {COLOUR_CHARS[self._turn]} {self._ply}"

    def board_lines(self) -> list[str]:
        black, white = self.boards
        lines = []
        for rank in range(7, -1, -1):
            row = ""
            for file in range(8):
                bit = 1 << (rank * 8 + file)
                row += "b" if black & bit else "w" if white & bit else "."
            lines.append(row)
        return lines

    def __repr__(self) -> str:
        return f"LoaPosition({self.notation()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoaPosition):
            return NotImplemented
        return (self.boards, self._turn, self._ply, self.max_plies) == (
            other.boards, other._turn, other._ply, other.max_plies)

    def __hash__(self) -> int:
        return hash((self.boards, self._turn, self._ply, self.max_plies))

    # -- internals ---------------------------------------------------------------------

    def _legal_set(self) -> frozenset[str]:
        if self._move_set is None:
            self._move_set = frozenset(self.legal_moves())
        return self._move_set

    def _after(self, move: str) -> LoaPosition:
        """The position after a move already known to be legal."""
        boards = list(self.boards)
        if move != PASS:
            src, dst = SQUARE_OF[move[:2]], SQUARE_OF[move[2:]]
            own, enemy = apply(boards[self._turn], boards[1 - self._turn], src, dst)
            boards[self._turn], boards[1 - self._turn] = own, enemy
        return LoaPosition(boards[0], boards[1], 1 - self._turn, self._ply + 1, self.max_plies)

    def _explain(self, move: str) -> str:
        """Why `move` is refused, phrased so a bot author can fix the bot."""
        over = self.outcome()
        if over is not None:
            return f"the game is over ({over.reason}); no move is accepted"
        if self.legal_moves() == [PASS]:
            return "no legal move exists: answer pass"
        if move == PASS:
            return "pass is only allowed when no move exists"
        if not _well_formed(move):
            if _MOVE_SHAPE.fullmatch(move.lower()):
                return f"squares are written in lower case: {move.lower()}"
            return "a move is 4 characters like e2e3 (from square, to square)"
        return self._explain_squares(move[:2], move[2:])

    def _explain_squares(self, src_name: str, dst_name: str) -> str:
        for name in (src_name, dst_name):
            if name not in SQUARE_OF:
                return f"{name} is not on the board (files a-h, ranks 1-8)"
        src, dst = SQUARE_OF[src_name], SQUARE_OF[dst_name]
        own, enemy = self.own_enemy()
        if src == dst:
            return f"a checker must move: both squares are {src_name}"
        if not (own >> src) & 1:
            what = "an enemy checker" if (enemy >> src) & 1 else "nothing"
            return f"no checker of yours on {src_name} (it holds {what})"
        d_rank, d_file = dst // 8 - src // 8, dst % 8 - src % 8
        if d_rank and d_file and abs(d_rank) != abs(d_file):
            return f"{src_name} and {dst_name} are not on one row, column or diagonal"
        return self._explain_line(src, dst, d_rank, d_file, own, enemy)

    def _explain_line(
        self, src: int, dst: int, d_rank: int, d_file: int, own: int, enemy: int
    ) -> str:
        step = (_sign(d_rank), _sign(d_file))
        kind, mask = _line_of(src, step)
        count = ((own | enemy) & mask).bit_count()
        distance = max(abs(d_rank), abs(d_file))
        if distance != count:
            squares = "square" if count == 1 else "squares"
            stand = "checker stands" if count == 1 else "checkers stand"
            return (f"a checker moves exactly {count} {squares} on this {kind} "
                    f"({count} {stand} on it), not {distance}")
        for sq in _ray(src, step)[: distance - 1]:
            if (enemy >> sq) & 1:
                return (f"blocked by an enemy checker on {NAMES[sq]} "
                        "(own checkers may be jumped, enemy ones never)")
        if (own >> dst) & 1:
            return f"{NAMES[dst]} holds your own checker"
        return "not a legal move in this position"


def _well_formed(move: str) -> bool:
    return move == PASS or _MOVE_SHAPE.fullmatch(move) is not None


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _line_of(sq: int, step: tuple[int, int]) -> tuple[str, int]:
    """(kind name, whole-line mask) of the line through `sq` along `step`."""
    for index, (kind, forward, backward) in enumerate(LINE_KINDS):
        if step in (forward, backward):
            return kind, LINES[sq][index][0]
    raise ValueError(f"not a line direction: {step}")


# --------------------------------------------------------------------------------------
# Notation.


def parse_position(notation: str, max_plies: int) -> LoaPosition:
    """Read the one-line notation described in the module docstring."""
    fields = notation.split()
    if len(fields) != 3:
        raise PositionError(
            f"expected 3 space-separated fields (board, side to move, ply), got {len(fields)}")
    board_text, side, ply_text = fields
    black, white = _parse_board(board_text)
    if side not in ("b", "w"):
        raise PositionError(f"side to move must be 'b' or 'w', got {side!r}")
    if not ply_text.isdigit() or not ply_text.isascii():
        raise PositionError(f"ply count must be a non-negative integer, got {ply_text!r}")
    return LoaPosition(black, white, COLOUR_CHARS.index(side), int(ply_text), max_plies)


def _parse_board(text: str) -> tuple[int, int]:
    rows = text.split("/")
    if len(rows) != 8:
        raise PositionError(f"expected 8 rows separated by '/', got {len(rows)}")
    black = white = 0
    for index, row in enumerate(rows):
        rank = 7 - index
        if len(row) != 8:
            raise PositionError(f"row for rank {rank + 1} has {len(row)} characters, not 8")
        for file, char in enumerate(row):
            bit = 1 << (rank * 8 + file)
            if char == "b":
                black |= bit
            elif char == "w":
                white |= bit
            elif char != ".":
                raise PositionError(
                    f"{NAMES[rank * 8 + file]}: unexpected {char!r} (use '.', 'b' or 'w')")
    for name, board in (("black", black), ("white", white)):
        count = board.bit_count()
        if count == 0:
            raise PositionError(f"{name} has no checker; a side always keeps at least one")
        if count > MAX_CHECKERS:
            raise PositionError(f"{name} has {count} checkers; at most {MAX_CHECKERS}")
    return black, white


# --------------------------------------------------------------------------------------
# Rules object.


class LoaRules:
    """Lines of Action rules, configured by the spec's `[rules]` table."""

    def __init__(self, max_plies: int) -> None:
        self.max_plies = max_plies

    def initial(self) -> LoaPosition:
        return parse_position(INITIAL_NOTATION, self.max_plies)

    def parse(self, notation: str) -> LoaPosition:
        return parse_position(notation, self.max_plies)

    def perft(self, position: object, depth: int) -> int:
        if not isinstance(position, LoaPosition):
            return generic_perft(position, depth)  # type: ignore[arg-type]
        own, enemy = position.own_enemy()
        return fast_perft(own, enemy, position.ply(), position.max_plies, depth)

    def divide(self, position: LoaPosition, depth: int) -> list[tuple[str, int]]:
        if depth < 1 or position.outcome() is not None:
            return []
        return [(m, self.perft(position.play(m), depth - 1)) for m in position.legal_moves()]


def make_rules(options: Mapping[str, object]) -> LoaRules:
    max_plies = int(take_options(options, DEFAULT_OPTIONS)["max_plies"])
    if max_plies < 1:
        raise OptionError("max_plies", f"must be at least 1, got {max_plies}")
    return LoaRules(max_plies)


def choose_move(position: LoaPosition, rng: random.Random, style: str = "greedy") -> str:
    """The bundled reference bots' play, deterministic for a given rng state; the judge's
    opponents are in `prefer` (see prototest.games.opponents).

    "random" picks uniformly. "greedy" scores each move by one-ply lookahead: a win
    first, then avoiding a move that hands the opponent the win, then fewer own
    groups, then a capture, then a tighter cluster (sum of distances to the centre
    of mass); the rng breaks ties so seeded games differ.
    """
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: no move to choose")
    if style == "random":
        return rng.choice(moves)
    if style != "greedy":
        raise ValueError(f"unknown style {style!r} (known: greedy, random)")
    if moves == [PASS]:
        return PASS
    own, enemy = position.own_enemy()
    return rng.choice(_greedy_best(own, enemy, moves))


# --------------------------------------------------------------------------------------
# Opponent styles and fuzzing hooks (see games/base.py)

#: Opponent styles (see prototest.games.opponents): "random" plays any allowed move.
STYLES = ("random", "greedy", "capturing", "smothering", "scattering", "edge", "evasive")
#: Move classes a swarm opponent may never play (`pass` is never omitted: it is the only
#: move when it is listed).
MOVE_CLASSES = ("capture", "long move", "diagonal move", "edge landing")
_EDGE = FULL ^ (0x007E7E7E7E7E7E00)


def move_kinds(position: LoaPosition, move: str) -> frozenset[str]:
    """What a listed move does: "pass", "capture", "long move" (four squares or more),
    "diagonal move", "edge landing" (onto the board's edge)."""
    if move == PASS:
        return _PASS_KINDS
    _, enemy = position.own_enemy()
    dst, shape = _shape_of(move)
    return shape | _CAPTURE if (enemy >> dst) & 1 else shape


_PASS_KINDS = frozenset(("pass",))
_CAPTURE = frozenset(("capture",))


@functools.lru_cache(maxsize=None)
def _shape_of(move: str) -> tuple[int, frozenset[str]]:
    """A move's target square and the kinds its squares alone decide."""
    src, dst = SQUARE_OF[move[:2]], SQUARE_OF[move[2:]]
    kinds = set()
    df, dr = abs((dst & 7) - (src & 7)), abs((dst >> 3) - (src >> 3))
    if max(df, dr) >= 4:
        kinds.add("long move")
    if df and dr:
        kinds.add("diagonal move")
    if (_EDGE >> dst) & 1:
        kinds.add("edge landing")
    return dst, frozenset(kinds)


def prefer(position: LoaPosition, style: str, moves: list[str]) -> list[str]:
    """The moves a style prefers (see games/base.py; never asked about a lone `pass`).
    greedy: one-ply lookahead (a win, not handing over the win, fewer groups, a capture, a
    tighter cluster); capturing: captures; smothering: the moves that leave the bot the
    fewest moves (towards a pass); scattering: the moves that leave the most groups (long
    games, towards the turn limit); edge: moves onto the edge, corners first; evasive: the
    moves after which the game goes on and the bot can capture nothing (the opponent keeps
    its few last checkers: long endgames, where a bot's endgame routines run)."""
    own, enemy = position.own_enemy()
    if style == "greedy":
        return _greedy_best(own, enemy, moves)
    if style == "capturing":
        return [m for m in moves if (enemy >> SQUARE_OF[m[2:]]) & 1]
    if style == "smothering":
        return best_scored(moves, lambda m: -len(generate(*reversed(apply(own, enemy, SQUARE_OF[m[:2]], SQUARE_OF[m[2:]])))))
    if style == "scattering":
        return best_scored(moves, lambda m: group_count(apply(own, enemy, SQUARE_OF[m[:2]], SQUARE_OF[m[2:]])[0]))
    if style == "edge":
        corners = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
        return best_scored(moves, lambda m: 2 if (corners >> SQUARE_OF[m[2:]]) & 1 else
                     1 if (_EDGE >> SQUARE_OF[m[2:]]) & 1 else None)
    if style == "evasive":
        return best_scored(moves, lambda m: _evasive_key(own, enemy, m))
    raise ValueError(f"unknown style {style!r} (known: {', '.join(STYLES)})")


def _evasive_key(own: int, enemy: int, move: str) -> int | None:
    """1 for a move after which the game goes on and the bot (`enemy`) can capture
    nothing; None (not preferred) otherwise."""
    new_own, new_enemy = apply(own, enemy, SQUARE_OF[move[:2]], SQUARE_OF[move[2:]])
    if connected(new_own) or connected(new_enemy):
        return None
    return None if can_capture(new_enemy, new_own) else 1



#: Every name `situations` can give, for the summary of what a run did not reach.
SITUATIONS = ("pass", "capture available", "four or fewer checkers to move", "corner reachable",
              "ply 120 or later", "capture")


#: A position where Black (to move) has no move: a1 and h8 are boxed in by White. After
#: Black's pass, White is told the last move was `pass`.
PASS_POSITION = "......wb/......ww/......../......../......../......../ww....../bw...... b 0"

#: Why a run may not reach a situation, and `prototest check` options that put a bot in
#: it directly (see games/base.py). Measured with the bundled bot (seeds 1000-1999):
#: a pass came in none of 1,000 games against the swarm opponent drawn as `check` draws
#: it, in 8 of 1,000 against the smothering style alone (always the bot's: boxed in on an
#: edge file), in none of 1,000 games of the random style against itself. Fuzz runs of
#: 60 s reached none: 5 seeds with --jobs 1 (461 to 580 examples each), 2 with 2 jobs
#: (about 1,340 examples each). The bot connects its checkers within about 30 plies, before
#: any opponent style boxes them in; in an offline model of a run's kept games and
#: branches, measures of how many of the bot's checkers are boxed in and of how few moves
#: the opponent has reached a pass in 1 run of 12 (none without them): not worth their
#: share of the branches.
SITUATION_NOTES = {
    "pass": ("a side with no legal move is rare in play (measured with the bundled bot: no pass in 1,000 "
             "games against the swarm opponent, 8 in 1,000 against the smothering style alone, none in "
             "1,000 random games), too rare for a run to reach; put the bot there directly",
             (("it must answer pass", ("--seat", "b", "--games", "1", "--position", PASS_POSITION)),
              ("it is told the opponent passed", ("--seat", "w", "--games", "1", "--position", PASS_POSITION,
                                                  "--moves", "pass")))),
}


def situations(position: LoaPosition, move: str | None = None) -> list[str]:
    if move is not None:
        if move == PASS:
            return ["pass"]
        _, enemy = position.own_enemy()
        return ["capture"] if move in position.legal_moves() and (enemy >> SQUARE_OF[move[2:]]) & 1 else []
    moves = position.legal_moves()
    if moves == [PASS]:
        return ["pass"]
    kinds = [move_kinds(position, m) for m in moves]
    own, _ = position.own_enemy()
    found = ["capture available"] if any("capture" in k for k in kinds) else []
    if own.bit_count() <= 4:
        found.append("four or fewer checkers to move")
    if any(m[2:] in ("a1", "h1", "a8", "h8") for m in moves):
        found.append("corner reachable")
    if position.ply() >= 120:
        found.append("ply 120 or later")
    return found


def measures(position: LoaPosition) -> dict[str, float]:
    """Where bots' own generators and parsers break, as numbers the fuzz search keeps the
    furthest games of (prototest.play.elites): rare: a pass, captures and long moves
    in the bot's list; cornered: how few moves it has (a pass has none); late: how few
    checkers are left on the board;
    edge: its checkers on the edge; long: the ply, towards the turn limit."""
    own, enemy = position.own_enemy()
    moves = position.legal_moves()
    if moves == [PASS]:
        rare, count = 20.0, 0
    else:
        kinds = [move_kinds(position, m) for m in moves]
        rare = float(sum(2 * ("capture" in k) + ("long move" in k) for k in kinds))
        count = len(moves)
    return {"loa: rare moves listed": rare, "loa: cornered": -float(count),
            "loa: late": -float((own | enemy).bit_count()), "loa: edge": float((own & _EDGE).bit_count()),
            "loa: long": float(position.ply())}


def diagram(position: LoaPosition) -> list[str]:
    """The board as sent (rank 8 first), with ranks and files."""
    return [f"{8 - i} {' '.join(row)}" for i, row in enumerate(position.board_lines())] + ["  a b c d e f g h"]


def _greedy_best(own: int, enemy: int, moves: list[str]) -> list[str]:
    """The moves of the highest greedy key, in their order: after the move, (a win 2, a
    loss 0, else 1; fewer own groups; a capture; a tighter cluster), highest first part, then
    second, ...: each part is worked out only for the moves still tied on the parts before
    (the spread, the dearest, only for the moves that tie on all the others)."""
    tied = []
    for move in moves:
        src, dst = SQUARE_OF[move[:2]], SQUARE_OF[move[2:]]
        new_own, new_enemy = apply(own, enemy, src, dst)
        verdict = 2 if connected(new_own) else 0 if connected(new_enemy) else 1
        tied.append((verdict, move, new_own, dst))
    for part in (lambda t: t[0], lambda t: -group_count(t[2]), lambda t: (enemy >> t[3]) & 1,
                 lambda t: -_spread(t[2])):
        if len(tied) > 1:
            scored = [(part(t), t) for t in tied]
            top = max(score for score, _ in scored)
            tied = [t for score, t in scored if score == top]
    return [t[1] for t in tied]


def _spread(board: int) -> int:
    """Sum of Chebyshev distances to the centre of mass, scaled by the checker count.

    Scaling keeps it an exact integer; the mover's count is the same after each of its
    moves, so the scale does not change comparisons between them.
    """
    squares = list(_bits(board))
    n = len(squares)
    sum_rank = sum(sq >> 3 for sq in squares)
    sum_file = sum(sq & 7 for sq in squares)
    return sum(max(abs(n * (sq >> 3) - sum_rank), abs(n * (sq & 7) - sum_file))
               for sq in squares)


# --------------------------------------------------------------------------------------
# The board as a picture (see games/base.py and prototest.games.draw)

_SQUARE_PAIR = re.compile(r"\s*([a-h][1-8])([a-h][1-8])?\s*")
_DEFS = draw.defs(
    draw.disc("loa-b", draw.PALETTE["black"], draw.PALETTE["edge"], "#6b6b6b"),
    draw.disc("loa-w", draw.PALETTE["white"], draw.PALETTE["edge"], "#b9b3a6"),
)


def svg(position: LoaPosition, *, last: str | None = None, bad: str | None = None, flipped: bool = False) -> str:
    """The board as an SVG element: black and white checkers, the squares of the move
    just played tinted, a refused move in red. Each checker carries `data-cell` (its
    square) and `data-piece` (`b` or `w`, as the notation writes it)."""
    grid = draw.Grid(8, 8, flipped)
    black, white = position.boards
    pieces = [draw.place(grid, draw.square_cell(sq), f"loa-{char}", NAMES[sq], char)
              for sq in range(64)
              for char in ("b" if black >> sq & 1 else "w" if white >> sq & 1 else "",) if char]
    return draw.root(
        "loa", position.notation(), grid, _DEFS,
        draw.chequered_8x8(grid),
        draw.played(grid, last, _read_squares),
        "".join(pieces),
        draw.refused(grid, bad, _read_squares))



def _read_squares(move: str) -> list[draw.Cell]:
    """The one or two squares a move string names; none for `pass` or anything else."""
    found = _SQUARE_PAIR.fullmatch(move)
    if found is None:
        return []
    return [draw.square_cell(SQUARE_OF[name]) for name in found.groups() if name]


__all__ = ["DEFAULT_OPTIONS", "LoaPosition", "LoaRules", "make_rules", "move_kinds", "prefer"]
