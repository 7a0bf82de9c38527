"""The seek lobby: clock presets, seeks and quick pairing, and their live list."""
