"""Any text given as a position is either a position or a PositionError: never a crash.

`prototest moves`, `perft` and `check --position` pass user text straight to the rules
modules' parsers, so they are fuzzed here with text near a valid notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from prototest import spec as specmod
from prototest.games import rules_module
from prototest.games.base import PositionError

GAMES = ["chess", "impasse", "loa", "halma"]


def rules_for(game: str):
    spec = specmod.load(specmod.spec_path_for(game))
    return rules_module(spec.game.rules).make_rules(spec.rules)


ODD = st.sampled_from(list("0123456789/ .-+wbWB12²٣①\t\n\x00Ⅻ") + ["10", "99999999999999999999", "-1", "²"])


@st.composite
def near(draw, notation: str) -> str:
    """A notation with a few characters replaced, inserted or deleted."""
    text = list(notation)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        piece = draw(ODD)
        if op == "insert" or i == len(text):
            text[i:i] = list(piece)
        elif op == "replace":
            text[i:i + 1] = list(piece)
        else:
            del text[i]
    return "".join(text)


@st.composite
def field_swapped(draw, notation: str) -> str:
    """A notation with one of its space-separated fields (or one board row) replaced."""
    fields = notation.split(" ")
    i = draw(st.integers(0, len(fields) - 1))
    if i == 0 and draw(st.booleans()):
        rows = fields[0].split("/")
        j = draw(st.integers(0, len(rows) - 1))
        rows[j] = draw(st.one_of(ODD, st.text(max_size=20)))
        fields[0] = "/".join(rows)
    else:
        fields[i] = draw(st.one_of(ODD, st.text(max_size=8)))
    return " ".join(fields)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300)
@given(data=st.data())
def test_parse_gives_a_position_or_a_position_error(game, data):
    rules = rules_for(game)
    start = rules.initial().notation()
    text = data.draw(st.one_of(near(start), field_swapped(start), st.text(max_size=40)))
    try:
        position = rules.parse(text)
    except PositionError:
        return
    position.legal_moves()
    position.outcome()
    position.notation()


NUMERIC = ["²", "٣", "①", "-1", "+1", "1.5", "1e3", "0x1f", "99999999999999999999999", "", "½"]


@pytest.mark.parametrize("game", GAMES)
def test_every_field_replaced_by_odd_numbers(game):
    """Every space-separated field of the initial notation, and every board row, replaced
    in turn by numbers Python's str.isdigit or int() treat differently."""
    rules = rules_for(game)
    fields = rules.initial().notation().split(" ")
    rows = fields[0].split("/")
    variants = []
    for i in range(len(fields)):
        for odd in NUMERIC:
            variants.append(" ".join(fields[:i] + [odd] + fields[i + 1:]))
    for j in range(len(rows)):
        for odd in NUMERIC:
            board = "/".join(rows[:j] + [odd] + rows[j + 1:])
            variants.append(" ".join([board] + fields[1:]))
    for text in variants:
        try:
            rules.parse(text).legal_moves()
        except PositionError:
            pass
