"""What a username and a password must be, with the reason when they are not.

Usernames: 3 to 20 letters (a-z), digits, ``_`` or ``-``, starting with a letter,
unique without regard to case, a few reserved. Passwords: 8 to 128 characters, not the
username, not one character repeated, not one of the most common passwords."""

from __future__ import annotations

import re

USERNAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{2,19}$")
PASSWORD_MIN = 8
PASSWORD_MAX = 128
RESERVED = frozenset(
    {"admin", "administrator", "root", "system", "guest", "anonymous", "me", "api",
     "login", "logout", "signup", "support", "moderator", "null", "undefined", "gomoku"}
)  # fmt: skip
COMMON_PASSWORDS = frozenset(
    {"password", "password1", "password123", "12345678", "123456789", "1234567890",
     "qwertyuiop", "qwerty123", "iloveyou", "11111111", "00000000", "abc12345",
     "abcdefgh", "letmein1", "football", "baseball", "sunshine", "princess", "welcome1",
     "passw0rd", "trustno1", "gomoku123", "asdfghjk", "zxcvbnm1", "superman"}
)  # fmt: skip


class AccountFormError(ValueError):
    """A refused sign-up or log-in form: ``code`` names the reason for translations,
    ``field`` the input it is about."""

    def __init__(self, message: str, code: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field


def check_username(text: object) -> str:
    if not isinstance(text, str) or not USERNAME_RE.match(text):
        raise AccountFormError(
            "a username is 3 to 20 letters, digits, _ or -, starting with a letter",
            "bad_username",
            "username",
        )
    if text.casefold() in RESERVED:
        raise AccountFormError("that username is reserved", "reserved_username", "username")
    return text


def check_password(text: object, username: str) -> str:
    if not isinstance(text, str) or len(text) < PASSWORD_MIN:
        raise AccountFormError(
            f"the password needs at least {PASSWORD_MIN} characters", "short_password", "password"
        )
    if len(text) > PASSWORD_MAX:
        raise AccountFormError(
            f"the password may have at most {PASSWORD_MAX} characters",
            "long_password",
            "password",
        )
    if text.casefold() == username.casefold() or username.casefold() in text.casefold():
        raise AccountFormError(
            "the password must not contain the username", "password_has_username", "password"
        )
    if len(set(text)) == 1 or text.casefold() in COMMON_PASSWORDS:
        raise AccountFormError("that password is too easy to guess", "common_password", "password")
    return text
