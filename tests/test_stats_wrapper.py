"""Wrapper feature selection: every fitted model checked against statsmodels, searches with known
answers, the SWEEP operator, the result's views and the scikit-learn selector."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sp_stats
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from id3tree import stats
from id3tree.datasets import load_hmeq, load_titanic
from id3tree.stats import WrapperSelector, select_features, sweep_operator

sm = pytest.importorskip("statsmodels.api")

TITANIC = ["Pclass", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"]


# -------------------------------------------------------------------------------------------------
# statsmodels as the reference
# -------------------------------------------------------------------------------------------------
def reference_design(frame: pd.DataFrame, features: list[str], categorical: set[str]):
    """Intercept, then each categorical feature's indicators but the last level, then the value."""
    parts = [pd.Series(1.0, index=frame.index, name="const")]
    for feature in features:
        if feature in categorical:
            for level in sorted(frame[feature].unique())[:-1]:
                parts.append((frame[feature] == level).astype(float).rename(f"{feature}={level}"))
        else:
            parts.append(frame[feature].astype(float))
    return pd.concat(parts, axis=1)


def model_features(text: str) -> list[str]:
    return [] if text == "(intercept only)" else text.split(", ")


def assert_every_model_matches_statsmodels(result, X, y, categorical, fit):
    complete = pd.concat([X, y], axis=1).dropna()
    assert len(complete) == result.n
    Xc, yc = complete[X.columns], complete[y.name]
    assert len(result.candidates) >= 2
    for _, row in result.candidates.iterrows():
        design = reference_design(Xc, model_features(row["features"]), categorical)
        reference = fit(yc, design)
        where = f"model [{row['features']}]"
        assert row["log_likelihood"] == pytest.approx(reference.llf, abs=1e-6), where
        assert row["aic"] == pytest.approx(reference.aic, abs=1e-6), where
        assert row["bic"] == pytest.approx(reference.bic, abs=1e-6), where


def statsmodels_logit(y, design):
    with warnings.catch_warnings():  # the separated models warn; their supremum still agrees
        warnings.simplefilter("ignore")
        return sm.MNLogit(y, design).fit(method="newton", maxiter=300, disp=False)


def statsmodels_ols(y, design):
    return sm.OLS(y.astype(float), design).fit()


def test_every_logit_on_hmeq_matches_statsmodels():
    """Forward search over hmeq's twelve features: 72 logits."""
    hmeq = load_hmeq()
    X, y = hmeq.drop(columns="BAD"), hmeq["BAD"]
    result = select_features(X, y)
    assert result.model == "multinomial logit"
    assert result.n == 3364
    assert_every_model_matches_statsmodels(result, X, y, {"REASON", "JOB"}, statsmodels_logit)


def test_separated_logits_on_hmeq_reach_the_supremum_statsmodels_reaches():
    """With the counts as categories some categories hold only defaults: the classes are
    separated and the likelihood has a supremum, not a maximum. Both fits climb to it."""
    hmeq = load_hmeq().dropna()
    X, y = hmeq[["DELINQ", "DEROG"]], hmeq["BAD"]
    result = select_features(X, y, categorical=["DELINQ", "DEROG"], max_features=1)
    assert result.candidates["note"].str.contains("separated").any()
    assert_every_model_matches_statsmodels(result, X, y, {"DELINQ", "DEROG"}, statsmodels_logit)


def test_every_logit_on_titanic_matches_statsmodels():
    titanic = load_titanic()
    X, y = titanic[TITANIC], titanic["Survived"]
    result = select_features(X, y, direction="backward", categorical=["Pclass"])
    assert result.n == 712  # rows with Age and Embarked
    assert_every_model_matches_statsmodels(
        result, X, y, {"Pclass", "Sex", "Embarked"}, statsmodels_logit
    )


def test_multinomial_logit_with_three_classes_matches_statsmodels():
    titanic = load_titanic()
    X, y = titanic[["Sex", "Age", "Fare", "SibSp"]], titanic["Pclass"].rename("Pclass")
    result = select_features(X, y, target_kind="categorical", direction="both")
    assert result.candidates["n_parameters"].max() == 2 * 5
    assert_every_model_matches_statsmodels(result, X, y, {"Sex"}, statsmodels_logit)


