"""What every ``id3tree`` command shares: reading a table, naming the target, writing files.

A :class:`UserError` is a mistake in what the user asked for; :func:`id3tree.cli.main` prints it
as one line and exits with status 2.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from id3tree import datasets


class UserError(Exception):
    """A mistake in what the user asked for; reported in one line."""


# ------------------------------------------------------------------------------------------------
# reading data
# ------------------------------------------------------------------------------------------------
def read_data(spec: str) -> pd.DataFrame:
    """A CSV file's rows, or a built-in dataset by name. ``?`` and empty fields are missing."""
    path = Path(spec)
    if path.is_file():
        try:
            header = pd.read_csv(path, header=None, nrows=1, dtype=str).iloc[0].tolist()
            frame = pd.read_csv(path, na_values=["?"])
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UserError(f"cannot read {spec!r} as CSV: {first}") from None
        named = [h for h in header if isinstance(h, str)]
        twice = sorted({h for h in named if named.count(h) > 1})
        if twice:  # pandas would quietly rename the second one "name.1"
            raise UserError(f"{spec!r} has duplicate column names in its header: {twice}")
        return frame
    try:
        return datasets.load(spec)
    except ValueError:
        names = ", ".join(datasets.list_datasets()["name"])
        raise UserError(
            f"{spec!r} is neither a CSV file nor a built-in dataset ({names})"
        ) from None


def split_target(frame: pd.DataFrame, target: str) -> tuple[pd.DataFrame, pd.Series]:
    if target not in frame.columns:
        raise UserError(
            f"target column {target!r} is not in the data (columns: {', '.join(map(str, frame.columns))})"
        )
    return frame.drop(columns=target), frame[target]


def check_new_file(path, force: bool, what: str = "file") -> None:
    """Refuse to overwrite an existing file unless ``--force`` was given."""
    if path is not None and Path(path).exists() and not force:
        raise UserError(f"{what} {str(path)!r} already exists; pass --force to overwrite it")


def write_table(frame: pd.DataFrame, out: str | None) -> None:
    if out is None:
        print(frame.to_csv(index=False), end="")
    else:
        frame.to_csv(out, index=False)
        print(f"wrote {out}")
