"""Classical tests of independence between a feature and a target, and their measures.

Which test depends on the kinds of the feature and the target (categorical or interval):
:func:`chi_square_test`, :func:`anova_test`, :func:`regression_test` and :func:`deviance_test`,
with the association measures :func:`cramers_v`, :func:`eta_squared`, :func:`pearson_r2` and
:func:`mcfadden_r2`. :func:`test_features` picks the test for every column of a table and ranks
the columns by ``importance = -log10 p``.

The wrapper methods search subsets of features by fitting a model to each:
:func:`select_features` (forward, backward, stepwise, exhaustive or random search scored by AIC,
BIC or the likelihood-ratio p-value) and :class:`WrapperSelector`, the same as a scikit-learn
selector. :func:`sweep_operator` finds aliased columns the way the lecture does.
"""

from id3tree.stats.classical import (
    PerfectSeparationWarning,
    anova_test,
    chi_square_test,
    cramers_v,
    deviance_test,
    eta_squared,
    g_test,
    mcfadden_r2,
    pearson_r2,
    regression_test,
)
from id3tree.stats.result import HypothesisTestResult
from id3tree.stats.selection import test_features
from id3tree.stats.selector import WrapperSelector
from id3tree.stats.sweep import sweep_operator
from id3tree.stats.wrapper import SelectionResult, select_features

__all__ = [
    "HypothesisTestResult", "PerfectSeparationWarning", "SelectionResult", "WrapperSelector",
    "anova_test", "chi_square_test", "cramers_v", "deviance_test", "eta_squared", "g_test",
    "mcfadden_r2", "pearson_r2", "regression_test", "select_features", "sweep_operator",
    "test_features",
]  # fmt: skip
