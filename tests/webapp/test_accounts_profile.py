"""Profiles: a person's games by their seats' person id, filtered by mode, rule and result,
with links to each game and its review, the results by rule, the rating points for the
chart, and the same archive as JSON; guests have a profile under their person id."""

from __future__ import annotations

import re
from typing import Any

from socket_helpers import create_game, wait_for

PASSWORD = "correct horse battery"


def csrf_of(client: Any, path: str) -> str:
    found = re.search(r'name="csrf_token" value="([0-9a-f]+)"', client.get(path).get_data(True))
    assert found
    return found.group(1)


def signup(client: Any, username: str) -> None:
    form = {"username": username, "password": PASSWORD, "password2": PASSWORD}
    reply = client.post("/signup", data={**form, "csrf_token": csrf_of(client, "/signup")})
    assert reply.status_code == 303


def finish(app: Any, game_id: str, seat: str) -> None:
    """``seat`` resigns ``game_id`` once each side has played a move (before that a game
    can only be aborted): the humans' moves are played here, the AI's awaited."""
    from webapp.game.types import Seat, SeatKind

    service = app.extensions["gomoku"].service

    def both_moved() -> bool:
        game = service.load(game_id)
        if game.moved(Seat.BLACK) and game.moved(Seat.WHITE):
            return True
        if game.seats[game.turn].kind is SeatKind.HUMAN:
            x, y = next(p for p in ((7, 7), (8, 8)) if p not in game.points)
            service.play(game_id, game.turn, x, y, game.version)
        return False

    wait_for(both_moved, 60)
    service.resign(game_id, Seat(seat))


def rows(page: str) -> list[str]:
    return re.findall(r'class="archive-row" data-game-id="([^"]+)"', page)


def test_the_archive_and_its_filters(app: Any, client: Any) -> None:
    signup(client, "Ada")
    won = create_game(client, mode="friend", color="black", rule="renju")
    friend = app.test_client()
    assert friend.post(f"/g/{won}/seat", json={}).status_code == 200
    finish(app, won, "white")
    lost = create_game(client, mode="ai", color="black", level=1, rule="freestyle")
    finish(app, lost, "black")
    playing = create_game(client, mode="friend", color="white", rule="standard")
    page = client.get("/u/Ada").get_data(as_text=True)
    assert set(rows(page)) == {won, lost, playing}
    assert f'href="/g/{won}/review"' in page and f'href="/g/{won}"' in page
    assert f'href="/g/{playing}/review"' not in page
    assert 'data-rule="renju"' in page
    assert set(rows(client.get("/u/Ada?result=win").get_data(True))) == {won}
    assert set(rows(client.get("/u/Ada?result=loss").get_data(True))) == {lost}
    assert set(rows(client.get("/u/Ada?result=playing").get_data(True))) == {playing}
    assert set(rows(client.get("/u/Ada?mode=ai").get_data(True))) == {lost}
    assert set(rows(client.get("/u/Ada?mode=friend&rule=renju").get_data(True))) == {won}
    assert rows(client.get("/u/Ada?rule=renju&result=loss").get_data(True)) == []
    # Unknown filter values are ignored, not errors.
    assert len(rows(client.get("/u/Ada?mode=zzz&page=x").get_data(True))) == 3
    body = client.get("/api/v1/people/Ada/games?rule=renju").get_json()
    assert body["username"] == "Ada" and body["total"] == 1
    assert body["games"][0]["id"] == won and body["games"][0]["result"] == "win"
    assert body["games"][0]["color"] == "black" and body["games"][0]["opponent"].startswith(
        "Guest-"
    )
    by_rule = {row["rule"]: row for row in body["by_rule"]}
    assert by_rule["renju"]["wins"] == 1 and by_rule["freestyle"]["losses"] == 1
    assert "standard" not in by_rule  # its only game is still being played
    assert isinstance(body["ratings"], list)
    # The friend's side of the same game is a loss.
    friend_id = friend.get("/api/v1/me").get_json()["id"]
    theirs = client.get(f"/api/v1/people/{friend_id}/games").get_json()
    assert [g["result"] for g in theirs["games"]] == ["loss"]


def test_results_by_rule_on_the_page(app: Any, client: Any) -> None:
    client.get("/")
    for _ in range(2):
        game_id = create_game(client, mode="friend", color="black", rule="standard")
        assert app.test_client().post(f"/g/{game_id}/seat", json={}).status_code == 200
        finish(app, game_id, "white")
    me = client.get("/api/v1/me").get_json()["id"]
    page = client.get(f"/u/{me}").get_data(as_text=True)
    table = page[page.index('id="by-rule"') :]
    assert re.search(r'data-rule="standard">.*?2-0-0.*?100%', table, re.S)
    assert 'data-i18n="profile.guest"' in page
    assert 'href="/me"' in page  # it is this visitor's own profile


