"""The web app: Flask factory, blueprints, socket namespaces, game store, workers and CLI.
It depends on ``engine``; the engine never imports it."""
