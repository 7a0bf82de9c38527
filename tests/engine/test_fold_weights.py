"""A classical model's cell values as our weights: each code maps to its combination of
ours, a fit of the coarser evaluation carries over, malformed models are refused, and the
shipped weights are one table for both sides with a tempo term."""

from __future__ import annotations

import io
import struct
from itertools import combinations_with_replacement

import numpy as np
import pytest

from engine.kernel.patterns import F2, F2A, F2B, F3, F3S, F4, NUM_COARSE, NUM_PATTERNS
from engine.kernel.weights import (
    CANONICAL_OF,
    CANONICAL_SHAPES,
    NUM_COARSE_CANONICAL,
    NUM_THREAT_TERMS,
    T_TEMPO,
    WEIGHT_UNIT,
    EvalWeights,
    load_weights,
    save_weights,
    shipped_meta,
    shipped_weights,
)
from engine.tools import fold_weights as fw


def canonical(quad: tuple[int, ...]) -> int:
    a, b, c, d = sorted(quad)
    return int(CANONICAL_OF[((a * NUM_PATTERNS + b) * NUM_PATTERNS + c) * NUM_PATTERNS + d])


def expand_coarse(weights: EvalWeights) -> EvalWeights:
    """Coarse weights as ``load_weights`` reads them from a file."""
    buffer = io.BytesIO()
    save_weights(buffer, weights)
    buffer.seek(0)
    return load_weights(buffer)


def model_bytes(values: np.ndarray, scale: float = 200.0) -> bytes:
    """A decompressed model with ``values`` as the freestyle cell values."""
    cells = np.zeros((fw.MODEL_RULES, fw.MODEL_CODES), dtype="<i2")
    cells[0] = values
    rest = np.zeros(fw.MODEL_RULES * (fw.MODEL_THREATS + 2 * fw.MODEL_CODES), dtype="<i2")
    return struct.pack("<d", scale) + cells.tobytes() + rest.tobytes()


def test_codes_fold_onto_their_combinations() -> None:
    codes = list(combinations_with_replacement(range(fw.MODEL_SHAPES), 4))
    assert len(codes) == fw.MODEL_CODES
    # A value that depends only on our combination comes back unchanged.
    ours = [canonical(tuple(fw.MODEL_TO_OURS[s] for s in quad)) for quad in codes]
    values = np.array([n % 997 - 400 for n in ours], dtype=np.float64)
    folded = fw.fold(values)
    assert np.array_equal(folded, np.arange(len(CANONICAL_SHAPES)) % 997 - 400.0)


def test_each_code_is_one_combination_of_ours() -> None:
    # The model's three open twos and two open threes are ours too.
    codes = list(combinations_with_replacement(range(fw.MODEL_SHAPES), 4))
    values = np.zeros(fw.MODEL_CODES)
    twos = [codes.index((0, 0, 0, shape)) for shape in (5, 6, 7)]
    values[twos] = (30.0, 60.0, 120.0)
    values[codes.index((0, 0, 0, 10))] = -10.0
    folded = fw.fold(values)
    assert [folded[canonical((0, 0, 0, s))] for s in (F2, F2A, F2B)] == [30.0, 60.0, 120.0]
    assert folded[canonical((0, 0, 0, F3S))] == -10.0
    assert folded[canonical((0, 0, 0, F3))] == 0.0
    assert sorted(set(fw.MODEL_TO_OURS)) == list(range(NUM_PATTERNS))


def test_a_coarse_fit_carries_over() -> None:
    codes = list(combinations_with_replacement(range(fw.MODEL_SHAPES), 4))
    values = np.zeros(fw.MODEL_CODES)
    twos = [codes.index((0, 0, 0, shape)) for shape in (5, 6, 7)]
    values[twos] = (30.0, 60.0, 120.0)
    raw = model_bytes(values, scale=fw.OUR_POINTS_PER_LOGIT)  # one model point is one of ours
    # A coarse fit that moved the lone open two from the mean (70) to 80, and its threats.
    coarse = np.zeros((2, NUM_COARSE_CANONICAL), dtype=np.int64)
    lone_two = list(combinations_with_replacement(range(NUM_COARSE), 4)).index((0, 0, 0, F2))
    coarse[:, lone_two] = 80 * WEIGHT_UNIT
    threats = np.arange(NUM_THREAT_TERMS, dtype=np.int64) + 5
    carried = fw.folded_weights(raw, expand_coarse(EvalWeights(coarse, threats)))
    got = [carried.cells[0, canonical((0, 0, 0, s))] / WEIGHT_UNIT for s in (F2, F2A, F2B)]
    assert got == [40.0, 70.0, 130.0]
    assert np.array_equal(carried.cells[0], carried.cells[1])
    assert np.array_equal(carried.threats, threats)
    plain = fw.folded_weights(raw)
    assert plain.cells[0, canonical((0, 0, 0, F2))] == 30 * WEIGHT_UNIT
    assert np.array_equal(plain.threats, np.array(fw.THREAT_TERMS))
    with pytest.raises(ValueError, match="one table"):
        two_tables = EvalWeights(np.stack([coarse[0], coarse[1] + 1]), threats)
        fw.folded_weights(raw, expand_coarse(two_tables))


