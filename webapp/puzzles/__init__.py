"""Puzzles on the site: the stored puzzles and ratings (``repo``), the starter set shipped
in ``data/`` (``starter``), solving with live engine checks (``service``, ``checker``),
the page and its JSON API (``routes``) and ``gomoku puzzles`` (``command``). The mining
itself is engine code (``engine.tools.puzzles``)."""
