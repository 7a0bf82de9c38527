"""A game on the site: its rules and transitions, clocks, record formats and the service
that loads, changes, stores and publishes games."""
