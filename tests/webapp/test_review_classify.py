"""The review's move classes at their boundaries, and the forced-win flags."""

from __future__ import annotations

import pytest

from webapp.review.classify import (
    BEST_LOSS,
    GOOD_LOSS,
    INACCURACY_LOSS,
    MISTAKE_LOSS,
    STILL_WINNING,
    MoveClass,
    allowed_forced_win,
    classify,
    missed_forced_win,
    win_loss,
)


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, MoveClass.BEST),
        (BEST_LOSS - 1e-9, MoveClass.BEST),
        (BEST_LOSS, MoveClass.GOOD),
        (GOOD_LOSS - 1e-9, MoveClass.GOOD),
        (GOOD_LOSS, MoveClass.INACCURACY),
        (INACCURACY_LOSS - 1e-9, MoveClass.INACCURACY),
        (INACCURACY_LOSS, MoveClass.MISTAKE),
        (MISTAKE_LOSS - 1e-9, MoveClass.MISTAKE),
        (MISTAKE_LOSS, MoveClass.BLUNDER),
        (1.0, MoveClass.BLUNDER),
    ],
)
def test_classes_by_loss_of_winning_chance(loss: float, expected: MoveClass) -> None:
    assert classify(loss) is expected


def test_the_thresholds_are_the_documented_ones() -> None:
    assert (BEST_LOSS, GOOD_LOSS, INACCURACY_LOSS, MISTAKE_LOSS) == (0.02, 0.05, 0.10, 0.20)


def test_the_engines_own_move_is_best_whatever_the_figures_say() -> None:
    assert classify(0.5, engine_move=True) is MoveClass.BEST


@pytest.mark.parametrize("loss", [-0.01, 1.01])
def test_a_loss_outside_zero_to_one_is_refused(loss: float) -> None:
    with pytest.raises(ValueError):
        classify(loss)


def test_symbols() -> None:
    assert [c.symbol for c in MoveClass] == ["!", "", "?!", "?", "??"]


def test_loss_is_the_movers_drop_and_never_negative() -> None:
    assert win_loss(0.7, 0.6) == pytest.approx(0.1)
    assert win_loss(0.4, 0.6) == 0.0


def test_missed_forced_win() -> None:
    base = {"had_win": True, "played_winning_move": False, "still_won": False}
    assert missed_forced_win(**base, after=0.5)
    assert not missed_forced_win(**base, after=STILL_WINNING)
    assert not missed_forced_win(**{**base, "had_win": False}, after=0.5)
    assert not missed_forced_win(**{**base, "played_winning_move": True}, after=0.5)
    assert not missed_forced_win(**{**base, "still_won": True}, after=0.5)


def test_allowed_forced_win() -> None:
    assert allowed_forced_win(opponent_wins_after=True, already_lost=False)
    assert not allowed_forced_win(opponent_wins_after=True, already_lost=True)
    assert not allowed_forced_win(opponent_wins_after=False, already_lost=False)
