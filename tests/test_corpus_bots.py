"""The rare-situation fault bots are correct apart from their fault.

Several of them play from code of their own (a chess move generator, LOA move generators,
an Impasse count of checkers taken off, Halma's free home cells) with one flaw planted in
it. These tests switch the flaw off and compare that code with prototest's rules over
random games, in-process and quickly; the two correct bots that model real ones pass
`check` through the CLI.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import chess

from conftest import BOTS, run_cli
from prototest.games import halma, impasse, loa


def load(folder: str, name: str) -> ModuleType:
    """Import tests/bots/<folder>/<name>.py with that folder's own `_common`."""
    path = BOTS / folder
    saved = list(sys.path)  # the bots put their folder on it themselves
    sys.modules.pop("_common", None)
    sys.path.append(str(path))  # last: impasse/ holds a random.py
    try:
        spec = importlib.util.spec_from_file_location(f"corpus_{folder}_{name}", path / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path[:] = saved
        sys.modules.pop("_common", None)


def test_chess_own_generator_is_exact_with_the_king_s_eight_steps() -> None:
    common = load("chess", "_common")
    for seed in range(8):
        board, rng = chess.Board(), random.Random(seed)
        while not board.is_game_over() and board.ply() < 120:
            want = [m for m in common.candidates(board) if not board.is_castling(m)]
            assert common.own_moves(board) == want, board.fen()
            board.push(rng.choice(list(board.legal_moves)))


def random_game(rules, seed: int, max_plies: int):
    """The positions of a game of uniformly random moves, up to its end or `max_plies`."""
    position, rng = rules.initial(), random.Random(seed)
    while position.outcome() is None and position.ply() < max_plies:
        yield position
        position = position.play(rng.choice(position.legal_moves()))


def turn_of(common: ModuleType, position, colour: str):
    return common.Turn(colour, position.board_lines(), "null", position.legal_moves())


def test_loa_own_generators_are_exact_with_their_flaws_off() -> None:
    common = load("loa", "_common")
    table = load("loa", "corner_diagonal_table")
    table.DIAGONALS = 15
    rules = loa.make_rules({})
    for seed in range(20):
        for position in random_game(rules, seed, 60):
            turn = turn_of(common, position, "bw"[position.turn()])
            want = [m for m in position.legal_moves() if m != "pass"]
            assert [m for m, _ in common.own_moves(turn, enemy_look=7)] == want, position.notation()
            played = table.CornerDiagonalTable().choose(turn)
            assert played in position.legal_moves(), position.notation()


def test_impasse_count_of_checkers_taken_off_is_exact_with_transposes_counted() -> None:
    common = load("impasse", "_common")
    rules = impasse.make_rules({})
    for seed in range(30):
        for position in random_game(rules, seed, 250):
            colour = "wb"[position.turn()]
            turn = turn_of(common, position, colour)
            for move in position.legal_moves():
                after = turn_of(common, position.play(move), colour)
                taken = common.own_checkers(turn) - common.own_checkers(after)
                assert common.checkers_taken_off(turn, move) == taken, (position.notation(), move)


def test_halma_home_and_its_free_cells_with_ring_zero() -> None:
    common = load("halma", "_common")
    corner = load("halma", "corner_last_cell")
    position = common.Bot().position
    for seat in (0, 1):
        assert common.home(seat) == frozenset(position.pieces(1 - seat))
    rng = random.Random(1)
    for _ in range(170):
        position = position.play(halma.choose_move(position, rng, "greedy"))
    for seat in (0, 1):
        free = {c for c in common.home(seat) if common.cell(position, *c) == "."}
        assert free, "no free home cell to compare"
        listed = set(corner.free_home_cells(position, seat)) | (free & {common.FAR_CORNER[seat]})
        assert listed == free


def test_the_two_bots_that_model_real_ones_pass(tmp_path: Path) -> None:
    for game, bot in (("loa", "loa/keeps_board.py"), ("impasse", "impasse/random_among_equals.py")):
        result = run_cli("check", "--game", game, "--games", "4", "--start-delay", "0", str(BOTS / bot),
                         tmp_path=tmp_path / game)
        assert result.code == 0, result.stdout
        assert not result.findings(), result.findings()


def test_keeps_board_aborts_when_started_cold(tmp_path: Path) -> None:
    result = run_cli("check", "--game", "loa", "--seat", "b", "--moves", "b1b3,a2c2",
                     str(BOTS / "loa" / "keeps_board.py"), tmp_path=tmp_path)
    assert result.code == 1
    [finding] = result.findings("fail")
    assert finding["kind"] == "crash"
    assert "keeps_board.py: Assertion 'board == sent' failed." in finding["stderr_tail"]
