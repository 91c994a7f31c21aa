"""``cardtable --sandbox --game foist --bots 2`` in a real browser: the distribution's Chromium, driven by
Selenium through the distribution's chromedriver (no driver or browser is downloaded: Selenium Manager is
skipped, and the test checks it was), plays a whole Foist game against two normal AI seats by clicking the
page's buttons, and saves a screenshot of the end (``BROWSER_SCREENSHOT=docs/gallery/browser-foist.png``
puts it in the gallery; by default it goes to the test's temporary folder). Then every game's table on a
phone-sized screen and on a desktop one: the channel list behind its button, the table picture across the
channel, no word broken in the middle (``PHONE_SCREENSHOTS=<folder>`` keeps the phone screenshots).

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
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from bot.sandbox_page import YOUR_NAME, PageSession, sandbox_page
from engine import GAMES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="no Chromium: install it with `apt-get install chromium chromium-driver` (Debian)",
)
CARD_UP = re.compile(
    r"Card up:?\s+(?::fo_(?P<face>\d+)_[0-9a-f]{6}:|(?P<number>\d+))\s*with (?P<tokens>\d+) tokens?"
)
"""Foist's card up in a table message's text, its card emoji read as its alt text: the face's number, or
the number where the card has no emoji."""
MOVE = re.compile(r"move (\d+)")
INJECTION = '**<b>bold</b>** <img src=x onerror="document.body.dataset.hacked=1"><script>alert(1)</script>'
"""A message whose HTML the page must show as text."""
TABLE_SCRIPT = """
const tables = [...document.querySelectorAll('#messages li.message:not(.ephemeral)')].filter((item) =>
  /Card up|final scores/.test(item.innerText));
const table = tables[tables.length - 1];
const cards = table ? table.cloneNode(true) : null;  // card emojis read as their alt text (:fo_14_...:)
if (cards) cards.querySelectorAll('img.emoji').forEach((image) => image.replaceWith(image.alt));
return {id: table ? table.dataset.id : null, text: table ? table.innerText : '',
        cards: cards ? cards.textContent : '',
        ephemerals: document.querySelectorAll('#messages li.ephemeral').length};
