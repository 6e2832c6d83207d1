"""The foundations every other folder stands on, knowing no tree: the edge where pandas and
lists become numpy columns (validation), one validator per parameter, the one entropy formula,
contingency tables, the dispatcher that picks who computes, progress bars, the warnings about
columns, and how numbers are printed (pencil, latex)."""

__all__: list[str] = []  # (its modules are the API)
