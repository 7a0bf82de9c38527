"""Plain-Python searchers over the kernel: ``Searcher``, ``MctsSearcher``, limits, levels,
time control and results."""
