"""Elo ratings of the site's players, computed from the finished games in the store.

Each finished game with a winner or a draw between two different players (ids from
``players.seat_player_id``: ``negamax:N``, ``mcts``, ``engine:<name>``, and ``human`` for
every person pooled together) updates both ratings in the order the games finished,
starting from ``INITIAL_RATING`` with factor ``K_FACTOR``. Nothing is stored: the table is
recomputed from the games, so it can never disagree with them. The players page
(``players_page``) shows it next to every configured player."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from webapp.players.registry import PlayerRegistry, seat_player_id
from webapp.storage.store import GameRecord

INITIAL_RATING = 1500.0
K_FACTOR = 32.0


@dataclass
class Rating:
    player_id: str
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    rating: float = INITIAL_RATING

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.player_id,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "rating": round(self.rating),
        }


def expected_score(rating: float, opponent: float) -> float:
    """The share of the points ``rating`` is expected to take from ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def game_players(record: GameRecord) -> tuple[str, str] | None:
    """(black id, white id) of a finished game, or None if it does not count: a seat is
    missing, there is no result, or one player met itself."""
    if record.result is None or "black" not in record.seats or "white" not in record.seats:
        return None
    ids = tuple(
        seat_player_id(record.settings, color, record.seats[color].kind, record.seats[color].level)
        for color in ("black", "white")
    )
    if ids[0] == ids[1]:
        return None
    return ids[0], ids[1]


def compute_ratings(records: Iterable[GameRecord], registry: PlayerRegistry) -> list[Rating]:
    """The rating table after ``records`` (oldest first): every player who played, and
    every configured player even before its first game, best first."""
    table: dict[str, Rating] = {
        player.id: Rating(player.id, player.name) for player in registry.players.values()
    }

    def entry(player_id: str) -> Rating:
        if player_id not in table:
            table[player_id] = Rating(player_id, registry.name_of(player_id))
        return table[player_id]

    for record in records:
        pair = game_players(record)
        if pair is None:
            continue
        black, white = entry(pair[0]), entry(pair[1])
        winner = (record.result or {}).get("winner")
        black_points = 1.0 if winner == "black" else 0.0 if winner == "white" else 0.5
        black_expected = expected_score(black.rating, white.rating)
        change = K_FACTOR * (black_points - black_expected)
        black.rating += change
        white.rating -= change
        for rating, points in ((black, black_points), (white, 1.0 - black_points)):
            rating.games += 1
            if points == 1.0:
                rating.wins += 1
            elif points == 0.0:
                rating.losses += 1
            else:
                rating.draws += 1
    return sorted(table.values(), key=lambda r: (r.games == 0, -r.rating, r.name))
