"""Writing a tree picture to a file: Graphviz when its ``dot`` program is installed, matplotlib
otherwise, so a student without admin rights still gets a picture."""

from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["check_image_path", "FORMATS", "SAVE_DPI", "save_tree_image"]

FORMATS = (".png", ".svg", ".pdf", ".dot")
SAVE_DPI = 150


def check_image_path(path) -> Path:
    """``path`` as a Path if it names a format a tree can be drawn in; a ValueError otherwise."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"cannot draw into {path.name!r}: use one of {', '.join(FORMATS)}")
    return path


def save_tree_image(model, path, *, engine: str = "auto", **options) -> str:
    """Draw a fitted model's tree into ``path`` (.png, .svg, .pdf or .dot).

    ``engine`` is ``"auto"`` (Graphviz if the ``dot`` program is found, else matplotlib),
    ``"graphviz"`` or ``"matplotlib"``; ``options`` go to ``to_dot``, ``to_graphviz`` or
    ``plot``. A picture is at most ``max_pixels`` (8,000) pixels a side, and of a tree too large
    for that, the deepest levels that fit are drawn with a note (see :doc:`/large_trees`); DOT
    text is not bounded unless ``max_pixels`` is given. Returns what drew it: ``"Graphviz"``,
    ``"matplotlib"`` or ``"DOT text"``.
    """
    path = check_image_path(path)
    suffix = path.suffix.lower()
    if suffix == ".dot":
        path.write_text(model.to_dot(**options), encoding="utf-8")
        return "DOT text"
    if engine not in ("auto", "graphviz", "matplotlib"):
        raise ValueError(f"engine must be 'auto', 'graphviz' or 'matplotlib', got {engine!r}")
    has_dot = shutil.which("dot") is not None
    if engine == "graphviz" and not has_dot:
        raise ValueError("the Graphviz 'dot' program is not installed; use engine='matplotlib'")
    if engine == "graphviz" or (engine == "auto" and has_dot):
        path.write_bytes(model.to_graphviz(**options).pipe(format=suffix[1:]))
        return "Graphviz"
    from id3tree.render.plot import MAX_PIXELS

    ax = model.plot(**options)
    # 150 dpi unless that would make a side longer than plot()'s bound allows
    limit = options.get("max_pixels", MAX_PIXELS)
    dpi = min(SAVE_DPI, limit / max(ax.figure.get_size_inches()))
    ax.figure.savefig(path, dpi=dpi, bbox_inches="tight")
    _close(ax.figure)
    return "matplotlib"


def _close(figure) -> None:
    """Free a figure made through pyplot (a bare Figure needs nothing)."""
    try:
        import matplotlib.pyplot as plt

        plt.close(figure)
    except Exception:  # noqa: BLE001  (no usable backend: nothing was registered with pyplot)
        pass
