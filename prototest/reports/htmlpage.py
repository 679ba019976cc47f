"""`--html PATH`: one self-contained HTML page of a run (check, fuzz, replay, merge, match)
or of a saved transcript (`prototest show --html`), that needs no network.

The page holds the verdict, the report as the terminal prints it, and, for every game
with a finding, a board to step through move by move (buttons, the arrow keys, Home and
End): the move list beside it, the bot's refused move drawn on the board, the transcript
lines of the current ply highlighted, and the bot's answer times as a small chart with
the time limits drawn. It opens at the failing ply. Boards are the games' own SVG
(`svg(position, last=, bad=, flipped=)` in the rules module), else their text diagram;
each ply's board is embedded once, compressed when a long game would make the page
large (the browser inflates it: DecompressionStream).
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import math
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Sequence

from . import coverageview, gameview
from .gameview import View

#: Boards of one game above this many characters are embedded compressed.
COMPRESS_ABOVE = 50_000
#: A terminal's colour codes (the report as the terminal printed it may hold them).
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: Namespace declarations an inline SVG does not need (and a page with no addresses in it).
_XMLNS = re.compile(r'\s+xmlns(?::\w+)?="[^"]*"')


@dataclass
class Section:
    """One game of the page: its heading, its view (None: no moves to show, `note` says
    why) and the report's lines about it (its findings with their evidence)."""

    heading: str
    view: View | None
    evidence: list[str] = field(default_factory=list)
    note: str = ""
    #: "fail", "warn" or "pass": the heading's colour
    level: str = "fail"


# -- text -----------------------------------------------------------------------------------

def esc(text: str) -> str:
    """Text for the page: escaped, and no web address left in it (the page refers to
    nothing outside itself; an address in a message is shown, not linked)."""
    return re.sub(r"(https?):", r"\1&#58;", html.escape(text, quote=True))


def level_of(line: str) -> str:
    """The colour of a report line: by its first word."""
    if line.lstrip().startswith("PASS with warnings"):
        return "warn"
    word = line.lstrip().split(" ", 1)[0].rstrip(":")
    return {"FAIL": "fail", "WARN": "warn", "PASS": "pass", "pass": "pass", "DIFFERS": "fail", "ERROR": "fail",
            "INTERRUPTED": "warn", "STOP": "warn"}.get(word, "")


def report_block(text: str) -> str:
    """Report text as the terminal prints it, each FAIL/WARN/PASS line coloured."""
    out = []
    for line in _ANSI.sub("", text).splitlines():
        level = level_of(line)
        out.append(f'<span class="{level}">{esc(line)}</span>' if level else esc(line))
    return '<pre class="report">' + "\n".join(out) + "</pre>"


# -- boards ---------------------------------------------------------------------------------

def board_html(view: View, ply: int) -> str:
    """The board at `ply`: the game's SVG (last move, refused move, the bot's seat at the
    bottom), else its text diagram."""
    position = view.positions[ply]
    draw = getattr(view.module, "svg", None)
    if draw is not None:
        last = view.moves[ply - 1] if ply > 0 else None
        flipped = view.seat == 1
        for bad in (view.bad_at(ply), None):
            try:
                return _XMLNS.sub("", draw(position, last=last, bad=bad, flipped=flipped))
            except Exception:  # noqa: BLE001 - a drawing that fails falls back to the diagram
                if bad is None:
                    break
    return '<pre class="diagram">' + esc("\n".join(view.diagram(ply))) + "</pre>"


def _boards_data(view: View) -> dict[str, Any]:
    boards = [board_html(view, p) for p in range(view.last + 1)]
    text = json.dumps(boards, separators=(",", ":"))
    if len(text) > COMPRESS_ABOVE:
        packed = base64.b64encode(gzip.compress(text.encode("utf-8"), 9, mtime=0)).decode("ascii")
        return {"gz": packed}
    return {"list": boards}


def unpack_boards(data: dict[str, Any]) -> list[str]:
    """The boards of a game's data as the page holds them (tests, and what JS does)."""
    if "gz" in data:
        return json.loads(gzip.decompress(base64.b64decode(data["gz"])).decode("utf-8"))
    return list(data["list"])


# -- the answer-time chart --------------------------------------------------------------------

