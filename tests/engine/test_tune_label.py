"""Deeper labels for training games: the chosen positions get a fresh search's score, the
others are marked and left out of the fit, and the tool's file loads like any games file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.game.board import Board
from engine.kernel.scores import MATE_BOUND
from engine.kernel.weights import load_meta
from engine.search.limit import Limit
from engine.search.searcher import Searcher
from engine.tools import tune, tune_data, tune_label
from engine.tools.tune_features import extract


@pytest.fixture(scope="module")
def game() -> tune_data.GameRecord:
    recipe = tune_data.Recipe(nodes=(300,), max_moves=40)
    return tune_data.play_game(recipe, 11)


def test_every_second_position_gets_the_deeper_search_score(
    game: tune_data.GameRecord,
) -> None:
    labelled = tune_label.label_game(game, nodes=2000, every=2)
    assert labelled.moves == game.moves
    assert labelled.result == game.result
    assert labelled.scores[: game.opening] == game.scores[: game.opening]
    board = Board(15)
    searcher = Searcher(tt_mb=16, seed=0)
    for ply, move in enumerate(game.moves):
        if ply >= game.opening:
            if (ply - game.opening) % 2 == 0:
                expected = searcher.search(board, Limit(nodes=2000)).score
                assert labelled.scores[ply] == expected
            else:
                assert labelled.scores[ply] == tune_label.UNLABELLED
        board.push(move)
    searched = labelled.scores[game.opening :: 2]
    assert any(s != old for s, old in zip(searched, game.scores[game.opening :: 2], strict=True))


def test_unlabelled_positions_are_left_out_of_the_fit(
    game: tune_data.GameRecord, tmp_path: Path
) -> None:
    labelled = tune_label.label_game(game, nodes=500, every=3)
    samples = extract([labelled])
    marked = samples.score == tune_label.UNLABELLED
    assert marked.any() and (~marked).any()
    path = tmp_path / "labelled.npz"
    tune_data.save_games(path, [labelled, labelled])  # the first game is held out
    assert tune_data.load_games(path) == [labelled, labelled]
    out = tmp_path / "weights.npz"
    assert tune.main([str(path), "--out", str(out), "--steps", "5", "--mix", "0"]) == 0
    kept = (~marked) & (np.abs(samples.score) < MATE_BOUND)
    assert load_meta(out)["positions"] == 2 * int(kept.sum()) > 0


def test_the_tool_labels_over_workers_in_order(tmp_path: Path) -> None:
    recipe = tune_data.Recipe(nodes=(300,), max_moves=24)
    games = [tune_data.play_game(recipe, seed) for seed in range(3)]
    source = tmp_path / "games.npz"
    tune_data.save_games(source, games)
    out = tmp_path / "labelled.npz"
    argv = [str(source), "--out", str(out), "--nodes", "400", "--workers", "2"]
    assert tune_label.main(argv) == 0
    loaded = tune_data.load_games(out)
    assert [g.moves for g in loaded] == [g.moves for g in games]
    assert all(tune_label.UNLABELLED not in g.scores for g in loaded)


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    source = tmp_path / "games.npz"
    tune_data.save_games(source, [])
    with pytest.raises(SystemExit):
        tune_label.main([str(source), "--out", str(tmp_path / "o.npz"), "--every", "0"])
    with pytest.raises(SystemExit):
        tune_label.main([str(source), "--out", str(tmp_path / "o.npz")])
    assert not (tmp_path / "o.npz").exists()
