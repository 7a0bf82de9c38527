"""The seat secrets of lobby games, derived from the site's secret key: the secret of a
seat is an HMAC of the game id, the seat and the person id bound to it. The server can
so hand each of the two people their seat cookie whenever they come (``/lobby/go/<id>``)
without keeping or sending any secret; the store keeps only its digest, as for every
seat (``game.seat_keys``)."""

from __future__ import annotations

import base64
import hashlib
import hmac


def seat_token(secret_key: str, game_id: str, seat: str, person_id: str) -> str:
    message = f"lobby-seat:{game_id}:{seat}:{person_id}".encode()
    digest = hmac.new(secret_key.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")
