"""The tree as data: the :class:`~id3tree.model.node.Node` that every reader of a tree takes,
and the flat arrays a fitted model keeps (:mod:`id3tree.model.grown_tree`). Stands on base/."""

__all__: list[str] = []  # (its modules are the API)
