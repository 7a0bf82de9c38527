"""Screens at a phone size and the not-found page: the board fills the width, the panels
stack below it, and a tap on a touch screen previews before it plays."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def test_phone_layout(browser: Browser, live_server, ui) -> None:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        ui.screenshot(page, "phone-home")
        game_id = ui.create_game(context, live_server.url, mode="ai", level=1, color="black")
        page.goto(f"{live_server.url}/g/{game_id}")
        box = page.locator("#board").bounding_box()
        assert box is not None
        assert box["width"] >= PHONE["width"] - 2
        # Players and status sit above the board, within the first screen; actions below.
        status = page.locator("#status").bounding_box()
        actions = page.locator(".actions-card").bounding_box()
        assert status is not None and actions is not None
        assert status["y"] + status["height"] <= box["y"]
        assert actions["y"] >= box["y"] + box["height"]
        assert box["y"] + box["height"] <= PHONE["height"]

        # First tap previews, the second on the same point plays.
        x, y = ui.point_position(page, 7, 7)
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(300)
        assert ui.move_count(page) == 0
        page.touchscreen.tap(x, y)
        ui.wait_for_moves(page, 2)
        ui.wait_for_my_turn_or_end(page)
        ui.screenshot(page, "phone-game")
        ui.screenshot(page, "phone-game-full", full_page=True)
    finally:
        context.close()


def test_unknown_game_shows_not_found(page, live_server, ui) -> None:
    reply = page.goto(live_server.url + "/g/no-such-game")
    assert reply is not None and reply.status == 404
    expect(page.get_by_role("heading", name="Game not found")).to_be_visible()
    ui.screenshot(page, "not-found")
    page.get_by_role("link", name=re.compile("lobby")).click()
    expect(page.locator("#form-ai")).to_be_visible()


def test_renju_forbidden_points_on_a_large_board(page, live_server, ui) -> None:
    # Black to move with two open twos crossing at k10: a double three, forbidden in renju.
    moves = [[8, 9], [0, 0], [9, 9], [18, 0], [10, 7], [0, 18], [10, 8], [18, 18]]
    game_id = ui.create_game(
        page.context,
        live_server.url,
        mode="ai",
        level=1,
        color="black",
        size=19,
        rule="renju",
        moves=moves,
    )
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#board")).to_have_attribute("data-size", "19")
    state = ui.state(page)
    assert [10, 9] in state["forbidden"]
    page.get_by_label("Move numbers").check()
    ui.screenshot(page, "renju-forbidden-19")
