"""The lanes of AI work (``AiJob.lane``) and the waiting line of each lane in the pool
(``pool``). ``GAME`` is a live game's AI move, ``ANALYSIS`` a hint or an engine API
search; each lane has workers of its own, so analysis never delays a game.

A ``FairQueue`` hands out jobs in turn per client: a lane's idle worker takes the next job
of the client whose turn it is, then that client goes to the back of the line, so a client
with twenty queued searches delays another client's one search by at most one search, not
twenty. Jobs of one client keep their order. The pool also skips a client that holds
its share of the lane's workers already (``pop(allowed)``). Not thread-safe: the pool
holds its lock around every call."""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

GAME = "game"
ANALYSIS = "analysis"
LANES = (GAME, ANALYSIS)

T = TypeVar("T")


class FairQueue(Generic[T]):
    def __init__(self) -> None:
        self._clients: OrderedDict[str, deque[T]] = OrderedDict()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[T]:
        for items in self._clients.values():
            yield from items

    def push(self, client: str, item: T) -> None:
        """Add ``item`` at the end of ``client``'s own line."""
        items = self._clients.get(client)
        if items is None:
            items = self._clients[client] = deque()
        items.append(item)
        self._size += 1

    def push_front(self, client: str, item: T) -> None:
        """Put back an item that could not be started: it goes first."""
        items = self._clients.get(client)
        if items is None:
            items = self._clients[client] = deque()
        items.appendleft(item)
        self._clients.move_to_end(client, last=False)
        self._size += 1

    def pop(self, allowed: Callable[[str], bool] | None = None) -> T | None:
        """The next item of the client whose turn it is, skipping clients ``allowed``
        refuses (they keep their place); None when nothing may go."""
        for client, items in self._clients.items():
            if allowed is not None and not allowed(client):
                continue
            item = items.popleft()
            if items:
                self._clients.move_to_end(client)
            else:
                del self._clients[client]
            self._size -= 1
            return item
        return None

    def remove(self, client: str, item: T) -> bool:
        """Take ``item`` out of the line; False if it was not waiting."""
        items = self._clients.get(client)
        if items is None or item not in items:
            return False
        items.remove(item)
        if not items:
            del self._clients[client]
        self._size -= 1
        return True

    def clear(self) -> list[T]:
        """Empty the line and return what waited."""
        items = list(self)
        self._clients.clear()
        self._size = 0
        return items