"""

PHONE = (390, 844)
"""A phone's screen in CSS pixels, held upright."""
DESKTOP = (1280, 900)
HAND_SCRIPT = """
const hands = [...document.querySelectorAll('#messages li.ephemeral')];
const hand = hands[hands.length - 1];
if (!hand) return null;
hand.scrollIntoView();
const rect = hand.getBoundingClientRect();
return {text: hand.innerText, width: rect.width, height: rect.height};
"""
"""The player's latest ephemeral message (their private view), scrolled into sight: its text and box."""
GAME_DECKS = {"foist": "fo", "minimize": "fw", "tokenize": "fw", "eradicize": "fw", "declare": "iv"}
"""The deck whose card emojis each game's table shows (French suits for the others)."""
LAYOUT_SCRIPT = """
const [id] = arguments;
const box = (element) => {
  if (!element || getComputedStyle(element).display === 'none') return null;
  const rect = element.getBoundingClientRect();
  return {left: rect.left, width: rect.width, height: rect.height};
};
const item = document.querySelector(`#messages li[data-id="${id}"]`);
const picture = item && !item.querySelector('button[data-custom-id*="start"]')
  ? item.querySelector('.gallery img') : null;
if (!picture || !picture.complete || !picture.naturalWidth) return null;  // the table, drawn, not the lobby
// A word broken across lines has rects on two lines: look at every run of letters and digits (but in
// links: a URL may break anywhere, as in Discord).
const broken = [];
const range = document.createRange();
const texts = document.createTreeWalker(document.getElementById('messages'), NodeFilter.SHOW_TEXT);
for (let node = texts.nextNode(); node; node = texts.nextNode()) {
  if (node.parentElement.closest('a')) continue;
  for (const word of node.data.matchAll(/[\\p{L}\\p{N}]+/gu)) {
    range.setStart(node, word.index);
    range.setEnd(node, word.index + word[0].length);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const lines = new Set(rects.map((r) => Math.round(r.bottom)));
    if (lines.size > 1) broken.push(`${word[0]} in ${node.parentElement.outerHTML.slice(0, 160)}`);
  }
}
const clipped = (element) => getComputedStyle(element).overflowX !== 'visible';
const overflowing = [...document.querySelectorAll('#messages li.message, #messages li.message *')]
  .filter((element) => element.scrollWidth > element.clientWidth + 1 && clipped(element))
  .map((element) => element.className || element.tagName);
return {
  viewport: innerWidth, page_width: document.documentElement.scrollWidth,
  sidebar: box(document.getElementById('sidebar')), toggle: box(document.getElementById('sidebar-toggle')),
  main: box(document.querySelector('main')), messages: box(document.getElementById('messages')),
  picture: {...box(picture), natural_width: picture.naturalWidth, natural_height: picture.naturalHeight,
            room: picture.parentElement.clientWidth},
  text: item.innerText, broken, overflowing,
};
"""
"""Where the table message ``id`` and the page around it are drawn (null until its picture is loaded)."""


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
                card_up = CARD_UP.search(table["cards"])
                assert card_up, table["cards"]
                card = int(card_up["face"] or card_up["number"])
                take = int(card_up["tokens"]) * 3 >= card - 6
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

        # A link to the table shows as Discord shows it and jumps there; any other URL is a link (its
        # quotes inside it, the closing quote and full stop after it).
        channel, guild = session.channel, session.channel.guild
        links = (
            f"back to https://discord.com/channels/{guild.id}/{channel.id}/{table['id']}, "
            'or https://example.com/?q="onmouseover="document.body.dataset.hacked=1".'
        )
        in_loop(lambda: session.server.post_message(mallory, channel, links))
        path = "//li[contains(@class, 'message')][.//a[starts-with(@href, 'https://example.com')]]"
        posted = WebDriverWait(browser, 5, 0.02).until(lambda d: d.find_element(By.XPATH, path))
        url = posted.find_element(By.CSS_SELECTOR, "a.url")
        assert (
            url.get_attribute("href")
            == "https://example.com/?q=%22onmouseover=%22document.body.dataset.hacked=1"
        )
        assert url.get_attribute("onmouseover") is None and posted.text.endswith('hacked=1".')
        jump = posted.find_element(By.CSS_SELECTOR, ".channel-link")
        assert jump.text == "#card-table › 💬"
        jump.click()
        top = "return document.querySelector(`li[data-id='${arguments[0]}']`).getBoundingClientRect().top"
        title = browser.find_element(By.ID, "channel-bar").rect
        assert abs(browser.execute_script(top, table["id"]) - (title["y"] + title["height"])) < 2
        # A masked link to the table (the turn notices' "Go to the table") shows its words and jumps too.
        masked = f"[Go to the table](https://discord.com/channels/{guild.id}/{channel.id}/{table['id']})"
        in_loop(lambda: session.server.post_message(mallory, channel, f"it is your turn. {masked}"))
        button = "//li[contains(@class, 'message')]//button[contains(@class, 'channel-link')]"
        button += "[. = 'Go to the table']"
        WebDriverWait(browser, 5, 0.02).until(lambda d: d.find_element(By.XPATH, button))
        click = "document.evaluate(arguments[0], document, null, 9, null).singleNodeValue.click()"
        browser.execute_script(click, button)  # found and pressed at once: the list may be redrawn between
        assert abs(browser.execute_script(top, table["id"]) - (title["y"] + title["height"])) < 2
        plain = "//li[contains(@class, 'message')]//a[. = 'Go to the table']"
        assert not browser.find_elements(By.XPATH, plain)  # a jump on the page, not a link to discord.com
    assert session.server.violations == []


