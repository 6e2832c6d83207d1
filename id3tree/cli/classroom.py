"""``id3tree class``: run a class from a roster and a secret (:func:`id3tree.classroom.make_class`).

::

    id3tree class secret secret.txt
    id3tree class handouts --roster roster.csv --secret-file secret.txt --out handouts
    id3tree class keys     --roster roster.csv --secret-file secret.txt --out keys
    id3tree class grade SUBMISSIONS --roster roster.csv --secret-file secret.txt --out grades.csv

``handouts``, ``keys`` and ``grade`` take the same ``--roster``, ``--secret-file``, ``--kind``,
``--rows`` and ``--assignment``: the same ones make the same class.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from id3tree.cli.common import (
    UserError,
    add_exercise_kind_option,
    add_language_option,
    check_new_file,
)

if TYPE_CHECKING:  # (imported where a command runs: id3tree --help starts fast)
    from id3tree.classroom import Class, ClassGrades

__all__ = ["add_class_command", "add_marking_options", "marking_options", "print_grades"]


def _class(args: argparse.Namespace) -> Class:
    from id3tree.classroom import make_class, read_secret

    if not 6 <= args.rows <= 40:
        raise UserError(f"--rows must be from 6 to 40, got {args.rows}")
    try:
        secret = read_secret(args.secret_file)
    except ValueError as error:
        raise UserError(f"--secret-file: {error}") from None
    try:
        return make_class(
            args.roster, kind=args.kind, n_rows=args.rows, secret=secret,
            assignment=args.assignment, name_column=args.name_column, id_column=args.id_column,
            language=getattr(args, "language", "en"),
        )  # fmt: skip
    except ValueError as error:
        raise UserError(f"--roster: {error}") from None


def _secret(args: argparse.Namespace) -> int:
    from id3tree.classroom import new_secret

    check_new_file(args.file, args.force, "the secret file")
    path = Path(args.file)
    if path.exists():
        path.unlink()
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # (readable by you only)
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(new_secret() + "\n")
    print(f"wrote {args.file}: keep it private, and the same for the whole unit")
    return 0


def _paper(args: argparse.Namespace) -> int:
    klass = _class(args)
    write = klass.keys if args.class_command == "keys" else klass.handouts
    try:
        written = write(args.out, pdf=args.pdf, overwrite=args.force)
    except FileExistsError as error:
        raise UserError(f"{error}; pass --force to overwrite it") from None
    except RuntimeError as error:  # pdflatex failed
        raise UserError(f"{error} (--no-pdf writes Markdown only)") from None
    kinds = sorted({p.suffix for p in written})
    print(
        f"wrote {len(written)} files ({', '.join(kinds)}) for {len(klass)} students to {args.out}"
    )
    return 0


def marking_options(args: argparse.Namespace) -> tuple[dict[str, float], float]:
    """``--weights`` and ``--tolerance``, checked, naming the option in any error."""
    from id3tree.classroom.grading import TOLERANCE, check_tolerance, task_weights

    try:
        weights = task_weights(args.weights)
    except ValueError as error:
        raise UserError(f"--weights: {str(error).removeprefix('weights: ')}") from None
    try:
        tolerance = check_tolerance(TOLERANCE if args.tolerance is None else args.tolerance)
    except ValueError as error:
        raise UserError(f"--tolerance: {str(error).removeprefix('tolerance ')}") from None
    return weights, tolerance


CLASS_OPTIONS = "--secret-file, --kind, --rows and --assignment"


def print_grades(
    grades: ClassGrades, args: argparse.Namespace, options: str = CLASS_OPTIONS
) -> int:
    """Write what ``--out``, ``--gradescope``, ``--feedback`` and ``--plot`` ask for (all
    checked first), print the table (without ``--out``) and the summary; status 2, writing
    nothing, when the class looks graded with the wrong settings (unless ``--even-if-mismatched``)."""
    for warning in grades.warnings:
        print(f"id3tree: warning: {warning}", file=sys.stderr)
    if grades.suspect and not args.even_if_mismatched:
        print(
            f"id3tree: error: no marks written: check {options} (or pass --even-if-mismatched "
            "to write them anyway)",
            file=sys.stderr,
        )
        return 2
    if args.out:
        grades.to_csv(args.out)
        print(f"wrote {args.out} ({len(grades)} students)")
    else:
        print(grades.text_table())
    if args.gradescope:
        written = grades.to_gradescope(args.gradescope)
        print(f"wrote {len(written)} results.json files to {args.gradescope}")
    if args.feedback:
        folder = Path(args.feedback)
        folder.mkdir(parents=True, exist_ok=True)
        for row in grades:
            (folder / f"{row.student.file}.txt").write_text(str(row.grade) + "\n", encoding="utf-8")
        print(f"wrote {len(grades)} feedback files to {args.feedback}")
    if args.plot:
        grades.plot(args.plot)
        print(f"wrote {args.plot}")
    print(grades.summary_text())
    return 0


def check_outputs(args: argparse.Namespace, stems: list[str]) -> None:
    """Refuse, before any marking, a file that exists (without ``--force``)."""
    check_new_file(args.out, args.force, "the table")
    check_new_file(args.plot, args.force, "the plot")
    for stem in stems:
        if args.feedback:
            check_new_file(Path(args.feedback) / f"{stem}.txt", args.force, "the feedback file")
        if args.gradescope:
            check_new_file(Path(args.gradescope) / stem / "results.json", args.force, "the result")


def _grade(args: argparse.Namespace) -> int:
    klass = _class(args)
    weights, tolerance = marking_options(args)
    check_outputs(args, [s.file for s in klass.students])
    import warnings

    from id3tree.classroom import SettingsMismatchWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SettingsMismatchWarning)  # (printed with the others)
        try:
            grades = klass.grade(
                args.submissions, weights=weights, tolerance=tolerance, language=args.language
            )
        except ValueError as error:
            raise UserError(str(error)) from None
    return print_grades(grades, args)


def add_marking_options(parser: argparse.ArgumentParser) -> None:
    """The options of a command that marks answers: weights, tolerance and what to write."""
    parser.add_argument(
        "--weights", metavar="TASK=W,...",
        help="the weight of each task (entropy, thresholds, gains, root, tree; default 1 each), "
        "e.g. tree=2,gains=2",
    )  # fmt: skip
    parser.add_argument(
        "--tolerance", type=float, default=None,
        help="how far a number may be from the exact value, in bits (default 0.001)",
    )  # fmt: skip
    parser.add_argument(
        "--out", metavar="FILE.csv",
        help="write the marks as CSV, one row per student (default: printed only)",
    )  # fmt: skip
    parser.add_argument(
        "--gradescope", metavar="DIR",
        help="also write Gradescope's DIR/STUDENT/results.json (default: not written)",
    )  # fmt: skip
    parser.add_argument(
        "--feedback",
        metavar="DIR",
        help="also write each student's full feedback to DIR/STUDENT.txt (default: not written)",
    )
    parser.add_argument(
        "--plot", metavar="FILE.png",
        help="also draw the scores and the steps most got wrong (default: not drawn)",
    )  # fmt: skip
    parser.add_argument("--force", action="store_true", help="overwrite files that exist")
    add_language_option(parser, "the feedback and the table's words (the marks the same in each)")
    parser.add_argument(
        "--even-if-mismatched", action="store_true",
        help="write the marks even when most answers do not fit their students' data",
    )  # fmt: skip


def _add_class_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--roster", required=True, help="a CSV file of the students (a name column, an id column)"
    )
    parser.add_argument(
        "--secret-file", required=True, help="the file of the class's secret (see: class secret)"
    )
    add_exercise_kind_option(parser, "the kind of the exercises' data (default: mixed)")
    parser.add_argument(
        "--rows", type=int, default=12, help="rows of each student's data (6 to 40; default 12)"
    )
    parser.add_argument(
        "--assignment",
        default="",
        help="a name for the assignment: another gives every student new data (default: none)",
    )
    parser.add_argument(
        "--name-column", help="the roster's column of names (default: found by its name)"
    )
    parser.add_argument(
        "--id-column", help="the roster's column of student ids (default: found by its name)"
    )


def add_class_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``id3tree class secret|handouts|keys|grade`` (``commands``: the app's subparsers)."""
    parser = commands.add_parser(
        "class",
        help="run a class: handouts from a roster, keys, and the marks of what students hand in",
        description=(
            "Each student of the roster gets data of their own, drawn from the secret and their "
            "id: handouts show no seed and no secret, so no student can make their key. The same "
            "--roster, --secret-file, --kind, --rows and --assignment make the same class."
        ),
    )
    steps = parser.add_subparsers(
        dest="class_command", required=True, metavar="STEP",
        help="secret, handouts, keys or grade (id3tree class STEP --help for its options)",
    )  # fmt: skip
    secret = steps.add_parser("secret", help="write a new random secret to FILE")
    secret.add_argument("file", help="the file to write (readable by you only)")
    secret.add_argument("--force", action="store_true", help="replace the file if it exists")
    secret.set_defaults(run=_secret)
    for name, what in (("handouts", "each student's handout"), ("keys", "each student's key")):
        paper = steps.add_parser(name, help=f"write {what} (Markdown, and PDF with pdflatex)")
        _add_class_options(paper)
        paper.add_argument("--out", required=True, metavar="DIR", help="the folder to write to")
        paper.add_argument(
            "--pdf", action=argparse.BooleanOptionalAction, default=None,
            help="also write PDFs (default: when pdflatex is installed)",
        )  # fmt: skip
        paper.add_argument("--force", action="store_true", help="overwrite files that exist")
        add_language_option(paper, f"{what} (the data and the marks the same in every language)")
        paper.set_defaults(run=_paper)
    grade = steps.add_parser(
        "grade",
        help="mark a folder of handed-in answers",
        description=(
            "Every .json or .csv file (or student folder) is matched to its student by its name "
            "(as Moodle, Canvas, Blackboard or Brightspace write it) or by the student_id inside "
            "it, and marked against that student's own data; every student of the roster gets a "
            "row (no submission: 0)."
        ),
    )
    grade.add_argument("submissions", help="the folder of handed-in files")
    _add_class_options(grade)
    add_marking_options(grade)
    grade.set_defaults(run=_grade)
