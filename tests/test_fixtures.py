"""The recorded dialogues under fixtures/ replay unchanged (regenerate: python -m prototest.fixtures)."""

from __future__ import annotations

import pytest

from prototest import fixtures

CASES = [(game, seat) for game in fixtures.REFERENCE_BOTS for seat in (0, 1)]


@pytest.mark.parametrize("game,seat", CASES, ids=[f"{g}-seat{s}" for g, s in CASES])
def test_fixture_replays_unchanged(game, seat):
    path = fixtures.fixture_path(game, seat)
    if not path.exists():
        pytest.fail(f"{path} is missing: run python -m prototest.fixtures")
    assert fixtures.record(game, seat) == path.read_text()


def test_normalize_keeps_the_dialogue_only():
    transcript = (
        "# prototest transcript\n"
        "    0.000 #  start pid 42: ./bot\n"
        "    0.101 >  white\n"
        "    0.101 >  NONE 1000 987 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        "    0.102 <  e2e4                                     [0.7 ms]\n"
        "    0.102 >  A 999\n"
        "    0.103 !  debug\n"
        "    0.200 #  game over after 9 plies: checkmate\n"
    )
    assert fixtures.normalize(transcript) == (
        "> white\n"
        "> NONE <time> <time> rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        "< e2e4\n"
        "> A <time>\n"
        "# game over after 9 plies: checkmate\n"
    )
