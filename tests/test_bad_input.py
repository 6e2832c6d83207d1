"""Extreme numbers give the right answer or a clear error, and every entry point checks its input
the same way (docs/bad_input.md lists each case and its outcome)."""

from __future__ import annotations

import html
import math
import re
import shutil
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from id3tree import (
    ID3Classifier,
    candidate_splits,
    entropy,
    entropy_from_counts,
    information_gain,
    jensen_shannon_divergence,
    kl_divergence,
    mutual_information,
)
from id3tree.stats import anova_test, eta_squared, pearson_r2, regression_test, test_features


# ------------------------------------------------------------------------------------------------
# 8. overflow and precision
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1.0, 1e300, 1e308, 1e-300, 5e-324])
def test_entropy_of_counts_does_not_depend_on_their_scale(scale):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert entropy_from_counts([scale, scale]) == 1.0
        assert entropy_from_counts([scale, scale, scale, scale]) == 2.0
        assert entropy_from_counts([scale, 0.0]) == 0.0


def test_divergences_of_huge_counts_equal_those_of_their_proportions():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jsd = jensen_shannon_divergence([1e308, 1e308], [1e308, 0])
        kl = kl_divergence([1e308, 1e308], [1e308, 1e307])
    # scipy's jensenshannon is the square root of the divergence, in the given base
    assert jsd == pytest.approx(scipy.stats.entropy([0.75, 0.25], base=2) - 0.5, abs=1e-12)
    assert jsd == pytest.approx(jensen_shannon_divergence([1, 1], [1, 0]), abs=1e-15)
    assert kl == pytest.approx(scipy.stats.entropy([0.5, 0.5], [1 / 1.1, 0.1 / 1.1], base=2))


