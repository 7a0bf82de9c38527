"""A check shared by the SQLite and PostgreSQL store tests: while one writer adds a move
per version, readers must never see a record whose moves belong to another version."""

from __future__ import annotations

import threading

from webapp.storage.store import MoveRecord, Store


def torn_reads(store: Store, game_id: str, changes: int, readers: int = 2) -> list[tuple[int, int]]:
    """Make ``changes`` changes to ``game_id`` (a game with one move at version 0), each
    adding one move, while ``readers`` threads load it; return the (version, moves)
    pairs read that were not one move ahead of their version."""
    stop = threading.Event()
    torn: list[tuple[int, int]] = []

    def read() -> None:
        while not stop.is_set():
            record = store.load(game_id)
            if len(record.moves) != record.version + 1:
                torn.append((record.version, len(record.moves)))

    threads = [threading.Thread(target=read) for _ in range(readers)]
    for thread in threads:
        thread.start()
    try:
        for version in range(changes):
            move = MoveRecord(version + 2, version % 15, version // 15, "white")
            store.update(game_id, version, add_moves=[move])
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)
    return torn
