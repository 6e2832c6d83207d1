"""The ``id3tree`` command line (also ``python -m id3tree``).

``main(argv)`` returns an exit status so tests can call it directly. A user error (a file that is
not there, a column that does not exist, a model file that is not one, an option's value out of
range) prints one line on stderr, naming the option typed, and returns 2; there is no traceback.

Only the command asked for is built in full, and each imports the libraries it needs when it
runs: ``id3tree --help`` needs neither numpy nor pandas.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from id3tree.cli.common import (
    CRITERION_HELP,
    DATA_HELP,
    MAX_DEPTH_HELP,
    SEED,
    SUMMARIES,
    Parser,
    UserError,
    add_column_options,
    add_exercise_kind_option,
    add_kind_options,
    add_language_option,
    add_progress_option,
    add_target_option,
    check_new_file,
    check_writable,
    column_list,
    command_parser,
    integer,
    option_words,
    read_table,
    split_target,
)
from id3tree.cli.fit import (
    add_criterion_options,
    add_id_like_option,
    confusion_table,
    fit_without_id_like,
)

__all__ = [
    "ADD_COMMAND", "build_parser", "confusion_table", "CRITERION_HELP", "DATA_HELP",
    "fit_without_id_like", "main", "MAX_DEPTH_HELP", "repeated_option",
]  # fmt: skip


# ------------------------------------------------------------------------------------------------
# commands
# ------------------------------------------------------------------------------------------------
def _demo(args: argparse.Namespace) -> int:
    from id3tree import datasets
    from id3tree.learner import ID3Classifier
    from id3tree.render.files import save_tree_image

    path = Path(args.out) / "play_tennis_tree.png"
    check_new_file(path, args.force, "the picture")  # before the work, as every command does
    X, y = datasets.load_play_tennis(return_X_y=True)
    print("Play Tennis (Quinlan 1986): 14 days, 4 weather features, target Play.\n")
    print("Growing the tree, node by node:\n")
    model = ID3Classifier(verbose=1).fit(X, y)
    print("\nThe tree:\n")
    print(model.to_text())
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = path.exists()
    engine = save_tree_image(model, path)
    print(f"\nDrew the tree with {engine}: {path}" + (" (replaced the old one)" if existed else ""))
    return 0


def _stats(args: argparse.Namespace) -> int:
    import math

    from id3tree.base.words import plural
    from id3tree.stats import test_features
    from id3tree.stats.result import format_pvalue

    data = read_table(args)
    if args.complete_rows:
        data = data.dropna()
    X, y = split_target(data, args.target)
    table = test_features(
        X, y, categorical=column_list(args.categorical) or "auto", target_kind=args.target_kind,
        alpha=args.alpha,
    )  # fmt: skip
    shown = table.drop(columns=["note"])
    shown["pvalue"] = [
        "" if math.isnan(i) else format_pvalue(-i * math.log(10)) for i in table["importance"]
    ]
    print(
        f"{plural(len(X), 'row')}, target {args.target!r}; significant at alpha = {args.alpha:g}\n"
    )
    formats = {"statistic": "{:.4f}", "importance": "{:.2f}", "association": "{:.4f}"}
    print(shown.to_string(formatters={k: v.format for k, v in formats.items()}))
    notes = table["note"].dropna()
    notes = notes[notes != ""]
    for feature, note in notes.items():
        print(f"note on {feature}: {note}")
    return 0


def _rank(args: argparse.Namespace) -> int:
    from id3tree.ranking import rank_features

    X, y = split_target(read_table(args), args.target)
    table = rank_features(X, y, method=args.method, bins=args.bins)
    unit = "" if args.method in ("gain_ratio", "symmetric_uncertainty") else " (bits)"
    print(f"{args.method} of each feature with {args.target!r}{unit}, best first:\n")
    print(table.to_string(float_format="{:.4f}".format))
    return 0


def _conventions(args: argparse.Namespace) -> int:
    from id3tree.base.params import check_tree_params
    from id3tree.conventions import compare, convention
    from id3tree.learner import ID3Classifier

    for option, spec in (("--a", args.a), ("--b", args.b)):
        try:  # (its parameters, and their values: log_base=3 is named here)
            check_tree_params(ID3Classifier(**convention(spec)))
        except (TypeError, ValueError) as exc:
            raise UserError(f"{option}: {exc}") from None
    X, y = split_target(read_table(args), args.target)
    depth = {} if args.max_depth is None else {"max_depth": args.max_depth}
    print(compare(X, y, args.a, args.b, id_like="keep", **depth))
    return 0


def _add_conventions_command(commands: Any) -> None:
    parser = command_parser(
        commands,
        "conventions",
        "A convention: c45, midpoint, gain, gain_ratio, bits, nats, "
        "column_order, by_name or name=value (log_base=e, ties=name).",
    )
    parser.add_argument("data", help=DATA_HELP)
    add_target_option(parser)
    parser.add_argument("--a", default="c45", metavar="CONV", help="the first convention")
    parser.add_argument("--b", default="midpoint", metavar="CONV", help="the second convention")
    parser.add_argument(
        "--max-depth", type=integer(0), metavar="N", default=None,
        help="grow both trees to this depth (default: no limit)",
    )  # fmt: skip
    add_column_options(parser)
    parser.set_defaults(run=_conventions)


def _screen(args: argparse.Namespace) -> int:
    import pandas as pd

    from id3tree.ranking import screen_features

    table = screen_features(read_table(args))
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(table.to_string(float_format="{:.4g}".format))
    return 0


def _mi(args: argparse.Namespace) -> int:
    import pandas as pd

    from id3tree.base.progress import wanted
    from id3tree.ranking import mutual_information_matrix, plot_heatmap

    if args.out is not None and Path(args.out).suffix.lower() not in (
        ".csv", ".png", ".svg", ".pdf",
    ):  # fmt: skip
        raise UserError(f"cannot write {args.out!r}: use .csv, .png, .svg or .pdf")
    check_new_file(args.out, args.force)
    check_writable(args.out)
    matrix = mutual_information_matrix(
        read_table(args), bins=args.bins, normalize=args.normalize, progress=wanted(args.progress)
    )
    if args.out is None:
        with pd.option_context("display.width", 200, "display.max_columns", None):
            print(matrix.to_string(float_format="{:.3f}".format))
        return 0
    out = Path(args.out)
    if out.suffix.lower() == ".csv":
        matrix.to_csv(out)
    else:
        from matplotlib.figure import Figure  # no pyplot: no GUI backend needed to save a file

        figure = Figure()
        ax = plot_heatmap(matrix, ax=figure.add_subplot(), annotate=len(matrix) <= 30)
        side = max(4.0, 0.35 * len(matrix) + 2)
        figure.set_size_inches(side + 1.5, side)
        ax.figure.savefig(out, dpi=150, bbox_inches="tight")
    print(f"wrote {out}")
    return 0


# ------------------------------------------------------------------------------------------------
# teaching: the interactive page and exercise sheets (id3tree.teaching, id3tree.classroom.exercises)
# ------------------------------------------------------------------------------------------------
def _explore(args: argparse.Namespace) -> int:
    from id3tree.base.language import language
    from id3tree.base.words import plural
    from id3tree.learner import ID3Classifier

    check_new_file(args.out, args.force, "the page")
    check_writable(args.out)
    for option, value in (("--holdout", args.holdout), ("--seed", args.seed)):
        if value is not None and not args.build:
            raise UserError(f"{option} is for the page where you grow the tree; add --build")
    X, y = split_target(read_table(args), args.target)
    model = ID3Classifier(
        criterion=args.criterion, max_depth=args.max_depth, language=args.language
    )
    model, X = fit_without_id_like(model, X, y, args)
    if args.build:
        seed = 0 if args.seed is None else args.seed
        model.to_html(args.out, title=args.title, mode="build", holdout=args.holdout,
                      random_state=seed)  # fmt: skip
        print(f"wrote {args.out}: grow the tree yourself; open it in a browser")
        return 0
    L = language(args.language)
    title = L.line("{data}: predicting {target}", data=str(args.data), target=str(args.target))
    model.to_html(args.out, title=args.title or title)
    nodes = plural(sum(1 for _ in model.root_.walk()), "node")
    print(f"wrote {args.out} ({nodes}); open it in a browser")
    return 0


def _exercise(args: argparse.Namespace) -> int:
    from id3tree.classroom.exercises import write_sheets

    names = ["exercises.md", "answers.md"] + (
        ["exercises.tex", "answers.tex"] if args.latex else []
    )
    for name in names:  # every file is checked before one is written
        check_new_file(Path(args.out) / name, args.force, "the sheet")
    students = column_list(args.students) or None
    for path in write_sheets(
        args.out, kind=args.kind, n_rows=args.rows, seed=args.seed, count=args.count,
        latex=args.latex, students=students, language=args.language,
    ):  # fmt: skip
        print(f"wrote {path}")
    return 0


# ------------------------------------------------------------------------------------------------
# the parser
# ------------------------------------------------------------------------------------------------
def _add_demo_command(commands: Any) -> None:
    demo = command_parser(commands, "demo")
    demo.add_argument("--out", default=".", help="folder for the tree image (default: here)")
    demo.add_argument("--force", action="store_true", help="overwrite the tree image if it exists")
    demo.set_defaults(run=_demo)


def _add_explore_command(commands: Any) -> None:
    explore = command_parser(
        commands,
        "explore",
        "Identifier-like columns that would win a split are left out, as in fit.",
    )
    explore.add_argument("data", help=DATA_HELP)
    add_target_option(explore)
    explore.add_argument("--out", default="tree.html", help="the page")
    add_criterion_options(explore)
    explore.add_argument("--title", help="the page title (default: DATA and the target)")
    explore.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    explore.add_argument(
        "--build", action="store_true", help="a page where you choose every split yourself"
    )
    explore.add_argument(
        "--holdout", type=float, metavar="SHARE", default=None,
        help="with --build: the share of rows kept aside to score the trees (default: 0.3)",
    )  # fmt: skip
    explore.add_argument(
        "--seed",
        type=SEED,
        metavar="N",
        default=None,
        help="with --build: draws the holdout (default: 0)",
    )
    add_language_option(explore, "the page (its data the same in every language)")
    add_column_options(explore)
    add_id_like_option(explore)
    add_progress_option(explore)
    explore.set_defaults(run=_explore)


def _add_exercise_command(commands: Any) -> None:
    exercise = command_parser(commands, "exercise")
    add_exercise_kind_option(exercise, "the kind of features of the exercises' data sets")
    exercise.add_argument(
        "--rows", type=int, metavar="N", default=12, help="rows per data set (6 to 40)"
    )
    exercise.add_argument(
        "--seed", type=SEED, metavar="N", default=0, help="the same seed, the same sheet"
    )
    exercise.add_argument(
        "--count", type=int, metavar="N", default=1, help="exercises on the sheet"
    )
    exercise.add_argument(
        "--students", metavar="NAMES",
        help="a roster, comma-separated (alice,bob): each student gets their own exercises, "
        "headed with their name, as grade marks them (default: one sheet for everyone)",
    )  # fmt: skip
    exercise.add_argument("--out", default=".", help="folder for the files (default: here)")
    exercise.add_argument("--latex", action="store_true", help="also write .tex files")
    add_language_option(exercise, "the sheets (their data the same in every language)")
    exercise.add_argument(
        "--force", action="store_true", help="overwrite sheets that exist in --out"
    )
    exercise.set_defaults(run=_exercise)


def _add_stats_command(commands: Any) -> None:
    stats = command_parser(commands, "stats")
    stats.add_argument("data", help=DATA_HELP)
    add_target_option(stats, "the target column")
    add_kind_options(stats)
    stats.add_argument(
        "--alpha", type=float, metavar="P", default=0.05, help="significance level of the tests"
    )
    stats.add_argument(
        "--complete-rows", action="store_true", help="first drop every row with a missing value"
    )
    add_column_options(stats)
    stats.set_defaults(run=_stats)


def _add_rank_command(commands: Any) -> None:
    rank = command_parser(commands, "rank")
    rank.add_argument("data", help=DATA_HELP)
    add_target_option(rank)
    rank.add_argument(
        "--method",
        default="information_gain",
        choices=[
            "information_gain", "gain_ratio", "mutual_information", "symmetric_uncertainty",
            "jsd",
        ],
        help="the measure",
    )  # fmt: skip
    rank.add_argument(
        "--bins", type=int, metavar="N", default=None,
        help="bins of numeric columns (histogram methods; default: 25 for jsd, 10 for the others)",
    )  # fmt: skip
    add_column_options(rank)
    rank.set_defaults(run=_rank)


def _add_screen_command(commands: Any) -> None:
    screen = command_parser(commands, "screen")
    screen.add_argument("data", help=DATA_HELP)
    add_column_options(screen, target=False)
    screen.set_defaults(run=_screen)


def _add_mi_command(commands: Any) -> None:
    mi = command_parser(commands, "mi")
    mi.add_argument("data", help=DATA_HELP)
    mi.add_argument(
        "--out", metavar="FILE",
        help="a heatmap (.png, .svg, .pdf) or the matrix (.csv) (default: the matrix on screen)",
    )  # fmt: skip
    mi.add_argument("--bins", type=int, metavar="N", default=10, help="bins of numeric columns")
    mi.add_argument("--normalize", action="store_true", help="symmetric uncertainty in [0, 1]")
    mi.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    add_column_options(mi, target=False)
    add_progress_option(mi)
    mi.set_defaults(run=_mi)


def _add_fit_command(commands: Any) -> None:
    from id3tree.cli.fit import add_fit_command

    add_fit_command(commands)


def _add_predict_command(commands: Any) -> None:
    from id3tree.cli.fit import add_predict_command

    add_predict_command(commands)


def _add_select_command(commands: Any) -> None:
    from id3tree.cli.select import add_select_command

    add_select_command(commands)


def _add_grade_command(commands: Any) -> None:
    from id3tree.cli.grade import add_grade_command

    add_grade_command(commands)


def _add_class_command(commands: Any) -> None:
    from id3tree.cli.classroom import add_class_command

    add_class_command(commands)


ADD_COMMAND: dict[str, Callable[[Any], None]] = {
    "demo": _add_demo_command, "fit": _add_fit_command, "predict": _add_predict_command,
    "stats": _add_stats_command, "rank": _add_rank_command, "screen": _add_screen_command,
    "mi": _add_mi_command, "explore": _add_explore_command, "exercise": _add_exercise_command,
    "select": _add_select_command, "grade": _add_grade_command, "class": _add_class_command,
    "conventions": _add_conventions_command,
    # A command of a module of its own (select, grade, the classroom's class) comes here as a
    # function above that imports its module and calls its add_..._command, with its summary in
    # SUMMARIES (id3tree/cli/common.py), in the same words as its add_parser(help=...)
    # (tests/test_cli_options.py compares them).
}  # fmt: skip
"""The function that adds each command with its options (imported only when it is built)."""


def _version() -> str:
    """id3tree's version, from its one home: the package, always loaded before its command line
    (read, not imported: the command line is a layer below the front door)."""
    return str(sys.modules["id3tree"].__version__)


def build_parser(full: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``id3tree`` parser. ``full`` names the commands built with all their options (None:
    every one); each other command is its name and its summary, which is all ``id3tree --help``
    shows."""
    wanted = set(SUMMARIES) if full is None else set(full)
    parser = Parser(prog="id3tree", description="Decision trees with entropy.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in SUMMARIES.items():
        if name in wanted:
            ADD_COMMAND[name](commands)
        else:
            commands.add_parser(name, help=summary)
    return parser


def repeated_option(argv: list[str]) -> str | None:
    """The first ``--option`` given twice: argparse would quietly keep the last one."""
    seen = set()
    for token in argv:
        if token == "--":
            break
        if token.startswith("--"):
            name = token.split("=", 1)[0]
            if name in seen:
                return name
            seen.add(name)
    return None


def _command_asked(argv: list[str]) -> str | None:
    """The command named on the command line (its first word that is not an option)."""
    word = next((token for token in argv if not token.startswith("-")), None)
    return word if word in SUMMARIES else None


def _options_of(parser: argparse.ArgumentParser, command: str) -> frozenset[str]:
    """Every option string of the subcommand ``command``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return frozenset(action.choices[command]._option_string_actions)
    return frozenset()


def _one_line_warning(
    message: Warning | str, category: type[Warning], filename: str, lineno: int,
    file: Any = None, line: str | None = None,
) -> None:  # fmt: skip
    """A warning as one line on stderr, without Python's source path and line."""
    print(f"id3tree: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    twice = repeated_option(argv)
    if twice:
        print(f"id3tree: error: {twice} is given twice; give it once", file=sys.stderr)
        return 2
    asked = _command_asked(argv)
    parser = build_parser([asked] if asked else [])
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its one-line message (or the help)
        return int(exc.code or 0)
    try:
        from id3tree.base.diagnostics import StrayValuesWarning

        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warning
            warnings.simplefilter("ignore", StrayValuesWarning)  # read_table names them once
            return int(args.run(args))
    except KeyboardInterrupt:  # Ctrl-C: one line, and the shell's status for SIGINT
        print("id3tree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (keeps Python's exit flush quiet)
        return 0
    except ValueError as exc:  # the library's words: its parameters named as the options typed
        message = option_words(str(exc), _options_of(parser, args.command))
        print(f"id3tree: error: {message}", file=sys.stderr)
        return 2
    except (UserError, OSError) as exc:
        print(f"id3tree: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
