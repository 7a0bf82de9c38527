"""The evaluation's features of training positions, read from the kernel's own state.

Each training game (``engine.tools.tune_data``) is replayed move by move on a compiled
state (``engine.kernel.state``); every position after the random opening where the static
evaluation would be asked (no five for either side to complete, no open four or double
four for the side to move: the search settles those itself) becomes one sample: how many
empty cells of each canonical shape combination the side to move has, the same for the
side that waits, the threat bits (``engine.kernel.evaluation.threat_bits``), the game's
result and the mover's search score, both from the side to move's point of view.
``engine.tools.tune`` fits the weights to them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.kernel.evaluation import threat_bits
from engine.kernel.state import init_walls, new_state, place, point_index, side_to_move
from engine.kernel.tables import C_FIVE, C_FLEX4, rule_tables
from engine.kernel.weights import CANONICAL_OF, NUM_CANONICAL, NUM_THREAT_TERMS
from engine.tools.tune_data import GameRecord


@dataclass
class Samples:
    """Training positions as sparse counts: entry k says position ``*_pos[k]`` has
    ``*_count[k]`` empty cells of canonical combination ``*_combo[k]``."""

    me_pos: np.ndarray
    me_combo: np.ndarray
    me_count: np.ndarray
    op_pos: np.ndarray
    op_combo: np.ndarray
    op_count: np.ndarray
    threats: np.ndarray  # float64[positions, NUM_THREAT_TERMS]: 0/1
    result: np.ndarray  # float64[positions]: 1 won, 0.5 drawn, 0 lost (side to move)
    score: np.ndarray  # int64[positions]: the mover's search score
    game: np.ndarray  # int64[positions]: which game

    @property
    def size(self) -> int:
        return int(self.result.shape[0])

    def subset(self, keep: np.ndarray) -> Samples:
        """The positions where boolean ``keep`` is true, renumbered."""
        renumber = np.cumsum(keep) - 1
        me = keep[self.me_pos]
        op = keep[self.op_pos]
        return Samples(
            renumber[self.me_pos[me]],
            self.me_combo[me],
            self.me_count[me],
            renumber[self.op_pos[op]],
            self.op_combo[op],
            self.op_count[op],
            self.threats[keep],
            self.result[keep],
            self.score[keep],
            self.game[keep],
        )


def extract(games: list[GameRecord], size: int = 15, rule: str = "freestyle") -> Samples:
    """Samples of every evaluated position of ``games`` (see the module docstring)."""
    tables = rule_tables(rule, size)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("mp", "mc", "mn", "op", "oc", "on")}
    threats: list[np.ndarray] = []
    results: list[float] = []
    scores: list[int] = []
    game_of: list[int] = []
    bits_of = 1 << np.arange(NUM_THREAT_TERMS)
    for number, game in enumerate(games):
        state = new_state(size, rule == "renju")
        init_walls(state, tables)
        for ply, (x, y) in enumerate(game.moves):
            if ply >= game.opening:
                color = side_to_move(state)
                me, op = color - 1, 2 - color
                counts = state.class_count
                if counts[me, C_FIVE] == 0 and counts[op, C_FIVE] == 0 and counts[me, C_FLEX4] == 0:
                    position = len(results)
                    empty = state.cells == 0
                    for side, keys in ((me, ("mp", "mc", "mn")), (op, ("op", "oc", "on"))):
                        histogram = np.bincount(
                            CANONICAL_OF[state.combo[side][empty]], minlength=NUM_CANONICAL
                        )
                        used = np.nonzero(histogram)[0]
                        parts[keys[0]].append(np.full(used.shape[0], position, dtype=np.int64))
                        parts[keys[1]].append(used.astype(np.int64))
                        parts[keys[2]].append(histogram[used].astype(np.float64))
                    threats.append(((int(threat_bits(state)) & bits_of) != 0).astype(np.float64))
                    won = game.result == (1 if color == 1 else -1)
                    results.append(0.5 if game.result == 0 else 1.0 if won else 0.0)
                    scores.append(game.scores[ply])
                    game_of.append(number)
            place(state, tables, point_index(state, x, y), 1 + ply % 2)

    def joined(key: str, dtype: type) -> np.ndarray:
        return np.concatenate(parts[key]).astype(dtype) if parts[key] else np.zeros(0, dtype)

    return Samples(
        joined("mp", np.int64),
        joined("mc", np.int64),
        joined("mn", np.float64),
        joined("op", np.int64),
        joined("oc", np.int64),
        joined("on", np.float64),
        np.array(threats, dtype=np.float64).reshape(-1, NUM_THREAT_TERMS),
        np.array(results, dtype=np.float64),
        np.array(scores, dtype=np.int64),
        np.array(game_of, dtype=np.int64),
    )
