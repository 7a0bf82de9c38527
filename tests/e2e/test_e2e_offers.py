"""Offers between two friends in real browsers: a takeback request withdrawn by the asker,
a rematch offered, declined, offered again and accepted (both stay where they are and
get a link to the new game), a game aborted before each side has moved, and the
countdown the player who stayed sees once the opponent has left."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e


@pytest.fixture
def friends(browser: Browser, live_server: Any, ui: Any) -> Iterator[tuple[Page, Page, str]]:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        host, guest = (context.new_page() for context in contexts)
        game_id = ui.create_game(contexts[0], live_server.url, mode="friend", color="black")
        url = f"{live_server.url}/g/{game_id}"
        host.goto(url)
        ui.join_as_guest(guest, url)
        expect(host.locator("#status")).to_have_text("Your turn")
        yield host, guest, url
    finally:
        for context in contexts:
            context.close()


def play(ui: Any, page: Page, other: Page, x: int, y: int) -> None:
    count = ui.move_count(page)
    ui.click_point(page, x, y)
    expect(other.locator("#game")).to_have_attribute("data-move-count", str(count + 1))


def test_the_asker_withdraws_a_takeback(friends, ui) -> None:
    host, guest, _ = friends
    play(ui, host, guest, 7, 7)
    play(ui, guest, host, 8, 8)
    guest.get_by_role("button", name="Offer takeback").click()
    expect(host.locator("#offer-text")).to_have_text("White asks to take back a move")
    cancel = guest.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible()
    expect(guest.get_by_role("button", name="Accept")).to_be_hidden()
    cancel.click()
    expect(host.locator("#offer-box")).to_be_hidden()
    expect(guest.locator("#offer-box")).to_be_hidden()
    expect(host.locator(".toast", has_text="White withdrew the takeback request")).to_have_count(1)
    # Withdrawing is not a refusal.
    expect(guest.locator(".toast", has_text="declined")).to_have_count(0)
    assert ui.move_count(host) == 2


def test_an_offer_is_announced_and_repeated_withdrawals_toast_once(friends, ui) -> None:
    host, guest, _ = friends
    play(ui, host, guest, 7, 7)
    play(ui, guest, host, 8, 8)
    # The answer buttons may be below the fold on a phone: the request says so at once.
    guest.get_by_role("button", name="Offer takeback").click()
    expect(host.locator(".toast", has_text="White asks to take back a move")).to_have_count(1)
    guest.get_by_role("button", name="Cancel").click()
    expect(host.locator("#offer-box")).to_be_hidden()
    for _ in range(2):
        guest.get_by_role("button", name="Offer takeback").click()
        expect(host.locator("#offer-box")).to_be_visible()
        guest.get_by_role("button", name="Cancel").click()
        expect(host.locator("#offer-box")).to_be_hidden()
    # Three requests and three withdrawals within seconds: each news is shown once.
    expect(host.locator(".toast", has_text="withdrew the takeback request")).to_have_count(1)
    expect(host.locator(".toast", has_text="White asks to take back a move")).to_have_count(1)


def test_rematch_is_an_offer_and_the_new_game_a_link(friends, ui) -> None:
    host, guest, url = friends
    play(ui, host, guest, 7, 7)
    play(ui, guest, host, 8, 8)  # a game is resigned only once each side has moved
    guest.once("dialog", lambda dialog: dialog.accept())
    guest.get_by_role("button", name="Resign").click()
    for page in (host, guest):
        expect(page.locator("#result-title")).to_have_text("Black wins — white resigned")

    host.get_by_role("button", name="Offer rematch").click()
    expect(host.locator("#offer-text")).to_have_text("Rematch offered — waiting for an answer")
    expect(guest.locator("#offer-text")).to_have_text("Black offers a rematch")
    guest.get_by_role("button", name="Decline").click()
    expect(host.locator(".toast", has_text="Your rematch offer was declined")).to_have_count(1)
    expect(host.locator("#offer-box")).to_be_hidden()

    host.get_by_role("button", name="Offer rematch").click()
    expect(guest.locator("#offer-text")).to_have_text("Black offers a rematch")
    guest.get_by_role("button", name="Accept").click()
    for page in (host, guest):
        link = page.get_by_role("link", name="Go to the new game →")
        expect(link).to_be_visible()
        expect(link).to_have_attribute("href", re.compile(r"^/g/[\w-]+$"))
    # Nobody is moved: both are still on the finished game.
    host.wait_for_timeout(500)
    assert host.url == url and guest.url == url
    ui.screenshot(host, "rematch-link")
    host.get_by_role("link", name="Go to the new game →").click()
    host.wait_for_url(lambda address: address != url)
    expect(host.locator("#game")).to_have_attribute("data-you", re.compile("black|white"))


def test_a_game_is_aborted_before_each_side_has_moved(friends, ui) -> None:
    host, guest, _ = friends
    play(ui, host, guest, 7, 7)
    abort = guest.get_by_role("button", name="Abort game")
    expect(abort).to_be_visible()
    # Nothing to resign yet: aborting is the way out, for either player.
    for page in (host, guest):
        expect(page.get_by_role("button", name="Resign")).to_be_hidden()
    expect(host.get_by_role("button", name="Abort game")).to_be_visible()
    guest.once("dialog", lambda dialog: dialog.accept())
    abort.click()
    for page in (host, guest):
        expect(page.locator("#result-title")).to_have_text("Game aborted")
        expect(page.locator("#result-sub")).to_be_hidden()


def test_the_player_who_stayed_sees_a_countdown(friends, ui) -> None:
    host, guest, _ = friends
    play(ui, host, guest, 7, 7)
    play(ui, guest, host, 8, 8)
    guest.context.close()
    text = host.locator("#abandon-text")
    expect(text).to_have_text(re.compile(r"^White has left\. You can claim the win in \d:\d\d\.$"))
    first = host.locator("#abandon-box").get_attribute("data-left")
    expect(host.locator("#abandon-box")).not_to_have_attribute("data-left", first or "")
    expect(host.get_by_role("button", name="Claim victory")).to_be_hidden()
    ui.screenshot(host, "abandon-countdown")
