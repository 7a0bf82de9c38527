"""The panels read the contract's fields: an opponent who left gives a visible countdown and
then the claim button, abort appears when the server allows it, a rematch offer is
answered with Accept or Decline and the new game is a link (nobody is moved), an
imported record that was already over says so and offers its replay, and a free seat is
offered with a button. States are fed through the page's own handler table, so each
panel is checked against exactly the payload the contract describes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

NO_ACTIONS = dict.fromkeys(
    [
        "move",
        "undo",
        "hint",
        "takeback",
        "takeback_cancel",
        "takeback_answer",
        "resign",
        "rematch",
        "rematch_answer",
        "draw",
        "draw_answer",
        "abort",
        "claim",
        "take_seat",
    ],
    False,
)
FIVE = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]


def friend_page(page: Page, live_server: Any, ui: Any, **body: Any) -> dict[str, Any]:
    game_id = ui.create_game(page.context, live_server.url, mode="friend", color="black", **body)
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#game")).to_have_attribute("data-you", "black")
    return ui.state(page)  # type: ignore[no-any-return]


def feed(page: Page, state: dict[str, Any], **changes: Any) -> dict[str, Any]:
    # Far ahead of the live game's own versions, so a state the server pushes meanwhile
    # (a presence change, say) is older than the fed one and ignored.
    new = {**state, **changes, "version": state["version"] + 1000}
    page.evaluate("s => window.gomokuGame.receive('state', s)", new)
    return new


def test_abandoned_game_counts_down_to_a_claim(page: Page, live_server, ui) -> None:
    state = friend_page(page, live_server, ui, moves=[[7, 7], [8, 8]])
    now = int(page.evaluate("() => Date.now()"))
    actions = {**NO_ACTIONS, "resign": True, "move": True}
    state = feed(
        page,
        state,
        status="active",
        actions=actions,
        abandon={"seat": "white", "claim_at": now + 3_000, "now": now},
    )
    box = page.locator("#abandon-box")
    expect(box).to_be_visible()
    expect(page.locator("#abandon-text")).to_contain_text("White has left")
    expect(page.locator("#abandon-text")).to_contain_text("0:0")
    expect(page.locator("#btn-claim")).to_be_hidden()
    # The countdown runs by itself, then the server allows the claim.
    expect(page.locator("#abandon-text")).to_have_text(
        "White has left. You can claim the win now.", timeout=6_000
    )
    feed(page, state, actions={**actions, "claim": True})
    expect(page.get_by_role("button", name="Claim victory")).to_be_visible()
    expect(page.locator("#abandon-text")).to_have_text("White has left. You can claim the win now.")
    ui.screenshot(page, "abandon-claim")


def test_abort_is_offered_when_allowed(page: Page, live_server, ui) -> None:
    state = friend_page(page, live_server, ui)
    feed(page, state, status="active", actions={**NO_ACTIONS, "abort": True, "move": True})
    expect(page.get_by_role("button", name="Abort game")).to_be_visible()
    expect(page.get_by_role("button", name="Resign")).to_be_hidden()


def test_rematch_offer_is_answered_and_the_new_game_is_a_link(page: Page, live_server, ui) -> None:
    state = friend_page(page, live_server, ui, moves=FIVE)
    expect(page.locator("#result-banner")).to_be_visible()
    url = page.url
    state = feed(
        page,
        state,
        actions={**NO_ACTIONS, "rematch_answer": True},
        offers={"takeback": None, "rematch": "white", "draw": None},
    )
    expect(page.locator("#offer-text")).to_have_text("White offers a rematch")
    expect(page.get_by_role("button", name="Accept")).to_be_visible()
    expect(page.get_by_role("button", name="Decline")).to_be_visible()
    expect(page.get_by_role("button", name="Offer rematch")).to_be_hidden()
    feed(
        page,
        state,
        actions=NO_ACTIONS,
        offers={"takeback": None, "rematch": None, "draw": None},
        next_game="abcdef",
    )
    link = page.get_by_role("link", name="Go to the new game →")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", "/g/abcdef")
    page.wait_for_timeout(500)
    assert page.url == url, "a friend game's rematch moves nobody"


def test_own_rematch_offer_waits_and_a_refusal_is_told(page: Page, live_server, ui) -> None:
    state = friend_page(page, live_server, ui, moves=FIVE)
    state = feed(
        page,
        state,
        actions=NO_ACTIONS,
        offers={"takeback": None, "rematch": "black", "draw": None},
    )
    expect(page.locator("#offer-text")).to_have_text("Rematch offered — waiting for an answer")
    feed(
        page,
        state,
        actions={**NO_ACTIONS, "rematch": True},
        offers={"takeback": None, "rematch": None, "draw": None},
    )
    expect(page.locator(".toast")).to_contain_text("Your rematch offer was declined")
    expect(page.get_by_role("button", name="Offer rematch")).to_be_visible()


def test_a_finished_import_says_it_is_over_and_offers_replay(page: Page, live_server, ui) -> None:
    state = friend_page(page, live_server, ui, moves=FIVE)
    feed(page, state, imported_finished=True)
    expect(page.locator("#status")).to_have_text("This game is already over")
    expect(page.locator("#imported-note")).to_be_visible()
    page.locator("#btn-replay-start").click()
    expect(page.locator("#replay-position")).to_have_text(f"0 / {len(FIVE)}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_have_text(f"1 / {len(FIVE)}")


def test_a_free_seat_is_offered_with_a_button(page: Page, live_server, ui) -> None:
    state = friend_page(page, live_server, ui)
    feed(page, state, you=None, actions={**NO_ACTIONS, "take_seat": True})
    expect(page.get_by_role("button", name="Play as white")).to_be_visible()
