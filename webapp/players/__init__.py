"""Who can sit at a board: engine levels, MCTS, outside Gomocup engines, and their ratings."""
