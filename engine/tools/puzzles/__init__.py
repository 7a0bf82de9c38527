"""Puzzles mined from games: positions with a unique forced win (VCF or VCT) or a unique
defence, proven with ``engine.search.threats``.

``puzzle`` is the value and its JSON form, ``symmetry`` the key that makes the eight
mirror images of a position one puzzle, ``miner`` finds the puzzles in one game,
``selfplay`` plays the engine against itself for games to mine, and ``command`` is
``gomoku puzzles mine`` (the web app feeds it its finished games)."""
