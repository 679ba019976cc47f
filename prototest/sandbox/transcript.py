"""Transcripts: one plain-text, diffable file per game, one event a line.

Shaped after cutechess's debug log: a time offset in seconds from the bot's start, a
direction mark, and the text exactly as it crossed the pipe (control characters shown
escaped, so `\\r` stays visible).

    0.001 #  start pid 4242: ./mybot
    1.002 >  white
    1.031 <  e2e4                                  [28.9 ms]
    1.031 !  debug: thinking took 12 ms
    9.400 #  FAIL illegal_move turn 12: ...

Marks: `>` judge to bot (stdin), `<` bot to judge (stdout), `!` bot's stderr,
`#` the judge's notes, `F` / `W` findings.

A game's transcript ends with one `# board: {...}` line (JSON on one line): the rules
and the start position, every move played and where in the events each one was played,
the moves the judge refused, and the time limits, so that `prototest show` and the HTML
pages (prototest.reports.gameview) rebuild every ply's position from the file alone.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Total stderr bytes a transcript keeps; the rest is counted, not stored.
STDERR_KEEP_BYTES = 256 * 1024


#: The line that holds the game's moves for a viewer (see the module's docstring).
BOARD_PREFIX = "# board: "


def show(text: str) -> str:
    """Make control characters visible without changing printable text."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@dataclass
class Transcript:
    header: list[str] = field(default_factory=list)
    events: list[tuple[int, str, str]] = field(default_factory=list)
    t0: int = field(default_factory=time.perf_counter_ns)
    stderr_bytes: int = 0
    stderr_dropped: int = 0
    #: event index -> the event's text without what changes from run to run: a sent
    #: line with its clock values masked, an answer without its time (see `dialogue`)
    plain: dict[int, str] = field(default_factory=dict)
    #: Put before the text of every line written through this transcript: a seat's view
    #: (`seat`), whose lines stay told apart from the bot's in the one transcript.
    prefix: str = ""
    #: The transcript a seat's view writes to (its stderr counted there), or None.
    root: "Transcript | None" = field(default=None, repr=False, compare=False)

    def seat(self, prefix: str) -> "Transcript":
        """A view of this transcript for the bot in the other seat (prototest.judge.seat): its
        lines, header lines and stderr go to this one, each line prefixed."""
        return Transcript(header=self.header, events=self.events, t0=self.t0, plain=self.plain,
                          prefix=prefix, root=self)

    def head(self, lines: list[str]) -> None:
        """Add lines to the header (the bot's command, seat, seed), prefixed as the view's."""
        self.header.extend(self.prefix + line for line in lines)
    #: The game's moves for a viewer (see the module's docstring; filled by the referee):
    #: rules, start, moves, at (the event count when each move was played), refused,
    #: given (how many of the moves were played before the game: check --moves).
    board: dict | None = None

    def add(self, mark: str, text: str, t_ns: int | None = None) -> None:
        t = time.perf_counter_ns() if t_ns is None else t_ns
        self.events.append((t - self.t0, mark, self.prefix + text))

    def sent(self, text: str, t_ns: int) -> None:
        self.events.append((t_ns - self.t0, ">", self.prefix + text))

    def received(self, text: str, t_ns: int, elapsed_ns: int | None = None) -> None:
        text = show(self.prefix + text)
        if elapsed_ns is not None:
            self.plain[len(self.events)] = text
            text = f"{text:<40} [{elapsed_ns / 1e6:.1f} ms]"
        self.events.append((t_ns - self.t0, "<", text))

    def stderr(self, text: str, t_ns: int) -> None:
        counts = self.root or self  # one budget for the whole transcript
        counts.stderr_bytes += len(self.prefix) + len(text) + 1
        if counts.stderr_bytes > STDERR_KEEP_BYTES:
            counts.stderr_dropped += len(self.prefix) + len(text) + 1
            return
        self.events.append((t_ns - self.t0, "!", show(self.prefix + text)))

    def note(self, text: str) -> None:
        self.add("#", text)

    def mask_sent(self, masked: list[str]) -> None:
        """The last len(masked) events are sent lines: keep their masked text (clock
        values as `<time>`) for `dialogue`, so that recorded fixtures compare across runs."""
        start = len(self.events) - len(masked)
        for offset, text in enumerate(masked):
            self.plain[start + offset] = self.prefix + text

    def played(self, move: str) -> None:
        """A move was played now: the events so far belong to the plies before it."""
        if self.board is not None:
            self.board["moves"].append(move)
            self.board["at"].append(len(self.events))

    def refused(self, move: str) -> None:
        """The judge refused this move of the bot where the game is now (of the bot in the
        other seat, for its view: the game's board is the whole transcript's)."""
        board = (self.root or self).board
        if board is not None:
            board["refused"].append([len(board["moves"]), move])

    def dialogue(self) -> list[tuple[str, str]]:
        """Every event as (mark, text), with the masked or untimed text where kept."""
        return [(mark, self.plain.get(i, text)) for i, (_, mark, text) in enumerate(self.events)]

    def render(self) -> str:
        lines = [f"# {h}" for h in self.header]
        for t, mark, text in self.events:
            lines.append(f"{t / 1e9:9.3f} {mark}  {text}")
        if self.stderr_dropped:
            lines.append(f"# {self.stderr_dropped} more bytes of stderr were not kept")
        if self.board is not None:
            lines.append(f"{BOARD_PREFIX}{json.dumps(self.board, separators=(',', ':'), default=str)}")
        return "\n".join(lines) + "\n"

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.render(), encoding="utf-8")
        return path
