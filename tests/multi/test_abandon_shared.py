"""Abandon countdowns across servers: black plays on server A, white on server B; when
white leaves, the moment is stored once in the shared database, so a spectator arriving
on B, and black's second page opened on B, see the same countdown as black's page on A,
and a claim through B is judged by it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.multi.conftest import Cluster, Peer, claim_seat, create_game

pytestmark = pytest.mark.multi


def test_one_countdown_on_every_server(cluster: Cluster, peers: Callable[..., Peer]) -> None:
    game_id, black_cookie = create_game(cluster.a, mode="friend", color="black")
    white_cookie = claim_seat(cluster.b, game_id)
    black = peers(cluster.a, black_cookie)
    white = peers(cluster.b, white_cookie)
    assert black.join(game_id)["you"] == "black"
    assert white.join(game_id)["you"] == "white"
    for ply, (peer, point) in enumerate(((black, (7, 7)), (white, (8, 8))), start=1):
        version = peer.wait_moves(game_id, ply - 1)["version"]
        ack = peer.call("move", {"game_id": game_id, "x": point[0], "y": point[1],
                                 "version": version})  # fmt: skip
        assert ack["ok"], ack
        black.wait_moves(game_id, ply)
    white.close()
    countdown = black.wait_state(game_id, lambda s: s["abandon"] is not None, 15)["abandon"]
    assert countdown["seat"] == "white"

    spectator = peers(cluster.b)
    seen = spectator.join(game_id)
    assert seen["abandon"] is not None
    assert seen["abandon"]["claim_at"] == countdown["claim_at"]
    second_page = peers(cluster.b, black_cookie)
    mine = second_page.join(game_id)
    assert mine["you"] == "black"
    assert mine["abandon"]["claim_at"] == countdown["claim_at"]
    early = second_page.call("claim_victory", {"game_id": game_id})
    assert early["error"]["code"] == "claim_too_early"
