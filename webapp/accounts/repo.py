"""Reading and writing the people tables (``storage.people_tables``): visitors' display
names, accounts and their login sessions.

``players.identity`` asks it who a cookie belongs to and records a visitor once they act;
the account routes create accounts and sessions. Every method is one short transaction on
the store's engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from webapp.storage.people_tables import Account, AccountSession, Visitor
from webapp.storage.tables import utcnow

VISITORS = cast(Table, Visitor.__table__)
ACCOUNTS = cast(Table, Account.__table__)
SESSIONS = cast(Table, AccountSession.__table__)


class UsernameTakenError(ValueError):
    """Another account has this username (compared without case)."""


@dataclass(frozen=True)
class AccountRecord:
    id: int
    username: str
    password_hash: str
    person_id: str


@dataclass(frozen=True)
class PersonRecord:
    """What is stored about a person id: the display name (None before they chose or
    acted) and the account's username (None for an anonymous visitor)."""

    name: str | None
    username: str | None


def username_key(username: str) -> str:
    return username.casefold()


class PeopleRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- visitors -----------------------------------------------------------------------

    def person(self, person_id: str) -> PersonRecord:
        with self.engine.connect() as connection:
            name = connection.execute(
                select(VISITORS.c.name).where(VISITORS.c.id == person_id)
            ).scalar()
            username = connection.execute(
                select(ACCOUNTS.c.username).where(ACCOUNTS.c.person_id == person_id)
            ).scalar()
        return PersonRecord(name, username)

    def remember(self, person_id: str, name: str) -> None:
        """Keep a row for ``person_id`` (with ``name`` unless it has one already)."""
        with self.engine.begin() as connection:
            found = connection.execute(
                select(VISITORS.c.id).where(VISITORS.c.id == person_id)
            ).first()
            if found is None:
                try:
                    with connection.begin_nested():
                        connection.execute(insert(VISITORS).values(id=person_id, name=name))
                except IntegrityError:
                    pass  # another request of the same visitor got there first

    def set_name(self, person_id: str, name: str) -> None:
        self.remember(person_id, name)
        with self.engine.begin() as connection:
            connection.execute(
                update(VISITORS)
                .where(VISITORS.c.id == person_id)
                .values(name=name, updated_at=utcnow())
            )

    # -- accounts -----------------------------------------------------------------------

    def create_account(
        self, username: str, password_hash: str, person_id: str, name: str
    ) -> AccountRecord:
        """A new account playing as ``person_id`` (whose games it keeps), displayed as
        ``name`` from now on; a taken username changes nothing."""
        self.remember(person_id, name)
        try:
            with self.engine.begin() as connection:
                account_id = connection.execute(
                    insert(ACCOUNTS).values(
                        username=username,
                        username_key=username_key(username),
                        password_hash=password_hash,
                        person_id=person_id,
                        created_at=utcnow(),
                    )
                ).inserted_primary_key
                connection.execute(
                    update(VISITORS)
                    .where(VISITORS.c.id == person_id)
                    .values(name=name, updated_at=utcnow())
                )
        except IntegrityError:
            raise UsernameTakenError("that username is taken") from None
        assert account_id is not None
        return AccountRecord(int(account_id[0]), username, password_hash, person_id)

    def account_named(self, username: str) -> AccountRecord | None:
        return self._account(ACCOUNTS.c.username_key == username_key(username))

    def account_of_person(self, person_id: str) -> AccountRecord | None:
        return self._account(ACCOUNTS.c.person_id == person_id)

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(ACCOUNTS)
                .where(ACCOUNTS.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def _account(self, condition: object) -> AccountRecord | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(
                    ACCOUNTS.c.id,
                    ACCOUNTS.c.username,
                    ACCOUNTS.c.password_hash,
                    ACCOUNTS.c.person_id,
                ).where(condition)  # type: ignore[arg-type]
            ).first()
        return AccountRecord(*row) if row is not None else None

    # -- sessions -----------------------------------------------------------------------

    def open_session(self, account_id: int, token_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                insert(SESSIONS).values(
                    token_hash=token_hash, account_id=account_id, created_at=utcnow()
                )
            )

    def close_session(self, token_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(SESSIONS).where(SESSIONS.c.token_hash == token_hash))

    def session_account(self, token_hash: str) -> AccountRecord | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(
                    ACCOUNTS.c.id,
                    ACCOUNTS.c.username,
                    ACCOUNTS.c.password_hash,
                    ACCOUNTS.c.person_id,
                )
                .join(SESSIONS, SESSIONS.c.account_id == ACCOUNTS.c.id)
                .where(SESSIONS.c.token_hash == token_hash)
            ).first()
        return AccountRecord(*row) if row is not None else None
