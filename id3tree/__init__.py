"""id3tree: decision trees with entropy, to learn from and to use.

An ID3 learner with multiway categorical splits and midpoint thresholds for numeric features,
step-by-step tracing, drawings of the tree, and the same entropy code reused for feature ranking
and classical tests.

Importing id3tree registers the Dask adapter (:mod:`id3tree.dask`), which takes over the
dispatched functions for Dask collections; dask itself is imported only when one is passed in.
The public names are loaded when first used (``from id3tree import ID3Classifier`` loads the
learner and what it needs): so ``id3tree --help`` starts without numpy, pandas or scikit-learn.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from id3tree import _moved, dask  # noqa: F401  (dask registers the Dask adapter)

if TYPE_CHECKING:  # what type checkers and editors see; at run time, __getattr__ below
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
    from id3tree.teaching.complexity import complexity_table, plot_complexity

__version__ = "0.1.0"

_moved.register()  # the import paths of 0.1, for one release

_HOMES = {
    "id3tree.base.diagnostics": ["IDLikeFeatureWarning", "StrayValuesWarning"],
    "id3tree.information": [
        "candidate_splits", "conditional_entropy", "contingency_table", "entropy",
        "entropy_from_counts", "gain_ratio", "information_gain", "jensen_shannon_divergence",
        "kl_divergence", "mutual_information",
    ],
    "id3tree.learner": ["ID3Classifier"],
    "id3tree.model.node": ["Node"],
    "id3tree.ranking": [
        "JSDSelector", "jsd_screen", "mutual_information_matrix", "plot_heatmap",
        "rank_features", "screen_features",
    ],
    "id3tree.teaching.complexity": ["complexity_table", "plot_complexity"],
}  # fmt: skip
"""Where each public name lives: imported from there the first time it is asked for."""

_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name, imported from its home on first use (then kept as an attribute); a
    subpackage or module (``id3tree.stats``), imported as ``import id3tree.stats`` would."""
    home = _HOME_OF.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home), name)
        globals()[name] = value
        return value
    if (
        not name.startswith("_")
        and name not in _moved.MOVED  # (an old path is imported only by name, with its warning)
        and importlib.util.find_spec(f"{__name__}.{name}") is not None
    ):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:  # the public names only: the folders are imported, not offered
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
    "complexity_table",
    "plot_complexity",
]
