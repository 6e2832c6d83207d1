"""A class run on id3tree: each student's own data from a roster and a secret, handouts and
keys, and the marks of what the students hand in (:func:`make_class`); the exercises and the
grader it is made of are :mod:`id3tree.classroom.exercises` and :mod:`id3tree.classroom.grading`.
"""

from id3tree.classroom.course import Class, make_class
from id3tree.classroom.results import (
    ClassGrades,
    SettingsMismatchWarning,
    StudentGrade,
    gradescope_result,
)
from id3tree.classroom.roster import Student, new_secret, read_roster, read_secret

__all__ = [
    "Class", "ClassGrades", "SettingsMismatchWarning", "Student", "StudentGrade",
    "gradescope_result", "make_class", "new_secret", "read_roster", "read_secret",
]  # fmt: skip
