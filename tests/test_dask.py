"""id3tree on Dask: a real local cluster (worker processes) on a partitioned Parquet data set.

Every Dask result is checked against the pandas result on the same rows, read back from the same
files with ``pandas.read_parquet``: numbers to 1e-12, trees node for node.
"""

from __future__ import annotations

import logging
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

import id3tree  # noqa: E402
from id3tree import ID3Classifier, stats  # noqa: E402
from id3tree.datasets import load_adult  # noqa: E402

N_ROWS = 3000


def make_frame(n: int = N_ROWS, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    hidden = rng.normal(size=n)
    frame = pd.DataFrame(
        {
            "size": np.round(hidden + rng.normal(0, 0.8, n), 1),  # numeric, repeated values
            "count": rng.integers(0, 6, n),  # whole numbers
            "colour": rng.choice(["red", "green", "blue"], n),
            "shape": rng.choice(["round", "square", "star", "oval"], n),
            "flag": rng.random(n) < 0.3,
            "level": pd.Categorical(rng.choice(["low", "mid", "high"], n)),
            "score": np.round(2 * hidden + rng.normal(0, 1, n), 2),
        }
    )
    frame.loc[rng.random(n) < 0.05, "size"] = np.nan
    frame.loc[rng.random(n) < 0.05, "shape"] = None
    label = np.where(hidden > 0.5, "yes", np.where(hidden < -0.8, "no", "maybe"))
    flip = rng.random(n) < 0.15
    frame["label"] = np.where(flip, rng.choice(["yes", "no", "maybe"], n), label)
    return frame


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            memory_limit="1GB",
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def data(client, tmp_path_factory):
    """(Dask frame, pandas frame) of the same Parquet files, five partitions."""
    path = tmp_path_factory.mktemp("parquet") / "table"
    dd.from_pandas(make_frame(), npartitions=5).to_parquet(path, write_index=False)
    on_dask = dd.read_parquet(path)
    in_memory = pd.read_parquet(path)
    assert on_dask.npartitions == 5 and len(in_memory) == N_ROWS
    return on_dask, in_memory


FEATURES = ["size", "count", "colour", "shape", "flag", "level", "score"]


def close(a: float, b: float, tolerance: float = 1e-12) -> bool:
    return abs(a - b) <= tolerance * max(1.0, abs(b))


# ---------------------------------------------------------------------------------------------
# information measures and contingency tables
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("column", FEATURES)
def test_information_measures_equal_pandas(data, column):
    on_dask, in_memory = data
    x, y = on_dask[column], on_dask["label"]
    xp, yp = in_memory[column], in_memory["label"]
    for function in (
        id3tree.conditional_entropy,
        id3tree.information_gain,
        id3tree.gain_ratio,
        id3tree.mutual_information,
    ):
        assert close(function(x, y), function(xp, yp)), function.__name__
    assert close(
        id3tree.mutual_information(x, y, bins=4, base=np.e),
        id3tree.mutual_information(xp, yp, bins=4, base=np.e),
    )
    assert close(id3tree.entropy(x), id3tree.entropy(xp))


def test_information_gain_of_a_numeric_column_is_its_best_midpoint(data):
    on_dask, in_memory = data
    table = id3tree.candidate_splits(in_memory["size"], in_memory["label"])
    assert close(id3tree.information_gain(on_dask["size"], on_dask["label"]), table["gain"].max())


@pytest.mark.parametrize("column, bins", [("colour", None), ("shape", None), ("size", 5)])
def test_contingency_table_equals_pandas(data, column, bins):
    on_dask, in_memory = data
    found = id3tree.contingency_table(on_dask[column], on_dask["label"], bins=bins)
    expected = id3tree.contingency_table(in_memory[column], in_memory["label"], bins=bins)
    pd.testing.assert_frame_equal(found, expected)
    assert found.to_numpy().sum() == N_ROWS


def test_explicit_edges_work_and_binning_rules_are_refused(data):
    on_dask, in_memory = data
    edges = [-5, -1, 0, 1, 5]
    found = id3tree.mutual_information(on_dask["size"], on_dask["label"], bins=edges)
    assert close(
        found, id3tree.mutual_information(in_memory["size"], in_memory["label"], bins=edges)
    )
    with pytest.raises(ValueError, match="whole column"):
        id3tree.mutual_information(on_dask["size"], on_dask["label"], bins="auto")


# ---------------------------------------------------------------------------------------------
# ranking and screening
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "method",
    ["information_gain", "gain_ratio", "mutual_information", "symmetric_uncertainty", "jsd"],
)
def test_rank_features_equals_pandas(data, method):
    on_dask, in_memory = data
    found = id3tree.rank_features(on_dask[FEATURES], on_dask["label"], method=method, bins=6)
    expected = id3tree.rank_features(in_memory[FEATURES], in_memory["label"], method=method, bins=6)
    assert found.index.tolist() == expected.index.tolist()
    np.testing.assert_allclose(found["score"], expected["score"], rtol=0, atol=1e-12)


