"""`--html PATH` pages and `prototest show`, without a browser (issue 24, items 2 and 3):
the page is written also when the run fails, refers to nothing outside itself, holds
every ply's position and board, opens at the failing ply; a bad path is one line; `show`
prints the board, the move and the transcript lines of a ply. tests/test_html_browser.py
opens the pages in a real browser."""

from __future__ import annotations

import shlex

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, run_cli
from prototest.reports import gameview, htmlpage

CHESS_BOT = str(BOTS / "chess" / "illegal_move.py")
FIXTURES = ROOT / "fixtures"


class Page(HTMLParser):
    """The parts of a page the tests look at: every game's data, the board shown, every
    address-like attribute, and whether the tags balance."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "path", "rect", "line", "circle", "polygon", "use", "stop",
            "ellipse", "polyline"}

    def __init__(self, text: str) -> None:
        super().__init__()
        self.games: list[dict] = []
        self.boards: list[dict] = []
        self.addresses: list[str] = []
        self.stack: list[str] = []
        self.unbalanced: list[str] = []
        self._data: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href", "xlink:href", "action"):
            if attrs.get(key) and not attrs[key].startswith("#"):
                self.addresses.append(attrs[key])
        if tag == "div" and "board" in (attrs.get("class") or "").split():
            self.boards.append(attrs)
        if tag == "script" and attrs.get("class") == "game-data":
            self._data = []
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.unbalanced.append(tag)
        else:
            self.stack.pop()
        if tag == "script" and self._data is not None:
            self.games.append(json.loads("".join(self._data)))
            self._data = None

    def handle_data(self, data):
        if self._data is not None:
            self._data.append(data)


def read_page(path: Path) -> tuple[str, Page]:
    text = path.read_text(encoding="utf-8")
    return text, Page(text)


def assert_self_contained(text: str, page: Page) -> None:
    assert page.unbalanced == [] and page.stack == [], (page.unbalanced, page.stack)
    assert page.addresses == []
    boards = [b for game in page.games for b in htmlpage.unpack_boards(game["boards"])]
    for where in (text, *boards):
        assert "http://" not in where and "https://" not in where
        assert not re.search(r"<(link|img|iframe)\b|\bsrc=|url\(", where)


@pytest.fixture(scope="module")
def chess_run(tmp_path_factory):
    """check of a bot that answers an illegal move, with --html and its transcripts."""
    tmp = tmp_path_factory.mktemp("chess")
    result = run_cli("check", "--game", "chess", "--moves", "e2e4,e7e5,g1f3,b8c6", "--html", str(tmp / "page.html"),
                     "--", "python3", CHESS_BOT, tmp_path=tmp)
    return tmp, result


def test_a_failing_check_writes_a_page_holding_every_ply(chess_run):
    tmp, result = chess_run
    assert result.code == 1, result.stderr
    text, page = read_page(tmp / "page.html")
    assert_self_contained(text, page)
    fails = [f for f in result.report["findings"] if f["severity"] == "fail"]
    assert len(page.games) == len(fails) == 2
    for game, finding in zip(page.games, sorted(fails, key=lambda f: f["game"])):
        transcript = Path(finding["transcript"])
        view = gameview.load(transcript)
        assert game["positions"] == [view.notation(p) for p in range(view.last + 1)]
        assert len(htmlpage.unpack_boards(game["boards"])) == len(game["positions"]) == len(finding["moves"]) + 1
        # it opens at the failing ply: the position the bot answered illegally in, its move refused there
        assert game["open"] == game["failing"] == len(finding["moves"])
        assert game["positions"][game["open"]] == finding["position"]
        assert game["refused"] == [[game["open"], finding["got"]]]
    assert [b["data-position"] for b in page.boards] == [f["position"] for f in sorted(fails, key=lambda f: f["game"])]
    # the report as printed is in the page: its verdict, the check table and the evidence
    assert "FAIL: 2 of 2 games failed" in text and "moves are legal" in text and "expected: one of" in text


@pytest.mark.parametrize("where, problem", [("a-file/page.html", "cannot write there"), (".", "is a directory")])
def test_a_bad_html_path_is_one_line_before_any_game(tmp_path, where, problem):
    (tmp_path / "a-file").write_text("")
    result = run_cli("check", "--game", "chess", "--games", "1", "--html", str(tmp_path / where),
                     "--", "python3", CHESS_BOT, tmp_path=tmp_path)
    assert result.code == 2
    assert result.stderr.strip().count("\n") == 0 and problem in result.stderr and "Traceback" not in result.stderr
    assert result.report is None  # no game was played


def test_show_prints_the_failing_ply_of_a_transcript(chess_run):
    tmp, result = chess_run
    finding = next(f for f in result.report["findings"] if f["severity"] == "fail" and f["game"] == 1)
    shown = run_cli("show", finding["transcript"])
    assert shown.code == 0, shown.stderr
    out = shown.stdout
    ply = len(finding["moves"])
    assert f"ply {ply} of {ply} (the failing ply): after move {ply} {finding['moves'][-1]} (the opponent's move)" in out
    assert f"the bot answered {finding['got']} here: refused by the judge" in out
    assert "\n".join(finding["diagram"]) in "\n".join(line[2:] for line in out.splitlines())
    assert f"position: {finding['position']}" in out
    assert re.search(r"^\s+\d+\.\d+ F  FAIL illegal_move: ", out, re.M)  # that ply's transcript lines
    first = run_cli("show", finding["transcript"], "--ply", "1")
    assert first.code == 0 and f"ply 1 of {ply}: after move 1 e2e4 (a given move)" in first.stdout  # --moves
    assert "FAIL illegal_move:" not in first.stdout.split("\n", 1)[1]


def test_show_refuses_a_ply_past_the_end_and_a_file_that_is_no_game(chess_run, tmp_path):
    tmp, result = chess_run
    transcript = next(f["transcript"] for f in result.report["findings"] if f["severity"] == "fail")
    past = run_cli("show", transcript, "--ply", "99")
    assert past.code == 2 and "--ply 99:" in past.stderr and past.stderr.count("\n") == 1
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    old = tmp_path / "old.txt"  # a transcript without its '# board:' line
    old.write_text("".join(line + "\n" for line in Path(transcript).read_text().splitlines()[:-1]))
    for path in (other, old, tmp_path / "none.txt", tmp_path):
        shown = run_cli("show", str(path))
        assert shown.code == 2 and shown.stderr.count("\n") == 1 and "Traceback" not in shown.stderr, shown.stderr


def test_show_rebuilds_a_fixture_and_writes_a_page_of_a_long_game(tmp_path):
    """A fixture holds no '# board:' line: its moves are found again from its header and
    answers. A 200-ply Halma game stays a page of a few hundred kB."""
    fixture = FIXTURES / "halma-blocker.txt"
    shown = run_cli("show", str(fixture), "--html", str(tmp_path / "halma.html"))
    assert shown.code == 0, shown.stderr
    assert "halma-blocker.txt: halma, the bot as player 1, 200 plies, win (blocker: " in shown.stdout
    assert "ply 200 of 200 (the last ply)" in shown.stdout
    text, page = read_page(tmp_path / "halma.html")
    assert_self_contained(text, page)
    (game,) = page.games
    assert len(game["positions"]) == len(htmlpage.unpack_boards(game["boards"])) == 201
    assert game["positions"][-1].endswith(" 200")
    assert len(text.encode()) < 3_000_000


def test_the_boards_of_a_long_game_are_embedded_compressed(monkeypatch):
    view = gameview.from_fixture(FIXTURES / "halma-blocker.txt")
    monkeypatch.setattr(htmlpage, "COMPRESS_ABOVE", 1000)
    data = htmlpage._boards_data(view)
    assert set(data) == {"gz"}
    assert htmlpage.unpack_boards(data) == [htmlpage.board_html(view, p) for p in range(view.last + 1)]


def test_replay_merge_fuzz_and_match_write_pages(tmp_path, chess_run):
    tmp, result = chess_run
    # merge: the shards' games with their transcripts, the merged verdict
    shards = [tmp_path / f"shard{i}.json" for i in (1, 2)]
    for i, shard in enumerate(shards, 1):
        run_cli("check", "--game", "chess", "--games", "2", "--shard", f"{i}/2", "--json", str(shard),
                "--transcripts", str(tmp_path / "transcripts"), "--", "python3", CHESS_BOT, tmp_path=tmp_path)
    merged = run_cli("merge", *map(str, shards), "--html", str(tmp_path / "merge.html"))
    assert merged.code == 1, merged.stderr
    text, page = read_page(tmp_path / "merge.html")
    assert_self_contained(text, page)
    assert len(page.games) == 2 and "FAIL: 2 of 2 games failed" in text
    # replay: a fixture that recorded no failure replays as it was: a page without boards
    replayed = run_cli("replay", str(FIXTURES / "chess-castling.txt"), "--html", str(tmp_path / "replay.html"),
                       tmp_path=tmp_path)
    assert replayed.code == 0, replayed.stderr + replayed.stdout
    text, page = read_page(tmp_path / "replay.html")
    assert_self_contained(text, page)
    assert "PASS: 1 fixture replayed" in text and page.games == []
    # match: the game where a bot forfeited, on its board
    match = run_cli("match", "--game", "chess", "--games", "2", "--html", str(tmp_path / "match.html"),
                    "python3 -m prototest.bots.chess_bot", f"python3 {shlex.quote(str(CHESS_BOT))}", tmp_path=tmp_path)
    text, page = read_page(tmp_path / "match.html")
    assert_self_contained(text, page)
    assert len(page.games) == 2 and all(g["refused"] for g in page.games), match.stdout
    # B failed: its FAIL lines read '[opponent] FAIL ...' (every game is A's check, B its
    # opponent); the button to its move says "failure" all the same (it said "warning")
    assert text.count('class="to-fail" title="the ply of the first failure (F)">failure<') == 2, text
    assert "warning</button>" not in text
    # B's refused move is B's, not "the bot's", and the moves are said as A's and B's
    assert all(g["refusedBy"] == ["opponent"] * len(g["refused"]) for g in page.games), page.games
    assert all(g["names"] == {"bot": "A", "opponent": "B"} for g in page.games)
    assert "(A as white: bold" in text and "(A as black: bold" in text


def test_a_fuzz_reproducer_opens_at_its_failing_position(tmp_path):
    result = run_cli("fuzz", "--game", "chess", "--examples", "3", "--jobs", "1", "--no-database",
                     "--shrink-examples", "3", "--html", str(tmp_path / "fuzz.html"), "--", "python3", CHESS_BOT,
                     tmp_path=tmp_path)
    assert result.code == 1, result.stderr
    text, page = read_page(tmp_path / "fuzz.html")
    assert_self_contained(text, page)
    finding = next(f for f in result.report["findings"] if f["severity"] == "fail")
    (game,) = page.games
    assert game["positions"][game["open"]] == finding["position"] and game["open"] == game["failing"]


def test_show_of_a_transcript_plays_no_game(chess_run):
    """`show` reads a file: it imports neither the judge's processes nor its reports."""
    from test_imports import JUDGE, modules_after

    tmp, result = chess_run
    transcript = next(f["transcript"] for f in result.report["findings"] if f["severity"] == "fail")
    code, modules = modules_after("show", transcript)
    assert code == 0
    assert "prototest.reports.gameview" in modules
    assert [m for m in modules if m in JUDGE or m.split(".")[0] in ("hypothesis", "redis")] == []


