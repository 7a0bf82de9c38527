"""Warmed-up engine processes set their long-lived objects aside, so a full garbage
collection during a timed move walks only what play allocates. Each case runs in its own
interpreter (``tests.heap_probe``)."""

from __future__ import annotations

import pytest

from tests.heap_probe import assert_settled, heap_report

# What each case loads, then how it settles the heap.
CASES = {
    "settle_heap": (
        "import numpy, numba\nfrom engine.search.heap import settle_heap",
        "settle_heap()",
    ),
    "command-line warm-up": (
        "from engine.tools.warmup import warm_up\nimport engine",
        "warm_up()",
    ),
    "Gomocup brain": (
        "from engine.protocol.pbrain import Brain",
        "brain = Brain(write=lambda line: None)\nbrain.warm_up()",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_warmed_process_exempts_its_loaded_objects_from_collection(case: str) -> None:
    assert_settled(heap_report(*CASES[case]))


def test_without_settling_a_process_keeps_its_objects_tracked() -> None:
    report = heap_report("import numpy, numba")
    assert report["frozen"] == 0
    assert report["tracked"] >= report["before"]
