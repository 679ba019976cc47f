"""The coverage section of a fuzz run's HTML page: how much of the bot's own code the
campaign reached, as a coverage report shows it.

For a Python bot: a row per file (lines reached of its lines, a bar, the lines never
reached, the functions never reached), then each file's source, folded, with the lines
reached in green and those never reached in red (as coverage.py's HTML pages colour
them). For a native bot: the slots of the map reached (its source is not at hand). Off:
why.
"""

from __future__ import annotations

import html
import os
from typing import Any

from ..sandbox.coverage.pysource import compiled
from .text import coverage_news

#: A file's source is shown folded up to this many lines (a larger file: its table row only).
SOURCE_LINES_SHOWN = 3000


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def section(run: Any, summary: dict[str, Any]) -> str:
    """The section (`<section id="coverage">`), or "" when the run did not ask for coverage."""
    if summary.get("state") != "on":
        reason = summary.get("reason") or ""
        if not reason or reason == "not asked for":
            return ""
        return (f'<section class="coverage" id="coverage"><h2>Coverage of the bot\'s code</h2>'
                f'<p class="note">coverage off: {_esc(reason)}</p></section>')
    head = '<section class="coverage" id="coverage"><h2>Coverage of the bot\'s code</h2>'
    runs = (f'<p>{summary["new_examples"]} of {summary["runs"]} runs reached {coverage_news(summary)}; '
            f'{summary["corpus"]} kept to go on from.</p>')
    if summary.get("kind") != "python":
        return (head + f'<p>native bot: {summary["slots"]} slots of the coverage map reached '
                f'(edges of its code; no total is known, and its source is not read).</p>' + runs + "</section>")
    total = summary["lines_total"]
    share = f"{100 * summary['lines'] / total:.0f}%" if total else "-"
    rows, sources = [], []
    by_shown = _sources(run)
    for number, f in enumerate(summary["files"], 1):
        pct = 100 * f["lines"] / f["total"] if f["total"] else 0.0
        rows.append(f'<tr><td class="path"><a href="#cov-{number}">{_esc(f["path"])}</a></td>'
                    f'<td class="num">{f["lines"]} / {f["total"]}</td>'
                    f'<td class="barcell"><span class="bar" style="--p:{pct:.1f}%" '
                    f'title="{pct:.0f}%"></span> {pct:.0f}%</td>'
                    f'<td class="missing">{_esc(f.get("missing", ""))}</td>'
                    f'<td class="num">{f["unreached_functions"]}</td></tr>')
        source = by_shown.get(f["path"])
        if source is not None:
            sources.append(_source_html(number, f["path"], *source))
    table = ('<table class="cov"><thead><tr><th>file</th><th>lines reached</th><th></th>'
             '<th>lines never reached</th><th>functions never reached</th></tr></thead><tbody>'
             + "".join(rows) + "</tbody></table>")
    missed = summary.get("unreached_functions") or []
    never = ""
    if missed:
        more = summary.get("unreached_count", len(missed)) - len(missed)
        never = ('<p>functions never reached: ' + ", ".join(f"<code>{_esc(m)}</code>" for m in missed)
                 + (f" and {more} more" if more > 0 else "") + "</p>")
    return (head + f'<p class="verdict-line">{summary["lines"]} of {total} lines ({share}) of the bot\'s own '
            f'code reached</p>' + runs + table + never + "".join(sources) + "</section>")


def _sources(run: Any) -> dict[str, tuple[list[str], dict[int, bool]]]:
    """Each file's lines and, for each line that can run, whether the run reached it, by the
    name the summary shows."""
    root = getattr(run, "coverage_root", None) or ""
    reached = getattr(run, "coverage_reached", set())
    out = {}
    for path in getattr(run, "coverage_files", []):
        source = compiled(path)
        if source is None:
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read().splitlines()
        except OSError:
            continue
        if len(text) > SOURCE_LINES_SHOWN:
            continue
        shown = os.path.relpath(path, root) if root and path.startswith(root.rstrip(os.sep) + os.sep) else path
        out[shown] = (text, {line: s in reached for line, s in source.line_slots.items()})
    return out


def _source_html(number: int, shown: str, text: list[str], status: dict[int, bool]) -> str:
    lines = []
    for n, line in enumerate(text, 1):
        cls = "" if n not in status else (" hit" if status[n] else " miss")
        lines.append(f'<span class="src{cls}"><span class="ln">{n}</span>{_esc(line) or " "}</span>')
    reached = sum(status.values())
    return (f'<details class="cov-src" id="cov-{number}"><summary><code>{_esc(shown)}</code>: '
            f'{reached} of {len(status)} lines reached; red: never reached</summary>'
            f'<pre class="source">{"".join(lines)}</pre></details>')


CSS = """
table.cov{border-collapse:collapse;font-size:13px;margin:8px 0}
table.cov th{text-align:left;color:var(--dim);font-weight:600;border-bottom:1px solid var(--line);padding:3px 10px 3px 0}
table.cov td{padding:3px 10px 3px 0;border-bottom:1px solid var(--line);vertical-align:top}
table.cov td.num{text-align:right;white-space:nowrap}table.cov td.path{font-family:ui-monospace,monospace}
table.cov td.missing{font-family:ui-monospace,monospace;color:var(--fail);max-width:34em;overflow-wrap:anywhere}
table.cov td.barcell{white-space:nowrap}
table.cov .bar{display:inline-block;width:120px;height:10px;border-radius:3px;vertical-align:middle;
background:linear-gradient(90deg,var(--pass) var(--p),var(--fail-bg) var(--p));border:1px solid var(--line)}
details.cov-src{margin:6px 0}details.cov-src summary{cursor:pointer;font-size:13px}
pre.source{font-size:12px;line-height:1.35;border:1px solid var(--line);border-radius:6px;max-height:520px;overflow:auto;margin:4px 0;padding:4px 0}
pre.source .src{display:block;padding:0 8px;white-space:pre}
pre.source .ln{display:inline-block;width:4em;color:var(--dim);text-align:right;margin-right:12px;user-select:none}
pre.source .hit{background:var(--pass-bg)}pre.source .miss{background:var(--fail-bg)}
"""

#: A link to a file's source opens it.
JS = """
(function(){function open(){const h=location.hash;if(!h.startsWith('#cov-'))return;
const d=document.getElementById(h.slice(1));if(d&&d.tagName==='DETAILS'){d.open=true;d.scrollIntoView();}}
window.addEventListener('hashchange',open);open();})();
"""
