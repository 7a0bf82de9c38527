"""The tuned evaluation: the shipped weights load and are the ones the kernel evaluates
with, the tuning features reproduce the kernel's evaluation exactly, and the tuning tools
run end to end on a few games."""

from __future__ import annotations

from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import pytest

from engine.kernel.evaluation import evaluate
from engine.kernel.patterns import F2, F2A, F2B, F3, F3S, NUM_COARSE
from engine.kernel.scores import MATE_BOUND
from engine.kernel.state import (
    I_ROOT_COLOR,
    init_walls,
    new_state,
    place,
    point_index,
    side_to_move,
)
from engine.kernel.tables import (
    C_FIVE,
    C_FLEX4,
    COMBO_VALUE,
    combo_index,
    rule_tables,
    with_weights,
)
from engine.kernel.weights import (
    CANONICAL_OF,
    NUM_CANONICAL,
    NUM_THREAT_TERMS,
    EvalWeights,
    expand,
    hand_weights,
    load_meta,
    load_weights,
    save_weights,
    shipped_weights,
)
from engine.tools import tune, tune_data
from engine.tools.tune_features import extract


@pytest.fixture(scope="module")
def games() -> list[tune_data.GameRecord]:
    recipe = tune_data.Recipe(nodes=(300, 800), max_moves=60)
    return [tune_data.play_game(recipe, seed) for seed in range(4)]


@pytest.fixture
def games_path(games: list[tune_data.GameRecord], tmp_path: Path) -> Path:
    """The games in a file, as the command-line tools read them."""
    path = tmp_path / "games.npz"
    tune_data.save_games(path, games)
    return path


def test_shipped_weights_load_and_are_what_the_kernel_evaluates_with() -> None:
    shipped = shipped_weights()
    assert shipped is not None, "engine/data/eval_weights.npz is missing"
    assert shipped.cells.shape == (2, NUM_CANONICAL)
    assert shipped.threats.shape == (NUM_THREAT_TERMS,)
    tables = rule_tables("freestyle", 15)
    assert np.array_equal(tables.eval_cells, expand(shipped))
    assert np.array_equal(tables.eval_threats, shipped.threats)


def test_weights_depend_only_on_the_set_of_shapes() -> None:
    assert CANONICAL_OF.max() == NUM_CANONICAL - 1
    # Shapes (a, b, c, d) in any order of directions share one canonical combination.
    index = combo_index(3, 6, 0, F3S)
    swapped = combo_index(F3S, 0, 6, 3)
    assert CANONICAL_OF[index] == CANONICAL_OF[swapped]
    assert CANONICAL_OF[index] != CANONICAL_OF[combo_index(3, 6, 0, F3)]


def test_saved_weights_load_back(tmp_path: Path) -> None:
    weights = hand_weights(COMBO_VALUE)
    path = tmp_path / "w.npz"
    save_weights(path, weights, scale=123.0)
    loaded = load_weights(path)
    assert np.array_equal(loaded.cells, weights.cells)
    assert np.array_equal(loaded.threats, weights.threats)
    bad = tmp_path / "bad.npz"
    np.savez(bad, cells=np.zeros((2, 5), dtype=np.int32), threats=np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="wrong shape"):
        load_weights(bad)


def test_coarse_weights_load_onto_the_split_shapes(tmp_path: Path) -> None:
    """A file of the evaluation before the open twos and threes were split gives each
    split shape the weight of the shape it splits from."""
    coarse_quads = list(combinations_with_replacement(range(NUM_COARSE), 4))
    cells = np.zeros((2, len(coarse_quads)), dtype=np.int64)
    cells[0, coarse_quads.index((0, 0, F2, F3))] = 640
    cells[1, coarse_quads.index((0, 0, 0, F2))] = -64
    path = tmp_path / "coarse.npz"
    save_weights(path, EvalWeights(cells, np.arange(NUM_THREAT_TERMS, dtype=np.int64)))
    loaded = load_weights(path)
    assert loaded.cells.shape == (2, NUM_CANONICAL)
    for two in (F2, F2A, F2B):
        for three in (F3, F3S):
            assert loaded.cells[0, CANONICAL_OF[combo_index(0, 0, two, three)]] == 640
        assert loaded.cells[1, CANONICAL_OF[combo_index(0, 0, 0, two)]] == -64
    assert int(np.abs(loaded.cells).sum()) == 640 * 6 + 64 * 3


def _evaluations(game: tune_data.GameRecord, weights: EvalWeights) -> list[int]:
    """The kernel's evaluation of every position of ``game`` that the features keep."""
    tables = with_weights(rule_tables("freestyle", 15), weights)
    state = new_state(15, False)
    init_walls(state, tables)
    found = []
    for ply, (x, y) in enumerate(game.moves):
        color = side_to_move(state)
        me, op = color - 1, 2 - color
        counts = state.class_count
        wanted = counts[me, C_FIVE] == 0 and counts[op, C_FIVE] == 0 and counts[me, C_FLEX4] == 0
        if ply >= game.opening and wanted:
            state.info[I_ROOT_COLOR] = color
            found.append(int(evaluate(state, tables)))
        place(state, tables, point_index(state, x, y), 1 + ply % 2)
    return found


