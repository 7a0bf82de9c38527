"""The application factory.

``create_app`` reads its configuration from the environment (``SECRET_KEY``,
``DATABASE_URL``, ``REDIS_URL``, ``GOMOKU_INSTANCE``, ``AI_WORKERS``, ``CORS_ORIGINS``,
``GOMOKU_ENGINES``: external Gomocup engines as players, see ``players``; ``REVIEW_TIME_S``:
the engine's time per position of a game review)
and an optional ``test_config`` mapping, then wires the store, the AI runner, the game
service, the ``/game`` Socket.IO namespace and the page, API and health blueprints
together; games whose AI was thinking when the server stopped resume at once. Without
``REDIS_URL`` everything runs in this process (AI searches in its own process pool);
with it (``multi``) Socket.IO fans out through Redis, presence is shared there and AI
moves are RQ jobs for ``gomoku worker``. ``shutdown_app`` releases the worker processes,
Redis and the database."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_socketio import SocketIO

from webapp.runtime import Settings, build, database_url

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def _site_folder(name: str) -> Path:
    """``templates`` or ``static``: inside the package when installed from a wheel, else
    the source tree's top-level folder of that name."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else ROOT / name


def _default_instance() -> Path:
    """``instance/`` of the source tree, or of the working folder for an installed copy."""
    if (ROOT / "pyproject.toml").is_file() and (ROOT / "webapp").is_dir():
        return ROOT / "instance"
    return Path.cwd() / "instance"


MAX_BODY_BYTES = 64 * 1024


