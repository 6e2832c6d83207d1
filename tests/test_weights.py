"""Weighted fits: ``sample_weight``, ``class_weight`` and ``min_weight_fraction_leaf``.

The references: for integer weights, the same data with each row repeated that many times; for
uniform weights, the unweighted fit; for class weights, scikit-learn's ``compute_sample_weight``;
for the weighted entropies of a candidate split, scipy's ``entropy`` on sums of weights; for the
pruning path, scikit-learn's entropy tree.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import entropy as scipy_entropy
from sklearn.datasets import make_classification
from sklearn.utils.class_weight import compute_sample_weight

from id3tree import ID3Classifier
from id3tree.base.diagnostics import IDLikeFeatureWarning
from id3tree.datasets import load_car, load_iris, load_play_tennis
from id3tree.trace.tracers import RecordingTracer, ThresholdsRanked


def _numeric_classification():
    X, y = make_classification(
        n_samples=240, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    X = pd.DataFrame(X.round(1), columns=[f"f{i}" for i in range(5)])  # rounded: ties in values
    return X, pd.Series(np.array(["a", "b", "c"])[y])


def _mixed_with_holes():
    rng = np.random.default_rng(3)
    n = 120
    X = pd.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], n).astype(object),
            "size": rng.integers(0, 6, n).astype(float),
            "mass": rng.normal(size=n).round(1),
        }
    )
    X.loc[rng.random(n) < 0.1, "size"] = np.nan
    X.loc[rng.random(n) < 0.05, "colour"] = None
    y = pd.Series(np.where(X["mass"] + (X["colour"] == "red") > 0.3, "yes", "no"))
    y[rng.random(n) < 0.15] = "maybe"
    return X, y


DATASETS = {
    "play_tennis": lambda: load_play_tennis(return_X_y=True),
    "iris": lambda: load_iris(return_X_y=True),
    "car": lambda: load_car(return_X_y=True),  # categorical, four classes
    "make_classification": _numeric_classification,
    "mixed_with_holes": _mixed_with_holes,
}
_CACHE: dict = {}


def _dataset(name):
    if name not in _CACHE:
        _CACHE[name] = DATASETS[name]()
    return _CACHE[name]


def _repeated(X, y, weight):
    rows = np.repeat(np.arange(len(y)), weight)
    return X.iloc[rows].reset_index(drop=True), pd.Series(np.asarray(y)[rows])


def _fit(params, X, y, **fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeFeatureWarning)
        return ID3Classifier(**params).fit(X, y, **fit)


def _nodes(model):
    """Every node in pre-order: its test, its branches and its class counts."""
    return [
        (
            n.node_id,
            n.feature,
            n.threshold,
            tuple(n.children),
            tuple(n.class_counts.values()),
            n.stop_reason,
        )
        for n in model.root_.walk()
    ]


# parameters that count weight, never rows (min_samples_leaf counts rows, as in scikit-learn)
WEIGHT_ONLY_PARAMS = [
    {},
    {"criterion": "gain_ratio"},
    {"max_depth": 2},
    {"alpha": 0.2},
    {"min_gain": 0.05},
    {"min_weight_fraction_leaf": 0.08},
]


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(DATASETS)),
    params=st.sampled_from(WEIGHT_ONLY_PARAMS),
    seed=st.integers(0, 2**32 - 1),
    high=st.integers(1, 5),
)
def test_integer_weights_grow_the_tree_of_repeated_rows(name, params, seed, high):
    X, y = _dataset(name)
    weight = np.random.default_rng(seed).integers(0, high + 1, len(y))
    weight[0] = max(weight[0], 1)
    weighted = _fit(params, X, y, sample_weight=weight)
    repeated = _fit(params, *_repeated(X, y, weight))
    assert _nodes(weighted) == _nodes(repeated)  # node for node: tests, thresholds, counts
    assert weighted.to_text() == repeated.to_text()
    pd.testing.assert_frame_equal(weighted.trace_, repeated.trace_, check_exact=False, rtol=1e-9)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X))
    np.testing.assert_allclose(weighted.feature_importances_, repeated.feature_importances_)


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(sorted(DATASETS)),
    params=st.sampled_from(
        [p for p in WEIGHT_ONLY_PARAMS if "alpha" not in p] + [{"min_samples_leaf": 3}]
    ),
    value=st.sampled_from([0.5, 3.7, 1e-3, 2.0, 1 / 3]),
)
def test_uniform_weights_grow_the_unweighted_tree(name, params, value):
    # (alpha= is left out: its chi-square test takes weights as frequencies, so scaling every
    # weight scales the statistic; see test_alpha_takes_weights_as_frequencies)
    X, y = _dataset(name)
    weighted = _fit(params, X, y, sample_weight=np.full(len(y), value))
    plain = _fit(params, X, y)
    a, b = _nodes(weighted), _nodes(plain)
    assert [n[:4] for n in a] == [n[:4] for n in b]  # same tests, thresholds and branches
    for mine, theirs in zip(a, b):
        np.testing.assert_allclose(mine[4], np.multiply(theirs[4], value), rtol=1e-9)
    np.testing.assert_allclose(weighted.predict_proba(X), plain.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(weighted.feature_importances_, plain.feature_importances_)
    cols = ["node", "feature", "threshold", "gain", "overall_entropy", "chosen"]
    pd.testing.assert_frame_equal(
        weighted.trace_[cols], plain.trace_[cols], check_exact=False, rtol=1e-9, atol=1e-12
    )


def test_alpha_takes_weights_as_frequencies():
    from scipy.stats import chi2_contingency

    X, y = load_play_tennis(return_X_y=True)
    split = pd.crosstab(X["Outlook"], y).to_numpy()
    p_rows = chi2_contingency(split, correction=False).pvalue
    p_double = chi2_contingency(2 * split, correction=False).pvalue
    alpha = (p_rows + p_double) / 2  # between the two: rows fail the test, doubled rows pass
    assert p_double < alpha < p_rows
    plain = ID3Classifier(alpha=alpha, max_depth=1).fit(X, y)
    doubled = ID3Classifier(alpha=alpha, max_depth=1).fit(X, y, sample_weight=np.full(14, 2))
    assert plain.root_.is_leaf and f"p = {p_rows:.4g}" in plain.root_.stop_reason
    assert doubled.root_.feature == "Outlook"


def test_weighted_counts_in_nodes_trace_and_saved_models():
    X, y = load_play_tennis(return_X_y=True)
    weight = np.where(y == "Yes", 0.5, 2.0)  # 5 No rows, 9 Yes rows
    tracer = RecordingTracer()
    model = ID3Classifier().fit(X, y, sample_weight=weight, tracer=tracer)
    root = model.root_
    assert root.class_counts == {"No": 10, "Yes": 4.5}
    assert root.n_samples == pytest.approx(14.5)
    assert root.entropy == pytest.approx(scipy_entropy([10, 4.5], base=2))
    for node in root.walk():  # children's weighted counts add up to the parent's
        if not node.is_leaf:
            total = sum(child.n_samples for child in node.children.values())
            assert total == pytest.approx(node.n_samples)
    started = [e for e in tracer.events if type(e).__name__ == "NodeStarted"]
    assert started[0].class_counts == {"No": 10, "Yes": 4.5}
    assert "14.5 samples (No: 10, Yes: 4.5)" in str(started[0])
    assert model.trace_.query("node == 0")["n_samples"].iloc[0] == pytest.approx(14.5)
    assert "14.5 samples" in model.to_text()
    assert "samples = 14.5" in model.to_dot()
    again = ID3Classifier.from_json(model.to_json())
    assert again.to_text() == model.to_text()
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    unpickled = pickle.loads(pickle.dumps(model))
    assert unpickled.to_text() == model.to_text()


def test_a_saved_model_with_fractional_counts_must_still_add_up():
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier().fit(X, y, sample_weight=np.linspace(0.1, 1.4, 14))
    d = model.to_dict()
    leaf = next(r for r in d["nodes"] if r["feature"] is None)
    leaf["counts"][leaf["counts"].index(max(leaf["counts"]))] += 0.25
    with pytest.raises(ValueError, match="add up to"):
        ID3Classifier.from_dict(d)
    d = model.to_dict()  # rounding in the last digits is no inconsistency
    d["nodes"][0]["counts"] = [c * (1 + 1e-13) for c in d["nodes"][0]["counts"]]
    ID3Classifier.from_dict(d)


def test_predict_proba_is_the_weighted_class_share_at_the_leaf():
    X, y = _numeric_classification()
    weight = np.random.default_rng(1).uniform(0.1, 3.0, len(y))
    model = ID3Classifier(max_depth=3).fit(X, y, sample_weight=weight)
    leaf = model.apply(X)
    classes = model.classes_.tolist()
    codes = np.array([classes.index(c) for c in y])
    for node in np.unique(leaf):
        at = leaf == node
        expected = np.bincount(codes[at], weights=weight[at], minlength=len(classes))
        np.testing.assert_allclose(model.predict_proba(X[at])[0], expected / expected.sum())


@pytest.mark.parametrize("save", [False, True])
def test_weight_sums_equal_up_to_rounding_tie_by_the_documented_rule(save):
    # 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floating point: class B's sum exceeds A's 0.3
    # by one rounding step, yet the two are the same weight and tie; A comes first in classes_
    assert 0.1 + 0.1 + 0.1 > 0.3
    X = pd.DataFrame({"a": [1.0, 1.0, 1.0, 1.0]})
    y = np.array(["A", "B", "B", "B"])
    model = ID3Classifier().fit(X, y, sample_weight=[0.3, 0.1, 0.1, 0.1])
    if save:
        model = ID3Classifier.from_json(model.to_json())
    assert model.predict(X).tolist() == ["A"] * 4
    assert model.root_.prediction == "A"
    assert model.root_.tied_classes == ["A", "B"]
    assert "A and B tie" in model.to_text()
    if not save:  # (a loaded model has no trace_)
        assert model.trace_["class_tie"].tolist() == [True]
    # a real difference, however small against the weights, is no tie
    model = ID3Classifier().fit(X, y, sample_weight=[0.3, 0.1, 0.1, 0.1 + 1e-6])
    assert model.predict(X).tolist() == ["B"] * 4
    assert model.root_.tied_classes == []


def test_weighted_candidate_table_against_scipy():
    X, y = _mixed_with_holes()
    weight = np.random.default_rng(2).uniform(0.2, 2.0, len(y))
    model = ID3Classifier(max_depth=1).fit(X, y, sample_weight=weight)
    classes = model.classes_.tolist()
    known = X["mass"].notna().to_numpy()
    table = model.candidate_table(0, "mass")
    for row in table.itertuples():
        left = known & (X["mass"] <= row.threshold).to_numpy()
        right = known & (X["mass"] > row.threshold).to_numpy()
        sides = [
            np.array([weight[side & (y == c).to_numpy()].sum() for c in classes])
            for side in (left, right)
        ]
        assert row.n_left == pytest.approx(sides[0].sum())
        assert row.n_right == pytest.approx(sides[1].sum())
        assert row.entropy_left == pytest.approx(scipy_entropy(sides[0], base=2))
        assert row.entropy_right == pytest.approx(scipy_entropy(sides[1], base=2))
        parent = np.array([weight[(y == c).to_numpy()].sum() for c in classes])
        overall = (sides[0].sum() * row.entropy_left + sides[1].sum() * row.entropy_right) / (
            parent.sum()
        )
        assert row.gain == pytest.approx(scipy_entropy(parent, base=2) - overall)
    chosen = model.trace_.query("node == 0 and feature == 'mass'")
    best = table.loc[table["gain"].idxmax()]
    assert chosen["threshold"].iloc[0] == best["threshold"]
    assert chosen["gain"].iloc[0] == pytest.approx(best["gain"])
    colour = model.candidate_table(0, "colour")
    assert colour["n_samples"].sum() == pytest.approx(weight.sum())
    assert colour["weight"].sum() == pytest.approx(1.0)


def test_candidate_tables_of_tiny_uniform_weights_are_the_unweighted_ones():
    X, y = load_play_tennis(return_X_y=True)
    tiny = ID3Classifier().fit(X, y, sample_weight=np.full(14, 1e-3))
    plain = ID3Classifier().fit(X, y)
    for node in (0, 2):
        a, b = tiny.candidate_table(node, "Wind"), plain.candidate_table(node, "Wind")
        np.testing.assert_allclose(a["weight"], b["weight"])
        np.testing.assert_allclose(a["n_samples"], b["n_samples"] * 1e-3)
        np.testing.assert_allclose(a["weighted_entropy"], b["weighted_entropy"])


def test_zero_weight_rows_are_as_if_absent():
    for name in ("car", "iris", "mixed_with_holes"):
        X, y = _dataset(name)
        weight = np.ones(len(y))
        weight[::3] = 0
        kept = weight > 0
        with_zeros = ID3Classifier().fit(X, y, sample_weight=weight)
        without = ID3Classifier().fit(X[kept].reset_index(drop=True), y[kept])
        assert _nodes(with_zeros) == _nodes(without)


@pytest.mark.parametrize(
    "class_weight", ["balanced", {"setosa": 1, "versicolor": 3, "virginica": 0.5}]
)
def test_class_weight_is_a_weight_per_row_of_its_class(class_weight):
    X, y = load_iris(return_X_y=True)
    y = y.copy()
    y.iloc[:30] = "versicolor"  # unbalanced classes
    by_class = ID3Classifier(class_weight=class_weight).fit(X, y)
    weights = compute_sample_weight(class_weight, y)
    by_rows = ID3Classifier().fit(X, y, sample_weight=weights)
    assert _nodes(by_class) == _nodes(by_rows)
    both = ID3Classifier(class_weight=class_weight).fit(X, y, sample_weight=np.full(len(y), 2.0))
    assert both.root_.n_samples == pytest.approx(2 * weights.sum())


def test_balanced_class_weight_gives_equal_class_totals():
    X, y = load_car(return_X_y=True)
    model = ID3Classifier(class_weight="balanced", max_depth=1).fit(X, y)
    np.testing.assert_allclose(list(model.root_.class_counts.values()), len(y) / 4)


@pytest.mark.parametrize(
    ("class_weight", "message"),
    [
        ("even", "class_weight must be"),
        ({"nonsense": 2.0}, "not in y"),
        ({"unacc": -1.0}, "non-negative"),
    ],
)
def test_bad_class_weights_are_refused(class_weight, message):
    X, y = load_car(return_X_y=True)
    with pytest.raises(ValueError, match=message):
        ID3Classifier(class_weight=class_weight).fit(X, y)


def test_min_samples_leaf_counts_rows_and_min_weight_fraction_leaf_weighs():
    X, y = load_car(return_X_y=True)
    weight = np.random.default_rng(0).uniform(0.1, 5.0, len(y))
    model = ID3Classifier(min_samples_leaf=20).fit(X, y, sample_weight=weight)
    rows = np.bincount(model.apply(X))
    assert rows[rows > 0].min() >= 20  # every leaf holds 20 rows, whatever they weigh
    model = ID3Classifier(min_weight_fraction_leaf=0.05).fit(X, y, sample_weight=weight)
    lightest = min(node.n_samples for node in model.root_.walk())
    assert lightest >= 0.05 * weight.sum()
    assert model.get_n_leaves() < ID3Classifier().fit(X, y, sample_weight=weight).get_n_leaves()
    plain = ID3Classifier(min_weight_fraction_leaf=0.05).fit(X, y)  # without weights: rows
    assert min(node.n_samples for node in plain.root_.walk()) >= 0.05 * len(y)
    with pytest.raises(ValueError, match="min_weight_fraction_leaf"):
        ID3Classifier(min_weight_fraction_leaf=0.7).fit(X, y)


@pytest.mark.parametrize(
    ("weight", "message"),
    [
        (np.ones(5), r"expected \(1728,\)"),
        (np.ones((1728, 2)), r"expected \(1728,\)"),
        (np.r_[-1.0, np.ones(1727)], "non-negative; row 0 has -1.0"),
        (np.r_[np.ones(9), np.nan, np.ones(1718)], "finite; row 9"),
        (np.r_[np.inf, np.ones(1727)], "finite; row 0"),
        (np.zeros(1728), "all zero"),
        (["a"] * 1728, "numbers"),
    ],
)
def test_bad_weights_are_refused(weight, message):
    X, y = load_car(return_X_y=True)
    with pytest.raises(ValueError, match=message):
        ID3Classifier().fit(X, y, sample_weight=weight)


def test_class_weight_zero_for_every_row_is_refused():
    X, y = load_play_tennis(return_X_y=True)
    with pytest.raises(ValueError, match="all zero"):
        ID3Classifier(class_weight={"Yes": 0, "No": 0}).fit(X, y)


def test_weighted_cost_complexity_path_matches_scikit_learn():
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    weight = np.random.default_rng(1).uniform(0.5, 3.0, len(y))  # fractional weights
    ours = ID3Classifier().cost_complexity_pruning_path(X, y, sample_weight=weight)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0)
    grown = theirs.fit(X, y, sample_weight=weight)
    mine = ID3Classifier().fit(X, y, sample_weight=weight)
    assert mine.get_n_leaves() == grown.get_n_leaves()  # the same tree on this data
    np.testing.assert_array_equal(mine.predict(X), grown.predict(X))
    np.testing.assert_allclose(mine.predict_proba(X), grown.predict_proba(X), rtol=1e-9)
    theirs = theirs.cost_complexity_pruning_path(X, y, sample_weight=weight)
    np.testing.assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(ours.impurities, theirs.impurities, rtol=1e-7, atol=1e-12)
    # the weighted impurity of the full tree: each leaf's share of the weight times its entropy
    leaves = [n for n in mine.root_.walk() if n.is_leaf]
    expected = sum(n.n_samples / weight.sum() * n.entropy for n in leaves)
    assert ours.impurities[0] == pytest.approx(expected)


def test_pruning_a_weighted_tree():
    X, y = _numeric_classification()
    weight = np.random.default_rng(4).uniform(0.2, 2.0, len(y))
    model = ID3Classifier().fit(X[:160], y[:160], sample_weight=weight[:160])
    for pruned in (
        model.prune("pessimistic"),
        model.prune("reduced_error", X[160:], y[160:]),
        model.prune("cost_complexity", ccp_alpha=0.01),
    ):
        assert pruned.get_n_leaves() <= model.get_n_leaves()
        assert pruned.root_.n_samples == pytest.approx(weight[:160].sum())
        for node in pruned.root_.walk():
            if not node.is_leaf:
                total = sum(child.n_samples for child in node.children.values())
                assert total == pytest.approx(node.n_samples)


def test_reduced_error_pruning_with_weighted_validation_rows():
    X, y = _numeric_classification()
    model = ID3Classifier().fit(X[:160], y[:160])
    X_val, y_val = X[160:].reset_index(drop=True), y[160:].reset_index(drop=True)
    weight = np.random.default_rng(5).integers(0, 4, len(y_val))
    weighted = model.prune("reduced_error", X_val, y_val, sample_weight=weight)
    repeated = model.prune("reduced_error", *_repeated(X_val, y_val, weight))
    assert _nodes(weighted) == _nodes(repeated)
    pd.testing.assert_frame_equal(weighted.pruning_, repeated.pruning_)
    with pytest.raises(ValueError, match="finite; row 2"):
        model.prune("reduced_error", X_val, y_val, sample_weight=np.r_[1, 1, np.nan, weight[3:]])
    with pytest.raises(ValueError, match="only reduced_error"):
        model.prune("pessimistic", sample_weight=weight)


def test_verbose_trace_prints_weighted_thresholds(capsys):
    X, y = load_iris(return_X_y=True)
    weight = np.where(y == "setosa", 0.25, 1.0)
    ID3Classifier(max_depth=1, verbose=2).fit(X, y, sample_weight=weight)
    out = capsys.readouterr().out
    assert "Node 0 [root]: 112.5 samples (setosa: 12.5, versicolor: 50, virginica: 50)" in out
    assert "weight 55/112.5 = 0.4889" in out  # a side of petal_length's best threshold
    # verbose=2's ranked thresholds of petal_length, by weighted overall entropy
    assert "best thresholds by overall entropy: <= 4.75: 0.6906, <= 4.85: 0.7227," in out
    tracer = RecordingTracer(max_thresholds=10)
    ID3Classifier(max_depth=1).fit(X, y, sample_weight=weight, tracer=tracer)
    ranked = next(
        e for e in tracer.events if isinstance(e, ThresholdsRanked) and e.feature == "petal_length"
    )
    cut = next(t for t in ranked.thresholds if t.threshold == 2.45)
    assert (cut.n_left, cut.entropy_left, cut.n_right) == (12.5, 0.0, 100.0)
    assert cut.overall_entropy == pytest.approx(100 / 112.5)


def test_the_id_like_warning_counts_rows_not_weights():
    from id3tree.datasets import load_titanic

    X, y = load_titanic(return_X_y=True)
    X = X[["Name", "Sex"]]
    with pytest.warns(IDLikeFeatureWarning, match="split 891 rows into 891 branches"):
        ID3Classifier(max_depth=1).fit(X, y, sample_weight=np.full(len(y), 7.5))
    with pytest.warns(IDLikeFeatureWarning, match="split 891 rows into 891 branches"):
        ID3Classifier(max_depth=1).fit(X, y, sample_weight=np.full(len(y), 0.01))


def test_teaching_tools_refuse_a_weighted_tree():
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier().fit(X, y, sample_weight=np.arange(1, 15))
    for call in (
        lambda: model.worked_solution(0),
        lambda: model.why_not(0, "Wind"),
        lambda: list(model.steps()),
    ):
        with pytest.raises(ValueError, match="sums of weights"):
            call()
    plain = ID3Classifier().fit(X, y, sample_weight=np.ones(14))  # weights of 1: rows
    assert "Outlook" in plain.worked_solution(0)


def test_dask_fit_with_weights_is_refused():
    dd = pytest.importorskip("dask.dataframe")
    X, y = load_play_tennis(return_X_y=True)
    frame = dd.from_pandas(X.assign(y=y), npartitions=2)
    with pytest.raises(NotImplementedError, match="Dask"):
        ID3Classifier().fit(frame.drop(columns="y"), frame["y"], sample_weight=np.ones(14))
    with pytest.raises(NotImplementedError, match="class_weight"):
        ID3Classifier(class_weight="balanced").fit(frame.drop(columns="y"), frame["y"])
    with pytest.raises(NotImplementedError, match="min_weight_fraction_leaf"):
        ID3Classifier(min_weight_fraction_leaf=0.1).fit(frame.drop(columns="y"), frame["y"])


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_the_weighted_search_scores_cuts_as_its_plain_twin_does(n_classes):
    """The search scores cuts by ``w ln w - sum c ln c`` (``WeightedCuts.weighted_scores``, the
    last class's weights what the others leave); its plain twin, ``WeightedCuts.score``, takes
    each side's entropy apart. Same scores to rounding, and the search keeps the cut the plain
    scores choose by the documented rule (the first of those within the tie tolerance)."""
    from id3tree.engine.splits import search_weighted_cuts
    from id3tree.engine.splits.results import TIE_TOLERANCE
    from id3tree.engine.splits.weighted import WeightedCuts

    rng = np.random.default_rng(n_classes)
    lengths = rng.integers(2, 60, size=40)
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    m = int(lengths.sum())
    values = np.round(rng.normal(size=m), 1)  # ties between values: not every step rises
    segment = np.repeat(np.arange(len(lengths)), lengths)
    order = np.lexsort((values, segment))
    values = values[order]
    y = rng.integers(0, n_classes, size=m)
    y[starts[::7, None] + np.arange(2)] = 0  # a few segments begin pure
    weight = rng.uniform(0.1, 3.0, size=m)
    step_up = np.r_[values[1:] > values[:-1], False]
    n_present = lengths.copy()
    cuts = WeightedCuts(step_up, y, weight, starts, lengths, n_present, n_classes)
    pos = cuts.candidates()
    seg, w_left, w_right, h_left, h_right = cuts.score(pos)
    plain = w_left * h_left + w_right * h_right
    fast_seg, fast = cuts.weighted_scores(pos)
    np.testing.assert_array_equal(fast_seg, seg)
    np.testing.assert_allclose(fast, plain, rtol=0, atol=1e-9)
    found = search_weighted_cuts(step_up, y, weight, starts, lengths, n_present, n_classes)
    total = cuts.parent.sum(axis=1)
    for s in range(len(lengths)):
        mine = seg == s
        if not mine.any():
            assert not found.found[s]
            continue
        tied = plain[mine] <= plain[mine].min() + TIE_TOLERANCE * total[s]
        assert found.position[s] == pos[mine][np.argmax(tied)]
        assert found.n_ties[s] == tied.sum()


def _sorted_segments(rng, n_classes, kind):
    """Segments of sorted rows as the weighted search takes them: ties between values, rows
    with no value last, long runs of one class or none, and weights of one kind."""
    lengths = rng.integers(1, 80, size=int(rng.integers(1, 30)))
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    m = int(lengths.sum())
    segment = np.repeat(np.arange(len(lengths)), lengths)
    values = np.round(rng.normal(size=m), int(rng.integers(0, 3)))
    n_present = np.where(rng.random(len(lengths)) < 0.3, rng.integers(0, lengths + 1), lengths)
    values[np.arange(m) - starts[segment] >= n_present[segment]] = np.inf  # (no value: last)
    values = values[np.lexsort((values, segment))]
    y = rng.choice(n_classes, size=m, p=rng.dirichlet(np.full(n_classes, 0.3)))
    if rng.random() < 0.5:
        y = np.sort(y)  # long runs of one class, across segments
    weight = {
        "ones": lambda: np.ones(m),  # cuts of equal counts: exact ties
        "whole": lambda: rng.integers(1, 4, m).astype(float),
        "uniform": lambda: rng.uniform(0.1, 3.0, m),
        "tiny": lambda: rng.uniform(1e-9, 1e-8, m) * 10.0 ** int(rng.integers(-5, 5)),
        # rows of next to no weight: a cut inside a run ties with the run's end
        "mixed": lambda: 10.0 ** rng.uniform(-14, 1, m),
    }[kind]()
    step_up = np.r_[(values[1:] > values[:-1]) & np.isfinite(values[1:]), False]
    return step_up, y, weight, starts, lengths, n_present, n_classes


@pytest.mark.parametrize("kind", ["ones", "whole", "uniform", "tiny", "mixed"])
def test_scoring_only_the_cuts_near_the_best_finds_what_scoring_all_finds(kind, monkeypatch):
    """The weighted search scores only the cuts that may be the best or tied with it
    (``weighted.near_best_scores``: no cut inside a run of one class beats the better end of
    the run); its plain twin, ``all_scores``, scores every candidate. The same search to the
    bit: cut, ties, counts, entropies and gains; and the fast way does leave cuts out."""
    from id3tree.engine.splits import weighted

    rng = np.random.default_rng(len(kind))
    left_out = 0
    for _ in range(300):
        arguments = _sorted_segments(rng, int(rng.integers(2, 6)), kind)
        options = dict(min_leaf=int(rng.choice([1, 1, 2, 5])), min_weight=rng.choice([0, 0, 1.5]))
        found = {}
        for fast in (True, False):
            monkeypatch.setattr(weighted, "NEAR_BEST_ONLY", fast)
            found[fast] = weighted.search_weighted_cuts(*arguments, **options)
        for field in found[True].__slots__:
            a, b = getattr(found[True], field), getattr(found[False], field)
            if a is None or b is None:
                assert a is b, field
                continue
            assert a.dtype == b.dtype and a.shape == b.shape, field
            assert a.tobytes() == b.tobytes(), field  # to the bit (NaN and -0.0 included)
        cuts = weighted.WeightedCuts(*arguments)
        pos = cuts.candidates()
        # (the candidates, the rows with a value and the winners' left sides, each taken by
        # ranges of positions: as a mask of every position would have them)
        step_up, y, weight, starts, lengths, n_present, k = arguments
        offset = np.arange(len(y)) - np.repeat(starts, lengths)
        np.testing.assert_array_equal(
            pos, np.flatnonzero(step_up & (offset < np.repeat(n_present, lengths) - 1))
        )
        with_value = offset < np.repeat(n_present, lengths)
        counts = np.bincount(cuts.cell[with_value], weight[with_value], len(starts) * k)
        assert counts.reshape(-1, k).tobytes() == cuts.present.tobytes()
        last = np.full(len(starts), -1)
        last[found[True].found] = found[True].n_left[found[True].found] - 1
        left = offset <= np.repeat(last, lengths)
        counts = np.bincount(cuts.cell[left], weight[left], len(starts) * k).reshape(-1, k)
        assert (
            counts[found[True].found].tobytes()
            == found[True].side_counts[found[True].found, 0].tobytes()
        )
        total = cuts.parent.sum(axis=1)
        if len(pos):
            left_out += len(pos) - len(weighted.near_best_scores(cuts, pos, total)[0])
    assert left_out > 1000  # (the fast way is not the plain one under another name)


def test_the_rounding_margin_covers_the_rounding_of_the_scores():
    """The margin the fast way widens its bound by is larger than how far the computed scores
    lie from the scores of the exact weights (fractions summed exactly, ``math.fsum`` and
    ``math.log`` on each side)."""
    import math

    from id3tree.engine.splits import weighted

    rng = np.random.default_rng(7)
    step_up, y, weight, starts, lengths, n_present, k = _sorted_segments(rng, 3, "uniform")
    cuts = weighted.WeightedCuts(step_up, y, weight, starts, lengths, n_present, k)
    pos = cuts.candidates()
    seg, scores = cuts.weighted_scores(pos)

    def xlogx(x):
        return x * math.log(x) if x > 0 else 0.0

    worst = 0.0
    for p, s, score in zip(pos.tolist(), seg.tolist(), scores.tolist(), strict=True):
        rows = np.arange(starts[s], starts[s] + n_present[s])
        sides = (rows[rows <= p], rows[rows > p])
        exact = 0.0
        for side in sides:
            by_class = [math.fsum(weight[side][y[side] == c]) for c in range(k)]
            exact += xlogx(math.fsum(by_class)) - sum(xlogx(c) for c in by_class)
        worst = max(worst, abs(score - exact / math.log(2)))
    assert 0 < worst < cuts.rounding_margin()


@pytest.mark.parametrize("n_classes", [2, 3])
def test_scoring_only_the_cuts_near_the_best_grows_the_same_tree(n_classes, monkeypatch):
    """Trees grown with both ways of scoring weighted cuts, node for node: the model file, the
    trace to the last bit, the probabilities (uniform and whole-number weights, ties in
    values, rows with no value, a verbose page)."""
    import contextlib
    import io

    from id3tree.engine.splits import weighted
    from tests.test_grow import everything

    X, y = make_classification(3000, 6, n_informative=4, n_classes=n_classes, random_state=1)
    X[:, 2] = np.round(X[:, 2], 1)
    X[np.random.default_rng(1).random(X.shape) < 0.02] = np.nan
    rng = np.random.default_rng(n_classes)
    for weight, params in (
        (rng.uniform(0.5, 2.0, len(y)), {}),
        (rng.integers(1, 4, len(y)).astype(float), {"min_samples_leaf": 3}),
        (rng.uniform(0.5, 2.0, len(y)), {"criterion": "gain_ratio", "verbose": 2}),
    ):
        fits = {}
        for fast in (True, False):
            monkeypatch.setattr(weighted, "NEAR_BEST_ONLY", fast)
            page = io.StringIO()
            with contextlib.redirect_stdout(page):
                model = ID3Classifier(**params).fit(X, y, sample_weight=weight)
            fits[fast] = (*everything(model, X), page.getvalue())
        assert fits[True] == fits[False]
        assert len(list(model.root_.walk())) > 20


def test_xlogx_of_weights_is_xlogx_to_the_bit():
    """The weighted search's ``x ln x`` (no masked logarithm) against its plain twin,
    ``_entropy.xlogx``: zeros, the smallest and very large weights, and ordinary ones, the
    same to the bit but for the sign of 0."""
    from id3tree.base.entropy import xlogx, xlogx_of_weights

    rng = np.random.default_rng(3)
    weights = np.concatenate(
        [
            rng.uniform(0.0, 3.0, 1000),
            10.0 ** rng.uniform(-300.0, 300.0, 1000),
            [0.0, 5e-324, 2.2e-308, 1.0, 2.0**500],
        ]
    )
    weights[:2000:7] = 0.0
    fast, plain = xlogx_of_weights(weights), xlogx(weights)
    assert (fast == plain).all()
    nonzero = weights > 0  # (0 gives -0.0 one way, 0.0 the other)
    assert fast[nonzero].tobytes() == plain[nonzero].tobytes()
