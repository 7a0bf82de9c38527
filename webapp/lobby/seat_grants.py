"""The seat secrets of lobby games, derived from the site's secret key: the secret of a
seat is an HMAC of the game id and the person id bound to it (not of the colour, which
an opening's swap may change: the secret moves with the person). The server can
so hand each of the two people their seat cookie whenever they come (``/lobby/go/<id>``)
without keeping or sending any secret; the store keeps only its digest, as for every
seat (``game.seat_keys``)."""

from __future__ import annotations

import base64
import hashlib
import hmac


def seat_token(secret_key: str, game_id: str, person_id: str) -> str:
    message = f"lobby-seat:{game_id}:{person_id}".encode()
    digest = hmac.new(secret_key.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")