@pytest.mark.parametrize("one_read", [True, False])
@pytest.mark.parametrize("normalize", [False, True])
def test_mutual_information_matrix_equals_pandas(data, normalize, one_read, monkeypatch):
    """Both ways of counting: every file read once (its partition coded by its own values and
    kept while the codings are made), and read twice (a describing pass, then the counts)."""
    from id3tree.dask import core

    assert core.known_rows(data[0]) == N_ROWS  # from the files' metadata: one read fits
    if not one_read:
        monkeypatch.setattr(core, "known_rows", lambda frame: None)
    on_dask, in_memory = data
    found = id3tree.mutual_information_matrix(on_dask, bins=7, normalize=normalize)
    expected = id3tree.mutual_information_matrix(in_memory, bins=7, normalize=normalize)
    assert found.index.equals(expected.index) and found.columns.equals(expected.columns)
    np.testing.assert_allclose(found, expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(found, found.T, rtol=0, atol=0)


def test_known_rows_come_from_the_source_without_a_pass(data):
    from id3tree.dask import core

    on_dask, in_memory = data
    assert core.known_rows(on_dask[["size", "colour"]]) == N_ROWS
    assert core.known_rows(dd.from_pandas(in_memory, npartitions=3)) == N_ROWS
    assert core.known_rows(on_dask[on_dask["size"] > 0]) is None  # a filter: only a pass knows


def test_known_ranges_are_the_parquet_statistics(data):
    """Each numeric column's smallest and largest value, as the files' statistics state them
    (missing values left out); nothing for a filtered table or one not read from Parquet."""
    from id3tree.dask import core

    on_dask, in_memory = data
    numeric = ["size", "count", "score"]
    found = core.known_ranges(on_dask, numeric + ["colour"])
    assert found == {c: (in_memory[c].min(), in_memory[c].max()) for c in numeric}
    assert core.known_ranges(on_dask[on_dask["size"] > 0], numeric) == {}
    assert core.known_ranges(dd.from_pandas(in_memory, npartitions=3), numeric) == {}


@pytest.mark.parametrize("wrong", [False, True])
def test_the_mi_matrix_checks_the_ranges_it_guessed(data, monkeypatch, wrong):
    """The numeric columns are coded by the bin edges of the range the files' statistics
    state, in the one read; where a partition's own range shows the guess wrong (here: a
    statistic made too narrow), the codes are thrown away and the files read again with no
    guess. Both give the pandas matrix."""
    from id3tree.dask import core, ranking

    calls = []
    one_read, known_ranges = ranking._pairs_in_one_read, core.known_ranges

    def spy_read(X, kinds, bins, *, guess=True):
        calls.append(guess)
        return one_read(X, kinds, bins, guess=guess)

    def narrowed(frame, columns):
        ranges = known_ranges(frame, columns)
        if wrong and "score" in ranges:
            ranges["score"] = (ranges["score"][0], 0.0)
        return ranges

    monkeypatch.setattr(ranking, "_pairs_in_one_read", spy_read)
    monkeypatch.setattr(core, "known_ranges", narrowed)
    on_dask, in_memory = data
    assert len(ranking._guessed_edges(on_dask, {c: (c, "range") for c in ["size"]}, 5)) == 1
    found = id3tree.mutual_information_matrix(on_dask, bins=5)
    expected = id3tree.mutual_information_matrix(in_memory, bins=5)
    np.testing.assert_allclose(found, expected, rtol=0, atol=1e-12)
    assert calls == ([True, False] if wrong else [True])


def test_jsd_screen_equals_pandas(data):
    on_dask, in_memory = data
    found = id3tree.jsd_screen(on_dask[FEATURES], on_dask["label"], bins=8, macroclasses=True)
    expected = id3tree.jsd_screen(
        in_memory[FEATURES], in_memory["label"], bins=8, macroclasses=True
    )
    pd.testing.assert_index_equal(found.index, expected.index)
    np.testing.assert_allclose(found, expected, rtol=0, atol=1e-12)
    assert ((found >= 0) & (found <= 1)).all().all()
    with pytest.raises(ValueError, match="trim_outliers"):
        id3tree.jsd_screen(on_dask[FEATURES], on_dask["label"], trim_outliers=1.5)


def test_screen_features_equals_pandas(data):
    on_dask, in_memory = data
    found = id3tree.screen_features(on_dask)
    expected = id3tree.screen_features(in_memory)
    exact = ["is_string", "n_valid", "n_missing", "n_unique", "flags"]
    pd.testing.assert_frame_equal(found[exact], expected[exact])
    for column in ["percent_missing", "entropy", "percent_entropy", "mean", "coef_variation"]:
        np.testing.assert_allclose(found[column], expected[column], rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# classical tests
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "test, x, y, association",
    [
        (stats.chi_square_test, "colour", "label", stats.cramers_v),
        (stats.chi_square_test, "shape", "level", stats.cramers_v),
        (stats.g_test, "shape", "label", None),
        (stats.anova_test, "shape", "score", stats.eta_squared),
        (stats.regression_test, "size", "score", stats.pearson_r2),
    ],
)
def test_classical_tests_equal_pandas(data, test, x, y, association):
    on_dask, in_memory = data
    found, expected = test(on_dask[x], on_dask[y]), test(in_memory[x], in_memory[y])
    assert found.method == expected.method and found.df == expected.df and found.n == expected.n
    assert close(found.statistic, expected.statistic)
    assert close(found.pvalue, expected.pvalue)
    if found.observed is not None:
        pd.testing.assert_frame_equal(found.observed, expected.observed)
    if association is not None:
        assert close(association(on_dask[x], on_dask[y]), association(in_memory[x], in_memory[y]))


def test_deviance_test_says_it_needs_pandas(data):
    on_dask, _ = data
    with pytest.raises(TypeError, match="needs pandas input"):
        stats.deviance_test(on_dask["size"], on_dask["label"])


# ---------------------------------------------------------------------------------------------
# the learner
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"max_depth": 3, "criterion": "gain_ratio"},
        {"min_samples_leaf": 20, "min_gain": 0.001},
        {"alpha": 0.01, "categorical": ["count"]},
    ],
)
def test_tree_on_dask_equals_the_tree_in_memory(data, params):
    on_dask, in_memory = data
    X, y = on_dask[FEATURES], on_dask["label"]
    Xp, yp = in_memory[FEATURES], in_memory["label"]
    found = ID3Classifier(**params).fit(X, y)
    expected = ID3Classifier(**params).fit(Xp, yp)
    assert found.to_dict() == expected.to_dict()  # node for node: tests, counts, gains
    assert found.to_text() == expected.to_text()
    pd.testing.assert_frame_equal(found.trace_, expected.trace_)  # every column
    np.testing.assert_array_equal(found.predict(Xp), expected.predict(Xp))