@pytest.mark.parametrize("which", ["hand", "shipped"])
def test_features_reproduce_the_kernel_evaluation(
    games: list[tune_data.GameRecord], which: str
) -> None:
    weights = hand_weights(COMBO_VALUE) if which == "hand" else shipped_weights()
    assert weights is not None
    samples = extract(games)
    predicted = np.floor(tune.predict(samples, tune.Model.from_weights(weights)))
    kernel = [value for game in games for value in _evaluations(game, weights)]
    assert samples.size == len(kernel) > 20
    assert np.array_equal(np.clip(predicted, -20000, 20000), np.array(kernel))


def test_fit_lowers_the_loss_and_the_tool_writes_loadable_weights(
    games: list[tune_data.GameRecord], games_path: Path, tmp_path: Path
) -> None:
    samples = extract(games)
    hand = tune.Model.from_weights(hand_weights(COMBO_VALUE))
    scale = tune.fit_scale(samples, hand)
    assert 20 < scale < 20000
    target = tune.targets(samples, scale, 0.5)
    fitted = tune.fit(samples, hand, scale, steps=60)
    before = tune.cross_entropy(target, tune.sigmoid(tune.predict(samples, hand) / scale))
    after = tune.cross_entropy(target, tune.sigmoid(tune.predict(samples, fitted) / scale))
    assert after < before

    assert [g.moves for g in tune_data.load_games(games_path)] == [g.moves for g in games]
    out = tmp_path / "weights.npz"
    assert tune.main([str(games_path), "--out", str(out), "--steps", "20"]) == 0
    written = load_weights(out)
    assert written.cells.shape == (2, NUM_CANONICAL)


@pytest.mark.parametrize("prior", ["hand", "shipped"])
def test_the_fit_starts_from_the_chosen_prior(games_path: Path, tmp_path: Path, prior: str) -> None:
    out = tmp_path / "weights.npz"
    assert tune.main([str(games_path), "--out", str(out), "--steps", "0", "--prior", prior]) == 0
    expected = hand_weights(COMBO_VALUE) if prior == "hand" else shipped_weights()
    assert expected is not None
    written = load_weights(out)
    assert np.array_equal(written.cells, expected.cells)
    assert np.array_equal(written.threats, expected.threats)


def test_the_fit_can_start_from_a_weights_file(games_path: Path, tmp_path: Path) -> None:
    hand = hand_weights(COMBO_VALUE)
    prior = EvalWeights(hand.cells + 64, hand.threats + 3)
    prior_path = tmp_path / "prior.npz"
    save_weights(prior_path, prior)
    out = tmp_path / "weights.npz"
    argv = [str(games_path), "--out", str(out), "--steps", "0"]
    assert tune.main([*argv, "--prior", str(prior_path)]) == 0
    written = load_weights(out)
    assert np.array_equal(written.cells, prior.cells)
    assert np.array_equal(written.threats, prior.threats)

    # A prior that is not a weights file is refused before anything is written.
    out.unlink()
    for bad in (tmp_path / "missing.npz", games_path):
        with pytest.raises(SystemExit):
            tune.main([*argv, "--prior", str(bad)])
        assert not out.exists()


def test_training_games_are_repeatable_and_finish() -> None:
    recipe = tune_data.Recipe(nodes=(300,), max_moves=40)
    first = tune_data.play_game(recipe, 7)
    assert first == tune_data.play_game(recipe, 7)
    assert len(first.moves) == len(first.scores)
    assert first.result in (-1, 0, 1)
    assert 2 <= first.opening < len(first.moves) <= 40


def test_a_symmetric_fit_on_quiet_positions_writes_one_table(
    games: list[tune_data.GameRecord], games_path: Path, tmp_path: Path
) -> None:
    samples = extract(games)
    hand = tune.Model.from_weights(hand_weights(COMBO_VALUE))
    scale = tune.fit_scale(samples, hand)
    fitted = tune.fit(samples, hand, scale, steps=60, symmetric=True)
    assert np.array_equal(fitted.me, fitted.op)
    assert not np.array_equal(fitted.me, (hand.me + hand.op) / 2)

    # The quiet positions are those where the side to move has no four to make.
    fours = np.isin(samples.me_combo, np.flatnonzero(tune.FOUR_COMBOS))
    with_four = set(samples.me_pos[fours].tolist())
    assert 0 < len(with_four) < samples.size
    out = tmp_path / "weights.npz"
    argv = [str(games_path), "--out", str(out), "--steps", "20", "--symmetric", "--quiet"]
    assert tune.main(argv) == 0
    written = load_weights(out)
    assert np.array_equal(written.cells[0], written.cells[1])
    quiet = np.abs(samples.score) < MATE_BOUND
    quiet[list(with_four)] = False
    assert load_meta(out)["positions"] == int(quiet.sum())


def test_a_fit_to_the_search_scores_alone_keeps_the_given_scale(
    games_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "weights.npz"
    argv = [str(games_path), "--out", str(out), "--steps", "20", "--mix", "0", "--quiet"]
    assert tune.main([*argv, "--scale", "449.43"]) == 0
    saved = load_meta(out)
    assert saved["scale"] == pytest.approx(449.43)
    assert saved["mix"] == 0.0
    # Without --scale, K is the one that fits the hand-set weights to the results.
    assert tune.main(argv) == 0
    assert load_meta(out)["scale"] != pytest.approx(449.43)
    with pytest.raises(SystemExit):
        tune.main([*argv, "--scale", "0"])
