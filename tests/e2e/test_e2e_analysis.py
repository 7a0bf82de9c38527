"""The analysis board in a real browser: the empty board's opening move, stones placed by
clicking, the top moves listed
and updated as the engine goes deeper, a new stone restarting the analysis, undo, the line
count, a game's position opened from its page, and screenshots at desktop and phone sizes
(tests/artifacts/screenshots/analysis-*.png) without sideways scrolling."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

UPDATE_TIMEOUT_MS = 120_000
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}


def depth_shown(page: Page) -> int:
    text = page.locator("#an-figures").text_content() or ""
    match = re.search(r"(\d+)", text)
    return int(match.group(1)) if match else 0


def test_place_stones_and_see_the_top_moves_update(page: Page, live_server: Any, ui: Any) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/analysis")
    # The empty board is not searched: the centre is shown as the opening move.
    lines = page.locator("#an-lines-list li")
    expect(page.locator("#an-status")).to_have_text(
        "Empty board: the first stone goes in the centre. Place stones to analyse",
        timeout=UPDATE_TIMEOUT_MS,
    )
    expect(lines).to_have_count(1)
    expect(lines.first.locator(".line-move")).to_have_text("h8")
    expect(page.locator("#an-figures")).to_have_text("")
    for x, y in ((7, 7), (8, 8), (7, 8)):
        ui.click_point(page, x, y)
    expect(lines).to_have_count(3, timeout=UPDATE_TIMEOUT_MS)
    first_depth = depth_shown(page)
    page.wait_for_function(
        f"() => /depth (\\d+)/.test(document.getElementById('an-figures').textContent) && "
        f"Number(document.getElementById('an-figures').textContent.match(/depth (\\d+)/)[1]) "
        f"> {first_depth}",
        timeout=UPDATE_TIMEOUT_MS,
    )
    names = [n.strip() for n in page.locator("#an-lines-list .line-move").all_text_contents()]
    assert len(set(names)) == 3
    assert not {"h8", "i7", "h7"} & set(names)
    ui.screenshot(page, "analysis-desktop-running")

    # Another stone: the list is rebuilt for white to move.
    ui.click_point(page, 6, 6)
    expect(lines).to_have_count(3, timeout=UPDATE_TIMEOUT_MS)
    assert "g9" not in page.locator("#an-lines-list .line-move").all_text_contents()

    # One line only, then undo.
    page.locator("#an-lines").select_option("1")
    expect(lines).to_have_count(1, timeout=UPDATE_TIMEOUT_MS)
    page.locator("#an-undo").click()
    expect(lines).to_have_count(1, timeout=UPDATE_TIMEOUT_MS)
    assert errors == []


def test_a_forced_win_is_labelled_and_a_game_opens_on_the_board(
    page: Page, live_server: Any, ui: Any
) -> None:
    game = ui.create_game(
        page.context, live_server.url, mode="friend", color="black",
        moves=[[5, 7], [0, 0], [6, 7], [0, 2], [7, 7], [0, 4]],
    )  # fmt: skip
    page.goto(live_server.url + f"/g/{game}")
    page.locator("#btn-analyse").click()
    page.wait_for_url(re.compile(r"/analysis\?game="))
    first = page.locator("#an-lines-list li").first
    expect(first.locator(".line-score")).to_contain_text("black wins in", timeout=UPDATE_TIMEOUT_MS)


def test_analyse_opens_the_replayed_position(page: Page, live_server: Any, ui: Any) -> None:
    game = ui.create_game(
        page.context, live_server.url, mode="friend", color="black",
        moves=[[7, 7], [8, 8], [7, 8], [9, 6]],
    )  # fmt: skip
    page.goto(live_server.url + f"/g/{game}")
    expect(page.locator("#btn-analyse")).to_have_attribute("href", re.compile(r"&ply=4$"))
    page.locator("#nav-prev").click()
    page.locator("#nav-prev").click()
    expect(page.locator("#btn-analyse")).to_have_attribute("href", re.compile(r"&ply=2$"))
    page.locator("#btn-analyse").click()
    page.wait_for_url(re.compile(r"/analysis\?game=.*&ply=2$"))
    expect(page.locator("#an-lines-list li").first).to_be_visible(timeout=UPDATE_TIMEOUT_MS)
    position = page.evaluate(
        "() => JSON.parse(document.getElementById('analysis-position').textContent)"
    )
    assert position["moves"] == [[7, 7], [8, 8]]


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots(browser: Browser, live_server: Any, ui: Any, size: str) -> None:
    context = browser.new_context(**SIZES[size])
    try:
        page = context.new_page()
        game = ui.create_game(
            context, live_server.url, mode="friend", color="black",
            moves=[[7, 7], [8, 8], [7, 8], [9, 6], [6, 6], [8, 7], [9, 9]],
        )  # fmt: skip
        page.goto(live_server.url + f"/analysis?game={game}")
        expect(page.locator("#an-lines-list li")).to_have_count(3, timeout=UPDATE_TIMEOUT_MS)
        ui.screenshot(page, f"analysis-{size}", full_page=True)
        wide = page.evaluate(
            "() => [...document.querySelectorAll('body *')].filter(e => "
            "e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
            ".map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8)"
        )
        scroll = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert scroll <= SIZES[size]["viewport"]["width"], wide
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_game_opens_with_its_five_and_how_to_go_on(
    browser: Browser, live_server: Any, ui: Any, size: str
) -> None:
    """A finished game opens on its final position with the five marked and the advice to
    undo a move; undoing one starts the analysis of the position before the win."""
    context = browser.new_context(**SIZES[size])
    try:
        page = context.new_page()
        five = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]
        game = ui.create_game(context, live_server.url, mode="friend", color="black", moves=five)
        page.goto(live_server.url + f"/g/{game}")
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
        page.locator("#btn-analyse").click()
        page.wait_for_url(re.compile(r"/analysis\?game="))
        status = page.locator("#an-status")
        expect(status).to_have_text(
            "The game is over — undo a move to analyse the position before it"
        )
        board = page.locator("#board")
        expect(board).to_have_attribute("data-win-line", "3,7 4,7 5,7 6,7 7,7")
        expect(page.locator("#an-lines-list li")).to_have_count(0)
        ui.screenshot(page, f"analysis-finished-{size}", full_page=size == "phone")
        page.locator("[data-set-lang=zh]").click()
        expect(status).to_have_text("对局已结束——悔一步棋即可分析之前的局面")
        page.locator("#an-undo").click()
        expect(board).to_have_attribute("data-win-line", "")
        expect(page.locator("#an-lines-list li").first).to_be_visible(timeout=UPDATE_TIMEOUT_MS)
    finally:
        context.close()