def test_folded_weights_are_one_table_on_our_scale() -> None:
    codes = list(combinations_with_replacement(range(fw.MODEL_SHAPES), 4))
    values = np.zeros(fw.MODEL_CODES)
    values[codes.index((0, 0, 0, 12))] = 100  # a lone open-four point (model shape 12)
    weights = fw.folded_weights(model_bytes(values, scale=200.0))
    assert np.array_equal(weights.cells[0], weights.cells[1])
    expected = round(100 * fw.OUR_POINTS_PER_LOGIT / 200.0 * WEIGHT_UNIT)
    assert weights.cells[0, canonical((0, 0, 0, F4))] == expected
    assert weights.threats[T_TEMPO] == fw.THREAT_TERMS[T_TEMPO] > 0


def test_malformed_models_are_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        fw.read_model(b"\x00" * 100)
    with pytest.raises(ValueError, match="scale"):
        fw.read_model(model_bytes(np.zeros(fw.MODEL_CODES), scale=-3.0))


def test_the_tool_needs_a_model_file(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        fw.main(["/nonexistent/model.bin", "--out", "/nonexistent/out.npz"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "model.bin" in error or "lz4" in error


def test_the_shipped_weights_are_one_table_with_a_tempo_term() -> None:
    """The shipped weights are the folded table refitted to search scores (``tune
    --symmetric --mix 0 --prior shipped``): still one table for both roles, still
    threat-neutral, and the fit is recorded in the file."""
    weights = shipped_weights()
    assert weights is not None
    assert np.array_equal(weights.cells[0], weights.cells[1])
    assert weights.threats[T_TEMPO] > 0
    # A threat-neutral table: a lone open-four point is worth far less than a win.
    assert 0 < weights.cells[0, canonical((0, 0, 0, F4))] / WEIGHT_UNIT < 200
    meta = shipped_meta()
    assert meta is not None
    assert meta["mix"] == 0.0
    assert meta["scale"] == pytest.approx(449.43)


def test_a_folded_model_for_rapfi_averages_only_the_named_shapes() -> None:
    codes = list(combinations_with_replacement(range(fw.MODEL_SHAPES), 4))
    values = np.zeros(fw.MODEL_CODES)
    twos = [codes.index((0, 0, 0, shape)) for shape in (5, 6, 7)]
    threes = [codes.index((0, 0, 0, shape)) for shape in (9, 10)]
    values[twos] = (30.0, 60.0, 120.0)
    values[threes] = (-10.0, 50.0)
    raw = model_bytes(values)
    raw = raw[:-2] + b"\x07\x00"  # a last move score, which folding must keep
    for fold, want_twos, want_threes in (
        ("shapes", (70, 70, 70), (20, 20)),
        ("twos", (70, 70, 70), (-10, 50)),
        ("threes", (30, 60, 120), (20, 20)),
    ):
        model = fw.folded_model(raw, fw.MODEL_FOLDS[fold])
        assert len(model) == len(raw)
        assert model[:8] == raw[:8] and model[-2:] == b"\x07\x00"
        cells = np.frombuffer(model, dtype="<i2", count=fw.MODEL_CODES, offset=8)
        assert tuple(cells[twos]) == want_twos
        assert tuple(cells[threes]) == want_threes
        if fold == "shapes":
            # Our weights from it give every open two and every open three the mean, and
            # the means over our coarse shapes are the original's.
            ours = fw.folded_weights(model).cells[0].astype(np.float64)
            lone = [ours[canonical((0, 0, 0, s))] for s in (F2, F2A, F2B, F3, F3S)]
            two = round(70 * fw.OUR_POINTS_PER_LOGIT / 200.0 * WEIGHT_UNIT)
            three = round(20 * fw.OUR_POINTS_PER_LOGIT / 200.0 * WEIGHT_UNIT)
            assert lone == [two, two, two, three, three]
            original = fw.folded_weights(raw).cells[0].astype(np.float64)
            assert np.allclose(fw.coarse_mean(ours), fw.coarse_mean(original), atol=1.0)


def test_the_tool_needs_a_file_to_write(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        fw.main(["/nonexistent/model.bin"])
    assert stopped.value.code == 2
    assert "--model-out" in capsys.readouterr().err
