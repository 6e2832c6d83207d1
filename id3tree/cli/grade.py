"""``id3tree grade``: mark a folder of students' answers (:func:`id3tree.classroom.grading.grade_file`).

Each file ``NAME.json`` or ``NAME.csv`` in the folder holds the answers of the student NAME to
the exercise ``make_exercise(kind, rows, seed, student=NAME)``: the one that student was given.
The table has one row per student: the score (0 to 1), the answers right out of those marked,
and the feedback (the first wrong step and why).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from id3tree.cli.common import UserError, add_exercise_kind_option, check_new_file

__all__ = ["add_grade_command", "run_grade", "submissions", "SUFFIXES"]

SUFFIXES = (".json", ".csv")


def submissions(folder: str) -> list[Path]:
    """The answer files of a folder, by student name; one file per student."""
    path = Path(folder)
    if not path.is_dir():
        raise UserError(f"{folder!r} is not a folder of answers")
    files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)
    if not files:
        raise UserError(f"{folder!r} holds no answers (.json or .csv files, one per student)")
    seen: dict[str, Path] = {}
    for file in files:
        if file.stem in seen:
            raise UserError(
                f"two files for the student {file.stem!r}: {seen[file.stem].name} and "
                f"{file.name}; keep one"
            )
        seen[file.stem] = file
    return files


def _text_table(table: pd.DataFrame) -> str:
    """One line per student: name, score, right answers of those marked, feedback."""
    width = max(len("student"), *(len(s) for s in table["student"]))
    lines = [f"{'student':<{width}}  score  right  feedback"]
    for row in table.itertuples(index=False):
        marked = f"{row.right}/{row.total}"
        lines.append(f"{row.student:<{width}}  {row.score:5.2f}  {marked:>5}  {row.feedback}")
    return "\n".join(lines)


def run_grade(args: argparse.Namespace) -> int:
    from id3tree.classroom.exercises import make_exercise
    from id3tree.classroom.grading import grade_file

    check_new_file(args.out, args.force, "the table")
    files = submissions(args.folder)
    feedback = Path(args.feedback) if args.feedback else None
    if feedback is not None:
        feedback.mkdir(parents=True, exist_ok=True)
        for file in files:
            check_new_file(feedback / f"{file.stem}.txt", args.force, "the feedback file")
    rows = []
    for file in files:
        exercise = make_exercise(args.kind, args.rows, args.seed, student=file.stem)
        marks = grade_file(exercise, file)
        rows.append({"student": file.stem, **marks.to_dict()})
        if feedback is not None:
            (feedback / f"{file.stem}.txt").write_text(str(marks) + "\n", encoding="utf-8")
    table = pd.DataFrame(rows, columns=["student", "score", "right", "total", "feedback"])
    if args.out:
        table.to_csv(args.out, index=False)
        print(f"wrote {args.out} ({len(table)} students)")
    else:
        print(_text_table(table))
    if feedback is not None:
        print(f"wrote {len(files)} feedback files to {feedback}")
    return 0


def add_grade_command(commands) -> None:
    grade = commands.add_parser(
        "grade",
        help="mark a folder of students' answers (NAME.json or NAME.csv) to their exercises",
        description=(
            "Each file NAME.json or NAME.csv holds the answers of student NAME to the exercise "
            "made with the same --kind, --rows and --seed for that student. A CSV file has the "
            "header question,answer and one row per answer (root_entropy, gains/FEATURE, "
            "tree/branches/VALUE/predict, ...)."
        ),
    )
    grade.add_argument("folder", help="the folder of answer files, one per student")
    add_exercise_kind_option(grade, "the kind of exercise handed out (default: mixed)")
    grade.add_argument("--rows", type=int, default=12, help="rows per data set (as handed out)")
    grade.add_argument("--seed", type=int, default=0, help="the seed of the exercise handed out")
    grade.add_argument("--out", metavar="FILE.csv", help="write the table as CSV")
    grade.add_argument(
        "--feedback", metavar="DIR", help="also write each student's full feedback to DIR/NAME.txt"
    )
    grade.add_argument("--force", action="store_true", help="overwrite files that exist")
    grade.set_defaults(run=run_grade)
