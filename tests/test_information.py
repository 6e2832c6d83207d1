"""Tests for id3tree.information: textbook values, scipy / scikit-learn references, properties.

Every expected value is either a published one (Quinlan's Play Tennis, Fisher's iris) or computed
here independently of id3tree (scipy, scikit-learn, pandas, numpy), never a recorded output of our
own code.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special as sp_special
from scipy import stats as sp_stats
from scipy.spatial import distance as sp_distance
from sklearn.metrics import mutual_info_score

from id3tree.datasets import load_iris, load_play_tennis
from id3tree.engine.splits import TIE_TOLERANCE
from id3tree.information import (
    _bin,
    candidate_splits,
    conditional_entropy,
    contingency_table,
    entropy,
    entropy_from_counts,
    gain_ratio,
    information_gain,
    jensen_shannon_divergence,
    kl_divergence,
    mutual_information,
)

LN2 = math.log(2)
TENNIS_FEATURES = ["Outlook", "Temperature", "Humidity", "Wind"]


# ---------------------------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------------------------
def ref_categorical_codes(values) -> np.ndarray:
    """Codes 0..L-1 for the distinct values, L for missing (None, NaN, pd.NA), via pandas."""
    codes, uniques = pd.factorize(pd.Series(list(values), dtype=object))
    codes = codes.astype(np.int64)
    codes[codes < 0] = len(uniques)
    return codes


def ref_numeric_codes(x, bins) -> np.ndarray:
    """Equal-width bins as numpy.histogram makes them (last bin closed), NaN a bin of its own."""
    x = np.asarray(x, dtype=float)
    present = ~np.isnan(x)
    codes = np.zeros(len(x), dtype=np.int64)
    if present.any():
        edges = np.histogram_bin_edges(x[present], bins=bins)
        n_bins = len(edges) - 1
        codes[present] = np.digitize(x[present], edges[1:-1])  # max falls in the last bin
        # the reference agrees with numpy.histogram itself
        counts = np.bincount(codes[present], minlength=n_bins)
        np.testing.assert_array_equal(counts, np.histogram(x[present], bins=bins)[0])
        codes[~present] = n_bins
    return codes


def ref_entropy_of_codes(codes, base=2.0) -> float:
    return float(sp_stats.entropy(np.bincount(codes), base=base))


def ref_joint_table(x_codes, y_codes) -> np.ndarray:
    """Joint counts of two code columns, all-zero rows and columns removed."""
    table = np.zeros((x_codes.max() + 1, y_codes.max() + 1), dtype=np.int64)
    np.add.at(table, (x_codes, y_codes), 1)
    return table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]


def ref_gain_numeric(x, y) -> float:
    """Best midpoint split of a numeric x by brute force, NaN a third branch; 0 if no midpoint."""
    x = np.asarray(x, dtype=float)
    y_codes = ref_categorical_codes(y)
    n = len(x)
    parent = ref_entropy_of_codes(y_codes)
    missing = np.isnan(x)
    values = np.unique(x[~missing])
    if len(values) < 2:
        return 0.0
    best = math.inf
    for t in (values[:-1] + values[1:]) / 2:
        left, right = ~missing & (x <= t), ~missing & (x > t)
        overall = sum(
            side.sum() / n * ref_entropy_of_codes(y_codes[side])
            for side in (left, right, missing)
            if side.any()
        )
        best = min(best, overall)
    return parent - best


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------
labels = st.sampled_from(["a", "b", "c", "d"])
missing_or_label = st.one_of(labels, st.sampled_from([None, np.nan]))


@st.composite
def categorical_pairs(draw, min_size=1, max_size=60, with_missing=True):
    n = draw(st.integers(min_size, max_size))
    element = missing_or_label if with_missing else labels
    x = draw(st.lists(element, min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from(["u", "v", "w"]), min_size=n, max_size=n))
    return x, y


@st.composite
def numeric_pairs(draw, max_size=60, nan=True):
    n = draw(st.integers(1, max_size))
    raw = draw(st.lists(st.integers(-6, 6), min_size=n, max_size=n))
    x = np.array(raw, dtype=float) / 2.0  # many duplicates
    if nan:
        mask = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        x[np.array(mask) & draw(st.booleans())] = np.nan
    y = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return x, np.array(y)


counts_lists = st.lists(st.integers(0, 1000), min_size=1, max_size=12).filter(lambda c: sum(c) > 0)
float_counts = st.lists(
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=12
).filter(lambda c: sum(c) > 0)


@st.composite
def distribution_pairs(draw, positive_q=False):
    k = draw(st.integers(1, 10))
    p = draw(st.lists(st.integers(0, 50), min_size=k, max_size=k).filter(lambda c: sum(c) > 0))
    low = 1 if positive_q else 0
    q = draw(st.lists(st.integers(low, 50), min_size=k, max_size=k).filter(lambda c: sum(c) > 0))
    return np.array(p, dtype=float), np.array(q, dtype=float)


# ---------------------------------------------------------------------------------------------
# Play Tennis (Quinlan 1986; Mitchell 1997, ch. 3)
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tennis():
    return load_play_tennis()


@pytest.fixture(scope="module")
def iris():
    return load_iris()


def test_play_tennis_entropy_by_hand(tennis):
    by_hand = -(9 / 14) * math.log2(9 / 14) - (5 / 14) * math.log2(5 / 14)
    assert entropy(tennis["Play"]) == pytest.approx(by_hand, abs=1e-12)
    assert round(entropy(tennis["Play"]), 4) == 0.9403
    assert entropy_from_counts([9, 5]) == pytest.approx(by_hand, abs=1e-12)


@pytest.mark.parametrize(
    ("feature", "published"),
    [("Outlook", 0.2467), ("Temperature", 0.0292), ("Humidity", 0.1518), ("Wind", 0.0481)],
)
def test_play_tennis_gains(tennis, feature, published):
    assert round(information_gain(tennis[feature], tennis["Play"]), 4) == published


@pytest.mark.parametrize("feature", TENNIS_FEATURES)
def test_play_tennis_gain_is_mutual_information(tennis, feature):
    x, y = tennis[feature], tennis["Play"]
    gain = information_gain(x, y)
    assert gain == pytest.approx(mutual_information(x, y), abs=1e-12)
    assert gain == pytest.approx(entropy(y) - conditional_entropy(x, y), abs=1e-12)


@pytest.mark.parametrize("feature", TENNIS_FEATURES)
def test_play_tennis_gain_ratio_by_hand(tennis, feature):
    x, y = tennis[feature], tennis["Play"]
    sizes = x.value_counts().to_numpy()
    split_info = -sum(s / 14 * math.log2(s / 14) for s in sizes)
    assert entropy(x) == pytest.approx(split_info, abs=1e-12)
    assert gain_ratio(x, y) == pytest.approx(information_gain(x, y) / split_info, abs=1e-12)


def test_play_tennis_outlook_gain_ratio_published(tennis):
    # Quinlan (1993), C4.5: gain 0.247 / split info 1.577 = 0.156
    assert round(gain_ratio(tennis["Outlook"], tennis["Play"]), 3) == 0.156


# ---------------------------------------------------------------------------------------------
# Iris
# ---------------------------------------------------------------------------------------------
def test_iris_petal_width_best_threshold(iris):
    table = candidate_splits(iris["petal_width"], iris["species"])
    at = table.loc[table["threshold"] == 0.8]
    assert len(at) == 1
    # the left side is all setosa (50), the right side an even versicolor/virginica mix (1 bit)
    assert float(at["overall_entropy"].iloc[0]) == pytest.approx(2 / 3, abs=1e-12)
    assert table["overall_entropy"].min() == pytest.approx(2 / 3, abs=1e-12)
    assert float(table.loc[table["overall_entropy"].idxmin(), "threshold"]) == 0.8
    at_105 = table.loc[table["threshold"] == 1.05, "overall_entropy"]
    assert len(at_105) == 1 and float(at_105.iloc[0]) > 2 / 3 + 1e-6


def test_iris_candidate_thresholds_are_midpoints(iris):
    x = iris["petal_width"].to_numpy()
    table = candidate_splits(iris["petal_width"], iris["species"])
    distinct = np.unique(x)
    np.testing.assert_array_equal(table["threshold"].to_numpy(), (distinct[:-1] + distinct[1:]) / 2)
    assert np.all(np.diff(table["threshold"].to_numpy()) > 0)
    assert np.all(table["n_left"] + table["n_right"] == 150)
    expected_left = [(x <= t).sum() for t in table["threshold"]]
    np.testing.assert_array_equal(table["n_left"].to_numpy(), expected_left)
    assert list(table.columns) == [
        "threshold",
        "n_left",
        "n_right",
        "entropy_left",
        "entropy_right",
        "overall_entropy",
        "gain",
    ]


def test_iris_petal_length_and_width_tie(iris):
    y = iris["species"]
    gain_length = information_gain(iris["petal_length"], y)
    gain_width = information_gain(iris["petal_width"], y)
    assert gain_length == pytest.approx(gain_width, abs=1e-12)
    assert gain_width == pytest.approx(math.log2(3) - 2 / 3, abs=1e-12)


@pytest.mark.parametrize("feature", ["sepal_length", "sepal_width", "petal_length", "petal_width"])
def test_iris_numeric_gain_brute_force(iris, feature):
    x, y = iris[feature], iris["species"]
    assert information_gain(x, y) == pytest.approx(ref_gain_numeric(x, y), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Entropy
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=100)
@given(counts=counts_lists)
def test_entropy_from_counts_matches_scipy(counts):
    assert entropy_from_counts(counts) == pytest.approx(sp_stats.entropy(counts, base=2), abs=1e-12)
    assert entropy_from_counts(counts, base=np.e) == pytest.approx(
        sp_stats.entropy(counts), abs=1e-12
    )
    assert entropy_from_counts(counts, base=10) == pytest.approx(
        sp_stats.entropy(counts, base=10), abs=1e-12
    )


@settings(deadline=None, max_examples=50)
@given(counts=float_counts)
def test_entropy_from_float_counts_matches_scipy(counts):
    assert entropy_from_counts(counts) == pytest.approx(sp_stats.entropy(counts, base=2), abs=1e-12)


@settings(deadline=None, max_examples=100)
@given(counts=counts_lists)
def test_entropy_bounds_and_type(counts):
    h = entropy_from_counts(counts)
    assert type(h) is float
    assert 0.0 <= h <= math.log2(len(counts)) + 1e-12


@settings(deadline=None, max_examples=60)
@given(y=st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=80))
def test_entropy_of_labels_matches_scipy(y):
    counts = pd.Series(y).value_counts().to_numpy()
    h = entropy(y)
    assert type(h) is float
    assert h == pytest.approx(sp_stats.entropy(counts, base=2), abs=1e-12)
    assert entropy(y, base=np.e) == pytest.approx(sp_stats.entropy(counts), abs=1e-12)
    assert entropy(y, base=10) == pytest.approx(sp_stats.entropy(counts, base=10), abs=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7, 8, 10, 16, 100])
def test_entropy_uniform_is_log2_k(k):
    assert entropy_from_counts([7] * k) == pytest.approx(math.log2(k), abs=1e-12)
    assert entropy(list(range(k)) * 3) == pytest.approx(math.log2(k), abs=1e-12)


def test_entropy_returns_python_float():
    assert type(entropy(np.array([1, 2, 2]))) is float
    assert type(entropy_from_counts(np.array([3, 4]))) is float
    assert type(conditional_entropy(["a", "b"], [0, 1])) is float
    assert type(information_gain(["a", "b"], [0, 1])) is float
    assert type(information_gain(np.array([1.0, 2.0]), [0, 1])) is float
    assert type(gain_ratio(np.array([1.0, 2.0]), [0, 1])) is float
    assert type(mutual_information(np.array([1.0, 2.0]), [0, 1])) is float
    assert type(kl_divergence([1, 2], [2, 1])) is float
    assert type(jensen_shannon_divergence([1, 2], [2, 1])) is float


@pytest.mark.parametrize("missing", [None, np.nan, pd.NA])
def test_missing_labels_are_one_category(missing):
    y = ["a", "a", missing, "b", missing, missing]
    expected = sp_stats.entropy([2, 1, 3], base=2)
    assert entropy(y) == pytest.approx(expected, abs=1e-12)
    assert entropy(pd.Series(y, dtype=object)) == pytest.approx(expected, abs=1e-12)


def test_mixed_missing_markers_are_one_category():
    y = ["a", None, np.nan, pd.NA, "a", "b"]
    assert entropy(y) == pytest.approx(sp_stats.entropy([2, 1, 3], base=2), abs=1e-12)
    y_num = pd.Series([1.0, np.nan, 2.0, np.nan])
    assert entropy(y_num) == pytest.approx(1.5, abs=1e-12)


@pytest.mark.parametrize("bad", [[1, -1, 3], [], [[1, 2], [3, 4]], [1, np.nan], [1, np.inf]])
def test_entropy_from_counts_errors(bad):
    with pytest.raises(ValueError):
        entropy_from_counts(bad)


# ---------------------------------------------------------------------------------------------
# Conditional entropy
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=80)
@given(pair=categorical_pairs())
def test_conditional_entropy_is_joint_minus_marginal(pair):
    x, y = pair
    x_codes, y_codes = ref_categorical_codes(x), ref_categorical_codes(y)
    joint = ref_joint_table(x_codes, y_codes)
    h_joint = sp_stats.entropy(joint.ravel(), base=2)
    h_x = sp_stats.entropy(joint.sum(axis=1), base=2)
    assert conditional_entropy(x, y) == pytest.approx(h_joint - h_x, abs=1e-12)
    h_joint_e = sp_stats.entropy(joint.ravel())
    h_x_e = sp_stats.entropy(joint.sum(axis=1))
    assert conditional_entropy(x, y, base=np.e) == pytest.approx(h_joint_e - h_x_e, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Mutual information
# ---------------------------------------------------------------------------------------------
def ref_mutual_information(x_codes, y_codes) -> float:
    return mutual_info_score(x_codes, y_codes) / LN2


@settings(deadline=None, max_examples=80)
@given(pair=categorical_pairs())
def test_mutual_information_categorical_matches_sklearn(pair):
    x, y = pair
    x_codes, y_codes = ref_categorical_codes(x), ref_categorical_codes(y)
    mi = mutual_information(x, y)
    assert mi == pytest.approx(ref_mutual_information(x_codes, y_codes), abs=1e-12)
    assert mutual_information(x, y, base=np.e) == pytest.approx(
        mutual_info_score(x_codes, y_codes), abs=1e-12
    )
    assert mi == pytest.approx(mutual_information(y, x), abs=1e-12)
    assert mi == pytest.approx(information_gain(x, y), abs=1e-12)
    bound = min(ref_entropy_of_codes(x_codes), ref_entropy_of_codes(y_codes))
    assert -1e-12 <= mi <= bound + 1e-12


@settings(deadline=None, max_examples=80)
@given(
    # quarters: numpy refuses equal-width bins over a range of a few ulps (next test)
    x=st.lists(
        st.one_of(st.integers(-400, 400).map(lambda v: v / 4), st.just(np.nan)),
        min_size=1,
        max_size=60,
    ),
    y=st.data(),
    bins=st.sampled_from([2, 3, 5, 10]),
)
def test_mutual_information_numeric_matches_sklearn(x, y, bins):
    x = np.array(x, dtype=float)
    # text labels: a numeric y would be binned too
    y = np.array(y.draw(st.lists(st.sampled_from("pqrs"), min_size=len(x), max_size=len(x))))
    x_codes = ref_numeric_codes(x, bins)
    y_codes = ref_categorical_codes(y)
    mi = mutual_information(x, y, bins=bins)
    assert mi == pytest.approx(ref_mutual_information(x_codes, y_codes), abs=1e-12)
    bound = min(ref_entropy_of_codes(x_codes), ref_entropy_of_codes(y_codes))
    assert -1e-12 <= mi <= bound + 1e-12


@settings(deadline=None, max_examples=60)
@given(pair=numeric_pairs(), other=st.data(), bins=st.sampled_from([2, 4, 10]))
def test_mutual_information_two_numeric_columns_symmetric(pair, other, bins):
    x, _ = pair
    z = np.array(
        other.draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=len(x), max_size=len(x)))
    )
    expected = ref_mutual_information(ref_numeric_codes(x, bins), ref_numeric_codes(z, bins))
    assert mutual_information(x, z, bins=bins) == pytest.approx(expected, abs=1e-12)
    assert mutual_information(z, x, bins=bins) == pytest.approx(expected, abs=1e-12)


def test_mutual_information_range_of_a_few_ulps_is_a_clear_error():
    x = [100.0, float(np.nextafter(100.0, 0.0))]
    with pytest.raises(ValueError, match="bins"):
        mutual_information(x, ["p", "q"], bins=2)


def test_mutual_information_bins_change_the_result():
    rng = np.random.default_rng(0)
    x = rng.normal(size=300)
    y = (x + rng.normal(scale=0.5, size=300) > 0).astype(int)
    results = {}
    for bins in (2, 10, 30):
        results[bins] = mutual_information(x, y, bins=bins)
        expected = ref_mutual_information(ref_numeric_codes(x, bins), y)
        assert results[bins] == pytest.approx(expected, abs=1e-12)
    assert len({round(v, 10) for v in results.values()}) == 3
    assert mutual_information(x, y) == pytest.approx(results[10], abs=1e-15)  # default bins=10


@pytest.mark.parametrize(
    "x",
    [np.full(8, 3.5), np.full(8, np.nan), pd.Series([pd.NA] * 8, dtype="Float64"), np.zeros(8)],
)
def test_mutual_information_constant_or_all_missing_is_zero(x):
    y = [0, 1, 0, 1, 1, 1, 0, 2]
    with np.errstate(all="raise"):
        mi = mutual_information(x, y)
    assert mi == 0.0 and not math.isnan(mi)
    assert mutual_information(y, x) == 0.0


# ---------------------------------------------------------------------------------------------
# KL and Jensen-Shannon divergences
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=100)
@given(pq=distribution_pairs(positive_q=True))
def test_kl_divergence_matches_scipy(pq):
    p, q = pq
    pn, qn = p / p.sum(), q / q.sum()
    expected = sp_special.rel_entr(pn, qn).sum() / LN2
    kl = kl_divergence(p, q)
    assert kl == pytest.approx(expected, abs=1e-12)
    assert kl == pytest.approx(sp_stats.entropy(p, q, base=2), abs=1e-12)
    assert kl_divergence(p, q, base=np.e) == pytest.approx(sp_stats.entropy(p, q), abs=1e-12)
    assert kl >= -1e-12
    # counts are normalised: scaling either side changes nothing
    assert kl_divergence(p * 7, q * 0.25) == pytest.approx(kl, abs=1e-12)
    assert kl_divergence(pn, qn) == pytest.approx(kl, abs=1e-12)


def test_kl_divergence_infinite_where_q_is_zero():
    assert kl_divergence([1, 1], [1, 0]) == math.inf
    assert kl_divergence([1, 0], [1, 1]) == pytest.approx(1.0, abs=1e-12)  # log2(1 / 0.5)
    assert kl_divergence([1, 0], [1, 0]) == 0.0


@settings(deadline=None, max_examples=100)
@given(pq=distribution_pairs())
def test_kl_divergence_with_zeros_matches_scipy(pq):
    p, q = pq
    expected = sp_special.rel_entr(p / p.sum(), q / q.sum()).sum() / LN2
    result = kl_divergence(p, q)
    if math.isinf(expected):
        assert result == math.inf
    else:
        assert result == pytest.approx(expected, abs=1e-12)


def test_kl_divergence_errors():
    with pytest.raises(ValueError, match="2.*3"):
        kl_divergence([1, 2], [1, 2, 3])
    for bad in ([1, -1], [0, 0], []):
        with pytest.raises(ValueError):
            kl_divergence(bad, [1, 1])
        with pytest.raises(ValueError):
            kl_divergence([1, 1], bad)


def ref_jsd(p, q) -> float:
    root = sp_distance.jensenshannon(p, q, base=2)
    return 0.0 if math.isnan(root) else float(root) ** 2


@settings(deadline=None, max_examples=150)
@given(pq=distribution_pairs())
def test_jensen_shannon_matches_scipy(pq):
    p, q = pq
    jsd = jensen_shannon_divergence(p, q)
    assert jsd == pytest.approx(ref_jsd(p, q), abs=1e-12)
    assert jsd == pytest.approx(jensen_shannon_divergence(q, p), abs=1e-15)
    assert 0.0 <= jsd <= 1.0
    assert jensen_shannon_divergence(p, q, base=np.e) == pytest.approx(jsd * LN2, abs=1e-12)
    assert jensen_shannon_divergence(p * 3, q * 0.5) == pytest.approx(jsd, abs=1e-12)


@pytest.mark.parametrize(
    ("p", "q"), [([1, 0], [0, 1]), ([1, 2, 0, 0], [0, 0, 5, 1]), ([3, 0, 0], [0, 0, 1])]
)
def test_jensen_shannon_disjoint_supports_is_one(p, q):
    assert jensen_shannon_divergence(p, q) == 1.0


@pytest.mark.parametrize("p", [[1], [1, 1], [3, 0, 2], [0.2, 0.3, 0.5]])
def test_jensen_shannon_equal_is_zero(p):
    assert jensen_shannon_divergence(p, p) == 0.0
    assert jensen_shannon_divergence(p, np.array(p) * 4) == pytest.approx(0.0, abs=1e-15)


def test_jensen_shannon_errors():
    with pytest.raises(ValueError, match="2.*3"):
        jensen_shannon_divergence([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        jensen_shannon_divergence([1, -1], [1, 1])
    with pytest.raises(ValueError):
        jensen_shannon_divergence([0, 0], [1, 1])
    with pytest.raises(ValueError):
        jensen_shannon_divergence([1, 1], [0, 0])


# ---------------------------------------------------------------------------------------------
# Contingency tables
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=80)
@given(pair=categorical_pairs())
def test_contingency_table_matches_crosstab(pair):
    x, y = pair
    table = contingency_table(x, y)
    xs, ys = pd.Series(x, dtype=object), pd.Series(y, dtype=object)
    expected = pd.crosstab(xs, ys, dropna=False)
    present = sorted(v for v in set(xs.dropna()))
    rows = present + ([np.nan] if xs.isna().any() else [])
    assert list(table.index[: len(present)]) == present
    assert len(table.index) == len(rows)
    if xs.isna().any():
        assert pd.isna(table.index[-1])
    assert list(table.columns) == sorted(set(y))
    expected = expected.reindex(index=rows, columns=sorted(set(y)), fill_value=0)
    np.testing.assert_array_equal(table.to_numpy(dtype=np.int64), expected.to_numpy())
    assert int(table.to_numpy().sum()) == len(x)


def test_contingency_table_missing_row_last_and_classes_sorted():
    x = ["b", None, "a", "c", np.nan, "a"]
    y = [2, 0, 1, 2, 2, 0]
    table = contingency_table(x, y)
    assert list(table.index[:3]) == ["a", "b", "c"] and pd.isna(table.index[3])
    assert list(table.columns) == [0, 1, 2]
    np.testing.assert_array_equal(table.to_numpy(), [[1, 1, 0], [0, 0, 1], [0, 0, 1], [1, 0, 1]])


def test_contingency_table_no_missing_row_when_nothing_is_missing():
    table = contingency_table(["a", "b"], ["u", "v"])
    assert list(table.index) == ["a", "b"]
    assert list(table.columns) == ["u", "v"]


@settings(deadline=None, max_examples=60)
@given(pair=numeric_pairs(), bins=st.sampled_from([1, 2, 3, 5, 10]))
def test_contingency_table_bins_match_numpy_histogram(pair, bins):
    x, y = pair
    present = ~np.isnan(x)
    table = contingency_table(x, y, bins=bins)
    counts = table.to_numpy(dtype=np.int64)
    if not present.any():
        return
    edges = np.histogram_bin_edges(x[present], bins=bins)
    n_bins = len(edges) - 1
    np.testing.assert_array_equal(counts[:n_bins].sum(axis=1), np.histogram(x[present], bins)[0])
    for j, cls in enumerate(sorted(set(y.tolist()))):
        assert table.columns[j] == cls
        np.testing.assert_array_equal(
            counts[:n_bins, j], np.histogram(x[present & (y == cls)], bins=edges)[0]
        )
    if (~present).any():
        assert len(table) == n_bins + 1 and pd.isna(table.index[-1])
        np.testing.assert_array_equal(
            counts[-1], [(~present & (y == c)).sum() for c in table.columns]
        )
    else:
        assert len(table) == n_bins


def test_contingency_table_explicit_edges_match_numpy_histogram():
    x = np.array([0.5, 1.5, 2.5, 3.0, 4.0])
    y = [0, 1, 1, 0, 1]
    edges = [0.0, 1.0, 2.0, 4.0]
    table = contingency_table(x, y, bins=edges)
    np.testing.assert_array_equal(table.to_numpy().sum(axis=1), np.histogram(x, edges)[0])


@pytest.mark.parametrize("x", [[-1.0, 0.5, 1.5], [0.5, 1.5, 10.0]])
def test_contingency_table_edges_not_covering_the_data_are_not_miscounted(x):
    """Values outside explicit edges must not land silently in a bin numpy.histogram leaves
    them out of (or crash with an unrelated message): either refuse them or count as numpy."""
    edges = [0.0, 1.0, 2.0]
    try:
        table = contingency_table(x, [0, 1, 1], bins=edges)
    except ValueError as exc:
        assert "bin" in str(exc) or "edge" in str(exc) or "range" in str(exc)
        return
    assert table.to_numpy().sum(axis=1)[:2].tolist() == np.histogram(x, edges)[0].tolist()


# ---------------------------------------------------------------------------------------------
# Gain: properties and the G statistic
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=100)
@given(pair=categorical_pairs())
def test_categorical_gain_bounds_and_g_statistic(pair):
    x, y = pair
    gain = information_gain(x, y)
    h_y = ref_entropy_of_codes(ref_categorical_codes(y))
    assert 0.0 <= gain <= h_y + 1e-12
    table = ref_joint_table(ref_categorical_codes(x), ref_categorical_codes(y))
    g_stat = sp_stats.chi2_contingency(table, lambda_="log-likelihood", correction=False)[0]
    assert 2 * len(x) * LN2 * gain == pytest.approx(g_stat, rel=1e-9, abs=1e-9)
    ratio = gain_ratio(x, y)
    split_info = ref_entropy_of_codes(ref_categorical_codes(x))
    expected_ratio = gain / split_info if split_info > 0 else 0.0
    assert ratio == pytest.approx(expected_ratio, abs=1e-12)


@settings(deadline=None, max_examples=100)
@given(pair=numeric_pairs())
def test_numeric_gain_is_best_candidate(pair):
    x, y = pair
    gain = information_gain(x, y)
    table = candidate_splits(x, y)
    h_y = ref_entropy_of_codes(ref_categorical_codes(y))
    assert 0.0 <= gain <= h_y + 1e-12
    if len(table):
        assert gain == pytest.approx(table["gain"].max(), abs=1e-12)
        assert np.all(table["gain"] >= 0) and np.all(table["gain"] <= h_y + 1e-12)
        np.testing.assert_allclose(table["gain"], h_y - table["overall_entropy"], atol=1e-12)
    else:
        assert gain == 0.0
    assert gain == pytest.approx(ref_gain_numeric(x, y), abs=1e-12)
    assert information_gain(x, y, base=np.e) == pytest.approx(gain * LN2, abs=1e-12)


@settings(deadline=None, max_examples=60)
@given(pair=numeric_pairs())
def test_numeric_gain_ratio_by_hand(pair):
    x, y = pair
    table = candidate_splits(x, y)
    ratio = gain_ratio(x, y)
    if not len(table):
        assert ratio == 0.0
        return
    # the smallest threshold among those tied with the lowest overall entropy
    overall = table["overall_entropy"]
    best = table.loc[overall <= overall.min() + TIE_TOLERANCE].iloc[0]
    n_missing = int(np.isnan(x).sum())
    sizes = [int(best["n_left"]), int(best["n_right"]), n_missing]
    split_info = sp_stats.entropy([s for s in sizes if s], base=2)
    assert ratio == pytest.approx(information_gain(x, y) / split_info, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------
CATEGORICAL_X = ["a", "b", "a", "c", "b", "a", "c", "c"]
CLASSES = ["yes", "no", "yes", "yes", "no", "no", "yes", "no"]


@pytest.mark.parametrize(
    "make",
    [
        list,
        np.array,
        lambda v: np.array(v, dtype=object),
        lambda v: pd.Series(v, dtype="str"),
        lambda v: pd.Series(v, dtype=object),
        lambda v: pd.Series(v, dtype="category"),
        lambda v: pd.Series(v, index=range(100, 100 + len(v))),  # index ignored
    ],
    ids=["list", "array", "object-array", "str", "object", "category", "shifted-index"],
)
def test_categorical_containers_agree(make):
    x, y = make(CATEGORICAL_X), make(CLASSES)
    xc, yc = ref_categorical_codes(CATEGORICAL_X), ref_categorical_codes(CLASSES)
    expected_mi = ref_mutual_information(xc, yc)
    assert entropy(y) == pytest.approx(1.0, abs=1e-12)
    assert information_gain(x, y) == pytest.approx(expected_mi, abs=1e-12)
    assert mutual_information(x, y) == pytest.approx(expected_mi, abs=1e-12)
    assert conditional_entropy(x, y) == pytest.approx(1.0 - expected_mi, abs=1e-12)
    assert gain_ratio(x, y) == pytest.approx(expected_mi / ref_entropy_of_codes(xc), abs=1e-12)
    np.testing.assert_array_equal(contingency_table(x, y).to_numpy(), [[1, 2], [2, 0], [1, 2]])


@pytest.mark.parametrize(
    "make",
    [
        list,
        np.array,
        pd.Series,
        lambda v: pd.Series(v, dtype="boolean"),
        lambda v: pd.Series(v, dtype=object),
    ],
    ids=["list", "array", "series", "boolean", "object"],
)
def test_bool_x_is_categorical(make):
    flags = [True, False, True, True, False, False, True, False]
    as_text = ["T" if f else "F" for f in flags]
    expected = information_gain(as_text, CLASSES)
    assert information_gain(make(flags), CLASSES) == pytest.approx(expected, abs=1e-12)
    assert mutual_information(make(flags), CLASSES) == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError):
        candidate_splits(make(flags), CLASSES)


NUMERIC_X = [1.0, 2.0, np.nan, 4.0, 2.0, 7.0, np.nan, 1.0]


@pytest.mark.parametrize(
    "make",
    [
        list,
        np.array,
        pd.Series,
        lambda v: pd.Series(v, dtype="Float64"),
        lambda v: pd.Series([pd.NA if math.isnan(a) else int(a) for a in v], dtype="Int64"),
        lambda v: [None if math.isnan(a) else a for a in v],
        lambda v: np.array([None if math.isnan(a) else a for a in v], dtype=object),
    ],
    ids=["list", "array", "series", "Float64", "Int64", "list-None", "object-array-None"],
)
def test_numeric_containers_agree(make):
    x = make(NUMERIC_X)
    expected_gain = ref_gain_numeric(np.array(NUMERIC_X), CLASSES)
    assert expected_gain > 0
    assert information_gain(x, CLASSES) == pytest.approx(expected_gain, abs=1e-12)
    expected_mi = ref_mutual_information(
        ref_numeric_codes(NUMERIC_X, 3), ref_categorical_codes(CLASSES)
    )
    assert mutual_information(x, CLASSES, bins=3) == pytest.approx(expected_mi, abs=1e-12)
    table = candidate_splits(x, CLASSES)
    np.testing.assert_array_equal(table["threshold"], [1.5, 3.0, 5.5])
    np.testing.assert_array_equal(table["n_left"], [2, 4, 5])
    np.testing.assert_array_equal(table["n_right"], [4, 2, 1])


@pytest.mark.parametrize(
    "make_y",
    [list, np.array, pd.Series, lambda v: pd.Series(v, dtype="category")],
    ids=["list", "array", "series", "category"],
)
def test_label_containers_agree(make_y):
    y = make_y(CLASSES)
    assert information_gain(NUMERIC_X, y) == pytest.approx(
        ref_gain_numeric(np.array(NUMERIC_X), CLASSES), abs=1e-12
    )
    assert entropy(y) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda x, y: entropy(x) + conditional_entropy(x, y),
        information_gain,
        gain_ratio,
        mutual_information,
        contingency_table,
        candidate_splits,
    ],
    ids=[
        "conditional_entropy",
        "information_gain",
        "gain_ratio",
        "mutual_information",
        "contingency_table",
        "candidate_splits",
    ],
)
def test_mismatched_lengths(call):
    with pytest.raises(ValueError, match=r"\b5\b.*\b3\b|\b3\b.*\b5\b"):
        call([1.0, 2.0, 3.0, 4.0, 5.0], [0, 1, 0])
    with pytest.raises(ValueError, match=r"\b5\b.*\b3\b|\b3\b.*\b5\b"):
        call(np.array(["a", "b", "c"]), pd.Series([0, 1, 0, 1, 1]))


@pytest.mark.parametrize(
    "call",
    [information_gain, gain_ratio, candidate_splits, mutual_information],
    ids=["information_gain", "gain_ratio", "candidate_splits", "mutual_information"],
)
@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_infinite_numeric_x_is_an_error(call, bad):
    x = np.array([1.0, 2.0, bad, 4.0])
    with pytest.raises(ValueError, match="infinite"):
        call(x, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="infinite"):
        call(pd.Series(x, dtype="Float64"), [0, 1, 0, 1])


@pytest.mark.parametrize(
    "make",
    [list, lambda v: np.array(v, dtype=object), lambda v: pd.Series(v, dtype=object)],
    ids=["list", "object-array", "object-series"],
)
@pytest.mark.parametrize(
    "values",
    [[1, "a", 2, "b"], [1.5, "a", 2.5, "a"], ["a", 3, "b", "a"], [1, "1", "a", "a"]],
    ids=["int", "float", "late", "ambiguous"],
)
def test_numbers_mixed_with_text_are_an_error(make, values):
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="mixes numbers and text"):
        information_gain(make(values), y)
    with pytest.raises(ValueError, match="mixes numbers and text"):
        entropy(make(values))
    with pytest.raises(ValueError, match="mixes numbers and text"):
        mutual_information(make(values), y)


def test_empty_input_is_an_error():
    for call in (information_gain, conditional_entropy, mutual_information, candidate_splits):
        with pytest.raises(ValueError, match="empty"):
            call(np.array([], dtype=float), [])


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(
        st.one_of(
            st.floats(-1e6, 1e6, allow_nan=False),
            st.integers(-10, 10).map(float),
            st.just(float("nan")),
        ),
        min_size=1,
        max_size=60,
    ),
    bins=st.integers(1, 30),
    scale=st.sampled_from([1.0, 1e-7, 3.0, 1e9]),
)
def test_equal_width_bins_are_those_of_a_binary_search(values, bins, scale):
    """_bin's arithmetic for a number of bins against searchsorted on numpy's own edges."""
    x = np.asarray(values) * scale
    present = ~np.isnan(x)
    try:
        expected_edges = np.histogram_bin_edges(x[present] if present.any() else [0.0], bins=bins)
    except ValueError:  # one huge value: numpy cannot cut a range of 1 into finite bins
        with pytest.raises(ValueError, match="cannot be cut into bins"):
            _bin(x, bins)
        return
    codes, edges = _bin(x, bins)
    np.testing.assert_array_equal(edges, expected_edges)
    expected = np.full(len(x), bins)
    inside = np.searchsorted(edges, x[present], side="right") - 1
    expected[present] = np.minimum(inside, bins - 1)  # the last bin is closed
    np.testing.assert_array_equal(codes, expected)


def test_equal_width_bins_at_the_edges_and_between_them():
    """Values on every edge, and one float step either side of it, as searchsorted puts them."""
    edges = np.histogram_bin_edges([0.1, 0.7], bins=6)
    x = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
    x = np.clip(x, 0.1, 0.7)
    codes, got_edges = _bin(np.r_[x, np.nan], 6)
    np.testing.assert_array_equal(got_edges, edges)
    expected = np.minimum(np.searchsorted(edges, x, side="right") - 1, 5)
    np.testing.assert_array_equal(codes, np.r_[expected, 6])
