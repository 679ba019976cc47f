"""`prototest replay`: play the judge's side of a fixture against a bot and compare.

The game is rebuilt from the fixture's header (seat, seed, start position and moves)
with the recorded opponent moves forced, so the bot meets the same requests as long as
it gives the same answers. The two dialogues are compared line by line and the first
difference is explained by what differs:

* an answer: the bot answers otherwise now. The recorded answer is then judged again
  by today's judge through a stand-in bot that says what the fixture recorded
  (`scripted_bot.py`): a hand-edited fixture or a rules change shows as the verdict the
  rules give ("'e2e5': no piece of yours on e2"), a changed bot as "still accepted";
* a judge line: the spec, the rules or the fixture changed;
* a verdict (`F`/`W` lines): the bot, or how the judge rates it, changed.

A fixture that recorded a failure (a `prototest fuzz --save` reproducer) is a question
of its own: does the failure come back?
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..judge.findings import TIMING_KINDS  # their messages hold the machine's speed: compared by kind alone
from .fixtures import Fixture, Setup, dialogue
from ..judge.game import Exchange, GameReport
from .forced import ForcedOpponent

STAND_IN = Path(__file__).resolve().with_name("scripted_bot.py")
#: Request lines shown in a difference (CodinGame requests list every legal move).
SHOWN_REQUEST_LINES = 12


@dataclass
class Replayed:
    """One fixture played again: the verdict and what to tell the user."""

    fixture: Fixture
    report: GameReport
    now: list[str]
    #: "pass", "differs", "came back", "fails", "did not come back", "interrupted"
    status: str
    failed: bool
    lines: list[str] = field(default_factory=list)


def replay(fixture: Fixture, setup: Setup, *, exact_lines: bool = False) -> Replayed:
    """Play the fixture's game against `setup`'s bot and judge the difference. Where the
    protocol has comments (read.comment_separator), answers compare by their move and a
    comment that differs is only noted; `exact_lines` compares whole lines. What the
    fixture tells (`Fixture.told`) comes first."""
    replayed = _replay(fixture, setup, exact_lines)
    replayed.lines[:0] = fixture.told
    return replayed


def _replay(fixture: Fixture, setup: Setup, exact_lines: bool) -> Replayed:
    report = setup.play(ForcedOpponent(fixture.header.opponent_moves))
    now = dialogue(report)
    if fixture.numbers is not None:  # from a transcript, whose answers' trailing spaces are its padding's
        now = [line.rstrip(" ") if line.startswith("< ") else line for line in now]
    if report.interrupted is not None:
        return Replayed(fixture, report, now, "interrupted", True)
    recorded = fixture.body
    separator = "" if exact_lines else setup.spec.read.comment_separator
    first = first_difference(recorded, now, separator)
    notes = comment_notes(fixture, now, separator)
    if _first_fail(recorded) is not None:
        return _reproducer(fixture, setup, report, now, first, notes)
    if first is None:
        return Replayed(fixture, report, now, "pass", False, notes)
    lines = explain(fixture, setup, report, now, first)
    fail = _first_fail(now)
    if fail is not None:
        lines.append(f"the bot fails the game now: FAIL {fail[2:]}")
    lines.append(accept(fixture, setup))
    return Replayed(fixture, report, now, "differs", True, lines + notes)


def accept(fixture: Fixture, setup: Setup | None = None) -> str:
    """How to accept a difference that is a deliberate change. A game's transcript is no
    fixture: `record --update` leaves it, and a new run records the game anew. For a
    fixture, `record --update` plays the fixture's own bot (its `# bot:` line): after
    `replay F -- BOT` it would not record BOT's game."""
    if fixture.is_game:
        again = "`check --opponent`" if fixture.kind == "check game" else "the match"
        return (f"a deliberate change? a {fixture.kind}'s transcript stays as the game was played: play {again} "
                f"again for a new record (or record the bot's own games with `prototest record`)")
    update = f"`prototest record --update {shlex.quote(str(fixture.path))}`"
    recorded = list(fixture.header.bot)
    if setup is None or list(setup.argv) == recorded:
        return f"a deliberate change? {update} records the game as it goes now (then review the diff)"
    return (f"a deliberate change? {update} records the game again with the fixture's own bot (its '# bot: "
            f"{shlex.join(recorded)}' line), not with this one: to record this bot's game, put its command "
            f"line in '# bot:' (and its folder in '# cwd:') first, then review the diff")


def first_difference(recorded: Sequence[str], now: Sequence[str], separator: str = "") -> tuple[int, int] | None:
    """Where the first line that differs is, in each dialogue (one may end first), or
    None. With a comment separator, answers compare by their move, and the warnings
    about comments are left out of the comparison."""
    a, b = _compared(recorded, separator), _compared(now, separator)
    for (i, x), (j, y) in zip(a, b):
        if x != y:
            return i, j
    if len(a) == len(b):
        return None
    n = min(len(a), len(b))
    return (a[n][0] if n < len(a) else len(recorded)), (b[n][0] if n < len(b) else len(now))


