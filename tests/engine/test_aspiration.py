"""How the root's aspiration window opens after a search fails outside it."""

from __future__ import annotations

from engine.kernel.scores import INF, MATE
from engine.search.aspiration import (
    ASPIRATION_LIMIT,
    ASPIRATION_WINDOW,
    first_window,
    widened,
)


def test_the_first_window_is_narrow_around_the_last_score_from_the_third_iteration() -> None:
    assert first_window(40, 3) == (40 - ASPIRATION_WINDOW, 40 + ASPIRATION_WINDOW)
    assert first_window(40, 2) == (-INF, INF)
    assert first_window(None, 5) == (-INF, INF)
    assert first_window(MATE - 9, 12) == (-INF, INF)


def test_a_fail_low_widens_downwards_around_the_returned_score_keeping_beta() -> None:
    window, spread = widened(-70, (-50, 110), ASPIRATION_WINDOW)
    assert spread == 2 * ASPIRATION_WINDOW
    assert window == (-70 - spread, 110)


def test_a_fail_high_widens_upwards_around_the_returned_score_keeping_alpha() -> None:
    window, spread = widened(200, (-50, 110), ASPIRATION_WINDOW)
    assert window == (-50, 200 + spread)


def test_repeated_fails_double_the_step_until_the_window_opens_fully() -> None:
    window, spread = (-50, 110), ASPIRATION_WINDOW
    lows = []
    value = -60
    while window[0] > -INF:
        window, spread = widened(value, window, spread)
        lows.append(window[0])
        value = window[0] - 1 if window[0] > -INF else value
    assert lows[:-1] == [-60 - 160, -221 - 320, -542 - 640]
    assert lows[-1] == -INF and spread > ASPIRATION_LIMIT
    assert window[1] == 110


def test_a_mate_score_opens_the_window_at_once() -> None:
    assert widened(-(MATE - 7), (-50, 110), ASPIRATION_WINDOW)[0] == (-INF, 110)
    assert widened(MATE - 7, (-50, 110), ASPIRATION_WINDOW)[0] == (-50, INF)
