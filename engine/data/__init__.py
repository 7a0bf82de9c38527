"""Data files shipped with the engine: the fitted evaluation weights
(``eval_weights.npz``, read by ``engine.kernel.weights`` and rebuilt by
``engine.tools.tune``)."""
