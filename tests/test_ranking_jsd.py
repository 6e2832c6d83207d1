"""jsd_screen against scipy, macroclasses, outlier trimming, and JSDSelector in scikit-learn."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import jensenshannon
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from id3tree import ID3Classifier, jensen_shannon_divergence
from id3tree.datasets import load_car, load_iris
from id3tree.ranking import JSDSelector, jsd_screen


def scipy_jsd(x: np.ndarray, in_class: np.ndarray, bins: int) -> float:
    """The reference: histograms on the column's edges, scipy's distance squared."""
    edges = np.histogram_bin_edges(x, bins=bins)
    p = np.histogram(x[in_class], edges)[0].astype(float)
    q = np.histogram(x[~in_class], edges)[0].astype(float)
    return jensenshannon(p / p.sum(), q / q.sum(), base=2) ** 2


def test_matches_scipy_on_random_numeric_data():
    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b", "c"], 600)
    X = pd.DataFrame(
        {f"f{k}": rng.normal(loc=(y == "b") * k * 0.5, scale=1 + k, size=600) for k in range(5)}
    )
    for bins in (5, 25, 100):
        screen = jsd_screen(X, y, bins=bins)
        for label in "abc":
            for column in X.columns:
                expected = scipy_jsd(X[column].to_numpy(), y == label, bins)
                assert screen.loc[label, column] == pytest.approx(expected, abs=1e-12)


def test_matches_the_pairwise_jsd_for_categories_and_missing_values():
    X, y = load_car(return_X_y=True)
    X = X.copy()
    X.loc[y == "unacc", "safety"] = None  # missing values are a bin of their own
    screen = jsd_screen(X, y)
    for label in y.unique():
        for column in X.columns:
            table = pd.crosstab(X[column].fillna("<missing>"), y == label)
            expected = jensen_shannon_divergence(table[True], table[False])
            assert screen.loc[label, column] == pytest.approx(expected, abs=1e-12)


def test_exact_without_epsilon_disjoint_is_one_identical_is_zero():
    X = pd.DataFrame({"apart": [0.0, 0.1, 0.2, 9.8, 9.9, 10.0], "same": [1, 2, 3, 1, 2, 3]})
    screen = jsd_screen(X, list("aaabbb"), bins=3)
    assert screen["apart"].tolist() == [1.0, 1.0]
    assert screen["same"].tolist() == [0.0, 0.0]


def test_layout_and_labels():
    X, y = load_iris(return_X_y=True)
    screen = jsd_screen(X, y)
    assert screen.index.tolist() == ["setosa", "versicolor", "virginica"]
    assert screen.columns.tolist() == X.columns.tolist()
    assert (screen.index.name, screen.columns.name) == ("class", "feature")


def test_macroclasses_are_every_proper_subset_and_complements_agree():
    rng = np.random.default_rng(1)
    y = rng.choice(list("ABCD"), 400)
    X = pd.DataFrame({"x": rng.normal(size=400) + (y == "A"), "z": rng.choice(list("uvw"), 400)})
    screen = jsd_screen(X, y, macroclasses=True)
    assert len(screen) == 2**4 - 2
    assert screen.index[:5].tolist() == ["A", "B", "C", "D", "A+B"]
    assert screen.index[-1] == "B+C+D"
    for label in screen.index:
        members = set(label.split("+"))
        complement = "+".join(sorted(set("ABCD") - members))
        pd.testing.assert_series_equal(
            screen.loc[label], screen.loc[complement], check_names=False, atol=1e-12
        )
    plain = jsd_screen(X, y)
    pd.testing.assert_frame_equal(screen.loc[list("ABCD")], plain)


def test_macroclasses_refuse_too_many_classes():
    y = np.arange(13).repeat(2)
    with pytest.raises(ValueError, match="at most 12"):
        jsd_screen(pd.DataFrame({"x": np.arange(26.0)}), y, macroclasses=True)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.one_of(st.none(), st.floats(-1e6, 1e6)), st.sampled_from("abc")),
        min_size=2,
        max_size=80,
    ).filter(lambda rows: len({label for _, label in rows}) >= 2),
    st.integers(1, 40),
)
def test_jsd_is_between_0_and_1(rows, bins):
    values, labels = zip(*rows)
    screen = jsd_screen(pd.DataFrame({"x": pd.array(values, dtype="Float64")}), labels, bins=bins)
    assert ((screen >= 0) & (screen <= 1)).all().all()


def test_outliers_coarsen_the_bins_and_trimming_restores_the_divergence():
    rng = np.random.default_rng(2)
    y = np.repeat(["A", "B"], 500)
    x = np.r_[rng.normal(0, 1, 500), rng.normal(4, 1, 500)]
    clean = jsd_screen(pd.DataFrame({"x": x}), y).loc["A", "x"]
    x_out = x.copy()
    x_out[:5] = 1000.0  # a few wild values in class A stretch the 25 bins
    coarse = jsd_screen(pd.DataFrame({"x": x_out}), y).loc["A", "x"]
    trimmed = jsd_screen(pd.DataFrame({"x": x_out}), y, trim_outliers=1.5).loc["A", "x"]
    assert coarse < 0.2 < 0.7 < clean
    assert trimmed == pytest.approx(clean, abs=0.05)


def test_too_fine_bins_make_overlapping_classes_look_apart():
    rng = np.random.default_rng(3)
    y = np.repeat(["B", "C"], 200)
    X = pd.DataFrame({"x": rng.normal(size=400)})  # one distribution for both classes
    assert jsd_screen(X, y, bins=25).loc["B", "x"] < 0.2
    assert jsd_screen(X, y, bins=5000).loc["B", "x"] > 0.9


def test_bad_targets_are_clear_errors():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="one class"):
        jsd_screen(X, ["a", "a", "a"])
    with pytest.raises(ValueError, match="missing label"):
        jsd_screen(X, ["a", None, "b"])
    with pytest.raises(ValueError, match="trim_outliers"):
        jsd_screen(X, ["a", "b", "b"], trim_outliers=-1)


# -------------------------------------------------------------------------------------------------
# JSDSelector
# -------------------------------------------------------------------------------------------------
@parametrize_with_checks([JSDSelector()])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_fitted_attributes_and_selection_on_iris():
    X, y = load_iris(return_X_y=True)
    selector = JSDSelector().fit(X, y)
    screen = jsd_screen(X, y)
    np.testing.assert_allclose(selector.scores_, screen.max(axis=0).to_numpy())
    pd.testing.assert_frame_equal(selector.jsd_, screen)
    assert selector.classes_.tolist() == ["setosa", "versicolor", "virginica"]
    # each class's best feature: petal_length for setosa (tie with petal_width, first wins),
    # petal_width for versicolor, petal_length for virginica
    assert selector.get_feature_names_out().tolist() == ["petal_length", "petal_width"]
    assert selector.get_support().tolist() == [False, False, True, True]
    assert selector.transform(X).columns.tolist() == ["petal_length", "petal_width"]


def test_top_k_per_class_threshold():
    X, y = load_iris(return_X_y=True)
    assert JSDSelector(per_class=False).fit(X, y).get_feature_names_out().tolist() == [
        "petal_length"
    ]
    assert JSDSelector(top_k=3, per_class=False).fit(X, y).get_support().sum() == 3
    assert JSDSelector(top_k=10).fit(X, y).get_support().all()  # all when fewer than top_k
    assert JSDSelector(threshold=0.6).fit(X, y).get_feature_names_out().tolist() == [
        "sepal_length",
        "petal_length",
        "petal_width",
    ]
    with pytest.raises(ValueError, match="top_k"):
        JSDSelector(top_k=0).fit(X, y)


def test_numpy_arrays_and_mixed_dataframes():
    X, y = load_iris(return_X_y=True)
    selector = JSDSelector().fit(X.to_numpy(), y.to_numpy())
    assert selector.get_feature_names_out().tolist() == ["x2", "x3"]
    assert selector.transform(X.to_numpy()).shape == (150, 2)
    cars, labels = load_car(return_X_y=True)
    chosen = JSDSelector(top_k=1).fit(cars, labels).transform(cars)
    assert isinstance(chosen, pd.DataFrame) and (chosen.dtypes == cars.dtypes[chosen.columns]).all()


def test_in_a_pipeline_tuned_by_grid_search():
    X, y = load_iris(return_X_y=True)
    pipeline = Pipeline(
        [("select", JSDSelector()), ("tree", DecisionTreeClassifier(random_state=0))]
    )
    search = GridSearchCV(pipeline, {"select__top_k": [1, 2, 4]}, cv=3).fit(X, y)
    assert search.best_params_["select__top_k"] in (1, 2, 4)
    assert search.score(X, y) > 0.9
    with_id3 = Pipeline([("select", JSDSelector(top_k=2)), ("tree", ID3Classifier(max_depth=3))])
    assert clone(with_id3).fit(X, y).score(X, y) > 0.9