def _secret_key(instance: Path) -> str:
    from_env = os.environ.get("SECRET_KEY")
    if from_env:
        return from_env
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def _cors_origins(value: str | None) -> Any:
    if not value:
        return None  # engine.io's default: the page's own origin only
    if value.strip() == "*":
        return "*"
    return [origin.strip() for origin in value.split(",") if origin.strip()]


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    test_config = dict(test_config or {})
    instance = test_config.pop("INSTANCE_PATH", None) or os.environ.get("GOMOKU_INSTANCE")
    app = Flask(
        __name__,
        instance_path=str(Path(instance).resolve() if instance else _default_instance()),
        instance_relative_config=True,
        template_folder=str(_site_folder("templates")),
        static_folder=str(_site_folder("static")),
    )
    instance_dir = Path(app.instance_path)
    instance_dir.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=database_url(instance_dir),
        REDIS_URL=os.environ.get("REDIS_URL") or None,
        AI_WORKERS=int(os.environ.get("AI_WORKERS") or os.cpu_count() or 1),
        AI_ANALYSIS_WORKERS=int(os.environ.get("AI_ANALYSIS_WORKERS") or 1),
        AI_START_WAIT_S=60.0,
        AI_WARM_UP=True,
        AI_RESUME=True,
        AIVAI_MOVE_S=0.6,
        HINT_TIME_S=0.5,
        # Engine time per position of a game review (``review``).
        REVIEW_TIME_S=float(os.environ.get("REVIEW_TIME_S") or 0.5),
        CORS_ORIGINS=os.environ.get("CORS_ORIGINS"),
        # The address people use (``https://gomoku.example``) for links in shared cards.
        PUBLIC_URL=os.environ.get("PUBLIC_URL") or None,
        SESSION_COOKIE_SECURE=os.environ.get("SESSION_COOKIE_SECURE", "").lower()
        in ("1", "true", "yes"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        # "gevent" under ``gomoku serve`` (see ``server``); tests drive the app in threads.
        ASYNC_MODE="threading",
        RATE_PER_S=20.0,
        RATE_BURST=40.0,
        ENGINES=os.environ.get("GOMOKU_ENGINES"),
        # How long a friend game's player may be gone before the other may claim the win.
        ABANDON_MS=int(os.environ.get("ABANDON_MS") or 60_000),
        IDLE_MS=10 * 60_000,
        # A game nobody has moved in is aborted this long after its last change: every
        # seat taken, or a friend game still waiting for its guest (``game.expiry``).
        UNSTARTED_MS=int(os.environ.get("UNSTARTED_MS") or 10 * 60_000),
        WAITING_MS=int(os.environ.get("WAITING_MS") or 60 * 60_000),
    )
    app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance_dir)

    from webapp.accounts import routes as account_routes
    from webapp.analysis import wiring as analysis_board
    from webapp.chat.repo import ChatRepo
    from webapp.chat.service import ChatService
    from webapp.http import (
        api,
        health,
        json_body,
        link_preview,
        pages,
        players_page,
        rules_page,
        security,
    )
    from webapp.lobby import pages as lobby_pages
    from webapp.puzzles import routes as puzzle_routes
    from webapp.realtime import broadcast, guard
    from webapp.realtime.namespace import NAMESPACE, GameNamespace
    from webapp.realtime.ratelimit import RateLimiter
    from webapp.review import wiring as review

    # Tests share one runner between apps to spare the worker start-up.
    runtime = build(Settings.from_config(app.config), runner=app.config.get("AI_RUNNER"))
    service, presence, shared = runtime.service, runtime.presence, runtime.shared
    if shared is not None:
        shared.presence.start_heartbeat()
    options: dict[str, Any] = {}
    if shared is not None:
        options["client_manager"] = shared.client_manager()
    elif app.config["ASYNC_MODE"] == "gevent":
        # Room broadcasts framed once and written straight to idle sockets.
        options["client_manager"] = broadcast.FrameOnceManager()
    socketio = SocketIO(
        app,
        async_mode=app.config["ASYNC_MODE"],
        # Every message of the contract is a few hundred bytes.
        max_http_buffer_size=MAX_BODY_BYTES,
        cors_allowed_origins=_cors_origins(app.config["CORS_ORIGINS"]),
        **options,
    )
    broadcast.install(socketio.server)
    if shared is not None and not socketio.server.manager_initialized:
        # Subscribe to the message queue now, not at the first connection, so moves made
        # on other servers reach this one's sockets from the start (and health says so).
        socketio.server.manager_initialized = True
        socketio.server.manager.initialize()
    limiter = RateLimiter(float(app.config["RATE_PER_S"]), float(app.config["RATE_BURST"]))
    chat = ChatService(
        ChatRepo(runtime.store.engine),
        lambda event, payload, to: socketio.emit(event, payload, namespace=NAMESPACE, to=to),
    )
    socketio.on_namespace(
        GameNamespace(
            NAMESPACE,
            service,
            presence,
            limiter,
            check_available=shared.check_available if shared is not None else None,
            chat=chat,
        )
    )
    service.set_emitter(
        lambda event, payload, to, skip: socketio.emit(
            event, payload, namespace=NAMESPACE, to=to, skip_sid=skip
        )
    )
    runtime.socketio = socketio
    app.extensions["gomoku"] = runtime
    analysis_board.init_app(app, socketio, runtime.runner, limiter)
    guard.init_app(app, limiter.allow)
    json_body.init_app(app)
    api.init_app(app)
    pages.init_app(app)
    link_preview.init_app(app)
    health.init_app(app)
    players_page.init_app(app)
    account_routes.init_app(app)
    review.init_app(app)
    lobby_pages.init_app(app, socketio, limiter)
    rules_page.init_app(app)
    puzzle_routes.init_app(app)
    security.init_app(app)  # last: it wraps everything else
    if app.config["AI_RESUME"]:
        service.resume()
    return app


def shutdown_app(app: Flask) -> None:
    """Stop the AI workers, timers and database connections of ``app``."""
    runs = app.extensions.pop("analysis_runs", None)
    if runs is not None:
        runs.close()
    from webapp.review import wiring as review

    review.close(app)
    lobby = app.extensions.pop("lobby", None)
    if lobby is not None:
        lobby.close()
    runtime = app.extensions.pop("gomoku", None)
    if runtime is not None:
        runtime.close()


__all__ = ["create_app", "database_url", "shutdown_app"]
