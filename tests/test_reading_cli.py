"""Reading the bot's line byte by byte, as each referee's own code does (the spec's [read]
rules; docs/games/index.md, "Reading the bot's line, byte by byte"), through the real CLI against real
bot processes: every row and edge of the table in ../shared/REFERENCE.md's section."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BOTS, one_per_seat, run_cli
from prototest import games

LOA, IMPASSE, HALMA = BOTS / "loa", BOTS / "impasse", BOTS / "halma"


def check(tmp_path: Path, game: str, bot: Path, *extra: str):
    return run_cli("check", "--game", game, "--seed", "1", *one_per_seat(*extra), *extra, str(bot), tmp_path=tmp_path)


def only(result, kind: str, severity: str) -> list[dict]:
    """The findings, which must all be of this kind and severity, one game or more."""
    found = result.findings()
    assert found and {(f["kind"], f["severity"]) for f in found} == {(kind, severity)}, \
        f"{found}\n{result.stdout}"
    return found


def played_on(result) -> None:
    for game in result.report["games"]:
        assert game["result"] in ("win", "loss", "draw") and game["plies"] > 4, game


# -- CodinGame: the SDK's runner reads up to 10,000 bytes a turn ------------------------------

def test_a_2000_character_comment_is_no_malformed_line(tmp_path):
    """A 2,005-byte line: over the 1,024 bytes of other platforms, within the runner's
    10,000. The referee plays the move and keeps 16 characters of the comment: a WARN."""
    result = check(tmp_path, "loa", LOA / "comment_2000.py")
    assert result.code == 0, result.stdout + result.stderr
    for f in only(result, "malformed", "warn"):
        assert f["message"].startswith("the comment 'xxxxxxxxxx") and \
            f["message"].endswith("... is 2000 characters; the referee keeps 16"), f["message"]
        assert len(f["got"]) == 2005
    played_on(result)


@pytest.mark.parametrize("line_bytes", [10_000, 10_001])
def test_the_runner_reads_10000_bytes_a_turn_then_calls_it_a_timeout(tmp_path, line_bytes):
    """The bot's 2nd answer is a line of exactly this many bytes, its newline included."""
    result = check(tmp_path, "loa", LOA / "line_over_10000.py", "--env", f"LINE_BYTES={line_bytes}")
    if line_bytes == 10_000:  # the longest line that counts: played, its comment cut
        assert result.code == 0, result.stdout + result.stderr
        for f in only(result, "malformed", "warn"):
            assert (f["turn"], f["count"]) == (2, 1) and "is 9994 characters" in f["message"]
        played_on(result)
        return
    assert result.code == 1, result.stdout + result.stderr
    for f, game in zip(only(result, "timeout", "fail"), result.report["games"]):
        assert f["turn"] == 2, f
        assert f["message"] == ("sent 10000 bytes without a line end: the referee reads at most 10000 bytes of a "
                                "turn, its line end included, and counts a turn without one as a timeout")
        assert (game["result"], game["reason"]) == ("forfeit", "timeout")


# -- CodinGame: the move is the text before the first space ------------------------------------

def test_loa_takes_a_move_followed_by_a_tab_by_prefix(tmp_path):
    """`b1b3\\tdbg`: no space, so no comment; the whole text starts with a legal move."""
    result = check(tmp_path, "loa", LOA / "tab_before_comment.py")
    assert result.code == 0, result.stdout + result.stderr
    for f in only(result, "malformed", "warn"):
        move = f["got"].removesuffix("\\tdbg")
        assert f["message"] == (f"'{move}\\tdbg' is accepted by the referee as '{move}' (it compares prefixes; "
                                f"a tab does not start a comment); write the move alone"), f["message"]
    played_on(result)
    assert not any("dbg" in m for g in result.report["games"] for m in g["moves"])


def test_impasse_refuses_a_move_followed_by_a_tab(tmp_path):
    """`c7a5\\t`: Impasse compares the text before the first space with equals()."""
    result = check(tmp_path, "impasse", IMPASSE / "tab_after_move.py")
    assert result.code == 1, result.stdout + result.stderr
    for f, game in zip(only(result, "malformed", "fail"), result.report["games"]):
        move = f["got"].removesuffix("\\t")
        assert f["got"] == move + "\\t" and f["turn"] == 1
        assert f["message"] == (f"'{move}\\t': the referee compares all the text before the first space with "
                                f"the listed moves, a tab included: write '{move}'"), f["message"]
        assert move in f["expected"]
        assert (game["result"], game["reason"]) == ("forfeit", "malformed")


