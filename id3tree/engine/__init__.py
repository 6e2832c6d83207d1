"""Growth: the split searches (splits/), the rows kept sorted by node, the stopping rules, the
grower of a level at a time and what it records, routing rows down a tree, and pruning.

The engine prints nothing: growth reports each level to a listener that fitting hands it
(:class:`~id3tree.engine.record.Listener`); the trace is such a listener and lives above, in
trace/. Stands on base/ and model/."""

__all__: list[str] = []  # (its modules are the API)
