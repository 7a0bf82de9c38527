"""The opening rules page: ``GET /rules/openings`` renders ``templates/rules_openings.html``,
the procedures of swap, swap2, Soosõrv-8 and Taraguchi-10 as the game model plays them
(``game.opening_rules``), in English and Chinese (``static/js/strings.js``)."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template, request

from webapp.http.cookies import language_of

bp = Blueprint("rules_page", __name__)


@bp.get("/rules/openings")
def openings() -> str:
    return render_template("rules_openings.html", lang=language_of(request))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
