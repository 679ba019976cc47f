"""prototest's own fixtures/: each regenerates unchanged, replays, and holds what it is for.

Regenerate them with `prototest record --update fixtures/` and review the diff. Also the
fixture format itself: the dialogue a game becomes, and the header's parsing.
"""

from __future__ import annotations

import difflib
import os
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from prototest.play import fixtures
from prototest import games
from prototest.sandbox import process
from prototest.judge import spec as specmod
from prototest.games import rules_module
from prototest.judge.referee import GameReport
from prototest.sandbox.transcript import Transcript

FILES = sorted((ROOT / "fixtures").glob("*.txt"))
#: the reference bots import prototest and python-chess: this interpreter's bin first
ENV = process.controlled_env({"PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])})


def _rules(game: str):
    spec = specmod.load(specmod.spec_path_for(game))
    module = rules_module(spec.game.rules)
    return module, module.make_rules(spec.rules)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture_regenerates_unchanged(path):
    """The game played again from the header gives the same bytes: a change in a spec,
    a rules module, the built-in opponent or a reference bot fails here."""
    fixture = fixtures.load(path)
    # Limits three times wider than the header's (clock values are masked, so the file
    # is the same): a loaded machine is no reason for a reference bot to time out here.
    text, report = fixtures.regenerate(fixture, fixtures.setup_of(fixture, ENV, time_scale=3))
    assert [f.message for f in report.findings if f.kind != "slow"] == []
    old = path.read_text()
    diff = "".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(path), "now", n=1))
    assert text == old, f"{path.name} differs (prototest record --update fixtures/ regenerates it):\n{diff[:3000]}"


def test_every_game_and_seat_has_a_whole_game():
    """One whole game per game and seat, from the initial position, played to its end."""
    whole = set()
    for path in FILES:
        h = fixtures.load(path).header
        body = fixtures.load(path).body
        if h.position is None and not h.moves and not h.opponent_given and h.max_plies is None:
            assert any(line.startswith("# game over after ") for line in body), path.name
            whole.add((h.game, h.seat))
    builtin = [name for name in games.names() if games.game(name).source == "prototest"]
    wanted = {(game, seat) for game in builtin for seat in specmod.load(specmod.spec_path_for(game)).game.seats}
    assert wanted <= whole, f"missing: {sorted(wanted - whole)}"


def test_replay_of_every_fixture_passes(tmp_path):
    """The judge's side of each fixture, the recorded opponent moves forced."""
    result = run_cli("replay", "-q", "--time-scale", "3", "--transcripts", str(tmp_path), "fixtures/")
    assert result.code == 0, result.stdout + result.stderr
    assert result.stdout.strip() == f"PASS: {len(FILES)} fixtures replayed"


# -- the special situations -----------------------------------------------------------------

def _answers(path: Path) -> list[tuple[list[str], str]]:
    """(the request, the bot's answer) for every answer of a fixture."""
    out, request = [], []
    for line in fixtures.load(path).body:
        if line.startswith("> "):
            request.append(line[2:])
        elif line.startswith("< "):
            out.append((request, line[2:]))
            request = []
    return out


def _chess_moves_of_kind(path: Path, kind: str) -> list[str]:
    module, rules = _rules("chess")
    found = []
    for request, answer in _answers(path):
        fen = request[-1].split(" ", 3)[3]
        if kind in module.situations(rules.parse(fen), answer):
            found.append(answer)
    return found


@pytest.mark.parametrize("name,kind", [("chess-castling", "castling"), ("chess-en-passant", "en passant"),
                                       ("chess-promotion", "promotion")])
def test_chess_fixture_holds_its_situation(name, kind):
    """The bot itself plays the move, in the position the judge sent it."""
    assert _chess_moves_of_kind(ROOT / "fixtures" / f"{name}.txt", kind)


def _codingame_turns(path: Path, game: str):
    """(position, listed moves, answer) of each CodinGame turn of a fixture."""
    module, rules = _rules(game)
    seat = fixtures.load(path).header.seat
    for request, answer in _answers(path):
        lines = request[1:] if request[0] in ("w", "b") else request
        height = len(rules.initial().board_lines())
        rows, count = lines[:height], int(lines[height + 1])
        yield rules.parse("/".join(rows) + f" {seat} 0"), lines[height + 2:height + 2 + count], answer


