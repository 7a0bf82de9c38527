"""Seed 001's ten verification lines (its section 3), counted by our exact definitions.

A shape is a maximal set of own stones that fits in five consecutive cells free of
opponent stones. Its kind follows from the definitions, judged on the line with only
those own stones: five stones are a five (L5); four stones are a four (S4), or an open
four (L4) when two points complete a five; three stones are a closed three (S3), or an
open three (L3) when one move makes an open four; two stones are a closed two (S2), or an
open two (L2) when one move makes an open three. Fours that complete at the same point
are one four.

The article claims counts (S2, L2, S3, L3, S4, L4, L5) = [2, 3, 3, 3, 2, 0, 0] and its
published code gives [2, 2, 3, 3, 2, 0, 0]. Ours are [2, 3, 7, 3, 2, 0, 0]. The difference
is all in the closed threes (and, against the code, one open two): the seed stops at the
first regex that matches in each segment, so it counts one shape per segment. It misses
``X.X.X`` beside the open three in line 6, counts ``XX..XX`` in line 8 once although
two different fives can be aimed at in it, misses both threes made with the two stones
beside the four in line 9 (the eleventh segment), and counts one of line 10's two open
twos."""

from __future__ import annotations

import numpy as np

from engine.kernel.patterns import COARSE_OF, F3, F4, F5, classify

SEED_LINES = [
    [1, 0, 0, 1, 0, 2, 0, 1, 0, 1, 1, 0, 2, 0, 0],
    [2, 0, 2, 1, 2, 2, 1, 1, 0, 1, 0, 2, 1, 1],
    [1, 0, 0, 1, 0, 2, 0, 1, 0, 1, 1, 0, 2, 0, 0],
    [0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 1, 1, 1],
    [2, 0, 1, 0, 1, 0, 0, 0],
    [2, 2, 0, 1, 1, 0, 1, 0, 1],
    [2, 1, 1, 1, 0, 1, 1, 1, 2],
    [2, 0, 1, 1, 2, 1, 1, 0, 0, 1, 1],
    [0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0],
    [1, 2, 1, 2, 0, 2, 0, 1, 0, 0, 1, 0, 1, 0],
]
S2, L2, S3, L3, S4, L4, L5 = range(7)


def count_shapes(line: list[int]) -> list[int]:
    n = len(line)
    sets = []
    for start in range(n - 4):
        window = line[start : start + 5]
        if 2 not in window:
            stones = frozenset(start + k for k in range(5) if window[k] == 1)
            if len(stones) >= 2:
                sets.append(stones)
    maximal = {s for s in sets if not any(s < other for other in sets)}
    counts = [0] * 7
    four_points: set[frozenset[int]] = set()
    for stones in maximal:
        only = np.array(
            [1 if i in stones else (2 if line[i] == 2 else 0) for i in range(n)], dtype=np.int8
        )
        # The open twos and threes' finer kinds count as the shape they split from.
        shapes = {i: COARSE_OF[classify(only, i, False)] for i in range(n) if only[i] == 0}
        best = max(shapes.values(), default=0)
        size = len(stones)
        if size >= 5:
            counts[L5] += 1
        elif size == 4:
            completing = frozenset(i for i, s in shapes.items() if s == F5)
            if completing not in four_points:
                four_points.add(completing)
                counts[L4 if len(completing) >= 2 else S4] += 1
        elif size == 3:
            counts[L3 if best >= F4 else S3] += 1
        else:
            counts[L2 if best >= F3 else S2] += 1
    return counts


def test_seed001_lines_by_our_definitions() -> None:
    per_line = [count_shapes(line) for line in SEED_LINES]
    assert per_line == [
        [1, 0, 0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0],
        [1, 0, 0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 0, 0],
        [0, 0, 1, 1, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0],
        [0, 0, 2, 0, 0, 0, 0],
        [0, 0, 2, 0, 1, 0, 0],
        [0, 2, 0, 0, 0, 0, 0],
    ]
    totals = [sum(column) for column in zip(*per_line, strict=True)]
    assert totals == [2, 3, 7, 3, 2, 0, 0]
    seed_article, seed_code = [2, 3, 3, 3, 2, 0, 0], [2, 2, 3, 3, 2, 0, 0]
    differs = [k for k in range(7) if totals[k] != seed_article[k]]
    assert differs == [S3]
    assert [k for k in range(7) if totals[k] != seed_code[k]] == [L2, S3]


def test_open_four_and_five_are_counted() -> None:
    assert count_shapes([0, 1, 1, 1, 1, 0]) == [0, 0, 0, 0, 0, 1, 0]
    assert count_shapes([0, 1, 1, 1, 1, 1, 0]) == [0, 0, 0, 0, 0, 0, 1]