def test_invalid_utf8_in_a_comment_is_a_warning_and_the_move_plays(tmp_path):
    result = check(tmp_path, "loa", LOA / "invalid_utf8_comment.py")
    assert result.code == 0, result.stdout + result.stderr
    for f in only(result, "malformed", "warn"):
        assert f["message"] == ("the comment holds bytes that are not UTF-8 (byte 0xff at offset 10): the "
                                "referee decodes them as U+FFFD and plays the move; a stricter runner may "
                                "refuse the line"), f["message"]
        assert f["got"].endswith(" eval \ufffd\ufffd")
    played_on(result)


@pytest.mark.parametrize("separator", ["85", "2028", "2029"])
def test_a_line_separator_in_a_comment_breaks_the_referees_next_read(tmp_path, separator):
    """The referee's Scanner ends a line at U+0085, U+2028 and U+2029: the move before it
    is played, the rest of the comment is left for the referee's next read, and the game
    breaks there, on the next turn (Black moves first: the bot's 2nd move is ply 3)."""
    result = check(tmp_path, "loa", LOA / "separator_in_comment.py", "--seat", "b",
                   "--env", f"SEPARATOR={separator}")
    assert result.code == 1, result.stdout + result.stderr
    [f] = only(result, "malformed", "fail")
    [game] = result.report["games"]
    assert (f["turn"], f["ply"], game["plies"], len(game["moves"])) == (2, 3, 3, 3), (f, game)
    assert (game["result"], game["reason"]) == ("forfeit", "malformed")
    assert f["message"].startswith(f"the answer before held U+{int(separator, 16):04X} ("), f["message"]
    assert ("the referee's own reader ends a line there too, took the text before it as the answer, and "
            "reads the rest, 'depth 3', as its next command: the game breaks on the next turn") in f["message"]


def test_a_lone_cr_inside_a_line_splits_it_in_two(tmp_path):
    """`b1b3\\rjunk\\n` on the 2nd turn: `b1b3` is that turn's answer (a WARN for its \\r
    line end), and `junk`, already waiting, is read as the answer to the next turn."""
    result = check(tmp_path, "loa", LOA / "cr_inside_line.py", "--seat", "b")
    assert result.code == 1, result.stdout + result.stderr
    warn, fail = sorted(result.findings(), key=lambda f: f["turn"])
    [game] = result.report["games"]
    assert (warn["kind"], warn["severity"], warn["turn"]) == ("malformed", "warn", 2)
    assert warn["message"].startswith("the answer line ends with \\r (\\r\\n or a bare \\r)")
    assert warn["got"] == game["moves"][2] + "\\r"  # the move was played
    assert (fail["kind"], fail["severity"], fail["turn"], fail["got"]) == ("malformed", "fail", 3, "junk")
    assert fail["message"].endswith("(a line the bot wrote before this request: the referee reads it as this "
                                    "turn's answer)"), fail["message"]
    assert (game["result"], game["reason"], game["plies"]) == ("forfeit", "malformed", 4)


# -- Halma: LinesCodec ends a line at \n only and removes one \r ------------------------------

def test_halma_ready_with_crlf_is_a_warning(tmp_path):
    result = check(tmp_path, "halma", HALMA / "crlf_ready.py")
    assert result.code == 0, result.stdout + result.stderr
    for f in only(result, "handshake", "warn"):
        assert f["message"] == ("the 'ready' line ends with \\r\\n: the referee removes one \\r before the \\n; "
                                "write a plain \\n line ending")
        assert f["got"] == "ready\\r"
    played_on(result)


@pytest.mark.parametrize("bot,read", [("ready_trailing_space.py", "ready "), ("ready_double_cr.py", "ready\\r")])
def test_halma_refuses_ready_with_a_space_or_a_second_cr(tmp_path, bot, read):
    result = check(tmp_path, "halma", HALMA / bot)
    assert result.code == 1, result.stdout + result.stderr
    fails = result.findings("fail")
    assert len(fails) == 2 and all(f["kind"] == "handshake" for f in fails), result.stdout
    for f in fails:
        assert f["message"] == f"the first line must be exactly 'ready', got '{read}'"
    assert [g["result"] for g in result.report["games"]] == ["forfeit", "forfeit"]


