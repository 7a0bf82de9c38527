"""Game review: the engine over every position of a finished game, the moves classed by
the winning chance they cost (``classify``, ``report``), computed once per game by a
background job (``jobs``, stored by ``repo``), shown on ``/g/<id>/review`` (``views``)
with live progress (``namespace``), and "play from here" (``play_from``).

``wiring.init_app(app)`` wires it to the app's runtime (its store, AI runner and game service)
and Socket.IO server."""
