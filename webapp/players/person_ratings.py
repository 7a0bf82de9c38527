"""People's Glicko-2 ratings, one per person and rule key, from rated human games.

A rule key is the game's rule and board size, ``<rule>-<size>`` (``freestyle-15``,
``renju-15``, ``standard-19``): a rating on one does not say much about another. An
opening rule (swap, swap2, ...) does not change the key. Only games created rated
(``settings["rated"]``, from the lobby) between two different people (the person ids
the seats hold, from ``players.identity``) count, once they
finish with a result: a win, a loss or a draw, whatever the termination (five, resign,
flag, abandonment, agreement); an aborted game does not count. The game service calls
``on_game_finished`` for every game that ends; the ``rated_games`` table's primary key
makes each game count exactly once, in whatever process it ends.

Each rated game is its own Glicko-2 rating period (``players.glicko2.update``): both
players are rated against the other as they stood before the game. A rating is
provisional, shown with a "?", while its RD is above ``PROVISIONAL_RD`` (110) or its
person has played fewer than ``PROVISIONAL_GAMES`` (5) rated games under that key.

For the profile page: ``rating_history(engine, person_id, rule_key=None)`` (one
``RatingPoint`` per rated game, oldest first) and ``ratings_of``; the leaderboard
(``lobby.pages``) reads ``leaderboard``. The engine players' Elo table
(``players.ratings``) is separate and unchanged."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, desc, insert, select, update
from sqlalchemy.exc import IntegrityError

from webapp.game.model import Game
from webapp.game.types import Mode, Seat, SeatKind, Termination
from webapp.players import glicko2
from webapp.players.glicko2 import GameResult, Glicko2Rating
from webapp.storage.rating_tables import PersonRatingRow, RatedGameRow, RatingHistoryRow

log = logging.getLogger(__name__)

PROVISIONAL_RD = glicko2.PROVISIONAL_RD
PROVISIONAL_GAMES = 5
RULE_KEY_RE = re.compile(r"^(freestyle|standard|renju)-([0-9]{1,2})$")
TABLES = (PersonRatingRow, RatedGameRow, RatingHistoryRow)


def rule_key(rule: str, size: int) -> str:
    return f"{rule}-{size}"


def game_rule_key(game: Game) -> str:
    return rule_key(game.rule.value, game.size)


def valid_rule_key(text: str) -> bool:
    return RULE_KEY_RE.match(text) is not None


@dataclass(frozen=True)
class PersonRating:
    person_id: str
    rule_key: str
    name: str = "Guest"
    rating: float = glicko2.INITIAL_RATING
    rd: float = glicko2.INITIAL_RD
    volatility: float = glicko2.INITIAL_VOLATILITY
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD or self.games < PROVISIONAL_GAMES

    @property
    def shown(self) -> str:
        """The rating as the site shows it: ``1523``, or ``1523?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    @property
    def glicko(self) -> Glicko2Rating:
        return Glicko2Rating(self.rating, self.rd, self.volatility)

    def to_json(self) -> dict[str, Any]:
        return {
            "person": self.person_id,
            "rule_key": self.rule_key,
            "name": self.name,
            "rating": round(self.rating),
            "rd": round(self.rd),
            "provisional": self.provisional,
            "shown": self.shown,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
        }


@dataclass(frozen=True)
class RatingPoint:
    """A person's rating under ``rule_key`` right after game ``game_id``."""

    person_id: str
    rule_key: str
    game_id: str
    rating: float
    rd: float
    at_ms: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rule_key": self.rule_key,
            "game_id": self.game_id,
            "rating": round(self.rating),
            "rd": round(self.rd),
            "at": self.at_ms,
        }


@dataclass(frozen=True)
class RatedPlayer:
    person_id: str
    name: str


def rated_players(game: Game) -> dict[Seat, RatedPlayer] | None:
    """The two people of a rated human game with a result, or None if it does not count."""
    if not game.settings.get("rated") or game.mode is not Mode.FRIEND or game.result is None:
        return None
    if game.result.termination is Termination.ABORTED:
        return None
    found: dict[Seat, RatedPlayer] = {}
    for seat in Seat:
        info = game.seats.get(seat)
        if info is None or info.kind is not SeatKind.HUMAN or not info.player_id:
            return None
        found[seat] = RatedPlayer(info.player_id, info.name)
    if found[Seat.BLACK].person_id == found[Seat.WHITE].person_id:
        return None
    return found


