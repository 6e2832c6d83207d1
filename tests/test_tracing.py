"""Tracing: the printed page a teacher hands out, the recorded events, and trace_."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from id3tree import ID3Classifier, candidate_splits
from id3tree.datasets import load_iris, load_play_tennis
from id3tree.tracing import (
    CandidateScored,
    LeafMade,
    LoggingTracer,
    NodeStarted,
    RecordingTracer,
    SplitChosen,
    ThresholdScored,
)

GOLDEN = Path(__file__).parent / "golden"


def test_play_tennis_verbose_trace_is_the_golden_page(capsys):
    X, y = load_play_tennis(return_X_y=True)
    ID3Classifier(verbose=1).fit(X, y)
    printed = capsys.readouterr().out
    assert printed == (GOLDEN / "play_tennis_verbose1.txt").read_text(encoding="utf-8")


def test_silent_by_default(capsys):
    ID3Classifier().fit(*load_play_tennis(return_X_y=True))
    assert capsys.readouterr().out == ""


def test_events_follow_the_algorithm():
    X, y = load_play_tennis(return_X_y=True)
    tracer = RecordingTracer()
    model = ID3Classifier().fit(X, y, tracer=tracer)
    events = tracer.events
    nodes = [e for e in events if isinstance(e, NodeStarted)]
    assert [e.node for e in nodes] == [
        n.node_id for n in sorted(model.root_.walk(), key=lambda n: n.node_id)
    ]
    # every node ends in exactly one decision, after its candidates
    decisions = [e for e in events if isinstance(e, (SplitChosen, LeafMade))]
    assert [e.node for e in decisions] == [e.node for e in nodes]
    root_candidates = [e for e in events if isinstance(e, CandidateScored) and e.node == 0]
    assert [e.feature for e in root_candidates] == list(X.columns)
    chosen = next(e for e in events if isinstance(e, SplitChosen) and e.node == 0)
    assert chosen.feature == "Outlook" and chosen.gain == max(e.gain for e in root_candidates)
    assert dict(chosen.branches) == {"Overcast": 4, "Rain": 5, "Sunny": 5}
    # a categorical feature is used up on its path
    below = [e for e in events if isinstance(e, CandidateScored) and e.node != 0]
    assert "Outlook" not in {e.feature for e in below}
    frame = tracer.to_frame()
    assert set(frame["event"]) == {"NodeStarted", "CandidateScored", "SplitChosen", "LeafMade"}
    assert all(e.reason == "pure" for e in events if isinstance(e, LeafMade))


def test_verbose_2_shows_every_threshold_of_iris(capsys):
    X, y = load_iris(return_X_y=True)
    tracer = RecordingTracer(thresholds=True)
    ID3Classifier(max_depth=1).fit(X, y, tracer=tracer)
    scored = [
        e for e in tracer.events if isinstance(e, ThresholdScored) and e.feature == "petal_width"
    ]
    expected = candidate_splits(X["petal_width"], y)
    np.testing.assert_array_equal([e.threshold for e in scored], expected["threshold"])
    np.testing.assert_allclose(
        [e.overall_entropy for e in scored], expected["overall_entropy"], atol=1e-12
    )
    ID3Classifier(max_depth=1, verbose=2).fit(X, y)
    out = capsys.readouterr().out
    assert (
        "petal_width <= 0.8: left 50 (entropy 0.0000), right 100 (entropy 1.0000), overall entropy 0.6667"
        in out
    )
    assert "tie with petal_width: broken by column order (petal_length comes first)" in out
    ID3Classifier(max_depth=1, verbose=1).fit(X, y)
    assert "overall entropy" not in capsys.readouterr().out


def test_trace_frame_has_one_row_per_node_and_candidate():
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    trace = model.trace_
    assert list(trace.columns) == [
        "node",
        "depth",
        "n_samples",
        "entropy",
        "feature",
        "threshold",
        "gain",
        "gain_ratio",
        "chosen",
        "tie",
    ]
    assert trace.groupby("node")["chosen"].sum().to_dict() == {
        n.node_id: int(not n.is_leaf) for n in model.root_.walk()
    }
    assert len(trace) == 4 + 3 + 3 + 5  # root, two nodes with 3 candidates, 5 unscored leaves
    chosen = trace[trace["chosen"]].set_index("node")["feature"]
    assert chosen.to_dict() == {0: "Outlook", 2: "Wind", 5: "Humidity"}


def test_logging_tracer(caplog):
    X, y = load_play_tennis(return_X_y=True)
    with caplog.at_level(logging.INFO, logger="id3tree"):
        ID3Classifier(max_depth=1).fit(X, y, tracer=LoggingTracer())
    assert any("split on Outlook" in r.getMessage() for r in caplog.records)


def test_trace_of_a_loaded_model_is_explained():
    X, y = load_play_tennis(return_X_y=True)
    again = ID3Classifier.from_json(ID3Classifier().fit(X, y).to_json())
    with pytest.raises(AttributeError, match="trace_ is only kept by fit"):
        _ = again.trace_


def test_nodes_are_numbered_depth_first():
    X, y = load_iris(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    nodes = list(model.root_.walk())  # walk() visits a node, then each branch's subtree in turn
    assert [n.node_id for n in nodes] == list(range(len(nodes)))
    for node in nodes:  # a subtree is a run of consecutive numbers starting at its root
        ids = sorted(n.node_id for n in node.walk())
        assert ids == list(range(node.node_id, node.node_id + len(ids)))
        kids = [c.node_id for c in node.children.values()]
        assert kids == sorted(kids) and (not kids or kids[0] == node.node_id + 1)
    # apply() and the saved model speak the same numbers
    stop = model.apply(X)
    leaf_of = {n.node_id: n for n in nodes}
    assert all(leaf_of[i].is_leaf for i in set(stop.tolist()))
    again = ID3Classifier.from_json(model.to_json())
    np.testing.assert_array_equal(again.apply(X), stop)
    assert [n.node_id for n in again.root_.walk()] == list(range(len(nodes)))