def test_a_game_whose_board_cannot_be_drawn_keeps_its_section(monkeypatch):
    view = gameview.from_fixture(FIXTURES / "loa-pass.txt")

    def broken(position):
        raise RuntimeError("no drawing today")

    monkeypatch.setattr(view.module, "diagram", broken)
    monkeypatch.setattr(view.module, "svg", broken, raising=False)
    text = htmlpage.page("t", "FAIL: x", "report", [htmlpage.Section("Game 1", view, ["FAIL illegal_move ..."])])
    assert "this game&#x27;s board could not be drawn: RuntimeError: no drawing today" in text
    assert "FAIL illegal_move ..." in text and 'class="viewer"' not in text


def test_a_replay_that_differs_opens_where_the_game_went_otherwise(tmp_path):
    lines = (FIXTURES / "chess-castling.txt").read_text().split("\n")
    answers = [i for i, line in enumerate(lines) if line.startswith("< ")]
    lines[answers[4]] = "< a2a3"  # the bot's 5th answer, edited: the bot answers otherwise now
    lines = [f"# cwd: {ROOT}" if line.startswith("# cwd:") else line for line in lines]
    fixture = tmp_path / "edited.txt"
    fixture.write_text("\n".join(lines))
    result = run_cli("replay", str(fixture), "--html", str(tmp_path / "replay.html"), tmp_path=tmp_path)
    assert result.code == 1 and "first difference at line" in result.stdout, result.stdout + result.stderr
    text, page = read_page(tmp_path / "replay.html")
    assert_self_contained(text, page)
    (game,) = page.games
    assert game["open"] == game["failing"] == 8  # the bot's 5th answer, as white
    assert game["marked"] == "the first difference"  # not "the failing ply", and the button says so
    assert ">difference</button>" in text and "warning</button>" not in text
    assert game["moves"][8] != "a2a3"
