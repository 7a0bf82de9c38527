"""Multi-process mode: Redis fan-out and presence, the RQ turn queue and ``gomoku worker``."""
