"""``GET /healthz``: whether this server can serve games, for load balancers, operators
and the multi-process fault tests.

It answers 200 ``{"status": "ok", ...}`` when the database answers and, in multi-process
mode, Redis answers and this server is subscribed to the Socket.IO message queue;
otherwise 503 ``{"status": "unavailable", ...}`` naming what is down. In multi-process
mode every mutating API request is also refused with 503 while Redis is down, so nothing
is half-done during an outage."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from sqlalchemy import text

from webapp.game.errors import ServiceUnavailableError

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    runtime = current_app.extensions["gomoku"]
    checks: dict[str, bool] = {}
    try:
        with runtime.store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        checks["database"] = True
    except Exception:
        checks["database"] = False
    mode = "single"
    if runtime.shared is not None:
        mode = "multi"
        checks.update(runtime.shared.health())
    ok = all(checks.values())
    body = {"status": "ok" if ok else "unavailable", "mode": mode, **checks}
    return jsonify(body), 200 if ok else 503


def _refuse_writes_during_outage() -> tuple[Response, int] | None:
    runtime = current_app.extensions.get("gomoku")
    if runtime is None or runtime.shared is None or request.method in ("GET", "HEAD"):
        return None
    try:
        runtime.shared.check_available()
    except ServiceUnavailableError as error:
        return jsonify({"error": error.message}), error.http_status
    return None


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.before_request(_refuse_writes_during_outage)
