"""The `--html` page in a real browser (issue 24, item 3): headless Chromium driven by
selenium opens the page of a failing check of a chess, an Impasse, a LOA and a Halma bot
(the broken bots of tests/bots), steps to the failing move with the keyboard and the
buttons, and reads the board the DOM shows at each ply against the position the rules
give there. A screenshot of each page goes to $PROTOTEST_SCREENSHOTS (default: the test's
tmp_path) and must not be blank.

Without chromium, chromedriver or selenium these tests are skipped, unless
PROTOTEST_REQUIRE_BROWSER=1 (as .ci/run sets it): then they fail, so CI never skips them.
One browser serves the whole module.
"""

from __future__ import annotations

import json
import os
import time
import shutil
from pathlib import Path

import pytest

from conftest import BOTS, ROOT, run_cli
from prototest import games
from prototest.judge import spec as specmod

#: game -> (broken bot, moves played before the bot's first turn: the failure comes later)
CASES = {
    "chess": ("illegal_move.py", "e2e4,e7e5,g1f3,b8c6,f1c4,g8f6"),
    "impasse": ("upside_down.py", "c7a5,b2e5,g7h6,f2d4,d2e3,e5g7,e3g5,d4b6,a1f6,g1c5"),
    "loa": ("own_count.py", "b1b3,a5c3,d1f3,h3f1,f8f5,a2c2,c1a3,c3d4,e1b1,h7f7"),
    "halma": ("revisits_cell.py", None),
}
WIDTH, HEIGHT = 1280, 800


def _browser_missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            return f"{program} is not installed (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _browser_missing()
    if missing is not None:
        if os.environ.get("PROTOTEST_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{missing} and PROTOTEST_REQUIRE_BROWSER=1")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={WIDTH},{HEIGHT}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(30)
    viewport(driver, WIDTH, HEIGHT)
    try:
        yield driver
    finally:
        driver.quit()


def viewport(driver, width: int, height: int) -> None:
    """The page's own size (a window's size includes its frame)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PROTOTEST_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def positions(game: str, moves: list[str]) -> list[str]:
    """The notation after each ply, as the rules give it (the start is ply 0)."""
    spec = specmod.load(games.game(game).spec)
    _, rules = specmod.bind(spec)
    position = rules.initial()
    out = [position.notation()]
    for move in moves:
        position = position.play(move)
        out.append(position.notation())
    return out


def board_at(driver) -> tuple[int, str, str | None]:
    """The ply the first viewer shows, its board's position, and its SVG's (if drawn)."""
    return tuple(driver.execute_script("""
        const b = document.querySelector('.viewer .board');
        const svg = b.querySelector('svg');
        return [+b.dataset.ply, b.dataset.position, svg ? svg.getAttribute('data-position') : null];"""))


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_failing_game_steps_to_its_failure_in_a_browser(browser, game, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    bot, moves = CASES[game]
    page = tmp_path / f"{game}.html"
    args = ["check", "--game", game, "--games", "2", "--html", str(page)]
    if moves:
        args += ["--moves", moves]
    result = run_cli(*args, "--", "python3", str(BOTS / game / bot), tmp_path=tmp_path)
    assert result.code == 1, result.stderr
    finding = next(f for f in result.report["findings"] if f["severity"] == "fail" and f["game"] == 1)
    assert finding["kind"] == "illegal_move"
    expected = positions(game, finding["moves"])
    failing = len(finding["moves"])
    assert expected[failing] == finding["position"]

    browser.get(page.as_uri())
    assert board_at(browser)[:2] == (failing, finding["position"])  # it opens at the failure
    press(browser, Keys.HOME)
    assert board_at(browser)[:2] == (0, expected[0])
    for ply in range(1, failing + 1):  # the keyboard, then the buttons
        if ply % 2:
            press(browser, Keys.ARROW_RIGHT)
        else:
            browser.find_element(By.CSS_SELECTOR, ".viewer button[data-go=next]").click()
        shown, position, drawn = board_at(browser)
        assert (shown, position) == (ply, expected[ply])
        assert drawn in (None, position)
    press(browser, Keys.END)
    last = browser.execute_script("return +document.querySelector('.viewer').dataset.last")
    assert board_at(browser)[0] == last
    browser.find_element(By.CSS_SELECTOR, ".viewer button[data-go=failing]").click()
    shown, position, drawn = board_at(browser)
    assert (shown, position) == (failing, finding["position"]) and drawn in (None, position)
    info = browser.find_element(By.CSS_SELECTOR, ".viewer .moveinfo").text
    assert "refused by the judge" in info
    here = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".viewer .tl.here")]
    assert any("FAIL illegal_move:" in line for line in here), here

    if game == "chess":  # a narrow window: the moves and the transcript go below the board, nothing sticks out
        viewport(browser, 420, HEIGHT)
        try:
            left, right, overflow = browser.execute_script("""
                const v = document.querySelector('.viewer');
                return [v.querySelector('.left').getBoundingClientRect().bottom,
                        v.querySelector('.right').getBoundingClientRect().top,
                        document.documentElement.scrollWidth];""")
            assert right >= left and overflow <= 420
        finally:
            viewport(browser, WIDTH, HEIGHT)
    browser.execute_script("document.querySelector('#game-1').scrollIntoView(); window.scrollBy(0, -12)")
    shot = screenshots(tmp_path) / f"{game}.png"
    assert browser.save_screenshot(str(shot))
    with Image.open(shot) as image:
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 200, f"{shot}: {len(colours or [])} colours"
        assert max(n for n, _ in colours) < 0.9 * rgb.width * rgb.height, f"{shot}: mostly one colour"


def test_a_long_game_steps_through_its_compressed_boards(browser, tmp_path):
    """A 200-ply Halma fixture: its boards are embedded compressed and inflated by the
    browser; every ply's drawn board is the position of that ply."""
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "halma-long.html"
    result = run_cli("show", str(ROOT / "fixtures" / "halma-blocker.txt"), "--html", str(page))
    assert result.code == 0, result.stderr
    assert '"gz":' in page.read_text()
    browser.get(page.as_uri())
    positions = browser.execute_script(
        "return JSON.parse(document.querySelector('script.game-data').textContent).positions")
    assert len(positions) == 201
    for key, ply in ((Keys.END, 200), (Keys.HOME, 0), (Keys.ARROW_RIGHT, 1), (Keys.ARROW_RIGHT, 2)):
        press(browser, key)
        for _ in range(50):  # the boards are inflated asynchronously
            shown, position, drawn = board_at(browser)
            if drawn is not None:
                break
            time.sleep(0.05)
        assert (shown, position, drawn) == (ply, positions[ply], positions[ply])


