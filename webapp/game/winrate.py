"""Every engine's score on one scale: black's probability of winning, 0 to 1.

The engines score on different scales and each from the side that searched: negamax in
centi-units of its pattern evaluation, MCTS as ``round((rate - 0.5) * 2000)`` of its
win rate, an external brain on whatever scale its messages use. The evaluation graph
and the engine panel read ``black_winrate`` instead, from ``black_winrate(score, engine)``
with ``score`` already turned to black's side:

- a mate score (beyond ``MATE_BOUND``) is a certain result: 1.0 for black, 0.0 against;
- ``mcts``: its win rate back, ``0.5 + score / 2000``, clamped to 0..1;
- ``negamax`` and ``external`` (assumed centi-units, as Gomocup brains report):
  the logistic ``1 / (1 + exp(-score / 300))``, so 300 (about an open three's worth)
  reads as 73 % and 1000 as 97 %.
"""

from __future__ import annotations

import math

from engine.search.result import MATE_BOUND

NEGAMAX_SCALE = 300.0
MCTS_SPAN = 2000.0


def black_winrate(score: int, engine: str | None = None) -> float:
    """Black's chance to win for ``score`` seen from black's side, by ``engine``'s scale."""
    if score >= MATE_BOUND:
        return 1.0
    if score <= -MATE_BOUND:
        return 0.0
    if engine == "mcts":
        return min(1.0, max(0.0, 0.5 + score / MCTS_SPAN))
    return 1.0 / (1.0 + math.exp(-score / NEGAMAX_SCALE))


def engine_of_player(player_id: str | None) -> str:
    """The score scale of a seat's player id (``mcts``, ``negamax:3``, ``engine:x``)."""
    if player_id == "mcts":
        return "mcts"
    if player_id and player_id.startswith("engine:"):
        return "external"
    return "negamax"