def test_impasse_fixture_holds_crowning_and_impasse():
    """Crowning is a slide with a crown source (6 characters), or at an impasse a removal
    with one (4); an impasse removal is a turn at an impasse."""
    crowns, removals = [], []
    for position, listed, answer in _codingame_turns(ROOT / "fixtures" / "impasse-crown-and-impasse.txt", "impasse"):
        assert answer in listed and answer in position.legal_moves()
        if position.at_impasse():
            removals.append(answer)
        if len(answer) == (4 if position.at_impasse() else 6):
            crowns.append(answer)
    assert crowns and removals


def test_loa_fixture_holds_a_pass():
    turns = list(_codingame_turns(ROOT / "fixtures" / "loa-pass.txt", "loa"))
    assert any(listed == ["pass"] and answer == "pass" for _, listed, answer in turns)


def test_halma_fixture_holds_a_blocker():
    """From ply 200 a player with a piece in its own zone loses: the game ends there."""
    body = fixtures.load(ROOT / "fixtures" / "halma-blocker.txt").body
    assert "# game over after 200 plies: blocker: player 2 still has a piece in its own zone" in body
    assert body[-1] == "# result: win (blocker: player 2 still has a piece in its own zone)"


# -- the format ----------------------------------------------------------------------------

def test_dialogue_keeps_what_crossed_the_pipes_without_what_changes_between_runs():
    t = Transcript()
    t.note("start pid 4242: ./bot")
    t.sent("white", 1)
    t.sent("NONE 1000 987 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2)
    t.mask_sent(["NONE <time> <time> rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    t.received("e2e4 ", 3, 700_000)  # a trailing space stays: it is what the bot sent
    t.stderr("debug: thinking", 4)
    t.add("W", "WARN slow: answered in 93.4 ms, 93% of the 100 ms it had")
    t.add("F", "FAIL timeout: answered 'e7e5' after 151.2 ms: over the 150 ms it had")
    t.note("stdin closed")
    t.note("exited: status 0")
    t.note("game over after 9 plies: checkmate")
    t.note("result: win (checkmate)")
    report = GameReport(1, 0, "white", 1, transcript=t)
    assert fixtures.dialogue(report) == [
        "> white",
        "> NONE <time> <time> rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "< e2e4 ",
        "F timeout: answered 'e7e5' after <ms>: over the <ms> it had",
        "# game over after 9 plies: checkmate",
        "# result: win (checkmate)",
    ]


def test_header_round_trips(tmp_path):
    header = fixtures.Header(seat="1", seed=7, bot=["python3", "my bot.py"], game="halma", index=3, cwd="..",
                             time_scale=2.5, start_delay=0, overrides=["severity.slow=fail"],
                             max_turns=4, opponent_given=2, opponent_moves=["1 3 3 5", "2 2 4 4", "16 14 14 12"],
                             notes=["from a fuzz run"])
    text = fixtures.render(header, ["< ready", "> start 1", "< "])
    fixture = fixtures.parse(text, tmp_path / "f.txt")
    assert fixture.header == header
    assert fixture.body == ["< ready", "> start 1", "< "]
    assert fixture.first_line == len(header.lines()) + 2
    assert fixtures.render(fixture.header, fixture.body) == text


@pytest.mark.parametrize("edit,problem", [
    (lambda t: t.replace("# seed: 7\n", "# seed: seven\n"), "f.txt:4: seed: expected an integer, got 'seven'"),
    (lambda t: t.replace("# seed: 7\n", ""), "f.txt: the header has no 'seed' line"),
    (lambda t: t.replace("# seat: 1\n", "# seat: 1\n# colour: red\n"), "f.txt:4: not a header line"),
    (lambda t: t.replace("fixture: 1", "fixture: 9"), "f.txt:1: fixture format '9'"),
    (lambda t: t.replace("\n\n", "\n"), "f.txt: no blank line after the header"),
    (lambda t: t + "e2e4\n", "f.txt:13: not a dialogue line"),
    (lambda t: t.replace("# time-scale: 1\n", "# time-scale: 0\n"), "time-scale: expected a number from 0.01"),
    (lambda t: "hello\n", "f.txt: not a prototest fixture"),
])
def test_a_bad_header_or_body_is_named_by_line(tmp_path, edit, problem):
    header = fixtures.Header(seat="1", seed=7, bot=["./bot"], game="halma", opponent_moves=["1 3 3 5"])
    text = edit(fixtures.render(header, ["< ready", "> start 1"]))
    with pytest.raises(fixtures.FixtureError) as caught:
        fixtures.parse(text, tmp_path / "f.txt")
    assert problem in str(caught.value)