@pytest.mark.parametrize("scale", [1e-200, 1e-100, 1.0, 1e100, 1e200, 1e300])
def test_regression_and_anova_statistics_do_not_depend_on_scale(scale):
    rng = np.random.default_rng(1)
    x = rng.normal(size=40)
    y = 0.5 * x + rng.normal(size=40)
    groups = np.repeat(["a", "b", "c", "d"], 10)
    reference = scipy.stats.linregress(x, y)
    f_reference = scipy.stats.f_oneway(*(y[groups == g] for g in "abcd"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = regression_test(x * scale, y * scale)
        f = anova_test(groups, y * scale)
        r2, eta2 = pearson_r2(x * scale, y), eta_squared(groups, y * scale)
    assert t.statistic == pytest.approx(reference.slope / reference.stderr, rel=1e-12)
    assert t.pvalue == pytest.approx(reference.pvalue, rel=1e-9)
    assert f.statistic == pytest.approx(f_reference.statistic, rel=1e-12)
    assert f.pvalue == pytest.approx(f_reference.pvalue, rel=1e-9)
    assert r2 == pytest.approx(reference.rvalue**2, rel=1e-12)
    assert 0 <= eta2 <= 1


def test_integers_beyond_2_to_the_53_are_refused_as_numbers_and_kept_as_categories():
    X = pd.DataFrame({"id": [2**53, 2**53 + 1, 2**53, 2**53 + 1]})
    y = ["a", "b", "a", "b"]
    with pytest.raises(ValueError, match="'id'.*beyond 2\\*\\*53.*categorical="):
        ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="beyond 2\\*\\*53"):
        candidate_splits(X["id"], y)
    model = ID3Classifier(categorical=["id"]).fit(X, y)
    assert model.get_n_leaves() == 2 and model.score(X, y) == 1.0
    assert list(ID3Classifier.from_json(model.to_json()).predict(X)) == y
    # large integers that float64 does tell apart are fine as numbers
    far = pd.DataFrame({"id": [2**60, 2**61, 2**62, 2**62 + 2**20]})
    assert ID3Classifier().fit(far, [0, 0, 1, 1]).score(far, [0, 0, 1, 1]) == 1.0
    unsigned = pd.DataFrame({"id": pd.array([2**63 + 1, 2**63 + 2], dtype="UInt64")})
    with pytest.raises(ValueError, match="beyond 2\\*\\*53"):
        ID3Classifier().fit(unsigned, [0, 1])


# ------------------------------------------------------------------------------------------------
# 9. the same checks everywhere
# ------------------------------------------------------------------------------------------------
def test_complex_numbers_are_refused_by_predict_and_test_features_as_by_fit():
    model = ID3Classifier().fit(pd.DataFrame({"x": [1.0, 2.0]}), [0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning: a clear error instead
        with pytest.raises(ValueError, match="'x' holds complex numbers"):
            model.predict(pd.DataFrame({"x": [1 + 1j, 2.0]}))
        with pytest.raises(ValueError, match="complex"):
            model.predict(np.array([[1 + 1j]]))
        with pytest.raises(ValueError, match="'c' holds complex numbers"):
            test_features(pd.DataFrame({"c": [1 + 1j, 2, 3]}), [0, 1, 1])
        with pytest.raises(ValueError, match="complex"):
            information_gain(np.array([1 + 1j, 2, 3]), [0, 1, 1])


def test_test_features_refuses_duplicate_column_names_as_fit_does():
    X = pd.DataFrame([[1, 2], [3, 4], [5, 7]], columns=["a", "a"])
    for call in (lambda: ID3Classifier().fit(X, [0, 1, 1]), lambda: test_features(X, [0, 1, 1])):
        with pytest.raises(ValueError, match="duplicate column names: \\['a'\\]"):
            call()


@pytest.mark.parametrize(
    "fitted, given, then, now",
    [
        (
            pd.to_datetime(["2020-01-01", "2021-01-01"]),
            ["2020-01-01", "2021-01-01"],
            "dates",
            "text",
        ),
        ([True, False], ["True", "False"], "booleans", "text"),
        (["a", "b"], [b"a", b"b"], "text", "bytes"),
        (["a", "b"], [1.0, 2.0], "text", "numbers"),
        (pd.to_timedelta([1, 2], unit="D"), ["1 day", "2 days"], "timedeltas", "text"),
        (["a", "b"], ["a", 2], "text", "values of several kinds"),
    ],
)
def test_a_column_whose_kind_changed_since_fit_is_refused(fitted, given, then, now):
    X = pd.DataFrame({"c": pd.Series(fitted)})
    model = ID3Classifier(categorical=["c"]).fit(X, [0, 1])
    with pytest.raises(ValueError, match=f"'c' held {then}.* holds {now} now"):
        model.predict(pd.DataFrame({"c": pd.Series(given, dtype=object)}))
    assert model.predict(X).tolist() == [0, 1]  # the fitted kind still works
    missing = pd.DataFrame({"c": [None, None]})
    assert model.predict(missing).shape == (2,)  # all missing: nothing to compare


def test_a_boolean_column_takes_numbers_that_equal_its_values():
    model = ID3Classifier().fit(pd.DataFrame({"b": [True, False]}), [1, 0])
    assert model.predict(pd.DataFrame({"b": [1, 0]})).tolist() == [1, 0]


@pytest.mark.parametrize("base", [0, 1, -2, math.inf, math.nan, "e", True, None])
def test_a_base_without_a_logarithm_is_a_clear_error(base):
    for call in (
        lambda: entropy(["a", "b"], base=base),
        lambda: entropy_from_counts(
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], base=base
        ),
        lambda: information_gain([1.0, 2.0], [0, 1], base=base),
        lambda: mutual_information(["a", "b"], [0, 1], base=base),
        lambda: kl_divergence([1, 1], [1, 0], base=base),
        lambda: jensen_shannon_divergence([1, 1], [1, 0], base=base),
    ):
        with pytest.raises(ValueError, match="base must be a finite number > 0 other than 1"):
            call()


@pytest.mark.parametrize("base", [math.e, 10, 0.5, 3])
def test_other_bases_rescale_bits(base):
    assert entropy(["a", "b", "b"], base=base) == pytest.approx(
        scipy.stats.entropy([1, 2], base=base), rel=1e-12
    )


# ------------------------------------------------------------------------------------------------
# 6. DOT that Graphviz accepts and draws exactly
# ------------------------------------------------------------------------------------------------
def _odd_names_model():
    X = pd.DataFrame({"a\\Nb": ["x\\G", "y\tz", "x\\G", "y\tz"], "": [1.0, 2.0, 3.0, 4.0]})
    return ID3Classifier().fit(X, ["", "c\n", "", "c\n"])


def test_dot_has_no_empty_elements_and_no_graphviz_escapes():
    dot = _odd_names_model().to_dot()
    assert "<b></b>" not in dot and "<i></i>" not in dot
    # every backslash of the data is doubled (Graphviz reads a single one as an escape) ...
    assert "a\\\\Nb" in dot and "x\\\\G" in dot
    assert "\t" not in dot.replace("\n\t", "\n")  # ... and a tab is written as \t
    assert "y\\\\tz" in dot


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot program")
def test_graphviz_draws_odd_names_exactly():
    dot = _odd_names_model().to_dot()
    done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    texts = {html.unescape(t) for t in re.findall(r">([^<>]*)</text>", done.stdout)}
    assert {"a\\Nb", "x\\G", "y\\tz"} <= texts
    assert "a0b" not in texts and "xTree" not in texts


# ------------------------------------------------------------------------------------------------
# 7. resources: bounded by what is asked for, and said when squeezed
# ------------------------------------------------------------------------------------------------
def test_too_many_bins_are_refused_before_any_memory_is_asked_for():
    from id3tree import mutual_information_matrix, rank_features
    from id3tree.base.contingency import MAX_CELLS
    from id3tree.information import MAX_BINS

    x, y = np.arange(10.0), np.arange(10) % 2
    for call in (
        lambda: mutual_information(x, y, bins=10**9),
        lambda: rank_features(pd.DataFrame({"x": x}), y, method="mutual_information", bins=10**9),
        lambda: mutual_information_matrix(pd.DataFrame({"x": x, "z": x}), bins=MAX_BINS + 1),
    ):
        with pytest.raises(ValueError, match=f"more than {MAX_BINS}"):
            call()
    assert mutual_information(x, y.astype(str), bins=MAX_BINS) == pytest.approx(1.0)
    fine = int(MAX_CELLS**0.5) + 1  # two columns binned this finely: a table too large to count
    with pytest.raises(ValueError, match="too large to count"):
        mutual_information(x, x, bins=fine)


def test_text_of_a_deep_chain_grows_linearly():
    from id3tree.render.text import MAX_INDENT

    n = 3001
    X = np.arange(n, dtype=float).reshape(-1, 1)
    model = ID3Classifier().fit(X, np.arange(n) % 2)
    lines = model.to_text().splitlines()
    assert len(lines) == 2 * n - 1
    longest = max(len(line) for line in lines)
    assert longest < 4 * MAX_INDENT + 200  # not 4 x 3000 characters
    assert "[level 3000] |-- x0 > 2999.5: 1 sample " in lines[-1]


def test_a_tree_squeezed_into_a_small_axes_warns():
    from matplotlib.figure import Figure

    from id3tree.datasets import load

    X, y = load("car", return_X_y=True)
    model = ID3Classifier(max_depth=3).fit(X, y)
    ax = Figure(figsize=(1.5, 1), dpi=72).add_subplot()
    with pytest.warns(UserWarning, match="too small to read"):
        model.plot(ax=ax)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.plot()  # a figure sized to the tree: no squeeze, no warning


def test_saving_with_matplotlib_keeps_plots_pixel_cap(tmp_path, monkeypatch):
    import struct

    from id3tree.render.files import save_tree_image
    from id3tree.render.plot import MAX_PIXELS

    monkeypatch.setattr(shutil, "which", lambda name: None)  # as on a machine without Graphviz
    n = 300
    X = pd.DataFrame({"code": [f"c{i}" for i in range(n)]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an ID-like column, on purpose
        model = ID3Classifier().fit(X, np.arange(n) % 2)  # one split, 300 leaves side by side
    path = tmp_path / "wide.png"
    assert save_tree_image(model, path, fontsize=40) == "matplotlib"
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    assert max(width, height) <= MAX_PIXELS * 1.01
    assert width > 4_000  # still drawn large (9 boxes and a group, wrapped), within the cap


# -------------------------------------------------------------------------------------------------
# values named at predict time
# -------------------------------------------------------------------------------------------------
def _weather_model():
    from id3tree import ID3Classifier
    from id3tree.datasets import load_play_tennis

    X, y = load_play_tennis(return_X_y=True)
    X = X.assign(Temp=[85, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71])
    return ID3Classifier().fit(X, y), X, y


def test_a_text_value_in_a_numeric_column_is_named_with_its_row():
    """It said only "now has dtype str": no row, no value."""
    model, X, _ = _weather_model()
    new = X.astype({"Temp": object})
    new.loc[7, "Temp"] = "hot"
    with pytest.raises(
        ValueError, match=r"column 'Temp' was numeric at fit time but row 7 holds 'hot'"
    ):
        model.predict(new)


def test_rows_that_stop_early_are_marked_with_the_node_and_the_feature():
    model, X, _ = _weather_model()
    new = X.copy()
    new.loc[2, "Outlook"] = "Foggy"  # the root splits on Outlook: unseen there
    new.loc[4, "Outlook"] = None  # no training row missed Outlook
    table = model.stopped_early(new)
    assert table.loc[2].tolist() == [0, "Outlook", "Foggy", "unseen value"]
    assert table.loc[4, "reason"] == "missing value" and table.loc[4, "node"] == 0
    others = table.drop(index=[2, 4])
    assert (others["node"] == -1).all() and (others["reason"] == "").all()
    # the mark agrees with apply(): a row marked stops at an inner node
    assert (model.apply(new)[table["node"] >= 0] == table["node"][table["node"] >= 0]).all()


def test_predict_on_the_command_line_marks_rows_that_stopped_early(tmp_path, capsys):
    import io

    from id3tree.cli.commands import main

    model, X, y = _weather_model()
    path = tmp_path / "model.json"
    model.to_json(path)
    new = X.assign(Play=y)
    new.loc[2, "Outlook"] = "Foggy"
    new.loc[5, "Play"] = "Maybe"
    data = tmp_path / "new.csv"
    new.to_csv(data, index=False)
    assert main(["predict", str(path), str(data), "--target", "Play"]) == 0
    captured = capsys.readouterr()
    table = pd.read_csv(io.StringIO(captured.out), keep_default_na=False)
    assert table.loc[2, "stopped_early"] == "node 0: Outlook = 'Foggy' never seen there"
    assert (table.drop(index=2)["stopped_early"] == "").all()
    assert "1 row(s) hold class(es) the tree was not fitted on: ['Maybe']" in captured.err


def test_score_says_when_y_holds_a_class_the_tree_never_saw():
    from id3tree.base.diagnostics import UnseenClassWarning

    model, X, y = _weather_model()
    y = y.copy()
    y.iloc[3] = "Maybe"
    with pytest.warns(UnseenClassWarning, match=r"\['Maybe'\] \(first at row 3\)"):
        accuracy = model.score(X, y)
    assert accuracy == pytest.approx(13 / 14)


def _weather_csv(tmp_path, temps):
    from id3tree.datasets import load_play_tennis

    X, y = load_play_tennis(return_X_y=True)
    path = tmp_path / "weather.csv"
    X.assign(Temp=temps, Play=y).to_csv(path, index=False)
    table = pd.read_csv(path)  # as a user reads it: the stray value makes the column text
    return table.drop(columns="Play"), table["Play"]


def test_fit_names_the_stray_values_that_made_a_numbers_column_text(tmp_path):
    """It warned only that Temp looked like an identifier, never naming '72?'."""
    from id3tree.base.diagnostics import StrayValuesWarning

    temps = [85, 80, 83, 70, 68, 65, 64, "72?", 69, 75, 75, 72, 81, 71]
    X, y = _weather_csv(tmp_path, temps)
    assert not pd.api.types.is_numeric_dtype(X["Temp"])
    with pytest.warns(StrayValuesWarning) as record:
        ID3Classifier().fit(X, y)
    stray = [w for w in record if w.category is StrayValuesWarning]
    assert len(stray) == 1 and stray[0].filename == __file__  # said once, at the user's line
    message = str(stray[0].message)
    assert "column 'Temp' holds numbers but also '72?' (row 7), so it is read as text" in message
    assert "na_values=" in message
    # read as missing, as the warning says: a numeric column, and no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", StrayValuesWarning)
        X = X.assign(Temp=pd.to_numeric(X["Temp"].replace("72?", None)))
        assert ID3Classifier().fit(X, y).get_depth() > 0


@pytest.mark.parametrize(
    "temps",
    [
        ["hot", "mild", "cool"] * 4 + ["hot", "mild"],  # text: no number at all
        list(range(60, 74)),  # numbers: numeric already
        [85, 80, 83, 70, 68, 65, "a", "b", "c", "d", "e", "f", 81, 71],  # mostly not numbers
    ],
)
def test_fit_says_nothing_of_columns_without_stray_values(tmp_path, temps):
    from id3tree.base.diagnostics import StrayValuesWarning

    X, y = _weather_csv(tmp_path, temps)
    with warnings.catch_warnings():
        warnings.simplefilter("error", StrayValuesWarning)
        ID3Classifier(id_like="keep").fit(X, y)


@pytest.mark.timeout(600)  # a hang guard: it hung; the page is now bounded by the tree's size
def test_the_page_of_the_whole_adult_tree_is_written(tmp_path):
    from id3tree.datasets import load_adult

    X, y = load_adult(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    n_nodes = model._tree.n_nodes
    assert n_nodes > 10_000
    path = tmp_path / "adult.html"
    model.to_html(path)
    page = path.read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html") and page.rstrip().endswith("</html>")
    assert len(page) < 2_000 * n_nodes  # linear in the nodes: a few hundred bytes each


@pytest.mark.parametrize(
    "values",
    [
        ["85", "72?", "80", "64", "70", "71", "69", "75", "68", "81", "83"],
        [" 5", "7", "x", "8", "9", "10", "11", "12", "13", "14", "15"],
        ["-1.5", "+2", ".5", "n/a", "3e2", "4", "5", "6", "7", "8", "9"],
        ["a", "b", "1", "2"],
        ["1", "2", "3"],
        ["x", "y", "z"],
    ],
)
def test_the_quick_look_for_stray_values_hides_none(values):
    """fit parses only the distinct values that may be numbers: whenever the full count
    (diagnostics.stray_values) finds strays, the quick look must have let it look."""
    from id3tree.base.diagnostics import may_hold_stray_values, stray_values

    column = pd.Series(values, dtype=object)
    if stray_values(column):
        assert may_hold_stray_values(column.unique())
