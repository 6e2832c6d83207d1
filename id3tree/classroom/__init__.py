"""A class run on id3tree: exercises with worked keys, and grading students' answers."""
