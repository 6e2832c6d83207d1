"""rank_features, screen_features and plot_heatmap (MI in test_ranking_mi, JSD in _jsd)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier, information_gain, mutual_information
from id3tree.datasets import load_hmeq, load_iris, load_play_tennis
from id3tree.ranking import (
    jsd_screen,
    mutual_information_matrix,
    plot_heatmap,
    rank_features,
    screen_features,
)
from id3tree.ranking.screening import percent_entropy

plt.switch_backend("Agg")  # the heatmap must draw without a display

METHODS = ["information_gain", "gain_ratio", "mutual_information", "symmetric_uncertainty", "jsd"]


# -------------------------------------------------------------------------------------------------
# rank_features
# -------------------------------------------------------------------------------------------------
def test_play_tennis_reproduces_the_seed_table_best_first():
    X, y = load_play_tennis(return_X_y=True)
    ranked = rank_features(X, y)
    assert ranked.index.tolist() == ["Outlook", "Humidity", "Wind", "Temperature"]
    assert ranked.columns.tolist() == ["score", "flags"]
    assert (ranked["flags"] == "").all()
    assert ranked["score"].round(4).tolist() == [0.2467, 0.1518, 0.0481, 0.0292]


def test_categorical_gain_equals_mi_and_the_learners_root_gain():
    X, y = load_play_tennis(return_X_y=True)
    gains = rank_features(X, y)["score"]
    mis = rank_features(X, y, method="mutual_information")["score"]
    for column in X.columns:
        assert gains[column] == pytest.approx(mis[column], abs=1e-12)
        assert gains[column] == pytest.approx(mutual_information(X[column], y), abs=1e-12)
        assert gains[column] == pytest.approx(information_gain(X[column], y), abs=1e-12)
    root = ID3Classifier().fit(X, y).root_
    assert root.feature == "Outlook"
    assert root.gain == pytest.approx(gains["Outlook"], abs=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_every_method_scores_every_feature_in_its_range(method):
    X, y = load_iris(return_X_y=True)
    ranked = rank_features(X, y, method=method)
    assert sorted(ranked.index) == sorted(X.columns)
    assert ranked["score"].is_monotonic_decreasing
    assert (ranked["score"] >= 0).all()
    if method in ("symmetric_uncertainty", "jsd", "gain_ratio"):
        assert (ranked["score"] <= 1 + 1e-12).all()
    else:
        assert (ranked["score"] <= math.log2(3) + 1e-12).all()  # <= H(y)


def test_symmetric_uncertainty_is_two_mi_over_the_entropies():
    from sklearn.metrics import normalized_mutual_info_score

    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 4, 500).astype(str), rng.integers(0, 3, 500)
    x[:100] = y[:100].astype(str)
    su = rank_features(pd.DataFrame({"x": x}), y, method="symmetric_uncertainty")["score"]["x"]
    assert su == pytest.approx(normalized_mutual_info_score(x, y), abs=1e-12)


def test_jsd_method_is_the_highest_one_vs_all_jsd():
    X, y = load_iris(return_X_y=True)
    ranked = rank_features(X, y, method="jsd", bins=25)["score"]
    expected = jsd_screen(X, y, bins=25).max(axis=0)
    pd.testing.assert_series_equal(ranked.sort_index(), expected.sort_index(), check_names=False)


def test_ties_keep_the_column_order():
    X = pd.DataFrame({"b": list("aabb"), "a": list("aabb"), "c": list("abab")})
    assert rank_features(X, [0, 0, 1, 1]).index.tolist() == ["b", "a", "c"]


def test_numpy_input_names_features_x0_x1():
    X = np.array([["a", "u"], ["a", "v"], ["b", "u"], ["b", "v"]], dtype=object)
    assert rank_features(X, [0, 0, 1, 1]).index.tolist() == ["x0", "x1"]


def test_numeric_class_labels_are_categories_not_bins():
    # 20 classes would share bins if y were binned like a numeric feature
    x = np.arange(40) % 20
    y = np.arange(40) % 20
    score = rank_features(pd.DataFrame({"x": x.astype(str)}), y, method="mutual_information")
    assert score["score"]["x"] == pytest.approx(math.log2(20))


def test_bad_method_and_missing_labels_are_clear_errors():
    X, y = load_play_tennis(return_X_y=True)
    with pytest.raises(ValueError, match="method must be one of"):
        rank_features(X, y, method="gini")
    with pytest.raises(ValueError, match="missing label"):
        rank_features(X, y.where(y != "No"))
    with pytest.raises(ValueError, match="same length"):
        rank_features(X, y[:5])


def test_single_class_scores_zero_and_jsd_explains_why_it_cannot():
    X, _ = load_play_tennis(return_X_y=True)
    y = ["yes"] * len(X)
    for method in METHODS[:-1]:
        assert (rank_features(X, y, method=method)["score"] == 0).all(), method
    with pytest.raises(ValueError, match="one class"):
        rank_features(X, y, method="jsd")


def test_constant_and_all_missing_features_score_zero():
    y = [0, 1, 0, 1, 1, 0]
    X = pd.DataFrame({"constant": [7.0] * 6, "missing": [np.nan] * 6, "text": [None] * 6})
    for method in METHODS:
        scores = rank_features(X, y, method=method)["score"]
        assert scores.notna().all() and (scores == 0).all(), method


# -------------------------------------------------------------------------------------------------
# screen_features
# -------------------------------------------------------------------------------------------------
def test_screen_columns_and_lecture_definitions_on_hmeq():
    hmeq = load_hmeq()
    table = screen_features(hmeq)
    assert table.columns.tolist() == [
        "dtype",
        "is_string",
        "n_valid",
        "n_missing",
        "percent_missing",
        "n_unique",
        "entropy",
        "percent_entropy",
        "mean",
        "coef_variation",
        "flags",
    ]
    assert table.index.tolist() == hmeq.columns.tolist()
    job = table.loc["JOB"]
    counts = hmeq["JOB"].value_counts().to_numpy(dtype=float)
    n, k = counts.sum(), len(counts)  # N = valid values, K = distinct valid values
    e = -(counts / n * np.log2(counts / n)).sum()
    e0 = math.log2(n) - (n - k + 1) / n * math.log2(n - k + 1)
    assert (job["n_valid"], job["n_unique"], job["n_missing"]) == (n, k, hmeq["JOB"].isna().sum())
    assert job["entropy"] == pytest.approx(e)
    assert job["percent_entropy"] == pytest.approx(100 * (e - e0) / (math.log2(k) - e0))
    assert job["is_string"] and math.isnan(job["mean"])
    loan = table.loc["LOAN"]
    mean, std = hmeq["LOAN"].mean(), hmeq["LOAN"].std(ddof=1)
    assert loan["mean"] == pytest.approx(mean)
    assert loan["coef_variation"] == pytest.approx(std / mean)
    assert table.loc["DEBTINC", "percent_missing"] == pytest.approx(100 * 1267 / 5960)


def test_coefficient_of_variation_sign_and_small_means():
    X = pd.DataFrame({"neg": [-10.0, -12.0, -14.0], "small": [0.1, 0.2, 0.3]})
    table = screen_features(X)
    assert table.loc["neg", "coef_variation"] == pytest.approx(-2.0 / 12.0)
    assert table.loc["small", "coef_variation"] == pytest.approx(0.1)  # divided by max(1, 0.2)


def test_screen_edges_are_defined():
    n = 1000
    X = pd.DataFrame(
        {
            "one_category": ["a"] * n,
            "all_distinct": [f"id{i}" for i in range(n)],
            "all_missing": [np.nan] * n,
            "constant": [3.0] * n,
            "one_value": [np.nan] * (n - 1) + [2.0],
        }
    )
    table = screen_features(X)
    assert table.loc["one_category", "percent_entropy"] == 0.0
    assert table.loc["one_category", "entropy"] == 0.0
    assert table.loc["all_distinct", "percent_entropy"] == 100.0
    assert table.loc["all_distinct", "entropy"] == pytest.approx(math.log2(n))
    missing = table.loc["all_missing"]
    assert (missing["n_valid"], missing["n_unique"], missing["percent_missing"]) == (0, 0, 100.0)
    assert missing["entropy"] == 0.0 and missing["percent_entropy"] == 0.0
    assert table.loc["constant", "coef_variation"] == 0.0
    assert table.loc["one_value", "coef_variation"] == 0.0
    numbers = table.drop(columns=["mean", "coef_variation"]).select_dtypes("number")
    assert numbers.notna().all().all()
    assert table.loc["one_category", "flags"] == "single category"
    assert "many categories" in table.loc["all_distinct", "flags"]
    assert table.loc["all_missing", "flags"] == "mostly missing"
    assert table.loc["constant", "flags"] == "single category, near constant"


def test_flag_thresholds_are_parameters():
    X = pd.DataFrame({"x": ["a"] * 90 + ["b"] * 10, "y": [1.0] * 60 + [np.nan] * 40})
    assert screen_features(X).loc["x", "flags"] == ""
    strict = screen_features(X, single_category=0.9, mostly_missing=30, low_variety=90)
    assert strict.loc["x", "flags"] == "single category, low variety"
    assert "mostly missing" in strict.loc["y", "flags"]


def test_percent_entropy_between_the_two_scenarios():
    # scenario B (K-1 ones and the rest) scores 0, scenario A (equal counts) 100
    assert percent_entropy(-(3 / 4) * math.log2(3 / 4) - (1 / 4) * math.log2(1 / 4), 4, 2) == (
        pytest.approx(0.0, abs=1e-9)
    )
    assert percent_entropy(math.log2(5), 50, 5) == pytest.approx(100.0)
    assert percent_entropy(0.0, 10, 1) == 0.0


def test_screen_100000_distinct_strings_is_quick():
    X = pd.DataFrame({"id": [f"user{i}" for i in range(100_000)]})
    table = screen_features(X)
    assert table.loc["id", "n_unique"] == 100_000
    assert table.loc["id", "percent_entropy"] == 100.0


def test_infinite_values_are_named():
    with pytest.raises(ValueError, match="'x' has 1 infinite"):
        screen_features(pd.DataFrame({"x": [1.0, np.inf, 2.0]}))


# -------------------------------------------------------------------------------------------------
# plot_heatmap
# -------------------------------------------------------------------------------------------------
def test_heatmap_of_every_frame_saves_a_png(tmp_path):
    X, y = load_iris(return_X_y=True)
    frames = {
        "rank": rank_features(X, y),
        "mi": mutual_information_matrix(X),
        "jsd": jsd_screen(X, y, macroclasses=True),
        "screen": screen_features(load_hmeq()),
    }
    for name, frame in frames.items():
        ax = plot_heatmap(frame)
        assert ax.figure.canvas.get_default_filetype() == "png"
        path = tmp_path / f"{name}.png"
        ax.figure.savefig(path)
        assert path.stat().st_size > 1000
        plt.close(ax.figure)


def test_heatmap_annotations_and_existing_axes():
    X, y = load_iris(return_X_y=True)
    mi = mutual_information_matrix(X)
    fig, ax = plt.subplots()
    assert plot_heatmap(mi, ax=ax) is ax
    assert len(ax.texts) == mi.size
    assert ax.texts[0].get_text() == f"{mi.iat[0, 0]:.2f}"
    plt.close(fig)
    ax = plot_heatmap(mi, annotate=False)
    assert len(ax.texts) == 0
    plt.close(ax.figure)


def test_heatmap_of_150_columns_without_annotations_stays_readable(tmp_path):
    rng = np.random.default_rng(0)
    names = [f"question_{i:03d}" for i in range(150)]
    frame = pd.DataFrame(rng.random((150, 150)), index=names, columns=names)
    ax = plot_heatmap(frame, annotate=False)
    width, height = ax.figure.get_size_inches()
    assert width <= 30 and height <= 30
    assert len(ax.get_xticklabels()) == 150
    assert ax.get_xticklabels()[0].get_fontsize() >= 2.5
    ax.figure.savefig(tmp_path / "big.png")
    plt.close(ax.figure)


def test_heatmap_rejects_what_it_cannot_draw():
    with pytest.raises(TypeError, match="DataFrame"):
        plot_heatmap(np.eye(3))
    with pytest.raises(ValueError, match="numeric column"):
        plot_heatmap(pd.DataFrame({"a": ["x", "y"]}))


@pytest.mark.parametrize("method", ["jsd", "mutual_information", "symmetric_uncertainty"])
def test_one_column_coded_two_ways_ties_exactly_in_column_order(method):
    """Text and its numeric codes (Adult's education and education-num) have the same table up
    to the order of its rows: the same score to the last bit, so column order breaks the tie."""
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 16, 5000)
    words = np.array([f"level {k:02d}" for k in rng.permutation(16)])
    y = np.where(rng.random(5000) < 0.2 + 0.04 * codes, ">50K", "<=50K")
    X = pd.DataFrame({"text": words[codes], "number": codes + 1, "noise": rng.random(5000)})
    for columns in (["text", "number", "noise"], ["number", "text", "noise"]):
        ranked = rank_features(X[columns], y, method=method, bins=25)
        assert ranked.index.tolist()[:2] == columns[:2]
        assert ranked["score"].iloc[0] == ranked["score"].iloc[1]


@pytest.mark.parametrize("bins", [100_001, 10**9, 0, True, 2.5, "nope", [3, 1, 2], [[0, 1]]])
def test_bad_bins_are_refused_before_anything_is_counted(bins):
    X, y = load_iris(return_X_y=True)
    for call in (
        lambda: rank_features(X, y, method="mutual_information", bins=bins),
        lambda: rank_features(X[["sepal_length"]].astype(str), y, method="jsd", bins=bins),
        lambda: jsd_screen(X, y, bins=bins),
        lambda: mutual_information_matrix(X, bins=bins),
    ):
        with pytest.raises(ValueError, match="bins"):
            call()
