"""Post-pruning: reduced-error, pessimistic (C4.5) and minimal cost-complexity pruning.

References: Quinlan's worked numbers (C4.5, 1993, p. 41), the exact binomial limit from
scipy.stats.beta, scikit-learn's cost-complexity path on the same grown tree, and the pruned
model's own predictions for reduced-error pruning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn import datasets as sklearn_datasets
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier
from id3tree.datasets import load_car, load_iris
from id3tree.engine.pruning import added_errors, binomial_upper_limit, c45_deviate, copy_tree
from id3tree.trace.tracers import PruningDecision, RecordingTracer


def _internal(model):
    return [node for node in model.root_.walk() if not node.is_leaf]


# -------------------------------------------------------------------------------------------------
# C4.5's upper confidence limit
# -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "e", "printed"), [(6, 0, 0.206), (9, 0, 0.143), (1, 0, 0.750), (16, 1, 0.157)]
)
def test_upper_limit_matches_quinlans_printed_values(n, e, printed):
    # Quinlan (1993), C4.5: Programs for Machine Learning, p. 41, the congressional voting example
    assert round((added_errors(n, e, 0.25) + e) / n, 3) == printed


@pytest.mark.parametrize("n", [1, 2, 6, 9, 50, 1000])
@pytest.mark.parametrize("confidence", [0.05, 0.25, 0.5])
def test_no_errors_is_the_exact_binomial_limit(n, confidence):
    exact = stats.beta.ppf(1 - confidence, 1, n)  # Clopper-Pearson upper limit for 0 of n
    assert added_errors(n, 0, confidence) / n == pytest.approx(exact, rel=1e-12)


def test_normal_approximation_is_close_to_the_exact_limit():
    for n in (20, 100, 1000):
        for e in range(1, n // 2):
            exact = stats.beta.ppf(0.75, e + 1, n - e)
            c45 = (added_errors(n, e, 0.25) + e) / n
            assert abs(c45 - exact) / exact < 0.08, (n, e)
            if n >= 100 and e >= 10:
                assert abs(c45 - exact) / exact < 0.01, (n, e)
    assert binomial_upper_limit(3, 100, 0.25) == pytest.approx(stats.beta.ppf(0.75, 4, 97))


def test_c45_deviate_interpolates_its_table():
    assert c45_deviate(0.25) == pytest.approx(0.84 + (0.25 - 0.84) * 0.25)
    assert c45_deviate(0.05) == pytest.approx(1.65)
    # within a few hundredths of the exact normal deviate
    for cf in (0.01, 0.05, 0.1, 0.25, 0.4):
        assert abs(c45_deviate(cf) - stats.norm.isf(cf)) < 0.05


def test_upper_limit_grows_as_confidence_falls():
    for n, e in [(10, 0), (10, 2), (100, 7)]:
        values = [added_errors(n, e, cf) for cf in (0.5, 0.25, 0.1, 0.01)]
        assert values == sorted(values)
        assert all(v > 0 for v in values)


# -------------------------------------------------------------------------------------------------
# Pessimistic pruning
# -------------------------------------------------------------------------------------------------
def _voting_example():
    """Quinlan's subtree: education spending = n: democrat (6), y: democrat (9), u: republican (1)."""
    spending = ["n"] * 6 + ["y"] * 9 + ["u"]
    party = ["democrat"] * 15 + ["republican"]
    return pd.DataFrame({"education spending": spending}), pd.Series(party, name="party")


def test_pessimistic_pruning_reproduces_quinlans_example():
    X, y = _voting_example()
    tree = ID3Classifier().fit(X, y)
    assert tree.get_n_leaves() == 3
    tracer = RecordingTracer()
    pruned = tree.prune("pessimistic", confidence=0.25, tracer=tracer)
    row = pruned.pruning_.iloc[0]
    # the book: 6 x 0.206 + 9 x 0.143 + 1 x 0.750 = 3.273 for the subtree, 16 x 0.157 = 2.512
    # (it rounds U to three places before multiplying, hence the tolerance)
    assert row["subtree"] == pytest.approx(3.273, abs=0.01)
    assert row["leaf"] == pytest.approx(2.512, abs=0.01)
    assert row["decision"] == "pruned"
    assert pruned.get_n_leaves() == 1 and pruned.root_.prediction == "democrat"
    assert tree.get_n_leaves() == 3  # the original is untouched
    (event,) = tracer.events
    assert isinstance(event, PruningDecision) and event.pruned and event.method == "pessimistic"
    assert "pruned" in str(event)


