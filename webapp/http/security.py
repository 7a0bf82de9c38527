"""Security headers on every response, and redirect targets kept on this site.

``SecurityHeaders`` wraps the whole WSGI app (Flask and the Socket.IO endpoint alike) and
adds the Content-Security-Policy (no inline script, no plugins, no framing, no foreign
``<base>``, connections only back to this site, which includes its websocket), together
with ``X-Content-Type-Options``, ``Referrer-Policy`` and ``X-Frame-Options`` for browsers
that predate ``frame-ancestors``. ``same_site_path`` turns a ``Referer`` into a path of
this site, so the language switch never sends anyone elsewhere. Wired by ``init_app``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        # 'self' covers ws:// and wss:// to this host as well (CSP level 3).
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
}

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class SecurityHeaders:
    """WSGI middleware: every response gets ``SECURITY_HEADERS`` (a header the app set
    itself is kept)."""

    def __init__(self, app: WsgiApp, headers: dict[str, str] | None = None) -> None:
        self.app = app
        self.headers = list((headers or SECURITY_HEADERS).items())

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            present = {name.lower() for name, _ in headers}
            headers.extend((n, v) for n, v in self.headers if n.lower() not in present)
            return start_response(status, headers, *exc_info)

        return self.app(environ, start)


# Browsers drop tabs and newlines from URLs and read "\" as "/": a path holding any of
# these, or starting with "//", could turn into another host once the browser is done.
_UNSAFE_PATH = re.compile(r"[\x00-\x20\x7f\\]|^//")


def same_site_path(url: str | None, host: str) -> str:
    """The path (and query) of ``url`` when it is a page of ``host``; else ``/``."""
    if not url:
        return "/"
    try:
        parts = urlsplit(url)
    except ValueError:
        return "/"
    if parts.scheme not in ("http", "https") or parts.netloc != host:
        return "/"
    path = parts.path or "/"
    if not path.startswith("/") or _UNSAFE_PATH.search(path) or _UNSAFE_PATH.search(parts.query):
        return "/"
    return path + (f"?{parts.query}" if parts.query else "")


def init_app(app: Flask) -> None:
    """Add the headers to every response of ``app`` (call after Socket.IO wrapped it)."""
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
