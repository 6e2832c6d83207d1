"""``plot_heatmap``: any of the ranking frames as a coloured, annotated grid (matplotlib only)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["plot_heatmap"]


def plot_heatmap(
    frame: pd.DataFrame, *, ax: Any = None, annotate: bool = True, cmap: str = "viridis", fmt: str = ".2f",
    title: str | None = None,
) -> Any:  # fmt: skip
    """Draw a DataFrame as a heatmap and return the matplotlib Axes.

    Works for every frame of :mod:`id3tree.ranking`: the MI matrix, a JSD screen (classes by
    features), a ``rank_features`` table (one column) and the ``screen_features`` table. Only
    numeric (and boolean) columns are drawn. When all of them share one scale the colours do
    too (with a colour bar); when some columns were left out, as in the screening table, whose
    columns are counts, percents and bits, each column is coloured over its own range and the
    numbers in the cells carry the values. Missing values are grey and unlabelled.

    Parameters
    ----------
    frame : DataFrame
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure sized to the frame (up to 30 x 30 inches).
    annotate : bool, default=True
        Write each value in its cell. Turn it off for large frames (150 columns and more): the
        labels of the rows and columns shrink to stay readable, the numbers would not.
    cmap : str, default="viridis"
    fmt : str, default=".2f"
        Format of the annotations.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.figure.savefig("mi.png")`` writes it to a file.
    """
    import matplotlib.pyplot as plt  # only here: importing id3tree must not need a backend

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"plot_heatmap needs a DataFrame, got {type(frame).__name__}")
    numeric = frame.select_dtypes(include=["number", "bool"]).astype(float)
    if numeric.shape[1] == 0 or numeric.shape[0] == 0:
        raise ValueError("plot_heatmap needs a frame with at least one row and one numeric column")
    values = numeric.to_numpy()
    per_column = numeric.shape[1] < frame.shape[1] and numeric.shape[1] > 1
    colours = _scaled_by_column(values) if per_column else values
    n_rows, n_cols = values.shape
    size = max(3.0, min(10.0, 400.0 / max(n_rows, n_cols, 1)))
    texts = _texts(values, fmt) if annotate else None
    if ax is None:
        chars = max((len(t) for t in texts.ravel()), default=1) if annotate else 1  # type: ignore[union-attr]
        cell = max(0.3, 0.075 * size / 10 * chars + 0.15)
        width = min(30.0, max(4.0, 1.5 + cell * n_cols + 0.08 * _longest(numeric.index)))
        height = min(30.0, max(3.0, 1.0 + 0.3 * n_rows + 0.08 * _longest(numeric.columns)))
        _, ax = plt.subplots(figsize=(width, height))
    masked = np.ma.masked_invalid(colours)
    palette = plt.get_cmap(cmap).with_extremes(bad="lightgrey")
    image = ax.imshow(masked, cmap=palette, aspect="auto", interpolation="nearest")
    if not per_column:
        ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.02)
    ax.set_xticks(range(n_cols), [str(c) for c in numeric.columns], rotation=90, fontsize=size)
    ax.set_yticks(range(n_rows), [str(r) for r in numeric.index], fontsize=size)
    if numeric.columns.name:
        ax.set_xlabel(str(numeric.columns.name))
    if numeric.index.name:
        ax.set_ylabel(str(numeric.index.name))
    if annotate:
        _annotate(ax, image, texts, masked, size)
    if title:
        ax.set_title(title)
    return ax


def _texts(values: np.ndarray, fmt: str) -> np.ndarray:
    """The annotation of every cell: whole-number columns (counts) and values of 1,000 or more
    without decimals, missing values empty."""
    finite = np.where(np.isfinite(values), values, 0.0)
    whole = np.all(finite == np.round(finite), axis=0)
    texts = np.empty(values.shape, dtype=object)
    for (i, j), value in np.ndenumerate(values):
        if np.isnan(value):
            texts[i, j] = ""
        elif whole[j] or abs(value) >= 1000:
            texts[i, j] = f"{value:,.0f}"
        else:
            texts[i, j] = format(value, fmt)
    return texts


def _annotate(ax: Any, image: Any, texts: Any, masked: Any, size: Any) -> None:
    """Each cell's text, dark on light colours and light on dark ones."""
    rgba = image.cmap(image.norm(masked))
    luminance = rgba[..., :3] @ np.array([0.299, 0.587, 0.114])
    for (i, j), text in np.ndenumerate(texts):
        if text:
            colour = "black" if luminance[i, j] > 0.5 else "white"
            ax.text(j, i, text, ha="center", va="center", color=colour, fontsize=size)


def _scaled_by_column(values: np.ndarray) -> np.ndarray:
    """Each column mapped to [0, 1] over its own range (a constant column to 0)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column stays NaN
        low, high = np.nanmin(values, axis=0), np.nanmax(values, axis=0)
    span = np.where(high > low, high - low, 1.0)
    return (values - low) / span


def _longest(labels: Any) -> int:
    return max((len(str(v)) for v in labels), default=1)