def chart(view: View) -> str:
    """The bot's answer times, a bar each on a log scale, with the limits as dashed lines."""
    if not view.answers:
        return ""
    w, h, left, bottom, top = 520, 130, 46, 18, 8
    times = [ms for _, ms in view.answers]
    limits = sorted({(round(v, 3), name) for name, v in view.limits.items() if v > 0})
    high = max(times + [v for v, _ in limits]) * 1.6
    low = max(min(0.1, min(times) / 2), 0.01)
    lo, hi = math.log10(low), math.log10(max(high, low * 10))

    def y(ms: float) -> float:
        v = min(max(ms, low), high)
        return top + (h - top - bottom) * (1 - (math.log10(v) - lo) / (hi - lo))

    parts = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="answer times">']
    for exp in range(math.ceil(lo), math.floor(hi) + 1):
        ms = 10.0 ** exp
        label = f"{ms / 1000:g} s" if ms >= 1000 else f"{ms:g} ms"
        parts.append(f'<line class="grid" x1="{left}" x2="{w - 4}" y1="{y(ms):.1f}" y2="{y(ms):.1f}"/>'
                     f'<text class="axis" x="{left - 4}" y="{y(ms) + 3:.1f}">{label}</text>')
    n = len(times)
    step = (w - 4 - left) / n
    bar = max(1.0, min(14.0, step * 0.7))
    for i, (ply, ms) in enumerate(view.answers):
        x = left + i * step + (step - bar) / 2
        over = any(ms > v for v, name in limits if name not in ("clock", "statement"))
        parts.append(f'<rect class="bar{" over" if over else ""}" data-ply="{ply}" x="{x:.1f}" y="{y(ms):.1f}" '
                     f'width="{bar:.1f}" height="{h - bottom - y(ms):.1f}"><title>answer {i + 1}, ply {ply}: '
                     f'{ms:.1f} ms</title></rect>')
    for v, name in limits:
        soft = name == "statement"  # the statement's limit: later is a warning
        kind = "limit soft" if soft else "limit"
        parts.append(f'<line class="{kind}" x1="{left}" x2="{w - 4}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                     f'<text class="{"soft-label" if soft else "limit-label"}" x="{left + 4 if soft else w - 6}" y="{y(v) + (9 if soft else -3):.1f}">'
                     f'{esc(name)} limit {v:g} ms</text>')
    parts.append(f'<text class="axis-x" x="{left}" y="{h - 4}">answers 1 to {n} (click one to go to its ply)</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- one game ---------------------------------------------------------------------------------

def _moves_list(view: View) -> str:
    items = ['<li data-ply="0" class="start">start</li>']
    for p, move in enumerate(view.moves, 1):
        who = view.mover(p)
        items.append(f'<li data-ply="{p}" class="{who}"><span class="n">{p}.</span> {esc(move)}</li>')
    for p, move in view.refused:
        items.insert(p + 1 + sum(1 for q, _ in view.refused if q < p),
                     f'<li data-ply="{p}" class="refused" title="refused by the judge">'
                     f'<span class="n">{p + 1}.</span> {esc(move)} ✗</li>')
    return '<ol class="moves">' + "".join(items) + "</ol>"


def _lines(view: View) -> str:
    out = []
    for line in view.lines:
        cls = {"F": "fail", "W": "warn", "<": "bot", ">": "judge", "!": "err", "#": "note", "h": "head"}.get(line.mark, "")
        out.append(f'<div class="tl {cls}" data-ply="{line.ply}">{esc(line.text) or "&nbsp;"}</div>')
    return '<div class="transcript" tabindex="0">' + "".join(out) + "</div>"


def game_html(number: int, section: Section) -> str:
    """One game's section; a game whose boards cannot be drawn (a rules module's own
    error) keeps its heading and evidence, and says why, so the page is still written."""
    try:
        return _game_html(number, section)
    except Exception as exc:  # noqa: BLE001 - a plugin's bug must not cost the run its page
        if os.environ.get("PROTOTEST_DEBUG"):
            raise
        note = f"this game's board could not be drawn: {type(exc).__name__}: {exc}"
        return _game_html(number, Section(section.heading, None, section.evidence, note, section.level))


def _game_html(number: int, section: Section) -> str:
    view = section.view
    head = (f'<section class="game" id="game-{number}"><h2 class="{section.level}">{esc(section.heading)}</h2>')
    evidence = report_block("\n".join(section.evidence)) if section.evidence else ""
    if view is None:
        return head + (f'<p class="note">{esc(section.note)}</p>' if section.note else "") + evidence + "</section>"
    data = {"positions": [view.notation(p) for p in range(view.last + 1)],
            "moves": view.moves, "movers": [view.mover(p) for p in range(1, view.last + 1)],
            "refused": view.refused, "refusedBy": [view.refused_by(p) for p, _ in view.refused],
            "names": view.names, "open": view.opening_ply, "failing": view.failing_ply,
            "marked": {"difference": "the first difference"}.get(view.marked, "the failing ply"),
            "boards": _boards_data(view)}
    problem = f'<p class="note">{esc(view.problem)}</p>' if view.problem else ""
    note = f'<p class="note">{esc(section.note)}</p>' if section.note else ""
    return (head + note + problem + f'''
<div class="viewer" data-game="{esc(view.game)}" data-last="{view.last}">
 <div class="left">
  <div class="board" data-position="{esc(view.notation(view.opening_ply))}" data-ply="{view.opening_ply}">{board_html(view, view.opening_ply)}</div>
  <div class="controls">
   <button data-go="first" title="first (Home)">{ICONS["first"]}</button><button data-go="prev" title="previous (←)">{ICONS["prev"]}</button><button data-go="next" title="next (→)">{ICONS["next"]}</button><button data-go="last" title="last (End)">{ICONS["last"]}</button>
   {_to_failure(view)}
   <span class="plyinfo"></span>
  </div>
  <div class="moveinfo"></div>
  {chart(view)}
 </div>
 <div class="right">
  <div class="pane-title">moves <span class="dim">({esc(view.who("bot"))} as {esc(view.seat_name or "?")}: bold{"; given before the game: grey" if view.given else ""})</span></div>
  {_moves_list(view)}
  <div class="pane-title">transcript <span class="dim">(this ply's lines highlighted)</span></div>
  {_lines(view)}
 </div>
 <script type="application/json" class="game-data">{_json_for_script(data)}</script>
</div>''' + evidence + "</section>")


def _to_failure(view: View) -> str:
    if view.failing_ply is None:
        return ""
    what = view.marked or ("failure" if (view.verdict or "").startswith("FAIL") else "warning")
    return f'<button data-go="failing" class="to-fail" title="the ply of the first {what} (F)">{what}</button>'


def _json_for_script(data: Any) -> str:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("http:", "http\\u003a").replace("https:", "https\\u003a"))


