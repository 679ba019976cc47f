"""What `check` and `match` show on a terminal while they run: a header at once, a live line
per game in play (its ply, its last answer time, how long the bot has been thinking; a
match's has both bots' answer times, see prototest.reports.matchview.running_line), a running
score, and each game's line in colour as it ends.

Only on a terminal: when stderr is no terminal (a pipe, a CI log), or NO_COLOR is set, or
TERM is dumb, the commands print the plain lines they always printed (`wanted`).

The games run in forked workers (prototest.play.pool), so what a game is doing is written to
shared memory, `Slots`: a few numbers per game in play, written by the referee as a game
goes (`played`, `asked`, `answered`: one store into a shared array each, no lock, no
rendering), and read by the view's refresh timer in this process. Nothing is drawn on the
path of an exchange.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Any, Callable, Sequence

from ..judge import progress
from ..judge.progress import Running, Slots

def wanted(quiet: bool = False, stream: Any = None) -> bool:
    """Whether to show the live view (and colours) on `stream` (stderr)."""
    stream = sys.stderr if stream is None else stream
    if quiet or os.environ.get("NO_COLOR") or os.environ.get("TERM", "") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def coloured(stream: Any = None) -> bool:
    """Whether text for `stream` (stdout) may be coloured and wrapped for a terminal."""
    return wanted(stream=sys.stdout if stream is None else stream)


# -- colours -----------------------------------------------------------------------------------

#: (pattern, style): the words that carry a verdict, wherever they stand in a line
_STYLES = [
    (re.compile(r"^(?:INTERRUPTED by|ERROR:|FAIL:) .*$"), "bold red"),  # the verdicts
    (re.compile(r"^PASS with warnings: .*$"), "bold yellow"),
    (re.compile(r"^PASS: .*$"), "bold green"),
    (re.compile(r"^\s*(FAIL [\w-]+)"), "red"),
    (re.compile(r"^\s*(WARN [\w-]+)"), "yellow"),
    (re.compile(r": (FAIL|fail) "), "bold red"),
    (re.compile(r": (WARN|warn) "), "yellow"),
    (re.compile(r": (pass|PASS) "), "green"),
    (re.compile(r"\[(fail [^\]]*)\]"), "red"),
    (re.compile(r"\[(warn [^\]]*)\]"), "yellow"),
    (re.compile(r"\b([A-Z] won by [A-Z]'s forfeit: [\w-]+)"), "bold red"),  # a match game's forfeit
    (re.compile(r"^  SPRT \(.*\): (H[01] accepted)"), "bold"),
    (re.compile(r"^\s*hint: "), "bold cyan"),
    (re.compile(r"^prototest: (?:error|internal error|interrupted)\b"), "bold red"),
    (re.compile(r"^prototest: this bot seems to play another game\b"), "bold yellow"),
]
#: a row of the check table: the warn and fail counts coloured when not 0
_ROW = re.compile(r"^  .{40} +\d+ +(\d+) +(\d+)$")


def styled(line: str):
    """One line of plain text as rich Text, its verdict words coloured."""
    from rich.text import Text

    text = Text(line)
    for pattern, style in _STYLES:
        for m in pattern.finditer(line):
            start, end = (m.start(1), m.end(1)) if m.groups() else (m.start(), m.end())
            text.stylize(style, start, end)
    row = _ROW.match(line)
    if row:
        for group, style in ((1, "yellow"), (2, "bold red")):
            if row[group] != "0":
                text.stylize(style, row.start(group), row.end(group))
    return text


def hanging(line: str, width: int):
    """One line as rich Text for a terminal `width` columns wide: coloured (`styled`), broken
    between words, and its continuation lines indented under the line's own text (under a
    detail's value, "    moves:    ..."; else 4 more than its indent), so that a wrapped
    finding or game line still reads as one. A word longer than the room is folded."""
    text = styled(line)
    if len(line) <= width or width < 30:
        return text
    lead = len(line) - len(line.lstrip(" "))
    label = re.match(r" +[a-z]+: +(?=\S)", line)  # "    moves:    ...": under the value
    hang = min(label.end() if label else lead if lead >= 8 else lead + 4, width // 3)
    from rich.text import Text

    out = Text()
    start, room = 0, width
    while True:
        end = start + room
        if end >= len(line):
            out.append_text(text[start:])
            return out
        space = line.rfind(" ", start + 1, end + 1)
        cut = space if space > start else end
        out.append_text(text[start:cut])
        start = cut
        while start < len(line) and line[start] == " ":
            start += 1
        if start >= len(line):
            return out
        out.append("\n" + " " * hang)
        room = width - hang


def emit(out, text: str) -> None:
    """Text printed on a terminal's console, each line `hanging`."""
    for line in text.splitlines() or [""]:
        out.print(hanging(line, out.width), overflow="fold")


