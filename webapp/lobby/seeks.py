"""A seek and the request that makes one: the rule, board size, clock preset, rated or
casual, the colour the creator wants and the opening rule, each checked on arrival
(``parse_seek``, ``parse_quick``); a bad field is a ``bad_request`` naming it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import MAX_SIZE, MIN_SIZE, Rule
from webapp.game import opening
from webapp.game.errors import BadRequestError
from webapp.game.opening_types import OpeningRule
from webapp.lobby.presets import DEFAULT_PRESET, parse_preset
from webapp.realtime.messages import RULES

COLORS = ("random", "black", "white")
# The opening rules a seek may ask for (``game.opening_types``; "none" plays from an empty
# board); which ones a board rule plays is checked by ``game.opening.start_state``.
OPENINGS: tuple[str, ...] = tuple(rule.value for rule in OpeningRule)
KINDS = ("seek", "quick")


@dataclass(frozen=True)
class SeekRequest:
    rule: str = "freestyle"
    size: int = 15
    preset: str = DEFAULT_PRESET
    rated: bool = True
    color: str = "random"
    opening: str = "none"


@dataclass(frozen=True)
class Seek:
    id: str
    kind: str
    person_id: str
    name: str
    request: SeekRequest
    rating: float
    provisional: bool
    created_ms: int

    def to_json(self) -> dict[str, Any]:
        r = self.request
        return {
            "id": self.id,
            "kind": self.kind,
            "person": self.person_id,
            "name": self.name,
            "rule": r.rule,
            "size": r.size,
            "preset": r.preset,
            "rated": r.rated,
            "color": r.color,
            "opening": r.opening,
            "rating": round(self.rating),
            "provisional": self.provisional,
            "created": self.created_ms,
        }


def _bad(field: str, message: str, **params: Any) -> BadRequestError:
    return BadRequestError(message, params={"field": field, **params})


def _choice(data: dict[str, Any], field: str, choices: tuple[str, ...], default: str) -> str:
    value = data.get(field, default)
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise _bad(
            field,
            f"'{field}' must be one of {', '.join(choices)}",
            reason="choice",
            choices=list(choices),
        )
    return value.strip().lower()


def parse_seek(data: Any, *, quick: bool = False) -> SeekRequest:
    """A seek request from a payload; a quick pairing has no colour or opening choice."""
    if not isinstance(data, dict):
        raise BadRequestError("the payload must be a JSON object")
    size = data.get("size", 15)
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise _bad(
            "size",
            f"'size' must be between {MIN_SIZE} and {MAX_SIZE}",
            reason="range",
            low=MIN_SIZE,
            high=MAX_SIZE,
        )
    rated = data.get("rated", True)
    if not isinstance(rated, bool):
        raise _bad("rated", "'rated' must be true or false", reason="type")
    request = SeekRequest(
        rule=_choice(data, "rule", RULES, "freestyle"),
        size=size,
        preset=parse_preset(data.get("preset", DEFAULT_PRESET)),
        rated=rated,
        color="random" if quick else _choice(data, "color", COLORS, "random"),
        opening="none" if quick else _choice(data, "opening", OPENINGS, "none"),
    )
    # Refused with ``bad_opening`` when the board rule (or size) does not play it.
    opening.start_state(request.opening, Rule.from_name(request.rule), request.size)
    return request


def parse_seek_id(data: Any) -> str:
    if not isinstance(data, dict):
        raise BadRequestError("the payload must be a JSON object")
    value = data.get("seek_id")
    if not isinstance(value, str) or not 1 <= len(value) <= 16 or not value.isalnum():
        raise _bad("seek_id", "'seek_id' must be a seek's id", reason="type")
    return value


def parse_kind(data: Any) -> str:
    if not isinstance(data, dict):
        raise BadRequestError("the payload must be a JSON object")
    return _choice(data, "kind", KINDS, "seek")
