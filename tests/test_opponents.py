"""The swarm contract, written once in prototest.games.opponents (issue 21, item 4): a rules
module gives its moves' classes (`move_kinds`) and its styles' preferences (`prefer`);
`candidates` leaves out the omitted classes, falls back, and never answers empty."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from prototest.games import opponents
from prototest.games import chess as chess_rules
from prototest.games import make_rules, rules_module
from prototest.games.opponents import Style

GAMES = ("chess", "impasse", "loa", "halma")


class Listed:
    """A position that only lists its moves."""

    def __init__(self, moves):
        self.moves = moves

    def legal_moves(self):
        return self.moves


def module(prefer=None):
    """A rules module of three moves: "a" and "b" are captures, "b" and "c" are long."""
    kinds = {"a": frozenset({"capture"}), "b": frozenset({"capture", "long"}), "c": frozenset({"long"})}
    asked = []

    def prefers(position, style, moves):
        asked.append((style, list(moves)))
        if style == "capturing":
            return [m for m in moves if "capture" in kinds[m]]
        if style == "fussy":
            return []
        raise ValueError(f"unknown style {style!r}")

    return SimpleNamespace(STYLES=("random", "capturing", "fussy"), MOVE_CLASSES=("capture", "long"),
                           move_kinds=lambda position, move: kinds[move], prefer=prefer or prefers, asked=asked)


def test_omitted_classes_are_left_out_in_listing_order():
    m, position = module(), Listed(["a", "b", "c"])
    assert opponents.candidates(m, position, Style("capturing", frozenset({"long"}))) == (["a"], ["a"])
    assert opponents.candidates(m, position, Style("capturing")) == (["a", "b", "c"], ["a", "b"])
    assert opponents.candidates(m, position, Style("capturing", frozenset({"capture"}))) == (["c"], ["c"])


def test_every_move_omitted_allows_them_all():
    m, position = module(), Listed(["a", "b", "c"])
    allowed, preferred = opponents.candidates(m, position, Style("capturing", frozenset({"capture", "long"})))
    assert allowed == ["a", "b", "c"] and preferred == ["a", "b"]


def test_a_style_that_prefers_nothing_prefers_every_allowed_move():
    m, position = module(), Listed(["a", "b", "c"])
    assert opponents.candidates(m, position, Style("fussy", frozenset({"capture"}))) == (["c"], ["c"])
    assert opponents.candidates(m, position, Style("fussy")) == (["a", "b", "c"], ["a", "b", "c"])


def test_random_and_a_single_allowed_move_never_ask_the_module():
    def refuse(position, style, moves):
        raise AssertionError("prefer asked")

    m = module(prefer=refuse)
    assert opponents.candidates(m, Listed(["a", "b", "c"]), Style("random", frozenset({"long"}))) == (["a"], ["a"])
    assert opponents.candidates(m, Listed(["c"]), Style("capturing")) == (["c"], ["c"])
    assert opponents.candidates(m, Listed(["a", "b", "c"]), Style("capturing", frozenset({"capture"}))) == (["c"], ["c"])
    assert opponents.candidates(m, Listed([]), Style("capturing")) == ([], [])


def test_an_unknown_style_is_a_value_error():
    with pytest.raises(ValueError, match="unknown style"):
        opponents.candidates(module(), Listed(["a", "b"]), Style("sulking"))
    for game in GAMES:
        rules = make_rules(game, {})
        with pytest.raises(ValueError, match="unknown style 'sulking'"):
            opponents.candidates(rules_module(game), rules.initial(), Style("sulking"))


def test_a_module_of_moves_alone_plays_random():
    bare = SimpleNamespace()
    assert opponents.styles(bare) == ("random",) and opponents.move_classes(bare) == ()
    assert opponents.candidates(bare, Listed(["x", "y"]), Style("random")) == (["x", "y"], ["x", "y"])
    assert opponents.pick(bare, Listed(["x", "y"]), Style("random"), 3) == "y"


def _positions(game: str, count: int, seed: int = 3):
    rules, rng = make_rules(game, {}), random.Random(seed)
    position, found = rules.initial(), []
    while len(found) < count:
        if position.outcome() is not None:
            position = rules.initial()
        found.append(position)
        position = position.play(rng.choice(list(position.legal_moves())))
    return rng, found[::3]


@pytest.mark.parametrize("game", GAMES)
def test_a_style_prefers_a_subsequence_of_the_moves_it_is_given(game):
    """What makes a single allowed move its own preferred move: `prefer` only keeps moves."""
    m = rules_module(game)
    rng, positions = _positions(game, 90)
    for position in positions:
        moves = list(opponents.listing(m, position))
        if len(moves) < 2:
            continue
        given = [x for x in moves if rng.random() < 0.7] or moves[:2]
        for style in opponents.styles(m)[1:]:
            preferred = m.prefer(position, style, given)
            it = iter(given)
            assert all(any(x is y or x == y for y in it) for x in preferred), (game, style)


def test_chess_works_out_only_the_classes_it_is_asked_about(monkeypatch):
    asked = []
    tests = dict(chess_rules._CLASS_TESTS)
    for name, test in tests.items():
        monkeypatch.setitem(chess_rules._CLASS_TESTS, name,
                            lambda board, move, name=name, test=test: asked.append(name) or test(board, move))
    _, positions = _positions("chess", 60)
    for position in positions:
        for move in position.generated():
            kinds = chess_rules.move_kinds(position, move)
            asked.clear()
            kinds.isdisjoint({"capture", "castling"})
            assert "check" not in asked and set(asked) <= {"capture", "castling"}
            asked.clear()
            every = set(kinds)
            assert every == {n for n, t in tests.items() if t(position.board, move)}
            assert len(kinds) == len(every) and all(n in kinds for n in every) and "jump" not in kinds


@pytest.mark.parametrize("game,limit", [("chess", None), ("impasse", 250), ("loa", 150), ("halma", 1998)])
def test_every_rules_object_says_its_turn_limit(game, limit):
    assert make_rules(game, {}).max_plies == limit
    if limit is not None:
        assert make_rules(game, {"max_plies": 12}).max_plies == 12
