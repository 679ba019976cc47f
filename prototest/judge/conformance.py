"""The conformance suite: what every game must do, tested the same way for prototest's
own games and for a plugin's.

A game's author runs it from a test module of their own (pytest, with prototest
installed and the game registered, `pip install -e .`):

    # tests/test_conformance.py
    from prototest.judge.conformance import *  # noqa: F401,F403 - the shared suite
    GAMES = ["connect4"]  # only these games (without it: every installed game)

prototest's own tests/test_conformance.py is that line, for every installed game. The
suite checks, on the game as it is registered (`prototest.games`):

- the game loads, its spec binds to its rules, and the spec's name is the game's;
- notations round-trip, and text near a notation (or any text) gives a position or a
  PositionError, never another exception;
- every listed move is judged legal and plays; text that is no move is refused with a
  reason;
- perft and divide agree with the generic versions in `games/base.py`;
- the opponents' lists (`opponents.candidates`) are never empty, hold only legal moves
  and leave out the classes a configuration omits (when anything else is left);
- situations, measures and the diagram are computed without error on random games,
  and name only what `SITUATIONS` lists;
- the board drawing (`svg`, when the game has one) is one self-contained `<svg>` whose
  root names the game and the position, with the move just played and any refused
  string, either way up;
- the game's bot (`BOT`) plays a whole game in each seat under `prototest check`.

The random games are seeded: a failure is the same on every run.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from .. import games
from ..games import opponents
from . import spec as specmod
from ..games.base import IllegalMove, PositionError, generic_perft

__all__ = [
    "pytest_generate_tests",
    "test_the_game_loads_and_its_spec_binds",
    "test_notations_round_trip",
    "test_text_near_a_notation_is_a_position_or_a_position_error",
    "test_every_field_replaced_by_odd_numbers_is_a_position_or_a_position_error",
    "test_listed_moves_are_judged_legal_and_other_text_is_refused",
    "test_perft_and_divide_agree_with_the_generic_versions",
    "test_opponents_lists_are_never_empty_and_leave_out_omitted_classes",
    "test_situations_measures_and_diagram_on_random_games",
    "test_the_board_drawing_is_an_svg_of_the_position",
    "test_the_bot_plays_a_whole_game_in_each_seat",
]

#: Random games per check, and the plies kept of each (long games are sampled, not walked).
GAMES_PLAYED = 6
MAX_PLIES = 400
#: perft is compared up to this many leaves (the generic version is slow).
PERFT_LEAVES = 20_000


def pytest_generate_tests(metafunc) -> None:
    """Every test here runs once per game: the module's GAMES, else every installed game."""
    if "game_name" in metafunc.fixturenames:
        chosen = getattr(metafunc.module, "GAMES", None)
        metafunc.parametrize("game_name", list(chosen) if chosen else games.names())


@functools.cache
def _bound(name: str):
    game = games.game(name)
    spec = specmod.load(game.spec)
    module, rules = specmod.bind(spec)
    return game, spec, module, rules


@functools.cache
def _positions(rules, seed: int) -> list:
    """Positions of a few seeded random games (each from the initial one)."""
    rng = random.Random(seed)
    out = []
    for _ in range(GAMES_PLAYED):
        position = rules.initial()
        for _ in range(MAX_PLIES):
            out.append(position)
            if position.outcome() is not None:
                break
            position = position.play(rng.choice(list(position.legal_moves())))
    return out


@functools.cache
def _starts(rules) -> list:
    """The initial position and a few others, for text near a notation."""
    return [rules.initial()] + _sample(_positions(rules, 2), 7, 2)


def _sample(items: list, count: int, seed: int) -> list:
    return items if len(items) <= count else random.Random(seed).sample(items, count)


def test_the_game_loads_and_its_spec_binds(game_name):
    game, spec, module, rules = _bound(game_name)
    assert spec.name == game_name, f"the spec of {game_name!r} names itself {spec.name!r} (game.name)"
    initial = rules.initial()
    assert initial.turn() == 0 and initial.ply() == 0 and initial.outcome() is None
    assert list(initial.legal_moves()), "no legal move in the initial position"
    assert len(set(initial.legal_moves())) == len(initial.legal_moves()), "a move listed twice"
    assert rules.max_plies is None or rules.max_plies >= 1


def test_notations_round_trip(game_name):
    _, _, _, rules = _bound(game_name)
    for position in _sample(_positions(rules, 1), 300, 1):
        text = position.notation()
        again = rules.parse(text)
        assert again.notation() == text, text
        assert again.turn() == position.turn(), text
        assert list(again.legal_moves()) == list(position.legal_moves()), text
        assert (again.outcome() is None) == (position.outcome() is None), text


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


