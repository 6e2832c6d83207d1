"""Ways to see a tree. Every renderer takes a :class:`~id3tree.model.node.Node`, never the learner."""

__all__: list[str] = []  # (its modules are the API)
