"""Data files shipped with the engine: the evaluation weights (``eval_weights.npz``, read
by ``engine.kernel.weights``, rebuilt by ``engine.tools.fold_weights`` from Rapfi's CC0
classical model; ``engine.tools.tune`` fits alternatives)."""
