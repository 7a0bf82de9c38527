"""Reviewing a finished game in the browser: the game page's Review link, the progress
bar while the engine works, then the win-probability graph, every move classed, the
summary, the engine's better move on the board, and "play from here" starting a game
against the AI at the position shown. Screenshots at 1280x800 and 390x844."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, running_server

pytestmark = pytest.mark.e2e

# Two scripted players (tests/e2e/conftest.py ``choose_move``) from a four-stone opening:
# black makes five with the 59th move, after mistakes on both sides.
GAME = [
    [7, 7], [8, 8], [8, 6], [6, 8], [7, 8], [7, 9], [9, 7], [5, 7], [4, 6], [8, 10],
    [9, 11], [8, 9], [8, 11], [6, 9], [5, 9], [9, 9], [10, 9], [10, 8], [7, 11], [6, 11],
    [6, 10], [4, 8], [8, 12], [9, 13], [10, 11], [11, 11], [10, 10], [11, 9], [10, 12],
    [10, 13], [7, 13], [6, 14], [11, 7], [11, 13], [12, 13], [11, 12], [11, 10], [12, 11],
    [13, 10], [12, 10], [13, 11], [12, 9], [12, 8], [6, 6], [7, 5], [6, 7], [6, 5], [3, 9],
    [2, 10], [7, 6], [6, 4], [5, 3], [8, 5], [5, 5], [9, 5], [10, 5], [10, 6], [13, 9],
    [8, 4],
]  # fmt: skip
REVIEW_TIMEOUT_MS = 240_000


@pytest.fixture
def review_server(tmp_path: Path) -> Iterator[LiveServer]:
    # A shorter search per position keeps the browser test short.
    with running_server(tmp_path / "review-instance", env={"REVIEW_TIME_S": "0.2"}) as server:
        yield server


def test_review_a_finished_game(page: Page, review_server: LiveServer, ui) -> None:
    url = review_server.url
    game_id = ui.create_game(page.context, url, mode="friend", color="black", moves=GAME)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{url}/g/{game_id}")
    page.get_by_role("link", name="Review").click()
    page.wait_for_url(re.compile(rf"/g/{game_id}/review$"))

    # The job runs: the progress bar moves while the graph fills in.
    page.wait_for_function(
        "() => document.getElementById('review-bar').value > 0", timeout=REVIEW_TIMEOUT_MS
    )
    ui.screenshot(page, "review-progress-1280x800")
    page.wait_for_function(
        "() => document.getElementById('review').dataset.status === 'done'",
        timeout=REVIEW_TIMEOUT_MS,
    )
    expect(page.locator("#review-progress")).to_be_hidden()

    graph = page.locator("#review-graph")
    assert int(graph.get_attribute("data-points") or 0) == len(GAME) + 1
    classed = page.locator("#move-list button[data-class]")
    expect(classed).to_have_count(len(GAME))
    classes = set(classed.evaluate_all("els => els.map(e => e.dataset.class)"))
    assert classes <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert "best" in classes and classes & {"inaccuracy", "mistake", "blunder"}
    expect(page.locator("#review-summary")).to_be_visible()
    expect(page.locator("#summary-body tr")).to_have_count(8)

    # A move the engine would not have played: its better move and line are drawn.
    worst = page.locator(
        "#move-list button[data-class=blunder], #move-list button[data-class=mistake]"
    ).first
    ply = int(worst.get_attribute("data-ply") or 0)
    worst.click()
    expect(page.locator("#review")).to_have_attribute("data-ply", str(ply))
    expect(page.locator("#moment-best")).to_be_visible()
    expect(page.locator("#review")).to_have_class(re.compile("showing-better"))
    assert page.evaluate("() => window.gomokuReview.board.view.pv.length") > 0
    page.evaluate("() => window.scrollTo(0, 0)")
    ui.screenshot(page, "review-1280x800")

    # The graph is clickable: its left edge is the start.
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": 2, "y": box["height"] / 2})
    expect(page.locator("#review")).to_have_attribute("data-ply", "0")
    page.keyboard.press("End")
    expect(page.locator("#review")).to_have_attribute("data-ply", str(len(GAME)))

    page.set_viewport_size({"width": 390, "height": 844})
    worst.click()
    page.evaluate("() => window.scrollTo(0, 0)")
    ui.screenshot(page, "review-390x844")
    ui.screenshot(page, "review-390x844-full", full_page=True)

    # Play from here: a game against the AI from the position after move 10 (black to
    # move, so the visitor plays black).
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#move-list button[data-ply='10']").click()
    page.locator("#play-level").select_option("1")
    page.locator("#btn-play-from").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    assert game_id not in page.url
    ui.wait_for_moves(page, 10)
    state = ui.state(page)
    assert state["moves"][:10] == GAME[:10]
    assert state["mode"] == "ai" and state["you"] == "black"


def test_reviewing_again_serves_the_stored_review(page: Page, review_server, ui) -> None:
    url = review_server.url
    short = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]
    game_id = ui.create_game(page.context, url, mode="friend", color="black", moves=short)
    page.goto(f"{url}/g/{game_id}/review")
    page.wait_for_function(
        "() => document.getElementById('review').dataset.status === 'done'",
        timeout=REVIEW_TIMEOUT_MS,
    )
    # A second visitor gets the stored review with the page, with nothing to wait for.
    other = page.context.browser.new_page()
    other.goto(f"{url}/g/{game_id}/review")
    expect(other.locator("#review")).to_have_attribute("data-status", "done")
    expect(other.locator("#move-list button[data-class]")).to_have_count(len(short))
    other.close()