class PersonRatings:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        for table in TABLES:
            table.__table__.create(engine, checkfirst=True)  # type: ignore[attr-defined]

    # -- reading ------------------------------------------------------------------------

    def rating(self, person_id: str, key: str) -> PersonRating:
        """The person's rating under ``key`` (the initial one before any rated game)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(PersonRatingRow).where(
                    PersonRatingRow.person_id == person_id, PersonRatingRow.rule_key == key
                )
            ).first()
        return _rating_of(row) if row is not None else PersonRating(person_id, key)

    def ratings_of(self, person_id: str) -> list[PersonRating]:
        """Every rule key the person has a rating under, most games first."""
        query = select(PersonRatingRow).where(PersonRatingRow.person_id == person_id)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return sorted((_rating_of(row) for row in rows), key=lambda r: (-r.games, r.rule_key))

    def leaderboard(self, key: str, limit: int = 100) -> list[PersonRating]:
        """The ratings under ``key``, established ones first, each part best first."""
        query = (
            select(PersonRatingRow)
            .where(PersonRatingRow.rule_key == key)
            .order_by(desc(PersonRatingRow.rating))
            .limit(max(1, limit) * 4)
        )
        with self.engine.connect() as connection:
            rows = [_rating_of(row) for row in connection.execute(query).all()]
        rows.sort(key=lambda r: (r.provisional, -r.rating, r.name))
        return rows[:limit]

    def rule_keys(self) -> list[str]:
        """The rule keys anyone has a rating under, the most played first."""
        query = select(RatedGameRow.rule_key)
        with self.engine.connect() as connection:
            keys = [row[0] for row in connection.execute(query)]
        counts: dict[str, int] = {}
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
        return sorted(counts, key=lambda k: (-counts[k], k))

    def history(self, person_id: str, key: str | None = None) -> list[RatingPoint]:
        return rating_history(self.engine, person_id, key)

    # -- writing ------------------------------------------------------------------------

    def on_game_finished(self, game: Game) -> None:
        """The game service's hook for every game that ends: rate it if it counts. Never
        raises (a failure is logged; the game itself is already stored)."""
        players = rated_players(game)
        if players is None or game.result is None:
            return
        winner = game.result.winner
        black_score = 0.5 if winner is None else 1.0 if winner is Seat.BLACK else 0.0
        try:
            self.record_game(
                game.id, game_rule_key(game), players[Seat.BLACK], players[Seat.WHITE], black_score
            )
        except Exception:
            log.exception("could not rate game %s", game.id)

    def record_game(
        self,
        game_id: str,
        key: str,
        black: RatedPlayer,
        white: RatedPlayer,
        black_score: float,
        *,
        at: datetime | None = None,
    ) -> bool:
        """Rate one game (black scoring ``black_score``: 1, 0.5 or 0); False if it was
        rated before. Two processes rating games of the same person at once: the loser
        of the race finds the row taken and tries again with the new ratings."""
        at = at or datetime.now(UTC)
        for _attempt in range(5):
            try:
                return self._record(game_id, key, black, white, black_score, at)
            except _AlreadyRated:
                return False
            except IntegrityError:
                continue
        raise RuntimeError(f"could not rate game {game_id}: the ratings kept changing")

    def _record(
        self,
        game_id: str,
        key: str,
        black: RatedPlayer,
        white: RatedPlayer,
        black_score: float,
        at: datetime,
    ) -> bool:
        with self.engine.begin() as connection:
            # First, so that a game rated before stops here with nothing else done.
            try:
                connection.execute(
                    insert(RatedGameRow).values(game_id=game_id, rule_key=key, at=at)
                )
            except IntegrityError:
                raise _AlreadyRated() from None
            before: dict[str, tuple[PersonRating, bool]] = {}
            for player in (black, white):
                row = connection.execute(
                    select(PersonRatingRow)
                    .where(
                        PersonRatingRow.person_id == player.person_id,
                        PersonRatingRow.rule_key == key,
                    )
                    .with_for_update()
                ).first()
                current = _rating_of(row) if row else PersonRating(player.person_id, key)
                before[player.person_id] = (current, row is not None)
            for player, score, opponent in (
                (black, black_score, white),
                (white, 1.0 - black_score, black),
            ):
                mine, stored = before[player.person_id]
                theirs = before[opponent.person_id][0]
                new = glicko2.update(mine.glicko, [GameResult(theirs.glicko, score)])
                values = {
                    "name": player.name[:64],
                    "rating": new.rating,
                    "rd": new.rd,
                    "volatility": new.volatility,
                    "games": mine.games + 1,
                    "wins": mine.wins + (score == 1.0),
                    "losses": mine.losses + (score == 0.0),
                    "draws": mine.draws + (score == 0.5),
                    "updated_at": at,
                }
                if stored:
                    connection.execute(
                        update(PersonRatingRow)
                        .where(
                            PersonRatingRow.person_id == player.person_id,
                            PersonRatingRow.rule_key == key,
                        )
                        .values(**values)
                    )
                else:
                    connection.execute(
                        insert(PersonRatingRow).values(
                            person_id=player.person_id, rule_key=key, **values
                        )
                    )
                connection.execute(
                    insert(RatingHistoryRow).values(
                        person_id=player.person_id,
                        rule_key=key,
                        game_id=game_id,
                        rating=new.rating,
                        rd=new.rd,
                        at=at,
                    )
                )
        return True


class _AlreadyRated(Exception):
    pass


def rating_history(engine: Engine, person_id: str, key: str | None = None) -> list[RatingPoint]:
    """The person's rating after each of their rated games (under ``key``, or every rule
    key), oldest first: what the profile's rating chart draws."""
    query = select(RatingHistoryRow).where(RatingHistoryRow.person_id == person_id)
    if key is not None:
        query = query.where(RatingHistoryRow.rule_key == key)
    query = query.order_by(RatingHistoryRow.id)
    try:
        with engine.connect() as connection:
            rows = connection.execute(query).all()
    except Exception:  # the table is made with the first ``PersonRatings``
        log.exception("could not read the rating history of %s", person_id)
        return []
    return [
        RatingPoint(row.person_id, row.rule_key, row.game_id, row.rating, row.rd, _ms(row.at))
        for row in rows
    ]


def _rating_of(row: Any) -> PersonRating:
    return PersonRating(
        row.person_id,
        row.rule_key,
        row.name,
        float(row.rating),
        float(row.rd),
        float(row.volatility),
        int(row.games),
        int(row.wins),
        int(row.losses),
        int(row.draws),
    )


def _ms(at: datetime) -> int:
    if at.tzinfo is None:  # SQLite hands back naive times
        at = at.replace(tzinfo=UTC)
    return int(at.timestamp() * 1000)
