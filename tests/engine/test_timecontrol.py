"""How ``TimeControl`` turns the Gomocup INFO settings into a per-move budget, and that the
brain's budget leaves room for the manager's clock."""

from __future__ import annotations

import pytest

from engine.search.timecontrol import TimeControl


@pytest.mark.parametrize("turn_ms", [300, 500, 1000, 5000])
def test_budget_stays_inside_the_turn_limit_with_a_margin(turn_ms: int) -> None:
    budget = TimeControl(turn_ms=turn_ms).move_budget(10)
    assert 0 < budget < turn_ms / 1000
    assert turn_ms / 1000 - budget >= 0.05  # room for pipes and process wake-up
    assert budget >= turn_ms / 1000 * 0.7  # but most of the time is used


def test_longer_turns_get_longer_budgets() -> None:
    budgets = [TimeControl(turn_ms=ms).move_budget(0) for ms in (300, 1000, 3000, 10000)]
    assert budgets == sorted(budgets)


def test_match_clock_limits_the_budget() -> None:
    relaxed = TimeControl(turn_ms=5000, match_ms=0).move_budget(20)
    tight = TimeControl(turn_ms=5000, match_ms=180000, left_ms=10000).move_budget(20)
    assert tight < relaxed
    assert tight <= 10.0 / 10  # never more than a tenth of what is left


def test_almost_no_time_left_still_gives_a_tiny_positive_budget() -> None:
    budget = TimeControl(turn_ms=5000, match_ms=180000, left_ms=0).move_budget(40)
    assert 0 < budget <= 0.05


def test_more_moves_played_spends_a_larger_share_of_what_is_left() -> None:
    clock = TimeControl(turn_ms=30000, match_ms=300000, left_ms=100000)
    assert clock.move_budget(80) >= clock.move_budget(0)


def test_memory_limit_sizes_the_hash_table() -> None:
    assert TimeControl(max_memory=0).tt_megabytes() == 64
    assert TimeControl(max_memory=350 * 1024 * 1024).tt_megabytes() == 64
    assert TimeControl(max_memory=40 * 1024 * 1024).tt_megabytes() == 10
    assert TimeControl(max_memory=1024).tt_megabytes() == 1


def test_zero_turn_time_means_play_fast() -> None:
    budget = TimeControl(turn_ms=0).move_budget(5)
    assert 0 < budget <= 0.1
