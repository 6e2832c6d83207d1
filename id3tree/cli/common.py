"""What every ``id3tree`` command shares: the parser, the values its options take, reading a
table, naming the target, writing files, and saying errors in the options' words.

A :class:`UserError` is a mistake in what the user asked for; :func:`id3tree.cli.commands.main` prints it
as one line and exits with status 2. Nothing here imports pandas or numpy at the top: ``id3tree
--help`` builds the parser without them.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "add_column_options", "add_exercise_kind_option", "add_kind_options", "add_progress_option",
    "add_target_option", "builtin_target", "check_new_file", "check_writable", "column_list",
    "command_parser", "CRITERION_HELP", "DATA_HELP", "fraction", "integer", "MAX_DEPTH_HELP",
    "option_words", "Parser", "PARAMETER_OPTIONS", "read_data", "read_table", "SEED",
    "split_target", "SUMMARIES", "UserError", "write_table",
]  # fmt: skip


class UserError(Exception):
    """A mistake in what the user asked for; reported in one line."""


# ------------------------------------------------------------------------------------------------
# the parser: every option's default in its help, every error in one line
# ------------------------------------------------------------------------------------------------
class _Help(argparse.HelpFormatter):
    """Each option that takes a value shows its default, unless its help already says it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        shown = not (action.default is None or action.default is False)  # (0 is shown)
        shown = shown and action.default != argparse.SUPPRESS
        if shown and action.option_strings and action.nargs != 0 and "default" not in text:
            text += " (default: %(default)s)"
        return text


class Parser(argparse.ArgumentParser):
    """The ``id3tree`` parser and its commands': help with defaults, and a mistake in the
    command line said in one line (the option, what is wrong, where to read more)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


CRITERION_HELP = "how features compete: information gain (entropy) or gain ratio (C4.5)"
MAX_DEPTH_HELP = "grow at most this many levels below the root (default: no limit)"
DATA_HELP = "a CSV path or a built-in dataset name"

SUMMARIES = {
    "demo": "fit Play Tennis, print the trace and the tree, draw it",
    "fit": "fit a tree to a CSV file or a built-in dataset",
    "predict": "predict with a saved model; scores the predictions when the target column is there",
    "stats": "chi-square, ANOVA, regression and deviance tests",
    "rank": "rank the features by an entropy measure",
    "screen": "missing values, variety and entropy of every column",
    "mi": "mutual information between every pair of columns",
    "explore": "write an interactive HTML page of the tree",
    "exercise": "write an exercise sheet and its answer key",
    "select": "wrapper feature selection: forward, backward, stepwise, exhaustive, random",
    "grade": "mark a folder of students' answers (NAME.json or NAME.csv) to their exercises",
    "class": "run a class: handouts from a roster, keys, and the marks of what students hand in",
    "conventions": "grow a tree under two course conventions and say node by node where they part",
}
"""Each command's line in ``id3tree --help``, in its order (a command that adds its own parser
says the same words: tests/test_cli_options.py compares them)."""


def command_parser(commands: Any, name: str, description: str = "") -> argparse.ArgumentParser:
    """The subcommand ``name``, whose --help screen opens with its summary and description."""
    summary = SUMMARIES[name]
    return commands.add_parser(  # type: ignore[no-any-return]
        name, help=summary, description=f"{summary[0].upper()}{summary[1:]}. {description}".strip()
    )


def integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An option's value as a whole number in ``[low, high]``; a mistake names the option."""
    allowed = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"

    def parse(text: str) -> int:
        value = int(text) if re.fullmatch(r"\s*[-+]?\d+\s*", text) else None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value

    return parse


