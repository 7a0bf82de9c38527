"""The web app: Flask factory, blueprints, socket namespaces, game store, workers and CLI.
It depends on ``engine``; the engine never imports it.

Importing ``webapp`` is cheap: the factory lives in ``webapp.app`` and each concern in its
own package: ``game`` (rules of a game on the site, its service and clocks), ``realtime``
(the Socket.IO namespace and its messages), ``http`` (pages and the JSON API), ``ai``
(AI turns in worker processes), ``scale`` (Redis, RQ workers and shared presence for
multi-process mode), ``storage`` (the SQLAlchemy store) and ``players`` (levels, outside
engines, ratings)."""
