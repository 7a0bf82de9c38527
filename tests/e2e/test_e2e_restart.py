"""A server restart in the middle of a game: the page reconnects by itself, the moves and
the seat are all still there, and the game goes on. While the connection is down the page
says so without hiding any of the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def test_restart_mid_game_restores_everything(page: Page, live_server, ui) -> None:
    game_id = ui.create_game(
        page.context, live_server.url, mode="ai", level=1, color="black", size=15
    )
    page.goto(f"{live_server.url}/g/{game_id}")
    for _ in range(2):
        ui.wait_for_my_turn_or_end(page)
        ui.play_scripted_move(page)
    ui.wait_for_my_turn_or_end(page)
    before = ui.state(page)
    assert len(before["moves"]) == 4

    live_server.restart()

    expect(page.locator("#conn-banner")).to_be_hidden(timeout=30_000)
    expect(page.locator("#game")).to_have_attribute("data-you", "black")
    expect(page.locator("#game")).to_have_attribute("data-move-count", "4")
    ui.wait_for_my_turn_or_end(page)
    assert ui.state(page)["moves"] == before["moves"]

    ui.play_scripted_move(page)
    ui.wait_for_moves(page, 6)
    page.reload()
    expect(page.locator("#game")).to_have_attribute("data-move-count", "6")
    expect(page.locator("#game")).to_have_attribute("data-you", "black")


def test_the_reconnecting_notice_leaves_the_board_in_view(page: Page, live_server, ui) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    game_id = ui.create_game(page.context, live_server.url, mode="friend", color="black")
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#status")).to_be_visible()
    page.context.set_offline(True)
    try:
        banner = page.locator("#conn-banner")
        expect(banner).to_be_visible(timeout=30_000)
        notice, board = banner.bounding_box(), page.locator("#board").bounding_box()
        assert notice is not None and board is not None
        apart = (
            notice["x"] + notice["width"] <= board["x"]
            or notice["x"] >= board["x"] + board["width"]
            or notice["y"] + notice["height"] <= board["y"]
            or notice["y"] >= board["y"] + board["height"]
        )
        assert apart, (notice, board)
    finally:
        page.context.set_offline(False)
    expect(page.locator("#conn-banner")).to_be_hidden(timeout=30_000)