def console(stderr: bool):
    """A rich console for the terminal on stderr (or stdout): wraps at its width, at words."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def print_text(text: str, *, stderr: bool = False) -> None:
    """Text printed for a terminal: coloured, each line wrapped at the terminal's width."""
    emit(console(stderr), text)


def fit(line: str, width: int | None = None) -> str:
    """A line rewritten in place (fuzz's progress) cut to the terminal's width at a word,
    so that it never wraps (a wrapped line is not rewritten: it piles up)."""
    if width is None:
        import shutil

        width = shutil.get_terminal_size((80, 24)).columns
    width = max(20, width - 1)
    if len(line) > width:  # the rate goes first: the budget and the state matter more
        line = re.sub(r", [\d.]+ runs/s", "", line)
    if len(line) > width and " examples, " in line:  # then the runs, when the examples are counted
        line = re.sub(r"^fuzz: \d+ runs, ", "fuzz: ", line)
    if len(line) <= width:
        return line
    cut = line.rfind(" ", 0, width - 1)
    return line[:cut if cut > 0 else width - 1] + "…"


def say(line: str) -> None:
    """A progress line on stderr: coloured and wrapped at words on a terminal (`wanted`),
    as it is elsewhere."""
    if wanted():
        emit(console(stderr=True), line)
    else:
        import typer

        typer.echo(line, err=True)


def page_written(path: Any, quiet: bool = False) -> None:
    """On a terminal, where --html's page went (`show --html` says it always): before the
    summary, so that the verdict stays last. Not in a pipe or a CI log: their text stays."""
    if wanted(quiet):
        say(f"page: {path}")


def limits(spec, time_scale: float) -> str:
    """The spec's time limits in words: 'a 10000 ms clock each', 'answers 100 ms'."""
    t = spec.time
    parts = []
    if t.clock_ms:
        parts.append(f"a {t.clock_ms * time_scale:g} ms clock each")
    if t.first_answer_ms:
        parts.append(f"first answer {t.first_answer_ms * time_scale:g} ms")
    if t.answer_ms:
        parts.append(f"answers {t.answer_ms * time_scale:g} ms")
    return ", ".join(parts) or "no time limit"


# -- the view ----------------------------------------------------------------------------------

