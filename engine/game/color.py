"""The two sides. ``Color`` values match the cell codes used by the board and the compiled
core (0 is an empty cell), so they can index arrays directly."""

from __future__ import annotations

from enum import IntEnum


class Color(IntEnum):
    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_name(cls, name: str) -> Color:
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown colour {name!r}: expected 'black' or 'white'") from None
