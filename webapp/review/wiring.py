"""Wiring game review into the app: its jobs on the app's runtime (store, AI runner,
game service), its pages and its Socket.IO namespace."""

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
