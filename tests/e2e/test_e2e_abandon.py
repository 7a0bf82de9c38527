"""An abandoned friend game claimed for real, in browsers: a server whose abandon delay is
a few seconds (``ABANDON_MS``), one player closes the tab, the other sees the countdown
run out, the claim button appear, claims the win, and a spectator sees the result."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import LiveServer, running_server

pytestmark = pytest.mark.e2e

ABANDON_MS = 4_000


@pytest.fixture
def quick_abandon_server(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(tmp_path / "instance", env={"ABANDON_MS": str(ABANDON_MS)}) as server:
        yield server


def _context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport={"width": 1280, "height": 800})


def _friend_game(browser: Browser, server: LiveServer, ui: Any) -> tuple[Page, Page, str]:
    host = _context(browser).new_page()
    guest = _context(browser).new_page()
    game_id = ui.create_game(host.context, server.url, mode="friend", color="black")
    url = f"{server.url}/g/{game_id}"
    host.goto(url)
    ui.join_as_guest(guest, url)
    expect(host.locator("#status")).to_have_text("Your turn")
    for page, other, point in ((host, guest, (7, 7)), (guest, host, (8, 8))):
        count = ui.move_count(page)
        ui.click_point(page, *point)
        expect(other.locator("#game")).to_have_attribute("data-move-count", str(count + 1))
    return host, guest, url


def test_the_player_who_stayed_claims_the_win_after_a_real_countdown(
    browser: Browser, quick_abandon_server: LiveServer, ui: Any
) -> None:
    host, guest, url = _friend_game(browser, quick_abandon_server, ui)
    watcher = _context(browser).new_page()
    try:
        watcher.goto(url)
        expect(watcher.locator("#game")).to_have_attribute("data-move-count", "2")
        guest.context.close()
        claim = host.get_by_role("button", name="Claim victory")
        text = host.locator("#abandon-text")
        expect(text).to_have_text(
            re.compile(r"^White has left\. You can claim the win in 0:0\d\.$")
        )
        expect(claim).to_be_hidden()
        expect(watcher.locator("#abandon-text")).to_have_text("White has left the game.")
        # The server publishes again when the claim becomes possible.
        expect(claim).to_be_visible(timeout=ABANDON_MS + 10_000)
        expect(text).to_have_text("White has left. You can claim the win now.")
        ui.screenshot(host, "abandon-claim-real")
        claim.click()
        for page in (host, watcher):
            expect(page.locator("#result-title")).to_have_text("Black wins — white left the game")
        expect(host.locator("#result-sub")).to_have_text(re.compile("You won"))
        expect(host.locator("#abandon-box")).to_be_hidden()
        expect(claim).to_be_hidden()
    finally:
        host.context.close()
        watcher.context.close()
