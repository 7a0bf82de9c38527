"""PSQ round trip in the browser: a game's Export PSQ download, imported from the lobby as
pasted text and as a chosen file, continues against the AI with the person to move."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

MOVES = [[7, 7], [8, 8], [7, 8]]


def test_export_then_import_psq(page: Page, live_server, ui, tmp_path: Path) -> None:
    # A friend game, so no AI reply lengthens the record before it is exported.
    game_id = ui.create_game(
        page.context, live_server.url, mode="friend", color="black", moves=MOVES
    )
    page.goto(f"{live_server.url}/g/{game_id}")
    href = page.get_by_role("link", name="Export PSQ").get_attribute("href")
    assert href == f"/g/{game_id}/psq"
    reply = page.request.get(live_server.url + href)
    assert reply.ok
    psq = reply.text()
    assert psq.lower().startswith("piskvorky 15x15")

    # Pasted text: the side to move (white here) is the person's colour.
    page.goto(live_server.url + "/")
    form = page.locator("#form-import")
    form.get_by_label("PSQ record").fill(psq)
    form.locator("select[name=level]").select_option("1")
    form.get_by_role("button", name="Import and play").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    assert game_id not in page.url
    ui.wait_for_moves(page, len(MOVES))
    ui.wait_for_my_turn_or_end(page)
    state = ui.state(page)
    assert state["moves"][: len(MOVES)] == MOVES
    assert state["mode"] == "ai"
    assert state["you"] == "white"

    # A chosen file fills the text box; a bad file is refused with a message.
    path = tmp_path / "game.psq"
    path.write_text(psq)
    page.goto(live_server.url + "/")
    form.locator("input[type=file]").set_input_files(str(path))
    expect(form.get_by_label("PSQ record")).to_have_value(psq)
    form.get_by_label("PSQ record").fill("not a psq file")
    form.get_by_role("button", name="Import and play").click()
    expect(form.locator(".form-error")).to_have_text(
        "The first line of a PSQ record must look like “Piskvorky 15x15, 11:11, 0”"
    )
    assert page.url.rstrip("/") == live_server.url
    # A record whose moves are not a legal game says which move is wrong.
    form.get_by_label("PSQ record").fill("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n-1\n")
    form.get_by_role("button", name="Import and play").click()
    expect(form.locator(".form-error")).to_contain_text("not a legal game")
    expect(form.locator(".form-error")).to_contain_text("occupied")
    assert page.url.rstrip("/") == live_server.url


def test_importing_a_finished_record_offers_its_replay(page: Page, live_server, ui) -> None:
    five = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]
    game_id = ui.create_game(
        page.context, live_server.url, mode="friend", color="black", moves=five
    )
    psq = page.request.get(f"{live_server.url}/g/{game_id}/psq").text()
    page.goto(live_server.url + "/")
    form = page.locator("#form-import")
    form.get_by_label("PSQ record").fill(psq)
    form.get_by_role("button", name="Import and play").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#status")).to_have_text("This game is already over")
    expect(page.locator("#imported-note")).to_be_visible()
    expect(page.locator("#move-form")).to_be_hidden()
    page.get_by_role("button", name="Replay from the start").click()
    expect(page.locator("#replay-position")).to_have_text(f"0 / {len(five)}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_have_text(f"1 / {len(five)}")
    ui.screenshot(page, "imported-finished")
