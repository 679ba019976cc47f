"""The judge's side of a game as a run sets it up: each game's own seed, the spec's built-in
opponent for it, and the forced moves of a replay, a fixture or `--opponent-moves`.

Below the runner (prototest.play.runner) and the fixtures (prototest.play.fixtures), which
both use it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable, Sequence

from ..games import opponents
from ..games.base import IllegalMove, Position
from ..judge.game import StopGame
from ..judge.spec import Spec

__all__ = ["GIVEN_OPTION", "ForcedOpponent", "builtin_opponent", "game_seed"]

#: The option that gives the opponent's moves (see ForcedOpponent).
GIVEN_OPTION = "--opponent-moves"


def game_seed(seed: int, index: int) -> int:
    """Each game's own seed: the same run seed gives the same games."""
    return seed * 1_000_003 + index


class ForcedOpponent:
    """The opponent plays the given moves in order (a replay); then `then` chooses, or,
    without it, the game stops. A recorded move that is not legal when its turn comes
    means the game went another way than the one recorded: the game stops there. Moves
    the user gave (`given`: --opponent-moves, and which game this is) stop the game too,
    as a usage error: the game cannot go on as asked."""

    def __init__(self, moves: Sequence[str], then: Callable[[Position], str] | None = None, *,
                 soft: bool = False, given: str | None = None) -> None:
        self.moves = list(moves)
        self.then = then
        self.played = 0
        #: a move that is no longer legal hands over to `then` instead of stopping the game
        self.soft = soft
        self.given = given

    def __call__(self, position: Position) -> str:
        if self.played >= len(self.moves):
            if self.then is None:
                raise StopGame(f"the {len(self.moves)} recorded opponent moves are played")
            return self.then(position)
        move = self.moves[self.played]
        self.played += 1
        if move not in position.legal_moves():
            if self.soft and self.then is not None:
                self.played = len(self.moves)
                return self.then(position)
            if self.given is not None:
                return self._given(position, move)
            raise StopGame(f"the opponent's recorded move {self.played} {move!r} is not legal here: "
                           f"the game went another way than the one recorded")
        return move

    def _given(self, position: Position, move: str) -> str:
        """A given move not listed here: played as the referee would judge it (a form it
        accepts), else the game stops, the rules' reason given."""
        try:
            return position.judge(move).move
        except IllegalMove as exc:
            where = f"move {self.played} {move!r} is not legal on ply {position.ply() + 1}"
            raise StopGame(f"the opponent's given {where}: {exc.reason}",
                           usage=f"{GIVEN_OPTION}: {where} ({self.given}): {exc.reason}") from None


def builtin_opponent(module: ModuleType, spec: Spec, seed: int) -> Callable[[Position], str]:
    """The spec's built-in opponent for a game's seed (what follows a replay's moves)."""
    return opponents.Opponent(module, spec.opponent.style, seed)
