"""Every page at a desktop (1280x800) and a phone (390x844) size, saved under
tests/artifacts/screenshots/pages/ to be looked at: the lobby, the players page, the
not-found page, a game against the AI in progress, a friend game waiting for its guest,
an AI-vs-AI game being watched and a finished game. Each page is also checked for
script errors and for scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.e2e

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
# A finished game: black's five on row 8.
FIVE = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_at_desktop_and_phone_sizes(
    browser: Browser, live_server: Any, ui: Any, size: str
) -> None:
    context = browser.new_context(**SIZES[size])
    width = SIZES[size]["viewport"]["width"]
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        base = live_server.url
        ai = ui.create_game(context, base, mode="ai", level=1, color="black", moves=[[7, 7]])
        friend = ui.create_game(context, base, mode="friend", color="black")
        aivai = ui.create_game(
            context, base, mode="aivai", black_player="negamax:1", white_player="negamax:2"
        )
        finished = ui.create_game(context, base, mode="friend", color="black", moves=FIVE)

        def shoot(name: str, path: str, ready: Any = None) -> Page:
            page.goto(base + path)
            if ready:
                ready()
            page.wait_for_load_state("networkidle")
            scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
            assert scroll <= width, (name, scroll)
            ui.screenshot(page, f"pages/{size}-{name}", full_page=True)
            return page

        shoot("home", "/")
        shoot("players", "/players")
        shoot("not-found", "/g/no-such-game")
        shoot("vs-ai", f"/g/{ai}", lambda: ui.wait_for_moves(page, 2))
        shoot("friend-waiting", f"/g/{friend}")
        shoot("aivai", f"/g/{aivai}", lambda: ui.wait_for_moves(page, 4))
        shoot("finished", f"/g/{finished}")
        assert page.locator("#result-banner").is_visible()
        assert not errors, errors
    finally:
        context.close()
