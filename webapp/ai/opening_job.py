"""An AI's step of an opening rule, searched in a worker like a move (``search_job``).

The job's ``opening`` carries the step (``engine.search.opening_choices.OpeningTask``);
the decision comes from ``opening_choices.decide`` with a negamax searcher given the
level's time (at least a quarter of a second: the decisions compare several positions),
whatever player the seat has. The answer travels as an ``AiMove`` whose ``opening``
lists the actions; the game applies them (``game.opening_ai``)."""

from __future__ import annotations

import time

from webapp.ai.types import AiJob, AiMove

MIN_TIME_S = 0.25
MAX_TIME_S = 3.0


def decide_opening(job: AiJob) -> AiMove:
    from engine import Board, Searcher
    from engine.search.levels import get_level
    from engine.search.opening_choices import OpeningTask, decide

    task_data = dict(job.opening or {})
    radius = task_data.get("radius")
    task = OpeningTask(
        rule=str(task_data["rule"]),
        kind=str(task_data["kind"]),
        stage=str(task_data.get("stage", "")),
        options=tuple(str(option) for option in task_data.get("options", ())),
        radius=int(radius) if radius is not None else None,
        count=int(task_data.get("count", 0)),
        proposals=tuple((int(x), int(y)) for x, y in task_data.get("proposals", ())),
    )
    level = get_level(job.level)
    time_s = job.time_s or level.limit.time or MIN_TIME_S
    time_s = min(MAX_TIME_S, max(MIN_TIME_S, time_s))
    board = Board.from_moves(job.moves, size=job.size, rule=job.rule)
    started = time.monotonic()
    actions = decide(board, task, Searcher(defence=job.defence, seed=job.seed), time_s)
    answer: list[list[object]] = []
    for kind, value in actions:
        if isinstance(value, tuple):
            answer.append([kind, int(value[0]), int(value[1])])
        else:
            answer.append([kind, str(value)])
    first = next((value for _, value in actions if isinstance(value, tuple)), (-1, -1))
    return AiMove(
        move=(int(first[0]), int(first[1])),
        score=0,
        depth=0,
        nodes=0,
        time_s=time.monotonic() - started,
        opening=answer,
    )
