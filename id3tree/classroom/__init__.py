"""A class run on id3tree: exercises with worked keys, and grading students' answers."""

__all__: list[str] = []  # (its modules are the API)
