"""Quick pairing: who of the waiting seekers fits a newcomer, by rating.

A seeker accepts opponents within ``rating_range(wait)`` of their own rating, a range
that starts at ``START_RANGE`` points and widens by ``WIDEN_PER_S`` a second they wait,
up to ``MAX_RANGE``. Two seekers of the same rule, size, preset and rated choice fit when
their ratings are within the wider of their two ranges. Pure: the lobby service asks."""

from __future__ import annotations

from collections.abc import Iterable

from webapp.lobby.seeks import Seek

START_RANGE = 100.0
WIDEN_PER_S = 25.0
MAX_RANGE = 1000.0


def rating_range(waited_ms: int) -> float:
    return min(MAX_RANGE, START_RANGE + WIDEN_PER_S * max(0, waited_ms) / 1000)


def same_game(a: Seek, b: Seek) -> bool:
    ra, rb = a.request, b.request
    return (ra.rule, ra.size, ra.preset, ra.rated) == (rb.rule, rb.size, rb.preset, rb.rated)


def fits(a: Seek, b: Seek, now: int) -> bool:
    if a.person_id == b.person_id or not same_game(a, b):
        return False
    allowed = max(rating_range(now - a.created_ms), rating_range(now - b.created_ms))
    return abs(a.rating - b.rating) <= allowed


def best_partner(seeker: Seek, waiting: Iterable[Seek], now: int) -> Seek | None:
    """The waiting seeker closest in rating that fits ``seeker`` (the longest waiting
    among equals), or None."""
    found = [other for other in waiting if fits(seeker, other, now)]
    if not found:
        return None
    return min(found, key=lambda other: (abs(other.rating - seeker.rating), other.created_ms))