# -- the page -----------------------------------------------------------------------------------

def page(title: str, verdict: str, report_text: str, sections: Sequence[Section], *,
         extra: str = "", extra_nav: str = "") -> str:
    """The whole page: the verdict, a board for every section (each with its findings),
    `extra` (a section of the command's own, such as fuzz's coverage; `extra_nav` its link's
    text), then the report as the terminal printed it."""
    nav = "".join(f'<a href="#game-{i}" class="{s.level}">{esc(s.heading)}</a>' for i, s in enumerate(sections, 1))
    if extra and extra_nav:
        nav += f'<a href="#coverage">{esc(extra_nav)}</a>'
    if report_text:
        nav += '<a href="#report" class="to-report">the report as printed ↓</a>'
    games = "".join(game_html(i, s) for i, s in enumerate(sections, 1))
    body = [f'<header class="banner {level_of(verdict) or "plain"}"><h1>{esc(verdict)}</h1>'
            f'<div class="sub">{esc(title)}</div></header>',
            f'<nav class="games">{nav}</nav>' if nav else "",
            '<main>', games, extra]
    if report_text:
        body.append(f'<section class="summary" id="report"><h2>The report as printed</h2>'
                    f'{report_block(report_text)}</section>')
    body.append("</main>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{esc(verdict)} · {esc(title)}</title><style>{CSS}{coverageview.CSS if extra else ""}</style></head>'
            f'<body>{"".join(body)}<script>{JS}{coverageview.JS if extra else ""}</script></body></html>\n')


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# -- pages of the commands ------------------------------------------------------------------------

def _view_of(report, title: str) -> tuple[View | None, str]:
    try:
        return gameview.from_report(report, title=title), ""
    except gameview.ViewError as exc:
        return None, str(exc)


