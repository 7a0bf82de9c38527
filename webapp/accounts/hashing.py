"""Password hashing with Argon2id (argon2-cffi), the parameters of OWASP's recommended
minimum (19 MiB of memory, two passes, one lane), so that one hash costs tens of
milliseconds rather than a second on a small server.

Under ``gomoku serve`` (gevent) a hash would stop every other connection while it runs:
it runs on gevent's thread pool instead. ``verify`` answers False for any mismatch or
malformed hash; ``needs_rehash`` tells the login to store a hash made with today's
parameters. ``DUMMY_HASH`` is verified for unknown usernames, so that answering "no such
user" takes as long as "wrong password"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

T = TypeVar("T")


def _off_loop(work: Callable[[], T]) -> T:
    try:
        from gevent import get_hub, monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return work()
    if not monkey.is_module_patched("threading"):
        return work()
    return get_hub().threadpool.apply(work)  # type: ignore[no-any-return]


def hash_password(password: str) -> str:
    return _off_loop(lambda: HASHER.hash(password))


def verify(password_hash: str, password: str) -> bool:
    def check() -> bool:
        try:
            return HASHER.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return _off_loop(check)


def needs_rehash(password_hash: str) -> bool:
    try:
        return HASHER.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


DUMMY_HASH = HASHER.hash("a password nobody has")
