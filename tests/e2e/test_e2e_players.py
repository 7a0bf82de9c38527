"""A spectator picks negamax against MCTS on a 7x7 board from the AI-vs-AI form: the
game page names both players, the MCTS side reports playouts, moves arrive on their own
until the game ends, and the players page then rates both."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_MS = 180_000


def test_negamax_against_mcts_on_seven_by_seven(page: Page, live_server, ui) -> None:
    page.goto(live_server.url + "/#watch")
    form = page.locator("#form-aivai")
    black = form.locator("select[name=black_player]")
    # Every kind of player is on offer.
    for player_id in ("negamax:1", "negamax:5", "mcts", "engine:gomoku", "engine:gomoku-mcts"):
        expect(black.locator(f'option[value="{player_id}"]')).to_have_count(1)
    black.select_option("negamax:2")
    form.locator("select[name=white_player]").select_option("mcts")
    form.locator("select[name=size_other]").select_option("7")
    form.get_by_role("button", name="Start match").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#game")).to_have_attribute("data-you", "")

    white = page.locator("#thinking-white")
    expect(white.locator(".thinking-name")).to_have_text("MCTS")
    expect(page.locator("#thinking-black .thinking-name")).to_contain_text("2")
    ui.wait_for_moves(page, 2)
    expect(white.locator(".t-nodes-label")).to_have_text("Playouts", timeout=60_000)
    expect(white.locator(".t-nodes")).to_have_text(re.compile(r"^[\d.]+k?M?$"))
    ui.screenshot(page, "spectator-negamax-vs-mcts")

    page.wait_for_function(
        "() => document.getElementById('game').dataset.status === 'finished'",
        timeout=GAME_TIMEOUT_MS,
    )
    state = ui.state(page)
    assert state["size"] == 7
    assert state["result"]["reason"] in ("five", "full")

    page.locator('.site-nav a[href="/players"]').click()
    page.wait_for_url(re.compile(r"/players$"))
    for player_id in ("negamax:2", "mcts"):
        row = page.locator(f'tr[data-player-id="{player_id}"]')
        expect(row.locator(".games")).to_have_text("1")
        expect(row.locator(".rating")).to_have_text(re.compile(r"^\d{4}$"))
    ui.screenshot(page, "players-page")
