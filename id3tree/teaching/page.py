"""The interactive page of a fitted tree: what it is made from, and the page itself.

:func:`tree_page` writes the page of :meth:`~id3tree.ID3Classifier.to_html` and of
``id3tree explore``: ``mode="explore"`` for the fitted tree (:mod:`id3tree.teaching.page_data`
makes its numbers for the whole tree at once), ``mode="build"`` for a student who grows a tree
of their own (:mod:`id3tree.teaching.build`).
"""

from __future__ import annotations

import numpy as np

from id3tree.base.language import current
from id3tree.render.html import MODES, page_html
from id3tree.teaching.page_data import PageSource, page_data
from id3tree.teaching.record import record_of
from id3tree.teaching.stability import Stability

__all__ = ["source_of", "stability_data", "tree_page"]


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


def stability_data(stability: Stability, node_ids: list[int]) -> dict:
    """What the explore page shows of ``tree.stability(X, y)``: lists by node in the page's
    order (``node_ids``), ``covered`` 0 for a node the result does not cover, shares written as
    the text and the drawings write them (``57%``), NaN as null."""
    if not isinstance(stability, Stability):
        raise TypeError(
            "stability must be the result of tree.stability(X, y) (a Stability) or None, got "
            f"{type(stability).__name__}"
        )
    rows = {int(row["node"]): row for row in stability.table.to_dict("records")}
    L = current()

    def column(name, shown=lambda v: v):
        return [
            None if i not in rows or rows[i][name] != rows[i][name] else shown(rows[i][name])
            for i in node_ids
        ]

    interval = [
        None
        if i not in rows
        else L.line(
            "{share} interval {low} to {high}",
            share=f"{stability.confidence:.0%}",
            low=L.number(f"{rows[i]['gain_low']:.3f}"),
            high=L.number(f"{rows[i]['gain_high']:.3f}"),
        )
        for i in node_ids
    ]

    def share(value):  # as the text and the drawings write it
        return f"{value:.0%}"

    return {
        "n_bootstrap": stability.n_bootstrap, "shaky_below": share(stability.shaky_below),
        "covered": [int(i in rows) for i in node_ids], "interval": interval,
        "same_feature": column("same_feature", share), "same_gap": column("same_gap", share),
        "runner_up": column("runner_up", str), "runner_up_share": column("runner_up_share", share),
        "no_split": column("no_split", share), "n_rows": column("n_rows", int),
        "gain": column("gain", lambda v: L.number(f"{v:.3f}")), "shaky": column("shaky", int),
    }  # fmt: skip


def tree_page(
    model, *, title: str | None = None, mode: str = "explore", test=None,
    holdout: float | None = None, random_state: int = 0, hints=None, stability=None,
) -> str:  # fmt: skip
    """The self-contained HTML page of a fitted :class:`~id3tree.ID3Classifier`: ``mode`` is
    ``"explore"`` (the fitted tree) or ``"build"`` (the student chooses every split; ``test``,
    ``holdout`` and ``random_state`` say which rows score it, ``hints`` which steps of the hint
    ladder the page offers, all of them by default: see :mod:`id3tree.teaching.build`).
    ``stability`` (``tree.stability(X, y)``, explore only) puts how stable each split is in the
    node's panel and in its box, and outlines the shaky splits."""
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

        if stability is not None:
            raise ValueError(
                "stability applies to mode='explore' only (the page of the fitted tree, whose "
                "splits it measures)"
            )
        hints = HINTS if hints is None else hints
        options = {"test": test, "holdout": holdout, "random_state": random_state, "hints": hints}
        data = build_data(model, source, **options)
        title = title or current().line("Grow the tree yourself: {n} features", n=str(n_features))
    else:
        given = {"test": test, "holdout": holdout, "hints": hints}
        which = next((name for name, value in given.items() if value is not None), None)
        if which is not None:
            raise ValueError(
                f"{which} applies to mode='build' only (the page where the student grows the "
                "tree and sees it scored on held-out rows)"
            )
        data = page_data(source)
        if stability is not None:
            data["stability"] = stability_data(stability, source.tree.ids.tolist())
        title = title or current().line(
            "Decision tree: {nodes} nodes, {n} features",
            nodes=str(source.tree.n_nodes),
            n=str(n_features),
        )
    return page_html(data, title=title, mode=mode)
