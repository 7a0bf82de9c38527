"""Two people who never shared a link find each other in the lobby and play a rated game
with a clock and the swap2 opening: one posts a seek, the other sees it appear live and
takes it, both land on the game in their seats, chat, play the opening (the second
player chooses white), one offers a draw that the other declines, black makes five, and
the leaderboard shows both ratings moved (the winner up, the loser down). Screenshots of
/lobby and /leaderboard at 1280x800 and 390x844."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

# Swap2: Ann, the first player, places black (7, 7), white (8, 7), black (9, 9); Bob
# chooses white. Then white and black alternate until black's five down the x = 7 line.
OPENING = [(7, 7), (8, 7), (9, 9)]
WHITE_MOVES = [(0, 0), (0, 1), (0, 2), (0, 3)]
BLACK_MOVES = [(7, 8), (7, 9), (7, 10), (7, 11)]


def set_name(page: Page, base: str, name: str) -> None:
    page.goto(base + "/me")
    field = page.locator("input[name='name']")
    if field.count():
        field.fill(name)
        field.press("Enter")
        page.wait_for_load_state()


def place(ui: Any, page: Page, point: tuple[int, int]) -> None:
    """An opening stone: wait until the server has it."""
    version = ui.state(page)["version"]
    ui.click_point(page, *point)
    page.wait_for_function(
        "v => window.gomokuGame && window.gomokuGame.state.version > v", arg=version
    )


def play(ui: Any, page: Page, other: Page, point: tuple[int, int]) -> None:
    count = ui.move_count(page)
    expect(page.locator("#status")).to_have_text("Your turn")
    ui.click_point(page, *point)
    expect(other.locator("#game")).to_have_attribute("data-move-count", str(count + 1))


def test_strangers_meet_in_the_lobby_and_play_a_rated_game(
    browser: Browser, live_server: Any, ui: Any
) -> None:
    base = live_server.url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        ann, bob = (context.new_page() for context in contexts)
        set_name(ann, base, "Ann")
        set_name(bob, base, "Bob")
        for page in (ann, bob):
            page.goto(base + "/lobby")
            expect(page.locator("#seeks-empty")).to_be_visible()

        seek = ann.locator("#form-seek")
        seek.locator("label.chip", has_text="5+3").click()
        seek.locator("label.chip", has_text="Black").click()
        seek.locator('select[name="opening"]').select_option("swap2")
        seek.get_by_role("button", name="Post seek").click()
        expect(ann.locator("#seek-cancel")).to_be_visible()
        ann.reload()  # a reload keeps the seek, still marked as Ann's own
        expect(ann.locator("#seek-list .seek.mine")).to_have_count(1)
        expect(ann.locator("#seek-cancel")).to_be_visible()
        offered = bob.locator("#seek-list .seek")
        expect(offered).to_have_count(1)  # arrived live, without a reload
        expect(offered).to_contain_text("Ann")
        expect(offered).to_contain_text("5+3")
        expect(offered).to_contain_text("Rated")
        expect(offered).to_contain_text("Swap2")
        ui.screenshot(bob, "lobby-1280")
        bob.set_viewport_size({"width": 390, "height": 844})
        ui.screenshot(bob, "lobby-390", full_page=True)
        bob.set_viewport_size({"width": 1280, "height": 800})

        offered.get_by_role("button", name="Play").click()
        for page in (ann, bob):
            page.wait_for_url(re.compile(r"/g/[\w-]+$"))
        assert ann.url == bob.url
        expect(ann.locator("#game")).to_have_attribute("data-you", "black")
        expect(bob.locator("#game")).to_have_attribute("data-you", "white")
        state = ui.state(ann)
        assert state["clock"]["black_ms"] == 300_000 and state["clock"]["increment_ms"] == 3_000

        if ann.locator("#chat-input").count():
            ann.locator("#chat-input").fill("good luck")
            ann.locator("#chat-input").press("Enter")
            expect(bob.locator("#chat-log .chat-text")).to_have_text("good luck")

        expect(ann.locator("#opening-rule")).to_have_text("Swap2")
        for point in OPENING:
            place(ui, ann, point)
        bob.locator("#opening-choices").get_by_role("button", name="Play white").click()
        expect(bob.locator("#game")).to_have_attribute("data-you", "white")
        expect(ann.locator("#game")).to_have_attribute("data-you", "black")

        for index, (white, black) in enumerate(zip(WHITE_MOVES, BLACK_MOVES, strict=True)):
            play(ui, bob, ann, white)
            if index == 1:
                bob.get_by_role("button", name="Offer draw").click()
                expect(ann.locator("#offer-text")).to_have_text("White offers a draw")
                ann.get_by_role("button", name="Decline").click()
                expect(bob.locator("#offer-box")).to_be_hidden()
            play(ui, ann, bob, black)
        for page in (ann, bob):
            expect(page.locator("#game")).to_have_attribute("data-status", "finished")

        board = ann.request.get(base + "/api/v1/leaderboard?rule=freestyle-15").json()
        ratings = {row["name"]: row for row in board["ratings"]}
        assert ratings["Ann"]["rating"] > 1500 > ratings["Bob"]["rating"]
        assert ratings["Ann"]["games"] == ratings["Bob"]["games"] == 1
        ann.goto(base + "/leaderboard")
        rows = ann.locator("#leaderboard tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("Ann")
        expect(rows.first.locator(".rating")).to_have_text(f"{ratings['Ann']['rating']}?")
        ui.screenshot(ann, "leaderboard-1280")
        ann.set_viewport_size({"width": 390, "height": 844})
        ui.screenshot(ann, "leaderboard-390", full_page=True)
    finally:
        for context in contexts:
            context.close()
