"""How long to think about one move, from the Gomocup INFO keys.

``timeout_turn`` caps every move, ``timeout_match`` with ``time_left`` is the whole game's
budget, and ``max_memory`` sizes the transposition table. The budget keeps a safety margin
for process and pipe overhead so a move never overruns its turn limit."""

from __future__ import annotations

from dataclasses import dataclass

# Time kept back for protocol round trips, the process waking up and Python overhead.
SAFETY_MARGIN_S = 0.06
SAFETY_FRACTION = 0.08
FASTEST_BUDGET_S = 0.05


@dataclass
class TimeControl:
    """Gomocup time settings in milliseconds; 0 for ``timeout_match`` means no match limit."""

    turn_ms: int = 5000
    match_ms: int = 0
    left_ms: int | None = None
    max_memory: int = 0

    def move_budget(self, moves_played: int = 0) -> float:
        """Seconds to spend on the next move: the hard limit the search must stop by."""
        if self.turn_ms <= 0:
            # The protocol's 0 means "play as fast as possible".
            return FASTEST_BUDGET_S
        turn = self.turn_ms / 1000.0
        budget = turn - max(SAFETY_MARGIN_S, turn * SAFETY_FRACTION)
        if self.match_ms > 0:
            left = (self.left_ms if self.left_ms is not None else self.match_ms) / 1000.0
            # Expect the game to last about 30 more moves for us, never fewer than 10.
            moves_to_go = max(10, 30 - moves_played // 4)
            budget = min(budget, left / moves_to_go, max(left - 0.5, 0.0) * 0.5)
        return max(budget, 0.02)

    def tt_megabytes(self, default: int = 64) -> int:
        """Transposition table size that fits ``max_memory`` (bytes, 0 for no limit)."""
        if self.max_memory <= 0:
            return default
        # Leave most of the allowance for the interpreter, numba and the rest of the state.
        return max(1, min(default, self.max_memory // (1024 * 1024) // 4))
