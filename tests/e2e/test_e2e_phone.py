"""Phones: at 390x844 nothing scrolls sideways on the home, game, players and not-found
pages, the language switch fits the header, the ratings table keeps W-L-D on one line and
Rating in view; a player on a touch screen is told that the first tap only previews; in
phone landscape (844x390) the board fits the screen's height."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


def phone_context(browser: Browser, viewport: dict[str, int] = PHONE) -> BrowserContext:
    return browser.new_context(
        viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True
    )


def scroll_width(page: Page) -> int:
    return int(page.evaluate("() => document.scrollingElement.scrollWidth"))


def overflowing(page: Page, width: int) -> list[str]:
    """Elements whose right edge passes the viewport (for a readable failure)."""
    found: list[str] = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > w + 0.5)
            .slice(0, 5).map(e => e.tagName + '.' + e.className)""",
        width,
    )
    return found


def test_nothing_scrolls_sideways_on_a_phone(browser: Browser, live_server, ui) -> None:
    context = phone_context(browser)
    try:
        page = context.new_page()
        game_id = ui.create_game(
            context, live_server.url, mode="ai", level=1, color="black", moves=[[7, 7], [8, 8]]
        )
        for name, path in [
            ("phone-home", "/"),
            ("phone-game", f"/g/{game_id}"),
            ("phone-players", "/players"),
            ("phone-not-found", "/g/no-such-game"),
        ]:
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            assert scroll_width(page) <= PHONE["width"], (path, overflowing(page, PHONE["width"]))
            switch = page.locator(".lang-switch").bounding_box()
            assert switch is not None and switch["x"] + switch["width"] <= PHONE["width"]
            ui.screenshot(page, name, full_page=True)
        # The same in Chinese, whose labels are different widths.
        page.get_by_role("link", name="简体中文").click()
        for path in ["/", f"/g/{game_id}", "/players"]:
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            assert scroll_width(page) <= PHONE["width"], (path, overflowing(page, PHONE["width"]))
    finally:
        context.close()


def test_ratings_table_fits_a_phone(browser: Browser, live_server) -> None:
    context = phone_context(browser)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/players")
        row = page.locator("tr.rating-row").first
        wld = row.locator(".wld")
        line_height = float(wld.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
        box = wld.bounding_box()
        assert box is not None
        # One line of text (plus the cell's padding), not three.
        assert box["height"] < line_height * 1.9
        rating = row.locator(".rating").bounding_box()
        wrap = page.locator(".table-wrap").bounding_box()
        assert rating is not None and wrap is not None
        assert rating["x"] + rating["width"] <= wrap["x"] + wrap["width"] + 0.5
        header = page.locator("th", has_text="Rating").bounding_box()
        assert header is not None and header["x"] + header["width"] <= PHONE["width"]
        # The card has room around its table.
        padding = page.locator(".ratings-card").evaluate(
            "e => parseFloat(getComputedStyle(e).paddingLeft)"
        )
        assert padding >= 12
    finally:
        context.close()


@pytest.fixture
def phone_game(browser: Browser, live_server, ui) -> Iterator[Page]:
    """A phone's page on a new game against the AI, the visitor playing black."""
    context = phone_context(browser)
    try:
        page = context.new_page()
        game_id = ui.create_game(context, live_server.url, mode="ai", level=1, color="black")
        page.goto(f"{live_server.url}/g/{game_id}")
        yield page
    finally:
        context.close()


def test_touch_players_learn_that_the_first_tap_previews(phone_game: Page) -> None:
    page = phone_game
    hint = page.locator("#touch-hint")
    expect(hint).to_be_visible()
    expect(hint).to_have_text("Tap a point to preview your stone, tap it again to place it.")
    board = page.locator("#board").bounding_box()
    box = hint.bounding_box()
    assert board is not None and box is not None
    assert box["y"] >= board["y"] + board["height"] - 1


def test_a_tap_previews_without_a_keyboard_cursor(phone_game: Page, ui) -> None:
    # The browser focuses the board after a tap; that focus must not turn on the keyboard
    # cursor, which would look like a second proposed move.
    page = phone_game
    expect(page.locator("#status")).to_have_text("Your turn")
    x, y = ui.point_position(page, 3, 3)
    page.touchscreen.tap(x, y)
    page.wait_for_function("() => window.gomokuGame.board.touchPreview !== null")
    page.wait_for_timeout(300)
    focused = page.evaluate("() => document.activeElement === window.gomokuGame.board.canvas")
    assert focused, "the tap did not focus the board, so this test checks nothing"
    assert page.evaluate("() => window.gomokuGame.board.keyboardMode") is False
    page.keyboard.press("ArrowRight")  # a key still brings the cursor
    assert page.evaluate("() => window.gomokuGame.board.keyboardMode") is True


def test_no_tap_hint_with_a_mouse(page: Page, live_server, ui) -> None:
    game_id = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#status")).to_have_text("Your turn")
    expect(page.locator("#touch-hint")).to_be_hidden()


def test_board_fits_a_phone_held_sideways(browser: Browser, live_server, ui) -> None:
    context = phone_context(browser, LANDSCAPE)
    try:
        page = context.new_page()
        game_id = ui.create_game(context, live_server.url, mode="ai", level=1, color="black")
        page.goto(f"{live_server.url}/g/{game_id}")
        expect(page.locator("#status")).to_have_text("Your turn")
        board: Any = page.locator("#board").bounding_box()
        assert board is not None
        assert board["height"] <= LANDSCAPE["height"]
        # Scrolled to the board, all of it is on the screen at once.
        page.locator("#board").scroll_into_view_if_needed()
        top = page.evaluate("() => document.getElementById('board').getBoundingClientRect().top")
        assert top >= -0.5 and top + board["height"] <= LANDSCAPE["height"] + 0.5
        assert scroll_width(page) <= LANDSCAPE["width"]
        ui.screenshot(page, "phone-landscape-game")
    finally:
        context.close()