def _readable(rules, text: str) -> None:
    """`text` parses to a usable position, or raises PositionError."""
    try:
        position = rules.parse(text)
    except PositionError:
        return
    position.legal_moves()
    position.outcome()
    position.notation()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_text_near_a_notation_is_a_position_or_a_position_error(game_name, data):
    _, _, _, rules = _bound(game_name)
    start = data.draw(st.sampled_from(_starts(rules))).notation()
    _readable(rules, data.draw(st.one_of(near(start), field_swapped(start), st.text(max_size=40))))


NUMERIC = ["²", "٣", "①", "-1", "+1", "1.5", "1e3", "0x1f", "99999999999999999999999", "", "½"]


def test_every_field_replaced_by_odd_numbers_is_a_position_or_a_position_error(game_name):
    """Every space-separated field of the initial notation, and every board row, replaced
    in turn by numbers Python's str.isdigit or int() treat differently."""
    _, _, _, rules = _bound(game_name)
    fields = rules.initial().notation().split(" ")
    rows = fields[0].split("/")
    for i in range(len(fields)):
        for odd in NUMERIC:
            _readable(rules, " ".join(fields[:i] + [odd] + fields[i + 1:]))
    for j in range(len(rows)):
        for odd in NUMERIC:
            _readable(rules, " ".join(["/".join(rows[:j] + [odd] + rows[j + 1:])] + fields[1:]))


NOT_MOVES = ["", " ", "\x00", "null", "resign", "zz99", "9" * 40, "move", "é"]


def test_listed_moves_are_judged_legal_and_other_text_is_refused(game_name):
    _, _, _, rules = _bound(game_name)
    for position in _sample([p for p in _positions(rules, 3) if p.outcome() is None], 60, 3):
        listed = list(position.legal_moves())
        for move in listed:
            judged = position.judge(move)
            assert judged.move == move, f"{position.notation()}: {move!r} judged as {judged.move!r}"
            assert judged.position.notation() == position.play(move).notation()
            assert judged.position.ply() == position.ply() + 1
        for text in NOT_MOVES:
            if text in listed:
                continue
            with pytest.raises(IllegalMove) as refused:
                position.judge(text)
            assert refused.value.reason, f"{position.notation()}: {text!r} refused without a reason"


def test_perft_and_divide_agree_with_the_generic_versions(game_name):
    """perft counts the game's tree as the judge lists its moves (the generic version),
    unless the rules say it counts another (`Rules.perft_counts`: chess counts every
    promotion, as published figures do): then it counts at least the judge's tree, and
    divide still sums to perft."""
    _, _, _, rules = _bound(game_name)
    other = getattr(rules, "perft_counts", "")
    for position in [rules.initial()] + _sample(_positions(rules, 4), 4, 4):
        depth, leaves = 1, 1
        while depth <= 4 and leaves <= PERFT_LEAVES:
            leaves = rules.perft(position, depth)
            judged = generic_perft(position, depth)
            where = f"{position.notation()}: perft {depth} is {leaves}, the generic version {judged}"
            assert leaves >= judged if other else leaves == judged, where
            divided = rules.divide(position, depth)
            assert sum(n for _, n in divided) == leaves, f"{position.notation()}: divide {depth}"
            if position.outcome() is None and not other:  # another count writes its own moves
                assert sorted(m for m, _ in divided) == sorted(position.legal_moves())
            depth += 1


def test_opponents_lists_are_never_empty_and_leave_out_omitted_classes(game_name):
    """The module's own hooks: move_kinds names only MOVE_CLASSES, prefer keeps a
    subsequence of the moves it is given and refuses an unknown style; and the lists
    the opponents draw from hold only legal moves, none of an omitted class (unless
    every move is of one)."""
    _, _, module, rules = _bound(game_name)
    classes = opponents.move_classes(module)
    omits = [frozenset(), frozenset(classes)] + [frozenset([c]) for c in classes]
    kinds = getattr(module, "move_kinds", None)
    text = getattr(module, "move_text", None)
    styled = opponents.styles(module)[1:]
    for position in _sample([p for p in _positions(rules, 5) if p.outcome() is None], 40, 5):
        legal = set(position.legal_moves())
        listed = list(opponents.listing(module, position))
        of = {i: set(kinds(position, m)) for i, m in enumerate(listed)} if kinds is not None else {}
        assert all(found <= set(classes) for found in of.values()), f"{position.notation()}: kinds beyond MOVE_CLASSES"
        for name in styled:
            chosen = module.prefer(position, name, listed)
            assert chosen == [m for m in listed if m in chosen], f"{position.notation()}: prefer({name!r}) reorders"
        if styled:
            with pytest.raises(ValueError):
                module.prefer(position, "no such style", listed)
        for name in opponents.styles(module):
            for omit in omits:
                allowed, preferred = opponents.candidates(module, position, opponents.Style(name, omit))
                where = f"{position.notation()}: style {name}, never {sorted(omit)}"
                assert allowed and preferred, where
                assert all(m in allowed for m in preferred), where
                written = [text(position, m) if text else m for m in allowed]
                assert set(written) <= legal, where
                if kinds is not None:
                    free = [m for i, m in enumerate(listed) if not of[i] & omit]
                    assert list(allowed) == (free or listed), f"{where}: not the moves of no omitted class"


