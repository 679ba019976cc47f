"""What the referee makes of one answer line: the text its reader sees (decoding, line
ends, characters its own reader ends a line at), the grammar and the whitespace and
comments around the move, the move's legality as the real referee judges it (prefix
matching, a `random` keyword), the rules module's warnings, and the answer's time.

A mixin of `prototest.judge.referee.Referee`: it works on the referee's state and makes its
findings through the referee's helpers (declared below for type checkers).
"""

from __future__ import annotations

import random
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from . import answertime
from ..sandbox import process
from .findings import Finding, show_moves
from .game import Forfeit
from ..games.base import IllegalMove, Judged, Position
from .spec import Spec
from ..sandbox.transcript import show

_MS = 1_000_000
#: Whitespace as a referee that splits on it sees it (Rust's split_ascii_whitespace).
_WHITESPACE = re.compile(r"[ \t\n\x0c\r]+")
_CHAR_NAMES = {" ": "space", "\t": "tab", ";": "semicolon", ",": "comma"}


class Judging:
    """The judging of an answer line, from the line read to the move the referee plays for it."""

    spec: Spec
    position: Position
    bot_turns: int
    rng: random.Random
    _broken_read: tuple[str, str] | None
    _written_before: bool

    if TYPE_CHECKING:  # the referee's helpers
        def _scaled(self, ms: float) -> int: ...
        def _finding(self, kind: str, severity: str, message: str, **evidence: Any) -> Finding: ...
        def _note(self, finding: Finding) -> None: ...
        def _warn(self, key: str, kind: str, message: str, *, rule: str = "", **evidence: Any) -> None: ...

        answer_used: Any  # what the answer used (prototest.judge.accounting)

    def _judged_answer(self, r: process.Read, raw: str, elapsed_ns: int, limit_ns: int) -> Judged:
        """Judge one answer line: the move the referee plays for it (its warnings noted),
        a Forfeit for a line it cannot read, IllegalMove when it would refuse the move."""
        turn = self.spec.turn
        text = self._referee_cut(self._text_of(r, raw, "malformed", "the answer line"), raw)
        move, comment = self._parse(text, raw, elapsed_ns)
        if comment is not None and turn.comment_max and len(comment) > turn.comment_max:
            shown = repr(comment) if len(comment) <= 40 else f"{comment[:40]!r}..."
            self._warn("comment_too_long", "malformed",
                       f"the comment {shown} is {len(comment)} characters; the referee keeps {turn.comment_max}",
                       got=show(raw))
        if turn.random_keyword and move == turn.random_keyword:
            self._warn("random", "random_move",
                       f"answered {move!r}: the referee plays a random move for the bot",
                       got=show(raw))
            legal = self.position.legal_moves()
            move = legal[self.rng.randrange(len(legal))]
        judged = self._judge(move, raw)
        for warning in judged.warnings:
            self._warn_rule(warning, raw)
        self._timing(elapsed_ns, limit_ns)
        return judged

    def _text_of(self, r: process.Read, raw: str, kind: str, what: str, **evidence: Any) -> str:
        """The line as the referee reads it: decoded (read.decode) and without its line end
        (read.line_end, read.strip_cr); a \\r taken as part of the line end is a warning."""
        cr_end = r.end[:1] == b"\r"
        text = raw[:-1] if cr_end else raw  # decoded with replacement: valid UTF-8 has no U+FFFD then
        if "\ufffd" in text:
            try:
                r.data.decode("utf-8")
            except UnicodeDecodeError as exc:
                self._invalid_utf8(r.data, exc.start, raw, kind, what, **evidence)
        if cr_end:
            self._warn("crlf", kind, f"{what} ends with \\r (\\r\\n or a bare \\r): the referee ends a "
                       f"line there too; write a plain \\n line ending", got=show(raw), **evidence)
        elif self.spec.read.strip_cr and text[-1:] == "\r":
            text = text[:-1]
            self._warn("crlf", kind, f"{what} ends with \\r\\n: the referee removes one \\r before the "
                       f"\\n; write a plain \\n line ending", got=show(raw), **evidence)
        return text

    def _invalid_utf8(self, data: bytes, start: int, raw: str, kind: str, what: str, **evidence: Any) -> None:
        bad = f"byte 0x{data[start]:02x} at offset {start}"
        sep = self.spec.read.comment_separator.encode()
        in_comment = bool(sep) and 0 <= data.find(sep) < start
        if self.spec.read.decode == "strict":
            raise Forfeit(self._finding(kind, "fail", f"{what} is not valid UTF-8 text ({bad}): the referee refuses it",
                                        got=show(raw), **evidence))
        where = "the comment" if in_comment else what
        self._warn("invalid_utf8", kind,
                   f"{where} holds bytes that are not UTF-8 ({bad}): the referee decodes them as U+FFFD"
                   + (" and plays the move" if in_comment else "")
                   + "; a stricter runner may refuse the line", got=show(raw), **evidence)

    def _referee_cut(self, text: str, raw: str) -> str:
        """The referee's own reader also ends a line at read.referee_line_ends: it takes
        the text before the first one as the answer and leaves the rest for its next read."""
        ends = self.spec.read.referee_line_ends
        if not ends or not any(c in text for c in ends):
            return text
        cut = min(i for i in (text.find(c) for c in ends) if i >= 0)
        self._broken_read = (text[cut], text[cut + 1:])
        return text[:cut]

    def _broken_read_finding(self) -> Finding:
        assert self._broken_read is not None
        char, rest = self._broken_read
        name = unicodedata.name(char, "a line separator")
        return self._finding(
            "malformed", "fail",
            f"the answer before held U+{ord(char):04X} ({name}): the referee's own reader ends a line there "
            f"too, took the text before it as the answer, and reads the rest, {rest!r}, as its next command: "
            f"the game breaks on the next turn. Keep such characters out of comments",
            expected="an answer without " + ", ".join(f"U+{ord(c):04X}" for c in self.spec.read.referee_line_ends),
            got=show(rest))

    def _parse(self, text: str, raw: str, elapsed_ns: int) -> tuple[str, str | None]:
        """The move and the comment the referee reads; a line it cannot read is a Forfeit."""
        if not self.spec.read.comment_separator:
            text = self._clean(text)
        parsed = self.spec.parse_answer(text)
        if parsed is None:
            text, parsed = self._loose_whitespace(text, raw)
        if parsed is None:
            raise Forfeit(self._finding(
                "malformed", "fail", self._grammar_message(text) + self._before_request(),
                expected=self.spec.turn.answer_help, got=show(raw), elapsed_ms=elapsed_ns / _MS))
        move, comment = parsed
        if self.spec.read.comment_separator and comment is not None and not comment.strip():
            self._warn("trailing_space", "malformed",
                       f"the comment after {move!r} is empty ({text!r}): the referee accepts it; a stricter "
                       f"judge compares the whole line", got=show(raw))
        return move, comment

    def _before_request(self) -> str:
        return (" (a line the bot wrote before this request: the referee reads it as this turn's answer)"
                if self._written_before else "")

    def _judge(self, move: str, raw: str):
        try:
            return self.position.judge(move)
        except IllegalMove:
            legal = self.position.legal_moves()
            if self.spec.turn.match == "prefix":
                for candidate in legal:
                    if move.startswith(candidate):
                        self._warn("prefix_match", "malformed",
                                   f"{move!r} is accepted by the referee as {candidate!r} (it compares prefixes"
                                   + (f"; {_whitespace_found(move)} does not start a comment" if
                                      _WHITESPACE.search(move) else "")
                                   + "); write the move alone", got=show(raw))
                        return self.position.judge(candidate)
            bare = move.split()
            if bare and bare[0] != move and bare[0] in legal:
                sep = self.spec.read.comment_separator
                until = f"all the text before the first {_CHAR_NAMES.get(sep, repr(sep))}" if sep else "the whole line"
                raise IllegalMove(move, f"the referee compares {until} with the listed moves, "
                                        f"{_whitespace_found(move)} included: write {bare[0]!r}",
                                  malformed=True) from None
            raise

    def _warn_rule(self, warning: str, raw: str) -> None:
        """A rules module's warning: "kind: message", or a plain message (illegal_move)."""
        kind, sep, message = warning.partition(": ")
        if not sep or kind not in ("malformed", "illegal_move"):
            kind, message = "illegal_move", warning
        self._note(self._finding(kind, "warn", message, got=show(raw), rule=_shape_rule(message)))

    def _clean(self, text: str) -> str:
        """Trailing blanks, which a lenient judge strips (severity.trailing_space)."""
        stripped = text.rstrip(" \t")
        if stripped != text:
            self._warn("trailing_space", "malformed",
                       f"trailing whitespace after {stripped!r}: a strict judge compares the whole line",
                       got=show(text))
        return stripped

    def _loose_whitespace(self, text: str, raw: str) -> tuple[str, tuple[str, str | None] | None]:
        """An answer that fits the grammar once its whitespace is tidied (leading blanks,
        two spaces, a tab, a \\r): a referee that splits the line on whitespace reads it so.
        The spec's severity.loose_whitespace says whether the judge does (warn) or not (fail)."""
        tidy = " ".join(_WHITESPACE.split(text.strip(" \t\n\x0c\r")))
        parsed = self.spec.parse_answer(tidy) if tidy != text else None
        if parsed is None:
            return text, None
        found = _whitespace_found(text)
        sep = self.spec.read.comment_separator
        if sep and text.startswith(sep) and self.spec.severity["loose_whitespace"] == "fail":
            message = (f"{text!r} starts with a {_CHAR_NAMES.get(sep, repr(sep))}: the referee takes the text "
                       f"before the first one as the move, an empty one here; write {tidy!r}")
        elif self.spec.severity["loose_whitespace"] == "fail":
            message = f"{text!r} has {found}: the judge reads the line as written; write {tidy!r}"
        else:
            message = (f"{text!r} has {found}: the referee splits the line on whitespace and reads "
                       f"{tidy!r}; a stricter judge would not: write single spaces")
        self._warn("loose_whitespace", "malformed", message, got=show(raw),
                   expected=self.spec.turn.answer_help)
        return tidy, parsed

    def _grammar_message(self, text: str) -> str:
        for hint in self.spec.turn.hints:
            m = hint.pattern.fullmatch(text)
            if m:
                return hint.message.format(**m.groupdict())
        if not text:
            return f"an empty line; expected {self.spec.turn.answer_help}"
        return f"{text!r} is not {self.spec.turn.answer_help}"

    def _illegal(self, raw: str, exc: IllegalMove, elapsed_ns: int) -> Finding:
        kind = "malformed" if exc.malformed else "illegal_move"
        legal = self.position.legal_moves()
        shown = show_moves(list(legal[:40]) + (["..."] if len(legal) > 40 else []))
        return self._finding(kind, "fail", f"{exc.move!r}: {exc.reason}{self._before_request()}",
                             expected=f"one of {len(legal)} legal moves: {shown}",
                             got=show(raw), elapsed_ms=elapsed_ns / _MS)

    def _timing(self, elapsed_ns: int, limit_ns: int) -> None:
        """A WARN slow for an answer in its limit: over the statement's own limit, or near
        the referee's. Each is held to the bot's own time (answertime): the statement's
        limit is about the bot's speed, so neither the machine's time nor the quota's
        counts there; the referee's limit counts the quota's (turns back to back share a
        period's quota: see prototest.judge.accounting)."""
        t = self.spec.time
        statement_ns = self._scaled(t.statement_answer_ms) if t.statement_answer_ms else None
        took = answertime.AnswerTime(elapsed_ns, self.answer_used)
        if statement_ns and took.own_ns(quota_excused=True) > statement_ns \
                and not (self.bot_turns == 1 and t.first_answer_ms):
            message, figures = answertime.slow_statement(took, statement_ns, limit_ns)
            self._warn("slow", "slow", message, rule="slow:statement", **figures)
        elif took.own_ns() * 100 > limit_ns * t.near_limit_percent:
            message, figures = answertime.slow_near_limit(took, limit_ns)
            self._warn("slow", "slow", message, rule="slow:near_limit", **figures)


def _whitespace_found(text: str) -> str:
    """Name the loose whitespace in a line: 'leading whitespace', 'a tab', '2 spaces in a row'."""
    found = []
    if text[:1] in (" ", "\t", "\x0c"):
        found.append("leading whitespace")
    if "\t" in text:
        found.append("a tab")
    runs = [len(m.group()) for m in re.finditer(r" {2,}", text.lstrip(" \t\x0c"))]
    if runs:
        found.append(f"{max(runs)} spaces in a row")
    if "\x0c" in text.lstrip(" \t\x0c"):
        found.append("a form feed")
    if "\r" in text:
        found.append("a carriage return")
    return " and ".join(found) or "loose whitespace"


def _shape_rule(message: str) -> str:
    """Fold rule warnings that differ only in squares and numbers."""
    return "rule:" + re.sub(r"\d+", "#", message.split(":")[0])
