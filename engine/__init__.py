"""The Gomoku engine: rules, patterns, evaluation and searchers, with no web code.

Public API: ``Board``, ``Color``, ``Rule``, ``Point`` with ``parse_point``/``point_name``,
``Limit``, ``Searcher`` with ``SearchResult``/``IterationInfo``, and the named errors."""

from engine.game.board import Board, Outcome
from engine.game.color import Color
from engine.game.errors import (
    GameOverError,
    GomokuError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidPointError,
    UnknownRuleError,
)
from engine.game.points import MAX_SIZE, MIN_SIZE, Point, parse_point, point_name
from engine.game.rules import Rule
from engine.search.limit import Limit
from engine.search.result import MATE, IterationInfo, SearchResult
from engine.search.searcher import Searcher

__all__ = [
    "MATE",
    "MAX_SIZE",
    "MIN_SIZE",
    "Board",
    "Color",
    "GameOverError",
    "GomokuError",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidPointError",
    "IterationInfo",
    "Limit",
    "Outcome",
    "Point",
    "Rule",
    "SearchResult",
    "Searcher",
    "UnknownRuleError",
    "parse_point",
    "point_name",
]
