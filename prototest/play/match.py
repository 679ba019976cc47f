"""`prototest match`: scheduling and tallies, plain functions on plain data, and the run
(`MatchRun`) that the reports in prototest.reports read.

A match of bot A against bot B is played in pairs: each opening (some seeded random plies
from the initial position, both seats' moves) is played twice, A in one seat, then in the
other. Every game is one `Referee` game with A as its bot and B in the other seat
(`GameConfig.opponent_argv`, see `prototest.judge.seat`): both bots are judged as `check`
judges a bot, A's findings in `GameReport.findings`, B's in `GameReport.opponent_findings`.
A fault ends the game as a loss of the bot that made it.

The statistics are `prototest.play.stats`' (fastchess's formulas): the game results from A's
side (wins, draws, losses) and the pentanomial over complete pairs.
"""

from __future__ import annotations

import os
import shlex
import random
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from . import stats
from ..judge.game import GameReport
from ..judge.spec import Spec
from ..games.base import Rules

#: The bots' names in tables and lines: A, B, C, ... in the order given.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NAMES = ("A", "B")


def opening(rules: Rules, plies: int, seed: int, pair: int) -> list[str]:
    """`plies` random legal moves from the initial position, drawn from the seed and the
    pair's number (both seats' moves); a line that ends the game is drawn again (fewer
    plies after 100 tries)."""
    rng = random.Random(seed * 1_000_003 + pair)
    for tries in range(100):
        want = plies if tries < 50 else max(0, plies - 1 - (tries - 50) // 10)
        position, moves = rules.initial(), []
        while len(moves) < want and position.outcome() is None:
            legal = list(position.legal_moves())
            move = legal[rng.randrange(len(legal))]
            position = position.play(move)
            moves.append(move)
        if position.outcome() is None:
            return moves
    return []


class BookError(ValueError):
    """An opening book that cannot be read (the message names the file and the entry)."""


def chess_book(path: str, plies: int | None = None) -> list[tuple[str | None, list[str]]]:
    """The openings of a chess opening book, in the file's order, as (FEN of the start
    position or None for the initial one, moves in the judge's notation): an EPD file (a
    position a line; `.epd`) or a PGN file (each game's start and mainline, the first
    `plies` moves of it). A line that leaves no game, or an underpromotion (which the
    judge's notation cannot write), ends that opening there."""
    import chess
    import chess.pgn

    from ..games.chess import move_string

    out: list[tuple[str | None, list[str]]] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            if path.lower().endswith(".epd"):
                for number, line in enumerate(fh, 1):
                    line = line.strip()
                    if not line or line.startswith(("#", ";")):
                        continue
                    try:
                        board, _ = chess.Board.from_epd(line)
                    except ValueError as exc:
                        raise BookError(f"{path}, line {number}: not an EPD position: {exc}") from None
                    if board.is_valid() and board.outcome() is None:
                        out.append((board.fen(), []))
            else:
                while (game := chess.pgn.read_game(fh)) is not None:
                    board = game.board()
                    start = None if board.fen() == chess.STARTING_FEN else board.fen()
                    moves: list[str] = []
                    for move in game.mainline_moves():
                        if (plies is not None and len(moves) >= plies) or move.promotion not in (None, chess.QUEEN):
                            break
                        after = board.copy(stack=False)
                        after.push(move)
                        if after.outcome() is not None:
                            break
                        moves.append(move_string(board, move))
                        board = after
                    out.append((start, moves))
    except OSError as exc:
        raise BookError(f"{path}: {exc.strerror or exc}") from None
    if not out:
        raise BookError(f"{path}: no opening in it (an EPD file ends in .epd; any other is read as PGN)")
    return out


def pair_of(index: int) -> int:
    """The pair (from 1) of game `index` (from 1): games 1 and 2 are pair 1."""
    return (index + 1) // 2


def a_seat(index: int) -> int:
    """A's seat in game `index`: seat 0 in the first game of each pair, seat 1 in the second."""
    return (index - 1) % 2


def score_of(report: GameReport) -> float | None:
    """A's score in a game (1, 0.5, 0), None for a game with no result (stopped, interrupted)."""
    return {"win": 1.0, "draw": 0.5, "loss": 0.0, "forfeit": 0.0}.get(report.result)


def ended(report: GameReport, names: Sequence[str] = NAMES) -> str:
    """How a game ended, in words, `names[0]` being the referee's bot (the game's first
    bot) and `names[1]` the bot in the other seat: "A won (checkmate)", "B won by A's
    forfeit: crash"."""
    a, b = names
    reason = report.reason
    if report.result == "forfeit":
        return f"{b} won by {a}'s forfeit: {reason}"
    if report.result == "win" and report.opponent_forfeited is not None:
        return f"{a} won by {b}'s forfeit: {report.opponent_forfeited}"
    if report.result == "win":
        return f"{a} won ({reason})" if reason else f"{a} won"
    if report.result == "loss":
        return f"{b} won ({reason})" if reason else f"{b} won"
    if report.result == "draw":
        return f"draw ({reason})" if reason else "draw"
    return report.result + (f" ({reason})" if reason else "")


def pairings(bots: int, gauntlet: bool = False) -> list[tuple[int, int]]:
    """Who plays whom: the two bots; with more, every bot against every other (round robin),
    or with `gauntlet` the first against each of the others."""
    if gauntlet:
        return [(0, j) for j in range(1, bots)]
    return [(i, j) for i in range(bots) for j in range(i + 1, bots)]


@dataclass
class Tally:
    """The results so far from A's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    uncounted: int = 0
    #: pair -> {game index: A's score}
    pairs: dict[int, dict[int, float]] = field(default_factory=dict)
    forfeits: list[int] = field(default_factory=lambda: [0, 0])  # A's, B's

    def add(self, report: GameReport, index: int | None = None) -> None:
        """One game; `index`: its number within this pairing (default: the report's)."""
        index = report.index if index is None else index
        score = score_of(report)
        if score is None:
            self.uncounted += 1
            return
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1
        if report.result == "forfeit":
            self.forfeits[0] += 1
        elif report.opponent_forfeited is not None:
            self.forfeits[1] += 1
        self.pairs.setdefault(pair_of(index), {})[index] = score

    @property
    def wdl(self) -> tuple[int, int, int]:
        return self.wins, self.draws, self.losses

    def complete_pairs(self) -> list[tuple[float, float]]:
        return [tuple(games[i] for i in sorted(games)) for _, games in sorted(self.pairs.items())
                if len(games) == 2]  # type: ignore[misc]

    def pentanomial(self) -> stats.Pentanomial:
        return stats.pentanomial(self.complete_pairs())

    def sprt(self, options: dict[str, Any]) -> stats.Sprt | None:
        ptnml = self.pentanomial()
        if not sum(ptnml):
            return None
        model = options.get("model", "normalized")
        basis: Sequence[int] = self.wdl if model in ("bayesian", "cutechess") else ptnml
        return stats.sprt(basis, options["elo0"], options["elo1"], options["alpha"], options["beta"], model)

    def report_lines(self, sprt_result: stats.Sprt | None = None) -> list[str]:
        """fastchess's lines (pentanomial Elo when a pair is complete, else from the games)."""
        if not any(self.wdl):
            return ["no game with a result: no statistics"]
        ptnml = self.pentanomial()
        pairs = self.complete_pairs()
        return stats.fastchess_report(self.wdl, ptnml if sum(ptnml) else None, sprt_result,
                                      stats.wl_dd(pairs) if pairs else None)

    def figures(self) -> dict[str, Any]:
        """Elo, nElo and LOS as data (pentanomial when a pair is complete)."""
        if not any(self.wdl):
            return {}
        ptnml = self.pentanomial()
        elo = stats.elo_pentanomial(ptnml) if sum(ptnml) else stats.elo_wdl(*self.wdl)
        return {"kind": elo.kind, "elo": _num(elo.elo), "elo_error": _num(elo.elo_error),
                "elo_interval": [_num(v) for v in elo.elo_interval], "nelo": _num(elo.nelo),
                "nelo_error": _num(elo.nelo_error), "los": _num(elo.los), "score": _num(elo.score)}


def _num(value: float) -> float | str:
    """A number for JSON: inf and NaN as strings."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    return value


def parse_sprt(text: str) -> dict[str, Any]:
    """--sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized]" (spaces or commas);
    ValueError says what is wrong."""
    options: dict[str, Any] = {"alpha": 0.05, "beta": 0.05, "model": "normalized"}
    for part in text.replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
            raise ValueError(f"{part!r}: expected elo0=, elo1=, alpha=, beta= or model=")
        if key == "model":
            options[key] = value
        else:
            try:
                options[key] = float(value)
            except ValueError:
                raise ValueError(f"{part!r}: {value!r} is not a number") from None
    for key in ("elo0", "elo1"):
        if key not in options:
            raise ValueError(f"{key}= is missing")
    stats.sequential._check(options["elo0"], options["elo1"], options["alpha"], options["beta"], options["model"])
    return options


# -- the run -----------------------------------------------------------------------------------

@dataclass
class MatchRun:
    """A match as it is played and as its reports read it: the bots, the settings, the
    games played (in game order once the run ends), each pairing's tally, the SPRT."""

    spec: Spec
    bots: list[list[str]]
    seed: int
    time_scale: float
    #: games of each pairing (an even number: pairs of games)
    games_per_pairing: int
    opening_plies: int
    #: who plays whom (indices into `bots`), see prototest.play.match.pairings
    pairings: list[tuple[int, int]] = field(default_factory=lambda: [(0, 1)])
    mode: str = "match"  # "match" (two bots), "round robin", "gauntlet"
    sprt_options: dict[str, Any] | None = None
    games: list[GameReport] = field(default_factory=list)
    #: pair number (within a pairing) -> its opening, (FEN or None: the initial position,
    #: moves): every pairing plays the same openings
    openings: dict[int, tuple[str | None, list[str]]] = field(default_factory=dict)
    #: the opening book (--openings), if one was read
    book: str | None = None
    tallies: list[Tally] = field(default_factory=list)
    sprt: stats.Sprt | None = None
    stopped_by_sprt: bool = False
    interrupted: signal.Signals | None = None
    write_errors: list[str] = field(default_factory=list)
    #: --start-delay, if given (a game's transcript says it, for its replay)
    start_delay: int | None = None
    #: --set overrides of the spec
    overrides: list[str] = field(default_factory=list)
    #: --shard I/N ("2/3"), and the pairs (over the whole match, from 1) it plays
    shard: str | None = None
    shard_pairs: list[int] = field(default_factory=list)
    #: what makes the match this match (prototest.play.matchshards.identity)
    identity: dict[str, Any] | None = None
    #: --tally: the shared tally at this shard's end (prototest.play.matchtally), or the
    #: latest of the shards' in a merge
    shared: dict[str, Any] | None = None
    #: a merge of shards: which were merged, which are missing, the pairs lost
    merged: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if not self.tallies:
            self.tallies = [Tally() for _ in self.pairings]

    @property
    def games_total(self) -> int:
        return self.games_per_pairing * len(self.pairings)

    @property
    def tally(self) -> Tally:
        """The first pairing's tally (the only one of a two-bot match)."""
        return self.tallies[0]

    def pairs_played(self) -> list[int]:
        """The pairs (over the whole match, from 1) with a game played here."""
        return sorted({pair_of(g.index) for g in self.games})

    def where(self, index: int) -> tuple[int, int]:
        """(pairing, game number within it, from 1) of game `index` (from 1)."""
        return (index - 1) // self.games_per_pairing, (index - 1) % self.games_per_pairing + 1

    def names(self, g: GameReport) -> tuple[str, str]:
        """The letters of the game's first bot (the referee's) and of the bot in the other seat."""
        return self.names_of(g.index)

    def names_of(self, index: int) -> tuple[str, str]:
        """The letters of game `index`'s first bot (the referee's) and of the other seat's."""
        first, second = self.pairings[self.where(index)[0]]
        return LETTERS[first], LETTERS[second]

    def findings_of(self, bot: int) -> list:
        letter = LETTERS[bot]
        out = []
        for g in self.games:
            first, second = self.names(g)
            if letter == first:
                out.extend(g.findings)
            elif letter == second:
                out.extend(g.opponent_findings)
        return out

    def failing(self) -> list[str]:
        return [LETTERS[i] for i in range(len(self.bots))
                if any(f.severity == "fail" for f in self.findings_of(i))]

    @property
    def failed(self) -> bool:
        """A bot failed a check (a FAIL finding of any)."""
        return any(f.severity == "fail" for g in self.games for f in [*g.findings, *g.opponent_findings])

    def standings(self) -> list[dict[str, Any]]:
        """Each bot's points, games, wins, draws and losses over all its pairings, best first."""
        rows = [{"bot": LETTERS[i], "points": 0.0, "games": 0, "wins": 0, "draws": 0, "losses": 0}
                for i in range(len(self.bots))]
        for (first, second), t in zip(self.pairings, self.tallies):
            for bot, (w, d, l) in ((first, t.wdl), (second, (t.losses, t.draws, t.wins))):
                row = rows[bot]
                row["wins"] += w
                row["draws"] += d
                row["losses"] += l
                row["games"] += w + d + l
                row["points"] += w + d / 2
        return sorted(rows, key=lambda r: (-r["points"], r["bot"]))


def bot_name(argv: list[str]) -> str:
    """A bot's name in the reports: its command line as given."""
    return shlex.join(argv)  # as typed: a path with a space quoted


def keep_transcript(run: MatchRun, game_report: GameReport, folder: Path, write_all: bool) -> None:
    """Every game's transcript with --transcripts; else those with findings of either bot.
    It starts with what `prototest replay` needs to play it again against either bot."""
    from . import runner

    if write_all or runner.worth_keeping(game_report):
        first, second = run.names(game_report)
        name = runner.slug(f"{run.spec.name}-{game_report.index:03d}-{first}-{game_report.seat_name}-{second}")
        game_report.transcript.header[:0] = _replay_header(run, game_report, folder)
        runner.write_transcript(game_report, folder / f"{name}.txt", run.write_errors)


def _replay_header(run: MatchRun, g: GameReport, folder: Path) -> list[str]:
    """The match game's lines of its transcript (see prototest.play.matchgame)."""
    from .. import games
    from .matchgame import Side, header_lines

    pairing, local = run.where(g.index)
    first, second = run.pairings[pairing]
    seats = run.spec.game.seats
    fen, opening = run.openings.get(pair_of(local)) or (None, [])
    sides = (Side(LETTERS[first], seats[g.seat], list(run.bots[first]), os.getcwd()),
             Side(LETTERS[second], seats[1 - g.seat], list(run.bots[second]), os.getcwd()))
    bundled = games.registered_spec(run.spec.name) == Path(run.spec.path).resolve()
    return header_lines(folder=folder, spec=run.spec, bundled=bundled, seed=run.seed, index=g.index,
                        time_scale=run.time_scale, start_delay=run.start_delay, position=fen, opening=opening,
                        sides=sides, moves=g.moves, result=g.result, reason=g.reason,
                        opponent_forfeited=g.opponent_forfeited)
