"""``cardtable --sandbox --game foist --bots 2`` in a real browser: the distribution's Chromium, driven by
Selenium through the distribution's chromedriver (no driver or browser is downloaded: Selenium Manager is
skipped, and the test checks it was), plays a whole Foist game against two normal AI seats by clicking the
page's buttons, and saves a screenshot of the end (``BROWSER_SCREENSHOT=docs/gallery/browser-foist.png``
puts it in the gallery; by default it goes to the test's temporary folder).

Skipped, alone, where no Chromium is installed."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from bot.sandbox_page import YOUR_NAME, PageSession, sandbox_page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="no Chromium: install it with `apt-get install chromium chromium-driver` (Debian)",
)
CARD_UP = re.compile(r"Card up:?\s+(?P<card>\d+) with (?P<tokens>\d+) tokens?")
MOVE = re.compile(r"move (\d+)")
INJECTION = '**<b>bold</b>** <img src=x onerror="document.body.dataset.hacked=1"><script>alert(1)</script>'
"""A message whose HTML the page must show as text."""
TABLE_SCRIPT = """
const tables = [...document.querySelectorAll('#messages li.message:not(.ephemeral)')].filter((item) =>
  /Card up|final scores/.test(item.innerText));
const table = tables[tables.length - 1];
return {id: table ? table.dataset.id : null, text: table ? table.innerText : '',
        ephemerals: document.querySelectorAll('#messages li.ephemeral').length};
"""


@contextmanager
def page_in_thread(folder: Path, **options: Any) -> Iterator[tuple[PageSession, Callable[[Callable], Any]]]:
    """:func:`bot.sandbox_page.sandbox_page` running in an event loop of its own thread (Selenium blocks),
    and a function that calls a function in that thread (the sandbox is not thread-safe)."""
    started, held = threading.Event(), {}

    async def serve() -> None:
        stop = asyncio.Event()
        async with sandbox_page(folder, **options) as session:
            held.update(session=session, loop=asyncio.get_running_loop(), stop=stop)
            started.set()
            await stop.wait()

    def run() -> None:
        try:
            asyncio.run(serve())
        except BaseException as error:  # shown by the test, not lost in the thread
            held["error"] = error
            started.set()

    thread = threading.Thread(target=run, name="sandbox-page", daemon=True)
    thread.start()
    started.wait(60)
    if "error" in held:
        raise held["error"]

    def in_loop(function: Callable) -> Any:
        async def call() -> Any:
            return function()

        return asyncio.run_coroutine_threadsafe(call(), held["loop"]).result(10)

    try:
        yield held["session"], in_loop
    finally:
        held["loop"].call_soon_threadsafe(held["stop"].set)
        thread.join(30)
    if "error" in held:
        raise held["error"]


@pytest.fixture
def browser(caplog: pytest.LogCaptureFixture) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,1250"):
        options.add_argument(argument)
    caplog.set_level(logging.DEBUG, logger="selenium.webdriver.common.driver_finder")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    assert "Skipping Selenium Manager" in caplog.text  # the system's chromedriver, nothing downloaded
    try:
        yield driver
    finally:
        driver.quit()


def _click(driver: webdriver.Chrome, message_id: str, label: str) -> None:
    """Click the button of message ``message_id`` whose label starts with ``label`` (the page redraws a
    message on each edit: a button found just before may be gone, so look again)."""
    path = f"//li[@data-id='{message_id}']//button[starts-with(normalize-space(.), '{label}')]"
    for _ in range(20):
        try:
            WebDriverWait(driver, 5, 0.02).until(lambda d: d.find_element(By.XPATH, path).is_enabled())
            driver.find_element(By.XPATH, path).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"no {label!r} button to click on message {message_id}")


def _to_act(driver: webdriver.Chrome, acted_at: str | None, refusals: int) -> dict[str, Any] | None:
    """The table message (``{"id", "text", "ephemerals"}``) once the game ended, it is your turn at another
    move than ``acted_at``, or an ephemeral answer came (more than ``refusals``); else None."""
    table = driver.execute_script(TABLE_SCRIPT)
    if "final scores" in table["text"]:
        return table
    move = MOVE.search(table["text"])
    mine = f"Turn: {YOUR_NAME}" in table["text"] and move is not None and move[1] != acted_at
    return table if mine or table["ephemerals"] > refusals else None


def test_a_whole_foist_game_against_ai_seats_by_clicking_in_chromium(
    tmp_path: Path, browser: webdriver.Chrome
) -> None:
    fast = {"ai_pause_seconds": 0, "card_emoji_decks": ["fo"]}
    with page_in_thread(tmp_path, game="foist", bots=2, **fast) as (session, in_loop):
        browser.get(session.page.url)
        body = browser.find_element(By.TAG_NAME, "body")
        WebDriverWait(browser, 10, 0.05).until(lambda _: body.get_attribute("data-ready"))
        lobby = browser.find_elements(By.CSS_SELECTOR, "#messages li.message")[0]
        assert "table open" in lobby.text and f"{YOUR_NAME} used /play" in lobby.text
        _click(browser, lobby.get_attribute("data-id"), "Start")

        acted_at, clicks, refusals, seen_emojis = None, 0, 0, False
        while True:
            table = WebDriverWait(browser, 10, 0.02).until(lambda d, a=acted_at, r=refusals: _to_act(d, a, r))
            if "final scores" in table["text"]:
                break
            seen_emojis = seen_emojis or bool(browser.find_elements(By.CSS_SELECTOR, "li img.emoji"))
            if table["ephemerals"] > refusals:  # "you have no tokens left": only you see it; take the card
                _click(browser, table["id"], "Take")
                refusals = table["ephemerals"]
            else:
                card_up = CARD_UP.search(table["text"])
                assert card_up, table["text"]
                take = int(card_up["tokens"]) * 3 >= int(card_up["card"]) - 6
                _click(browser, table["id"], "Take" if take else "No thanks")
            acted_at = MOVE.search(table["text"])[1]
            clicks += 1

        assert clicks >= 5 and seen_emojis
        assert "final scores" in table["text"] and "Ada" in table["text"] and "Alan" in table["text"]
        assert browser.find_elements(By.CSS_SELECTOR, f"li[data-id='{table['id']}'] .gallery img")
        screenshot = Path(os.environ.get("BROWSER_SCREENSHOT") or tmp_path / "browser-foist.png")
        shot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
        shot.quantize(colors=128).save(screenshot, optimize=True)  # a third of the bytes, looks the same

        # Someone's message arrives live, its HTML shown as text and run as nothing.
        mallory = in_loop(lambda: session.channel.guild.add_member("mallory"))
        in_loop(lambda: session.server.post_message(mallory, session.channel, INJECTION))
        path = "//li[contains(@class, 'message')][.//span[@class='author'][text()='mallory']]"
        posted = WebDriverWait(browser, 5, 0.02).until(lambda d: d.find_element(By.XPATH, path))
        assert "<b>bold</b>" in posted.text and "<script>" in posted.text
        assert not posted.find_elements(By.CSS_SELECTOR, "b, script, img:not(.emoji)")
        assert body.get_attribute("data-hacked") is None
    assert session.server.violations == []
