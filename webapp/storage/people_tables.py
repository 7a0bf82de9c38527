"""SQLAlchemy models of the people who play: visitors, accounts and login sessions.

``Visitor`` is one row per person id (``players.identity``) that has done something (set a
name, created a game, taken a seat): their display name. ``Account`` binds a username and
password hash to a person id; ``AccountSession`` is a logged-in browser, by the SHA-256 of
its cookie's secret. They share ``Base`` with ``tables`` so the store's ``create_all``
makes them; ``accounts.repo`` is the only code that reads and writes them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from webapp.storage.tables import Base, utcnow


class Visitor(Base):
    __tablename__ = "visitors"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # As typed; ``username_key`` (lower case) is what must be unique.
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(Text)
    # The person id the account plays as: the visitor id of whoever signed up.
    person_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountSession(Base):
    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
