"""A person's games for the profile page: the archive with its filters, the results by
rule, and the rating history to chart.

Games are found by the person id their seats carry (``players.identity``); a game's
result is read from the player's side: ``win``, ``loss``, ``draw``, ``aborted`` or
``playing``. The rating points come from the people's ratings (``players.person_ratings``,
one point per rated game, ``{rule_key, game_id, rating, rd, at}``); the chart draws
whatever list of that shape it is given."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, func, select
from sqlalchemy.engine import Engine

from webapp.players.person_ratings import rating_history
from webapp.storage.tables import Game, Move, Seat

GAMES = cast(Table, Game.__table__)
SEATS = cast(Table, Seat.__table__)
MOVES = cast(Table, Move.__table__)

MODES = ("ai", "friend")
RULES = ("freestyle", "standard", "renju")
RESULTS = ("win", "loss", "draw", "aborted", "playing")
# The results the results by rule count: a game still being played or aborted has none.
DECIDED = frozenset({"win", "loss", "draw"})
PAGE_SIZE = 30
MAX_GAMES = 5000


@dataclass(frozen=True)
class Filters:
    """What the archive shows: None means every value."""

    mode: str | None = None
    rule: str | None = None
    result: str | None = None
    page: int = 1

    @classmethod
    def parse(cls, args: Any) -> Filters:
        """From the query string; an unknown value is ignored rather than refused."""

        def pick(name: str, allowed: tuple[str, ...]) -> str | None:
            value = args.get(name)
            return value if value in allowed else None

        try:
            page = max(1, min(1000, int(args.get("page", 1))))
        except (TypeError, ValueError):
            page = 1
        return cls(pick("mode", MODES), pick("rule", RULES), pick("result", RESULTS), page)

    def query(self, **changes: Any) -> str:
        """The query string of these filters with ``changes`` (page back to 1)."""
        values: dict[str, Any] = {
            "mode": self.mode,
            "rule": self.rule,
            "result": self.result,
            "page": None,
        }
        values.update(changes)
        parts = [f"{key}={value}" for key, value in values.items() if value not in (None, 1)]
        return "?" + "&".join(parts) if parts else "?"


@dataclass(frozen=True)
class ArchivedGame:
    id: str
    mode: str
    rule: str
    size: int
    color: str
    opponent: str
    result: str
    termination: str | None
    moves: int
    created_at: datetime | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "mode": self.mode,
            "rule": self.rule,
            "size": self.size,
            "color": self.color,
            "opponent": self.opponent,
            "result": self.result,
            "termination": self.termination,
            "moves": self.moves,
            "created_at": self.created_at.isoformat() if self.created_at else None,
        }


@dataclass
class RuleResults:
    rule: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def score_percent(self) -> int | None:
        decided = self.wins + self.losses + self.draws
        return round(100 * (self.wins + self.draws / 2) / decided) if decided else None


@dataclass
class Archive:
    games: list[ArchivedGame]
    total: int
    by_rule: list[RuleResults] = field(default_factory=list)
    pages: int = 1


def result_for(color: str, status: str, result: dict[str, Any] | None) -> str:
    if status != "finished" or not result:
        return "playing"
    if result.get("termination") == "aborted" or result.get("reason") == "aborted":
        return "aborted"
    winner = result.get("winner")
    if winner is None:
        return "draw"
    return "win" if winner == color else "loss"


def load_archive(engine: Engine, person_id: str, filters: Filters) -> Archive:
    """The person's games (newest first) through ``filters``, one page of them, and the
    results by rule over all their finished games (not the aborted ones)."""
    mine = SEATS.alias("mine")
    theirs = SEATS.alias("theirs")
    query = (
        select(
            GAMES.c.id,
            GAMES.c.mode,
            GAMES.c.rule,
            GAMES.c.size,
            GAMES.c.status,
            GAMES.c.result,
            GAMES.c.created_at,
            mine.c.color,
            theirs.c.name,
            theirs.c.kind,
        )
        .join(mine, mine.c.game_id == GAMES.c.id)
        .join(theirs, (theirs.c.game_id == GAMES.c.id) & (theirs.c.color != mine.c.color))
        .where(mine.c.player_id == person_id)
        .order_by(GAMES.c.created_at.desc(), GAMES.c.id)
        .limit(MAX_GAMES)
    )
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    by_rule = {rule: RuleResults(rule) for rule in RULES}
    chosen = []
    for row in rows:
        outcome = result_for(row.color, row.status, row.result)
        if outcome in DECIDED:
            tally = by_rule.setdefault(row.rule, RuleResults(row.rule))
            tally.games += 1
            tally.wins += outcome == "win"
            tally.losses += outcome == "loss"
            tally.draws += outcome == "draw"
        if (
            (filters.mode is None or row.mode == filters.mode)
            and (filters.rule is None or row.rule == filters.rule)
            and (filters.result is None or outcome == filters.result)
        ):
            chosen.append((row, outcome))
    pages = max(1, -(-len(chosen) // PAGE_SIZE))
    start = (min(filters.page, pages) - 1) * PAGE_SIZE
    shown = chosen[start : start + PAGE_SIZE]
    counts = _move_counts(engine, [row.id for row, _ in shown])
    games = [
        ArchivedGame(
            id=row.id,
            mode=row.mode,
            rule=row.rule,
            size=row.size,
            color=row.color,
            opponent=row.name,
            result=outcome,
            termination=(row.result or {}).get("termination") or (row.result or {}).get("reason"),
            moves=counts[row.id],
            created_at=row.created_at,
        )
        for row, outcome in shown
    ]
    played = [tally for tally in by_rule.values() if tally.games]
    return Archive(games, len(chosen), played, pages)


def _move_counts(engine: Engine, game_ids: list[str]) -> Counter[str]:
    if not game_ids:
        return Counter()
    query = (
        select(MOVES.c.game_id, func.count())
        .where(MOVES.c.game_id.in_(game_ids))
        .group_by(MOVES.c.game_id)
    )
    with engine.connect() as connection:
        return Counter({game_id: int(n) for game_id, n in connection.execute(query).all()})


def rating_points(engine: Engine, person_id: str) -> list[dict[str, Any]]:
    """The person's rating after each rated game, oldest first, for the chart."""
    return [point.to_json() for point in rating_history(engine, person_id)]
