"""id3tree on Dask: the counts-based functions and the learner on tables larger than memory.

Everything id3tree computes from a table is a function of contingency tables, and contingency
tables add up across partitions. So each function here makes one pass over the partitions that
counts (every partition gives a small table, the tables are summed on the workers in a tree) and
then hands the summed table to the same count -> measure function that pandas input uses. The
numbers are the same as with pandas, to rounding.

This package is imported only when a Dask collection is passed in, so id3tree works without dask
installed; ``pip install "id3tree[dask]"`` adds it. :func:`is_dask_collection` tells a Dask
collection apart without importing dask.
"""

from __future__ import annotations

import importlib
import sys

from id3tree import _backends


def is_dask_collection(value) -> bool:
    """True for a Dask DataFrame, Series or Array; never imports dask (if dask was never imported,
    nothing can be a Dask collection)."""
    dask = sys.modules.get("dask")
    return dask is not None and dask.is_dask_collection(value)


def any_dask(*values) -> bool:
    """True if any of the values is a Dask collection."""
    return any(is_dask_collection(v) for v in values)


IMPLEMENTATIONS = {}
"""The Dask version of each dispatched function of id3tree (see :mod:`id3tree._backends`): the
function's qualified name -> (module, function) of its Dask version, imported when first used."""
IMPLEMENTATIONS["id3tree.fitting.encode_and_grow"] = ("id3tree._dask.tree", "fit_on_dask")
IMPLEMENTATIONS["id3tree.learner.predictions"] = ("id3tree._dask.tree", "predict_partitions")


def implementation(name: str):
    """The Dask version of the dispatched function ``name``."""
    module, function = IMPLEMENTATIONS[name]
    return getattr(importlib.import_module(module), function)


_backends.register(_backends.Adapter("dask", is_dask_collection, implementation))
