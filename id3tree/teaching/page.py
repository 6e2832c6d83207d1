"""The interactive page of a fitted tree: what it is made from, and the page itself.

:func:`tree_page` writes the page of :meth:`~id3tree.ID3Classifier.to_html` and of
``id3tree explore``: ``mode="explore"`` for the fitted tree (:mod:`id3tree.teaching.page_data`
makes its numbers for the whole tree at once), ``mode="build"`` for a student who grows a tree
of their own (:mod:`id3tree.teaching.build`).
"""

from __future__ import annotations

import numpy as np

from id3tree.render.html import MODES, page_html
from id3tree.teaching.page_data import PageSource, page_data
from id3tree.teaching.record import record_of

__all__ = ["source_of", "tree_page"]


def source_of(model) -> PageSource:
    """What the page of a fitted :class:`~id3tree.ID3Classifier` is made from: its tree, the
    rows it was grown on and its trace (the teaching tools' error when it kept none)."""
    data = getattr(model, "_fit_data", None)
    trace = getattr(model, "_trace_columns", None)
    if data is None or trace is None:
        record_of(model)  # raises the teaching tools' error: say why and what to do
    if data.weight is not None and not np.all(data.weight == 1):
        raise ValueError(
            "the page writes the hand calculation with whole counts of rows; this tree was "
            "fitted with sample_weight or class_weight, so its counts are sums of weights. Use "
            "trace_, candidate_table() or verbose=1, which show the weighted counts"
        )
    return PageSource(model._tree, data, trace, model.criterion, int(model.min_samples_leaf))


def tree_page(
    model, *, title: str | None = None, mode: str = "explore", test=None,
    holdout: float | None = None, random_state: int = 0, hints=None,
) -> str:  # fmt: skip
    """The self-contained HTML page of a fitted :class:`~id3tree.ID3Classifier`: ``mode`` is
    ``"explore"`` (the fitted tree) or ``"build"`` (the student chooses every split; ``test``,
    ``holdout`` and ``random_state`` say which rows score it, ``hints`` which steps of the hint
    ladder the page offers, all of them by default: see :mod:`id3tree.teaching.build`)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if title is not None and not isinstance(title, str):
        raise ValueError(
            f"title must be text (a str) or None, got {type(title).__name__} {title!r}"
        )
    source = source_of(model)
    n_features = source.n_features
    if mode == "build" and getattr(model, "log_base", 2) != 2:
        raise ValueError(
            f"mode='build' works its entropies out in bits in the browser, and this tree has "
            f"log_base={model.log_base!r}: use mode='explore', or fit with log_base=2"
        )
    if mode == "build":
        from id3tree.teaching.build import HINTS, build_data

        hints = HINTS if hints is None else hints
        options = {"test": test, "holdout": holdout, "random_state": random_state, "hints": hints}
        data = build_data(model, source, **options)
        title = title or f"Grow the tree yourself: {n_features} features"
    else:
        given = {"test": test, "holdout": holdout, "hints": hints}
        which = next((name for name, value in given.items() if value is not None), None)
        if which is not None:
            raise ValueError(
                f"{which} applies to mode='build' only (the page where the student grows the "
                "tree and sees it scored on held-out rows)"
            )
        data = page_data(source)
        title = title or f"Decision tree: {source.tree.n_nodes} nodes, {n_features} features"
    return page_html(data, title=title, mode=mode)
