"""Named errors of the engine. Every one subclasses ``ValueError`` so callers at the edges
(the web app, the Gomocup adapter) can turn any of them into a clear message."""

from __future__ import annotations


class GomokuError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalMoveError(GomokuError):
    """A move that cannot be played: off the board, on a stone, or after the game ended."""


class GameOverError(IllegalMoveError):
    """A move was played after the game had already ended."""


class InvalidBoardError(GomokuError):
    """A board size or a position description that the engine cannot accept."""


class UnknownRuleError(GomokuError):
    """A rule name that is not one of the supported rules."""


class InvalidPointError(GomokuError):
    """A point name such as ``h8`` or ``7,7`` that does not parse."""