def test_output_after_the_last_move_is_one_verdict_whatever_the_timing(tmp_path):
    """`gg` right after the echo of the bot's winning move (seed 1, a greedy opponent: player
    1 wins), at once (it usually comes before the judge closes the input) or 300 ms later
    (after): always a WARN quoting it, and the win stands, as the real referee stops reading
    at the end."""
    verdicts = []
    for run, delay in enumerate((0, 0, 0, 300)):
        result = check(tmp_path / str(run), "halma", HALMA / "gg_after_win.py", "--seat", "1",
                       "--set", "opponent.style=greedy", "--env", f"GG_DELAY_MS={delay}")
        assert result.code == 0, result.stdout + result.stderr
        [game] = result.report["games"]
        verdicts.append((game["result"], game["reason"], game["plies"],
                         [(f["kind"], f["severity"], f["message"]) for f in result.findings()]))
    assert verdicts == [verdicts[0]] * 4, verdicts
    assert verdicts[0] == ("win", "all pieces home", verdicts[0][2], [
        ("unexpected_output", "warn", "wrote 'gg' after the game ended (the referee reads nothing more: the "
                                      "result stands)")])


# -- the spec states the rules, validated when it is loaded ------------------------------------

@pytest.mark.parametrize("game,override,key,phrase", [
    ("loa", "read.line_end=crlf", "read.line_end", "must be one of lf, cr_lf; got 'crlf'"),
    ("loa", "read.max_bytes=4", "read.max_bytes", "must be at least 8"),
    ("loa", "read.over_max=cut", "read.over_max", "must be one of malformed, timeout"),
    ("loa", "read.decode=latin1", "read.decode", "must be one of strict, replace"),
    ("loa", "read.comment_separator=ab", "read.comment_separator", "one character or none"),
    ("loa", "read.strip_cr=true", "read.strip_cr", 'with read.line_end = "cr_lf" a \\r ends the line'),
    ("loa", "read.between_turns=queue", "read.between_turns", "must be one of out_of_turn, answer"),
    ("loa", 'read.referee_line_ends="\\n"', "read.referee_line_ends", "read.line_end's business"),
    ("impasse", "read.comment_separator=''", "turn.comment_max", "a comment needs read.comment_separator"),
    ("halma", "turn.answer_format=mv {move}", "turn.answer_format",
     "writes the move '1 3 3 5' as 'mv 1 3 3 5', which turn.answer does not read back"),
    ("halma", "turn.answer_format=move", "turn.answer_format", "needs the field {move} exactly once"),
    ("chess", "game.max_line_bytes=100", "game.max_line_bytes", "moved: write read.max_bytes"),
    ("halma", "fuzz.max_plies=220", "fuzz.max_plies",
     "removed: a fuzz game ends at the game's end or turn limit (rules.max_plies), or after fuzz --max-plies N"),
    ("chess", "read.size=3", "read.size", "unknown key"),
])
def test_reading_rules_are_checked_when_the_spec_is_loaded(game, override, key, phrase):
    result = run_cli("moves", "--game", game, "--set", override)
    assert result.code == 2, result.stdout + result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("prototest: error: ") and f".toml: {key}: " in line and phrase in line, line
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", games.names())
def test_each_game_s_spec_states_its_reading_rules(name):
    """The rules come from the file (or its base), not from defaults: each installed
    game's spec says every one of them."""
    from prototest.judge.spec import _read
    data = _read(str(games.game(name).spec))
    stated = set(data["read"])
    assert {"line_end", "max_bytes", "over_max", "decode", "comment_separator", "between_turns"} <= stated
    assert ("strip_cr" in stated) == (data["read"]["line_end"] == "lf")


@pytest.mark.parametrize("shape,severity,message", [
    ("leading", "fail", "' {m}' starts with a space: the referee takes the text before the first one as the move, "
                        "an empty one here; write '{m}'"),
    ("empty_comment", "warn", "the comment after '{m}' is empty ('{m} '): the referee accepts it; a stricter judge "
                              "compares the whole line"),
    ("junk", "fail", "'{m}junk': '{m}junk' is not a move: name 1 to 3 squares with nothing between them, e.g. b6, "
                     "d2f4 or f8g7c5"),
])
def test_impasse_reads_the_move_up_to_the_first_space_and_compares_it_exactly(tmp_path, shape, severity, message):
    """` c7a5` (an empty move) and `c7a5junk` are refused; `c7a5 ` is an empty comment."""
    result = check(tmp_path, "impasse", IMPASSE / "spaces_around_move.py", "--seat", "w", "--env", f"SHAPE={shape}")
    assert result.code == (1 if severity == "fail" else 0), result.stdout + result.stderr
    [f] = only(result, "malformed", severity)
    move = f["got"].strip().removesuffix("junk")
    assert f["turn"] == 1 and f["message"] == message.format(m=move), f["message"]
    [game] = result.report["games"]
    if severity == "warn":
        assert game["result"] in ("win", "loss", "draw") and game["moves"][0] == move
    else:
        assert (game["result"], game["plies"]) == ("forfeit", 0)
