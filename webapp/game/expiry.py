"""Games that never got going: a game in which a side has not yet made its first move is
aborted after a while, so that it leaves the lists of live games and its link says what
became of it. Its clocks have not run (``model.clock_runs``), so no one would lose on time.

A game has started once a stone was played in it: a move of its own beyond the starting
position it was created with, the AI's first move included, or an opening's first step.
Until each side has moved (``model.can_abort``) it is aborted ``unstarted_ms`` after its
last change (``Game.touched_at``) when every seat is taken (a game against the AI, a lobby
pairing, a friend game whose guest has come), and ``waiting_ms`` after it when a friend
game still waits for its guest. The result is an abort with the detail ``unplayed`` if
nobody moved, ``unanswered`` if one side did: no winner, no rating, no one's record.
Games of two engines start themselves and are never aborted; neither is a game set up
from a position (an import, a game played on from a review), whose stones someone chose.
Pure, like ``model``: the service reads the clock and supplies ``now``."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.model import Change, Game, can_abort, finish
from webapp.game.types import Mode, Result, Status, Termination

UNSTARTED_MS = 10 * 60_000  # every seat taken, a side has not yet moved
WAITING_MS = 60 * 60_000  # a friend game whose guest has not come
UNPLAYED = "unplayed"  # the detail of the result of a game aborted here that nobody moved in
UNANSWERED = "unanswered"  # ... that one side moved in, the other not


def started(game: Game) -> bool:
    """Whether anyone has played in ``game``: a move after its starting position, or an
    opening step."""
    if game.opening is not None and game.opening.acted:
        return True
    return len(game.moves) > game.start_plies


@dataclass(frozen=True)
class Expiry:
    """How long a game stays open before each side has moved."""

    unstarted_ms: int = UNSTARTED_MS
    waiting_ms: int = WAITING_MS

    def at(self, game: Game) -> int | None:
        """When ``game`` is aborted unless it changes before (epoch ms), or None if it
        never is: it is over, each side has moved, it is a game of engines or it was set
        up from a position."""
        if game.status is Status.FINISHED or game.mode is Mode.AIVAI:
            return None
        if game.start_plies or not can_abort(game):
            return None
        after = self.waiting_ms if game.status is Status.WAITING else self.unstarted_ms
        return game.touched_at + after

    def due(self, game: Game, now: int) -> bool:
        """Whether ``game`` is to be aborted at ``now``: a side has not moved in time."""
        at = self.at(game)
        return at is not None and now >= at

    def expire(self, game: Game, now: int) -> Change:
        """``game`` aborted if a side has not moved in time at ``now``, else no change."""
        if not self.due(game, now):
            return Change(game)
        detail = UNANSWERED if started(game) else UNPLAYED
        return finish(game, Result(Termination.ABORTED, detail=detail), now)