def fraction(text: str) -> float:
    """A share of the rows, as an option's value: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:  # (NaN fails too)
        raise argparse.ArgumentTypeError(f"must be a number between 0 and 1, got {text!r}")
    return value


SEED = integer(0, 2**32 - 1)
"""A random seed: what scikit-learn's ``random_state`` and numpy's generators take."""

PARAMETER_OPTIONS = {
    "alpha": "--alpha", "alpha_enter": "--alpha", "alpha_remove": "--alpha-remove",
    "bins": "--bins", "categorical": "--categorical", "ccp_alpha": "--ccp-alpha",
    "class_weight": "--class-weight", "confidence": "--confidence", "count": "--count",
    "criterion": "--criterion", "direction": "--direction", "holdout": "--holdout",
    "kind": "--kind", "max_depth": "--max-depth", "max_features": "--max-features",
    "method": "--method", "min_samples_leaf": "--min-samples-leaf", "missing": "--missing",
    "n_iter": "--n-iter", "n_rows": "--rows", "random_state": "--seed", "seed": "--seed",
    "students": "--students", "target_kind": "--target-kind",
}  # fmt: skip
"""A parameter of the library -> the option of the command line that sets it."""

_WORD = re.compile(r"(?<![\w'\"./-])[a-z]+(?:_[a-z]+)*\b")


def option_words(message: str, options: set[str] | frozenset[str]) -> str:
    """An error of the library (``max_depth must be ...``) in the words of the command line
    (``--max-depth must be ...``): a parameter is named by the option typed, if the command has
    it. Only the message's first word, or a word with an underscore (never an English word), is
    read as a parameter, and never inside quotes.

    >>> option_words("max_depth must be an integer >= 0 or None, got -1", {"--max-depth"})
    '--max-depth must be an integer >= 0, got -1'
    >>> option_words("alpha must be a number, got 'alpha'", {"--alpha"})
    "--alpha must be a number, got 'alpha'"
    >>> option_words("the count of n_rows", {"--count"})
    'the count of n_rows'
    """

    swapped: list[str] = []

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        option = PARAMETER_OPTIONS.get(word)
        if option is not None and option in options and (match.start() == 0 or "_" in word):
            swapped.append(option)
            return option
        return word

    said = _WORD.sub(swap, message)
    return said.replace(" or None, got", ", got") if swapped else said  # (None is Python's)


# ------------------------------------------------------------------------------------------------
# reading data
# ------------------------------------------------------------------------------------------------
def read_data(spec: str, na_values: list[str] | None = None) -> pd.DataFrame:
    """A CSV file's rows, or a built-in dataset by name. ``?``, empty fields and the values of
    ``na_values`` (``--na-values``) are missing."""
    import pandas as pd

    from id3tree import datasets

    path = Path(spec)
    extra = list(na_values or [])
    frame: Any  # (a DataFrame: pandas is untyped)
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


def builtin_target(spec: str) -> tuple[str, list[str]] | None:
    """The target of the built-in data set ``spec`` and the columns that are no features (a
    copy of the label, as breast_cancer's ``target``); None for a CSV file."""
    from id3tree import datasets

    if Path(spec).is_file():
        return None
    try:
        X, y = datasets.load(spec, return_X_y=True)
    except ValueError:
        return None
    frame: pd.DataFrame = datasets.load(spec)
    return str(y.name), [c for c in frame.columns if c not in X.columns and c != y.name]


def split_target(frame: pd.DataFrame, target: str | None) -> tuple[pd.DataFrame, pd.Series]:
    columns = ", ".join(map(str, frame.columns))
    if target is None:
        raise UserError(f"name the class column with --target (columns: {columns})")
    if target not in frame.columns:
        raise UserError(f"target column {target!r} is not in the data (columns: {columns})")
    return frame.drop(columns=target), frame[target]


# ------------------------------------------------------------------------------------------------
# choosing columns: --features, --drop, --na-values
# ------------------------------------------------------------------------------------------------
def add_column_options(parser: argparse.ArgumentParser, target: bool = True) -> None:
    """``--features``, ``--drop`` and ``--na-values``, for every command that reads a table
    (``target``: the command has a target column, which ``--features`` always keeps)."""
    besides = ", besides the target" if target else ""
    parser.add_argument(
        "--features", metavar="A,B,...", help=f"use only these columns{besides} (default: all)"
    )
    parser.add_argument("--drop", metavar="A,B,...", help="leave these columns out (default: none)")
    parser.add_argument(
        "--na-values",
        metavar="V,W,...",
        help="values to read as missing, besides '?' and empty fields (e.g. 72?,n/a; "
        "default: none)",
    )


def add_target_option(parser: argparse.ArgumentParser, what: str = "the class column") -> None:
    """``--target``: needed for a CSV file; a built-in data set knows its own."""
    parser.add_argument(
        "--target",
        metavar="COL",
        help=f"{what} (default: the built-in data set's own; a CSV file needs it)",
    )


def add_kind_options(parser: argparse.ArgumentParser) -> None:
    """``--categorical`` and ``--target-kind``, for the commands that test or model a target."""
    parser.add_argument(
        "--categorical", metavar="A,B,...",
        help="numeric columns to treat as categories (default: none; text columns always are)",
    )  # fmt: skip
    parser.add_argument(
        "--target-kind", default="auto", choices=["auto", "categorical", "interval"],
        help="the target's kind (auto: text and whole numbers are categorical)",
    )  # fmt: skip


def add_exercise_kind_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--kind`` of an exercise (:data:`id3tree.classroom.exercises.KINDS`), for ``exercise``, which makes
    it, and ``grade``, which makes it again to grade the answers: one definition for both."""
    from id3tree.classroom.exercises import KINDS

    parser.add_argument("--kind", default="mixed", choices=list(KINDS), help=help)


def add_language_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--language`` of the pages a command writes (``what``: which), a shipped language."""
    from id3tree.base.language import LANGUAGES

    parser.add_argument(
        "--language", choices=LANGUAGES, default="en",
        help=f"language of {what}: {', '.join(LANGUAGES)} (default: en)",
    )  # fmt: skip


def add_progress_option(parser: argparse.ArgumentParser, what: str = "a progress bar") -> None:
    """``--progress`` / ``--no-progress``: by default a bar when stderr is a terminal."""
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help=f"show {what} on stderr once the work takes a few seconds (default: when stderr "
        "is a terminal)",
    )  # fmt: skip


def column_list(text: str | None) -> list[str]:
    """``A,B,C`` as a list of names (empty for None)."""
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


def read_table(args: argparse.Namespace) -> pd.DataFrame:
    """The command's DATA, read with ``--na-values``, its columns chosen by ``--features`` and
    ``--drop`` (the target, when the command has one, is always kept); every column named must
    exist. A built-in data set's target is the one it knows when ``--target`` is not given.
    Stray values that made a numbers column text are reported (one line each)."""
    from id3tree.base.diagnostics import stray_values_message

    frame = read_data(args.data, column_list(getattr(args, "na_values", None)))
    if "target" in vars(args):
        builtin = builtin_target(args.data)
        if builtin is not None and args.target in (None, builtin[0]):
            args.target = builtin[0]
            frame = frame.drop(columns=builtin[1])  # a copy of the label is no feature
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


# ------------------------------------------------------------------------------------------------
# writing files
# ------------------------------------------------------------------------------------------------
def check_new_file(path: str | Path | None, force: bool, what: str = "file") -> None:
    """Refuse to overwrite an existing file unless ``--force`` was given."""
    if path is not None and Path(path).exists() and not force:
        raise UserError(f"{what} {str(path)!r} already exists; pass --force to overwrite it")


def check_writable(path: str | Path | None) -> None:
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