def _compared(lines: Sequence[str], separator: str) -> list[tuple[int, str]]:
    """(index, what is compared) for each line that takes part in the comparison."""
    out = []
    for i, line in enumerate(lines):
        if separator and _COMMENT_WARNING.match(line):
            continue
        if line.startswith(_BUSY):  # the machine's, not the bot's: no part of the game
            continue
        out.append((i, _comparable(line, separator)))
    return out


#: A busy_machine warning: an answer the machine made late, not blamed on the bot. Whether
#: it comes depends on what else ran then: a replay on a busy machine must not differ by it.
_BUSY = "W busy_machine:"


#: A warning about a comment (its length, its bytes, an empty one): the referee's
#: messages about comments all start so.
_COMMENT_WARNING = re.compile(r"W \w+: the comment ")


def _comparable(line: str, separator: str = "") -> str:
    """A timing finding compares by its kind: its message holds the machine's speed. An
    answer, given a comment separator, by its move."""
    if separator and line.startswith("< "):
        return line.split(separator, 2)[1] if separator == " " else line.split(separator, 1)[0]
    m = re.match(r"([FW]) (\w+): ", line)
    return f"{m[1]} {m[2]}" if m and m[2] in TIMING_KINDS else line


def comment_notes(fixture: Fixture, now: Sequence[str], separator: str) -> list[str]:
    """What differs in comments only, said without failing: how many answers, and the first."""
    if not separator:
        return []
    answers = [(i, line) for i, line in enumerate(fixture.body) if line.startswith("< ")]
    current = [line for line in now if line.startswith("< ")]
    changed = [(i, was, is_) for (i, was), is_ in zip(answers, current)
               if was != is_ and _comparable(was, separator) == _comparable(is_, separator)]
    if not changed:
        return []
    i, was, is_ = changed[0]
    return [f"note: {len(changed)} answer(s) differ from {fixture.recorded} in their comment only (not a failure; "
            f"--exact-lines compares whole lines); the first at line {fixture.line_of(i)}: "
            f"{'recorded' if fixture.is_game else 'fixture'} {was!r}, now {is_!r}"]


def _first_fail(lines: Sequence[str]) -> str | None:
    return next((line for line in lines if line.startswith("F ")), None)


def _kind(line: str) -> str:
    return line[2:].split(":", 1)[0]


def _reproducer(fixture: Fixture, setup: Setup, report: GameReport, now: list[str],
                first: tuple[int, int] | None, notes: list[str]) -> Replayed:
    """A fixture that recorded a failure: does it come back?"""
    recorded_fail, now_fail = _first_fail(fixture.body), _first_fail(now)
    assert recorded_fail is not None
    if now_fail is not None and _kind(now_fail) == _kind(recorded_fail):
        lines = [f"the recorded failure came back: FAIL {now_fail[2:]}"]
        return Replayed(fixture, report, now, "came back", True, lines + notes)
    if now_fail is not None:
        lines = [f"the recorded failure (FAIL {recorded_fail[2:]}) did not come back, "
                 f"but the bot now fails otherwise: FAIL {now_fail[2:]}"]
        if first is not None:
            lines += explain(fixture, setup, report, now, first)
        return Replayed(fixture, report, now, "fails", True, lines + notes)
    passes = f"the recorded failure did not come back (FAIL {recorded_fail[2:]}): the bot passes this game now"
    if fixture.is_game:  # a game's transcript: record --update leaves it (see accept)
        lines = [passes]
    elif list(setup.argv) == list(fixture.header.bot):
        lines = [f"{passes}; `prototest record --update {shlex.quote(str(fixture.path))}` records it as it goes now"]
    else:
        lines = [passes, accept(fixture, setup)]
    if first is not None:
        lines += explain(fixture, setup, report, now, first)
    return Replayed(fixture, report, now, "did not come back", False, lines + notes)


# -- explaining a difference ---------------------------------------------------------------

def explain(fixture: Fixture, setup: Setup, report: GameReport, now: list[str], at: tuple[int, int]) -> list[str]:
    """`at`: the first difference, its index in the fixture's dialogue and in today's."""
    recorded = fixture.body
    i, j = at
    was = recorded[i] if i < len(recorded) else None
    is_ = now[j] if j < len(now) else None
    turn, exchange = exchange_at(report, now, j)
    where = f"line {fixture.line_of(i)}"
    if exchange is not None:
        where += f" (the bot's turn {turn}, ply {exchange.ply})"
    lines = [f"first difference at {where}"]
    if exchange is not None and (_is(was, "<") or _is(is_, "<") or _is(is_, ">")):
        lines.append(f"request: {_request(exchange.sent)}")
    label = "record: " if fixture.is_game else "fixture:"
    lines.append(f"{label} {was if was is not None else f'({fixture.recorded} ends here)'}")
    lines.append(f"now:     {is_ if is_ is not None else '(the game now ends here)'}")
    lines.append(_why(fixture, setup, was, is_, i, turn))
    return lines


