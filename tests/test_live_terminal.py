"""`check` on a terminal (issue 24, item 1): a pseudo-terminal, as a person sees it.

A header before the first game ends, a live line per game in play, colours on FAIL and
PASS, lines wrapped at the terminal's width between words, the findings before the
check table and the verdict last; with NO_COLOR, the plain lines of a pipe.
"""

from __future__ import annotations

import re
import shlex
import sys

import pytest

from conftest import BOTS, RUN_TOKEN, bot_env

pexpect = pytest.importorskip("pexpect")

#: A chess bot that thinks half a second a move: with a 2 s clock (time scale 0.2) it
#: plays a few moves, a live line shows its ply, and it loses on time (a FAIL).
SLOW = str(BOTS / "chess" / "thinks_half_a_second.py")
PY = shlex.quote(sys.executable)  # in a command line given as one string
CORRECT = [sys.executable, "-m", "prototest.bots.chess_bot"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RED, GREEN = "\x1b[1;31m", "\x1b[32m"
WIDTH = 60


def in_terminal(tmp_path, *args: str, no_color: bool = False, width: int = WIDTH) -> tuple[int, list[str]]:
    """`prototest ARGS` in a pseudo-terminal `width` columns wide: its exit status and
    what it wrote, in the order it came (stdout and stderr are both the terminal)."""
    env = bot_env()
    env.pop("NO_COLOR", None)
    env["TERM"] = "dumb" if no_color == "dumb" else "xterm-256color"
    if no_color is True:
        env["NO_COLOR"] = "1"
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    child = pexpect.spawn(sys.executable, ["-m", "prototest", *args[:1], "--env", RUN_TOKEN, *args[1:]],
                          env=env, cwd=str(tmp_path), dimensions=(40, width), encoding="utf-8",
                          codec_errors="replace", timeout=120)
    chunks = []
    while True:
        try:
            chunks.append(child.read_nonblocking(1 << 16, timeout=120))
        except pexpect.EOF:
            break
    child.close()
    return child.exitstatus, chunks


def screen_lines(text: str) -> list[str]:
    """The lines a terminal keeps once the live view is gone: a small terminal that knows
    what rich writes (carriage return, new line, cursor up, erase the line; colours dropped)."""
    lines, row, col = [""], 0, 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|\r|\n|[^\x1b\r\n]+", text):
        if token == "\r":
            col = 0
        elif token == "\n":
            row += 1
            col = 0
            if row == len(lines):
                lines.append("")
        elif token.startswith("\x1b["):
            if token.endswith("A"):
                row = max(0, row - int(token[2:-1] or 1))
            elif token == "\x1b[2K":
                lines[row] = ""
        else:
            line = lines[row].ljust(col)
            lines[row] = line[:col] + token + line[col + len(token):]
            col += len(token)
    return lines


def test_the_live_view_shows_a_header_at_once_the_game_in_play_and_colours(tmp_path):
    code, chunks = in_terminal(tmp_path, "check", "--games", "1", "--seat", "white", "--time-scale", "0.2",
                               "--start-delay", "100", "--transcripts", "t", SLOW)
    out = "".join(chunks)
    assert code == 1, out
    plain = ANSI.sub("", out)
    header = plain.index("prototest check: Chess judge")
    in_play = re.search(r"game 1/1 as white: ply \d+", plain)
    ended = plain.index("game 1/1 as white: FAIL")
    assert in_play and header < in_play.start() < ended, plain  # the header first, then the game as it goes
    assert "time: a 2000 ms clock each" in " ".join(plain[header:in_play.start()].split()), plain
    assert f"{RED}FAIL\x1b[0m" in out  # the game's line
    assert "1 game as white, seed 1, 1 at once" in " ".join(plain[header:in_play.start()].split()), plain
    assert re.search(r"\x1b\[1;31mFAIL: 1 of 1 game failed", out), out  # the verdict
    assert "1 game, seed 1" in " ".join(plain.split()) and "1 games" not in " ".join(plain.split())
    lines = [line for line in screen_lines(out) if line.strip()]
    assert lines[-1].startswith("FAIL: 1 of 1 game failed"), lines[-3:]
    table = next(i for i, line in enumerate(lines) if line.startswith("  check "))
    finding = next(i for i, line in enumerate(lines) if line.startswith("FAIL timeout (game 1"))
    assert finding < table, lines  # the findings above the check table, the verdict under it


def test_a_passing_game_is_green(tmp_path):
    code, chunks = in_terminal(tmp_path, "check", "--games", "1", "--start-delay", "0",
                               "--set", "severity.file_operation=ignore", "--set", "severity.runtime_cache=ignore",
                               "--transcripts", "t", "--html", "page.html", "--", *CORRECT)
    out = "".join(chunks)
    assert code == 0, out
    assert f"{GREEN}pass\x1b[0m" in out and re.search(r"\x1b\[1;32mPASS: 1 game", out), out
    # where --html's page went, said on a terminal before the summary (the verdict stays last)
    lines = [line for line in screen_lines(out) if line.strip()]
    page = lines.index("page: page.html")
    assert page < next(i for i, line in enumerate(lines) if line.startswith("  check ")), lines
    assert (tmp_path / "page.html").is_file() and lines[-1].startswith("PASS: 1 game")


def test_lines_wrap_between_words_at_the_terminals_width(tmp_path):
    """Every word of the terminal's lines is a word of the same run on a terminal wide
    enough for every line: none is cut in two (`p` / `awn move`). Figures (times) differ
    between runs and are left out."""
    # a long clock: no answer late by the machine, whose busy_machine warning would add words to one run only
    args = ("check", "--games", "1", "--seat", "white", "--start-delay", "0", "--time-scale", "10",
            "--set", "severity.file_operation=ignore",
            "--transcripts", "t", str(BOTS / "chess" / "illegal_move.py"))  # the same words in every run
    _, chunks = in_terminal(tmp_path, *args)
    _, wide = in_terminal(tmp_path, *args, width=400)
    words = set(ANSI.sub("", "".join(wide)).split())
    lines = screen_lines("".join(chunks))
    assert max(len(line) for line in lines) <= WIDTH
    wrapped = [line for line in lines if len(line) > WIDTH - 12]
    assert wrapped, lines  # the long lines were wrapped, not cut
    # an answer's time says what the machine kept from it in one run only: its words are the
    # machine's, so the evidence's `time:` paragraph is left out of the comparison
    kept, in_time = [], False
    for line in lines:
        in_time = line.strip().startswith("time:") or (in_time and line.startswith(" " * 14) and ":" not in line[:20])
        if not in_time:
            kept.append(line)
    cut = [(line, word) for line in kept for word in line.split()
           if word not in words and not re.search(r"\d", word) and "…" not in word]
    assert cut == [], cut


@pytest.mark.parametrize("no_color", [True, "dumb"])
def test_no_color_or_a_dumb_terminal_gives_the_plain_lines(tmp_path, no_color):
    code, chunks = in_terminal(tmp_path, "check", "--games", "1", "--seat", "white", "--time-scale", "0.2",
                               "--start-delay", "100", "--transcripts", "t", SLOW, no_color=no_color)
    out = "".join(chunks)
    assert code == 1
    assert "\x1b" not in out, out
    lines = [line for line in out.replace("\r\n", "\n").split("\n") if line]
    assert lines[0].startswith("game 1/1 as white: FAIL"), lines  # no header, no live line: as through a pipe
    assert lines[1].startswith("prototest check: Chess judge")


def test_fuzz_rewrites_one_line_in_place_with_the_budget_and_the_examples(tmp_path):
    """Fuzz's progress line names the examples and the time of the budget, and fits the
    terminal (a line that wrapped would pile up instead of being rewritten)."""
    # 64 columns: the last line, "... 11 s of 30 s (ended)" when a loaded machine takes 10 s
    # or more, is 60 characters: at 60 columns prototest rightly cuts it ("30 s…")
    width = 64
    code, chunks = in_terminal(tmp_path, "fuzz", "--game", "chess", "--examples", "3", "--budget", "30s", "--jobs", "1",
                               "--no-database", "--", *CORRECT, width=width)
    out = "".join(chunks)
    assert code == 0, out
    states = [ANSI.sub("", part) for part in re.split(r"[\r\n]+", out) if part.startswith("fuzz: ")]
    assert states and all(len(state) < width for state in states), states
    # all 3 examples, or as many as a loaded machine played before the 30 s ran out
    assert re.fullmatch(r"fuzz: [123] of 3 examples, 0 failing kinds, \d+ s of 30 s \(ended\)", states[-1]), states


def test_games_played_in_workers_show_their_plies_live(tmp_path):
    """With --jobs 2 the games are played in forked workers: each writes its ply and answer
    time to shared memory, and the view in prototest shows both games as they go."""
    code, chunks = in_terminal(tmp_path, "check", "--games", "2", "--jobs", "2", "--time-scale", "0.2",
                               "--start-delay", "100", "--transcripts", "t", SLOW, width=120)
    plain = ANSI.sub("", "".join(chunks))
    assert code == 1, plain
    assert "2 games as white and black in turn, seed 1, 2 at once" in plain, plain
    for game in ("game 1/2 as white", "game 2/2 as black"):
        live = re.search(game + r": ply \d+, last answer \d+\.\d ms", plain)
        assert live and live.start() < plain.index(game + ": FAIL"), plain
    assert re.search(r"2/2 games done: 0 passed, 0 warned, 2 failed", plain), plain
    # game 1's timeout came beside game 2: it is played again alone, and its line says so
    # while it runs (the screen looked stuck at "0/2 games done" for a whole clock)
    again = re.search(r"game 1/2 as white, re-checking alone: ply \d+", plain)
    assert again and again.start() < plain.index("game 1/2 as white: FAIL"), plain


def test_an_error_line_wraps_between_words_in_red(tmp_path):
    code, chunks = in_terminal(tmp_path, "check", "--game", "impase", "--", "true", width=40)
    out = "".join(chunks)
    assert code == 2 and "\x1b[1;31mprototest: error\x1b[0m" in out, out
    lines = [line for line in screen_lines(out) if line]
    assert len(lines) > 2 and max(len(line) for line in lines) <= 40, lines
    assert all(line.startswith("    ") for line in lines[1:]), lines  # continued under the line's text
    text = " ".join(" ".join(lines).split())
    assert text.startswith("prototest: error: unknown game 'impase': did you mean impasse? (known: "), text
    _, plain = in_terminal(tmp_path, "check", "--game", "impase", "--", "true", no_color=True)
    assert "".join(plain).split() == text.split()  # the same words: none cut in two


# -- prototest match on a terminal --------------------------------------------------------------

def test_match_shows_its_header_the_games_in_play_and_a_running_score(tmp_path):
    """A match of a slow bot (A, it loses on time) against the bundled one (B): the header
    (the bots, the games, the seed, the openings, the SPRT's bounds) before any game line,
    each game in play with both bots' last answer times, the running score, B's wins by A's
    forfeit in red, and the verdict last."""
    code, chunks = in_terminal(tmp_path, "match", f"{PY} -B {shlex.quote(str(SLOW))}", f"{PY} -B -m prototest.bots.chess_bot",
                               "--game", "chess", "--games", "2", "--jobs", "2", "--time-scale", "0.2",
                               "--start-delay", "100", "--sprt", "elo0=0 elo1=10", "--transcripts", "t", width=120)
    out = "".join(chunks)
    plain = ANSI.sub("", out)
    assert code == 1, plain
    words = " ".join(plain.split())
    header = plain.index("prototest match: Chess judge")
    first_line = re.search(r"game 1/2 \(A white, B black\): ", plain)
    assert first_line and header < first_line.start(), plain
    before = " ".join(plain[header:first_line.start()].split())
    for phrase in ("A: ", "thinks_half_a_second.py", "B: ", "prototest.bots.chess_bot", "2 games, seed 1, 2 at once",
                   "time: a 2000 ms clock each", "openings of 4 random plies, each played twice, the seats swapped",
                   "SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05 (normalized model)"):
        assert phrase in before, (phrase, before)
    for game in (r"game 1/2 \(A white, B black\)", r"game 2/2 \(A black, B white\)"):
        in_play = re.search(game + r": ply \d+, A (?:-|\d+\.\d ms), B \d+\.\d ms", plain)
        ended = re.search(game + r": B won by A's forfeit: timeout", plain)
        assert in_play and ended and in_play.start() < ended.start(), plain
    assert re.search(r"\[#+\.*\] 1/2 games done: A 0 W, 0 D, 1 L, A-B 0-1", plain), plain
    assert "\x1b[1;31mB won by A's forfeit: timeout\x1b[0m" in out, out
    assert re.search(r"\x1b\[1;31mFAIL: A failed a check; A 0 - B 2", out), out
    assert "seats" in words and "A white, B black" in words
    lines = [line for line in screen_lines(out) if line.strip()]
    assert lines[-1].startswith("FAIL: A failed a check; A 0 - B 2"), lines[-3:]
    assert not any("games done" in line or ": ply " in line for line in lines), lines  # the live lines are gone


def test_match_with_no_color_prints_the_plain_lines(tmp_path):
    code, chunks = in_terminal(tmp_path, "match", f"{PY} -B -m prototest.bots.impasse_bot",
                               f"{PY} -B -m prototest.bots.impasse_bot", "--game", "impasse", "--games", "2",
                               "--jobs", "1", "--transcripts", "t", no_color=True, width=120)
    out = "".join(chunks)
    assert code == 0, out
    assert "\x1b" not in out, out
    lines = [line for line in out.replace("\r\n", "\n").split("\n") if line]
    assert re.match(r"game 1/2 \(A white, B black\): A won .*, \d+ plies   score A-B 1-0$", lines[0]), lines
    assert re.match(r"game 2/2 \(A black, B white\): ", lines[1]), lines
    assert lines[2].startswith("prototest match: Impasse"), lines  # no header, no live line: as through a pipe
    assert any(re.match(r"  +1 +1  A white, B black +\d+  A won", line) for line in lines), lines


def test_check_with_an_opponent_bot_shows_the_checked_bots_answer_times(tmp_path):
    """The opponent bot answers in its own referee seat: the live line's answer time is the
    checked bot's (which sleeps half a second a move), never the opponent's; the header
    names the opponent."""
    code, chunks = in_terminal(tmp_path, "check", "--games", "1", "--seat", "white", "--time-scale", "0.2",
                               "--start-delay", "100", "--transcripts", "t", "--opponent",
                               f"{PY} -B -m prototest.bots.chess_bot", "--", sys.executable, SLOW,
                               width=160)
    plain = ANSI.sub("", "".join(chunks))
    assert code == 1, plain
    assert "opponent: " in plain and "(a bot in the other seat; only the bot is judged)" in plain, plain
    times = [float(t) for t in re.findall(r"game 1/1 as white: ply \d+, last answer (\d+\.\d) ms", plain)]
    assert times and min(times) >= 500, times  # time.sleep(0.5): never less


def test_a_merge_on_a_terminal_ends_with_the_check_table_as_check_does(tmp_path):
    """The merged report of check shards, on a terminal: the findings first, then the check
    table and the verdict, where the eye lands (as `check` prints them there)."""
    from conftest import run_cli

    bot = str(BOTS / "chess" / "crash_third_turn.py")
    for shard in (1, 2):
        run_cli("check", "--game", "chess", "--games", "2", "--shard", f"{shard}/2", "--json",
                str(tmp_path / f"s{shard}.json"), "--transcripts", str(tmp_path / "t"), "--", sys.executable, bot,
                tmp_path=tmp_path)
    env = {key: value for key, value in bot_env().items() if key not in ("NO_COLOR", "COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    child = pexpect.spawn(sys.executable, ["-m", "prototest", "merge", "s1.json", "s2.json"], env=env,
                          cwd=str(tmp_path), dimensions=(40, 120), encoding="utf-8", timeout=60)
    out = child.read()
    child.close()
    assert child.exitstatus == 1, out
    lines = [line for line in screen_lines(out) if line.strip()]
    table = next(i for i, line in enumerate(lines) if line.startswith("  check "))
    finding = next(i for i, line in enumerate(lines) if line.startswith("FAIL crash (game 1"))
    assert finding < table and lines[-1].startswith("FAIL: 2 of 2 games failed"), lines


def test_the_docs_screenshots_of_the_live_view(tmp_path):
    """A real check of a broken bot on a terminal 100 columns wide (tests/screenshots.py):
    pyte emulates the terminal, and two pictures of its screen are saved, one while games
    are in play (a game's live line, the running score, a FAIL already in red) and one at
    the end (the check table, the verdict last). No path of this machine shows.
    PROTOTEST_DOCS_SCREENSHOTS=docs/img saves them there."""
    from screenshots import DOCS_COMMAND, ROOT, Terminal, bot_folder, folder_for_screenshots

    work = bot_folder(tmp_path)
    columns, rows = 100, 40
    code, chunks = in_terminal(work, "check", "--game", "chess", "--", *DOCS_COMMAND, width=columns)
    out = "".join(chunks)
    assert code == 1, out
    assert str(tmp_path) not in out and str(ROOT) not in out
    terminal, live, fallback = Terminal(columns, rows), None, None
    for n, chunk in enumerate(chunks):
        terminal.feed(chunk)
        screen = "\n".join(terminal.text())
        if "games done" in screen and "FAIL" in screen and re.search(r"^  game +\d+/24 as \w+: ply", screen, re.M):
            fallback = n
            if re.search(r"^  game +\d+/24 as \w+: ply [1-9]", screen, re.M):
                live = n  # a game in play that has moved: the latest such screen
    live = fallback if live is None else live
    assert live is not None, out
    folder = folder_for_screenshots(tmp_path)
    during = Terminal(columns, rows)
    for chunk in chunks[:live + 1]:
        during.feed(chunk)
    during.png(folder / "terminal-live.png")
    assert during.text()[0].startswith("prototest check: Chess judge, bot python3 -B bot.py")
    terminal.png(folder / "terminal-end.png")
    lines = [line for line in terminal.text() if line]
    assert any(line.startswith("FAIL: ") for line in lines[-3:]), lines  # the verdict last (it may wrap)
    assert any(line.split()[:3] == ["check", "pass", "warn"] for line in lines), lines