def _level(findings: Iterable) -> str:
    severities = {f.severity for f in findings}
    return "fail" if "fail" in severities else "warn" if "warn" in severities else "pass"


def _first_line(findings: Sequence) -> str:
    f = next((f for f in findings if f.severity == "fail"), None) or (findings[0] if findings else None)
    return f"{f.severity.upper()} {f.kind}: {f.message}" if f is not None else ""


def game_sections(games: Sequence, *, bot: str = "the bot") -> list[Section]:
    """A section for every game with a finding (its own or the other seat's bot's), an
    interrupt or a usage error, from the reports in memory or their saved transcripts."""
    from .text import findings_lines
    from ..play.runner import worth_keeping

    sections = []
    for g in games:
        if not worth_keeping(g):
            continue
        findings = [*g.findings, *g.opponent_findings]
        view, note = _view_of(g, f"game {g.index}")
        if view is None and g.transcript_path:
            try:
                view, note = gameview.load(Path(g.transcript_path)), ""
            except gameview.ViewError as exc:
                note = str(exc)
        seat = view.seat_name if view is not None and view.seat_name else g.seat_name
        heading = f"Game {g.index}, {bot} as {seat}: {_first_line(findings) or g.result}"
        if view is None and not g.transcript.events and not g.transcript_path:
            note = "no transcript of this game is at hand (a merged report: its shard's transcripts stay where they were written)"
        sections.append(Section(heading, view, findings_lines(g.findings) + findings_lines(g.opponent_findings),
                                note, _level(findings) if findings else "warn"))
    return sections


def write_check(run, path: Path) -> None:
    """The page of a check (also of a merge of check shards)."""
    from .summary import summary

    text = summary(run)
    page_text = page(f"prototest check: {run.spec.game.title or run.spec.name}, bot {' '.join(run.argv)}",
                     text.splitlines()[-1], text, game_sections(run.games))
    write(path, page_text)


def write_fuzz(run, path: Path) -> None:
    """The page of a fuzz run: a board for each minimal failing example, opening at the
    failing position."""
    from .fuzzsummary import fuzz_summary

    text = fuzz_summary(run)
    sections = []
    for number, failure in enumerate(run.failures, 1):
        f = failure.finding
        view, note = _view_of(failure.example.report, f"reproducer {number}")
        sections.append(Section(f"Reproducer {number}: {f.severity.upper()} {f.kind}: {f.message}", view, [], note,
                                f.severity))
    from ..play.corpus import summarize

    cov = run.coverage or summarize(run)
    extra = coverageview.section(run, cov)
    nav = (f"coverage: {cov['lines']} of {cov['lines_total']} lines" if cov.get("kind") == "python"
           else "coverage") if cov.get("state") == "on" else "coverage off"
    write(path, page(f"prototest fuzz: {run.target.spec.game.title or run.target.spec.name}",
                     text.splitlines()[-1], text, sections, extra=extra, extra_nav=nav))


def write_match(run, path: Path) -> None:
    """The page of a match: the summary as printed, and a board for every game with a
    finding of either bot."""
    from ..play.match import LETTERS, bot_name
    from .summary import match_seats, match_summary

    text = match_summary(run)
    title = f"prototest match: {run.spec.game.title or run.spec.name}, " + " vs ".join(
        f"{LETTERS[i]} ({bot_name(argv)})" for i, argv in enumerate(run.bots))
    sections = []
    for g in run.games:
        for section in game_sections([g]):
            if section.view is not None:  # the moves said as A's and B's, not "the bot's" and "the opponent's"
                first, second = run.names(g)
                section.view.names = {"bot": first, "opponent": second}
            sections.append(replace(
                section, heading=f"Game {g.index} ({match_seats(run, g)}): {section.heading.split(': ', 1)[-1]}"))
    write(path, page(title, text.splitlines()[-1], text, sections))


def write_replay(results: Sequence, text: str, path: Path) -> None:
    """The page of a replay: a board for every fixture whose replay failed or differs."""
    sections = []
    for result in results:
        if not result.failed:
            continue
        view, note = _view_of(result.report, result.fixture.path.name)
        if view is not None and result.status == "differs":
            _open_at_difference(view, result)
        level = "fail" if result.status in ("came back", "fails", "differs") else "warn"
        sections.append(Section(f"{result.fixture.path}: {result.status}", view, list(result.lines), note, level))
    write(path, page("prototest replay", text.splitlines()[-1] if text else "", text, sections))