def _is(line: str | None, mark: str) -> bool:
    return line is not None and line.startswith(mark + " ")


def _why(fixture: Fixture, setup: Setup, was: str | None, is_: str | None, i: int, turn: int | None) -> str:
    its = "the recorded" if fixture.is_game else "the fixture's"
    edited = f"{fixture.kind}'s transcript" if fixture.is_game else "fixture"
    when = f"the {fixture.kind} was played" if fixture.is_game else "the fixture was recorded"
    if _is(was, "<") and _is(is_, "<"):
        answer, now = _quoted(was[2:]), _quoted(is_[2:])  # type: ignore[index]
        if turn is None:
            return f"the bot wrote {now} where {fixture.recorded} has {answer}"
        verdict = judge_recorded(fixture, setup, i, turn)
        if verdict.startswith("FAIL "):
            return (f"{its} answer {answer} is refused by the judge now: {verdict} "
                    f"(a {edited} edited by hand, or a change in the rules or the spec)")
        return (f"the bot answers {now} now; {its} answer {answer} is still accepted by the judge"
                + (f" ({verdict})" if verdict else "") + f": the bot answers otherwise than when {when}")
    if _is(was, ">") and _is(is_, ">"):
        return (f"the judge now sends another line: the spec, the rules or the judge changed since {when} "
                f"(or the {edited} was edited)")
    if (is_ or "").startswith("# game stopped") and "not legal here" in (is_ or ""):
        return "the recorded opponent move is not legal in the game as it goes now"
    if any((line or "")[:2] in ("F ", "W ") for line in (was, is_)):
        return "the verdict differs from the recorded one"
    return "the game goes otherwise than the recorded one"


def _quoted(shown: str) -> str:
    """A dialogue text in quotes (its control characters are already escaped)."""
    return f"'{shown}'"


def exchange_at(report: GameReport, lines: Sequence[str], i: int) -> tuple[int | None, Exchange | None]:
    """The bot's turn (1-based) and the exchange a dialogue line belongs to: for a judge
    line, the request it is part of; for any other, the last request sent before it."""
    sent_before = sum(1 for line in lines[:i] if line.startswith("> "))
    sending = i < len(lines) and lines[i].startswith("> ")
    total, found = 0, (None, None)
    for number, exchange in enumerate(report.exchanges, 1):
        total += len(exchange.sent)
        if sending and total > sent_before:
            return number, exchange
        if not sending and total <= sent_before:
            found = (number, exchange)
    return found  # type: ignore[return-value]


def _request(sent: Sequence[str]) -> str:
    shown = list(sent[-SHOWN_REQUEST_LINES:])
    more = f"({len(sent) - len(shown)} lines before) " if len(sent) > len(shown) else ""
    return more + " | ".join(shown) if shown else "(nothing)"


# -- the recorded answer, judged again -----------------------------------------------------

def judge_recorded(fixture: Fixture, setup: Setup, i: int, turn: int) -> str:
    """The verdict today's judge gives the fixture's own answer at dialogue line `i` (the
    bot's turn `turn`): "FAIL kind: message", "WARN kind: message" (accepted with a
    warning) or "" (accepted). A stand-in bot answers as the fixture recorded, up to that
    answer; the judge stops after it."""
    steps = stand_in_steps(fixture.body[:i + 1])
    with tempfile.TemporaryDirectory(prefix="prototest-replay-") as folder:
        path = Path(folder) / "steps.json"
        path.write_text(json.dumps(steps), encoding="utf-8")
        stand_in = dataclasses.replace(
            setup, argv=[sys.executable, str(STAND_IN), str(path)], cwd=None,
            max_turns=min(turn, setup.max_turns or turn),
            start_delay_ms=setup.start_delay_ms if steps and steps[0][0] == 0 else 0)
        report = stand_in.play(ForcedOpponent(fixture.header.opponent_moves))
    judged = [f for f in report.findings if f.kind not in TIMING_KINDS
              and turn in {f.turn, *(o["turn"] for o in f.occurrences)}]  # folded repeats too
    found = next((f for f in judged if f.severity == "fail"), None) or next(iter(judged), None)
    return f"{found.severity.upper()} {found.kind}: {found.message}" if found else ""


def stand_in_steps(lines: Sequence[str]) -> list[list]:
    """The bot side of a dialogue as steps: [lines to read, [lines to write]]."""
    steps: list[list] = []
    reads, writes = 0, []
    for line in lines:
        if line.startswith("> "):
            if writes:
                steps.append([reads, writes])
                reads, writes = 0, []
            reads += 1
        elif line.startswith("< "):
            writes.extend(unshow(line[2:]).split("\n"))
    steps.append([reads, writes])
    return steps


_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[rnt])")


def unshow(text: str) -> str:
    """Undo `transcript.show`: the control characters it wrote as escapes."""
    return _ESCAPE.sub(lambda m: {"r": "\r", "n": "\n", "t": "\t"}.get(m[1]) or chr(int(m[1][1:], 16)), text)
