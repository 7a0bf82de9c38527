"""The seed 004 sparring partner (``tests/opponents/seed004_brain.py``): its two readings
of the seed's threat overrides, and the as-written one over the protocol against our MCTS
player."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.tools.match import MatchSettings, Player, run_match
from engine.tools.openings import parse_openings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "opponents"))

from seed004_brain import (  # noqa: E402
    Position,
    Seed004Player,
    override_as_written,
    threat_override,
)

SIZE = 7


def _position(black: list[tuple[int, int]], white: list[tuple[int, int]]) -> Position:
    cells = [0] * (SIZE * SIZE)
    for x, y in black:
        cells[y * SIZE + x] = 1
    for x, y in white:
        cells[y * SIZE + x] = 2
    return Position(SIZE, cells, 1)


def _point(index: int | None) -> tuple[int, int] | None:
    return None if index is None else (index % SIZE, index // SIZE)


def test_the_stronger_reading_completes_its_four_first() -> None:
    # A three down the first column (scanned first) and a four along the top row.
    position = _position([(0, 2), (0, 3), (0, 4), (2, 6), (3, 6), (4, 6), (5, 6)], [(6, 6)])
    assert _point(threat_override(position, 1)) == (1, 6)
    # As written, the first window in the scan with three stones wins: the column.
    assert _point(override_as_written(position, 1)) == (0, 0)


def test_as_written_counts_stones_in_blocked_windows() -> None:
    # Three black stones with a white one in their only window: dead for five.
    position = _position([(0, 0), (1, 0), (2, 0)], [(3, 0), (6, 6)])
    assert threat_override(position, 1) is None
    assert _point(override_as_written(position, 1)) == (4, 0)
    # Nothing to extend: both readings leave the move to UCT.
    assert override_as_written(_position([(3, 3)], []), 1) is None


def test_the_player_plays_legal_moves_either_way() -> None:
    for as_written in (False, True):
        player = Seed004Player(SIZE, 0.05, seed=3, as_written=as_written)
        cells = [0] * (SIZE * SIZE)
        for turn in range(12):
            x, y = player.choose(cells, 1 + turn % 2)
            assert cells[y * SIZE + x] == 0
            cells[y * SIZE + x] = 1 + turn % 2


def test_as_written_brain_plays_our_mcts_brain_over_the_protocol() -> None:
    seed004 = [sys.executable, str(ROOT / "tests" / "opponents" / "seed004_brain.py")]
    ours = Player(
        "engine1", [sys.executable, "-m", "webapp.cli", "pbrain", "--player", "mcts"], "mcts"
    )
    rival = Player("engine2", [*seed004, "--as-written"], "seed004")
    openings = parse_openings("0,0, 1,1\n", SIZE)
    settings = MatchSettings(time_ms=300, size=SIZE)
    summary = run_match(ours, rival, openings, settings, 2, report=False)
    assert summary["games"] == 2
    assert summary["time_losses"] == {"mcts": 0, "seed004": 0}
    for record in summary["records"]:  # type: ignore[attr-defined]
        assert record["reason"] in {"five", "full board"}