def _open_at_difference(view: View, result) -> None:
    """A replay that differs opens where the bot's game first went otherwise."""
    from ..play.replay import exchange_at, first_difference

    at = first_difference(result.fixture.body, result.now)
    if at is None:
        return
    _, exchange = exchange_at(result.report, result.now, at[1])
    if exchange is not None and 0 <= exchange.ply - view.positions[0].ply() <= view.last:
        view.failing_ply = exchange.ply - view.positions[0].ply()
        view.verdict = next((line for line in result.lines if line.startswith("first difference")), view.verdict)
        view.marked = "difference"


def write_text_page(title: str, text: str, path: Path, games: Sequence = (), bot: str = "the bot") -> None:
    """A page of a report given as text (a merge of fuzz or fixture shards, a match),
    with the boards of `games` (game reports) that have findings."""
    write(path, page(title, text.splitlines()[-1] if text else "", text, game_sections(games, bot=bot)))


def write_view(view: View, path: Path) -> None:
    """The page of one saved transcript or fixture (`prototest show --html`)."""
    ended = ("1 ply" if len(view.moves) == 1 else f"{len(view.moves)} plies") + (f", {view.result}" if view.result else "")
    verdict = view.verdict or f"{view.title}: {ended}"
    seat = f", the bot as {view.seat_name}" if view.seat_name else ""
    section = Section(f"{view.title} ({view.game}{seat}): {ended}", view, [], "", level_of(verdict) or "pass")
    write(path, page(f"prototest show {view.title}", verdict, "", [section]))


def _icon(path: str) -> str:
    return f'<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path d="{path}" fill="currentColor"/></svg>'


#: The step buttons' icons (drawn: a font may lack the media symbols).
ICONS = {"first": _icon("M3 3h2v10H3zM13 3v10L6 8z"), "prev": _icon("M11 3v10L4 8z"),
         "next": _icon("M5 3v10l7-5z"), "last": _icon("M11 3h2v10h-2zM3 3v10l7-5z")}


# -- style and behaviour ---------------------------------------------------------------------------

