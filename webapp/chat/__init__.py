"""Chat in a game: the players' channel and the spectators' channel, kept apart."""
