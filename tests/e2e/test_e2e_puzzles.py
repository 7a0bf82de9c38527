"""A visitor on /puzzles of a fresh server (the starter set): solves one puzzle by
clicking its solution (the engine answering each move), sees the rating and streak go
up, takes the next puzzle, fails it with a move that does not win, and steps through the
solution. Screenshots at 1280x800 and 390x844."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 60_000


def puzzle_row(live_server: Any, puzzle_id: str) -> tuple[list[list[int]], list[list[int]]]:
    """The puzzle's moves and solution, read from the server's database."""
    path = live_server.instance / "gomoku.sqlite3"
    with sqlite3.connect(path) as db:
        moves, solution = db.execute(
            "SELECT moves, solution FROM puzzles WHERE id = ?", (int(puzzle_id),)
        ).fetchone()
    return json.loads(moves), json.loads(solution)


def wait_state(page: Page, *states: str) -> str:
    page.wait_for_function(
        "(states) => states.includes(document.getElementById('puzzle').dataset.state)",
        arg=list(states),
        timeout=TIMEOUT_MS,
    )
    return str(page.locator("#puzzle").get_attribute("data-state"))


def test_solve_one_puzzle_and_fail_one(page: Page, live_server: Any, ui: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(live_server.url + "/puzzles")
    wait_state(page, "playing")
    expect(page.locator("#task-text")).to_contain_text("to play and")
    ui.screenshot(page, "puzzles-desktop")

    # Solve: click the attacker's moves of the solution; the server answers the rest.
    root = page.locator("#puzzle")
    moves, solution = puzzle_row(live_server, str(root.get_attribute("data-puzzle-id")))
    for k in range(0, len(solution), 2):
        ui.click_point(page, *solution[k])
        state = wait_state(page, "playing", "solved", "failed")
        if k + 1 < len(solution):
            assert state == "playing"
            expected = len(moves) + k + 2
            page.wait_for_function(
                "(n) => document.getElementById('board').dataset.moves === String(n)",
                arg=expected,
            )
    assert wait_state(page, "solved") == "solved"
    expect(page.locator("#puzzle-status")).to_contain_text("Solved")
    expect(page.locator("#stat-streak")).to_have_text("1")
    expect(page.locator("#stat-solved")).to_have_text("1 / 1")
    rating = int(page.locator("#stat-rating").inner_text().rstrip("?"))
    assert rating > 1500
    expect(page.locator("#solution-bar")).to_be_visible()
    ui.screenshot(page, "puzzles-solved")

    # The next puzzle: a far corner does not win (or defend) anything.
    page.locator("#btn-next").click()
    wait_state(page, "playing")
    moves, solution = puzzle_row(live_server, str(root.get_attribute("data-puzzle-id")))
    taken = {tuple(m) for m in moves}
    size = 15
    corner = next(
        (x, y)
        for x, y in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1))
        if (x, y) not in taken and [x, y] != solution[0]
    )
    ui.click_point(page, *corner)
    assert wait_state(page, "failed", "solved") == "failed"
    expect(page.locator("#stat-streak")).to_have_text("0")
    expect(page.locator("#stat-solved")).to_have_text("1 / 2")
    # Step through the solution.
    page.locator("#sol-first").click()
    expect(page.locator("#sol-position")).to_have_text(f"0 / {len(solution)}")
    page.locator("#sol-next").click()
    expect(page.locator("#sol-position")).to_have_text(f"1 / {len(solution)}")
    expect(page.locator("#board")).to_have_attribute("data-moves", str(len(moves) + 1))
    ui.screenshot(page, "puzzles-failed")


def test_puzzles_on_a_phone(page: Page, live_server: Any, ui: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/puzzles")
    wait_state(page, "playing")
    box = page.locator("#board").bounding_box()
    assert box is not None and box["width"] <= 390
    no_overflow = page.evaluate("() => document.documentElement.scrollWidth <= 390")
    assert no_overflow
    ui.screenshot(page, "puzzles-phone", full_page=True)


def board_moves(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-moves") or 0)


def test_giving_up_shows_the_solution_on_the_board(page: Page, live_server: Any, ui: Any) -> None:
    """After "Show the solution" the board shows the whole line, numbered, and the bar
    agrees with the board at every step."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(live_server.url + "/puzzles")
    wait_state(page, "playing")
    root = page.locator("#puzzle")
    moves, solution = puzzle_row(live_server, str(root.get_attribute("data-puzzle-id")))
    total = len(solution)
    page.locator("#btn-resign").click()
    assert wait_state(page, "failed") == "failed"
    expect(page.locator("#sol-position")).to_have_text(f"{total} / {total}")
    expect(page.locator("#board")).to_have_attribute("data-moves", str(len(moves) + total))
    ui.screenshot(page, "puzzles-gave-up-desktop")
    page.locator("#sol-prev").click()
    expect(page.locator("#sol-position")).to_have_text(f"{total - 1} / {total}")
    assert board_moves(page) == len(moves) + total - 1
    page.locator("#sol-first").click()
    expect(page.locator("#sol-position")).to_have_text(f"0 / {total}")
    assert board_moves(page) == len(moves)
    expect(page.locator("#sol-prev")).to_be_disabled()
    page.locator("#sol-next").click()
    expect(page.locator("#sol-position")).to_have_text(f"1 / {total}")
    assert board_moves(page) == len(moves) + 1
    page.locator("#sol-last").click()
    expect(page.locator("#sol-position")).to_have_text(f"{total} / {total}")
    assert board_moves(page) == len(moves) + total
    expect(page.locator("#sol-next")).to_be_disabled()


def test_a_wrong_move_on_a_phone_shows_the_solution(
    browser: Any, live_server: Any, ui: Any
) -> None:
    """A failed attempt replaces the visitor's wrong stone with the solution line."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        page.goto(live_server.url + "/puzzles")
        wait_state(page, "playing")
        root = page.locator("#puzzle")
        moves, solution = puzzle_row(live_server, str(root.get_attribute("data-puzzle-id")))
        taken = {tuple(m) for m in moves}
        corner = next(
            (x, y)
            for x, y in ((0, 0), (14, 0), (0, 14), (14, 14))
            if (x, y) not in taken and [x, y] != solution[0]
        )
        # A tap previews the stone, a second tap on the same point plays it.
        px, py = ui.point_position(page, *corner)
        page.touchscreen.tap(px, py)
        page.touchscreen.tap(px, py)
        assert wait_state(page, "failed", "solved") == "failed"
        total = len(solution)
        expect(page.locator("#sol-position")).to_have_text(f"{total} / {total}")
        expect(page.locator("#board")).to_have_attribute("data-moves", str(len(moves) + total))
        page.locator("#solution-bar").scroll_into_view_if_needed()
        ui.screenshot(page, "puzzles-failed-phone")
        page.locator("#sol-prev").tap()
        expect(page.locator("#sol-position")).to_have_text(f"{total - 1} / {total}")
        assert board_moves(page) == len(moves) + total - 1
    finally:
        context.close()
