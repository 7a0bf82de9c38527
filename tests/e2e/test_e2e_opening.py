"""Two browsers play a swap2 opening to normal play: the first player places three
stones with the colour shown, the second places two more, the first takes white, and
the seats change hands on both pages. A renju Soosõrv-8 game shows its offered fifth
moves. Screenshots of the opening card at 1280x800 and 390x844 go to
tests/artifacts/screenshots/opening/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def wait_version(page: Page, ui: Any, above: int) -> dict[str, Any]:
    page.wait_for_function(
        "v => window.gomokuGame && window.gomokuGame.state.version > v", arg=above, timeout=15_000
    )
    return ui.state(page)  # type: ignore[no-any-return]


def place(page: Page, ui: Any, x: int, y: int) -> None:
    version = ui.state(page)["version"]
    # On a phone the header and the toasts cover the top: the board goes mid-screen.
    page.evaluate("() => document.getElementById('board').scrollIntoView({block: 'center'})")
    ui.click_point(page, x, y)
    wait_version(page, ui, version)


def test_a_swap2_opening_between_two_browsers(browser: Browser, live_server: Any, ui: Any) -> None:
    contexts = [browser.new_context(viewport=SIZES["desktop"]) for _ in range(2)]
    try:
        first, second = (context.new_page() for context in contexts)
        first.goto(live_server.url + "/")
        form = first.locator("#form-friend")
        form.locator('select[name="opening"]').select_option("swap2")
        form.get_by_role("button", name="Create link").click()
        first.wait_for_url(re.compile(r"/g/[\w-]+$"))
        ui.join_as_guest(second, first.url)
        expect(first.locator("#game")).to_have_attribute("data-status", "active")

        card = first.locator("#opening-card")
        expect(card).to_be_visible()
        expect(first.locator("#opening-rule")).to_have_text("Swap2")
        expect(first.locator("#opening-text")).to_have_text("Place a Black stone.")
        expect(second.locator("#opening-text")).to_contain_text("The first player")
        place(first, ui, 7, 7)
        expect(first.locator("#opening-text")).to_have_text("Place a White stone.")
        expect(first.locator("#opening-stone")).to_have_class(re.compile("white"))
        ui.screenshot(first, "opening/desktop-placing")
        place(first, ui, 8, 7)
        place(first, ui, 9, 9)

        buttons = second.locator("#opening-choices")
        expect(buttons.get_by_role("button", name="Play black")).to_be_visible()
        # The step asks for a choice, not a stone: a click on the board says where to make it.
        version = ui.state(second)["version"]
        ui.click_point(second, 3, 3)
        expect(second.locator(".toast", has_text="make it in the opening card")).to_be_visible()
        assert ui.state(second)["version"] == version
        expect(buttons.get_by_role("button", name="Play white")).to_be_visible()
        expect(first.locator("#opening-choices")).to_be_hidden()
        ui.screenshot(second, "opening/desktop-choice")
        buttons.get_by_role("button", name="Place two more").click()
        expect(second.locator("#opening-text")).to_have_text("Place a White stone.")
        place(second, ui, 6, 6)
        place(second, ui, 6, 8)

        choices = first.locator("#opening-choices")
        expect(choices.get_by_role("button", name="Place two more")).to_have_count(0)
        choices.get_by_role("button", name="Play white").click()
        expect(first.locator("#opening-text")).to_have_text(
            "Opening over: normal play. You play White."
        )
        expect(first.locator("#game")).to_have_attribute("data-you", "white")
        expect(second.locator("#game")).to_have_attribute("data-you", "black")
        expect(first.locator("#status")).to_have_text("Your turn")
        expect(first.locator("#opening-log")).to_have_text(
            "Second player: two more stones · First player: white"
        )
        # Normal play: the first player, now white, plays the sixth stone.
        place(first, ui, 10, 10)
        expect(second.locator("#status")).to_have_text("Your turn")
        expect(second.locator("#game")).to_have_attribute("data-move-count", "6")
        # The seat survives a reload (the cookie's seat moved with the swap).
        first.reload()
        expect(first.locator("#game")).to_have_attribute("data-you", "white")
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_renju_offers_are_marked_and_picked(
    browser: Browser, live_server: Any, ui: Any, size: str
) -> None:
    contexts = [browser.new_context(viewport=SIZES[size]) for _ in range(2)]
    try:
        first, second = (context.new_page() for context in contexts)
        game_id = ui.create_game(
            contexts[0], live_server.url, mode="friend", rule="renju", opening="soosorv8"
        )
        first.goto(f"{live_server.url}/g/{game_id}")
        ui.join_as_guest(second, f"{live_server.url}/g/{game_id}")
        expect(first.locator("#opening-text")).to_contain_text("on the centre point")
        # A stone outside what the step allows is refused with the step's own reason.
        ui.click_point(first, 2, 2)
        expect(
            first.locator(".toast", has_text="This stone goes on the centre point")
        ).to_be_visible()
        expect(first.locator(".toast", has_text="forbidden")).to_have_count(0)
        for point in ((7, 7), (8, 7), (8, 9)):
            place(first, ui, *point)
        second.locator("#opening-choices").get_by_role("button", name="Play white").click()
        place(second, ui, 5, 5)
        expect(second.locator("#opening-choices")).to_contain_text("Fifth moves to offer:")
        ui.screenshot(second, f"opening/{size}-declare")
        second.locator("#opening-choices").get_by_role("button", name="2", exact=True).click()
        first.locator("#opening-choices").get_by_role("button", name="Play black").click()
        expect(first.locator("#opening-text")).to_contain_text("0 of 2")
        place(first, ui, 9, 8)
        place(first, ui, 6, 9)
        expect(second.locator("#opening-text")).to_contain_text("Pick the fifth move")
        ui.screenshot(second, f"opening/{size}-pick")
        ui.click_point(second, 2, 12)
        expect(
            second.locator(".toast", has_text="Pick one of the offered fifth moves")
        ).to_be_visible()
        place(second, ui, 6, 9)
        expect(second.locator("#opening-text")).to_contain_text("Opening over")
        expect(second.locator("#status")).to_have_text("Your turn")
    finally:
        for context in contexts:
            context.close()


def test_the_rules_page_in_both_languages(browser: Browser, live_server: Any, ui: Any) -> None:
    for name, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.goto(live_server.url + "/rules/openings")
            expect(page.locator("h1")).to_have_text("Opening rules")
            expect(page.locator("#taraguchi li")).to_have_count(6)
            ui.screenshot(page, f"opening/{name}-rules", full_page=True)
            page.goto(live_server.url + "/rules/openings?lang=zh")
            expect(page.locator("h1")).to_have_text("开局规则")
            ui.screenshot(page, f"opening/{name}-rules-zh", full_page=True)
        finally:
            context.close()
