"""A person plays the level-1 AI in the browser: creates the game from the lobby, clicks the
canvas until the game ends and sees the result banner; also a 7x7 game end to end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

RESULT_TEXT = re.compile(r"(Black|White) wins|Draw")


def test_human_beats_or_loses_to_level_one_ai(page: Page, live_server, ui) -> None:
    page.goto(live_server.url + "/")
    ui.screenshot(page, "home", full_page=True)
    page.locator("#form-ai .level-option", has_text="Beginner").click()
    page.locator("#form-ai").get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#game")).to_have_attribute("data-you", "black")
    expect(page.locator("#status")).to_have_text("Your turn")

    for _ in range(3):
        ui.wait_for_my_turn_or_end(page)
        ui.play_scripted_move(page)
    ui.wait_for_my_turn_or_end(page)
    expect(page.locator("#move-list .move")).to_have_count(ui.move_count(page))
    expect(page.locator("#thinking-white .t-depth")).to_have_text(re.compile(r"^\d+$"))
    ui.screenshot(page, "vs-ai-midgame")

    state = ui.play_until_finished(page)
    assert state["status"] == "finished"
    banner = page.locator("#result-banner")
    expect(banner).to_be_visible()
    expect(page.locator("#result-title")).to_have_text(RESULT_TEXT)
    if state["result"]["winner"]:
        assert len(state["result"]["line"]) >= 5
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    ui.screenshot(page, "finished-banner")

    # A rematch opens a new game with the colours swapped.
    old_url = page.url
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: url != old_url and "/g/" in url)
    expect(page.locator("#game")).to_have_attribute("data-you", "white")
    expect(page.locator("#result-banner")).to_be_hidden()


def test_hint_and_undo(page: Page, live_server, ui) -> None:
    game_id = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    page.goto(f"{live_server.url}/g/{game_id}")
    ui.wait_for_my_turn_or_end(page)
    ui.play_scripted_move(page)
    ui.wait_for_my_turn_or_end(page)
    assert ui.move_count(page) == 2

    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".toast.info")).to_contain_text(re.compile(r"Hint: [a-o]\d+"))
    assert ui.move_count(page) == 2

    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#game")).to_have_attribute("data-move-count", "0")
    expect(page.locator("#status")).to_have_text("Your turn")
    expect(page.locator("#move-list .move")).to_have_count(0)


def test_seven_by_seven_game(page: Page, live_server, ui) -> None:
    page.goto(live_server.url + "/")
    form = page.locator("#form-ai")
    form.locator(".level-option", has_text="Beginner").click()
    form.locator("select.size-other").select_option("7")
    form.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#board")).to_have_attribute("data-size", "7")
    state = ui.play_until_finished(page, max_moves=30)
    assert state["size"] == 7
    assert state["status"] == "finished"
    expect(page.locator("#result-title")).to_have_text(RESULT_TEXT)
    ui.screenshot(page, "seven-by-seven")
