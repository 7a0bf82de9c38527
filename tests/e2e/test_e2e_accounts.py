"""In a real browser: a guest names themselves from the header's name link, plays a
friend who sees that name, signs up keeping the game, finds it on their profile, logs out
and logs in from a second browser to the same history. Screenshots of the pages at
1280x800 and 390x844."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

PASSWORD = "correct horse battery"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def rename(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.locator("#you-link").click()
    page.wait_for_url(re.compile(r"/me$"))
    page.fill("#name-input", name)
    page.locator("#name-form button[type=submit]").click()
    expect(page.locator(".form-ok")).to_be_visible()
    expect(page.locator("#you-link .you-name")).to_have_text(name)


def shoot(page: Page, ui, name: str) -> None:
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        path = ui.screenshot(page, f"{name}-{label}", full_page=True)
        assert path.stat().st_size > 0
        # Nothing wider than the screen.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]


def test_guest_to_account_across_browsers(browser: Browser, live_server, ui) -> None:
    base = live_server.url
    first = browser.new_context(viewport=SIZES["desktop"])
    page = first.new_page()
    rename(page, base, "Ada <3")
    shoot(page, ui, "account-me-guest")

    game_id = ui.create_game(first, base, mode="friend", color="black")
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    ui.join_as_guest(friend, f"{base}/g/{game_id}")
    # The friend sees the chosen name, as text.
    expect(friend.locator("#player-black .name")).to_have_text("Ada <3")
    page.goto(f"{base}/g/{game_id}")
    expect(page.locator("#player-white .name")).to_have_text(re.compile(r"^Guest-\d{4}$"))

    page.goto(base + "/signup")
    shoot(page, ui, "account-signup")
    page.fill("#username", "Ada")
    page.fill("#password", "short")
    page.fill("#password2", "short")
    # The browser's own checks would stop this: send it anyway to see the server's answer.
    page.locator("#signup-form").evaluate("form => form.noValidate = true")
    page.locator("#signup-form button[type=submit]").click()
    expect(page.locator("#form-error")).to_have_attribute("data-code", "short_password")
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.locator("#signup-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/u/Ada$"))
    expect(page.locator(f'tr[data-game-id="{game_id}"]')).to_have_count(1)
    expect(page.locator("#profile-name")).to_have_text("Ada <3")
    shoot(page, ui, "account-profile")

    page.goto(base + "/me")
    expect(page.locator("#account-username")).to_have_text("Ada")
    page.locator("#logout-form button").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("#you-link .you-name")).to_have_text(re.compile(r"^Guest-\d{4}$"))

    second = browser.new_context(viewport=SIZES["phone"])
    phone = second.new_page()
    phone.goto(base + "/login")
    phone.fill("#username", "ada")
    phone.fill("#password", "wrong password!")
    phone.locator("#login-form button[type=submit]").click()
    expect(phone.locator("#form-error")).to_have_attribute("data-code", "wrong_password")
    shoot(phone, ui, "account-login-error")
    phone.fill("#password", PASSWORD)
    phone.locator("#login-form button[type=submit]").click()
    phone.wait_for_url(re.compile(r"/u/Ada$"))
    expect(phone.locator(f'tr[data-game-id="{game_id}"]')).to_have_count(1)
    expect(phone.locator("#you-link .you-name")).to_have_text("Ada <3")
    # The archive's filters narrow the list.
    phone.locator("select[name=result]").select_option("win")
    phone.wait_for_url(re.compile(r"result=win"))
    expect(phone.locator(".archive-row")).to_have_count(0)
    for context in (first, friend_context, second):
        context.close()


def test_the_rating_chart_draws_the_points_it_is_given(page: Page, live_server) -> None:
    page.goto(live_server.url + "/me")
    points = [
        {"rule_key": "freestyle-15", "game_id": "a1", "rating": 1500, "rd": 350, "at": 1},
        {"rule_key": "freestyle-15", "game_id": "a2", "rating": 1662, "rd": 290, "at": 2},
        {"rule_key": "renju-15", "game_id": "b1", "rating": 1410, "rd": 300, "at": 3},
    ]
    drawn = page.evaluate(
        """async (points) => {
            const { drawChart } = await import('/static/js/profile.js');
            const figure = document.createElement('figure');
            document.body.appendChild(figure);
            const svg = drawChart(figure, points);
            return {
                lines: svg.querySelectorAll('polyline').length,
                dots: svg.querySelectorAll('circle').length,
                links: [...svg.querySelectorAll('a')].map(a => a.getAttribute('href')),
                legend: figure.querySelector('.chart-legend').textContent,
                empty: drawChart(document.createElement('figure'), []) === null,
            };
        }""",
        points,
    )
    assert drawn["lines"] == 2 and drawn["dots"] == 3
    assert drawn["links"] == ["/g/a1", "/g/a2", "/g/b1"]
    assert "1662" in drawn["legend"] and "1410" in drawn["legend"]
    assert drawn["empty"] is True