def test_prediction_maps_partitions(data):
    on_dask, in_memory = data
    model = ID3Classifier(max_depth=4).fit(on_dask[FEATURES], on_dask["label"])
    predicted = model.predict(on_dask[FEATURES])
    assert isinstance(predicted, dd.Series) and predicted.npartitions == on_dask.npartitions
    np.testing.assert_array_equal(
        predicted.compute().to_numpy(), model.predict(in_memory[FEATURES])
    )
    proba = model.predict_proba(on_dask[FEATURES]).compute()
    assert proba.columns.tolist() == model.classes_.tolist()
    np.testing.assert_allclose(proba.to_numpy(), model.predict_proba(in_memory[FEATURES]))


@pytest.mark.parametrize("params", [{"max_depth": 2}, {"min_samples_leaf": 20, "min_gain": 0.001}])
def test_verbose_prints_what_the_in_memory_fit_prints(data, capsys, params):
    on_dask, in_memory = data
    ID3Classifier(verbose=1, **params).fit(on_dask[FEATURES], on_dask["label"])
    found = capsys.readouterr().out
    ID3Classifier(verbose=1, **params).fit(in_memory[FEATURES], in_memory["label"])
    assert found == capsys.readouterr().out and "split on" in found


def _upper_edges(values: np.ndarray, n_bins: int) -> np.ndarray:
    """Each value replaced by the upper edge of its equal-width bin, bins closed on the right."""
    present = values[~np.isnan(values)]
    edges = np.linspace(present.min(), present.max(), n_bins + 1)
    bins = np.clip(np.digitize(values, edges, right=True) - 1, 0, n_bins - 1)
    return np.where(np.isnan(values), np.nan, edges[bins + 1])


