"""Tests for id3tree.stats: the lecture's hmeq table, scipy and statsmodels references, edge cases.

Expected values are published ones (the lecture's hmeq table, as reproduced in the datasets'
SOURCES.md) or computed here independently of id3tree: scipy (chi2_contingency, f_oneway,
linregress, contingency.association), statsmodels (MNLogit) and closed-form tail probabilities.
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special as sp_special
from scipy import stats as sp_stats
from scipy.stats.contingency import association

from id3tree import ID3Classifier, information_gain, stats
from id3tree.base import contingency
from id3tree.datasets import load_adult, load_hmeq, load_play_tennis
from id3tree.stats import classical, logit

LN10 = math.log(10)

# The lecture's table (Week 7, "The Home Equity Loan Example"); p-values as in SOURCES.md.
HMEQ_TABLE = {
    "DELINQ": (302.7278, 9, "6.8868e-60"),
    "DEROG": (237.8857, 10, "1.9039e-45"),
    "DEBTINC": (144.4416, 1, "2.8447e-33"),
    "NINQ": (97.5806, 12, "1.6558e-15"),
    "CLAGE": (50.6898, 1, "1.0818e-12"),
    "JOB": (36.2547, 5, "8.4465e-07"),
    "YOJ": (14.8204, 1, "1.1825e-04"),
    "LOAN": (3.5111, 1, "0.0610"),
    "VALUE": (2.4398, 1, "0.1183"),
    "MORTDUE": (0.9512, 1, "0.3294"),
    "CLNO": (0.1896, 1, "0.6632"),
    "REASON": (0.1313, 1, "0.7171"),
}
HMEQ_IMPORTANCE = [59.2, 44.7, 32.5, 14.8, 12.0, 6.1, 3.9, 1.2, 0.9, 0.5, 0.2, 0.1]
HMEQ_SELECTED = {"DELINQ", "DEROG", "NINQ", "JOB", "DEBTINC", "CLAGE", "YOJ"}


@pytest.fixture(scope="module")
def hmeq_table():
    hmeq = load_hmeq().dropna()
    assert len(hmeq) == 3364
    X, y = hmeq.drop(columns="BAD"), hmeq["BAD"]
    return stats.test_features(X, y, categorical=["DEROG", "DELINQ", "NINQ"])


def statsmodels_api():
    return pytest.importorskip("statsmodels.api")


def random_categorical(rng, n, levels, skew=0.0):
    """Codes 0..levels-1, optionally tilted towards low codes."""
    weights = np.exp(-skew * np.arange(levels))
    return rng.choice(levels, size=n, p=weights / weights.sum())


# ---------------------------------------------------------------------------------------------
# The lecture's hmeq table
# ---------------------------------------------------------------------------------------------
def test_hmeq_statistics_df_and_pvalues_match_the_lecture(hmeq_table):
    assert set(hmeq_table.index) == set(HMEQ_TABLE)
    for feature, (statistic, df, pvalue) in HMEQ_TABLE.items():
        row = hmeq_table.loc[feature]
        assert f"{row['statistic']:.4f}" == f"{statistic:.4f}", feature
        assert row["df"] == df, feature
        shown = f"{row['pvalue']:.4e}" if "e" in pvalue else f"{row['pvalue']:.4f}"
        assert shown == pvalue, feature
        assert row["n"] == 3364 and row["n_dropped"] == 0


def test_hmeq_tests_follow_the_kinds(hmeq_table):
    categorical = {"REASON", "JOB", "DEROG", "DELINQ", "NINQ"}
    for feature, row in hmeq_table.iterrows():
        if feature in categorical:
            assert (row["kind"], row["test"], row["measure"]) == (
                "categorical",
                "chi-square",
                "Cramer's V",
            )
        else:
            assert (row["kind"], row["test"], row["measure"]) == (
                "interval",
                "deviance",
                "McFadden R2",
            )


def test_hmeq_ranking_by_importance_matches_the_lecture(hmeq_table):
    assert list(hmeq_table.index) == list(HMEQ_TABLE)  # the lecture's order, most important first
    assert hmeq_table["importance"].round(1).tolist() == HMEQ_IMPORTANCE
    assert hmeq_table["importance"].is_monotonic_decreasing
    assert hmeq_table["pvalue"].is_monotonic_increasing


def test_hmeq_selects_the_lectures_seven_features(hmeq_table):
    assert set(hmeq_table.index[hmeq_table["significant"]]) == HMEQ_SELECTED


def test_hmeq_chi_square_result_prints_as_one_line():
    hmeq = load_hmeq().dropna()
    result = stats.chi_square_test(hmeq["DELINQ"], hmeq["BAD"])
    assert str(result) == (
        "Pearson chi-square: statistic 302.7278, df 9, p-value 6.8868e-60, n 3364, importance 59.16"
    )


def test_hmeq_deviance_matches_statsmodels_as_the_lecture_ran_it():
    sm = statsmodels_api()
    hmeq = load_hmeq().dropna()
    for feature in ["LOAN", "DEBTINC", "CLAGE"]:
        fit = sm.MNLogit(hmeq["BAD"], sm.add_constant(hmeq[feature])).fit(
            method="newton", maxiter=1000, disp=False
        )
        result = stats.deviance_test(hmeq[feature], hmeq["BAD"])
        assert result.statistic == pytest.approx(fit.llr, rel=1e-8, abs=1e-6)
        assert result.df == fit.df_model
        assert result.pvalue == pytest.approx(fit.llr_pvalue, rel=1e-6)


# ---------------------------------------------------------------------------------------------
# References on random data
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_chi_square_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    n, levels, classes = rng.integers(30, 400), rng.integers(2, 7), rng.integers(2, 5)
    x = random_categorical(rng, n, levels, skew=0.3)
    y = (random_categorical(rng, n, classes) + (x > levels // 2)) % classes
    result = stats.chi_square_test(x, y)
    observed = pd.crosstab(x, y)
    statistic, pvalue, df, expected = sp_stats.chi2_contingency(observed, correction=False)
    assert result.statistic == pytest.approx(statistic, rel=1e-12)
    assert result.df == df
    assert result.pvalue == pytest.approx(pvalue, rel=1e-9, abs=1e-300)
    assert result.importance == pytest.approx(-math.log10(pvalue), rel=1e-9, abs=1e-12)
    np.testing.assert_array_equal(result.observed.to_numpy(), observed.to_numpy())
    np.testing.assert_allclose(result.expected.to_numpy(), expected, rtol=1e-12)
    assert list(result.observed.index) == list(observed.index)
    assert stats.cramers_v(x, y) == pytest.approx(
        association(observed.to_numpy(), method="cramer"), rel=1e-12
    )


@pytest.mark.parametrize("seed", range(8))
def test_g_test_matches_scipy_log_likelihood_and_information_gain(seed):
    rng = np.random.default_rng(100 + seed)
    n, levels, classes = rng.integers(30, 400), rng.integers(2, 6), rng.integers(2, 4)
    x = random_categorical(rng, n, levels)
    y = (random_categorical(rng, n, classes) + (x == 0)) % classes
    result = stats.g_test(x, y)
    statistic, pvalue, df, _ = sp_stats.chi2_contingency(
        pd.crosstab(x, y), correction=False, lambda_="log-likelihood"
    )
    assert result.statistic == pytest.approx(statistic, rel=1e-10)
    assert result.df == df
    assert result.pvalue == pytest.approx(pvalue, rel=1e-8)
    assert result.statistic == pytest.approx(
        2 * n * math.log(2) * information_gain(x.astype(str), y), rel=1e-10, abs=1e-10
    )  # as text, x splits one branch per value (a numeric x would split in two)


@given(
    st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("xyz")), min_size=2, max_size=60)
)
@settings(max_examples=60, deadline=None)
def test_g_is_2_n_ln2_times_the_information_gain(pairs):
    x, y = zip(*pairs)
    g = stats.g_test(list(x), list(y)).statistic
    assert g == pytest.approx(2 * len(x) * math.log(2) * information_gain(x, y), abs=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_anova_matches_scipy_f_oneway(seed):
    rng = np.random.default_rng(200 + seed)
    n, levels = rng.integers(20, 300), rng.integers(2, 7)
    x = random_categorical(rng, n, levels)
    y = rng.normal(size=n) * 3 + 0.4 * x
    result = stats.anova_test(x, y)
    groups = [y[x == level] for level in np.unique(x)]
    reference = sp_stats.f_oneway(*groups)
    assert result.statistic == pytest.approx(reference.statistic, rel=1e-10)
    assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-8)
    dfg, dfw = len(groups) - 1, n - len(groups)
    assert result.df == (dfg, dfw)
    f = reference.statistic  # eta^2 = SSG / SST = F dfg / (F dfg + dfw)
    assert stats.eta_squared(x, y) == pytest.approx(f * dfg / (f * dfg + dfw), rel=1e-10)


@pytest.mark.parametrize("seed", range(8))
def test_regression_matches_scipy_linregress(seed):
    rng = np.random.default_rng(300 + seed)
    n = rng.integers(5, 300)
    x = rng.normal(size=n) * 10 + 5
    y = 0.05 * x + rng.normal(size=n)
    result = stats.regression_test(x, y)
    reference = sp_stats.linregress(x, y)
    assert result.statistic == pytest.approx(reference.slope / reference.stderr, rel=1e-9)
    assert result.df == n - 2
    assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-8)
    assert stats.pearson_r2(x, y) == pytest.approx(reference.rvalue**2, rel=1e-10)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("classes", [2, 3, 4])
def test_deviance_matches_statsmodels_mnlogit(seed, classes):
    sm = statsmodels_api()
    rng = np.random.default_rng(400 + 10 * seed + classes)
    n = int(rng.integers(60, 400))
    x = rng.normal(size=n) * rng.choice([0.01, 1, 1000]) + rng.normal() * 50
    y = random_categorical(rng, n, classes)
    nudge = rng.random(n) < 0.2
    y[nudge] = np.where(x[nudge] > np.median(x), classes - 1, 0)
    fit = sm.MNLogit(y, sm.add_constant(x)).fit(method="newton", maxiter=1000, disp=False)
    result = stats.deviance_test(x, y)
    assert result.statistic == pytest.approx(fit.llr, abs=1e-6)
    assert result.df == fit.df_model == classes - 1
    assert result.pvalue == pytest.approx(fit.llr_pvalue, rel=1e-5, abs=1e-9)
    assert stats.mcfadden_r2(x, y) == pytest.approx(fit.prsquared, abs=1e-8)


def test_null_log_likelihood_is_minus_n_times_the_entropy_in_nats():
    counts = np.array([30, 10, 60])
    expected = float(np.sum(counts * np.log(counts / counts.sum())))
    assert logit.null_log_likelihood(counts) == pytest.approx(expected, rel=1e-14)


@given(
    st.lists(
        st.tuples(st.sampled_from("abc"), st.sampled_from([0, 1]), st.floats(-5, 5)),
        min_size=4,
        max_size=40,
    )
)
@settings(max_examples=40, deadline=None)
def test_association_measures_lie_between_0_and_1(rows):
    x, y, v = (list(c) for c in zip(*rows))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.PerfectSeparationWarning)
        measures = [
            stats.cramers_v(x, y),
            stats.eta_squared(x, v),
            stats.pearson_r2(v, [value * 2 + (i % 3) for i, value in enumerate(v)]),
            stats.mcfadden_r2(v, y),
        ]
    for value in measures:
        assert 0.0 <= value <= 1.0 + 1e-12


# ---------------------------------------------------------------------------------------------
# One chi-square, shared with the learner
# ---------------------------------------------------------------------------------------------
def test_chi_square_is_the_learners(monkeypatch):
    assert classical.chi_square_from_table is contingency.chi_square_from_table
    calls = []

    def spy(table):
        calls.append(np.asarray(table))
        return contingency.chi_square_from_table(table)

    monkeypatch.setattr(classical, "chi_square_from_table", spy)
    stats.chi_square_test(["a", "a", "b", "b"], [0, 1, 1, 1])
    assert len(calls) == 1 and calls[0].tolist() == [[1, 1], [0, 2]]


def test_learners_alpha_rule_agrees_with_chi_square_test():
    X, y = load_play_tennis(return_X_y=True)
    p = stats.chi_square_test(X["Outlook"], y).pvalue  # the root split: 0.1698
    assert ID3Classifier(alpha=p * 1.01).fit(X, y).get_depth() > 0
    assert ID3Classifier(alpha=p * 0.99).fit(X, y).get_depth() == 0


# ---------------------------------------------------------------------------------------------
# p-values far below the smallest double
# ---------------------------------------------------------------------------------------------
def test_chi_square_importance_is_right_when_p_underflows():
    result = stats.chi_square_test(["a"] * 5000 + ["b"] * 5000, [0] * 5000 + [1] * 5000)
    assert result.statistic == pytest.approx(10000.0)
    assert result.pvalue == 0.0
    # chi-square with 1 df: p = erfc(sqrt(s / 2)) = 2 Phi(-sqrt(s))
    log_p = math.log(2) + sp_special.log_ndtr(-math.sqrt(result.statistic))
    assert result.importance == pytest.approx(-log_p / LN10, rel=1e-10)
    assert math.isfinite(result.importance) and result.importance > 2000
    assert "e-2174" in str(result)


@pytest.mark.parametrize("statistic", [1500.0, 5000.0, 1e5])
def test_chi2_tail_in_log_space_against_the_exponential_case(statistic):
    from id3tree.stats.result import chi2_tail

    p, log_p = chi2_tail(statistic, 2)  # 2 df: p = exp(-s / 2) exactly
    assert log_p == pytest.approx(-statistic / 2, rel=1e-12)
    assert p == pytest.approx(math.exp(-statistic / 2), abs=1e-300)


def test_anova_importance_is_right_when_p_underflows():
    rng = np.random.default_rng(7)
    x = np.repeat(["a", "b", "c"], 400)
    y = np.repeat([0.0, 1.0, 2.0], 400) + rng.normal(size=1200) * 0.01
    result = stats.anova_test(x, y)
    assert result.pvalue == 0.0
    f, (dfn, dfd) = result.statistic, result.df
    assert dfn == 2  # F(2, d): P(F > f) = (1 + 2 f / d) ** (-d / 2) exactly
    log_p = -(dfd / 2) * math.log1p(2 * f / dfd)
    assert result.importance == pytest.approx(-log_p / LN10, rel=1e-9)
    assert result.importance > 1000


def log_t_two_sided_by_series(t: float, df: int) -> float:
    """ln P(|T| > t) = ln I_u(df/2, 1/2), u = df/(df+t^2), summed as the hypergeometric series
    I_u(a, b) = u^a (1-u)^b / (a B(a, b)) * sum_n (a+b)_n / (a+1)_n u^n."""
    a, b = df / 2, 0.5
    u = df / (df + t * t)
    term, total = 1.0, 1.0
    for k in range(10_000):
        term *= (a + b + k) / (a + 1 + k) * u
        total += term
        if term < 1e-17 * total:
            break
    return (
        a * math.log(u) + b * math.log1p(-u) - math.log(a) - sp_special.betaln(a, b)
    ) + math.log(total)


def test_regression_importance_is_right_when_p_underflows():
    rng = np.random.default_rng(11)
    x = rng.normal(size=2000)
    y = x + rng.normal(size=2000) * 0.4
    result = stats.regression_test(x, y)
    reference = sp_stats.linregress(x, y)
    assert reference.pvalue == 0.0 and result.pvalue == 0.0
    t = reference.slope / reference.stderr
    assert result.statistic == pytest.approx(t, rel=1e-9)
    expected = -log_t_two_sided_by_series(t, 1998) / LN10
    assert result.importance == pytest.approx(expected, rel=1e-8)
    assert result.importance > 300


def test_t_tail_series_reference_agrees_with_scipy_where_scipy_is_finite():
    for t, df in [(3.0, 10), (8.0, 50), (20.0, 200)]:
        assert log_t_two_sided_by_series(t, df) == pytest.approx(
            math.log(2 * sp_stats.t.sf(t, df)), rel=1e-10
        )


def test_importance_is_infinite_only_when_the_log_is():
    exact = stats.regression_test([1.0, 2.0, 3.0, 4.0], [3.0, 5.0, 7.0, 9.0])  # y = 1 + 2x
    assert exact.statistic == math.inf and exact.pvalue == 0.0
    assert exact.importance == math.inf
    split = stats.anova_test(["a", "a", "b", "b"], [1.0, 1.0, 2.0, 2.0])  # SSW = 0
    assert split.statistic == math.inf and split.importance == math.inf


# ---------------------------------------------------------------------------------------------
# Edge cases
# ---------------------------------------------------------------------------------------------
def test_single_category_gives_statistic_0_p_1_and_a_note():
    result = stats.chi_square_test(["a"] * 6, [0, 1, 0, 1, 1, 0])
    assert (result.statistic, result.df, result.pvalue, result.importance) == (0.0, 0, 1.0, 0.0)
    assert "single category" in result.note and "single category" in str(result)
    assert result.observed.shape == (1, 2) and result.expected is None
    assert stats.cramers_v(["a"] * 6, [0, 1, 0, 1, 1, 0]) == 0.0
    anova = stats.anova_test(["a"] * 4, [1.0, 2.0, 3.0, 4.0])
    assert (anova.statistic, anova.pvalue) == (0.0, 1.0) and "single category" in anova.note
    assert stats.eta_squared(["a"] * 4, [1.0, 2.0, 3.0, 4.0]) == 0.0


def test_single_class_target_gives_p_1_and_a_note():
    chi = stats.chi_square_test(["a", "b", "a", "b"], ["y"] * 4)
    assert chi.pvalue == 1.0 and "single class" in chi.note
    deviance = stats.deviance_test([1.0, 2.0, 3.0, 4.0], ["y"] * 4)
    assert (deviance.statistic, deviance.df, deviance.pvalue) == (0.0, 0, 1.0)
    assert "single class" in deviance.note


def test_empty_groups_are_dropped():
    x = pd.Categorical(["a", "b", "a", "b", "a", "b"], categories=["a", "b", "unused"])
    y = [1.0, 2.0, 1.5, 2.5, 0.5, 3.0]
    result = stats.anova_test(x, y)
    reference = sp_stats.f_oneway([1.0, 1.5, 0.5], [2.0, 2.5, 3.0])
    assert result.df == (1, 4)
    assert result.statistic == pytest.approx(reference.statistic)
    chi = stats.chi_square_test(x, [0, 1, 0, 1, 0, 1])
    assert chi.df == 1 and list(chi.observed.index) == ["a", "b"]


def test_group_emptied_by_missing_values_is_dropped():
    x = ["a", "a", "b", "b", "c", "c"]
    y = [1.0, 2.0, 3.0, 5.0, np.nan, None]
    result = stats.anova_test(x, y)
    assert result.n == 4 and result.df == (1, 2)
    assert result.statistic == pytest.approx(sp_stats.f_oneway([1.0, 2.0], [3.0, 5.0]).statistic)


def test_constant_feature_in_deviance_test_is_0_with_a_note():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = stats.deviance_test([3.0] * 10, [0, 1] * 5)
    assert (result.statistic, result.df, result.pvalue) == (0.0, 1, 1.0)
    assert "constant" in result.note
    assert stats.mcfadden_r2([3.0] * 10, [0, 1] * 5) == 0.0


def test_constant_columns_in_regression_test():
    flat_x = stats.regression_test([2.0] * 5, [1.0, 2.0, 3.0, 4.0, 5.0])
    flat_y = stats.regression_test([1.0, 2.0, 3.0, 4.0, 5.0], [2.0] * 5)
    too_few = stats.regression_test([1.0, 2.0], [3.0, 4.0])
    for result, words in [(flat_x, "constant"), (flat_y, "constant"), (too_few, "too few")]:
        assert (result.statistic, result.pvalue) == (0.0, 1.0) and words in result.note
    assert stats.pearson_r2([2.0] * 5, [1.0, 2.0, 3.0, 4.0, 5.0]) == 0.0


@pytest.mark.parametrize(
    "x, y",
    [
        (np.arange(20.0), [0] * 10 + [1] * 10),  # complete separation
        ([0.0, 1.0, 2.0, 2.0, 2.0, 3.0, 4.0], [0, 0, 0, 1, 0, 1, 1]),  # quasi-complete
        (np.arange(30.0), [0] * 10 + [1] * 10 + [2] * 10),  # three ordered classes
    ],
)
def test_perfect_separation_warns_and_does_not_hang(x, y, monkeypatch):
    fits = []  # the work done, counted: Newton steps, each with at most 41 evaluations

    def counted(*args):
        fits.append(fit := fit_multinomial_logit(*args))
        return fit

    fit_multinomial_logit = logit.fit_multinomial_logit
    monkeypatch.setattr(logit, "fit_multinomial_logit", counted)
    with pytest.warns(stats.PerfectSeparationWarning, match="separated"):
        result = stats.deviance_test(x, y)
    assert len(fits) == 1 and fits[0].separated
    assert 1 <= fits[0].iterations <= logit.MAX_ITER_SEPARATED  # bounded, whatever the machine
    assert f"after {fits[0].iterations} Newton steps" in result.note
    assert "separated" in result.note and math.isfinite(result.statistic)
    h_nats = sp_stats.entropy(np.bincount(y))
    assert 0 < result.statistic <= 2 * len(y) * h_nats + 1e-9  # G2 <= 2 N H(Y) (l1 <= 0)


def test_complete_separation_reaches_the_supremum():
    y = [0] * 10 + [1] * 10
    with pytest.warns(stats.PerfectSeparationWarning):
        result = stats.deviance_test(np.arange(20.0), y)
    assert result.statistic == pytest.approx(2 * 20 * math.log(2), abs=1e-6)  # l1 -> 0


def test_separation_is_detected_from_the_data():
    assert logit.separates(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1]), 2)
    # quasi-complete: only the tie at 2 is mixed, yet the slope can grow without end
    assert logit.separates(np.array([1.0, 2.0, 2.0, 3.0]), np.array([0, 1, 0, 1]), 2)
    assert not logit.separates(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 1, 0, 1]), 2)
    # class 1 alone at the top end: separated even though 0 and 2 overlap
    assert logit.separates(np.array([1.0, 3.0, 2.0, 4.0, 9.0]), np.array([0, 0, 2, 2, 1]), 3)
    assert not logit.separates(np.array([1.0, 3.0, 2.0, 9.0, 5.0]), np.array([0, 1, 2, 0, 1]), 3)


def test_all_values_missing_is_an_error_naming_the_column():
    x = pd.Series([np.nan, 1.0, np.nan], name="DEBTINC")
    y = pd.Series([0, None, 1], name="BAD")
    with pytest.raises(ValueError, match="column 'DEBTINC' has no rows with both values present"):
        stats.deviance_test(x, y)
    with pytest.raises(ValueError, match="column 'x' has no rows with both values present"):
        stats.chi_square_test([None, None], ["a", "b"])


def test_lengths_must_agree():
    with pytest.raises(ValueError, match="same length, got 3 and 2"):
        stats.chi_square_test(["a", "b", "a"], [0, 1])


@pytest.mark.parametrize(
    "call, column",
    [
        (lambda: stats.regression_test(pd.Series(["a", "b", "c"], name="JOB"), [1.0, 2, 3]), "JOB"),
        (lambda: stats.deviance_test(pd.Series([True, False, True], name="ok"), [0, 1, 0]), "ok"),
        (lambda: stats.anova_test(["a", "b", "a"], pd.Series(["u", "v", "w"], name="t")), "t"),
    ],
)
def test_interval_columns_must_be_numeric(call, column):
    with pytest.raises(ValueError, match=f"'{column}' has dtype"):
        call()


def test_pandas_dtypes_and_missing_values_are_accepted():
    x_str = pd.Series(["a", "b", None, "a", "b", "a"], dtype="str")
    x_cat = x_str.astype("category")
    y_bool = pd.Series([True, False, True, True, False, False])
    y_int = pd.Series([1, 0, 1, pd.NA, 0, 0], dtype="Int64")
    v = pd.Series([1.5, 2.5, 3.0, pd.NA, 0.5, 2.0], dtype="Float64")
    assert stats.chi_square_test(x_str, y_bool).n == 5
    assert stats.chi_square_test(x_cat, y_int).n == 4
    assert stats.anova_test(x_cat, v).n == 4
    assert stats.regression_test(y_int, v).n == 5
    assert stats.deviance_test(v, y_bool).n == 5
    list_result = stats.chi_square_test(["a", "b", None, "a", "b", "a"], list(y_bool))
    assert list_result == stats.chi_square_test(x_str, y_bool)


# ---------------------------------------------------------------------------------------------
# The result object
# ---------------------------------------------------------------------------------------------
def test_result_is_frozen_comparable_and_hashable():
    result = stats.anova_test(["a", "a", "b", "b", "c", "c"], [1.0, 2.0, 2.0, 3.0, 5.0, 6.0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.pvalue = 0.0
    assert hash(result) == hash(stats.anova_test(list("aabbcc"), [1.0, 2.0, 2.0, 3.0, 5.0, 6.0]))
    assert "df (2, 3)" in str(result)
    assert type(result).__name__ == "HypothesisTestResult"


def test_result_shows_as_a_table_in_jupyter():
    result = stats.chi_square_test(pd.Series(["u"] * 4, name="<a>"), [0, 1, 0, 1])
    page = result._repr_html_()
    assert page.startswith("<table><caption>Pearson chi-square</caption>")
    for header in ["statistic", "df", "p-value", "n", "importance"]:
        assert f"<th>{header}</th>" in page
    assert "&#x27;&lt;a&gt;&#x27; has a single category" in page  # the note, escaped


# ---------------------------------------------------------------------------------------------
# test_features
# ---------------------------------------------------------------------------------------------
def test_features_is_not_collected_by_pytest():
    assert stats.test_features.__test__ is False


def mixed_frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "color": rng.choice(["red", "green", "blue"], size=n),
            "size": rng.normal(size=n),
            "code": rng.integers(0, 3, size=n),
        }
    )
    target = np.where(frame["color"] == "red", 1, 0) ^ (rng.random(n) < 0.2)
    return frame, pd.Series(target, name="label")


def test_features_columns_order_and_rows_agree_with_the_tests():
    X, y = mixed_frame()
    table = stats.test_features(X, y)
    assert list(table.columns) == [
        "kind",
        "test",
        "statistic",
        "df",
        "pvalue",
        "importance",
        "association",
        "measure",
        "significant",
        "n",
        "n_dropped",
        "note",
    ]
    assert table.index.name == "feature" and table.index[0] == "color"
    assert table["pvalue"].is_monotonic_increasing
    chi = stats.chi_square_test(X["color"], y)
    assert table.loc["color", "statistic"] == chi.statistic
    assert table.loc["color", "association"] == stats.cramers_v(X["color"], y)
    assert table.loc["code", "test"] == "deviance"
    assert table.loc["size", "association"] == stats.mcfadden_r2(X["size"], y)
    assert table["significant"].tolist() == (table["pvalue"] < 0.05).tolist()


def test_features_categorical_by_name_or_position():
    X, y = mixed_frame()
    by_name = stats.test_features(X, y, categorical=["code"])
    by_position = stats.test_features(X, y, categorical=[2])
    pd.testing.assert_frame_equal(by_name, by_position)
    assert by_name.loc["code", "test"] == "chi-square"
    assert by_name.loc["code", "statistic"] == stats.chi_square_test(X["code"], y).statistic
    with pytest.raises(ValueError, match="'weight', which is not in X"):
        stats.test_features(X, y, categorical=["weight"])
    with pytest.raises(ValueError, match="position 5"):
        stats.test_features(X, y, categorical=[5])
    with pytest.raises(ValueError, match="categorical must be 'auto' or a list"):
        stats.test_features(X, y, categorical="code")


def test_features_interval_target():
    X, _ = mixed_frame()
    rng = np.random.default_rng(3)
    target = X["size"] * 2 + rng.normal(size=len(X)) + 0.5  # not whole numbers: interval
    table = stats.test_features(X, target)
    assert table.loc["color", "test"] == "ANOVA" and table.loc["color", "measure"] == "eta-squared"
    assert table.loc["size", "test"] == "regression"
    assert table.loc["color", "df"] == (2, len(X) - 3)
    reference = sp_stats.linregress(X["size"], target)
    assert table.loc["size", "association"] == pytest.approx(reference.rvalue**2)
    as_classes = stats.test_features(X, (target > 0).astype(float), target_kind="auto")
    assert as_classes.loc["size", "test"] == "deviance"  # 0.0 / 1.0 are whole numbers: classes
    forced = stats.test_features(X, (target > 0).astype(int), target_kind="interval")
    assert forced.loc["size", "test"] == "regression"
    with pytest.raises(ValueError, match="target_kind must be"):
        stats.test_features(X, target, target_kind="numeric")


def test_features_drop_missing_rows_per_feature_and_count_them():
    X, y = mixed_frame(n=50)
    X.loc[:9, "size"] = np.nan
    X["empty"] = np.nan
    y = y.astype("Int64")
    y[45] = pd.NA
    table = stats.test_features(X, y)
    assert table.loc["size", "n"] == 39 and table.loc["size", "n_dropped"] == 11
    assert table.loc["color", "n"] == 49 and table.loc["color", "n_dropped"] == 1
    assert table.index[-1] == "empty"
    empty = table.loc["empty"]
    assert empty["n"] == 0 and np.isnan(empty["pvalue"]) and not empty["significant"]
    assert "no rows with both values present" in empty["note"]


def test_features_arrays_alpha_and_errors():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 3))
    y = (X[:, 1] + rng.normal(size=80) > 0).astype(int)
    table = stats.test_features(X, y, alpha=1e-3)
    assert set(table.index) == {"x0", "x1", "x2"} and table.index[0] == "x1"
    assert table["significant"].tolist() == (table["pvalue"] < 1e-3).tolist()
    with pytest.raises(ValueError, match="alpha must be"):
        stats.test_features(X, y, alpha=1.5)
    with pytest.raises(ValueError, match="X has 80 rows but y has 79"):
        stats.test_features(X, y[:-1])


def test_features_underflowing_pvalues_are_ranked_by_importance():
    X, y = load_adult(return_X_y=True)
    table = stats.test_features(X, y)
    assert (table["pvalue"] == 0).sum() >= 5  # many p-values are below 1e-308 ...
    assert np.isfinite(table["importance"]).all()  # ... but their importance is finite
    assert table["importance"].is_monotonic_decreasing
    assert table.index[0] == "relationship"


def test_an_interval_target_of_text_is_refused_naming_it():
    X, y = load_play_tennis(return_X_y=True)
    with pytest.raises(
        ValueError, match="target_kind='interval' needs a numeric target, but 'Play'"
    ):
        stats.test_features(X, y, target_kind="interval")
