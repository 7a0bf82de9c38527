"""A server restart in the middle of a game: the page reconnects by itself, the moves and
the seat are all still there, and the game goes on."""

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
