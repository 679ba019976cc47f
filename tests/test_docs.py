"""The documentation (issue 30, item 5): the MkDocs site under docs/ builds with
`mkdocs build --strict` (mkdocs.yml at the root: dead links and anchors are errors), every link
and image of the built pages leads somewhere, and so does every link of README.md, which
stays short (the docs hold the rest).

Without MkDocs (pip install -e '.[docs]'; the test extra has it, so .ci/run installs it) the
build is skipped; README's links are checked either way.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: A markdown link or image outside code: [text](target) or ![alt](target).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


class _Page(HTMLParser):
    """The ids and the links (a href, img src) of one built page."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        target = attrs.get("href") if tag in ("a", "link") else attrs.get("src") if tag in ("img", "script") else None
        if target:
            self.links.append(target)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    try:
        import mkdocs  # noqa: F401
        import material  # noqa: F401
    except ImportError:
        pytest.skip("mkdocs or mkdocs-material is not installed (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
                           "--site-dir", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def _markdown_links(text: str) -> list[str]:
    """The link targets of a markdown text, outside fenced code and inline code."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def _built(site: Path, doc: Path) -> Path:
    """The HTML page MkDocs builds from docs/X.md (directory URLs: X/index.html)."""
    relative = doc.relative_to(DOCS).with_suffix("")
    if relative.name == "index":
        return site / relative.parent / "index.html"
    return site / relative / "index.html"


def test_the_site_builds_strictly_and_every_internal_link_and_anchor_resolves(site):
    pages = {path: _parse(path) for path in site.rglob("*.html")}
    ours = [path for path in pages if path.name == "index.html" and "assets" not in path.parts and path.parent.name != "search"]
    assert len(ours) >= 15, sorted(str(p.relative_to(site)) for p in ours)
    dead = []
    for path in ours:
        for target in pages[path].links:
            parts = urlsplit(target)
            if parts.scheme or target.startswith("//") or target.startswith("mailto:"):
                continue
            file = (path.parent / unquote(parts.path)) if parts.path else path
            if file.is_dir():
                file = file / "index.html"
            if not file.exists():
                dead.append(f"{path.relative_to(site)}: {target} (no such file)")
            elif parts.fragment and file.suffix == ".html":
                ids = pages[file.resolve()].ids if file.resolve() in pages else _parse(file).ids
                if unquote(parts.fragment) not in ids:
                    dead.append(f"{path.relative_to(site)}: {target} (no such anchor)")
    assert not dead, "\n".join(dead)


def test_every_docs_page_is_in_the_navigation_and_built(site):
    for doc in DOCS.rglob("*.md"):
        assert _built(site, doc).is_file(), doc


def test_readmes_links_resolve(site):
    """README's links: files of the repository; a link into docs/ with an anchor, to a
    heading of that page as the site builds it."""
    dead = []
    for target in _markdown_links(README.read_text(encoding="utf-8")):
        parts = urlsplit(target)
        if parts.scheme:
            continue
        file = (ROOT / unquote(parts.path)).resolve()
        if not file.exists():
            dead.append(f"{target} (no such file)")
        elif parts.fragment:
            assert file.suffix == ".md" and DOCS in file.parents, f"{target}: an anchor outside docs/"
            if parts.fragment not in _parse(_built(site, file)).ids:
                dead.append(f"{target} (no such anchor)")
    assert not dead, "\n".join(dead)


def test_readme_files_exist_without_mkdocs():
    missing = [t for t in _markdown_links(README.read_text(encoding="utf-8"))
               if not urlsplit(t).scheme and not (ROOT / unquote(urlsplit(t).path)).exists()]
    assert not missing, missing


def test_the_readme_stays_short_and_shows_both_screenshots():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for image in ("docs/img/html-failing-game.png", "docs/img/terminal-live.png"):
        assert f"]({image})" in text and (ROOT / image).is_file(), image
