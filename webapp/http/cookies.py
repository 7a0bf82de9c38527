"""Cookies the server sets: the secret seat cookie ``seat_<game id>`` and the ``lang``
choice. The API and page blueprints use these helpers so every seat cookie gets the same
flags (HttpOnly, SameSite=Lax, Path=/)."""

from __future__ import annotations

from flask import Request, Response

SEAT_MAX_AGE_S = 90 * 24 * 3600
LANGUAGES = ("en", "zh")


def set_seat_cookie(response: Response, name: str, token: str, *, secure: bool = False) -> None:
    response.set_cookie(
        name,
        token,
        max_age=SEAT_MAX_AGE_S,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=secure,
    )


def language_of(request: Request) -> str:
    """``?lang=`` first, then the ``lang`` cookie, then the browser's preference."""
    for candidate in (request.args.get("lang"), request.cookies.get("lang")):
        if candidate in LANGUAGES:
            return str(candidate)
    best = request.accept_languages.best_match(["en", "zh", "zh-CN", "zh-Hans"])
    return "zh" if best and best.startswith("zh") else "en"
