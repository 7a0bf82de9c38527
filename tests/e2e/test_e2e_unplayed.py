"""A game nobody moved in, in browsers: on a server that aborts such games after a second
(``UNSTARTED_MS``), the creator's open page turns to the aborted state, the home page never
lists the game as one to watch, and a visitor who opens the link later reads that nobody
moved, in English and in Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, running_server

pytestmark = pytest.mark.e2e


@pytest.fixture
def quick_abort_server(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(tmp_path / "instance", env={"UNSTARTED_MS": "1500"}) as server:
        yield server


def test_an_untouched_game_is_called_off_and_says_why(
    browser: Browser, quick_abort_server: LiveServer, ui: Any
) -> None:
    url = quick_abort_server.url
    creator = browser.new_context(viewport={"width": 1280, "height": 800})
    visitor = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = creator.new_page()
        game_id = ui.create_game(creator, url, mode="ai", color="black", level=1)
        home = visitor.new_page()
        home.goto(url)
        expect(home.locator(f'.live-game[data-game-id="{game_id}"]')).to_have_count(0)

        page.goto(f"{url}/g/{game_id}")
        expect(page.locator("#game")).to_have_attribute("data-status", "finished", timeout=10_000)
        expect(page.locator("#result-title")).to_have_text("Game aborted")
        # The open page says why at once, without a reload.
        sentence = "Nobody moved, so the game was called off. It counts for no one."
        expect(page.locator("#result-sub")).to_have_text(sentence)

        later = visitor.new_page()
        later.goto(f"{url}/g/{game_id}")
        note = later.locator("#result-sub")
        expect(note).to_be_visible()
        expect(note).to_have_text(sentence)
        later.locator("[data-set-lang=zh]").first.click()
        zh = "双方都没有落子，对局已取消，不计入任何人的战绩。"  # noqa: RUF001
        expect(note).to_have_text(zh)
    finally:
        creator.close()
        visitor.close()
