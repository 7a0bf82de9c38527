"""Games nobody started: a game no one has moved in is aborted after a while, so that it
leaves the lists of live games and its link says what became of it.

A game has started once a stone was played in it: a move of its own beyond the starting
position it was created with, the AI's first move included, or an opening's first step.
Until then it is aborted ``unstarted_ms`` after its last change (``Game.touched_at``)
when every seat is taken (a game against the AI, a lobby pairing, a friend game whose
guest has come), and ``waiting_ms`` after it when a friend game still waits for its
guest. The
result is an abort with the detail ``unplayed``: no winner, no rating, no one's record.
Games of two engines start themselves and are never aborted; neither is a game set up
from a position (an import, a game played on from a review), whose stones someone chose.
Pure, like ``model``: the service reads the clock and supplies ``now``."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.model import Change, Game, finish
from webapp.game.types import Mode, Result, Status, Termination

UNSTARTED_MS = 10 * 60_000  # every seat taken, nobody has moved
WAITING_MS = 60 * 60_000  # a friend game whose guest has not come
UNPLAYED = "unplayed"  # the detail of the result of a game aborted here


def started(game: Game) -> bool:
    """Whether anyone has played in ``game``: a move after its starting position, or an
    opening step."""
    if game.opening is not None and game.opening.acted:
        return True
    return len(game.moves) > game.start_plies


@dataclass(frozen=True)
class Expiry:
    """How long a game nobody has moved in stays open."""

    unstarted_ms: int = UNSTARTED_MS
    waiting_ms: int = WAITING_MS

    def at(self, game: Game) -> int | None:
        """When ``game`` is aborted if nobody moves in it before (epoch ms), or None if
        it never is: it is over, it has started, it is a game of engines or it was set up
        from a position."""
        if game.status is Status.FINISHED or game.mode is Mode.AIVAI:
            return None
        if game.start_plies or started(game):
            return None
        after = self.waiting_ms if game.status is Status.WAITING else self.unstarted_ms
        return game.touched_at + after

    def due(self, game: Game, now: int) -> bool:
        """Whether ``game`` is to be aborted at ``now``: nobody started it in time."""
        at = self.at(game)
        return at is not None and now >= at

    def expire(self, game: Game, now: int) -> Change:
        """``game`` aborted if nobody has started it in time at ``now``, else no change."""
        if not self.due(game, now):
            return Change(game)
        return finish(game, Result(Termination.ABORTED, detail=UNPLAYED), now)


def is_unplayed(result: Result | None) -> bool:
    """Whether ``result`` is that of a game aborted because nobody moved in it."""
    return (
        result is not None
        and result.termination is Termination.ABORTED
        and result.detail == UNPLAYED
    )
