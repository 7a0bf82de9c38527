"""Game review: the engine over every position of a finished game, the moves classed by
the winning chance they cost (``classify``, ``report``), computed once per game by a
background job (``jobs``, stored by ``repo``), shown on ``/g/<id>/review`` (``views``)
with live progress (``namespace``), and "play from here" (``play_from``).

``init_app(app)`` wires it to the app's runtime (its store, AI runner and game service)
and Socket.IO server."""

from __future__ import annotations

from typing import Any

from flask import Flask

from webapp.review import views
from webapp.review.jobs import REVIEW_TIME_S, ReviewJobs
from webapp.review.namespace import NAMESPACE, ReviewNamespace
from webapp.review.repo import ReviewRepo


def init_app(app: Flask) -> ReviewJobs:
    runtime = app.extensions["gomoku"]
    socketio: Any = runtime.socketio

    def emit(event: str, payload: dict[str, Any], room: str) -> None:
        socketio.emit(event, payload, namespace=NAMESPACE, to=room)

    review_jobs = ReviewJobs(
        ReviewRepo(runtime.store.engine),
        runtime.runner,
        runtime.service.load,
        time_s=float(app.config.get("REVIEW_TIME_S", REVIEW_TIME_S)),
        emit=emit,
    )
    socketio.on_namespace(ReviewNamespace(review_jobs))
    views.init_app(app, review_jobs)
    return review_jobs


def close(app: Flask) -> None:
    review_jobs = app.extensions.pop(views.EXTENSION, None)
    if review_jobs is not None:
        review_jobs.close()
