"""The analysis board's socket payloads (namespace ``/analysis``), validated on arrival.

Client -> server
    ``analyse {size: 7..22, rule: "freestyle"|"standard"|"renju", moves: [[x, y], ...],
    lines: 1..5}``: analyse this position (it replaces the one analysed before);
    ``analysis_continue {}``: go on after a pause; ``analysis_stop {}``.

Server -> client
    ``analysis {position, status: "running"|"paused"|"done"|"opening", turn, depth,
    nodes, nps, elapsed_ms, lines: [{move, name, score, black_winrate, depth, pv,
    pv_names, mate, winner}]}``: ``position`` counts the positions this socket sent (the
    page drops updates of an older one); an empty board gets one ``opening`` update (the
    centre) and no search; ``score`` is the side to move's, ``black_winrate`` on the
    scale of ``game.winrate``; ``mate`` is the distance in plies of a forced win (or loss)
    and ``winner`` its side. ``error {code, message, params}``: ``bad_moves``,
    ``game_over``, ``analysis_limit`` (too many boards analysing for one client),
    ``rate_limited``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webapp.realtime.messages import RULES, _choice, _int, _object, moves_of

MAX_LINES = 5


@dataclass(frozen=True)
class AnalyseMessage:
    size: int
    rule: str
    moves: list[tuple[int, int]]
    lines: int


def parse_analyse(data: Any) -> AnalyseMessage:
    body = _object(data, "analyse")
    size = _int(body, "size", 7, 22, 15)
    return AnalyseMessage(
        size=size,
        rule=_choice(body, "rule", RULES, "freestyle"),
        moves=moves_of(body, "moves", size),
        lines=_int(body, "lines", 1, MAX_LINES, 3),
    )