def _screen(driver: webdriver.Chrome, size: tuple[int, int], *, phone: bool) -> None:
    """Show the page as on a screen of ``size`` CSS pixels: a phone's (its viewport, touch, twice the
    pixels) or a desktop's."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone},
    )


def _layout(driver: webdriver.Chrome, table_id: str) -> dict[str, Any]:
    return WebDriverWait(driver, 10, 0.05).until(lambda d: d.execute_script(LAYOUT_SCRIPT, table_id))


def _is_open(driver: webdriver.Chrome) -> bool:
    sidebar = driver.find_element(By.ID, "sidebar")
    expanded = driver.find_element(By.ID, "sidebar-toggle").get_attribute("aria-expanded") == "true"
    assert sidebar.is_displayed() == expanded
    return expanded


def _check_the_sidebar_toggle(driver: webdriver.Chrome, screenshot: Path) -> None:
    """On a phone the channel list opens with ☰ (``screenshot`` is taken then) and closes on picking a
    channel, on the shade beside it and with Escape."""
    toggle, title = driver.find_element(By.ID, "sidebar-toggle"), driver.find_element(By.ID, "channel-title")
    assert not _is_open(driver)
    toggle.click()
    assert _is_open(driver)
    assert driver.find_element(By.ID, "sidebar").rect["width"] <= 0.9 * PHONE[0]
    driver.save_screenshot(str(screenshot))
    channel = "//button[contains(@class, 'channel') and contains(., '{}')]"
    driver.find_element(By.XPATH, channel.format("Direct message")).click()
    assert not _is_open(driver) and title.text == "Direct message with the bot"
    toggle.click()
    driver.find_element(By.XPATH, channel.format("card-table")).click()
    assert not _is_open(driver) and title.text == "# card-table"
    toggle.click()
    tap = ActionBuilder(driver)
    tap.pointer_action.move_to_location(PHONE[0] - 20, PHONE[1] // 2).click()  # on the shade over a message
    tap.perform()
    assert not _is_open(driver) and title.text == "# card-table"
    toggle.click()
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    assert not _is_open(driver)


def test_every_game_on_a_phone_and_on_a_desktop_screen(tmp_path: Path, browser: webdriver.Chrome) -> None:
    shots = Path(os.environ.get("PHONE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    for index, game in enumerate(GAMES):
        # The AI seats wait long: the table stays as it is while it is measured.
        settings = {"ai_pause_seconds": 60, "card_emoji_decks": [GAME_DECKS.get(game, "fr")]}
        with page_in_thread(tmp_path / game, game=game, bots=2, **settings) as (session, _):
            _screen(browser, PHONE, phone=True)
            browser.get(session.page.url)
            assert session.table is not None
            table_id = str(session.table.id)
            _click(browser, table_id, "Start")
            phone = _layout(browser, table_id)
            browser.execute_script(  # the screenshot shows the table from its top, as a player scrolls to it
                "document.querySelector(`li[data-id='${arguments[0]}']`).scrollIntoView()", table_id
            )
            browser.save_screenshot(str(shots / f"phone-{game}.png"))
            where = f"{game} on a phone: {phone}"
            assert phone["sidebar"] is None and phone["toggle"] is not None, where
            assert phone["page_width"] <= phone["viewport"] == PHONE[0], where  # nothing to scroll sideways
            assert phone["main"]["width"] == phone["messages"]["width"] == PHONE[0], where
            assert phone["picture"]["width"] >= max(300, 0.85 * phone["messages"]["width"]), where
            assert phone["broken"] == [] and phone["overflowing"] == [], where
            if index == 0:
                _check_the_sidebar_toggle(browser, shots / "phone-channels.png")
            # "My hand" on a phone: what is the player's alone, legible, no word broken.
            _click(browser, table_id, "My hand")
            hand = WebDriverWait(browser, 10, 0.05).until(lambda d: d.execute_script(HAND_SCRIPT))
            browser.save_screenshot(str(shots / f"phone-{game}-hand.png"))
            where = f"{game}'s private view on a phone: {hand}"
            assert "\nYour hand · " in hand["text"] and "Players" not in hand["text"], where
            assert hand["width"] <= PHONE[0] and _layout(browser, table_id)["broken"] == [], where

            _screen(browser, DESKTOP, phone=False)
            desktop = _layout(browser, table_id)
            where = f"{game} on a desktop: {desktop}"
            assert desktop["toggle"] is None and desktop["sidebar"]["width"] == 220, where
            assert desktop["main"]["left"] == 220 and desktop["main"]["width"] == DESKTOP[0] - 220, where
            picture = desktop["picture"]
            tall = 420 * picture["natural_width"] / picture["natural_height"]  # page.css: at most 420 px high
            shown = min(picture["natural_width"], picture["room"], tall)
            assert picture["width"] >= shown - 1, where  # as large as it is drawn, or as fits
            assert desktop["broken"] == [] and desktop["overflowing"] == [], where
        assert session.server.violations == []
