"""id3tree: decision trees with entropy, to learn from and to use.

An ID3 learner with multiway categorical splits and midpoint thresholds for numeric features,
step-by-step tracing, drawings of the tree, and the same entropy code reused for feature ranking
and classical tests.

Importing id3tree registers the Dask adapter (:mod:`id3tree.dask`), which takes over the
dispatched functions for Dask collections; dask itself is imported only when one is passed in.
"""

from id3tree import _moved, dask  # noqa: F401  (dask registers the Dask adapter)
from id3tree.base.diagnostics import IDLikeFeatureWarning, StrayValuesWarning
from id3tree.information import (
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
from id3tree.learner import ID3Classifier
from id3tree.model.node import Node
from id3tree.ranking import (
    JSDSelector,
    jsd_screen,
    mutual_information_matrix,
    plot_heatmap,
    rank_features,
    screen_features,
)

__version__ = "0.1.0"

_moved.register()  # the import paths of 0.1, for one release


def __dir__():  # the public names only: the folders are imported, not offered
    return sorted(__all__ + ["__version__"])


__all__ = [
    "ID3Classifier",
    "IDLikeFeatureWarning",
    "JSDSelector",
    "Node",
    "jsd_screen",
    "mutual_information_matrix",
    "plot_heatmap",
    "rank_features",
    "screen_features",
    "StrayValuesWarning",
    "candidate_splits",
    "conditional_entropy",
    "contingency_table",
    "entropy",
    "entropy_from_counts",
    "gain_ratio",
    "information_gain",
    "jensen_shannon_divergence",
    "kl_divergence",
    "mutual_information",
]
