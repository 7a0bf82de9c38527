"""JSON request bodies with bounded nesting.

Python's parser recurses once per nesting level, so a body of a thousand ``[`` would end
in a ``RecursionError`` (an HTTP 500 with a traceback). ``DepthLimitedJSONProvider``
measures the depth first, without recursion, and refuses anything deeper than
``MAX_JSON_DEPTH`` as invalid JSON, which every endpoint already answers with a 400.
Installed on the app by ``init_app``; ``json_depth`` is shared with the socket guards."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

# No request of this app nests more than a few levels; 32 leaves room for any client.
MAX_JSON_DEPTH = 32

_SPECIAL = re.compile(r'[\[\]{}"\\]')


class JsonTooDeepError(ValueError):
    def __init__(self, limit: int = MAX_JSON_DEPTH) -> None:
        super().__init__(f"JSON nested more than {limit} levels deep")
        self.limit = limit


def json_depth(text: str | bytes, limit: int | None = None) -> int:
    """How deep the arrays and objects of ``text`` nest (brackets inside strings do not
    count; malformed text gives some depth and is left to the parser to refuse). With
    ``limit``, stops as soon as the depth goes beyond it."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    in_string = False
    escaped_at = -1  # the position a backslash in a string escapes
    # One step per bracket, quote or backslash: linear in the size of the text.
    for match in _SPECIAL.finditer(text):
        char, at = match.group(), match.start()
        if in_string:
            if at == escaped_at:
                continue
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if limit is not None and deepest > limit:
                break
        elif char in "]}":
            depth -= 1
    return deepest


def check_depth(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> None:
    if json_depth(text, limit) > limit:
        raise JsonTooDeepError(limit)


class DepthLimitedJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        check_depth(s)
        return super().loads(s, **kwargs)


def init_app(app: Flask) -> None:
    app.json = DepthLimitedJSONProvider(app)