def test_every_least_squares_fit_matches_statsmodels():
    hmeq = load_hmeq()
    X, y = hmeq.drop(columns=["BAD", "LOAN"]), hmeq["LOAN"]
    with pytest.raises(ValueError, match="target_kind='interval'"):  # whole numbers: classes?
        select_features(X, y)
    result = select_features(X, y, criterion="bic", target_kind="interval")
    assert result.model == "least squares"
    assert_every_model_matches_statsmodels(result, X, y, {"REASON", "JOB"}, statsmodels_ols)

    titanic = load_titanic()
    X, y = titanic[["Pclass", "Sex", "Age", "SibSp", "Parch", "Embarked"]], titanic["Fare"]
    result = select_features(X, y, direction="exhaustive", categorical=["Pclass"])
    assert len(result.candidates) == 2**6
    assert_every_model_matches_statsmodels(
        result, X, y, {"Pclass", "Sex", "Embarked"}, statsmodels_ols
    )


# -------------------------------------------------------------------------------------------------
# searches with a known answer
# -------------------------------------------------------------------------------------------------
def known_data(kind: str, n: int = 600, seed: int = 1):
    """y depends on a (strongly), b and the category g; c and d are noise."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=["a", "b", "c", "d"])
    X["g"] = rng.choice(["low", "mid", "high"], size=n)
    signal = 3 * X["a"] - 1.5 * X["b"] + X["g"].map({"low": -1.0, "mid": 0.0, "high": 1.0})
    if kind == "interval":
        return X, (signal + rng.normal(size=n)).rename("y")
    return X, (signal + rng.logistic(size=n) > 0).astype(int).rename("y")


@pytest.mark.parametrize("kind", ["interval", "categorical"])
@pytest.mark.parametrize("direction", ["forward", "backward", "both"])
@pytest.mark.parametrize("criterion", ["bic", "pvalue"])
def test_directional_searches_find_the_true_features(kind, direction, criterion):
    X, y = known_data(kind)
    kwargs = {"alpha_enter": 0.001} if criterion == "pvalue" else {}
    result = select_features(X, y, direction=direction, criterion=criterion, **kwargs)
    assert sorted(result.selected) == ["a", "b", "g"]
    if direction != "backward":  # the strongest feature enters first
        assert result.path["feature"].iloc[1] == "a"
        assert result.path["action"].iloc[1:].eq("enter").all()
    else:
        assert set(result.path["feature"].iloc[1:]) == {"c", "d"}
        assert result.path["action"].iloc[1:].eq("remove").all()


def test_a_categorical_feature_enters_as_one_feature_with_its_indicator_columns():
    X, y = known_data("interval")
    result = select_features(X, y, direction="forward", criterion="bic")
    row = result.path.set_index("feature").loc["g"]
    before = result.path[result.path["step"] == row["step"] - 1].iloc[0]
    assert row["n_features"] == before["n_features"] + 1
    assert row["n_parameters"] == before["n_parameters"] + 2  # three levels, one the reference
    assert row["df"] == 2
    assert result.design_columns["g"] == ["g=high", "g=low"]  # "mid", the last, is the reference


def test_forward_path_numbers_agree_with_their_definitions():
    X, y = known_data("categorical")
    result = select_features(X, y)
    path, n = result.path, result.n
    assert np.allclose(path["aic"], -2 * path["log_likelihood"] + 2 * path["n_parameters"])
    assert np.allclose(
        path["bic"], -2 * path["log_likelihood"] + math.log(n) * path["n_parameters"]
    )
    assert (path["aic"].diff().dropna() < 0).all()  # every step lowers the criterion
    assert (path["log_likelihood"].diff().dropna() > 0).all()
    steps = path.iloc[1:]
    g2 = 2 * path["log_likelihood"].diff().iloc[1:]
    assert np.allclose(steps["statistic"], g2)
    assert np.allclose(steps["pvalue"], sp_stats.chi2.sf(g2, steps["df"]))
    # no candidate left out at the end would lower the AIC further
    last = result.candidates[result.candidates["step"] == result.candidates["step"].max()]
    assert (last["aic"] >= path["aic"].iloc[-1]).all()


def test_first_forward_step_is_the_lecture_filter_test():
    """Entering one feature into the intercept-only logit is the lecture's deviance test (an
    interval feature) or the G test (a categorical one): same statistic, same p-value."""
    hmeq = load_hmeq().dropna()
    X, y = hmeq.drop(columns="BAD"), hmeq["BAD"]
    result = select_features(X, y, criterion="pvalue")
    first = result.candidates[result.candidates["step"] == 1].set_index("feature")
    for feature in ["LOAN", "DEBTINC", "CLAGE"]:
        test = stats.deviance_test(X[feature], y)
        assert first.loc[feature, "statistic"] == pytest.approx(test.statistic, rel=1e-8)
    for feature in ["JOB", "REASON"]:
        test = stats.g_test(X[feature], y)
        assert first.loc[feature, "statistic"] == pytest.approx(test.statistic, rel=1e-8)
        assert first.loc[feature, "df"] == test.df


def test_exhaustive_search_finds_the_smallest_aic_of_all_subsets():
    X, y = known_data("interval", n=200, seed=3)
    result = select_features(X, y, direction="exhaustive")
    assert len(result.candidates) == 2**5
    # the reference: statsmodels on every subset
    best = min(
        (
            statsmodels_ols(y, reference_design(X, list(s), {"g"})).aic,
            s,
        )
        for k in range(6)
        for s in itertools.combinations(X.columns, k)
    )
    assert sorted(result.selected) == sorted(best[1])
    assert result.path["action"].tolist() == [f"best of size {k}" for k in range(6)]
    chosen = result.candidates[result.candidates["chosen"]]
    assert len(chosen) == 1 and chosen["aic"].iloc[0] == pytest.approx(best[0])


def test_exhaustive_search_honours_max_features_and_refuses_too_many_models():
    X, y = known_data("interval", n=100)
    result = select_features(X, y, direction="exhaustive", max_features=2)
    assert result.candidates["n_features"].max() == 2
    assert len(result.candidates) == 1 + 5 + 10
    wide = pd.DataFrame(np.random.default_rng(0).normal(size=(50, 17)))
    with pytest.raises(ValueError, match="max_features"):
        select_features(wide, np.arange(50.0) + 0.5, direction="exhaustive")


def test_random_search_is_reproducible_and_keeps_the_best_draw():
    X, y = known_data("categorical", n=300)
    one = select_features(X, y, direction="random", n_iter=30, random_state=7)
    two = select_features(X, y, direction="random", n_iter=30, random_state=7)
    assert one.selected == two.selected
    pd.testing.assert_frame_equal(one.candidates, two.candidates)
    assert len(one.candidates) == 31  # the intercept alone, then 30 draws
    best = one.candidates.loc[one.candidates["aic"].idxmin()]
    assert one.candidates["chosen"].sum() == 1
    assert sorted(one.selected) == sorted(model_features(best["features"]))
    assert (one.path["aic"].diff().dropna() < 0).all()  # the path lists each improvement


# -------------------------------------------------------------------------------------------------
# aliased columns and the SWEEP operator
# -------------------------------------------------------------------------------------------------
def test_sweep_operator_inverts_and_solves_least_squares():
    rng = np.random.default_rng(0)
    Z = np.column_stack([np.ones(50), rng.normal(size=(50, 3))])
    y = rng.normal(size=50)
    swept = sweep_operator(Z.T @ Z)
    assert swept.aliased == []
    assert np.allclose(-swept.matrix, np.linalg.inv(Z.T @ Z))
    augmented = np.column_stack([Z, y])
    solved = sweep_operator(augmented.T @ augmented, range(4))
    coefficients, rss = np.linalg.lstsq(Z, y, rcond=None)[:2]
    assert np.allclose(solved.matrix[:4, 4], coefficients)
    assert solved.matrix[4, 4] == pytest.approx(rss[0])


def test_sweep_operator_reports_the_aliased_columns():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(2, 40))
    Z = np.column_stack([np.ones(40), a, 2 * a - 3, b, a + b])
    swept = sweep_operator(Z.T @ Z)
    assert swept.kept == [0, 1, 3] and swept.aliased == [2, 4]
    with pytest.raises(ValueError, match="square"):
        sweep_operator(np.ones((2, 3)))


def test_lecture_seven_interval_features_have_no_aliased_column():
    hmeq = load_hmeq()
    names = ["LOAN", "MORTDUE", "VALUE", "YOJ", "CLAGE", "CLNO", "DEBTINC"]
    full = hmeq[names].dropna()
    full.insert(0, "_Intercept", 1.0)
    swept = sweep_operator(full.T.to_numpy() @ full.to_numpy(), tolerance=1e-8)
    assert swept.aliased == []


def test_an_aliased_feature_is_reported_and_adds_no_parameter():
    X, y = known_data("categorical", n=400)
    X["a_again"] = 2 * X["a"] - 1  # a linear function of a
    X["g_code"] = X["g"].map({"low": 0, "mid": 1, "high": 2}).astype(str)  # g by another name
    backward = select_features(X, y, direction="backward")
    start = backward.path.iloc[0]
    assert start["aliased"] == "a_again, g_code=0, g_code=1"
    assert backward.path["feature"].iloc[1:3].tolist() == ["g_code", "a_again"]  # they go first
    assert backward.path["aliased"].iloc[2] == ""
    assert not {"a_again", "g_code"} & set(backward.selected)
    forward = select_features(X, y, direction="forward")
    assert "a_again" not in forward.selected and "g_code" not in forward.selected
    late = forward.candidates[forward.candidates["step"] == forward.path["step"].max() + 1]
    row = late.set_index("feature").loc["a_again"]
    assert row["aliased"] == "a_again" and row["df"] == 0 and math.isnan(row["pvalue"])


# -------------------------------------------------------------------------------------------------
# rows, views and mistakes
# -------------------------------------------------------------------------------------------------
def test_missing_values_drop_rows_or_become_a_category():
    titanic = load_titanic()
    X, y = titanic[["Sex", "Fare", "Embarked"]], titanic["Survived"]
    dropped = select_features(X, y, criterion="bic")
    assert dropped.n == 889 and dropped.n_dropped == 2
    assert dropped.design_columns["Embarked"] == ["Embarked=C", "Embarked=Q"]
    kept = select_features(X, y, criterion="bic", missing="category")
    assert kept.n == 891 and kept.n_dropped == 0
    # the missing values are a category of their own, and the last one: the reference
    assert kept.design_columns["Embarked"] == ["Embarked=C", "Embarked=Q", "Embarked=S"]


def test_text_and_html_views():
    X, y = known_data("interval", n=200)
    result = select_features(X, y, criterion="bic")
    text = str(result)
    assert text.startswith("Forward selection by BIC: least squares of 'y' on 200 rows")
    assert "selected: a, b, g" in text
    assert all(column in text for column in ["log_likelihood", "aic", "bic", "pvalue"])
    page = result._repr_html_()
    assert page.count("<tr") == len(result.path) + 1 and "selected: a, b, g" in page


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"direction": "sideways"}, "direction must be one of"),
        ({"criterion": "r2"}, "criterion must be one of"),
        ({"direction": "exhaustive", "criterion": "pvalue"}, "directional search"),
        ({"alpha_enter": 1.5}, r"alpha_enter must be a number in \(0, 1\), got 1.5"),
        ({"direction": "random", "random_state": "x"}, "random_state must be None, an integer"),
        ({"direction": "random", "random_state": -1}, "random_state must be None, an integer"),
        ({"direction": "random", "n_iter": 0}, "n_iter must be an integer >= 1"),
        ({"alpha_enter": 0.1, "alpha_remove": 0.05}, "alpha_remove"),
        ({"max_features": -1}, "max_features must be an integer"),
        ({"missing": "impute"}, "missing must be"),
        ({"target_kind": "ordinal"}, "target_kind must be"),
        ({"categorical": ["nope"]}, "'nope', which is not in X"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs, message):
    X, y = known_data("interval", n=50)
    with pytest.raises(ValueError, match=message):
        select_features(X, y, **kwargs)


def test_bad_data_says_what_is_wrong():
    X, y = known_data("categorical", n=50)
    with pytest.raises(ValueError, match="only one class"):
        select_features(X, np.zeros(50, dtype=int))
    with pytest.raises(ValueError, match="rows but y has"):
        select_features(X, y[:10])
    with pytest.raises(ValueError, match="no row has the target and every feature"):
        select_features(X.assign(a=np.nan), y)
    with pytest.raises(ValueError, match="infinite"):
        select_features(X.assign(a=np.inf), y)


# -------------------------------------------------------------------------------------------------
# the scikit-learn selector
# -------------------------------------------------------------------------------------------------
@parametrize_with_checks([WrapperSelector()], expected_failed_checks=lambda e: {})
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "No features were selected" on noise
        check(estimator)


def test_selector_in_a_pipeline_keeps_dataframes_and_feature_names():
    X, y = known_data("categorical", n=400)
    selector = WrapperSelector(criterion="bic").fit(X, y)
    assert selector.get_feature_names_out().tolist() == ["a", "b", "g"]
    assert list(selector.transform(X).columns) == ["a", "b", "g"]
    assert selector.result_.selected == ["a", "b", "g"]
    numeric = X[["a", "b", "c", "d"]]
    pipeline = make_pipeline(WrapperSelector(direction="both"), LogisticRegression())
    scores = cross_val_score(pipeline, numeric, y, cv=3)
    assert scores.mean() > 0.7
    assert pipeline.fit(numeric, y)[0].get_support().tolist()[:2] == [True, True]


# -------------------------------------------------------------------------------------------------
# hostile inputs: scale, endless searches, seeds
# -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1e200, 1e-200, 2.0**1000, 1e-300])
@pytest.mark.parametrize("kind", ["interval", "categorical"])
def test_features_near_the_float_limits_select_as_at_scale_1(kind, scale):
    """Standardising a column near 1e200 squared it to infinity (and near 1e-200 to 0), so the
    search selected nothing; the column is now divided by a power of two first, exactly."""
    X, y = known_data(kind, n=200)
    expected = select_features(X, y)
    X_scaled = X.copy()
    X_scaled[["a", "b", "c", "d"]] *= scale
    result = select_features(X_scaled, y)
    assert {"a", "b", "g"} <= set(expected.selected)
    assert result.selected == expected.selected
    np.testing.assert_allclose(result.path["aic"], expected.path["aic"], rtol=1e-9)


@pytest.mark.parametrize("scale", [1e200, 1e-200])
def test_an_interval_target_near_the_float_limits_moves_aic_by_n_log_scale_squared(scale):
    """AIC of least squares depends on the scale of y through n ln(sigma^2): multiplied by s, y
    adds n ln(s^2) to every AIC and changes no p-value and no choice."""
    X, y = known_data("interval", n=200)
    expected = select_features(X, y)
    result = select_features(X, y * scale, target_kind="interval")
    assert result.selected == expected.selected
    shift = 200 * 2 * math.log(scale)
    np.testing.assert_allclose(result.path["aic"] - expected.path["aic"], shift, rtol=1e-9)
    np.testing.assert_allclose(result.path["pvalue"], expected.path["pvalue"], rtol=1e-6)


def test_a_random_search_asked_for_more_draws_than_subsets_fits_each_once():
    """n_iter=10**9 ran for ever; now the draws are distinct subsets and stop when there are
    none left: 2**5 - 1 = 31 subsets of 5 features, plus the intercept alone."""
    X, y = known_data("categorical", n=120)
    result = select_features(X, y, direction="random", n_iter=10**9, random_state=0)
    drawn = result.candidates["features"].tolist()
    assert len(drawn) == 32 and len(set(drawn)) == 32
    assert "n_iter=1000000000 is more than the 31 distinct subsets" in result.path["note"].iloc[0]
    exhaustive = select_features(X, y, direction="exhaustive")
    assert sorted(result.selected) == sorted(exhaustive.selected)


def test_random_draws_are_distinct_and_their_sizes_cover_the_range():
    X, y = known_data("categorical", n=120)
    result = select_features(X, y, direction="random", n_iter=20, random_state=3, max_features=3)
    drawn = result.candidates["features"].iloc[1:]
    assert len(drawn) == 20 and drawn.is_unique
    assert set(result.candidates["n_features"].iloc[1:]) <= {1, 2, 3}


def test_a_random_search_of_more_fits_than_the_limit_is_refused_before_fitting():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(60, 30)), columns=[f"x{i}" for i in range(30)])
    y = (X["x0"] > 0).astype(int)
    with pytest.raises(ValueError, match="would fit 1000000000 models, more than 65536"):
        select_features(X, y, direction="random", n_iter=10**9)


def test_the_random_search_is_the_same_for_the_same_seed():
    X, y = known_data("interval", n=120)
    first = select_features(X, y, direction="random", n_iter=12, random_state=7)
    again = select_features(X, y, direction="random", n_iter=12, random_state=7)
    pd.testing.assert_frame_equal(first.candidates, again.candidates)