def test_results_by_rule_count_only_finished_games(app: Any, client: Any) -> None:
    from webapp.game.types import Seat

    client.get("/")
    create_game(client, mode="ai", color="black", level=1)  # still being played
    aborted = create_game(client, mode="ai", color="black", level=1)
    app.extensions["gomoku"].service.abort(aborted, Seat.BLACK)
    won = create_game(client, mode="friend", color="black")
    assert app.test_client().post(f"/g/{won}/seat", json={}).status_code == 200
    finish(app, won, "white")
    lost = create_game(client, mode="ai", color="black", level=1, rule="renju")
    finish(app, lost, "black")
    me = client.get("/api/v1/me").get_json()["id"]
    body = client.get(f"/api/v1/people/{me}/games").get_json()
    assert body["total"] == 4  # every game is listed in the archive
    tallies = {row["rule"]: row for row in body["by_rule"]}
    assert tallies["freestyle"] == {"rule": "freestyle", "games": 1, "wins": 1, "losses": 0,
                                    "draws": 0}  # fmt: skip
    assert tallies["renju"]["games"] == 1 and tallies["renju"]["losses"] == 1
    table = client.get(f"/u/{me}").get_data(as_text=True)
    table = table[table.index('id="by-rule"') :]
    assert re.search(r'data-rule="freestyle">.*?>1<.*?1-0-0.*?100%', table, re.S)


def test_a_profile_with_only_unfinished_games_has_no_results(app: Any, client: Any) -> None:
    client.get("/")
    create_game(client, mode="ai", color="black", level=1)
    me = client.get("/api/v1/me").get_json()["id"]
    assert client.get(f"/api/v1/people/{me}/games").get_json()["by_rule"] == []
    assert 'id="by-rule"' not in client.get(f"/u/{me}").get_data(as_text=True)


def test_profile_links_and_refusals(app: Any, client: Any) -> None:
    client.get("/")
    guest = client.get("/api/v1/me").get_json()["id"]
    # A guest who has done nothing has no profile.
    assert client.get(f"/u/{guest}").status_code == 404
    create_game(client, mode="ai", level=1)
    assert client.get(f"/u/{guest}").status_code == 200
    signup(client, "Grace")
    # The account's person id and a differently cased username lead to the one page.
    assert client.get(f"/u/{guest}").headers["Location"] == "/u/Grace"
    assert client.get("/u/grace").headers["Location"] == "/u/Grace"
    for key in ("Nobody", "<script>", "v" + "0" * 23, "x"):
        assert client.get(f"/u/{key}").status_code == 404
    assert client.get("/api/v1/people/Nobody/games").status_code == 404
    assert app.test_client().get("/u/Grace").status_code == 200


def test_the_chart_gets_the_rating_points(app: Any, client: Any, monkeypatch: Any) -> None:
    from webapp.accounts import profile

    points = [
        {"rule_key": "freestyle-15", "game_id": "abc", "rating": 1620, "rd": 180, "at": 1},
        {"rule_key": "freestyle-15", "game_id": "def", "rating": 1580, "rd": 160, "at": 2},
    ]
    monkeypatch.setattr(profile, "rating_points", lambda engine, person_id: points)
    signup(client, "Judea")
    page = client.get("/u/Judea").get_data(as_text=True)
    found = re.search(r"data-points='([^']*)'", page)
    assert found and '"rating": 1620' in found.group(1).replace('"rating":1620', '"rating": 1620')


def test_names_on_the_profile_are_escaped(app: Any, client: Any) -> None:
    token = csrf_of(client, "/me")
    client.post("/me/name", data={"name": "<b>bold</b>", "csrf_token": token})
    create_game(client, mode="ai", level=1)
    me = client.get("/api/v1/me").get_json()["id"]
    page = client.get(f"/u/{me}").get_data(as_text=True)
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page


def test_the_chart_reads_the_rating_history(app: Any, client: Any) -> None:
    """The points the people's ratings keep after each rated game reach the page."""
    from webapp.storage.rating_tables import RatingHistoryRow

    signup(client, "Hedy")
    person = client.get("/api/v1/me").get_json()["id"]
    engine = app.extensions["gomoku"].store.engine
    from sqlalchemy import insert

    with engine.begin() as connection:
        connection.execute(
            insert(RatingHistoryRow),
            [
                {"person_id": person, "rule_key": "freestyle-15", "game_id": "g1",
                 "rating": 1650.4, "rd": 290.0},
                {"person_id": person, "rule_key": "freestyle-15", "game_id": "g2",
                 "rating": 1702.0, "rd": 250.0},
            ],
        )  # fmt: skip
    body = client.get("/api/v1/people/Hedy/games").get_json()
    assert [(p["game_id"], p["rating"]) for p in body["ratings"]] == [("g1", 1650), ("g2", 1702)]
    assert body["current"] == []
    page = client.get("/u/Hedy").get_data(as_text=True)
    found = re.search(r"data-points='([^']*)'", page)
    assert found and '"g2"' in found.group(1)


def test_current_ratings_are_shown_provisional_at_first(app: Any, client: Any) -> None:
    signup(client, "Ida")
    game_id = create_game(client, mode="friend", color="black")
    friend = app.test_client()
    assert friend.post(f"/g/{game_id}/seat", json={}).status_code == 200
    game = app.extensions["gomoku"].service.load(game_id)
    from dataclasses import replace

    rated = replace(game, settings={**game.settings, "rated": True})
    finish(app, game_id, "white")
    finished = app.extensions["gomoku"].service.load(game_id)
    app.extensions["gomoku"].ratings.on_game_finished(replace(finished, settings=rated.settings))
    page = client.get("/u/Ida").get_data(as_text=True)
    chip = re.search(
        r'<li data-rule-key="freestyle-15" class="provisional".*?<strong>(\d+\?)</strong>',
        page,
        re.S,
    )
    assert chip and int(chip.group(1)[:-1]) > 1500
    body = client.get("/api/v1/people/Ida/games").get_json()
    assert body["current"][0]["provisional"] is True and len(body["ratings"]) == 1
