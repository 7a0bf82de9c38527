"""How good a move was, from the engine's win probabilities before and after it.

A move's loss is how much the mover's chance to win (``game.winrate``: one 0..1 scale for
every engine) fell with it: ``max(0, before - after)`` seen from the mover's side, where
``before`` is the engine's view of the position the mover faced and ``after`` its view of
the position the move left. The class is read from that loss:

==============  ================================================  ======
class           loss of winning chance for the mover              symbol
==============  ================================================  ======
``best``        the engine's own move, or under 2 %               ``!``
``good``        2 % to under 5 %                                  (none)
``inaccuracy``  5 % to under 10 %                                 ``?!``
``mistake``     10 % to under 20 %                                ``?``
``blunder``     20 % or more                                      ``??``
==============  ================================================  ======

Why these bounds: on the logistic scale of ``winrate`` (300 centi-units read as 73 %),
near an even position 2 % is about 25 centi-units, less than the engine's own score moves
between two depths, so such a move is as good as the engine's; 5 % is about 60 units, a
small positional concession; 10 % about 120, a real one; 20 % about 250, nearly an open
three's worth, which in Gomoku usually decides the game. Losses are in probability, so in
a position already won or lost by far (near 0 or 1 the curve is flat) only a change of
result counts, as in chess reviews.

Forced wins are flagged apart from the classes: a *missed* forced win (the mover had a
win by threats or a mate score before the move and the move gave it up) and an *allowed*
forced win (the move left the opponent a forced win the mover did not already face).
Pure functions; ``report`` applies them to a whole game."""

from __future__ import annotations

from enum import StrEnum

BEST_LOSS = 0.02
GOOD_LOSS = 0.05
INACCURACY_LOSS = 0.10
MISTAKE_LOSS = 0.20
# After a missed win the mover is "still winning" (nothing missed) at this chance or more:
# the engine may not prove in its short search a second win the mover chose instead.
STILL_WINNING = 0.9


class MoveClass(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        return SYMBOLS[self]


SYMBOLS = {
    MoveClass.BEST: "!",
    MoveClass.GOOD: "",
    MoveClass.INACCURACY: "?!",
    MoveClass.MISTAKE: "?",
    MoveClass.BLUNDER: "??",
}

# The thresholds as the page shows them (upper bounds of each class's loss).
THRESHOLDS = {
    MoveClass.BEST.value: BEST_LOSS,
    MoveClass.GOOD.value: GOOD_LOSS,
    MoveClass.INACCURACY.value: INACCURACY_LOSS,
    MoveClass.MISTAKE.value: MISTAKE_LOSS,
}


def win_loss(before: float, after: float) -> float:
    """The mover's loss of winning chance (both from the mover's side), never negative."""
    return max(0.0, before - after)


def classify(loss: float, *, engine_move: bool = False) -> MoveClass:
    """The class of a move that cost the mover ``loss`` (0..1) of winning chance;
    ``engine_move``: the move is the one the engine chose, which is best by definition."""
    if loss < 0 or loss > 1:
        raise ValueError(f"a loss of winning chance is between 0 and 1, not {loss}")
    if engine_move or loss < BEST_LOSS:
        return MoveClass.BEST
    if loss < GOOD_LOSS:
        return MoveClass.GOOD
    if loss < INACCURACY_LOSS:
        return MoveClass.INACCURACY
    if loss < MISTAKE_LOSS:
        return MoveClass.MISTAKE
    return MoveClass.BLUNDER


def missed_forced_win(
    *, had_win: bool, played_winning_move: bool, still_won: bool, after: float
) -> bool:
    """Whether the move gave up a forced win: the mover ``had_win`` before it, did not
    play the win's first move, the position after is not proved lost for the opponent
    (``still_won``) and the mover's chance after it (``after``) is under
    ``STILL_WINNING``."""
    return had_win and not played_winning_move and not still_won and after < STILL_WINNING


def allowed_forced_win(*, opponent_wins_after: bool, already_lost: bool) -> bool:
    """Whether the move left the opponent a forced win (``opponent_wins_after``) that the
    mover was not already facing whatever it played (``already_lost``)."""
    return opponent_wins_after and not already_lost
