"""The Gomoku engine: rules, patterns, evaluation and searchers, with no web code.

Public API: ``Board``, ``Color``, ``Rule``, ``Point`` with ``parse_point``/``point_name``,
``Limit``, ``Searcher`` with ``SearchResult``/``IterationInfo``, and the named errors."""

from engine.board import Board, Outcome
from engine.color import Color
from engine.errors import (
    GameOverError,
    GomokuError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidPointError,
    UnknownRuleError,
)
from engine.limit import Limit
from engine.points import MAX_SIZE, MIN_SIZE, Point, parse_point, point_name
from engine.result import MATE, IterationInfo, SearchResult
from engine.rules import Rule
from engine.search import Searcher

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