def test_numeric_bins_is_the_exact_tree_of_binned_values(data):
    """With numeric_bins, thresholds fall on bin edges; the splits chosen are those of the exact
    learner on values replaced by their bins' upper edges (the same rows go each way)."""
    on_dask, in_memory = data
    binned = ID3Classifier(max_depth=4, numeric_bins=8).fit(on_dask[FEATURES], on_dask["label"])
    Xb = in_memory[FEATURES].copy()
    for column in ["size", "count", "score"]:
        Xb[column] = _upper_edges(Xb[column].to_numpy(dtype=float), 8)
    reference = ID3Classifier(max_depth=4).fit(Xb, in_memory["label"])
    pairs = list(zip(binned.root_.walk(), reference.root_.walk()))
    assert len(pairs) == len(list(reference.root_.walk()))
    for mine, theirs in pairs:
        assert (mine.feature, mine.class_counts, mine.depth) == (
            theirs.feature,
            theirs.class_counts,
            theirs.depth,
        )
        if mine.is_numeric_split:
            assert mine.threshold in set(Xb[mine.feature].dropna())  # an upper edge
            assert close(mine.gain, theirs.gain)
    np.testing.assert_array_equal(binned.predict(in_memory[FEATURES]), reference.predict(Xb))


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------
def test_clear_errors(data, tmp_path):
    on_dask, in_memory = data
    with pytest.raises(ValueError, match="numeric_bins applies to Dask"):
        ID3Classifier(numeric_bins=8).fit(in_memory[FEATURES], in_memory["label"])
    with pytest.raises(TypeError, match="needs its data in memory"):
        id3tree.candidate_splits(on_dask["size"], on_dask["label"])
    with pytest.raises(TypeError, match="same Dask DataFrame"):
        id3tree.rank_features(on_dask[FEATURES], in_memory["label"])
    other = dd.from_pandas(in_memory, npartitions=3)
    with pytest.raises(ValueError, match="same Dask DataFrame"):
        id3tree.information_gain(on_dask["colour"], other["label"])
    missing = in_memory.assign(label=in_memory["label"].where(in_memory["size"] > -2))
    frame = dd.from_pandas(missing, npartitions=2)
    with pytest.raises(ValueError, match="missing label"):
        ID3Classifier().fit(frame[FEATURES], frame["label"])
    with pytest.raises(ValueError, match="missing label"):
        id3tree.rank_features(frame[FEATURES], frame["label"])
    bad = dd.from_pandas(in_memory.assign(size=in_memory["size"].replace(0.0, np.inf)), 2)
    with pytest.raises(ValueError, match="'size' has .* infinite"):
        id3tree.rank_features(bad[FEATURES], bad["label"])


