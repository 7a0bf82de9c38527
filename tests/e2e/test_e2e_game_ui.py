"""The game page's panels, as a player and as a spectator: which buttons the server allows
(no Hint between friends), a declined takeback told to the asker, the offer's buttons on
one line, PV off for a player and on for spectators, the engine panel's last known
figures (never dashes, Speed in full), "engine warming up", the evaluation graph on one
win-rate scale with its newest point inside, arrow keys on a focused board, a click on
the board while replaying, toasts clear of the replay bar, and translated labels."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

MOVES = [[7, 7], [8, 8], [7, 8], [8, 7]]


def open_game(page: Page, live_server, ui, **body: Any) -> str:
    game_id = ui.create_game(page.context, live_server.url, **body)
    page.goto(f"{live_server.url}/g/{game_id}")
    return game_id


def receive(page: Page, event: str, payload: dict[str, Any]) -> None:
    """Feeds a server event through the page's own handler table."""
    page.evaluate("([e, p]) => window.gomokuGame.receive(e, p)", [event, payload])


def overlaps(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_friends_get_no_hint_and_a_declined_takeback_is_told(
    browser: Browser, live_server, ui
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        host, guest = (context.new_page() for context in contexts)
        game_id = ui.create_game(contexts[0], live_server.url, mode="friend", color="black")
        host.goto(f"{live_server.url}/g/{game_id}")
        ui.join_as_guest(guest, f"{live_server.url}/g/{game_id}")
        expect(guest.locator("#game")).to_have_attribute("data-you", "white")
        expect(host.locator("#status")).to_have_text("Your turn")
        for page in (host, guest):
            expect(page.locator("#btn-hint")).to_be_hidden()
        ui.click_point(host, 7, 7)
        expect(guest.locator("#status")).to_have_text("Your turn")
        ui.click_point(guest, 8, 8)
        expect(host.locator("#status")).to_have_text("Your turn")
        expect(host.locator("#btn-hint")).to_be_hidden()

        guest.get_by_role("button", name="Offer takeback").click()
        offer = host.locator("#offer-box")
        expect(offer).to_be_visible()
        accept = host.locator("#btn-accept").bounding_box()
        decline = host.locator("#btn-decline").bounding_box()
        assert accept is not None and decline is not None
        assert abs(accept["y"] - decline["y"]) < 1, "Decline wrapped onto its own line"
        ui.screenshot(host, "takeback-offer")
        host.get_by_role("button", name="Decline").click()
        declined = guest.locator(".toast", has_text="Your takeback request was declined")
        expect(declined).to_have_count(1)
        expect(guest.locator("#offer-box")).to_be_hidden()
        assert ui.move_count(guest) == 2
    finally:
        for context in contexts:
            context.close()


def test_pv_is_off_for_a_player_and_on_for_a_spectator(
    browser: Browser, page: Page, live_server, ui
) -> None:
    game_id = open_game(page, live_server, ui, mode="ai", level=1, color="black")
    expect(page.locator("#status")).to_have_text("Your turn")
    expect(page.locator("#toggle-pv")).not_to_be_checked()
    watcher = browser.new_context()
    try:
        spectator = watcher.new_page()
        spectator.goto(f"{live_server.url}/g/{game_id}")
        expect(spectator.locator("#game")).to_have_attribute("data-you", "")
        expect(spectator.locator("#toggle-pv")).to_be_checked()
    finally:
        watcher.close()


def test_engine_panel_keeps_the_last_figures(page: Page, live_server, ui) -> None:
    open_game(page, live_server, ui, mode="ai", level=1, color="black", moves=[[7, 7]])
    ui.wait_for_moves(page, 2)
    ui.wait_for_my_turn_or_end(page)
    panel = page.locator("#thinking-white")
    expect(panel.locator(".t-depth")).to_have_text(re.compile(r"^\d+$"))
    # A fresh visit shows the figures of the engine's last move, with no dashes anywhere.
    page.reload()
    expect(panel.locator(".t-depth")).to_have_text(re.compile(r"^\d+$"))
    assert "\u2013" not in page.locator("#thinking-card").inner_text()  # no dash placeholders

    # Speed in full, not cut off.
    receive(
        page,
        "thinking",
        {"color": "white", "depth": 9, "score": 35, "nodes": 123456, "nps": 139300, "pv": []},
    )
    speed = panel.locator(".t-nps")
    expect(speed).to_have_text("139.3k/s")
    clipped = speed.evaluate("e => e.scrollWidth > e.clientWidth + 0.5")
    assert not clipped
    box = speed.bounding_box()
    card = page.locator("#thinking-card").bounding_box()
    assert box is not None and card is not None
    assert box["x"] + box["width"] <= card["x"] + card["width"]


def test_engine_warming_up_is_shown(page: Page, live_server, ui) -> None:
    open_game(page, live_server, ui, mode="ai", level=1, color="black")
    expect(page.locator("#status")).to_have_text("Your turn")
    state = ui.state(page)
    waiting = {
        **state,
        "version": state["version"] + 1,
        "moves": [[7, 7]],
        "turn": "white",
        "warming": True,
    }
    for key in ("actions", "legal"):
        waiting.pop(key, None)
    receive(page, "state", waiting)
    expect(page.locator("#status")).to_have_text("Engine warming up…")
    expect(page.locator("#thinking-white .thinking-note")).to_have_text("Engine warming up…")
    receive(page, "state", {**waiting, "version": waiting["version"] + 1, "warming": False})
    expect(page.locator("#status")).to_have_text("AI is thinking…")


def test_eval_graph_plots_black_win_rate_with_the_newest_point_inside(
    page: Page, live_server, ui
) -> None:
    open_game(page, live_server, ui, mode="ai", level=1, color="black")
    expect(page.locator("#status")).to_have_text("Your turn")
    state = ui.state(page)
    # Forty moves by engines that score on different scales: one win-rate line.
    evals = [
        {"ply": ply, "score": 0, "depth": 4, "nodes": 1000, "ms": 10, "black_winrate": 0.5}
        for ply in range(1, 41)
    ]
    evals[-1]["black_winrate"] = 0.9
    moves = [[x % 15, x // 15] for x in range(40)]
    receive(
        page, "state", {**state, "version": state["version"] + 1, "moves": moves, "evals": evals}
    )
    graph = page.locator("#eval-graph")
    expect(graph).to_have_attribute("data-points", "40")
    dot = graph.locator("circle.eval-dot")
    cx = float(dot.get_attribute("cx") or 0)
    cy = float(dot.get_attribute("cy") or 0)
    assert 0 < cx < 300 and cx > 290, cx
    assert cy < 40, "black ahead is drawn in black's (upper) half"
    # A live report for move 41 stretches the scale so it stays inside too.
    receive(page, "thinking", {"color": "black", "depth": 5, "score": -200, "black_winrate": 0.2})
    live = graph.locator("circle.eval-live-dot")
    expect(live).to_have_count(1)
    assert float(live.get_attribute("cx") or 0) < 300
    assert float(live.get_attribute("cy") or 0) > 40


def test_arrow_keys_step_through_moves_on_a_focused_board(
    browser: Browser, live_server, ui
) -> None:
    owner = browser.new_context()
    watcher = browser.new_context()
    try:
        game_id = ui.create_game(
            owner, live_server.url, mode="ai", level=1, color="black", moves=MOVES
        )
        page = watcher.new_page()
        page.goto(f"{live_server.url}/g/{game_id}")
        expect(page.locator("#replay-position")).to_have_text("4 / 4")
        page.locator("#board").focus()
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#replay-position")).to_have_text("2 / 4")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-position")).to_have_text("3 / 4")
        page.keyboard.press("End")
        expect(page.locator("#replay-position")).to_have_text("4 / 4")
    finally:
        owner.close()
        watcher.close()


def test_clicking_the_board_while_replaying_returns_to_the_game(
    page: Page, live_server, ui
) -> None:
    open_game(page, live_server, ui, mode="ai", level=1, color="black", moves=MOVES)
    expect(page.locator("#status")).to_have_text("Your turn")
    page.get_by_role("button", name="Previous move").click()
    expect(page.locator("#replay-position")).to_have_text("3 / 4")
    ui.click_point(page, 3, 3)
    expect(page.locator(".toast")).to_contain_text("back to the current position")
    expect(page.locator("#replay-position")).to_have_text("4 / 4")
    assert ui.move_count(page) == 4
    # Now the board takes the move.
    ui.click_point(page, 3, 3)
    ui.wait_for_moves(page, 5)


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
)
def test_toasts_stay_clear_of_the_replay_bar(
    browser: Browser, live_server, ui, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        game_id = ui.create_game(context, live_server.url, mode="ai", level=1, color="black")
        page.goto(f"{live_server.url}/g/{game_id}")
        expect(page.locator("#status")).to_have_text("Your turn")
        page.locator(".replay-bar").scroll_into_view_if_needed()
        for _ in range(3):
            page.evaluate(
                "() => window.gomokuGame.receive('error', {code: 'not_your_turn', message: ''})"
            )
        toasts = page.locator(".toast")
        expect(toasts).to_have_count(3)
        bar = page.locator(".replay-bar").bounding_box()
        for index in range(3):
            assert not overlaps(toasts.nth(index).bounding_box(), bar)
    finally:
        context.close()


def test_labels_and_errors_are_translated(page: Page, live_server, ui) -> None:
    open_game(page, live_server, ui, mode="ai", level=5, color="black")
    expect(page.locator("#player-white .name")).to_have_text("AI Level 5 · Master")
    page.get_by_role("link", name="简体中文").click()
    expect(page.locator("#player-white .name")).to_have_text("AI 5 级 · 大师")
    page.evaluate(
        "() => window.gomokuGame.receive('error', {code: 'not_your_turn', message: 'It is not'})"
    )
    expect(page.locator(".toast").last).to_have_text("还没轮到你")
    page.goto(live_server.url + "/players")
    expect(page.locator('tr[data-player-id="negamax:5"] .rating-name')).to_have_text("AI 5 级")
    page.goto(live_server.url + "/")
    black = page.locator("#form-aivai select[name=black_player]")
    expect(black.locator("option[value='negamax:5']")).to_have_text("5 · 大师")


def long_game_without_five(count: int, size: int = 15) -> list[list[int]]:
    """``count`` moves spread over the board, alternating colours, with no five anywhere."""
    grid: dict[tuple[int, int], int] = {}

    def makes_five(x: int, y: int, who: int) -> bool:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while grid.get((cx, cy)) == who:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 5:
                return True
        return False

    moves: list[list[int]] = []
    points = [(x, y) for y in range(2, size - 2) for x in range(2, size - 2)]
    points.sort(key=lambda p: ((p[0] * 7 + p[1] * 3) % 11, p))
    for x, y in points:
        if len(moves) == count:
            break
        who = len(moves) % 2
        if makes_five(x, y, who):
            continue
        grid[(x, y)] = who
        moves.append([x, y])
    return moves


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_stepping_back_scrolls_the_move_list_not_the_page(
    browser: Browser, live_server, ui, phone: bool
) -> None:
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    try:
        moves = long_game_without_five(60)
        game_id = ui.create_game(
            context, live_server.url, mode="friend", color="black", moves=moves
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/g/{game_id}")
        expect(page.locator("#replay-position")).to_have_text("60 / 60")
        page.locator(".replay-bar").scroll_into_view_if_needed()
        before = page.evaluate("() => window.scrollY")
        previous = page.locator("#nav-prev")
        for step in range(1, 31):
            if phone:
                previous.tap()
            else:
                previous.click()
            expect(page.locator("#replay-position")).to_have_text(f"{60 - step} / 60")
            assert page.evaluate("() => window.scrollY") == before
        # The list's own box followed the current move.
        in_view = page.evaluate(
            """() => {
                const list = document.getElementById('move-list');
                const item = list.querySelector('.current').getBoundingClientRect();
                const box = list.getBoundingClientRect();
                return item.top >= box.top - 1 && item.bottom <= box.bottom + 1;
            }"""
        )
        assert in_view
        ui.screenshot(page, "replay-stepped-" + ("phone" if phone else "desktop"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_engine_figures_are_black_s_like_the_graph(page: Page, live_server, ui, lang) -> None:
    """Score and win chance on every engine's card are Black's, as the card says and as
    the evaluation graph plots them, whichever side the engine plays."""
    page.set_viewport_size({"width": 1280, "height": 800})
    game_id = ui.create_game(page.context, live_server.url, mode="ai", level=1, color="black")
    page.goto(f"{live_server.url}/g/{game_id}?lang={lang}")
    ui.wait_for_my_turn_or_end(page)
    state = ui.state(page)
    # White (the engine) has just answered and sees Black losing: -3.00 from Black's side.
    evals = [
        {"ply": 1, "score": 40, "depth": 6, "nodes": 900, "ms": 20, "black_winrate": 0.6},
        {"ply": 2, "score": -300, "depth": 8, "nodes": 5000, "ms": 40, "black_winrate": 0.2},
    ]
    receive(
        page,
        "state",
        {**state, "version": state["version"] + 1, "moves": [[7, 7], [8, 8]], "evals": evals},
    )
    panel = page.locator("#thinking-white")
    expect(panel.locator(".t-score")).to_have_text("\u22123.00")
    expect(panel.locator(".t-winrate")).to_have_text("20%")
    label = "Black's win chance" if lang == "en" else "黑方胜率"
    expect(panel.locator("dt").nth(2)).to_have_text(label)
    expect(page.locator("#eval-graph")).to_have_attribute("data-points", "2")
    ui.screenshot(page, f"engine-card-black-view-{lang}")
    # A live report comes from the thinking side's point of view: White's +3.00 is
    # Black's -3.00.
    receive(
        page,
        "state",
        {
            **state,
            "version": state["version"] + 2,
            "moves": [[7, 7], [8, 8], [7, 8]],
            "turn": "white",
            "evals": evals,
        },
    )
    receive(
        page,
        "thinking",
        {"color": "white", "depth": 9, "score": 300, "black_winrate": 0.2, "nodes": 10, "pv": []},
    )
    expect(panel).to_have_attribute("data-live", "1")
    expect(panel.locator(".t-score")).to_have_text("\u22123.00")
    expect(panel.locator(".t-winrate")).to_have_text("20%")


def test_the_tab_title_names_the_players(browser: Browser, live_server, ui) -> None:
    """The page title says who plays whom (like the link preview), not the game's id."""
    host = browser.new_context()
    try:
        page = host.new_page()
        game_id = open_game(page, live_server, ui, mode="ai", level=1, color="black")
        expect(page.locator("#status")).to_have_text("Your turn")
        name = page.locator("#player-black .name").inner_text()
        expect(page).to_have_title(re.compile(rf"^(● )?{re.escape(name)} vs AI Level 1 · Gomoku$"))
        assert game_id not in page.title()
        og = page.locator('meta[property="og:title"]').get_attribute("content")
        assert og == f"{name} vs AI Level 1 · Gomoku"

        friend_id = open_game(page, live_server, ui, mode="friend", color="white")
        name = page.locator("#player-white .name").inner_text()
        expect(page).to_have_title(f"Open seat vs {name} · Gomoku")
        og = page.locator('meta[property="og:title"]').get_attribute("content")
        assert og == f"{name} invites you to a game of Gomoku"
        assert friend_id not in page.title()
    finally:
        host.close()


def test_a_click_on_a_forbidden_point_says_why(page: Page, live_server, ui) -> None:
    # Black to move in renju; h8 would make a double three, forbidden to black.
    moves = [[5, 7], [10, 0], [6, 7], [12, 0], [7, 5], [10, 2], [7, 6], [12, 2]]
    game_id = ui.create_game(
        page.context, live_server.url, mode="ai", level=1, color="black", rule="renju",
        moves=moves,
    )  # fmt: skip
    page.goto(f"{live_server.url}/g/{game_id}")
    expect(page.locator("#status")).to_have_text("Your turn")
    ui.click_point(page, 7, 7)
    expect(page.locator(".toast", has_text="That point is forbidden for black")).to_be_visible()
    ui.click_point(page, 5, 7)
    expect(page.locator(".toast", has_text="already taken")).to_be_visible()
    assert ui.move_count(page) == len(moves)
