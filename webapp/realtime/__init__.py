"""The ``/game`` Socket.IO namespace, the messages it accepts, presence and rate limits."""
