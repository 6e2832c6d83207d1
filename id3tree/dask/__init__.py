"""id3tree on Dask: the counts-based functions and the learner on tables larger than memory.

Everything id3tree computes from a table is a function of contingency tables, and contingency
tables add up across partitions. So each function here makes one pass over the partitions that
counts (every partition gives a small table, the tables are summed on the workers in a tree) and
then hands the summed table to the same count -> measure function that pandas input uses. The
numbers are the same as with pandas, to rounding.

This module is the Dask *adapter* (see :mod:`id3tree.base.dispatch`): it registers itself when
id3tree is imported, claims Dask collections, and names in :data:`VERSIONS` the Dask version of
each dispatched function. The versions live in the modules of this package and are imported only
when a Dask collection is passed in, so id3tree works without dask installed, and pandas input
never imports dask; ``pip install "id3tree-learn[dask]"`` adds it. :func:`is_dask_collection` tells a
Dask collection apart without importing dask.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from id3tree.base.dispatch import Adapter, register

__all__ = ["any_dask", "is_dask_collection", "version", "VERSIONS"]

VERSIONS = {
    # the dispatched function (module.qualified name)  ->  its Dask version (module.name here)
    "id3tree.information.entropy": "measures.entropy",
    "id3tree.information.conditional_entropy": "measures.conditional_entropy",
    "id3tree.information._split_measures": "measures.split_measures",
    "id3tree.information._mutual_information": "measures.mutual_information",
    "id3tree.information._contingency_table": "measures.contingency_table",
    "id3tree.ranking.scores._rank": "ranking.rank_features",
    "id3tree.ranking.jsd._jsd_table": "ranking.jsd_screen",
    "id3tree.ranking.mi._mi_matrix": "ranking.mutual_information_matrix",
    "id3tree.ranking.screening._screen_table": "ranking.screen_features",
    "id3tree.stats.classical._observed": "stats.observed_table",
    "id3tree.stats.classical._group_sums": "stats.group_sums",
    "id3tree.stats.classical._co_moments": "stats.co_moments",
    "id3tree.stats.classical._deviance": "stats.deviance",
    "id3tree.engine.fitting.encode_and_grow": "tree.fit_on_dask",
    "id3tree.learner.predictions": "tree.predict_partitions",
}


def is_dask_collection(value: Any) -> bool:
    """True for a Dask DataFrame, Series or Array; never imports dask (if dask was never imported,
    nothing can be a Dask collection)."""
    dask = sys.modules.get("dask")
    return dask is not None and dask.is_dask_collection(value)


def any_dask(*values: Any) -> bool:
    """True if any of the values is a Dask collection."""
    return any(is_dask_collection(v) for v in values)


def version(name: str) -> Any:
    """The Dask version of the dispatched function ``name`` (imported now), or None."""
    found = VERSIONS.get(name)
    if found is None:
        return None
    module, _, function = found.rpartition(".")
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


register(
    Adapter(
        "Dask",
        is_dask_collection,
        version,
        in_memory_hint=(
            "call .compute() first if it fits, or use a function that takes Dask input "
            "(contingency tables, information measures, rankings, screens, classical tests, "
            "ID3Classifier.fit)"
        ),
    )
)
