"""Rule variants as data: what counts as a five and whether black has forbidden moves.

``freestyle``: five or more in a row wins. ``standard``: exactly five wins, six or more
does not. ``renju``: black wins only with exactly five and may not play overlines,
double-fours or double-threes (a forbidden move loses); white wins with five or more.
The Gomocup ``INFO rule`` codes 0, 1 and 4 map to these."""

from __future__ import annotations

from enum import Enum

from engine.game.errors import UnknownRuleError


class Rule(Enum):
    FREESTYLE = "freestyle"
    STANDARD = "standard"
    RENJU = "renju"

    @classmethod
    def from_name(cls, name: str | Rule) -> Rule:
        """Find a rule by name (case-insensitive); raise ``UnknownRuleError`` otherwise."""
        if isinstance(name, Rule):
            return name
        key = str(name).strip().lower()
        for rule in cls:
            if rule.value == key:
                return rule
        choices = ", ".join(r.value for r in cls)
        raise UnknownRuleError(f"unknown rule {name!r}: expected one of {choices}")

    @classmethod
    def from_gomocup(cls, code: int) -> Rule:
        """Map a Gomocup ``INFO rule`` bitmask: bit 0 exact five, bit 2 renju."""
        if code & 4:
            return cls.RENJU
        if code & 1:
            return cls.STANDARD
        return cls.FREESTYLE

    @property
    def gomocup_code(self) -> int:
        return {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}[self]

    def exact_five(self, black: bool) -> bool:
        """Whether only exactly five (not six or more) wins for this side."""
        if self is Rule.STANDARD:
            return True
        return self is Rule.RENJU and black

    @property
    def has_forbidden(self) -> bool:
        return self is Rule.RENJU
