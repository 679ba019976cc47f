"""The docs' screenshots, made by the tests from real runs (README.md and docs/ show them).

tests/test_html_browser.py and tests/test_live_terminal.py run a real check of a broken chess
bot (tests/bots/chess/king_next_to_king.py), copied into a folder of a neutral name so that no
path of this machine shows, and save what a person sees: the --html page in Chromium, and the
terminal, which pyte emulates (cursor moves, erased lines, colours) and Pillow draws with
DejaVu Sans Mono (Debian's fonts-dejavu-core, which .ci/run installs). They go to the test's
tmp_path, or with PROTOTEST_DOCS_SCREENSHOTS=docs/img to the folder the docs take them from:

    PROTOTEST_DOCS_SCREENSHOTS=docs/img python -m pytest -q tests/test_html_browser.py tests/test_live_terminal.py -k docs
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
#: The docs' bot: it plays whole games, and now and then steps its king next to the other.
DOCS_BOT = BOTS / "chess" / "king_next_to_king.py"
#: Its command, as a person would type it in the bot's folder (-B: no bytecode cache written).
DOCS_COMMAND = ("python3", "-B", "bot.py")


def bot_folder(tmp_path: Path) -> Path:
    """A folder `mybot` holding the docs' bot as bot.py, and the module it imports."""
    folder = tmp_path / "mybot"
    folder.mkdir()
    shutil.copy(DOCS_BOT, folder / "bot.py")
    shutil.copy(DOCS_BOT.parent / "_common.py", folder / "_common.py")
    return folder


def folder_for_screenshots(tmp_path: Path) -> Path:
    """$PROTOTEST_DOCS_SCREENSHOTS (relative to the repository), else the test's tmp_path."""
    chosen = os.environ.get("PROTOTEST_DOCS_SCREENSHOTS")
    folder = (ROOT / chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder

FONTS = Path("/usr/share/fonts/truetype/dejavu")
BACKGROUND, FOREGROUND = (30, 30, 30), (220, 220, 220)
#: The 16 colours of a dark terminal theme (xterm's names, as pyte gives them).
COLOURS = {
    "black": (30, 30, 30), "red": (229, 83, 75), "green": (87, 196, 99), "brown": (222, 184, 72),
    "yellow": (222, 184, 72), "blue": (97, 145, 232), "magenta": (197, 120, 221), "cyan": (84, 190, 200),
    "white": (220, 220, 220), "brightblack": (128, 128, 128), "brightred": (255, 110, 100),
    "brightgreen": (120, 230, 130), "brightyellow": (255, 220, 100), "brightblue": (130, 170, 255),
    "brightmagenta": (220, 150, 240), "brightcyan": (120, 220, 230), "brightwhite": (255, 255, 255),
}


class Terminal:
    """A screen `columns` x `rows` that the program's output is fed to, chunk by chunk."""

    def __init__(self, columns: int, rows: int):
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)

    def feed(self, text: str) -> None:
        # A pseudo-terminal turns "\n" into "\r\n" (onlcr); pyte takes the bytes as written.
        self.stream.feed(text.replace("\r\n", "\n").replace("\n", "\r\n"))

    def text(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def png(self, path: Path, size: int = 15) -> None:
        from PIL import Image, ImageDraw, ImageFont

        regular = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), size)
        bold = ImageFont.truetype(str(FONTS / "DejaVuSansMono-Bold.ttf"), size)
        left, top, right, bottom = regular.getbbox("M")
        cell_w = round(regular.getlength("M"))
        cell_h = round(size * 1.3)
        pad = 12
        rows = self.screen.lines
        while rows > 1 and not self.text()[rows - 1]:
            rows -= 1  # no empty rows at the bottom
        image = Image.new("RGB", (pad * 2 + cell_w * self.screen.columns, pad * 2 + cell_h * rows), BACKGROUND)
        draw = ImageDraw.Draw(image)
        for y in range(rows):
            line = self.screen.buffer[y]
            for x in range(self.screen.columns):
                char = line[x]
                fg = _colour(char.fg, FOREGROUND, char.bold)
                bg = _colour(char.bg, BACKGROUND, False)
                if char.reverse:
                    fg, bg = bg, fg
                px, py = pad + x * cell_w, pad + y * cell_h
                if bg != BACKGROUND:
                    draw.rectangle([px, py, px + cell_w - 1, py + cell_h - 1], fill=bg)
                if char.data.strip():
                    draw.text((px, py + (cell_h - size) // 2), char.data, font=bold if char.bold else regular, fill=fg)
        image.save(path)


def _colour(name: str, default: tuple[int, int, int], bold: bool) -> tuple[int, int, int]:
    if name == "default":
        return default
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):  # 256 colours, true colour
        return tuple(int(name[i:i + 2], 16) for i in (0, 2, 4))
    return COLOURS.get(name, default)