CSS = """
:root{--fail:#c62828;--fail-bg:#fdecea;--warn:#9a6100;--warn-bg:#fff4d6;--pass:#1b7f3b;--pass-bg:#e7f5ea;
--ink:#1d232a;--dim:#66707a;--line:#dde1e6;--panel:#f6f8fa;--hi:#fff1a8;--accent:#2457c5}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fff}
pre,code,.transcript,.moves{font-family:ui-monospace,"DejaVu Sans Mono","Cascadia Mono",Menlo,Consolas,monospace}
.banner{padding:14px 24px;border-bottom:1px solid var(--line)}
.banner h1{margin:0;font-size:22px}.banner .sub{color:var(--dim);font-size:13px;margin-top:2px;word-break:break-all}
.banner.fail{background:var(--fail-bg)}.banner.fail h1{color:var(--fail)}
.banner.warn{background:var(--warn-bg)}.banner.warn h1{color:var(--warn)}
.banner.pass{background:var(--pass-bg)}.banner.pass h1{color:var(--pass)}
nav.games{display:flex;flex-wrap:wrap;gap:6px;padding:8px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
nav.games a{font-size:13px;text-decoration:none;padding:2px 8px;border-radius:10px;border:1px solid var(--line);background:#fff;color:var(--ink);
max-width:46em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
nav.games a.fail{border-color:var(--fail);color:var(--fail)}nav.games a.warn{border-color:var(--warn);color:var(--warn)}
main{padding:8px 24px 40px;max-width:1500px}
h2{font-size:17px;margin:16px 0 8px}h2.fail{color:var(--fail)}h2.warn{color:var(--warn)}h2.pass{color:var(--pass)}
pre.report{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:10px 12px;font-size:12.5px;
overflow-x:auto;margin:6px 0}
pre.report .fail{color:var(--fail);font-weight:600}pre.report .warn{color:var(--warn);font-weight:600}pre.report .pass{color:var(--pass);font-weight:600}
.game{border-top:1px solid var(--line);margin-top:14px}.game:first-child{border-top:0;margin-top:0}
.note{color:var(--dim);font-style:italic}
.verdict-line{font-weight:600;margin:8px 0}.verdict-line.fail{color:var(--fail)}.verdict-line.warn{color:var(--warn)}
.viewer{display:grid;grid-template-columns:minmax(260px,480px) minmax(0,1fr);gap:18px;align-items:start}
.viewer:focus-within,.viewer.active{outline:none}
.board{line-height:0;max-width:480px}
.board pre.diagram{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px}
.board svg{width:100%;height:auto;display:block}
.board pre.diagram{line-height:1.25;font-size:15px;margin:8px;white-space:pre}
.controls{display:flex;align-items:center;gap:4px;margin:8px 0 2px;flex-wrap:wrap}
.controls button svg{vertical-align:middle}.controls button{font-size:15px;color:#333;min-width:38px;height:32px;border:1px solid #c8ced6;background:#fff;border-radius:5px;cursor:pointer}
.controls button:hover{background:var(--panel)}.controls button.to-fail{color:var(--fail);border-color:var(--fail);font-size:13px}
.plyinfo{margin-left:8px;font-size:14px;color:var(--ink)}
.moveinfo{font-size:14px;min-height:1.5em;margin-bottom:6px}.moveinfo .bad{color:var(--fail);font-weight:600;display:block}
.right{min-width:0}
.pane-title{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--dim);margin:2px 0 4px}.pane-title .dim{text-transform:none;letter-spacing:0}
ol.moves{list-style:none;margin:0 0 10px;padding:6px;display:flex;flex-wrap:wrap;gap:2px 4px;max-height:132px;overflow:auto;
border:1px solid var(--line);border-radius:6px;font-size:13px}
ol.moves li{padding:1px 6px;border-radius:4px;cursor:pointer;white-space:nowrap}
ol.moves li .n{color:var(--dim)}ol.moves li.bot{font-weight:700}ol.moves li.given{font-style:italic;color:var(--dim)}ol.moves li.start{color:var(--dim)}
ol.moves li.refused{color:var(--fail);text-decoration:line-through;font-weight:700}
ol.moves li.current{background:var(--accent);color:#fff}ol.moves li.current .n{color:#dfe7fb}
.transcript{border:1px solid var(--line);border-radius:6px;height:430px;overflow:auto;font-size:12px;padding:4px 0;background:#fff}
.tl{white-space:pre-wrap;overflow-wrap:anywhere;padding:0 8px 0 11.5em;text-indent:-11.5em;color:#39424c}
.tl.judge{color:#1f4fa3}.tl.bot{color:#0c6b37}.tl.err{color:#8a5a00}.tl.note,.tl.head{color:var(--dim)}
.tl.fail{color:var(--fail);font-weight:700}.tl.warn{color:var(--warn)}
.tl.here{background:var(--hi)}
svg.chart{width:100%;max-width:480px;height:auto;margin-top:6px;background:var(--panel);border:1px solid var(--line);border-radius:6px}
svg.chart .grid{stroke:#e1e5ea;stroke-width:1}svg.chart .axis{font-size:9px;fill:var(--dim);text-anchor:end}
svg.chart .axis-x{font-size:9px;fill:var(--dim)}
svg.chart .bar{fill:#5b8def;cursor:pointer}svg.chart .bar.over{fill:var(--fail)}svg.chart .bar.current{fill:#f0a000}
svg.chart .limit{stroke:var(--fail);stroke-width:1.2;stroke-dasharray:5 3}svg.chart .limit-label{font-size:9px;fill:var(--fail);text-anchor:end}
svg.chart .limit.soft{stroke:var(--warn)}svg.chart .soft-label{font-size:9px;fill:var(--warn)}
@media (max-width:860px){.viewer{grid-template-columns:1fr}.transcript{height:300px}main{padding:8px 10px 30px}.banner,nav.games{padding-left:10px;padding-right:10px}}
"""

