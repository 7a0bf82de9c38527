"""The web server sets the objects it holds once the app is built aside from garbage
collection and makes collections rarer, in its own interpreter (``tests.heap_probe``)."""

from __future__ import annotations

from tests.heap_probe import assert_settled, heap_report


def test_the_server_settles_its_heap_and_collects_less_often() -> None:
    report = heap_report("from webapp.server import _tune_interpreter", "_tune_interpreter()")
    assert_settled(report)
    assert report["threshold"] == [20_000, 20, 50]
