"""Decision regions: what a tree on two numeric features does to the plane.

Every numeric split cuts a rectangle of the plane in two with a vertical or horizontal line, so
the leaves of a tree that splits only on two numeric features tile the plane with rectangles.
:func:`plot_regions` walks the tree from the root, cutting the bounding box of the data as it
goes, fills each leaf's rectangle in the colour of its class (paler where the leaf is less pure),
draws every split line inside the rectangle it cuts, and puts the training points on top. The
drawing is exact: no grid of predictions is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from id3tree.base.words import format_number
from id3tree.model.node import Node
from id3tree.render.style import BORDER_COLOR, class_list, class_palette, fill_color

__all__ = ["leaf_rectangles", "plot_regions"]


def leaf_rectangles(
    root: Node, features: Sequence[str], bounds: tuple[float, float, float, float]
) -> tuple[list[tuple[Node, tuple]], list[tuple[Node, tuple]]]:
    """The rectangle ``(x_low, x_high, y_low, y_high)`` of every leaf, and the segment
    ``((x0, y0), (x1, y1))`` of every split, both clipped to ``bounds``.

    Raises ValueError if the tree splits on anything but ``features`` (both numeric). The
    branch of missing values has no place in the plane and is left out.
    """
    f_x, f_y = features
    leaves, lines = [], []
    stack = [(root, bounds)]
    while stack:
        node, (x0, x1, y0, y1) = stack.pop()
        if node.is_leaf:
            leaves.append((node, (x0, x1, y0, y1)))
            continue
        if node.feature not in (f_x, f_y) or not node.is_numeric_split:
            kind = "numeric" if node.is_numeric_split else "categorical"
            raise ValueError(
                f"the tree splits on the {kind} feature {node.feature!r} (node {node.node_id}); "
                f"a region plot shows trees that split only on {f_x!r} and {f_y!r}: fit the tree "
                f"on those two columns"
            )
        t = node.threshold
        if node.feature == f_x:
            cut = min(max(t, x0), x1)
            lines.append((node, ((cut, y0), (cut, y1))))
            below, above = (x0, cut, y0, y1), (cut, x1, y0, y1)
        else:
            cut = min(max(t, y0), y1)
            lines.append((node, ((x0, cut), (x1, cut))))
            below, above = (x0, x1, y0, cut), (x0, x1, cut, y1)
        for key, child in node.children.items():
            if key == "<=":
                stack.append((child, below))
            elif key == ">":
                stack.append((child, above))
    return leaves, lines


def plot_regions(
    root: Node, X, y, *, features: Sequence[str], classes: Sequence | None = None, ax=None,
    class_colors: Mapping | None = None, annotate: bool = False, split_labels: bool = True,
    margin: float = 0.05, point_size: float = 18.0,
):  # fmt: skip
    """Draw the decision regions of a tree that splits on two numeric features.

    Parameters
    ----------
    root : Node
        The tree (a fitted learner's ``root_``).
    X : array-like of shape (n_samples, 2)
        The points to draw, columns in the order of ``features`` (x axis, then y axis).
    y : array-like of shape (n_samples,)
        Their classes (the colour of each point).
    features : pair of str
        The names of the two features, as the tree knows them.
    classes : sequence, optional
        The classes in colour order; default: the order of ``root.class_counts``.
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.
    class_colors : mapping, optional
        Class -> colour, as in the tree drawings.
    annotate : bool, default=False
        Write each leaf's class counts in its rectangle.
    split_labels : bool, default=True
        Label each split line with its test (``petal_width <= 0.8``).
    margin : float, default=0.05
        Space around the points, as a share of their range.
    point_size : float, default=18.0

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    features = tuple(features)
    if len(features) != 2:
        raise ValueError(f"features must name two features, got {features!r}")
    points = np.asarray(X, dtype=float)
    labels = np.asarray(y, dtype=object)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"X must have two columns ({features[0]}, {features[1]})")
    if len(labels) != len(points):
        raise ValueError(f"X has {len(points)} rows but y has {len(labels)}")
    classes = class_list(root, classes)
    palette = class_palette(classes, dict(class_colors or {}))
    present = ~np.isnan(points).any(axis=1)
    low, high = np.nanmin(points[present], axis=0), np.nanmax(points[present], axis=0)
    pad = np.where(high > low, (high - low) * margin, 0.5)
    bounds = (low[0] - pad[0], high[0] + pad[0], low[1] - pad[1], high[1] + pad[1])
    leaves, lines = leaf_rectangles(root, features, bounds)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 4.8))

    # 1. the regions, 2. the split lines, 3. the points
    for node, (x0, x1, y0, y1) in leaves:
        color = fill_color(node, palette, len(classes))
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, color=color, alpha=0.45, lw=0))
        if annotate:
            counts = ", ".join(f"{v:g}" for v in node.class_counts.values())
            ax.text(
                (x0 + x1) / 2, (y0 + y1) / 2, f"({counts})", ha="center", va="center", fontsize=8,
                color=BORDER_COLOR,
            )  # fmt: skip
    for node, ((x0, y0), (x1, y1)) in lines:
        ax.plot([x0, x1], [y0, y1], color="black", lw=1.4, zorder=3)
        if split_labels:
            text = f"{node.feature} \u2264 {format_number(node.threshold)}"
            vertical = x0 == x1
            ax.annotate(
                text,
                xy=(x0, y1) if vertical else (x1, y1),
                xytext=(2, -2),
                textcoords="offset points",
                ha="left" if vertical else "right",
                va="top" if vertical else "bottom",
                rotation=90 if vertical else 0,
                fontsize=7,
                zorder=4,
            )
    for c in classes:
        mine = present & (labels == c)
        if mine.any():
            ax.scatter(
                *points[mine].T, s=point_size, color=palette[c], edgecolor=BORDER_COLOR,
                linewidth=0.5, label=str(c), zorder=5,
            )  # fmt: skip
    ax.set_xlim(bounds[0], bounds[1])
    ax.set_ylim(bounds[2], bounds[3])
    ax.set_xlabel(features[0])
    ax.set_ylabel(features[1])
    ax.legend(title="class", loc="best", fontsize=8)
    return ax
