"""Wiring the analysis board into an app built by ``create_app``."""

from __future__ import annotations

from typing import Any

from flask import Flask


def init_app(app: Flask, socketio: Any, runner: Any, limiter: Any) -> Any:
    """Register the page and the namespace; the ``AnalysisRuns`` they share."""
    from webapp.analysis import page
    from webapp.analysis.namespace import NAMESPACE, AnalysisNamespace
    from webapp.analysis.runs import AnalysisRuns

    runs = AnalysisRuns(
        runner,
        lambda event, payload, to: socketio.emit(event, payload, namespace=NAMESPACE, to=to),
        slice_s=float(app.config.get("ANALYSIS_SLICE_S", 5.0)),
        cap_s=float(app.config.get("ANALYSIS_CAP_S", 60.0)),
    )
    socketio.on_namespace(AnalysisNamespace(NAMESPACE, runs, limiter))
    app.register_blueprint(page.bp)
    app.extensions["analysis_runs"] = runs
    return runs