def test_the_docs_screenshot_of_a_failing_check(browser, tmp_path):
    """The page of a real check of a broken bot, as README.md and the docs show it
    (tests/screenshots.py): it opens at the first failing game's refused move, and no path
    of this machine shows. PROTOTEST_DOCS_SCREENSHOTS=docs/img saves it there."""
    from PIL import Image
    from screenshots import DOCS_COMMAND, bot_folder, folder_for_screenshots

    work = bot_folder(tmp_path)
    result = run_cli("check", "--game", "chess", "--html", "report.html", "--json", "report.json",
                     "--", *DOCS_COMMAND, tmp_path=work, transcripts=False)
    assert result.code == 1, result.stdout + result.stderr
    report = json.loads((work / "report.json").read_text())
    first = min((f for f in report["findings"] if f["severity"] == "fail"), key=lambda f: f["game"])
    assert first["kind"] == "illegal_move"
    viewport(browser, WIDTH, 1000)
    try:
        browser.get((work / "report.html").as_uri())
        assert board_at(browser)[:2] == (len(first["moves"]), first["position"])
        text = browser.execute_script("return document.body.innerText")
        assert text.startswith("FAIL: ") and "bot python3 -B bot.py" in text
        assert str(tmp_path) not in text and str(ROOT) not in text
        shot = folder_for_screenshots(tmp_path) / "html-failing-game.png"
        assert browser.save_screenshot(str(shot))
    finally:
        viewport(browser, WIDTH, HEIGHT)
    with Image.open(shot) as image:
        assert image.size == (WIDTH, 1000)
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 200


def test_the_coverage_section_of_a_fuzz_run_in_a_browser(browser, tmp_path):
    """A fuzz run of a Python bot with coverage: the page's table gives each of the bot's
    files with the JSON's figures, and a click on a file opens its source with each line
    that ran in green and each line never reached in red, as many as the JSON counts."""
    from selenium.webdriver.common.by import By

    bot = str(BOTS / "impasse" / "coverage_branches.py")
    result = run_cli("fuzz", "--game", "impasse", "--examples", "4", "--jobs", "1", "--budget", "0",
                     "--no-database", "--seed", "1", "--html", "page.html", bot, tmp_path=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    cov = result.report["coverage"]
    assert cov["state"] == "on", cov
    viewport(browser, WIDTH, 1000)
    try:
        browser.get((tmp_path / "page.html").as_uri())
        rows = browser.execute_script("""return [...document.querySelectorAll('table.cov tbody tr')].map(
            r => [...r.querySelectorAll('td')].map(td => td.innerText.trim()));""")
        assert [(r[0], r[1], r[3]) for r in rows] == [
            (f["path"], f"{f['lines']} / {f['total']}", f["missing"]) for f in cov["files"]]
        heading = browser.find_element(By.CSS_SELECTOR, "#coverage .verdict-line").text
        assert heading.startswith(f"{cov['lines']} of {cov['lines_total']} lines")
        number = next(i for i, f in enumerate(cov["files"], 1) if f["path"] == "coverage_branches.py")
        browser.find_element(By.CSS_SELECTOR, f'table.cov a[href="#cov-{number}"]').click()
        details = browser.find_element(By.ID, f"cov-{number}")
        for _ in range(40):
            if details.get_attribute("open") is not None:
                break
            time.sleep(0.05)
        assert details.get_attribute("open") is not None
        hit, miss = browser.execute_script(f"""const d = document.getElementById('cov-{number}');
            return [d.querySelectorAll('.src.hit').length, d.querySelectorAll('.src.miss').length];""")
        branches = cov["files"][number - 1]
        assert (hit, miss) == (branches["lines"], branches["total"] - branches["lines"])
        never = browser.execute_script(f"""return [...document.querySelectorAll('#cov-{number} .src.miss')]
            .map(s => s.innerText).join('\\n');""")
        assert 'return "never"' in never
        shot = screenshots(tmp_path) / "html-fuzz-coverage.png"
        assert browser.save_screenshot(str(shot))
    finally:
        viewport(browser, WIDTH, HEIGHT)
    from PIL import Image

    with Image.open(shot) as image:
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 50
