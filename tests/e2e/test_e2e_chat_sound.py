"""Chat and sounds in real browsers: two friends chat while a spectator's chat stays
apart, markup arrives as plain text, the chat can be hidden (remembered), and a move
makes a sound only while the sound switch is on (remembered too)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e


@pytest.fixture
def table(browser: Browser, live_server: Any, ui: Any) -> Iterator[tuple[Page, Page, Page]]:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        host, guest, watcher = (context.new_page() for context in contexts)
        game_id = ui.create_game(contexts[0], live_server.url, mode="friend", color="black")
        url = f"{live_server.url}/g/{game_id}"
        host.goto(url)
        ui.join_as_guest(guest, url)
        expect(host.locator("#status")).to_have_text("Your turn")
        watcher.goto(url)
        expect(watcher.locator("#chat-card")).to_be_visible()
        yield host, guest, watcher
    finally:
        for context in contexts:
            context.close()


def say(page: Page, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")
    expect(page.locator("#chat-input")).to_have_value("")


def test_players_and_spectators_chat_apart_as_plain_text(table) -> None:
    host, guest, watcher = table
    expect(host.locator("#chat-title")).to_have_text("Chat with your opponent")
    expect(watcher.locator("#chat-title")).to_have_text("Spectators' chat")

    say(host, "<b>good luck</b> <img src=x onerror=alert(1)>")
    line = guest.locator("#chat-log .chat-text")
    expect(line).to_have_text("<b>good luck</b> <img src=x onerror=alert(1)>")
    assert guest.locator("#chat-log b, #chat-log img").count() == 0
    expect(guest.locator("#chat-log .chat-line")).to_have_attribute("data-seat", "black")

    say(watcher, "what a game")
    expect(watcher.locator("#chat-log .chat-text")).to_have_text("what a game")
    # Each line stayed in its own channel.
    expect(host.locator("#chat-log .chat-text")).to_have_count(1)
    expect(guest.locator("#chat-log .chat-text")).to_have_count(1)
    expect(watcher.locator("#chat-log .chat-text")).to_have_count(1)

    # A reload brings the channel's history back.
    guest.reload()
    expect(guest.locator("#chat-log .chat-text")).to_have_text(
        "<b>good luck</b> <img src=x onerror=alert(1)>"
    )


def test_chat_can_be_hidden_and_stays_hidden(table) -> None:
    host, _, _ = table
    host.locator("#chat-toggle").click()
    expect(host.locator("#chat-body")).to_be_hidden()
    expect(host.locator("#chat-toggle")).to_have_text("Show")
    host.reload()
    expect(host.locator("#chat-card")).to_be_visible()
    expect(host.locator("#chat-body")).to_be_hidden()
    host.locator("#chat-toggle").click()
    expect(host.locator("#chat-body")).to_be_visible()


def test_a_too_long_line_is_refused_and_kept_in_the_box(table) -> None:
    host, guest, _ = table
    host.locator("#chat-input").evaluate("el => el.removeAttribute('maxlength')")
    host.locator("#chat-input").fill("x" * 141)
    host.locator("#chat-input").press("Enter")
    expect(host.locator(".toast", has_text="at most 140 characters")).to_have_count(1)
    expect(host.locator("#chat-input")).to_have_value("x" * 141)
    expect(guest.locator("#chat-log .chat-line")).to_have_count(0)


def played(page: Page) -> list[str]:
    return list(page.evaluate("() => window.gomokuGame.sounds.played.slice()"))


def test_moves_sound_only_while_the_switch_is_on(table, ui) -> None:
    host, guest, _ = table
    assert guest.locator("#toggle-sound").is_checked()
    ui.click_point(host, 7, 7)
    expect(guest.locator("#game")).to_have_attribute("data-move-count", "1")
    assert played(guest).count("move") == 1

    guest.locator("#toggle-sound").uncheck()
    guest.reload()
    expect(guest.locator("#toggle-sound")).not_to_be_checked()
    ui.click_point(guest, 8, 8)
    # The host plays once its page has the guest's move (before that it is not its turn).
    expect(host.locator("#game")).to_have_attribute("data-move-count", "2")
    ui.click_point(host, 7, 8)
    expect(guest.locator("#game")).to_have_attribute("data-move-count", "3")
    assert played(guest) == []
    # The host's switch was untouched: it heard every move, its own included once its page
    # took the move in (the guest's page may take it in first).
    expect(host.locator("#game")).to_have_attribute("data-move-count", "3")
    assert played(host).count("move") == 3