def test_smaller_confidence_prunes_more():
    X, y = load_car(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    leaves = [tree.prune("pessimistic", confidence=cf).get_n_leaves() for cf in (0.5, 0.25, 0.05)]
    assert leaves == sorted(leaves, reverse=True)
    assert leaves[-1] < tree.get_n_leaves()


def test_pessimistic_decisions_follow_the_rule():
    X, y = load_car(return_X_y=True)
    pruned = ID3Classifier().fit(X, y).prune("pessimistic")
    table = pruned.pruning_
    assert len(table) == len(_internal(ID3Classifier().fit(X, y)))
    pruned_rows = table["decision"] == "pruned"
    assert (table.loc[pruned_rows, "leaf"] <= table.loc[pruned_rows, "subtree"] + 0.1).all()
    assert (table.loc[~pruned_rows, "leaf"] > table.loc[~pruned_rows, "subtree"] + 0.1).all()
    # every leaf's estimate is at least its training errors
    assert (table["leaf"] >= 0).all() and (table["subtree"] >= 0).all()


# -------------------------------------------------------------------------------------------------
# Reduced-error pruning
# -------------------------------------------------------------------------------------------------
def _car_split(seed=0):
    X, y = load_car(return_X_y=True)
    order = np.random.default_rng(seed).permutation(len(X))
    train, val = order[:1000], order[1000:1400]
    return X.iloc[train], y.iloc[train], X.iloc[val], y.iloc[val]


def test_reduced_error_never_hurts_validation_accuracy():
    X, y, X_val, y_val = _car_split()
    tree = ID3Classifier().fit(X, y)
    pruned = tree.prune("reduced_error", X_val, y_val)
    assert pruned.get_n_leaves() < tree.get_n_leaves()
    assert pruned.score(X_val, y_val) >= tree.score(X_val, y_val)
    # the root's row of the table counts exactly the pruned tree's validation errors
    root = pruned.pruning_.set_index("node").loc[tree.root_.node_id]
    kept = root["subtree"] if root["decision"] == "kept" else root["leaf"]
    errors = int(np.sum(pruned.predict(X_val) != y_val.to_numpy()))
    assert kept == errors


def test_reduced_error_is_bottom_up_optimal():
    """Cutting any node the method kept, in the final tree, would add validation errors."""
    X, y, X_val, y_val = _car_split(1)
    pruned = ID3Classifier().fit(X, y).prune("reduced_error", X_val, y_val)
    base = np.sum(pruned.predict(X_val) != y_val.to_numpy())
    for node in _internal(pruned)[:25]:
        saved = node.children, node.feature, node.threshold
        node.children = {}
        node.feature = node.threshold = None
        pruned._set_tree(pruned.root_)
        worse = np.sum(pruned.predict(X_val) != y_val.to_numpy())
        node.children, node.feature, node.threshold = saved
        pruned._set_tree(pruned.root_)
        assert worse > base, node


def test_reduced_error_events_match_the_table():
    X, y, X_val, y_val = _car_split()
    tracer = RecordingTracer()
    pruned = ID3Classifier().fit(X, y).prune("reduced_error", X_val, y_val, tracer=tracer)
    frame = tracer.to_frame()
    assert len(frame) == len(pruned.pruning_)
    np.testing.assert_array_equal(frame["node"], pruned.pruning_["node"])
    np.testing.assert_array_equal(frame["pruned"], pruned.pruning_["decision"] == "pruned")
    assert set(pruned.pruning_["measure"]) == {"validation errors"}


def test_reduced_error_needs_validation_rows_of_known_classes():
    X, y, X_val, y_val = _car_split()
    tree = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="X_val and y_val"):
        tree.prune("reduced_error")
    with pytest.raises(ValueError, match="not fitted on"):
        tree.prune("reduced_error", X_val.iloc[:3], ["unacc", "good", "superb"])
    with pytest.raises(ValueError, match="method must be one of"):
        tree.prune("alpha-beta")
    with pytest.raises(ValueError, match="confidence"):
        tree.prune("pessimistic", confidence=0.9)
    with pytest.raises(ValueError, match="ccp_alpha"):
        tree.prune("cost_complexity")


# -------------------------------------------------------------------------------------------------
# Cost-complexity pruning against scikit-learn
# -------------------------------------------------------------------------------------------------
def _shape(model):
    """The tree up to the order of branches and the choice among tied splits: each node's class
    counts and its children's shapes, sorted. Cost-complexity pruning sees only this."""
    if isinstance(model, DecisionTreeClassifier):
        t = model.tree_
        counts = np.rint(t.value[:, 0, :] * t.weighted_n_node_samples[:, None]).astype(int)

        def shape(i):
            if t.children_left[i] < 0:
                return (tuple(counts[i].tolist()), ())
            kids = sorted([shape(t.children_left[i]), shape(t.children_right[i])])
            return (tuple(counts[i].tolist()), tuple(kids))

        return shape(0)

    def shape(node):
        kids = sorted(shape(c) for c in node.children.values())
        return (tuple(int(c) for c in node.class_counts.values()), tuple(kids))

    return shape(model.root_)


def _random_numeric(seed, n=200):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)).round(3)
    y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(scale=0.7, size=n) > 0.5).astype(int)
    y[rng.random(n) < 0.1] += 1  # a third class
    return X, y


def _numeric_case(case):
    if isinstance(case, int):
        return _random_numeric(case)
    return getattr(sklearn_datasets, case)(return_X_y=True)


