"""The printed page written in pieces of nodes (``trace_page.PIECE_LINES``) is the page
written whole, and both are what the events print, character for character."""

from __future__ import annotations

import io

import numpy as np
import pytest
from sklearn.datasets import make_classification

import id3tree.datasets
from id3tree import ID3Classifier
from id3tree.trace import page as trace_page
from id3tree.trace.tracers import PrintTracer, RecordingTracer


def _data(name: str):
    if name == "titanic":  # numeric and categorical features, both with missing values
        X, y = id3tree.datasets.load_titanic(return_X_y=True)
        return X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"]), y, None
    if name == "weighted":  # counts that are sums of weights
        X, y = id3tree.datasets.load_iris(return_X_y=True)
        return X, y, np.where(y == "setosa", 0.25, 1.0) + np.arange(150) % 3 / 10
    X, y = make_classification(n_samples=1500, n_features=5, random_state=2)
    return X, y, None


def _page(X, y, weights, params: dict, max_thresholds) -> str:
    printed = io.StringIO()
    tracer = PrintTracer(printed, max_thresholds=max_thresholds)
    ID3Classifier(**params).fit(X, y, sample_weight=weights, tracer=tracer)
    return printed.getvalue()


@pytest.mark.parametrize(
    "name, params, max_thresholds",
    [
        ("titanic", {"criterion": "gain_ratio", "max_depth": 5, "min_samples_leaf": 3}, 3),
        ("weighted", {"max_depth": 4}, 2),
        ("numeric", {}, 5),
        ("numeric", {"max_depth": 3}, None),
    ],
)
def test_the_page_written_in_pieces_is_the_page_written_whole(
    monkeypatch, name, params, max_thresholds
):
    X, y, weights = _data(name)
    whole = _page(X, y, weights, params, max_thresholds)
    recorded = RecordingTracer(max_thresholds=max_thresholds)
    ID3Classifier(**params).fit(X, y, sample_weight=weights, tracer=recorded)
    assert whole == str(recorded) + "\n"  # the events, written node by node
    n_lines = whole.count("\n")
    assert n_lines > 100
    assert n_lines < trace_page.PIECE_LINES  # so the page above was written in one piece
    for size in (1, 2, 7, 100):
        monkeypatch.setattr(trace_page, "PIECE_LINES", size)
        assert _page(X, y, weights, params, max_thresholds) == whole, size


@pytest.mark.parametrize("size", [1, 3, 5, 100])
def test_pieces_of_nodes_are_consecutive_and_hold_as_many_lines_as_fit(size):
    """The pieces are consecutive nodes, every node once; each holds at most ``size`` lines
    unless it is one node alone, and no fewer than it could (the next node would not fit)."""
    rng = np.random.default_rng(size)
    lines = rng.integers(2, 9, size=40)
    pieces = trace_page._node_pieces(lines, size)
    assert [a for a, _ in pieces] == [0] + [z for _, z in pieces[:-1]]
    assert pieces[-1][1] == len(lines)
    for a, z in pieces:
        assert z > a
        assert lines[a:z].sum() <= size or z == a + 1
        if z < len(lines):
            assert lines[a:z].sum() + lines[z] > size
    assert trace_page._node_pieces(np.array([3, 4]), 100) == [(0, 2)]
