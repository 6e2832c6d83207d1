"""Ways to see a tree. Every renderer takes a :class:`~id3tree.model.node.Node`, never the learner
(the fitted tree's ``to_text``, ``to_dot``, ``to_graphviz``, ``plot`` and ``plot_regions`` call
them). Each is imported when first used: matplotlib and Graphviz load only for a drawing."""

import importlib

__all__ = [
    "plot_regions",
    "plot_tree",
    "tree_to_dot",
    "tree_to_graphviz",
    "tree_to_svg",
    "tree_to_text",
]

_HOMES = dict(
    plot_regions="regions", plot_tree="plot", tree_to_dot="dot", tree_to_graphviz="dot",
    tree_to_svg="svg", tree_to_text="text",
)  # fmt: skip


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)


def __dir__():
    return sorted(__all__)
