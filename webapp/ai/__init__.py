"""AI turns: the jobs a game hands to the engine and the worker processes that search them."""
