"""A class's marks, in the forms a course needs: a table, a CSV file for the gradebook,
Gradescope's ``results.json``, and a summary of what the class got wrong.

Every name a roster or a student supplies is escaped where it is written (a text table on one
line per student, a CSV cell never read as a formula: :mod:`id3tree.classroom.text`).

Their words are in the class's grades' language (``language=``, English by default): the
feedback, the steps and mistakes named, the summary's kinds of step, the table's and the
plot's words, numbers with the language's decimal mark. What a program reads stays English:
the CSV's column names, the keys of Gradescope's ``results.json`` and the DataFrames' columns.
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from id3tree.base.language import N_, Language, speaking
from id3tree.base.language import language as shipped_language
from id3tree.classroom.grading import TASKS, Check, Grade, check_language, task_weights
from id3tree.classroom.mistakes import mistake_name
from id3tree.classroom.roster import Student
from id3tree.classroom.text import csv_cell, printable
from id3tree.classroom.wording import kind_of

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "ClassGrades",
    "SettingsMismatchWarning",
    "StudentGrade",
    "gradescope_result",
    "step_kind",
]


class SettingsMismatchWarning(UserWarning):
    """Most of a class's answers name what their students' data does not have: the class was
    graded with another secret or other settings than its handouts were made with."""


def step_kind(check: Check) -> str:
    """The kind of step a check is, the same for every student and every language, in English
    (``the split of a node``; ``current().gettext`` writes it in the language around it)."""
    return check.kind or kind_of(check.task, check.step, TASKS)


@dataclass
class StudentGrade:
    """One student's row: their ``grade``, the ``file`` it came from (None: no submission), and
    ``flags`` a teacher should look at."""

    student: Student
    grade: Grade
    file: str | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def submitted(self) -> bool:
        return self.file is not None


def gradescope_result(grade: Grade, flags: Sequence[str] = ()) -> dict[str, object]:
    """Gradescope's ``results.json`` for one submission: ``score`` (points: each task is worth
    its weight), ``output`` (the feedback) and one test per task (``name``, ``score``,
    ``max_score``, ``output``: the first wrong answer of the task, or that all are right)."""
    weights = task_weights(grade.weights)
    shares = grade.task_scores
    tests, points = [], []
    with speaking(grade.language) as L:
        for task, share in shares.items():
            wrong = [c for c in grade.checks if c.task == task and not c.right]
            mine = [c for c in grade.checks if c.task == task]
            right = (
                L.gettext("The answer is right.")
                if len(mine) == 1
                else L.line("All {n} answers are right.", n=str(len(mine)))
            )
            output = wrong[0].why if wrong else right
            points.append(round(weights[task] * share, 4))
            name = L.gettext(TASKS[task])
            tests.append({
                "name": name[:1].upper() + name[1:], "score": points[-1],
                "max_score": weights[task], "output": output,
            })  # fmt: skip
    notes = [*grade.notes, *grade.mismatches, *flags]
    output = grade.feedback + "".join(f"\n- {n}" for n in notes)
    return {"score": round(sum(points), 4), "output": output, "tests": tests}


class ClassGrades:
    """The marks of a class, one :class:`StudentGrade` per student of the roster (sorted by
    name), with the files that matched no student (``unmatched``) and ``warnings`` for the
    teacher. ``suspect`` is True when the class looks graded with the wrong secret or settings;
    ``language`` is the language of the grades' words (the tables' and the plot's too).

    Iterate over it for the rows; ``grades["Alice Martin"]`` (a name or an id) is one row.
    """

    def __init__(
        self, rows: Iterable[StudentGrade], unmatched: Iterable[tuple[str, str]] = (),
        ignored: Iterable[str] = (), warnings: Iterable[str] = (), suspect: bool = False,
        weights: Mapping[str, object] | str | None = None, language: str = "en",
    ) -> None:  # fmt: skip
        self.rows: list[StudentGrade] = sorted(
            rows, key=lambda r: (r.student.name.casefold(), r.student.name, r.student.id or "")
        )
        self.unmatched: list[tuple[str, str]] = list(unmatched)
        self.ignored: list[str] = list(ignored)
        self.warnings: list[str] = list(warnings)
        self.suspect = bool(suspect)
        self.weights = task_weights(weights)
        self.language = check_language(language)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[StudentGrade]:
        return iter(self.rows)

    def __getitem__(self, who: Student | str) -> StudentGrade:
        for row in self.rows:
            if who in (row.student, row.student.name, row.student.id, row.student.file):
                return row
        raise KeyError(who)

    @property
    def tasks(self) -> list[str]:
        """The tasks marked (those of the class's exercises), in the question's order."""
        seen = {t for r in self.rows for t in r.grade.task_scores}
        return [t for t in TASKS if t in seen]

    # tables --------------------------------------------------------------------------------
    def to_frame(self) -> Any:  # a DataFrame
        """One row per student: ``student``, ``id``, ``file``, ``score``, one column per task
        (its share of right answers), ``right``, ``total``, ``first_wrong_step``, ``mistakes``,
        ``feedback`` and ``flags``."""
        import pandas as pd

        records = []
        for row in self.rows:
            g = row.grade
            first = g.first_wrong
            with speaking(self.language):
                named = [mistake_name(m) for m in g.mistakes]
            records.append({
                "student": row.student.name, "id": row.student.id or "", "file": row.file or "",
                "score": round(g.score, 4),
                **{t: round(g.task_scores[t], 4) if t in g.task_scores else None for t in self.tasks},
                "right": g.right, "total": g.total,
                "first_wrong_step": first.step if first is not None and g.problem is None else "",
                "mistakes": "; ".join(named), "feedback": g.feedback,
                "flags": "; ".join([*g.mismatches, *row.flags]),
            })  # fmt: skip
        columns = ["student", "id", "file", "score", *self.tasks, "right", "total"]
        columns += ["first_wrong_step", "mistakes", "feedback", "flags"]
        return pd.DataFrame(records, columns=columns)

    def to_csv(self, path: str | os.PathLike[str]) -> Path:
        """Write :meth:`to_frame` as CSV (UTF-8): every text cell escaped with
        :func:`~id3tree.classroom.text.csv_cell`, so that no name or answer runs as a formula
        in a spreadsheet. Returns the path."""
        frame = self.to_frame()
        for column in (
            "student",
            "id",
            "file",
            "first_wrong_step",
            "mistakes",
            "feedback",
            "flags",
        ):
            frame[column] = frame[column].map(csv_cell)
        frame.to_csv(path, index=False, encoding="utf-8")
        return Path(path)

    def to_gradescope(self, folder: str | os.PathLike[str]) -> list[Path]:
        """Write Gradescope's ``results.json`` for every submission, as
        ``folder/<student's file stem>/results.json`` (:func:`gradescope_result`). Returns the
        paths written."""
        folder = Path(folder)
        written: list[Path] = []
        for row in self.rows:
            if not row.submitted:
                continue
            path = folder / row.student.file / "results.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            result = gradescope_result(row.grade, row.flags)
            path.write_text(
                json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            written.append(path)
        return written

    # the summary ---------------------------------------------------------------------------
    def summary(self) -> Any:  # a DataFrame
        """What the class got wrong, step by step: per kind of step (:func:`step_kind`), how
        many students got it wrong at least once, for how many it was the first wrong step,
        and the classic mistake seen most there. Most wrong first."""
        import pandas as pd

        graded = [r.grade for r in self.rows if r.submitted and r.grade.problem is None]
        counts: dict[str, tuple[list[int], dict[str, int]]] = {}  # ([wrong, first], mistakes)
        for g in graded:
            first = g.first_wrong
            for kind in dict.fromkeys(step_kind(c) for c in g.checks):
                wrong = [c for c in g.checks if step_kind(c) == kind and not c.right]
                entry, seen = counts.setdefault(kind, ([0, 0], {}))
                entry[0] += bool(wrong)
                entry[1] += first is not None and step_kind(first) == kind
                for c in wrong:
                    if c.mistake:
                        seen[c.mistake] = seen.get(c.mistake, 0) + 1
        with speaking(self.language) as L:
            rows = [
                {
                    "step": L.gettext(kind), "students wrong": wrong, "first wrong step of": first,
                    "most common mistake": mistake_name(max(sorted(m), key=m.__getitem__))
                    if m else "",
                }
                for kind, ([wrong, first], m) in counts.items()
            ]  # fmt: skip
        frame = pd.DataFrame(
            rows, columns=["step", "students wrong", "first wrong step of", "most common mistake"]
        )
        return frame.sort_values(
            ["students wrong", "first wrong step of"], ascending=False, kind="stable"
        ).reset_index(drop=True)

    def histogram(self, bins: int = 10) -> Any:  # a DataFrame
        """How many students scored in each of ``bins`` equal ranges from 0 to 1 (the last one
        closed: a score of 1 is in it); students with no submission are counted at 0."""
        import pandas as pd

        counts = [0] * bins
        for row in self.rows:
            counts[min(int(row.grade.score * bins), bins - 1)] += 1
        with speaking(self.language) as L:
            labels = [
                L.line(
                    "{low} to {high}",
                    low=L.number(f"{i / bins:.2f}"),
                    high=L.number(f"{(i + 1) / bins:.2f}"),
                )  # fmt: skip
                for i in range(bins)
            ]
        return pd.DataFrame({"score": labels, "students": counts})

    def plot(self, path: str | os.PathLike[str] | None = None) -> Figure:
        """The histogram of scores beside the steps most students got wrong, as a matplotlib
        figure: written to ``path`` if given (drawn off screen, with no display), else made with
        pyplot, so that a notebook shows it."""
        from matplotlib.ticker import MaxNLocator

        if path is None:
            import matplotlib.pyplot as plt  # (only here: a notebook shows pyplot's figures)

            figure = plt.figure(figsize=(11, 4), layout="constrained")
        else:
            from matplotlib.figure import Figure

            figure = Figure(figsize=(11, 4), layout="constrained")
        left, right = figure.subplots(1, 2, width_ratios=[1, 1.3])
        histogram = self.histogram()
        left.bar(range(len(histogram)), histogram["students"], color="#4c72b0")
        left.set_xticks(
            range(len(histogram)), [s.split(" ")[0] for s in histogram["score"]], rotation=45
        )
        L = _in(self.language)
        left.set(
            xlabel=L.gettext("score (from)"), ylabel=L.gettext("students"),
            title=L.line("Scores of {n} students", n=str(len(self))),
        )  # fmt: skip
        summary = self.summary()
        summary = summary[summary["students wrong"] > 0].head(8).iloc[::-1]
        right.barh(summary["step"], summary["students wrong"], color="#dd8452")
        right.set(
            xlabel=L.gettext("students with it wrong"),
            title=L.gettext("The steps most students got wrong"),
        )
        if summary.empty:
            right.text(
                0.5, 0.5, L.gettext("no step was wrong"), ha="center", transform=right.transAxes
            )
        for axis in (left.yaxis, right.xaxis):  # (whole students)
            axis.set_major_locator(MaxNLocator(integer=True))
        if path is not None:
            figure.savefig(path, dpi=120)
        return figure

    # text ----------------------------------------------------------------------------------
    def text_table(self) -> str:
        """One line per student: name, score, answers right of those marked, feedback; names
        and feedback escaped (:func:`~id3tree.classroom.text.printable`)."""
        L = _in(self.language)
        student, score, right, feedback = (
            L.gettext(w) for w in (N_("student"), N_("score"), N_("right"), N_("feedback"))
        )
        names = [printable(r.student.name) for r in self.rows]
        width = max([len(student), *map(len, names)])
        columns = max(5, len(score)), max(5, len(right))  # (as wide as "0.75" and "12/27")
        lines = [f"{student:<{width}}  {score:<{columns[0]}}  {right:<{columns[1]}}  {feedback}"]
        for name, row in zip(names, self.rows):
            g = row.grade
            marked, mark = f"{g.right}/{g.total}", L.number(f"{g.score:5.2f}")
            lines.append(
                f"{name:<{width}}  {mark:>{columns[0]}}  {marked:>{columns[1]}}  "
                f"{printable(g.feedback)}"
            )
        return "\n".join(lines)

    def summary_text(self) -> str:
        """The class in a few lines: how many handed in, the median score, the steps most
        students got wrong, the files that matched no one."""
        scores = [r.grade.score for r in self.rows if r.submitted]
        L = _in(self.language)
        lines = [
            L.line("{handed} of {n} students handed in", handed=str(len(scores)), n=str(len(self)))
            + (
                L.line(
                    "; median score {median}",
                    median=L.number(f"{statistics.median(scores):.2f}"),
                )
                if scores
                else ""
            )
        ]
        for item in self.summary().head(3).itertuples(index=False):
            if item[1]:
                mistake = L.line(" (most often: {mistake})", mistake=item[3]) if item[3] else ""
                lines.append(
                    L.line(
                        "{n} got {step} wrong{mistake}",
                        n=str(item[1]),
                        step=item[0],
                        mistake=mistake,
                    )  # fmt: skip
                )
        lines += [f"not marked: {name} {why}" for name, why in self.unmatched]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text_table() + "\n\n" + self.summary_text()

    def __repr__(self) -> str:
        return f"ClassGrades({len(self)} students, {sum(r.submitted for r in self.rows)} handed in)"

    def _repr_html_(self) -> str:
        L = _in(self.language)
        head = "".join(
            f"<th>{escape(L.gettext(c))}</th>"
            for c in (N_("student"), N_("score"), N_("right"), N_("feedback"))
        )
        body = "".join(
            f"<tr><td>{escape(printable(r.student.name))}</td>"
            f"<td>{L.number(f'{r.grade.score:.2f}')}</td>"
            f"<td>{r.grade.right}/{r.grade.total}</td><td>{escape(r.grade.feedback)}</td></tr>"
            for r in self.rows
        )
        notes = "".join(f"<li>{escape(line)}</li>" for line in self.summary_text().splitlines())
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table><ul>{notes}</ul>"


def _in(code: str) -> Language:
    """The language ``code`` (a shipped one)."""
    return shipped_language(code)


def class_warnings(
    rows: list[StudentGrade],
    unmatched: Sequence[tuple[str, str]],
    settings: str = "secret, kind, number of rows or assignment",
) -> tuple[list[str], bool]:
    """The warnings of a class graded, and whether it looks graded with the wrong secret or
    settings: most of its readable submissions name what their students' data does not have."""
    graded = [r for r in rows if r.submitted and r.grade.problem is None]
    misfits = [r for r in graded if r.grade.mismatches]
    out, suspect = [], False
    if len(graded) >= 3 and len(misfits) > len(graded) / 2:
        suspect = True
        out.append(
            f"{len(misfits)} of {len(graded)} submissions name features or thresholds their "
            f"students' data does not have: the class looks graded with another {settings} "
            "than its handouts were made with. Check them before using these marks"
        )
    scores = [r.grade.score for r in graded]
    if not suspect and len(scores) >= 5 and statistics.median(scores) < 0.3:
        out.append(
            f"the median score is {statistics.median(scores):.2f}: if the handouts were made "
            "with other settings, every mark is wrong"
        )
    if unmatched:
        out.append(f"{len(unmatched)} file{'s' * (len(unmatched) != 1)} matched no student")
    return out, suspect
