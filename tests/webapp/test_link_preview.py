"""A shared link unfurls into a card: every page carries Open Graph and Twitter card
tags with absolute URLs, a game's card names the players and where the game stands, its
picture is the position (drawn server-side as a PNG, cached by version with an ETag),
and the icons and ``robots.txt`` that browsers and crawlers ask for by name exist. None
of it takes a seat."""

from __future__ import annotations

import re
import struct
import zlib
from html import unescape
from typing import Any

import numpy as np
from socket_helpers import NS, create_game, join

from webapp.http.board_png import BLACK_STONE, CARD_BOARD, WHITE_STONE, WOOD
from webapp.http.link_preview import CardCache

BOT = {"User-Agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"}


def meta(html: str) -> dict[str, str]:
    """The page's ``<meta property|name=... content=...>`` pairs."""
    found = re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', html)
    return {key: unescape(value) for key, value in found}


def decode_png(data: bytes) -> np.ndarray:
    """The pixels of a PNG written with filter 0 on every row (as ours are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body)
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    channels = {2: 3, 6: 4}[colour]
    assert depth == 8
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, -1)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(height, width, channels)


def pixel_of_point(x: int, y: int, size: int = 15) -> tuple[int, int]:
    """A pixel of the card a quarter step right of and below a point: inside its stone,
    off the lines."""
    left, top, side = CARD_BOARD
    step = side / (size + 1)
    return int(left + step * (x + 1.25)), int(top + step * (y + 1.25))


def close(pixel: np.ndarray, colour: tuple[int, int, int]) -> bool:
    return bool(np.abs(pixel[:3].astype(int) - np.array(colour)).max() <= 6)


def test_an_invitation_unfurls_into_a_card_and_leaves_the_seat_free(app: Any, client: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    bot = app.test_client()
    page = bot.get(f"/g/{game_id}", headers=BOT)
    assert page.status_code == 200
    tags = meta(page.get_data(as_text=True))
    assert tags["og:title"].endswith("invites you to a game of Gomoku")
    assert "Freestyle, 15\u00d715" in tags["og:description"]
    assert "take the free seat" in tags["og:description"]
    assert tags["description"] == tags["og:description"]
    assert tags["og:url"] == f"http://localhost/g/{game_id}"
    assert tags["og:image"] == f"http://localhost/g/{game_id}/card.png?v=0"
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    assert tags["twitter:card"] == "summary_large_image"
    # The picture, fetched the way an unfurler does (HEAD, then GET), takes no seat.
    assert bot.head(f"/g/{game_id}/card.png?v=0").status_code == 200
    card = bot.get(f"/g/{game_id}/card.png?v=0")
    assert card.status_code == 200 and card.mimetype == "image/png"
    image = decode_png(card.data)
    assert image.shape == (630, 1200, 3)
    assert close(image[pixel_of_point(7, 7)[::-1]], WOOD)  # an empty board
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.status == "waiting" and record.seats["white"].token_hash is None
    assert "seat_" not in card.headers.get("Set-Cookie", "")


def test_the_card_follows_the_game_and_is_cached_by_version(
    app: Any, client: Any, socket_factory: Any
) -> None:
    game_id = create_game(client, mode="friend", color="black")
    white_http = app.test_client()
    assert white_http.post(f"/g/{game_id}/seat", json={}).status_code == 200
    black = join(socket_factory(client), game_id)
    first = client.get(f"/g/{game_id}/card.png")
    etag = first.headers["ETag"]
    assert client.get(f"/g/{game_id}/card.png", headers={"If-None-Match": etag}).status_code == 304

    state = black.last_state()
    ack = black.sock.emit(
        "move", {"game_id": game_id, "x": 3, "y": 4, "version": state["version"]},
        namespace=NS, callback=True,
    )  # fmt: skip
    assert ack["ok"], ack
    tags = meta(client.get(f"/g/{game_id}", headers=BOT).get_data(as_text=True))
    version = app.extensions["gomoku"].service.load(game_id).version
    assert tags["og:image"].endswith(f"/g/{game_id}/card.png?v={version}")
    assert "Live: 1 move played, white to play" in tags["og:description"]
    assert tags["og:image:alt"] == "The board after 1 move"
    after = client.get(f"/g/{game_id}/card.png", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    image = decode_png(after.data)
    assert close(image[pixel_of_point(3, 4)[::-1]], BLACK_STONE)
    assert close(image[pixel_of_point(4, 3)[::-1]], WOOD)


def test_a_finished_game_names_the_winner_and_strikes_the_line(client: Any) -> None:
    moves = [(i, 0) if n % 2 == 0 else (i, 1) for n, i in enumerate([0, 0, 1, 1, 2, 2, 3, 3, 4])]
    psq = "Piskvorky 15x15, 11:11, 0\n" + "".join(f"{x + 1},{y + 1},0\n" for x, y in moves)
    reply = client.post("/api/v1/import", json={"psq": psq, "level": 1})
    assert reply.status_code == 201, reply.get_json()
    game_id = reply.get_json()["id"]
    tags = meta(client.get(f"/g/{game_id}", headers=BOT).get_data(as_text=True))
    assert "(black) won with five in a row in 9 moves" in tags["og:description"]
    card = client.get(f"/g/{game_id}/card.png")
    assert card.headers["Cache-Control"] == "public, max-age=86400"
    image = decode_png(card.data)
    assert close(image[pixel_of_point(1, 1)[::-1]], WHITE_STONE)
    # The winning row is struck through: between two of its stones the line is red.
    left, top, side = CARD_BOARD
    step = side / 16
    between = image[int(top + step), int(left + step * 2.5)]
    assert between[0] > 150 and between[1] < 110


def test_cards_of_unknown_or_malformed_games_are_not_found(client: Any) -> None:
    assert client.get("/g/nosuchgame1/card.png").status_code == 404
    assert client.get("/g/..%2F..%2Fetc/card.png").status_code == 404
    assert client.get("/g/" + "x" * 300 + "/card.png").status_code == 404


def test_other_pages_carry_the_site_card(client: Any) -> None:
    for path in ("/", "/lobby", "/puzzles", "/no-such-page"):
        tags = meta(client.get(path, headers=BOT).get_data(as_text=True))
        assert tags["og:title"] == "Gomoku · 五子棋", path
        assert tags["og:image"] == "http://localhost/card.png"
        assert tags["og:url"] == f"http://localhost{path}"
    card = client.get("/card.png")
    assert card.status_code == 200 and decode_png(card.data).shape == (630, 1200, 3)


def test_icons_and_robots_answer_by_their_fixed_names(client: Any) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/x-icon"
    count, width, offset = struct.unpack("<4xH", icon.data[:6])[0], icon.data[6], 22
    assert (count, width) == (1, 32)
    picture = decode_png(icon.data[offset:])
    assert picture.shape == (32, 32, 4)
    assert picture[0, 0, 3] < 40 and picture[16, 16, 3] == 255  # rounded, opaque inside
    touch = client.get("/apple-touch-icon.png")
    assert decode_png(touch.data).shape == (180, 180, 4)
    assert client.head("/favicon.ico").status_code == 200
    robots = client.get("/robots.txt")
    assert robots.status_code == 200 and robots.mimetype == "text/plain"
    assert "Disallow: /api/" in robots.get_data(as_text=True)
    home = client.get("/").get_data(as_text=True)
    assert '<link rel="apple-touch-icon" href="/apple-touch-icon.png">' in home


def test_cards_link_to_the_public_address_behind_a_proxy(app_factory: Any) -> None:
    client = app_factory(PUBLIC_URL="https://gomoku.example/").test_client()
    game_id = create_game(client, mode="friend", color="white")
    tags = meta(client.get(f"/g/{game_id}", headers=BOT).get_data(as_text=True))
    assert tags["og:url"] == f"https://gomoku.example/g/{game_id}"
    assert tags["og:image"] == f"https://gomoku.example/g/{game_id}/card.png?v=0"
    home = meta(client.get("/lobby?ref=chat", headers=BOT).get_data(as_text=True))
    assert home["og:url"] == "https://gomoku.example/lobby"
    assert home["og:image"] == "https://gomoku.example/card.png"


def test_the_picture_cache_keeps_the_most_recently_used() -> None:
    cache = CardCache(limit=2)
    cache.put(("a", 1), b"A")
    cache.put(("b", 1), b"B")
    assert cache.get(("a", 1)) == b"A"  # now the most recent
    cache.put(("c", 1), b"C")
    assert cache.get(("b", 1)) is None
    assert (cache.get(("a", 1)), cache.get(("c", 1))) == (b"A", b"C")
    assert cache.get(("a", 2)) is None  # another version is another picture


def test_the_web_app_manifest_and_its_icons(client: Any) -> None:
    reply = client.get("/manifest.webmanifest")
    assert reply.status_code == 200 and reply.mimetype == "application/manifest+json"
    manifest = reply.get_json(force=True)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        side = int(icon["sizes"].split("x")[0])
        picture = decode_png(client.get(icon["src"]).data)
        assert picture.shape == (side, side, 4)
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    assert client.get("/icon-100000.png").status_code == 404
    assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get("/").get_data(
        as_text=True
    )
