"""The analysis board: a free board the engine analyses continuously (``/analysis``).

``page`` serves the page, ``namespace`` the ``/analysis`` Socket.IO events, ``runs`` the
continuous multi-PV searches on the AI runner's analysis lane, ``messages`` the payloads.
``wiring.init_app`` wires them to an app built by ``create_app``."""
