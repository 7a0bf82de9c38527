"""Keyboard play (the Move field with ``h8`` and ``x,y``, the board cursor), replay with
the arrow keys, and switching the interface to 简体中文 and back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def point_name(point: list[int], size: int = 15) -> str:
    return "abcdefghijklmnopqrstuv"[point[0]] + str(size - point[1])


def test_move_field_accepts_names_and_pairs(page: Page, live_server, ui) -> None:
    game_id = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    page.goto(f"{live_server.url}/g/{game_id}")
    field = page.get_by_label("Move", exact=True)

    field.fill("h8")
    field.press("Enter")
    ui.wait_for_moves(page, 1)
    assert ui.state(page)["moves"][0] == [7, 7]
    ui.wait_for_my_turn_or_end(page)

    # The same point as a pair is refused with a message and changes nothing.
    field.fill("7,7")
    field.press("Enter")
    expect(page.locator(".toast")).to_contain_text("already taken")
    assert ui.move_count(page) == 2

    taken = {tuple(m) for m in ui.state(page)["moves"]}
    target = next(p for p in [(6, 6), (8, 8), (6, 8), (8, 6)] if p not in taken)
    field.fill(f"{target[0]},{target[1]}")
    field.press("Enter")
    ui.wait_for_moves(page, 3)
    assert tuple(ui.state(page)["moves"][2]) == target
    ui.wait_for_my_turn_or_end(page)

    field.fill("z99")
    field.press("Enter")
    expect(page.locator(".toast").last).to_contain_text("Cannot read a point")

    # The board takes arrow keys and Enter when focused; the cursor starts on the last move.
    state = ui.state(page)
    taken = {tuple(m) for m in state["moves"]}
    page.locator("#board").focus()
    cursor = list(state["moves"][-1])
    expect(page.locator("#board")).to_have_attribute("data-cursor", point_name(cursor))
    key, step = ("ArrowUp", -1) if cursor[1] > 7 else ("ArrowDown", 1)
    while tuple(cursor) in taken:
        page.keyboard.press(key)
        cursor[1] += step
    expect(page.locator("#board")).to_have_attribute("data-cursor", point_name(cursor))
    page.keyboard.press("Enter")
    ui.wait_for_moves(page, 5)
    assert ui.state(page)["moves"][4] == cursor

    # Arrow keys elsewhere step through the game without changing it.
    page.locator("h3", has_text="Moves").click()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"^\d+ / \d+$"))
    shown, total = page.locator("#replay-position").inner_text().split(" / ")
    assert int(shown) == int(total) - 2
    page.get_by_role("button", name="First move").click()
    expect(page.locator("#replay-position")).to_have_text(f"0 / {total}")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#replay-position")).to_have_text(f"{total} / {total}")
    assert ui.move_count(page) == int(total)


def test_language_switch_to_chinese_and_back(page: Page, live_server, ui) -> None:
    game_id = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#status")).to_have_text("Your turn")

    page.get_by_role("link", name="简体中文").click()
    expect(page.locator("#status")).to_have_text("轮到你了")
    expect(page.locator(".site-nav a").first).to_have_text("对弈")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("lang") == "zh"

    page.reload()
    expect(page.locator("#status")).to_have_text("轮到你了")
    page.goto(live_server.url + "/")
    expect(page.locator("#form-ai h2, #ai-title")).to_contain_text("人机对弈")
    ui.screenshot(page, "home-zh")

    page.get_by_role("link", name="English").click()
    expect(page.locator("#ai-title")).to_contain_text("Play the computer")
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#status")).to_have_text("Your turn")


CJK = re.compile(r"[\u4e00-\u9fff]")
# Names that stay as they are in any language.
UNTRANSLATED = {"English", "简体中文"}


def english_labels(page: Page) -> list[str]:
    """aria-labels and titles on the page that carry no Chinese at all."""
    labels: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('[aria-label], option[title]')]
            .flatMap(el => [el.getAttribute('aria-label'), el.tagName === 'OPTION'
                ? el.getAttribute('title') : null])
            .filter(text => text)"""
    )
    return [text for text in labels if not CJK.search(text) and text not in UNTRANSLATED]


def test_tooltips_and_aria_labels_are_translated(page: Page, live_server, ui) -> None:
    """In Chinese, the AI descriptions on the home page and the aria-labels of every page
    are Chinese too."""
    page.set_viewport_size({"width": 1280, "height": 800})
    five = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]
    finished = ui.create_game(
        page.context, live_server.url, mode="friend", color="black", moves=five
    )
    live = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    page.goto(live_server.url + "/?lang=zh")
    form = page.locator("#form-aivai")
    expect(form.locator("option[value='negamax:4']").first).to_have_attribute(
        "title", "每步搜索一秒。"
    )
    expect(form.locator("option[value='mcts']").first).to_have_attribute(
        "title", re.compile("蒙特卡洛")
    )
    for path in (
        "/",
        f"/g/{live}",
        f"/g/{finished}/review",
        f"/analysis?game={finished}",
        "/puzzles",
        "/leaderboard",
    ):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert english_labels(page) == [], path
    # Back in English the labels are English again.
    page.locator("[data-set-lang=en]").click()
    expect(page.locator("nav.site-nav")).to_have_attribute("aria-label", "Main")
