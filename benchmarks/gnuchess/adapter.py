#!/usr/bin/env python3
"""A chess judge-protocol adapter around GNU Chess's UCI mode (`gnuchess --uci`), written
as a bot author would write one: it keeps the game's moves since the first position it was
shown and sends them all with each `position ... moves ...` line, then `go wtime ... btime
...` with the clocks the judge gave.

Usage: adapter.py [path to gnuchess]   (default: gnuchess on PATH, else /usr/games/gnuchess)

GNU Chess 6.2.7 sometimes dies in long games (`Assertion 'nread < BUF_SIZE-1' failed`):
the benchmark `benchmarks/gnuchess/measure.py` shows how often, and whether fuzz finds it.
"""
import shutil
import subprocess
import sys

import chess

ENGINE = sys.argv[1] if len(sys.argv) > 1 else (shutil.which("gnuchess") or "/usr/games/gnuchess")


def judge_move(board: chess.Board, text: str) -> chess.Move:
    """A move as the judge writes it (O-O, O-O-O, four characters) on `board`."""
    if text in ("O-O", "O-O-O"):
        return next(m for m in board.legal_moves
                    if (board.is_kingside_castling(m) if text == "O-O" else board.is_queenside_castling(m)))
    move = chess.Move.from_uci(text)
    if board.piece_type_at(move.from_square) == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
        move.promotion = chess.QUEEN
    return move


def judge_text(board: chess.Board, move: chess.Move) -> str:
    if board.is_kingside_castling(move):
        return "O-O"
    if board.is_queenside_castling(move):
        return "O-O-O"
    return move.uci()[:4]


def main() -> None:
    engine = subprocess.Popen([ENGINE, "--uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line: str) -> None:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(word: str) -> str:
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("gnuchess ended")
            if line.split()[:1] == [word]:
                return line

    send("uci")
    wait_for("uciok")
    colour = sys.stdin.readline().strip()
    first_fen, board, moves = None, None, []
    for line in sys.stdin:
        words = line.split(None, 3)
        if len(words) == 0 or words[0] in ("A", "D"):
            if words[:1] == ["D"]:
                break
            continue
        last, mine, theirs, fen = words[0], int(words[1]), int(words[2]), words[3].strip()
        if board is not None and last != "NONE":
            move = judge_move(board, last)
            board.push(move)
            moves.append(move.uci())
        if board is None or board.fen() != fen:  # the first turn, or a position it cannot follow
            first_fen, board, moves = fen, chess.Board(fen), []
        start = "startpos" if first_fen == chess.STARTING_FEN else f"fen {first_fen}"
        send(f"position {start}" + (" moves " + " ".join(moves) if moves else ""))
        white, black = (mine, theirs) if colour == "white" else (theirs, mine)
        send(f"go wtime {white * 10} btime {black * 10}")
        best = wait_for("bestmove").split()[1]
        move = chess.Move.from_uci(best)
        text = judge_text(board, move)
        board.push(move)
        moves.append(move.uci())
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    send("quit")
    engine.wait(5)


if __name__ == "__main__":
    main()
