"""The Gomocup protocol: our brain, the client that drives brains, and MESSAGE lines."""
