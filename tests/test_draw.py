"""The boards the games draw (`svg()`, prototest/games/draw.py): the pieces a page's tests read
from them are the position's, the move played and a refused one are drawn where they
belong, and a board stays small. The shared conformance suite checks what every game's
drawing must do; this is what prototest's own drawings promise beyond it."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from prototest.games import draw
from prototest import games
from prototest.judge import spec as specmod

BUILT_IN = ["chess", "impasse", "loa", "halma"]


def bound(name: str):
    if name not in games.names():
        pytest.skip(f"{name} is not installed")
    module, rules = specmod.bind(specmod.load(games.game(name).spec))
    return module, rules


def walk(rules, seed: int, plies: int = 400, every: int = 7):
    """(position, the move that reached it) along one seeded random game, every few plies."""
    rng = random.Random(seed)
    position, last = rules.initial(), None
    for ply in range(plies):
        if ply % every == 0 or position.outcome() is not None:
            yield position, last
        if position.outcome() is not None:
            return
        last = rng.choice(list(position.legal_moves()))
        position = position.play(last)


def pieces_drawn(text: str) -> dict[str, str]:
    root = ET.fromstring(text)
    marked = [e for e in root.iter() if e.get("data-cell") is not None]
    cells = [e.get("data-cell") for e in marked]
    assert len(cells) == len(set(cells)), "a cell drawn twice"
    return {e.get("data-cell"): e.get("data-piece") for e in marked}


def pieces_in(name: str, notation: str) -> dict[str, str]:
    """The pieces a notation holds, {cell as moves name it: the notation's letter}, read
    here from the notation alone."""
    rows = notation.split()[0].split("/")
    out = {}
    if name == "chess":
        for i, row in enumerate(rows):
            row = re.sub(r"\d", lambda m: "." * int(m.group()), row)
            out.update({f"{'abcdefgh'[f]}{8 - i}": c for f, c in enumerate(row) if c != "."})
    elif name in ("impasse", "loa"):
        for i, row in enumerate(rows):
            out.update({f"{'abcdefgh'[f]}{8 - i}": c for f, c in enumerate(row) if c != "."})
    elif name == "halma":
        for y, row in enumerate(rows, 1):
            out.update({f"{x} {y}": c for x, c in enumerate(row, 1) if c != "."})
    elif name == "connect4":
        for i, row in enumerate(rows):
            out.update({f"{c + 1} {len(rows) - i}": m for c, m in enumerate(row) if m != "."})
    return out


@pytest.mark.parametrize("name", BUILT_IN + ["connect4"])
def test_the_pieces_drawn_are_the_positions(name):
    module, rules = bound(name)
    for seed in (1, 2):
        for position, last in walk(rules, seed):
            notation = position.notation()
            expected = pieces_in(name, notation)
            assert expected or name == "connect4", notation
            for flipped in (False, True):
                assert pieces_drawn(module.svg(position, last=last, flipped=flipped)) == expected, notation


def fills(text: str, colour: str) -> list[str]:
    """The `d` of the paths filled with `colour` (tinted cells)."""
    return [e.get("d") for e in ET.fromstring(text).iter() if e.get("fill") == colour and e.get("d")]


def cell_at(col: int, row: int) -> str:
    return f"M{draw.MARGIN + col * draw.CELL} {draw.MARGIN + row * draw.CELL}h"


def test_chess_tints_the_move_played_and_draws_the_refused_one_in_red():
    module, rules = bound("chess")
    after = rules.initial().play("e2e4")
    text = module.svg(after, last="e2e4", bad="d7d4")
    tinted = "".join(fills(text, draw.PALETTE["last"]))
    assert cell_at(4, 6) in tinted and cell_at(4, 4) in tinted  # e2, e4
    assert cell_at(3, 1) in "".join(fills(text, draw.PALETTE["bad"]))  # from d7, the arrow's start
    assert 'stroke="#e0202a"' in text
    assert "refused" not in text
    plain = module.svg(after)
    assert draw.PALETTE["last"] not in plain and draw.PALETTE["bad"] not in plain


def test_chess_castling_is_read_for_the_side_that_castles():
    module, rules = bound("chess")
    position = rules.parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").play("O-O")
    tinted = "".join(fills(module.svg(position, last="O-O"), draw.PALETTE["last"]))
    assert cell_at(4, 7) in tinted and cell_at(6, 7) in tinted  # e1, g1: white castled
    refused = "".join(fills(module.svg(position, bad="O-O-O"), draw.PALETTE["bad"]))
    assert cell_at(4, 0) in refused  # black's king on e8 would castle


def test_chess_marks_a_king_in_check():
    module, rules = bound("chess")
    position = rules.parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1").play("h1h8")
    rings = [e for e in ET.fromstring(module.svg(position)).iter() if e.get("stroke") == draw.PALETTE["check"]]
    assert [(e.get("cx"), e.get("cy")) for e in rings] == [("51", "11")]  # e8
    assert draw.PALETTE["check"] not in module.svg(rules.initial())


def test_flipped_turns_the_board_round():
    module, rules = bound("chess")
    start = rules.initial()
    a1 = '<use href="#chess-wr" x="{}" y="{}" data-cell="a1"'
    low, high = draw.MARGIN, draw.MARGIN + 7 * draw.CELL
    assert a1.format(low, high) in module.svg(start)
    assert a1.format(high, low) in module.svg(start, flipped=True)
    labels = [e.text for e in ET.fromstring(module.svg(start, flipped=True)).iter() if e.tag.endswith("text")]
    assert labels[:8] == list("abcdefgh") and labels[8:] == list("87654321")  # each beside its cells


@pytest.mark.parametrize("name,bad", [("chess", ""), ("chess", "zz99"), ("chess", "\x00"), ("impasse", "random"),
                                      ("loa", "pass"), ("halma", "move 1 2"), ("halma", "x"), ("connect4", "9")])
def test_an_unreadable_refused_move_is_a_caption(name, bad):
    module, rules = bound(name)
    text = module.svg(rules.initial(), bad=bad)
    captions = [e.text for e in ET.fromstring(text).iter() if e.tag.endswith("text") and e.get("fill") == draw.PALETTE["bad"]]
    assert captions == [f"refused: {draw.esc(repr(bad))}"]


@pytest.mark.parametrize("name,bad,cells", [("chess", "e2", [(4, 6)]), ("impasse", "a1h8c7", [(0, 7)]),
                                            ("loa", "a2", [(0, 6)]), ("halma", "1 2 3", [(0, 1)]),
                                            ("halma", "3 3 5 5", [(2, 2)]), ("connect4", "4", [(3, 5)])])
def test_a_readable_refused_move_is_drawn_on_its_cells(name, bad, cells):
    module, rules = bound(name)
    text = module.svg(rules.initial(), bad=bad)
    assert "refused" not in text
    red = [e for e in ET.fromstring(text).iter() if draw.PALETTE["bad"] in (e.get("fill"), e.get("stroke"))]
    assert red
    starts = [tuple(float(v) for v in found.groups())
              for e in red if (found := re.match(r"M([\d.]+) ([\d.]+)", e.get("d") or ""))]
    margin = float(ET.fromstring(text).get("viewBox").split()[2]) - draw.CELL * {"halma": 16, "connect4": 7}.get(name, 8)
    for col, row in cells:
        x, y = margin / 2 + col * draw.CELL, margin / 2 + row * draw.CELL
        assert any(x <= sx < x + draw.CELL and y <= sy < y + draw.CELL for sx, sy in starts), (bad, col, row, starts)


def test_a_halma_jump_chain_is_drawn_along_its_path():
    module, rules = bound("halma")
    position, _ = next((p, m) for p, m in walk(rules, 4, every=1) if any(len(m.split()) > 4 for m in p.legal_moves()))
    chain = next(m for m in position.legal_moves() if len(m.split()) > 4)
    text = module.svg(position.play(chain), last=chain)
    dashed = [e.get("d") for e in ET.fromstring(text).iter() if e.get("stroke-dasharray")]
    assert len(dashed) == 1 and dashed[0].count("L") == len(chain.split()) // 2 - 1
    step = next(m for m in position.legal_moves() if len(m.split()) == 4)
    assert "stroke-dasharray" not in module.svg(position.play(step), last=step)


def test_impasse_draws_a_double_under_a_crown():
    module, rules = bound("impasse")
    text = module.svg(rules.initial())
    assert '<use href="#impasse-W" x="16" y="6" data-cell="b8" data-piece="W"/>' in text
    crown = ET.fromstring(text).find(".//*[@id='impasse-W']")
    assert crown is not None and any(e.get("fill") == draw.PALETTE["crown"] for e in crown.iter())


@pytest.mark.parametrize("name,limit", [("chess", 14_000), ("impasse", 5_000), ("loa", 5_000), ("halma", 8_000),
                                        ("connect4", 5_000)])
def test_a_board_stays_small(name, limit):
    """A page holds one board per ply of games of 300 plies and more."""
    module, rules = bound(name)
    for position, last in walk(rules, 3, every=50):
        size = len(module.svg(position, last=last, bad="zz99").encode())
        assert size < limit, (position.notation(), size)


def test_text_is_escaped_and_what_xml_cannot_hold_is_dropped():
    assert draw.esc('<a & "b">\x00\x1b\ufffe') == "&lt;a &amp; &quot;b&quot;&gt;"
    grid = draw.Grid(3, 3)
    text = draw.root("g", 'a"<b>&\x00', grid, draw.refused(grid, "\x00<>", lambda move: []))
    root = ET.fromstring(text)
    assert root.get("data-position") == 'a"<b>&'


def test_a_reader_that_raises_draws_a_caption():
    grid = draw.Grid(2, 2)

    def broken(move: str):
        raise KeyError(move)

    assert draw.refused(grid, "x", broken).endswith(">refused: 'x'</text>")
    assert draw.played(grid, "x", broken) == ""
    assert draw.refused(grid, None, broken) == ""
