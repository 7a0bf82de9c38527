"""Browser-test fixtures: Debian's Chromium for pytest-playwright, and ``ui``, a helper that
maps board points to canvas pixels (from the canvas's data attributes), reads the page's
game state, waits for moves, picks sensible moves for a scripted player, and saves
screenshots to ``tests/artifacts/screenshots``. The server itself is ``live_server`` from
``tests/conftest.py`` (the real ``gomoku serve`` subprocess)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
AI_TIMEOUT_MS = 90_000  # the first engine call in a fresh server may compile for a while

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1366, "height": 900}}


def _line_score(grid: list[list[int]], x: int, y: int, who: int) -> int:
    """How strong a stone of ``who`` at (x, y) would be: the best line it makes."""
    size = len(grid)
    best = 0
    for dx, dy in DIRECTIONS:
        run, open_ends = 1, 0
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == who:
                run += 1
                cx, cy = cx + sign * dx, cy + sign * dy
            if 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == 0:
                open_ends += 1
        if run >= 5:
            value = 1_000_000
        elif run == 4:
            value = 50_000 if open_ends == 2 else 5_000 if open_ends else 0
        elif run == 3:
            value = 2_000 if open_ends == 2 else 200 if open_ends else 0
        else:
            value = (run * 10) * open_ends
        best = max(best, value)
    return best


def choose_move(moves: list[list[int]], size: int) -> tuple[int, int]:
    """A simple, deterministic player: win, else block, else build the longest open line."""
    grid = [[0] * size for _ in range(size)]
    for index, (x, y) in enumerate(moves):
        grid[y][x] = 1 if index % 2 == 0 else 2
    me = 1 if len(moves) % 2 == 0 else 2
    if not moves:
        return size // 2, size // 2
    best: tuple[float, tuple[int, int]] | None = None
    centre = (size - 1) / 2
    for y in range(size):
        for x in range(size):
            if grid[y][x]:
                continue
            near = any(
                0 <= x + dx < size and 0 <= y + dy < size and grid[y + dy][x + dx]
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
            )
            if not near:
                continue
            value = _line_score(grid, x, y, me) * 1.1 + _line_score(grid, x, y, 3 - me)
            value -= (abs(x - centre) + abs(y - centre)) * 0.01
            if best is None or value > best[0]:
                best = (value, (x, y))
    if best is None:  # every neighbour is taken: any free point will do
        return next((x, y) for y in range(size) for x in range(size) if not grid[y][x])
    return best[1]


class BoardUi:
    """Operations on a game page, in board coordinates."""

    screenshots = SCREENSHOTS

    def point_position(self, page: Page, x: int, y: int) -> tuple[float, float]:
        canvas = page.locator("#board")
        box = canvas.bounding_box()
        assert box is not None, "the board canvas is not visible"
        cell = float(canvas.get_attribute("data-cell") or 0)
        origin_x = float(canvas.get_attribute("data-origin-x") or 0)
        origin_y = float(canvas.get_attribute("data-origin-y") or 0)
        assert cell > 0, "the canvas has no data-cell"
        return box["x"] + origin_x + x * cell, box["y"] + origin_y + y * cell

    def click_point(self, page: Page, x: int, y: int) -> None:
        px, py = self.point_position(page, x, y)
        page.mouse.click(px, py)

    def state(self, page: Page) -> dict[str, Any]:
        return page.evaluate("() => window.gomokuGame.state")  # type: ignore[no-any-return]

    def move_count(self, page: Page) -> int:
        return int(page.locator("#game").get_attribute("data-move-count") or 0)

    def wait_for_moves(self, page: Page, count: int, timeout: float = AI_TIMEOUT_MS) -> None:
        page.wait_for_function(
            "n => Number(document.getElementById('game').dataset.moveCount) >= n",
            arg=count,
            timeout=timeout,
        )

    def wait_for_my_turn_or_end(self, page: Page, timeout: float = AI_TIMEOUT_MS) -> None:
        page.wait_for_function(
            """() => {
                const g = document.getElementById('game');
                return g.dataset.status === 'finished' ||
                    (g.dataset.status === 'active' && g.dataset.turn === g.dataset.you);
            }""",
            timeout=timeout,
        )

    def play_scripted_move(self, page: Page) -> tuple[int, int]:
        state = self.state(page)
        assert state["you"] == state["turn"], "scripted move off turn"
        x, y = choose_move(state["moves"], state["size"])
        before = len(state["moves"])
        self.click_point(page, x, y)
        self.wait_for_moves(page, before + 1)
        return x, y

    def play_until_finished(self, page: Page, max_moves: int = 120) -> dict[str, Any]:
        for _ in range(max_moves):
            self.wait_for_my_turn_or_end(page)
            if page.locator("#game").get_attribute("data-status") == "finished":
                break
            self.play_scripted_move(page)
        self.wait_for_my_turn_or_end(page)
        return self.state(page)

    def join_as_guest(self, page: Page, url: str) -> None:
        """Opens a friend's invite link and takes the free seat with the page's button
        (opening the link alone never takes a seat)."""
        page.goto(url)
        button = page.locator("#btn-take-seat")
        if button.is_visible():
            button.click()
        page.wait_for_function(
            "() => document.getElementById('game').dataset.you !== ''", timeout=10_000
        )

    def create_game(self, context: BrowserContext, base_url: str, **body: Any) -> str:
        """POST /api/v1/games from this browser context (so it keeps the seat cookie)."""
        reply = context.request.post(f"{base_url}/api/v1/games", data=body)
        assert reply.status == 201, reply.text()
        return str(reply.json()["id"])

    def screenshot(self, page: Page, name: str, full_page: bool = False) -> Path:
        path = self.screenshots / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        # Let the board's requestAnimationFrame redraw land before capturing.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path


@pytest.fixture
def ui() -> BoardUi:
    return BoardUi()