NUMERIC_CASES = ["load_iris", "load_wine", "load_breast_cancer", *range(12)]


@pytest.mark.parametrize("case", NUMERIC_CASES)
def test_cost_complexity_path_matches_scikit_learn(case):
    X, y = _numeric_case(case)
    ours = ID3Classifier().fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    if _shape(ours) != _shape(theirs):  # a tie between features was broken differently
        pytest.skip("the two grown trees differ")
    path = ours.cost_complexity_pruning_path(X, y)
    reference = theirs.cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path.ccp_alphas, reference.ccp_alphas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(path.impurities, reference.impurities, rtol=1e-9, atol=1e-12)
    # between two steps of the path, the pruned trees are the same too
    alphas = reference.ccp_alphas
    middles = (alphas[1:] + alphas[:-1]) / 2
    for a in middles[:: max(1, len(middles) // 5)]:
        pruned = ID3Classifier(ccp_alpha=float(a)).fit(X, y)
        sk = DecisionTreeClassifier(criterion="entropy", random_state=0, ccp_alpha=a).fit(X, y)
        assert pruned.get_n_leaves() == sk.get_n_leaves()
        assert _shape(pruned) == _shape(sk)


def test_the_grown_trees_are_often_the_same():
    """So that the comparison above is not vacuous."""
    same = []
    for case in NUMERIC_CASES:
        X, y = _numeric_case(case)
        theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
        same.append(_shape(ID3Classifier().fit(X, y)) == _shape(theirs))
    assert all(same[:3]) and sum(same) >= 6


def test_cost_complexity_path_on_iris():
    X, y = load_iris(return_X_y=True)
    path = ID3Classifier().cost_complexity_pruning_path(X, y)
    assert path.ccp_alphas[0] == 0 and path.impurities[0] == 0  # grown until pure
    assert path.impurities[-1] == pytest.approx(np.log2(3))  # only the root is left
    assert np.all(np.diff(path.ccp_alphas) >= 0) and np.all(np.diff(path.impurities) >= 0)


def test_cost_complexity_table_and_prune_agree_with_ccp_alpha():
    X, y = load_car(return_X_y=True)
    fitted = ID3Classifier(ccp_alpha=0.005).fit(X, y)
    pruned = ID3Classifier().fit(X, y).prune("cost_complexity", ccp_alpha=0.005)
    assert fitted.to_text() == pruned.to_text()
    table = fitted.pruning_
    assert (table.loc[table["decision"] == "pruned", "alpha"] <= 0.005).all()
    assert (table.loc[table["decision"] == "kept", "alpha"] > 0.005).all()
    # the kept nodes are exactly the internal nodes of the pruned tree
    kept = set(table.loc[table["decision"] == "kept", "node"])
    assert kept == {node.node_id for node in _internal(fitted)}
    # the trace keeps the rows of the nodes that are left, and no chosen split at a new leaf
    trace = fitted.trace_
    assert set(trace["node"]) == {node.node_id for node in fitted.root_.walk()}
    chosen = set(trace.loc[trace["chosen"].astype(bool), "node"])
    assert chosen == {node.node_id for node in _internal(fitted)}


def test_ccp_alpha_is_checked():
    X, y = load_iris(return_X_y=True)
    for bad in (-0.1, "a", True):
        with pytest.raises(ValueError, match="ccp_alpha"):
            ID3Classifier(ccp_alpha=bad).fit(X, y)
    assert ID3Classifier(ccp_alpha=10).fit(X, y).get_n_leaves() == 1


# -------------------------------------------------------------------------------------------------
# Copies and round trips
# -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["reduced_error", "pessimistic", "cost_complexity"])
def test_pruned_copy_saves_and_loads(method, tmp_path):
    X, y, X_val, y_val = _car_split()
    tree = ID3Classifier().fit(X, y)
    before = tree.to_text()
    args = (X_val, y_val) if method == "reduced_error" else ()
    pruned = tree.prune(method, *args, ccp_alpha=0.003)
    assert tree.to_text() == before and not hasattr(tree, "pruning_")
    assert pruned.get_n_leaves() < tree.get_n_leaves()
    again = ID3Classifier.from_json(pruned.to_json())
    np.testing.assert_array_equal(again.predict(X_val), pruned.predict(X_val))
    # pruned nodes keep their ids from the grown tree
    grown_ids = {node.node_id for node in tree.root_.walk()}
    assert {node.node_id for node in pruned.root_.walk()} <= grown_ids
    assert all(node.stop_reason for node in pruned.root_.walk() if node.is_leaf)


def test_copy_tree_is_deep():
    X, y = load_iris(return_X_y=True)
    root = ID3Classifier().fit(X, y).root_
    copy = copy_tree(root)
    pairs = list(zip(root.walk(), copy.walk()))
    assert len(pairs) == sum(1 for _ in root.walk())
    for a, b in pairs:
        assert a is not b and a.children is not b.children
        assert (a.node_id, a.feature, a.threshold, a.class_counts) == (
            b.node_id,
            b.feature,
            b.threshold,
            b.class_counts,
        )
