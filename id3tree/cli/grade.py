"""``id3tree grade``: mark a folder of students' answers to exercises made from a public seed.

Each file ``NAME.json`` or ``NAME.csv`` (or a file named as Moodle, Canvas, Blackboard or
Brightspace name a student's upload) holds the answers of the student NAME to the exercise
``make_exercise(kind, rows, seed, student=NAME)``: the one that student was given. The table has
one row per student: the score (0 to 1), the answers right out of those marked, and the feedback
(the first wrong step and why). For marks that count, use ``id3tree class``: its exercises come
from a secret, not from a seed a student can type.
"""

from __future__ import annotations

import argparse
import warnings

from id3tree.cli.classroom import add_marking_options, check_outputs, marking_options, print_grades
from id3tree.cli.common import UserError, add_exercise_kind_option

__all__ = ["add_grade_command", "run_grade"]


def run_grade(args: argparse.Namespace) -> int:
    from id3tree.classroom import SettingsMismatchWarning
    from id3tree.classroom.course import class_by_seed
    from id3tree.classroom.exercises import check_settings
    from id3tree.classroom.submissions import scan, student_names

    try:
        check_settings(args.kind, args.rows)
    except ValueError:
        raise UserError(f"--rows must be an integer from 6 to 40, got {args.rows}") from None
    if args.seed < 0:
        raise UserError(f"--seed must be 0 or more, got {args.seed}")
    weights, tolerance = marking_options(args)
    try:
        names = student_names(scan(args.folder)[0])
    except ValueError as error:
        raise UserError(str(error)) from None
    if not names:
        raise UserError(f"{args.folder!r} holds no answers (.json or .csv files, one per student)")
    klass = class_by_seed(names, args.kind, args.rows, args.seed)
    check_outputs(args, [s.file for s in klass.students])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SettingsMismatchWarning)  # (printed with the others)
        grades = klass.grade(
            args.folder, weights=weights, tolerance=tolerance, language=args.language
        )
    return print_grades(grades, args, "--seed, --kind and --rows")


def add_grade_command(commands) -> None:
    grade = commands.add_parser(
        "grade",
        help="mark a folder of students' answers (NAME.json or NAME.csv) to their exercises",
        description=(
            "Each file NAME.json or NAME.csv holds the answers of student NAME to the exercise "
            "made with the same --kind, --rows and --seed for that student (file names as "
            "learning management systems write them are read too). A CSV file has the header "
            "question,answer and one row per answer (root_entropy, gains/FEATURE, "
            "tree/branches/VALUE/predict, ...). For marks that count, see `id3tree class`."
        ),
    )
    grade.add_argument("folder", help="the folder of answer files, one per student")
    add_exercise_kind_option(grade, "the kind of exercise handed out (default: mixed)")
    grade.add_argument("--rows", type=int, default=12, help="rows per data set (as handed out)")
    grade.add_argument("--seed", type=int, default=0, help="the seed of the exercise handed out")
    add_marking_options(grade)
    grade.set_defaults(run=run_grade)
