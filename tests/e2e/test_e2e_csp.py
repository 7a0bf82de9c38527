"""The pages work under the Content-Security-Policy: every page carries it, the browser
reports no violation while loading them (no inline script, style or foreign connection),
and the game page's scripts and websocket run under it (a move against the AI)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import ConsoleMessage, Page

pytestmark = pytest.mark.e2e

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def _watch(page: Page) -> list[str]:
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        text = message.text
        if "Content Security Policy" in text or "Refused to" in text:
            problems.append(text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.add_init_script(RECORD_VIOLATIONS)
    return problems


def _visit(page: Page, url: str, problems: list[str]) -> None:
    reply = page.goto(url)
    assert reply is not None
    csp = reply.headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, url
    assert reply.headers.get("x-content-type-options") == "nosniff"
    page.wait_for_load_state("networkidle")
    problems.extend(page.evaluate("() => window.__cspViolations"))


def test_pages_run_under_the_content_security_policy(page: Page, live_server: Any, ui: Any) -> None:
    problems = _watch(page)
    friend = ui.create_game(page.context, live_server.url, mode="friend", color="black")
    for path in ("/", "/players", f"/g/{friend}", "/no-such-page"):
        _visit(page, f"{live_server.url}{path}", problems)
    assert not problems, problems

    # Scripts and the websocket work: the AI answers a move made on the board.
    game_id = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    _visit(page, f"{live_server.url}/g/{game_id}", problems)
    field = page.get_by_label("Move", exact=True)
    field.fill("h8")
    field.press("Enter")
    ui.wait_for_moves(page, 2)
    problems.extend(page.evaluate("() => window.__cspViolations"))
    assert not problems, problems
