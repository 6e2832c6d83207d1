"""A fitted tree in files: model files as plain JSON (persistence) and pickles whose tree is
flat arrays (pickling)."""

__all__: list[str] = []  # (its modules are the API)
