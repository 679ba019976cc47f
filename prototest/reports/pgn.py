"""`match --pgn`: a chess match's games as PGN, with the bots' names, each result and how
the game ended."""

from __future__ import annotations

from pathlib import Path

from ..judge.game import GameReport
from ..play import match as matchmod
from ..play.match import MatchRun, bot_name


def pgn_games(run: MatchRun) -> list:
    """Chess games as python-chess PGN games: the bots' names, the result, how it ended."""
    import chess.pgn

    from ..games import chess as chess_rules

    out = []
    rules = run_rules(run)
    for g in run.games:
        game = chess.pgn.Game()
        first, second = run.pairings[run.where(g.index)[0]]
        names = (bot_name(run.bots[first]), bot_name(run.bots[second]))
        white, black = (names[0], names[1]) if g.seat == 0 else (names[1], names[0])
        score = matchmod.score_of(g)
        white_score = None if score is None else score if g.seat == 0 else 1 - score
        result = {None: "*", 1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_score]
        termination, how = _termination(g)
        game.headers.update({"Event": "prototest match", "Site": "?", "Round": str(g.index),
                             "White": white, "Black": black, "Result": result, "Termination": termination,
                             "Ended": how})
        fen = (run.openings.get(matchmod.pair_of(run.where(g.index)[1])) or (None, []))[0]
        position = rules.parse(fen) if fen is not None else rules.initial()
        if fen is not None:
            game.setup(fen)
        node = game
        for move in g.moves:
            parsed = position._parse(move) if isinstance(position, chess_rules.ChessPosition) else None
            if parsed is None:
                break
            node = node.add_variation(parsed)
            position = position.play(move)
        out.append(game)
    return out


def _termination(g: GameReport) -> tuple[str, str]:
    """PGN's Termination (its standard words) and how the game ended, with White and Black
    for the bots ("Black won by White's forfeit: crash")."""
    first = "White" if g.seat == 0 else "Black"
    text = matchmod.ended(g, (first, "Black" if first == "White" else "White"))
    if matchmod.score_of(g) is None:
        return "unterminated", text
    if "forfeit: " in text:
        return ("time forfeit" if text.endswith(": timeout") else "rules infraction"), text
    return "normal", text


def run_rules(run: MatchRun):
    from ..judge.spec import bind

    return bind(run.spec)[1]


def write_pgn(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(str(game) + "\n\n" for game in pgn_games(run)), encoding="utf-8")