def test_situations_measures_and_diagram_on_random_games(game_name):
    _, _, module, rules = _bound(game_name)
    named = set(getattr(module, "SITUATIONS", ()))
    situations = getattr(module, "situations", None)
    measures = getattr(module, "measures", None)
    diagram = getattr(module, "diagram", None)
    assert (situations is None) == (not named), "SITUATIONS and situations() come together"
    notes = getattr(module, "SITUATION_NOTES", {})
    assert set(notes) <= named, f"notes on situations that are not in SITUATIONS: {set(notes) - named}"
    for position in _sample(_positions(rules, 6), 200, 6):
        if situations is not None:
            assert set(situations(position)) <= named, position.notation()
            if position.outcome() is None:
                move = position.legal_moves()[0]
                assert set(situations(position, move)) <= named, (position.notation(), move)
        if measures is not None:
            values = measures(position)
            assert all(isinstance(k, str) and isinstance(v, (int, float)) and math.isfinite(v)
                       for k, v in values.items()), (position.notation(), values)
        if diagram is not None:
            lines = diagram(position)
            assert lines and all(isinstance(line, str) for line in lines), position.notation()


#: Refused answers a drawing must survive, beside the moves refused in the position.
REFUSED = ["", " ", "zz99", "e2", "1 2 3", "\x00", "9" * 40, "pass", "<&\"'>", "é", "-1 -1 99 99", "a1h8c7"]
SVG = "{http://www.w3.org/2000/svg}"


def test_the_board_drawing_is_an_svg_of_the_position(game_name):
    """`svg(position, last=, bad=, flipped=)` (games/base.py): along a few random games,
    with the move just played and refused strings of every kind, an `<svg>` that parses,
    whose root has class "board", the game's name and the position's notation, that
    needs nothing from outside (no script, no link but to its own ids), and whose
    pieces (`data-cell`, `data-piece`, when it marks them) are the same either way up."""
    import xml.etree.ElementTree as ET

    _, _, module, rules = _bound(game_name)
    draw = getattr(module, "svg", None)
    if draw is None:
        pytest.skip(f"{game_name} has no svg()")
    rng = random.Random(8)
    for _ in range(3):
        position, last = rules.initial(), None
        for ply in range(MAX_PLIES):
            if ply % 9 == 0 or position.outcome() is not None:
                listed = list(position.legal_moves())
                refused = [text for text in REFUSED + ([last] if last else []) if text not in listed]
                seen = []
                for bad in [None] + refused:
                    for flipped in (False, True):
                        text = draw(position, last=last, bad=bad, flipped=flipped)
                        where = f"{position.notation()}, last={last!r}, bad={bad!r}, flipped={flipped}"
                        assert isinstance(text, str) and text.startswith("<svg"), where
                        root = ET.fromstring(text)
                        assert root.tag == SVG + "svg", where
                        assert root.get("class") == "board", where
                        assert root.get("data-game") == game_name, where
                        assert root.get("data-position") == position.notation(), where
                        assert root.get("viewBox"), where
                        assert root.get("width") in (None, "100%") and root.get("height") is None, where
                        for element in root.iter():
                            assert element.tag.split("}")[-1] not in ("script", "foreignObject", "image"), where
                            for name, value in element.attrib.items():
                                assert not name.lower().startswith("on"), where
                                if name.endswith("href"):
                                    assert value.startswith("#"), f"{where}: links to {value!r}"
                        seen.append(sorted((e.get("data-cell"), e.get("data-piece"))
                                           for e in root.iter() if e.get("data-cell") is not None))
                assert all(pieces == seen[0] for pieces in seen), f"{position.notation()}: pieces differ"
            if position.outcome() is not None:
                break
            last = rng.choice(list(position.legal_moves()))
            position = position.play(last)


def test_the_bot_plays_a_whole_game_in_each_seat(game_name):
    """`prototest check` with the game's bot, one game per seat, to the game's end."""
    game, spec, _, _ = _bound(game_name)
    seats = spec.game.seats
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    with tempfile.TemporaryDirectory() as tmp:
        report_path = Path(tmp) / "report.json"
        proc = subprocess.run(
            [sys.executable, "-m", "prototest", "check", "--game", game_name, "--games", str(len(seats)),
             "--jobs", "1", "--seed", "1", "--json", str(report_path), "--transcripts", str(Path(tmp) / "t"),
             "-q", "--", sys.executable, "-m", game.bot],
            capture_output=True, text=True, env=env, cwd=tmp, stdin=subprocess.DEVNULL, timeout=600, check=False)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        report = json.loads(report_path.read_text())
    played = report["games"]
    assert sorted(g["seat"] for g in played) == sorted(seats), played
    for g in played:
        assert g["result"] in ("win", "loss", "draw"), g