class View:
    """The live view of a check on stderr: started with its header, told each game's line
    (`finished`) and each note, stopped before the summary."""

    def __init__(self, header: Sequence[str], total: int, seats: Sequence[str], jobs: int,
                 planned: int | None = None, *, game_line: Callable[["Running", float], str] | None = None,
                 score: Callable[[], list[tuple[str, str]]] | None = None) -> None:
        """`game_line` (a game in play and the time now: its live line) and `score` (the
        running score as (text, style) parts) replace check's own (`prototest match`)."""
        from rich.live import Live

        self.console = console(stderr=True)
        self.total = total  # the run's games (a game's number is out of these)
        self.planned = total if planned is None else planned  # the games played here (a shard's)
        self.seats = list(seats)
        self.done = 0
        try:  # the workers, and a game played here after them (a re-check)
            self.slots: Slots | None = Slots(jobs + 2)
        except OSError:  # no shared memory here (no /dev/shm): the score alone
            self.slots = None
        self.counts = {"pass": 0, "warn": 0, "fail": 0, "stop": 0}
        self.game_line = game_line or self._check_line
        self.score = score
        self.started = time.perf_counter()
        for line in header:
            emit(self.console, line)
        self.live = Live(self, console=self.console, refresh_per_second=4, transient=True,
                         redirect_stdout=False, redirect_stderr=False)

    def __enter__(self) -> "View":
        global _view
        progress.board, _view = self.slots, self
        self.live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        global _view
        self.live.stop()
        progress.board, _view = None, None

    def finished(self, line: str, verdict: str) -> None:
        self.done += 1
        key = verdict.strip().lower()
        self.counts[key if key in self.counts else "stop"] += 1
        emit(self.live.console, line)

    def note(self, text: str) -> None:
        emit(self.live.console, text)

    def __rich_console__(self, console, options):
        from rich.text import Text

        now = time.perf_counter()
        width = options.max_width
        for game in (self.slots.running() if self.slots else []):
            yield Text(self.game_line(game, now), style="cyan", no_wrap=True, overflow="ellipsis", end="\n")
        c = self.counts
        done = self.done
        score = Text("  ", no_wrap=True, overflow="ellipsis")
        bar = 20 if width >= 80 else 10 if width >= 50 else 0
        if bar and self.planned:
            filled = round(bar * min(done, self.planned) / self.planned)
            score.append("[" + "#" * filled + "." * (bar - filled) + "] ")
        score.append(f"{done}/{self.planned} game{'' if self.planned == 1 else 's'} done: ")
        if self.score is not None:
            for text, style in self.score():
                score.append(text, style=style)
        else:
            score.append(f"{c['pass']} passed", style="green" if c["pass"] else "")
            score.append(", ")
            score.append(f"{c['warn']} warned", style="yellow" if c["warn"] else "")
            score.append(", ")
            score.append(f"{c['fail']} failed", style="bold red" if c["fail"] else "")
        if c["stop"]:
            score.append(f", {c['stop']} stopped")
        score.append(f" ({now - self.started:.0f} s)")
        yield score

    def _check_line(self, game: "Running", now: float) -> str:
        """check's live line of a game in play: its bot's seat, ply, last answer, thinking."""
        seat = game.seat
        seat_name = self.seats[seat] if 0 <= seat < len(self.seats) else str(seat)
        again = ", re-checking alone" if self.slots is not None and game.index in self.slots.alone_now() else ""
        line = f"  game {game.index:>{len(str(self.total))}}/{self.total} as {seat_name}{again}: ply {game.ply}"
        answer_ms = game.answers[1 if seat == 1 else 0]
        if answer_ms >= 0:
            line += f", last answer {answer_ms:.1f} ms"
        if game.asked_at and game.asked_seat == seat and now - game.asked_at >= 0.5:
            line += f", thinking for {now - game.asked_at:.1f} s"
        return line + f", {now - game.started:.0f} s"


_view: View | None = None


def _drawing_lock():
    """The lock the refresh timer holds while it draws (rich's own, if it has one)."""
    return getattr(_view.live, "_lock", None) if _view is not None else None


def _before_fork() -> None:
    """No fork while the refresh timer draws (a worker must not inherit the lock taken)."""
    lock = _drawing_lock()
    if lock is not None:
        lock.acquire()


def _after_fork() -> None:
    lock = _drawing_lock()
    if lock is not None:
        try:
            lock.release()
        except RuntimeError:
            pass


def _in_child() -> None:
    global _view
    _after_fork()
    _view = None  # a worker never draws; it writes its game's numbers into the slots


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork, after_in_child=_in_child)