JS = r"""
(function(){
const viewers=[];let active=null;
async function inflate(b64){const bytes=Uint8Array.from(atob(b64),c=>c.charCodeAt(0));
 const stream=new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));return JSON.parse(await new Response(stream).text());}
function setup(el){
 const data=JSON.parse(el.querySelector('script.game-data').textContent);
 const v={el,data,ply:data.open,drawn:data.open,boards:data.boards.list||null,board:el.querySelector('.board'),
  info:el.querySelector('.plyinfo'),moveinfo:el.querySelector('.moveinfo'),moves:[...el.querySelectorAll('ol.moves li')],
  lines:[...el.querySelectorAll('.tl')],pane:el.querySelector('.transcript'),bars:[...el.querySelectorAll('rect.bar')]};
 v.last=data.positions.length-1;
 if(!v.boards&&data.boards.gz){v.ready=inflate(data.boards.gz).then(b=>{v.boards=b;show(v,v.ply);});}
 el.querySelectorAll('button[data-go]').forEach(b=>b.addEventListener('click',()=>{active=v;go(v,b.dataset.go);}));
 v.moves.forEach(li=>li.addEventListener('click',()=>{active=v;show(v,+li.dataset.ply);}));
 v.bars.forEach(r=>r.addEventListener('click',()=>{active=v;show(v,+r.dataset.ply);}));
 el.addEventListener('pointerdown',()=>{active=v;});
 viewers.push(v);show(v,v.ply);return v;}
function go(v,where){
 const p={first:0,prev:v.ply-1,next:v.ply+1,last:v.last,failing:v.data.failing}[where];
 if(p!==undefined&&p!==null)show(v,Math.max(0,Math.min(v.last,p)));}
function show(v,p){
 v.ply=p;const d=v.data;
 if(v.boards){v.board.innerHTML=v.boards[p];v.drawn=p;}
 else if(v.drawn!==p){v.board.innerHTML='<pre class="diagram">…</pre>';v.drawn=null;}
 v.board.dataset.position=d.positions[p];v.board.dataset.ply=p;
 v.info.textContent='ply '+p+' of '+v.last+(p===d.failing?'  · '+d.marked:'');
 let text='';
 const names=d.names||{bot:'the bot',opponent:'the opponent'};
 if(p>0){const who={bot:names.bot+' played ',opponent:names.opponent+' played ',given:'given before the game: '}[d.movers[p-1]]||'';text=who+p+'. '+d.moves[p-1];}else{text='the start position';}
 const bad=d.refused.map((r,i)=>[r,(d.refusedBy||[])[i]||'bot']).filter(x=>x[0][0]===p);
 v.moveinfo.innerHTML='';v.moveinfo.append(text);
 if(bad.length){const s=document.createElement('span');s.className='bad';s.textContent=names[bad[0][1]]+' answered '+bad.map(x=>x[0][1]).join(', ')+' here: refused by the judge';v.moveinfo.append(s);}
 v.moves.forEach(li=>li.classList.toggle('current',+li.dataset.ply===p&&!li.classList.contains('refused')));
 const cur=v.moves.find(li=>li.classList.contains('current'));
 if(cur){const ol=cur.parentElement;const top=cur.offsetTop-ol.offsetTop;if(top<ol.scrollTop||top>ol.scrollTop+ol.clientHeight-20)ol.scrollTop=top-ol.clientHeight/2;}
 let first=null;
 v.lines.forEach(l=>{const here=+l.dataset.ply===p;l.classList.toggle('here',here);if(here&&!first)first=l;});
 if(first){const f=v.lines.filter(l=>l.classList.contains('here')&&(l.classList.contains('fail')));
  const target=f.length?f[0]:first;v.pane.scrollTop=Math.max(0,target.offsetTop-v.pane.offsetTop-v.pane.clientHeight/3);}
 v.bars.forEach(r=>r.classList.toggle('current',+r.dataset.ply===p));
}
document.querySelectorAll('.viewer').forEach(setup);
active=viewers[0]||null;
document.addEventListener('keydown',e=>{
 if(!active||e.altKey||e.ctrlKey||e.metaKey)return;
 const t=e.target;if(t&&(t.tagName==='INPUT'||t.tagName==='TEXTAREA'))return;
 const where={ArrowLeft:'prev',ArrowRight:'next',Home:'first',End:'last',f:'failing'}[e.key];
 if(where){e.preventDefault();go(inView(active),where);}});
function inView(v){  // the keys step the board in sight: the last one used, else the first one seen
 const seen=r=>r.bottom>40&&r.top<window.innerHeight-40;
 if(seen(v.el.getBoundingClientRect()))return v;
 return viewers.find(w=>seen(w.el.getBoundingClientRect()))||v;}
window.prototestViewers=viewers;
})();
"""
