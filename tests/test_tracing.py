"""Tracing: the printed page a teacher hands out, the recorded events, and trace_."""

from __future__ import annotations

import io
import logging
import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from sklearn.datasets import make_classification

import id3tree.datasets
from id3tree import ID3Classifier, candidate_splits
from id3tree.base.words import (
    count_texts,
    counts_texts,
    format_count,
    format_counts,
    format_number,
    number_pieces,
    number_texts,
)
from id3tree.datasets import load_iris, load_play_tennis
from id3tree.engine import fitting
from id3tree.engine.splits.near_best import (
    _kth_by_sorting,
    _kth_in_rows,
    _near_best_in_blocks,
    _near_best_of_short,
)
from id3tree.engine.splits.results import NOT_A_CUT
from id3tree.trace.lines import fixed_texts, indent, indents, thresholds_texts
from id3tree.trace.thresholds import _first_by_sorting, _first_in_rows
from id3tree.trace.tracers import (
    CandidateScored,
    LeafMade,
    LoggingTracer,
    NodeStarted,
    PrintTracer,
    RecordingTracer,
    SplitChosen,
    ThresholdsRanked,
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
    assert [e.node for e in nodes] == [n.node_id for n in model.root_.walk()]  # reading order
    parent = {c.node_id: p.node_id for p, _, c in model.root_.iter_edges()}
    assert [e.parent for e in nodes] == [parent.get(e.node) for e in nodes]
    # every node ends in exactly one decision, after its candidates
    decisions = [e for e in events if isinstance(e, (SplitChosen, LeafMade))]
    assert [e.node for e in decisions] == [e.node for e in nodes]
    root_candidates = [e for e in events if isinstance(e, CandidateScored) and e.node == 0]
    assert [e.feature for e in root_candidates] == list(X.columns)
    chosen = next(e for e in events if isinstance(e, SplitChosen) and e.node == 0)
    assert chosen.feature == "Outlook" and chosen.gain == max(e.gain for e in root_candidates)
    assert dict(chosen.branches) == {"Overcast": 4, "Rain": 5, "Sunny": 5}
    # each candidate's branches partition the node's rows, class by class
    for e in events:
        if isinstance(e, CandidateScored) and e.gain is not None:
            node = nodes[e.node]
            for c in node.class_counts:
                assert sum(b.class_counts[c] for b in e.branches) == node.class_counts[c]
            assert 0 <= e.gain <= e.entropy + 1e-12
    # a categorical feature is used up on its path
    below = [e for e in events if isinstance(e, CandidateScored) and e.node != 0]
    assert "Outlook" not in {e.feature for e in below}
    frame = tracer.to_frame()
    assert set(frame["event"]) == {"NodeStarted", "CandidateScored", "SplitChosen", "LeafMade"}
    assert all(e.reason.startswith("pure") for e in events if isinstance(e, LeafMade))


def test_verbose_2_lists_the_best_thresholds_and_counts_the_rest(capsys):
    X, y = load_iris(return_X_y=True)
    tracer = RecordingTracer(max_thresholds=10)
    ID3Classifier(max_depth=1).fit(X, y, tracer=tracer)
    ranked = next(
        e for e in tracer.events if isinstance(e, ThresholdsRanked) and e.feature == "petal_width"
    )
    expected = candidate_splits(X["petal_width"], y).sort_values(
        ["overall_entropy", "threshold"], kind="stable"
    )
    assert [e.rank for e in ranked.thresholds] == list(range(1, 11))
    np.testing.assert_array_equal(
        [e.threshold for e in ranked.thresholds], expected["threshold"][:10]
    )
    np.testing.assert_allclose(
        [e.overall_entropy for e in ranked.thresholds],
        expected["overall_entropy"][:10],
        atol=1e-12,
    )
    np.testing.assert_array_equal([e.n_left for e in ranked.thresholds], expected["n_left"][:10])
    assert ranked.n_more == len(expected) - 10
    everything = RecordingTracer(max_thresholds=None)
    ID3Classifier(max_depth=1).fit(X, y, tracer=everything)
    listed = next(
        e
        for e in everything.events
        if isinstance(e, ThresholdsRanked) and e.feature == "petal_width"
    )
    assert sorted(e.threshold for e in listed.thresholds) == sorted(expected["threshold"])
    assert all(e.n_more == 0 for e in everything.events if isinstance(e, ThresholdsRanked))
    ID3Classifier(max_depth=1, verbose=2).fit(X, y)
    out = capsys.readouterr().out
    lines = out.splitlines()
    candidate = next(i for i, s in enumerate(lines) if s.startswith("  candidate petal_width"))
    header = candidate + 4  # after its two branches and its total, indented under it
    assert lines[header - 1].endswith("gain 1.5850 - 0.6667 = 0.9183")
    best = [f"<= {t:.10g}: {h:.4f}" for t, h in expected[["threshold", "overall_entropy"]].values]
    assert (
        lines[header]
        == (  # verbose=2: the best 5, on one line
            "      best thresholds by overall entropy: "
            + ", ".join(best[:5])
            + f", and {len(expected) - 5} more thresholds"
        )
    )
    assert lines[header + 1].startswith("  => split on petal_length")
    printed = io.StringIO()  # more than five go five to a line
    ID3Classifier(max_depth=1).fit(X, y, tracer=PrintTracer(printed, max_thresholds=12))
    lines = printed.getvalue().splitlines()
    candidate = next(i for i, s in enumerate(lines) if s.startswith("  candidate petal_width"))
    header = candidate + 4
    assert lines[header] == "      best thresholds by overall entropy: " + ", ".join(best[:5]) + ","
    assert lines[header + 1] == "          " + ", ".join(best[5:10]) + ","
    assert lines[header + 2] == (
        "          " + ", ".join(best[10:12]) + f", and {len(expected) - 12} more thresholds"
    )
    assert "tie with petal_width: broken by column order (petal_length comes first)" in out
    ID3Classifier(max_depth=1, verbose=1).fit(X, y)
    assert "best thresholds" not in capsys.readouterr().out


def test_trace_frame_has_one_row_per_node_and_candidate():
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    trace = model.trace_
    assert list(trace.columns) == [
        "node",
        "parent",
        "depth",
        "branch",
        "path",
        "n_samples",
        "n_No",
        "n_Yes",
        "entropy",
        "feature",
        "threshold",
        "low",
        "high",
        "overall_entropy",
        "gain",
        "gain_ratio",
        "chosen",
        "tie",
        "stop_reason",
        "prediction",
        "class_tie",
    ]
    nodes = {n.node_id: n for n in model.root_.walk()}
    assert trace.groupby("node")["chosen"].sum().to_dict() == {
        i: int(not n.is_leaf) for i, n in nodes.items()
    }
    assert len(trace) == 4 + 3 + 3 + 5  # root, two nodes with 3 candidates, 5 unscored leaves
    assert trace["node"].is_monotonic_increasing  # reading order
    chosen = trace[trace["chosen"]].set_index("node")
    assert chosen["feature"].to_dict() == {i: n.feature for i, n in nodes.items() if not n.is_leaf}
    assert (trace["n_No"] + trace["n_Yes"] == trace["n_samples"]).all()
    scored = trace.dropna(subset=["gain"])
    np.testing.assert_allclose(scored["entropy"] - scored["overall_entropy"], scored["gain"])
    leaves = trace[trace["feature"].isna()]
    assert (
        leaves["stop_reason"].notna().all() and trace[trace["chosen"]]["stop_reason"].isna().all()
    )
    sunny = trace[trace["node"] == 6].iloc[0]
    assert (sunny["parent"], sunny["branch"], sunny["path"]) == (
        5,
        "High",
        "Outlook = Sunny and Humidity = High",
    )


def test_trace_rows_of_numeric_candidates_say_between_which_values():
    X, y = load_iris(return_X_y=True)
    trace = ID3Classifier().fit(X, y).trace_
    numeric = trace.dropna(subset=["threshold"])
    assert (
        (numeric["low"] < numeric["threshold"]) & (numeric["threshold"] < numeric["high"])
    ).all()
    for row in numeric.itertuples():  # low and high are adjacent values present in the data
        assert row.low in set(X[row.feature]) and row.high in set(X[row.feature])
    condensed = trace[trace["path"].str.count("petal_length") > 0]["path"]
    assert "2.45 < petal_length <= 4.95" in set(condensed.str.split(" and ").explode())
    assert not condensed.str.contains("petal_length.*petal_length").any()


def test_candidate_table_has_the_printed_numbers(capsys):
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier(verbose=1).fit(X, y)
    out = capsys.readouterr().out
    table = model.candidate_table(0, "Temperature")
    for row in table.itertuples():
        line = (
            f"Temperature = {row.value}: {row.n_samples} samples (No: {row.n_No}, Yes: {row.n_Yes}), "
            f"entropy {row.entropy:.4f}, weight {row.n_samples}/14 = {row.weight:.4f}, "
            f"weighted entropy {row.n_samples}/14 × {row.entropy:.4f} = {row.weighted_entropy:.4f}"
        )
        assert line in out
    assert f"gain 0.9403 - {table.attrs['overall_entropy']:.4f} = {table.attrs['gain']:.4f}" in out
    with pytest.raises(ValueError, match="unknown feature"):
        model.candidate_table(0, "Rain")
    with pytest.raises(ValueError, match="node must be"):
        model.candidate_table(99, "Wind")


def test_numeric_candidate_table_against_scipy():
    X, y = load_iris(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    node = next(n for n in model.root_.walk() if n.depth == 2 and not n.is_leaf)
    table = model.candidate_table(node.node_id, "petal_length")
    # the rows that reached the node, found independently from the path
    rows = X.index[(X["petal_length"] > 2.45) & (X["petal_width"] <= 1.75)]
    assert len(rows) == node.n_samples
    x, labels = X.loc[rows, "petal_length"].to_numpy(), y[rows].to_numpy()
    values = np.unique(x)
    np.testing.assert_allclose(table["threshold"], (values[:-1] + values[1:]) / 2)
    for row in table.itertuples():
        left = labels[x <= row.threshold]
        right = labels[x > row.threshold]
        h = [scipy.stats.entropy(pd.Series(s).value_counts(), base=2) for s in (left, right)]
        overall = (len(left) * h[0] + len(right) * h[1]) / len(x)
        assert row.n_left == len(left) and row.left_versicolor == (left == "versicolor").sum()
        assert row.overall_entropy == pytest.approx(overall, abs=1e-12)
    best = table[table["best"]]
    assert best["threshold"].tolist() == [node.threshold]
    assert best["overall_entropy"].iloc[0] == table["overall_entropy"].min()


def test_class_ties_are_reported():
    X = pd.DataFrame({"a": ["p", "p", "q", "q", "q", "r"]})
    y = ["yes", "no", "no", "no", "yes", "yes"]
    model = ID3Classifier()
    tracer = RecordingTracer()
    model.fit(X, y, tracer=tracer)
    tied = [e for e in tracer.events if isinstance(e, LeafMade) and e.tied_classes]
    assert [e.tied_classes for e in tied] == [("no", "yes")]
    assert tied[0].prediction == "no"  # the first class in classes_
    assert "no and yes tie with 1 sample each; the class that comes first in classes_ wins" in str(
        tied[0]
    )
    leaf = next(n for n in model.root_.walk() if n.node_id == tied[0].node)
    assert leaf.tied_classes == ["no", "yes"]
    trace = model.trace_
    assert trace.loc[trace["node"] == leaf.node_id, "class_tie"].all()


def test_why_no_split_is_valid_in_plain_words():
    X = pd.DataFrame({"same": [1.0, 1.0, 1.0, 1.0], "cat": ["u", "u", "u", "u"]})
    tracer = RecordingTracer()
    ID3Classifier().fit(X, ["a", "b", "a", "b"], tracer=tracer)
    reasons = {e.feature: e.reason for e in tracer.events if isinstance(e, CandidateScored)}
    assert reasons == {
        "same": "all 4 samples have the same value",
        "cat": "all 4 samples have the same value",
    }
    leaf = next(e for e in tracer.events if isinstance(e, LeafMade))
    assert leaf.reason.startswith("no feature offers a valid split")
    tracer = RecordingTracer()
    X = pd.DataFrame({"x": [1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]})
    ID3Classifier(min_samples_leaf=3).fit(X, ["a", "b", "a", "b", "b", "a", "a"], tracer=tracer)
    assert "leaves fewer than min_samples_leaf = 3" in str(tracer)
    assert "1 samples" not in str(tracer)


def test_pickled_model_keeps_no_training_data():
    X, y = load_play_tennis(return_X_y=True)
    model = pickle.loads(pickle.dumps(ID3Classifier().fit(X, y)))
    with pytest.raises(AttributeError, match="needs the training data"):
        model.candidate_table(0, "Outlook")


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


COUNTS = re.compile(r"(\d+) samples? \(([^)]*)\), entropy (\d\.\d{4})")
TOTAL = re.compile(
    r"overall entropy [^,]* [=≈] (\d\.\d{4}), gain (\d\.\d{4}) - (\d\.\d{4}) [=≈] (\d\.\d{4})"
)


def test_every_number_of_the_play_tennis_page_can_be_checked_by_hand(capsys):
    """Read the printed page as a student would and redo every entropy and gain with scipy."""
    X, y = load_play_tennis(return_X_y=True)
    ID3Classifier(verbose=1).fit(X, y)
    page = capsys.readouterr().out.splitlines()
    checked_entropies = checked_gains = 0
    node_entropy = branches = None
    for line in page:
        found = COUNTS.search(line)
        if found:
            n, counts, printed = found.groups()
            values = [int(part.split(": ")[1]) for part in counts.split(", ")]
            assert sum(values) == int(n)
            assert float(printed) == pytest.approx(scipy.stats.entropy(values, base=2), abs=5e-5)
            checked_entropies += 1
            if line.lstrip().startswith("Node "):
                node_entropy, node_n = scipy.stats.entropy(values, base=2), int(n)
            elif line.lstrip().startswith("candidate "):
                pass
            else:  # a branch of the candidate above: its weight and weighted entropy too
                weight = re.search(r"weight (\d+)/(\d+) = (\d\.\d{4})", line).groups()
                assert (int(weight[0]), int(weight[1])) == (int(n), node_n)
                assert float(weight[2]) == pytest.approx(int(n) / node_n, abs=5e-5)
                branches.append(values)
        elif line.lstrip().startswith("candidate "):
            branches = []
        total = TOTAL.search(line)
        if total:
            overall = sum(sum(b) / node_n * scipy.stats.entropy(b, base=2) for b in branches)
            printed_overall, before, _, gain = map(float, total.groups())
            assert sum(sum(b) for b in branches) == node_n  # the branches share out the node
            assert printed_overall == pytest.approx(overall, abs=5e-5)
            assert before == pytest.approx(node_entropy, abs=5e-5)
            assert gain == pytest.approx(node_entropy - overall, abs=5e-5)
            checked_gains += 1
    assert checked_gains == 4 + 3 + 3  # every candidate of the three scored nodes
    assert checked_entropies == 8 + (3 + 3 + 2 + 2) + (2 + 2 + 2) + (3 + 2 + 2)  # nodes, branches


# ------------------------------------------------------------------------------------------------
# keep_trace: what a large fit keeps
# ------------------------------------------------------------------------------------------------
def _numeric_fit_data():
    X, y = make_classification(n_samples=400, n_features=5, random_state=3)
    X[::9, 1] = np.nan
    return X, y


def test_a_large_fit_keeps_one_trace_row_per_node(monkeypatch):
    X, y = _numeric_fit_data()
    full = ID3Classifier(min_samples_leaf=2).fit(X, y)
    monkeypatch.setattr(fitting, "FULL_TRACE_VALUES", X.size - 1)  # this fit is now "large"
    small = ID3Classifier(min_samples_leaf=2).fit(X, y)
    assert small.to_dict()["nodes"] == full.to_dict()["nodes"]  # the same tree
    whole, kept = full.trace_, small.trace_
    assert whole.attrs["complete"] and not kept.attrs["complete"]
    n_nodes = sum(1 for _ in full.root_.walk())
    assert len(kept) == n_nodes and kept["node"].tolist() == list(range(n_nodes))
    # a split's row is the full trace's row of the chosen candidate, numbers and all
    chosen = whole[whole["chosen"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept[kept["chosen"]].reset_index(drop=True), chosen)
    # a leaf's row has no feature and no scores, its node's own columns as in the full trace
    leaves = kept[~kept["chosen"]]
    assert leaves["feature"].isna().all() and leaves["gain"].isna().all()
    per_node = ["node", "parent", "depth", "branch", "path", "n_samples", "entropy"]
    per_node += ["stop_reason", "prediction", "class_tie"]
    first = whole.drop_duplicates("node").set_index("node")
    pd.testing.assert_frame_equal(
        leaves[per_node].set_index("node"), first.loc[leaves["node"], per_node[1:]]
    )
    # no training data is kept: the teaching tools say how to keep it
    with pytest.raises(AttributeError, match="keep_trace=True"):
        small.candidate_table(0, 0)
    with pytest.raises(ValueError, match="keep_trace=True"):
        small.worked_solution(0)
    # keep_trace=True keeps everything whatever the size
    forced = ID3Classifier(min_samples_leaf=2, keep_trace=True).fit(X, y)
    pd.testing.assert_frame_equal(forced.trace_, whole)
    pd.testing.assert_frame_equal(forced.candidate_table(0, 0), full.candidate_table(0, 0))


def test_keep_trace_false_keeps_no_trace_and_the_same_tree():
    X, y = _numeric_fit_data()
    model = ID3Classifier(keep_trace=False).fit(X, y)
    reference = ID3Classifier().fit(X, y)
    assert model.to_dict()["nodes"] == reference.to_dict()["nodes"]
    assert (model.predict_proba(X) == reference.predict_proba(X)).all()
    with pytest.raises(AttributeError, match="keep_trace=False"):
        _ = model.trace_


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_keep_trace_must_be_auto_true_or_false(value):
    X, y = _numeric_fit_data()
    with pytest.raises(ValueError, match="keep_trace must be"):
        ID3Classifier(keep_trace=value).fit(X, y)


def _printed_and_recorded(X, y, max_thresholds=0, sample_weight=None, **params):
    """The page a PrintTracer writes (lines built without events) and the events' own text."""
    printed = io.StringIO()
    tracer = PrintTracer(printed, max_thresholds=max_thresholds)
    ID3Classifier(**params).fit(X, y, sample_weight=sample_weight, tracer=tracer)
    recorded = RecordingTracer(max_thresholds=max_thresholds)
    ID3Classifier(**params).fit(X, y, sample_weight=sample_weight, tracer=recorded)
    return printed.getvalue(), str(recorded) + "\n"


@pytest.mark.parametrize(
    "data, params",
    [
        ("play_tennis", {}),
        ("play_tennis", {"criterion": "gain_ratio"}),
        ("iris", {"max_thresholds": 3}),
        ("iris", {"max_thresholds": None, "max_depth": 2}),
        ("hmeq", {"max_depth": 3, "max_thresholds": 4, "min_samples_leaf": 20}),
        ("titanic", {"max_depth": 3, "criterion": "gain_ratio", "min_samples_leaf": 5}),
        ("numbers", {"max_thresholds": 2}),
        ("weighted", {"max_thresholds": 3, "max_depth": 3}),
        ("large", {"max_thresholds": 5}),
    ],
)
def test_the_printed_page_is_the_events_text(data, params):
    """A PrintTracer gets its lines without events; they are what the events print, character
    for character (numeric and categorical features, missing values, ties, gain ratio, numeric
    classes, invalid candidates and every verbose=2 option)."""
    if data == "numbers":  # numeric classes, a constant column, a tie between classes
        rng = np.random.default_rng(0)
        X = pd.DataFrame(
            {"x": rng.normal(size=60).round(1), "same": 1.0, "c": rng.choice(["u", "v"], 60)}
        )
        y = rng.integers(0, 3, size=60)
    elif data == "large":  # columns long enough for the writers' tables
        X, y = make_classification(n_samples=3000, n_features=6, random_state=1)
    elif data == "weighted":  # counts that are sums of weights
        X, y = load_iris(return_X_y=True)
        params["sample_weight"] = np.where(y == "setosa", 0.25, 1.0) + np.arange(150) % 3 / 10
    else:
        X, y = getattr(id3tree.datasets, f"load_{data}")(return_X_y=True)
    printed, recorded = _printed_and_recorded(X, y, **params)
    assert printed == recorded
    assert printed.count("\n") > 10


def test_a_tracer_that_overrides_call_still_gets_events():
    class Counting(PrintTracer):
        def __init__(self):
            super().__init__(io.StringIO())
            self.kinds = set()

        def __call__(self, event):
            self.kinds.add(type(event).__name__)
            super().__call__(event)

    tracer = Counting()
    ID3Classifier().fit(*load_play_tennis(return_X_y=True), tracer=tracer)
    assert {"NodeStarted", "CandidateScored", "SplitChosen", "LeafMade"} <= tracer.kinds
    assert tracer.file.getvalue() == (GOLDEN / "play_tennis_verbose1.txt").read_text("utf-8")


def test_the_trace_names_the_features_c45s_average_gain_rule_kept_out():
    """Under gain ratio, C4.5 lets only features of at least the average gain compete; the
    decision line says so, with the average worked out here from each feature's own gain."""
    from id3tree import information_gain

    X, y = load_play_tennis(return_X_y=True)
    gains = {f: information_gain(X[f], y) for f in X}
    average = sum(gains.values()) / len(gains)
    below = [f for f in X if gains[f] < average]
    assert below == ["Temperature", "Wind"]  # 0.0292 and 0.0481 against 0.1190

    printed = io.StringIO()
    ID3Classifier(criterion="gain_ratio").fit(X, y, tracer=PrintTracer(printed))
    expected = (
        f"C4.5's rule: only candidates with at least the average gain {average:.4f} compete "
        f"({', '.join(below)} below it)"
    )
    root_decision = printed.getvalue().split("=> split on Outlook")[1].splitlines()[1]
    assert root_decision.strip() == expected

    recorder = RecordingTracer()
    ID3Classifier(criterion="gain_ratio").fit(X, y, tracer=recorder)
    root = next(e for e in recorder.events if isinstance(e, SplitChosen) and e.node == 0)
    assert root.below_average[1] == tuple(below)
    assert abs(root.below_average[0] - average) < 1e-12

    off = io.StringIO()
    ID3Classifier(criterion="gain_ratio", average_gain_rule=False).fit(
        X, y, tracer=PrintTracer(off)
    )
    assert "C4.5's rule" not in off.getvalue()
    plain = io.StringIO()
    ID3Classifier().fit(X, y, tracer=PrintTracer(plain))  # information gain: no such rule
    assert "C4.5's rule" not in plain.getvalue()


def test_the_column_writers_write_what_the_single_ones_write():
    """The whole-column writers of the printed trace (tables, shortcuts) against the functions
    that write one number, on values chosen to catch a wrong rounding: exact halves at the 4th
    decimal and their neighbours one ulp away, negative zero, tiny and huge values, NaN."""
    rng = np.random.default_rng(0)
    q = np.arange(-30_000, 30_000)
    halves = (q + 0.5) / 1e4
    values = np.concatenate(
        [
            rng.random(20_000) * 3,
            rng.normal(0, 1e3, 5_000),
            halves,
            np.nextafter(halves, -np.inf),
            np.nextafter(halves, np.inf),
            q / 1e4,
            [0.0, -0.0, 1e-20, -1e-20, 0.03125, 7.99995, 8.0, 1e300, -1e300, np.nan, np.inf],
        ]
    )
    as_floats = values.tolist()
    assert fixed_texts(values) == [format(v, ".4f") for v in as_floats]
    for decimals in (None, 0, 2, 4):
        assert number_texts(values, decimals) == [format_number(v, decimals) for v in as_floats]
    weights = rng.random(500) * 1e4
    for whole in (
        rng.integers(0, 10**7, 500),  # beyond the table of written counts
        rng.integers(0, 3, 500),  # zeros and ones
        np.r_[rng.integers(0, 5_000, 500), 2**20 - 1],  # long: the table, grown to its end
        rng.integers(0, 10, 20),  # short
        rng.integers(0, 256, 300, dtype=np.uint8),  # long, narrow integers
    ):
        assert count_texts(whole) == [format_count(v) for v in whole.tolist()]
    assert count_texts(weights) == [format_count(v) for v in weights.tolist()]
    classes = [0, "a{b}", True]
    for table in (
        rng.integers(0, 100, (50, 3)),  # short
        rng.integers(0, 4, (2_000, 3)),  # long, rows repeated, zeros
        rng.integers(0, 2**40, (300, 3)),  # long, counts too large to number the rows
    ):
        expected = [format_counts(dict(zip(classes, row))) for row in table.tolist()]
        assert counts_texts(table, classes) == expected


@pytest.mark.parametrize("n_candidates", [3, 400])
def test_the_thresholds_lines_of_many_candidates_are_those_written_one_by_one(n_candidates):
    """verbose=2's threshold lines of many candidates at once (one template per shape) against
    the same lines written entry by entry with the single-number writers: none, one, five and
    more than five thresholds (several lines), none or one or many more to count, depths 0 to
    3, and thresholds at exact halves, negative zero, NaN and infinities."""
    rng = np.random.default_rng(n_candidates)
    odd = [0.00005, 0.00015, -0.00005, -0.0, 0.0, np.nan, np.inf, -np.inf, 2.44995, 1e7]
    n_listed = rng.choice([0, 1, 2, 5, 6, 11], size=n_candidates)
    n_listed[:3] = [1, 5, 11]
    n_more = rng.choice([0, 1, 2, 37], size=n_candidates)
    first = np.cumsum(n_listed) - n_listed
    spans = list(zip(first.tolist(), (first + n_listed).tolist(), n_more.tolist()))
    threshold = rng.normal(size=int(n_listed.sum())) * 10
    threshold[: len(odd)] = odd[: len(threshold)]
    overall = rng.random(len(threshold)) * 2
    depths = rng.integers(0, 4, size=n_candidates).tolist()

    def one_by_one(depth, first, stop, n_more):
        pad = "    " * depth + "      "
        entries = [
            f"<= {format_number(t, 4)}: {format(h, '.4f')}"
            for t, h in zip(threshold[first:stop].tolist(), overall[first:stop].tolist())
        ]
        lines = [", ".join(entries[i : i + 5]) for i in range(0, len(entries), 5)] or [""]
        if n_more:
            lines[-1] += f", and {n_more} more threshold{'s' if n_more != 1 else ''}"
        return pad + "best thresholds by overall entropy: " + f",\n{pad}    ".join(lines)

    expected = [one_by_one(d, *span) for d, span in zip(depths, spans)]
    assert thresholds_texts(depths, threshold, overall, spans) == expected
    assert thresholds_texts(2, threshold, overall, spans) == [
        one_by_one(2, *span) for span in spans
    ]


def test_decisions_of_nodes_at_many_depths_are_those_written_one_by_one():
    """``split_texts`` and ``leaf_texts`` with a depth per node (the whole tree at once) write
    what ``split_text`` and ``leaf_text`` write for each node alone: depths 0 to 12, numeric
    and categorical splits, ties between features and thresholds, C4.5's rule, tie notes."""
    from id3tree.trace.lines import leaf_text, leaf_texts, split_text, split_texts

    depths = [0, 3, 1, 12, 0, 7]
    splits = [
        ("x1", 0.5, 0.25, 0.5, (), 1, (("<= 0.5", 3), ("> 0.5", 4)), ()),
        ("Outlook", None, 0.2467, 0.1564, ("Humidity",), 1, (("Sunny", 5), ("Rain", 1)), ()),
        ("x2", -0.0, 1e-9, 0.0, (), 3, (("<= 0", 1), ("> 0", 1), ("missing", 2)), ()),
        ("x3", 2.45, 0.9183, 0.6, ("x4", "x5"), 2, (("<= 2.45", 50), ("> 2.45", 100)), ()),
        ("Wind", None, 0.048, 0.049, (), 1, (("Weak", 8), ("Strong", 6)), (0.1, ("Temp",))),
        ("x6", 1e7, 1.0, 1.0, (), 1, (("<= 1e+07", 1), ("> 1e+07", 1)), ()),
    ]
    criterion = "gain"
    one_by_one = [
        split_text(d, f, t, g, r, criterion, tied, n_ties, branches, below)
        for d, (f, t, g, r, tied, n_ties, branches, below) in zip(depths, splits)
    ]
    columns = {
        "feature": [s[0] for s in splits],
        "threshold": [None if s[1] is None else format_number(s[1], 4) for s in splits],
        "gain": [s[2] for s in splits],
        "gain_ratio": [s[3] for s in splits],
        "notes": [(s[4], s[5], s[7]) for s in splits],
    }
    labels = [label for s in splits for label, _ in s[6]]
    sizes = [n for s in splits for _, n in s[6]]
    first = np.cumsum([0] + [len(s[6]) for s in splits]).tolist()
    branches = {"label": labels, "n_samples": sizes, "first": first}
    assert split_texts(depths, criterion, columns, branches) == one_by_one
    for text, depth in zip(one_by_one, depths):  # each decision indented under its node
        assert text.startswith("    " * depth + "  => split on ")
    predictions, reasons = ["Yes", "No", "class 0", "Yes", "No", "Yes"], ["pure"] * 6
    notes = ["", "tie between No and Yes: No comes first", "", "", "", "x"]
    assert leaf_texts(depths, predictions, reasons, notes) == [
        leaf_text(d, p, r, n) for d, p, r, n in zip(depths, predictions, reasons, notes)
    ]
    assert leaf_texts(depths, [], [], []) == []


@pytest.mark.parametrize(
    "tests",
    [
        (None, 0.5, None),
        (0.00005, None, None),
        (-0.00005, 0.00015, None),
        (-0.0, 2.44995, None),
        (1e7, 1e12, None),
        (0.1 + 0.2, None, None),
        (None, 2.45, ("missing", None)),
        (None, None, ("=", "Sunny")),
    ],
)
def test_a_path_word_from_thresholds_written_before_is_the_same(tests):
    """``path_word`` with the thresholds written so far (filled as it goes, shared by every
    path of a tree) writes what it writes alone: at halves, tiny, negative zero and large
    thresholds, and for the missing and categorical tests."""
    from id3tree.model.node import path_word

    alone = path_word("x", tests, 4)
    written = {}
    assert path_word("x", tests, 4, written) == alone
    assert path_word("x", tests, 4, written) == alone  # read back from what it wrote
    low, high, other = tests
    for value in (low, high):
        if value is not None and other is None:  # (a missing or categorical test writes none)
            assert written[value] == format_number(value, 4)


@pytest.mark.parametrize("depth", [0, 3, [0], [2, 0, 5, 2, 1], []])
def test_indents_of_many_lines_are_those_of_each_line(depth):
    """One depth for all lines or one per line: each line is indented as :func:`indent` alone
    indents it, with the same text after."""
    n = 4 if np.ndim(depth) == 0 else len(depth)
    each = [depth] * n if np.ndim(depth) == 0 else depth
    assert indents(depth, n, "  ").tolist() == [indent(at) + "  " for at in each]


@pytest.mark.parametrize("sizes", [[2, 2, 3, 2, 1], [5], [1, 1], [2, 7, 0, 3, 3, 2], []])
def test_sums_of_terms_grouped_by_length_are_those_of_each_candidate(sizes):
    """The ``a + b + ...`` of a candidate's weighted entropies, written for every candidate
    with as many terms at once (``_sums``), is what joining that candidate's terms writes."""
    from id3tree.trace.lines import _sums

    first = np.cumsum([0, *sizes])
    terms = [f"0.{i:04d}" for i in range(first[-1])]
    expected = [" + ".join(terms[a:b]) for a, b in zip(first[:-1], first[1:])]
    assert _sums(terms, first) == expected


def test_plural_words_of_a_column_are_those_of_each_count():
    from id3tree.base.words import plural, plural_words

    counts = np.array([0, 1, 2, 1, 17, 1.0, 0.5])
    expected = [plural(n, "sample").split(" ", 1)[1] for n in counts.tolist()]
    assert plural_words(counts, "sample", "samples") == expected
    assert plural_words(np.array([], dtype=np.int64), "value", "values") == []


def _levels_of_a_traced_fit(monkeypatch, X, y, **params):
    """The record of a fit printed with a PrintTracer, with each level's details and dense
    tables as they were before the tree was finished (the record lets go of them after)."""
    from id3tree.trace.details import TraceDetails

    kept = {}
    finish_levels = TraceDetails.finish_levels

    def keep(self):
        kept["record"] = self
        kept["tables"] = [dict(d.tables) for d in self.levels]
        kept["details"] = list(self.levels)
        return finish_levels(self)

    monkeypatch.setattr(TraceDetails, "finish_levels", keep)
    ID3Classifier(**params).fit(X, y, tracer=PrintTracer(io.StringIO(), max_thresholds=2))
    return kept


def _mixed_data():
    """Numeric features (one with missing values) and categorical ones (one with missing
    values): every kind of branch."""
    X, y = id3tree.datasets.load_titanic(return_X_y=True)
    return X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"]), y


@pytest.mark.parametrize("data", ["mixed", "numeric"])
def test_decisions_of_all_levels_at_once_are_those_of_each_level_alone(monkeypatch, data):
    """The decisions are found for the whole tree at once, every level's scores stacked; each
    level's part (its scored nodes, children, ties, C4.5's rule) is what it gets alone."""
    from id3tree.trace.details import Decisions

    X, y = _mixed_data() if data == "mixed" else make_classification(600, 5, random_state=3)
    params = {"criterion": "gain_ratio", "max_depth": 6} if data == "mixed" else {}
    kept = _levels_of_a_traced_fit(monkeypatch, X, y, **params)
    names = kept["record"].data.names
    assert len(kept["details"]) > 3
    for d in kept["details"]:
        (alone,) = Decisions.of_levels([d.level], names)
        assert d.decisions == alone
        assert len(alone.scored) == len(d.level.nodes)
        assert alone.first_child[-1] == len(d.level.children)


@pytest.mark.parametrize("data", ["mixed", "numeric"])
def test_branches_of_all_levels_at_once_are_those_of_each_level_alone(monkeypatch, data):
    """The branches of the dense tables are found for every level at once, each level's a view
    of one run; they are the branches found from that level's tables alone, and each
    branch's class counts sum to its size."""
    from types import SimpleNamespace

    X, y = _mixed_data() if data == "mixed" else make_classification(600, 5, random_state=3)
    kept = _levels_of_a_traced_fit(monkeypatch, X, y)
    record, checked = kept["record"], 0
    for d, tables in zip(kept["details"], kept["tables"]):
        for numeric in (True, False):
            features = [f for f in tables if (record.data.codes[f] is None) == numeric]
            if not features:
                continue
            level = SimpleNamespace(level=d.level, tables=tables)
            (alone,) = record._table_branches(features, [level], numeric)
            batched = d.branches[features[0]]
            for name in ("first", "slots", "counts", "sizes", "threshold"):
                a, b = getattr(batched, name), getattr(alone, name)
                assert (a is None and b is None) or np.array_equal(a, b, equal_nan=True)
            assert np.array_equal(batched.counts.sum(axis=1), batched.sizes)
            checked += 1
    assert checked > 3


@pytest.mark.parametrize("data", ["mixed", "numeric", "iris"])
def test_the_path_of_every_traced_node_is_its_condensed_path_in_the_tree(data):
    """Each node's path in the trace (found level by level from arrays of what each path knows)
    is the condensed path of that node in the finished tree, walked node by node."""
    from id3tree.model.node import node_paths
    from id3tree.trace.lines import DECIMALS

    if data == "iris":
        X, y = load_iris(return_X_y=True)
    else:
        X, y = _mixed_data() if data == "mixed" else make_classification(600, 5, random_state=3)
    recorded = RecordingTracer()
    model = ID3Classifier().fit(X, y, tracer=recorded)
    expected = node_paths(model.root_, DECIMALS)
    started = [e for e in recorded.events if isinstance(e, NodeStarted)]
    assert len(started) == len(expected) > 10
    for event in started:
        assert list(event.path) == expected[event.node]


@pytest.mark.parametrize("search", ["matrix", "end_to_end", "in_pieces"])
@pytest.mark.parametrize("options", [{}, {"min_samples_leaf": 4}])
def test_every_search_keeps_the_cuts_of_the_best_thresholds(monkeypatch, search, options):
    """verbose=2's best thresholds come from the cuts each split search kept, whatever the
    search (a matrix; rows laid end to end; in pieces, a node longer than a piece scored in
    parts; a counted feature of few values), never from the level's rows gathered and scored
    again; and they are the first k of every threshold (``max_thresholds=None``, which scores
    every cut again), with the same numbers, ``n_more`` counting the rest."""
    import dataclasses

    from id3tree.engine.splits import sorted_rows, strategies
    from id3tree.trace.details import TraceDetails

    X, y = make_classification(900, 4, n_informative=3, n_redundant=0, n_classes=3, random_state=1)
    X[:, 1] = np.round(X[:, 1])  # a few values (at most 1 in 64 rows): counted, not sorted
    X[np.random.default_rng(1).random(X.shape) < 0.05] = np.nan
    rules = {"matrix": {}, "end_to_end": {"matrix_cells": 1}}
    rules["in_pieces"] = {"matrix_cells": 1, "piece_rows": 64}
    for name, limit in rules[search].items():
        rule = dataclasses.replace(strategies.SIZE_RULES[name], limit=limit)
        monkeypatch.setitem(strategies.SIZE_RULES, name, rule)
    calls = []

    def spy(module, name, table=None):
        function = getattr(module, name) if table is None else table[name]

        def called(*args, **kwargs):
            calls.append((name, kwargs.get("rank"), getattr(args[0], "max_thresholds", None)))
            return function(*args, **kwargs)

        if table is None:
            monkeypatch.setattr(module, name, called)
        else:
            monkeypatch.setitem(table, name, called)

    spy(None, "counted", strategies.NUMERIC_SEARCHES)
    spy(sorted_rows, "_search_long")
    spy(TraceDetails, "_best_thresholds")  # the level's rows gathered and scored again
    ranked = {}
    for k in (3, None):
        tracer = RecordingTracer(max_thresholds=k)
        ID3Classifier(**options).fit(X, y, tracer=tracer)
        ranked[k] = [e for e in tracer.events if isinstance(e, ThresholdsRanked)]
    assert ("counted", 3, None) in calls
    assert (search == "in_pieces") == (("_search_long", 3, None) in calls)
    rescored = [k for name, _, k in calls if name == "_best_thresholds"]
    assert rescored and set(rescored) == {None}
    assert len(ranked[3]) == len(ranked[None]) > 10
    for best, every in zip(ranked[3], ranked[None]):
        assert (best.node, best.feature) == (every.node, every.feature)
        assert best.thresholds == every.thresholds[:3]
        assert best.n_more == len(every.thresholds) - len(best.thresholds)


@pytest.mark.parametrize("seed", range(6))
def test_the_kth_score_of_small_groups_is_the_sorted_kth(seed):
    """The fast path of the trace's bound of each group's k-th best score (a table of a row per
    group) gives the k-th smallest score itself, as sorting each group alone does, and its plain
    twin (one sort of every score) an upper bound of it, the same where the scores span fewer
    than 40 bits."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 12, size=60)
    span = 2**20 if seed % 2 else 2**50
    score = rng.integers(0, span, size=int(lengths.sum()))
    score[rng.random(len(score)) < 0.2] = NOT_A_CUT  # no cut there
    k = int(rng.integers(1, 6))
    fast = _kth_in_rows(score, lengths, k, int(lengths.max()))
    plain = _kth_by_sorting(score, lengths, k)
    expected = []
    for group in np.split(score, np.cumsum(lengths)[:-1]):
        valid = np.sort(group[group < NOT_A_CUT])
        expected.append(valid[k - 1] if len(valid) >= k else NOT_A_CUT - 1)
    assert fast.tolist() == expected
    assert (plain >= fast).all() and (plain < NOT_A_CUT).all()
    if span < 2**40:
        assert plain.tolist() == expected


@pytest.mark.parametrize("seed", range(6))
def test_the_first_thresholds_of_small_segments_are_those_of_sorting_every_cut(seed):
    """The fast path of ranking the kept cuts (a table of a row per segment) lists the same rows
    in the same order as sorting every cut, ties and NaN included, and both as a plain sort of
    each segment by overall entropy then position does."""
    rng = np.random.default_rng(seed)
    n = rng.integers(0, 9, size=40)
    seg = np.arange(len(n)).repeat(n)
    overall = rng.integers(0, 4, size=len(seg)) / 4.0  # many ties
    overall[rng.random(len(seg)) < 0.1] = np.nan
    k = int(rng.integers(1, 7))
    fast = _first_in_rows(overall, n, int(n.max()), k)
    expected = []
    for s in range(len(n)):
        rows = np.flatnonzero(seg == s)
        keys = [
            (np.isnan(overall[i]), 0.0 if np.isnan(overall[i]) else overall[i], i) for i in rows
        ]
        expected += [i for *_, i in sorted(keys)[:k]]
    assert fast.tolist() == expected
    assert _first_by_sorting(overall, seg, k).tolist() == expected


@pytest.mark.parametrize("seed", range(6))
def test_the_cuts_near_the_best_of_short_segments_are_those_found_in_blocks(seed):
    """The fast path of the cuts near each segment's k best (short segments: each one's k-th
    best found at once) keeps the cuts its plain twin (blocks, then the cuts near the best of
    them) keeps, and every one of them is within the margin of its segment's k-th best."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 20, size=80)
    starts = np.cumsum(lengths) - lengths
    score = rng.integers(0, 2**20, size=int(lengths.sum()))
    score[rng.random(len(score)) < 0.15] = NOT_A_CUT
    k, margin = 5, rng.integers(0, 2**12, size=len(lengths))
    fast = _near_best_of_short(score, starts, lengths, k, margin, int(lengths.max()))
    plain = _near_best_in_blocks(score, starts, lengths, k, margin)
    assert [a.tolist() for a in fast] == [a.tolist() for a in plain]
    for s, (a, n) in enumerate(zip(starts.tolist(), lengths.tolist())):
        valid = np.sort(score[a : a + n][score[a : a + n] < NOT_A_CUT])
        limit = valid[k - 1] + margin[s] if len(valid) >= k else NOT_A_CUT - 1
        kept = [p - a for p in fast[1][fast[0] == s].tolist()]
        assert kept == np.flatnonzero(score[a : a + n] <= limit).tolist()


@pytest.mark.parametrize("scale", [1.0, 1e5, 1e9])
def test_numbers_in_two_pieces_join_into_the_numbers_written_one_by_one(scale):
    """A threshold written in two pieces (sign and whole part, then the decimals) for the
    thresholds lines reads, once joined, as format_number writes each value alone: halves,
    -0.0, infinities, NaN, and whole parts beyond the table of written numbers included."""
    rng = np.random.default_rng(1)
    values = np.concatenate(
        [rng.normal(0, scale, 600), np.round(rng.normal(0, 3, 300), 4) + 0.00005,
         [0.5e-4, -0.5e-4, -0.00001, 0.0, -0.0, np.inf, -np.inf, np.nan, 2.5e9, -2.5e9]]
    )  # fmt: skip
    for decimals in (2, 4):
        head, tail = number_pieces(values, decimals)
        joined = [a + b for a, b in zip(head.tolist(), tail.tolist())]
        assert joined == [format_number(v, decimals) for v in values.tolist()]
