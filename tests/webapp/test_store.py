"""The store on a real SQLite file: records survive a reopen and the version
compare-and-set lets exactly one of several concurrent writers win."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.store_race import torn_reads
from webapp.storage.store import (
    GameNotFoundError,
    GameRecord,
    MoveRecord,
    SeatRecord,
    StaleVersionError,
    Store,
)


def make_store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")


def sample(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        id=game_id,
        mode="friend",
        size=15,
        rule="freestyle",
        status="waiting",
        settings={"clock": {"base_ms": 60000, "increment_ms": 0}},
        moves=[MoveRecord(1, 7, 7, "black")],
        seats={
            "black": SeatRecord("black", "human", "abc"),
            "white": SeatRecord("white", "human", None),
        },
    )


def test_a_game_survives_closing_and_reopening(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.create(sample())
    store.close()
    again = make_store(tmp_path)
    record = again.load("g1")
    assert record.points == [(7, 7)]
    assert record.seats["black"].token_hash == "abc"
    assert record.settings["clock"]["base_ms"] == 60000
    assert record.version == 0
    again.close()


def test_update_adds_moves_and_bumps_the_version(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.create(sample())
    version = store.update(
        "g1",
        0,
        changes={"status": "active"},
        add_moves=[MoveRecord(2, 8, 8, "white", eval_score=12)],
        seat_tokens={"white": "def"},
    )
    record = store.load("g1")
    assert version == record.version == 1
    assert record.status == "active"
    assert record.points == [(7, 7), (8, 8)]
    assert record.moves[1].eval_score == 12
    assert record.seats["white"].token_hash == "def"
    store.update("g1", 1, truncate_to=1)
    assert store.load("g1").points == [(7, 7)]
    store.close()


def test_a_stale_version_writes_nothing(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.create(sample())
    store.update("g1", 0, add_moves=[MoveRecord(2, 8, 8, "white")])
    with pytest.raises(StaleVersionError):
        store.update("g1", 0, add_moves=[MoveRecord(2, 9, 9, "white")])
    record = store.load("g1")
    assert record.points == [(7, 7), (8, 8)]
    assert record.version == 1
    store.close()


def test_claiming_a_taken_seat_is_refused_and_rolled_back(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.create(sample())
    with pytest.raises(StaleVersionError):
        store.update("g1", 0, changes={"status": "active"}, seat_tokens={"black": "x"})
    record = store.load("g1")
    assert record.status == "waiting"
    assert record.version == 0
    assert record.seats["black"].token_hash == "abc"
    store.close()


def test_unknown_games_raise_a_named_error(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    with pytest.raises(GameNotFoundError):
        store.load("nope")
    with pytest.raises(GameNotFoundError):
        store.update("nope", 0)
    assert store.find("nope") is None
    store.close()


def test_concurrent_writers_of_one_version_have_exactly_one_winner(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.create(sample())
    barrier = threading.Barrier(6)
    outcomes: list[str] = []
    lock = threading.Lock()

    def write(x: int) -> None:
        barrier.wait()
        try:
            store.update("g1", 0, add_moves=[MoveRecord(2, x, 0, "white")])
            result = "won"
        except StaleVersionError:
            result = "stale"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=write, args=(x,)) for x in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["stale"] * 5 + ["won"]
    record = store.load("g1")
    assert record.version == 1
    assert len(record.moves) == 2
    store.close()


def test_live_listing_is_newest_first_and_filtered(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    for index in range(3):
        record = sample(f"g{index}")
        record.status = "active" if index != 1 else "finished"
        store.create(record)
    assert [r.id for r in store.list_games(status="active")] == ["g2", "g0"]
    assert sorted(store.active_game_ids()) == ["g0", "g2"]
    store.close()


def test_a_load_never_mixes_two_versions(tmp_path: Path) -> None:
    # Each change adds one move, so a consistent read has one move more than its version.
    store = make_store(tmp_path)
    store.create(sample())
    changes = 300
    torn = torn_reads(store, "g1", changes)
    assert store.load("g1").version == changes
    assert torn == []
