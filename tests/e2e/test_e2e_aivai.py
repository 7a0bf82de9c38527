"""A spectator watches an AI-vs-AI game: moves arrive on their own and the engine panel
shows depth, speed and the principal variation while the evaluation graph fills."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def start_match(page: Page, base: str, black: str, white: str) -> None:
    """Start an AI vs AI game from the home page's form and wait for its page."""
    page.goto(base + "/#watch")
    form = page.locator("#form-aivai")
    form.locator("select[name=black_player]").select_option(black)
    form.locator("select[name=white_player]").select_option(white)
    form.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))


def test_ai_vs_ai_streams_moves_and_thinking(page: Page, live_server, ui) -> None:
    start_match(page, live_server.url, "negamax:2", "negamax:3")
    expect(page.locator("#game")).to_have_attribute("data-you", "")
    expect(page.locator("#move-form")).to_be_hidden()

    ui.wait_for_moves(page, 6)
    for color in ("black", "white"):
        side = page.locator(f"#thinking-{color}")
        expect(side).to_be_visible()
        expect(side.locator(".t-depth")).to_have_text(re.compile(r"^\d+$"))
        expect(side.locator(".t-nps")).to_have_text(re.compile(r"/s$"))
        expect(side.locator(".t-pv")).to_have_text(re.compile(r"^[a-o]\d+"))
    points = int(page.locator("#eval-graph").get_attribute("data-points") or 0)
    assert points >= 3
    # Live thinking for the position on the board is drawn as faint numbered stones.
    page.wait_for_function("() => window.gomokuGame.board.view.pv.length > 0", timeout=30_000)
    ui.screenshot(page, "spectator-aivai")

    # The home page lists the game among those in progress, with a Watch link.
    other = page.context.new_page()
    other.goto(live_server.url + "/")
    game_id = page.locator("#game").get_attribute("data-game-id")
    expect(other.locator(f'.live-game[data-game-id="{game_id}"]')).to_be_visible()
    other.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_engines_come_before_the_chat(browser, live_server, ui, phone: bool) -> None:
    """On an AI vs AI page the engines' card comes before the spectators' chat; on a
    desktop it starts above the fold."""
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    try:
        page = context.new_page()
        start_match(page, live_server.url, "negamax:1", "negamax:1")
        ui.wait_for_moves(page, 2)
        engines = page.locator("#thinking-card")
        chat = page.locator("#chat-card")
        expect(engines).to_be_visible()
        expect(chat).to_be_visible()
        order = page.evaluate(
            """() => {
                const engines = document.getElementById('thinking-card');
                const chat = document.getElementById('chat-card');
                return engines.compareDocumentPosition(chat) & Node.DOCUMENT_POSITION_FOLLOWING;
            }"""
        )
        assert order, "the chat comes before the engines"
        engines_box, chat_box = engines.bounding_box(), chat.bounding_box()
        assert engines_box is not None and chat_box is not None
        assert engines_box["y"] < chat_box["y"]
        if not phone:
            assert engines_box["y"] + 120 < 800, "the engines start below the fold"
        ui.screenshot(page, "aivai-engines-first-" + ("phone" if phone else "desktop"))
    finally:
        context.close()
