#!/usr/bin/env python3
"""Deep fault (history): it logs the turns on which an en passant capture was open to it; after the 2nd such turn of a game it switches, at the next check it is in, to a king-safety mode for the rest of the game, which ranks its legal moves and plays the second best (to vary its escapes): on a turn with a single legal move that crashes it (IndexError). Only its own turns build the log: a fresh bot, in any position, has logged nothing."""
from _common import Bot, choose_among, candidates

#: En passant chances logged after which the next check switches the bot to king safety.
CHANCES = 2


class EnPassantLog(Bot):
    def __init__(self):
        super().__init__()
        self.chances = []  # the turns on which an en passant capture was legal
        self.mode = None  # "safety" once in check after CHANCES chances

    def choose(self, board):
        moves = candidates(board)
        if any(board.is_en_passant(m) for m in moves):
            self.chances.append(self.turn)
        if self.mode is None and len(self.chances) >= CHANCES and board.is_check():
            self.mode = "safety"  # the rare branch, on a later turn than the chances
        if self.mode == "safety" and moves:
            return self.safety(board, moves)
        return super().choose(board)

    def safety(self, board, moves):
        """Its moves ranked by how few of the opponent's pieces attack the king afterwards;
        the second best, so that a repeated position gets another answer."""
        def attackers(move):
            board.push(move)
            king = board.king(not board.turn)
            count = len(board.attackers(board.turn, king)) if king is not None else 0
            board.pop()
            return count

        ranked = sorted(moves, key=lambda m: (attackers(m), m.uci()))
        best = choose_among(board, ranked[:2])
        return ranked[1] if best == ranked[0] else best  # IndexError with one legal move


if __name__ == "__main__":
    EnPassantLog().run()