def test_pandas_input_never_imports_dask():
    code = (
        "import sys, id3tree; from id3tree.datasets import load_play_tennis;"
        "X, y = load_play_tennis(return_X_y=True); id3tree.rank_features(X, y);"
        "id3tree.ID3Classifier().fit(X, y); assert 'dask' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------------------------------
# bad input is refused as pandas refuses it (issue: the third hardening round)
# ---------------------------------------------------------------------------------------------
def _error(call, *args) -> str:
    with pytest.raises(ValueError) as found:
        call(*args)
    return str(found.value)


@pytest.mark.parametrize("bins", [100_001, 10**9, 0, True, 2.5, "nope", [3, 1, 2], [[0, 1]]])
def test_bins_are_checked_by_one_validator(data, bins):
    """bins=10**9 killed the Dask workers (gigabytes of edges) where pandas refused."""
    on_dask, in_memory = data
    calls = [
        lambda X, y: id3tree.rank_features(X, y, method="mutual_information", bins=bins),
        lambda X, y: id3tree.rank_features(X, y, method="jsd", bins=bins),
        lambda X, y: id3tree.jsd_screen(X, y, bins=bins),
        lambda X, y: id3tree.mutual_information_matrix(X, bins=bins),
        lambda X, y: id3tree.mutual_information(X["size"], y, bins=bins),
        lambda X, y: id3tree.contingency_table(X["size"], y, bins=bins),
    ]
    for call in calls:
        expected = _error(call, in_memory[FEATURES], in_memory["label"])
        assert "bins" in expected
        assert _error(call, on_dask[FEATURES], on_dask["label"]) == expected


def test_a_column_mixing_numbers_and_text_is_refused_as_in_pandas(client):
    """dd.from_pandas turns such a column into text; pandas refuses it, and so must Dask."""
    frame = pd.DataFrame(
        {
            "m": pd.Series([1, "a", 2.5, "b"] * 5, dtype=object),
            "n": np.arange(20.0),
            "y": ["p", "q"] * 10,
        }
    )
    parts = dd.from_pandas(frame, npartitions=2)
    calls = [
        lambda t: id3tree.rank_features(t[["m", "n"]], t["y"]),
        lambda t: id3tree.rank_features(t[["m", "n"]], t["y"], method="jsd"),
        lambda t: id3tree.jsd_screen(t[["m", "n"]], t["y"]),
        lambda t: id3tree.mutual_information_matrix(t[["m", "n"]]),
        lambda t: id3tree.information_gain(t["m"], t["y"]),
        lambda t: stats.chi_square_test(t["m"], t["y"]),
    ]
    for call in calls:
        expected = _error(call, frame)
        assert "'m' mixes numbers and text (for example 1 and 'a')" in expected
        assert _error(call, parts) == expected


def test_a_dtype_that_differs_between_partitions_is_named(client):
    """A column numeric in the table's description and text in one partition: the column, both
    dtypes and a value are named (it was numpy's 'could not convert string to float')."""
    import dask

    first = pd.DataFrame({"a": [1.0, 2.0, 3.0], "y": ["u", "v", "u"]})
    second = pd.DataFrame({"a": ["x", "y", "z"], "y": ["u", "v", "v"]})
    table = dd.from_delayed(
        [dask.delayed(first), dask.delayed(second)], meta=first, verify_meta=False
    )
    calls = [
        lambda: id3tree.rank_features(table[["a"]], table["y"]),
        lambda: id3tree.mutual_information_matrix(table[["a"]]),
        lambda: id3tree.screen_features(table[["a"]]),
        lambda: id3tree.information_gain(table["a"], table["y"]),
        lambda: stats.anova_test(table["y"], table["a"]),
        lambda: stats.regression_test(table["a"], table["a"]),
    ]
    for call in calls:
        message = _error(call)
        assert "column 'a' has dtype float64" in message, message
        assert "in one of its partitions (for example 'x')" in message, message


def test_ties_are_exact_and_in_column_order_on_both(client):
    """Adult's education and education-num are one column coded two ways: every method that
    scores a feature's table gives them exactly the same score, and column order decides."""
    X, y = load_adult(return_X_y=True)
    X = X[["education", "education-num", "age"]]
    parts = dd.from_pandas(X.assign(income=y.to_numpy()), npartitions=3)
    for method in ("jsd", "mutual_information", "symmetric_uncertainty"):
        expected = id3tree.rank_features(X, y, method=method, bins=25)
        found = id3tree.rank_features(parts[list(X)], parts["income"], method=method, bins=25)
        for ranking in (expected, found):
            order = ranking.index.tolist()
            assert order.index("education") + 1 == order.index("education-num"), method
            score = ranking["score"]
            assert score["education"] == score["education-num"], method
        np.testing.assert_array_equal(found["score"], expected["score"])


def test_an_interval_target_of_text_is_named(data):
    on_dask, in_memory = data
    for table in (on_dask, in_memory):
        with pytest.raises(ValueError, match="needs a numeric .* 'colour' has dtype"):
            stats.anova_test(table["shape"], table["colour"])
        with pytest.raises(ValueError, match="needs a numeric .* 'label' has dtype"):
            stats.regression_test(table["size"], table["label"])


@pytest.mark.parametrize("way", ["one read", "kept", "read on each level"])
def test_the_tree_is_the_same_however_the_partitions_are_read(data, monkeypatch, way):
    """The grower keeps the partitions, encoded, in the workers' memory between levels when they
    fit (numeric columns coded once, counted with no sort): encoded by the read that describes
    them when the rows are known from the files' metadata ("one read"), else after a describing
    pass ("kept"); where they do not fit, it reads the frame on each level. All three grow the
    in-memory tree."""
    from id3tree.dask import core

    fits, kept = [], []
    persist, persist_if_fits = core.persist, core.persist_if_fits

    def spy_fits(parts, n_bytes):
        found = persist_if_fits(parts, n_bytes) if way == "kept" else None
        fits.append((n_bytes, found is not None))
        return found

    def spy_persist(parts):
        kept.append(len(parts))
        return persist(parts)

    monkeypatch.setattr(core, "persist_if_fits", spy_fits)
    monkeypatch.setattr(core, "persist", spy_persist)
    if way != "one read":
        monkeypatch.setattr(core, "known_rows", lambda frame: None)
    on_dask, in_memory = data
    found = ID3Classifier(max_depth=4).fit(on_dask[FEATURES], on_dask["label"])
    expected = ID3Classifier(max_depth=4).fit(in_memory[FEATURES], in_memory["label"])
    if way == "one read":
        assert fits == [] and kept == [on_dask.npartitions]
    else:
        assert len(fits) == 1 and fits[0][0] > 0
        assert fits[0][1] == (way == "kept")  # the cluster had room for them
        assert kept == ([on_dask.npartitions] if way == "kept" else [])
    assert found.to_dict() == expected.to_dict()
    pd.testing.assert_frame_equal(found.trace_, expected.trace_)


@pytest.mark.parametrize("kind", ["text", "int", "category"])
def test_the_describing_pass_counts_the_root_classes(client, kind):
    """The target's categories and counts from the one describing pass equal pandas's counts of
    the whole column, classes absent from some partitions (and an unused category) included."""
    from id3tree.dask import core

    labels = np.array(["b"] * 30 + ["a"] * 5 + ["c"] * 12 + ["b"] * 3)
    y = {
        "text": pd.Series(labels),
        "int": pd.Series(np.searchsorted(["a", "b", "c"], labels) * 7 + 1),
        "category": pd.Series(pd.Categorical(labels, categories=["c", "z", "b", "a"])),
    }[kind]
    frame = dd.from_pandas(pd.DataFrame({"t": y}), npartitions=4)
    wanted = {"t": ("y", "classes")}
    coding = core.codings_from(core.compute(core.describe(frame, wanted))[0], wanted)["t"]
    expected = y.value_counts()
    expected = expected[expected > 0]
    assert sorted(map(str, coding.categories)) == sorted(map(str, expected.index))
    np.testing.assert_array_equal(coding.counts, expected[coding.categories].to_numpy())
    assert coding.counts.sum() == len(y) and coding.n_missing == 0


@pytest.mark.parametrize(
    "params, kept",
    [
        ({}, True),
        ({}, False),
        ({"min_samples_leaf": 20, "criterion": "gain_ratio"}, True),
        ({"numeric_bins": 8}, True),
    ],
)
def test_a_level_counted_in_passes_and_sparse_tables_grows_the_same_tree(
    data, monkeypatch, params, kept
):
    """When a level's counts do not fit in the workers' memory together, the level takes one
    pass per feature (over rows routed once, kept for the level), and a categorical or binned
    feature whose dense (node, code, class) table would outgrow the rows keeps only its
    occurring cells. Both forced here on every level: the tree, its trace and its predictions
    are the in-memory learner's (with numeric_bins, the one-pass dense Dask fit's); each level
    took a pass per feature. Partitions not kept in the workers' memory are read (and routed)
    on each pass instead."""
    from id3tree.dask import core, level_pass, tree

    on_dask, in_memory = data
    reference = on_dask if "numeric_bins" in params else in_memory
    expected = ID3Classifier(max_depth=5, **params).fit(reference[FEATURES], reference["label"])
    passes, routed = [], []
    batches, route = level_pass.feature_batches, level_pass.routed_parts

    def spy_batches(features, n_bytes, budget):
        assert budget == 0 and all(n > 0 for n in n_bytes.values())
        found = batches(features, n_bytes, budget)
        passes.append((len(features), len(found)))
        return found

    def spy_route(parts, plan):
        routed.append(len(parts))
        return route(parts, plan)

    monkeypatch.setattr(tree._DaskGrowth, "_room", lambda self: 0)
    monkeypatch.setattr(tree, "DENSE_CELLS_PER_ROW", -(10**9))  # every table sparse
    monkeypatch.setattr(level_pass, "feature_batches", spy_batches)
    monkeypatch.setattr(level_pass, "routed_parts", spy_route)
    if not kept:
        monkeypatch.setattr(core, "known_rows", lambda frame: None)
        monkeypatch.setattr(core, "persist_if_fits", lambda parts, n_bytes: None)
    found = ID3Classifier(max_depth=5, **params).fit(on_dask[FEATURES], on_dask["label"])
    assert found.to_dict() == expected.to_dict()
    pd.testing.assert_frame_equal(found.trace_, expected.trace_)
    np.testing.assert_array_equal(
        found.predict(in_memory[FEATURES]), expected.predict(in_memory[FEATURES])
    )
    assert passes and all(n == m for n, m in passes)  # one pass per feature counted
    assert routed == [on_dask.npartitions] * sum(n > 1 for n, _ in passes) * kept
    assert core.workers_memory() == 2 * 10**9  # the fixture's two workers of 1 GB


def test_sparse_cells_equal_the_dense_table(client):
    """A (node, code, class) table kept as its occurring cells, merged from several partitions,
    gives the dense table's per-node tables, occurring pairs and categorical scores."""
    from id3tree.dask import level_pass
    from id3tree.dask.counted_splits import score_counted_categorical

    rng = np.random.default_rng(3)
    k, n_codes, n_classes = 7, 5, 3
    tables, sparse = [], []
    for n in (40, 1, 25):
        node = rng.integers(0, k + 1, n)  # k: rows of no scored node
        codes, y = rng.integers(0, n_codes, n), rng.integers(0, n_classes, n)
        work = np.empty(n, dtype=np.int64)
        dense = level_pass.count_cells(node, k + 1, codes, n_codes, y, n_classes, work)
        tables.append(dense[: k * n_codes * n_classes])
        sparse.append(level_pass.sparse_cells(node, k, codes, n_codes, y, n_classes, work))
    table = sum(tables).reshape(k, n_codes, n_classes)
    merged = level_pass.merge_sparse(sparse)
    for e in range(k):
        np.testing.assert_array_equal(merged[e], table[e])
    for a, b in zip(level_pass.table_pairs(merged), level_pass.table_pairs(table)):
        np.testing.assert_array_equal(a, b)
    expected = score_counted_categorical(table, min_leaf=3)
    got = level_pass.score_categorical(merged, table.sum(axis=1), 3)
    for field in ("valid", "gain", "split_info", "n_branches", "overall_entropy"):
        np.testing.assert_array_equal(getattr(got, field), getattr(expected, field))
    assert merged.counts.sum() == table.sum() and (merged.counts > 0).all()
