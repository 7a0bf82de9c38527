"""Two people play each other from a shared link while a third person watches every
move; a reload in the middle of the game restores the moves and the seat."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

BLACK_MOVES = [(7, 7), (8, 7), (9, 7), (10, 7), (11, 7)]
WHITE_MOVES = [(7, 9), (8, 9), (9, 9), (10, 9)]


def expect_moves(page: Page, count: int) -> None:
    expect(page.locator("#game")).to_have_attribute("data-move-count", str(count))


def test_friends_play_from_a_link_with_a_spectator(browser: Browser, live_server, ui) -> None:
    contexts = [browser.new_context(viewport={"width": 1366, "height": 900}) for _ in range(3)]
    try:
        host, guest, watcher = (context.new_page() for context in contexts)

        host.goto(live_server.url + "/")
        host.locator("#form-friend").get_by_role("button", name="Create link").click()
        host.wait_for_url(re.compile(r"/g/[\w-]+$"))
        link = host.url
        expect(host.locator("#status")).to_have_text("Waiting for opponent — share this link")
        expect(host.locator("#share-link")).to_have_value(link)
        ui.screenshot(host, "friend-waiting")

        ui.join_as_guest(guest, link)
        expect(guest.locator("#game")).to_have_attribute("data-you", "white")
        expect(host.locator("#game")).to_have_attribute("data-status", "active")
        watcher.goto(link)
        expect(watcher.locator("#game")).to_have_attribute("data-you", "")
        expect(watcher.locator("#status")).to_have_text("Black to move")
        expect(host.locator("#spectator-count")).to_have_text("1")

        ply = 0
        for index, black in enumerate(BLACK_MOVES):
            expect(host.locator("#status")).to_have_text("Your turn")
            ui.click_point(host, *black)
            ply += 1
            for page in (host, guest, watcher):
                expect_moves(page, ply)
            if index == len(WHITE_MOVES):
                break
            if ply == 3:
                # A reload mid-game brings back the moves and the seat.
                guest.reload()
                expect(guest.locator("#game")).to_have_attribute("data-you", "white")
                expect_moves(guest, 3)
                expect(guest.locator("#move-list .move")).to_have_count(3)
            expect(guest.locator("#status")).to_have_text("Your turn")
            ui.click_point(guest, *WHITE_MOVES[index])
            ply += 1
            for page in (host, guest, watcher):
                expect_moves(page, ply)

        for page in (host, guest, watcher):
            expect(page.locator("#result-title")).to_have_text("Black wins — five in a row")
        expect(host.locator("#result-sub")).to_have_text(re.compile("You won"))
        expect(guest.locator("#result-sub")).to_have_text(re.compile("You lost"))
        expect(watcher.locator("#result-sub")).to_be_hidden()
        names = [m.inner_text() for m in watcher.locator("#move-list .move").all()]
        assert names == ["h8", "h6", "i8", "i6", "j8", "j6", "k8", "k6", "l8"]
    finally:
        for context in contexts:
            context.close()


def test_takeback_clock_and_resign_between_friends(browser: Browser, live_server, ui) -> None:
    contexts = [browser.new_context() for _ in range(2)]
    try:
        host, guest = (context.new_page() for context in contexts)
        game_id = ui.create_game(
            contexts[0],
            live_server.url,
            mode="friend",
            color="black",
            clock={"base_s": 120, "increment_s": 2},
        )
        host.goto(f"{live_server.url}/g/{game_id}")
        ui.join_as_guest(guest, f"{live_server.url}/g/{game_id}")
        expect(guest.locator("#game")).to_have_attribute("data-you", "white")
        expect(host.locator("#status")).to_have_text("Your turn")
        expect(host.locator("#player-white .clock")).to_have_text("2:00")
        expect(host.locator("#clock-note")).to_have_text(
            "The clocks start once each side has moved."
        )
        ui.click_point(host, 7, 7)
        expect_moves(guest, 1)
        # White's first move is not timed: no clock runs yet.
        white_clock = guest.locator("#player-white .clock")
        expect(guest.locator("#clock-note")).to_be_visible()
        expect(white_clock).not_to_have_class(re.compile("running"))
        guest.wait_for_timeout(1_500)
        expect(white_clock).to_have_text("2:00")
        ui.click_point(guest, 8, 8)
        expect_moves(host, 2)
        # Now black's clock runs on both screens between server updates.
        for page in (host, guest):
            expect(page.locator("#clock-note")).to_be_hidden()
            black_clock = page.locator("#player-black .clock")
            expect(black_clock).to_have_class(re.compile("running"))
            expect(black_clock).not_to_have_text("2:00", timeout=5_000)

        guest.get_by_role("button", name="Offer takeback").click()
        expect(guest.locator("#offer-text")).to_have_text(re.compile("waiting for an answer"))
        expect(host.locator("#offer-text")).to_have_text("White asks to take back a move")
        host.get_by_role("button", name="Accept").click()
        for page in (host, guest):
            expect_moves(page, 1)
            expect(page.locator("#offer-box")).to_be_hidden()
            # Back before white's first move: the clocks stop again.
            expect(page.locator("#clock-note")).to_be_visible()
        expect(guest.locator("#status")).to_have_text("Your turn")
        # White has no move of its own again: the game can be aborted, not resigned.
        expect(guest.get_by_role("button", name="Resign")).to_be_hidden()
        expect(guest.get_by_role("button", name="Abort game")).to_be_visible()
        ui.click_point(guest, 8, 8)
        for page in (host, guest):
            expect_moves(page, 2)
        expect(guest.get_by_role("button", name="Abort game")).to_be_hidden()

        guest.once("dialog", lambda dialog: dialog.accept())
        guest.get_by_role("button", name="Resign").click()
        for page in (host, guest):
            expect(page.locator("#result-title")).to_have_text("Black wins — white resigned")
    finally:
        for context in contexts:
            context.close()


def test_the_invited_friend_is_invited_not_asked_to_share(
    browser: Browser, live_server, ui
) -> None:
    """The creator is asked to share the link; the friend who opens it is invited to the
    free seat (no share card); a spectator of the full game sees neither."""
    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    guest_context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    watcher_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        host = host_context.new_page()
        host.goto(live_server.url + "/")
        host.locator("#form-friend").get_by_role("button", name="Create link").click()
        host.wait_for_url(re.compile(r"/g/[\w-]+$"))
        link = host.url
        expect(host.locator("#share-card")).to_be_visible()
        host_name = host.locator("#player-black .name").inner_text()
        ui.screenshot(host, "friend-host-waiting-desktop")

        guest = guest_context.new_page()
        guest.goto(link)
        expect(guest.locator("#status")).to_have_text(f"{host_name} invites you to play")
        expect(guest.locator("#share-card")).to_be_hidden()
        seat = guest.locator("#btn-take-seat")
        expect(seat).to_be_visible()
        expect(seat).to_have_text("Play as white")
        ui.screenshot(guest, "friend-invited-phone")
        guest.locator("[data-set-lang=zh]").tap()
        expect(guest.locator("#status")).to_have_text(f"{host_name} 邀请你下一盘")
        ui.screenshot(guest, "friend-invited-phone-zh")
        seat.tap()
        expect(guest.locator("#game")).to_have_attribute("data-you", "white")
        expect(host.locator("#game")).to_have_attribute("data-status", "active")
        expect(host.locator("#share-card")).to_be_hidden()

        watcher = watcher_context.new_page()
        watcher.goto(link)
        expect(watcher.locator("#status")).to_have_text("Black to move")
        expect(watcher.locator("#share-card")).to_be_hidden()
        expect(watcher.locator("#btn-take-seat")).to_be_hidden()
    finally:
        for context in (host_context, guest_context, watcher_context):
            context.close()
