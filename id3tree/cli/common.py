"""What every ``id3tree`` command shares: reading a table, naming the target, writing files.

A :class:`UserError` is a mistake in what the user asked for; :func:`id3tree.cli.commands.main` prints it
as one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pandas as pd

from id3tree import datasets

__all__ = [
    "add_column_options", "add_exercise_kind_option", "add_kind_options", "add_progress_option",
    "check_new_file", "check_writable", "column_list", "read_data", "read_table", "split_target",
    "UserError", "write_table",
]  # fmt: skip


class UserError(Exception):
    """A mistake in what the user asked for; reported in one line."""


# ------------------------------------------------------------------------------------------------
# reading data
# ------------------------------------------------------------------------------------------------
def read_data(spec: str, na_values=None) -> pd.DataFrame:
    """A CSV file's rows, or a built-in dataset by name. ``?``, empty fields and the values of
    ``na_values`` (``--na-values``) are missing."""
    path = Path(spec)
    extra = list(na_values or [])
    if path.is_file():
        try:
            header = pd.read_csv(path, header=None, nrows=1, dtype=str).iloc[0].tolist()
            frame = pd.read_csv(path, na_values=["?", *extra])
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UserError(f"cannot read {spec!r} as CSV: {first}") from None
        named = [h for h in header if isinstance(h, str)]
        twice = sorted({h for h in named if named.count(h) > 1})
        if twice:  # pandas would quietly rename the second one "name.1"
            raise UserError(f"{spec!r} has duplicate column names in its header: {twice}")
        return frame
    try:
        frame = datasets.load(spec)
    except ValueError:
        names = ", ".join(datasets.list_datasets()["name"])
        raise UserError(
            f"{spec!r} is neither a CSV file nor a built-in dataset ({names})"
        ) from None
    if extra:  # the built-in datasets: the same values made missing after loading
        frame = frame.mask(frame.isin(extra))
    return frame


def split_target(frame: pd.DataFrame, target: str) -> tuple[pd.DataFrame, pd.Series]:
    if target not in frame.columns:
        raise UserError(
            f"target column {target!r} is not in the data (columns: {', '.join(map(str, frame.columns))})"
        )
    return frame.drop(columns=target), frame[target]


# ------------------------------------------------------------------------------------------------
# choosing columns: --features, --drop, --na-values
# ------------------------------------------------------------------------------------------------
def add_column_options(parser) -> None:
    """``--features``, ``--drop`` and ``--na-values``, for every command that reads a table."""
    parser.add_argument(
        "--features", metavar="A,B,...", help="use only these columns (besides the target)"
    )
    parser.add_argument("--drop", metavar="A,B,...", help="leave these columns out")
    parser.add_argument(
        "--na-values",
        metavar="V,W,...",
        help="values to read as missing, besides '?' and empty fields (e.g. 72?,n/a)",
    )


def add_kind_options(parser) -> None:
    """``--categorical`` and ``--target-kind``, for the commands that test or model a target."""
    parser.add_argument(
        "--categorical", metavar="A,B,...", help="numeric columns to treat as categories"
    )
    parser.add_argument(
        "--target-kind", default="auto", choices=["auto", "categorical", "interval"],
        help="the target's kind (auto: text and whole numbers are categorical)",
    )  # fmt: skip


def add_exercise_kind_option(parser, help: str) -> None:
    """``--kind`` of an exercise (:data:`id3tree.classroom.exercises.KINDS`), for ``exercise``, which makes
    it, and ``grade``, which makes it again to grade the answers: one definition for both."""
    from id3tree.classroom.exercises import KINDS

    parser.add_argument("--kind", default="mixed", choices=list(KINDS), help=help)


def add_progress_option(parser, what: str = "a progress bar") -> None:
    """``--progress`` / ``--no-progress``: by default a bar when stderr is a terminal."""
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help=f"show {what} on stderr once the work takes a few seconds (default: when stderr "
        "is a terminal)",
    )  # fmt: skip


def column_list(text: str | None) -> list[str]:
    """``A,B,C`` as a list of names (empty for None)."""
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


def read_table(args) -> pd.DataFrame:
    """The command's DATA, read with ``--na-values``, its columns chosen by ``--features`` and
    ``--drop`` (the target, when the command has one, is always kept); every column named must
    exist. Stray values that made a numbers column text are reported (one line each)."""
    from id3tree.base.diagnostics import stray_values_message

    frame = read_data(args.data, column_list(getattr(args, "na_values", None)))
    target = getattr(args, "target", None)
    features, dropped = column_list(args.features), column_list(args.drop)
    for option, names in (("--features", features), ("--drop", dropped)):
        unknown = [c for c in names if c not in frame.columns]
        if unknown:
            raise UserError(
                f"{option} names column(s) {unknown} not in the data "
                f"(columns: {', '.join(map(str, frame.columns))})"
            )
    if target is not None and target in dropped:
        raise UserError(f"--drop names the target column {target!r}")
    if features:
        frame = frame[[c for c in frame.columns if c in features or c == target]]
    frame = frame.drop(columns=dropped)
    for column in frame.columns:
        message = stray_values_message(frame[column], str(column))
        if message:
            print(f"id3tree: warning: {message}", file=sys.stderr)
    return frame


def check_new_file(path, force: bool, what: str = "file") -> None:
    """Refuse to overwrite an existing file unless ``--force`` was given."""
    if path is not None and Path(path).exists() and not force:
        raise UserError(f"{what} {str(path)!r} already exists; pass --force to overwrite it")


def check_writable(path) -> None:
    """Refuse an output file that cannot be written (its folder missing or read-only), before
    the work that would fill it."""
    if path is None:
        return
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise UserError(f"cannot write {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise UserError(f"cannot write {str(path)!r}: permission denied")


def write_table(frame: pd.DataFrame, out: str | None) -> None:
    if out is None:
        print(frame.to_csv(index=False), end="")
    else:
        frame.to_csv(out, index=False)
        print(f"wrote {out}")
