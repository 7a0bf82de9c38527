"""The rules of the game in plain Python: points, colours, rules, the board and renju."""
