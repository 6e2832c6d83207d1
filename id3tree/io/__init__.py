"""A fitted tree in files: model files as plain JSON (persistence) and pickles whose tree is
flat arrays (pickling)."""
