"""The printed page written in pieces (``trace_page.PIECE_LINES``) is the page written whole,
and both are what the events print, character for character."""

from __future__ import annotations

import io

import numpy as np
import pytest
from sklearn.datasets import make_classification

import id3tree.datasets
from id3tree import ID3Classifier, trace_page
from id3tree.tracing import PrintTracer, RecordingTracer


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
def test_pieces_hold_every_candidate_once_in_order_and_about_size_lines(size):
    """Each piece holds at most ``size`` lines unless it is one candidate alone, and no fewer
    than it could (the next candidate would not fit); the pieces together are the parts'
    candidates, in order, each once."""
    rng = np.random.default_rng(size)
    parts, lines = [], []
    for p in range(6):
        n = int(rng.integers(1, 9))
        parts.append((p, "table", np.arange(n) * 10 + p, np.arange(n) + 100 * p, "extra"))
        lines.append(rng.integers(1, 5, size=n))
    pieces = trace_page._pieces(parts, lines, size)
    seen, sizes = [], []
    for piece in pieces:
        n_lines = [lines[p][(c - p) // 10] for p, _, cs, _, _ in piece for c in cs.tolist()]
        assert sum(n_lines) <= size or len(n_lines) == 1
        sizes.append((sum(n_lines), n_lines[0]))
        for p, table, candidates, where, extra in piece:
            assert (table, extra) == ("table", "extra")
            assert np.array_equal(where, (candidates - p) // 10 + 100 * p)
            seen += [(p, c) for c in candidates.tolist()]
    assert seen == [(p, c) for p, *rest in parts for c in rest[1].tolist()]
    assert all(piece for piece in pieces)
    for (used, _), (_, next_lines) in zip(sizes, sizes[1:]):
        assert used + next_lines > size
