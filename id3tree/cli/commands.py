"""The ``id3tree`` command line (also ``python -m id3tree``).

``main(argv)`` returns an exit status so tests can call it directly. A user error (a file that is
not there, a column that does not exist, a model file that is not one) prints one line on stderr
and returns 2; there is no traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from id3tree import datasets
from id3tree.base.diagnostics import IDLikeFeatureWarning, StrayValuesWarning
from id3tree.cli.classroom import add_class_command
from id3tree.cli.common import (
    UserError,
    add_column_options,
    add_exercise_kind_option,
    add_kind_options,
    add_progress_option,
    check_new_file,
    read_data,
    read_table,
    split_target,
    write_table,
)
from id3tree.cli.grade import add_grade_command
from id3tree.cli.select import add_select_command
from id3tree.io import persistence
from id3tree.learner import ID3Classifier

__all__ = [
    "build_parser", "confusion_table", "CRITERION_HELP", "DATA_HELP", "fit_without_id_like", "main",
    "MAX_DEPTH_HELP", "repeated_option",
]  # fmt: skip


# ------------------------------------------------------------------------------------------------
# commands
# ------------------------------------------------------------------------------------------------
def _demo(args: argparse.Namespace) -> int:
    from id3tree.render.files import save_tree_image

    X, y = datasets.load_play_tennis(return_X_y=True)
    print("Play Tennis (Quinlan 1986): 14 days, 4 weather features, target Play.\n")
    print("Growing the tree, node by node:\n")
    model = ID3Classifier(verbose=1).fit(X, y)
    print("\nThe tree:\n")
    print(model.to_text())
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "play_tennis_tree.png"
    existed = path.exists()
    engine = save_tree_image(model, path)
    print(f"\nDrew the tree with {engine}: {path}" + (" (replaced the old one)" if existed else ""))
    return 0


def _column_list(text: str | None):
    """``A,B,C`` as a list of names, or "auto"."""
    return [c.strip() for c in text.split(",") if c.strip()] if text else "auto"


def _fit(args: argparse.Namespace) -> int:
    from sklearn.model_selection import train_test_split

    if args.render:  # every problem with the outputs is found before the fit, not after it
        from id3tree.render.files import check_image_path

        check_image_path(args.render)
    check_new_file(args.render, args.force, "the picture")
    check_new_file(args.save, args.force, "the model file")
    if args.render and args.save and Path(args.render).resolve() == Path(args.save).resolve():
        raise UserError("--render and --save name the same file")
    _check_pruning_options(args)
    X, y = split_target(read_table(args), args.target)
    X_test = y_test = None
    if args.test is not None:
        X_test, y_test = split_target(read_data(args.test, args.na_values), args.target)
    elif args.test_size is not None:
        if not 0 < args.test_size < 1:
            raise UserError(f"--test-size must be a fraction between 0 and 1, got {args.test_size}")
        X, X_test, y, y_test = _split(X, y, args.test_size, args.seed, train_test_split)
    verbose = max(args.verbose, int(args.trace))
    model = ID3Classifier(
        criterion=args.criterion,
        max_depth=args.max_depth,
        min_samples_leaf=args.min_samples_leaf,
        class_weight=args.class_weight,
        alpha=args.alpha,
        categorical=_column_list(args.categorical),
        ccp_alpha=args.ccp_alpha if args.prune == "cost_complexity" else 0.0,
        verbose=verbose,
    )
    X_val = y_val = None
    if args.prune == "reduced_error":
        X, X_val, y, y_val = _split(X, y, args.validation_size, args.seed, train_test_split)
    model, X = fit_without_id_like(model, X, y, args)
    if X_test is not None:
        X_test = X_test[list(X.columns)]
    if X_val is not None:
        X_val = X_val[list(X.columns)]
    if args.prune in ("reduced_error", "pessimistic"):
        grown = model.get_n_leaves()
        model = model.prune(
            args.prune,
            X_val,
            y_val,
            confidence=0.25 if args.confidence is None else args.confidence,
            sample_weight=_validation_weights(args.class_weight, y, y_val),
            tracer=_prune_tracer(verbose),
        )
        held = f", {len(X_val)} rows held out to prune" if X_val is not None else ""
        print(f"{args.prune} pruning: {grown} leaves -> {model.get_n_leaves()}{held}")
    elif args.prune == "cost_complexity":
        print(
            f"cost-complexity pruning at ccp_alpha {args.ccp_alpha:g}: {model.get_n_leaves()} leaves"
        )
    print(
        f"ID3 tree on {len(X)} rows and {X.shape[1]} features: depth {model.get_depth()}, "
        f"{model.get_n_leaves()} leaves, training accuracy {model.score(X, y):.4f}"
    )
    if X_test is not None:
        print(f"held-out accuracy {model.score(X_test, y_test):.4f} on {len(X_test)} rows")
        print(confusion_table(y_test, model.predict(X_test), model.classes_).to_string())
    print(model.to_text(max_depth=args.show_depth))
    if args.render:
        from id3tree.render.files import save_tree_image

        engine = save_tree_image(model, args.render)
        print(f"drew the tree with {engine}: {args.render}")
    if args.save:
        record = model.to_dict()
        record["target"] = args.target  # so that predict can score data that has this column
        Path(args.save).write_text(json.dumps(record, allow_nan=False), encoding="utf-8")
        print(f"saved the model: {args.save}")
    return 0


def _check_pruning_options(args: argparse.Namespace) -> None:
    """``--ccp-alpha`` alone means cost-complexity pruning; with another ``--prune``, and
    ``--confidence`` without pessimistic pruning, it would be ignored: refused instead."""
    from id3tree.base.params import check_ccp_alpha, check_confidence

    if args.ccp_alpha is not None:
        check_ccp_alpha(args.ccp_alpha)
        if args.prune is None:
            args.prune = "cost_complexity"
        elif args.prune != "cost_complexity":
            raise UserError(f"--ccp-alpha is for cost_complexity pruning, not --prune {args.prune}")
    elif args.prune == "cost_complexity":
        raise UserError("--prune cost_complexity needs --ccp-alpha")
    if args.confidence is not None:
        check_confidence(args.confidence)
        if args.prune != "pessimistic":
            raise UserError("--confidence is C4.5's factor for --prune pessimistic; add that")


def fit_without_id_like(model, X: pd.DataFrame, y, args: argparse.Namespace):
    """Fit ``model``; while a column that looks like an identifier wins a split, leave it out
    (saying which, and how to keep it) and fit again. A column named in ``--features``, or
    any with ``--keep-id-like``, is kept, with the warning. Returns the model and the columns
    it was fitted on."""
    keep = set(args.features.split(",")) if args.features else set()
    while True:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", IDLikeFeatureWarning)
            with _progress_while(f"fitting a tree to {len(X)} rows", args):
                model.fit(X, y)
        left_out = []
        for warning in caught:  # one plain line each, as for errors
            message = warning.message
            if not issubclass(warning.category, IDLikeFeatureWarning):
                warnings.warn_explicit(message, warning.category, warning.filename, warning.lineno)
            elif args.keep_id_like or message.feature in keep:
                print(f"id3tree: warning: {message}", file=sys.stderr)
            else:
                left_out.append(message)
        if not left_out:
            return model, X
        if len(left_out) == X.shape[1]:
            names = [message.feature for message in left_out]
            raise UserError(f"every column looks like an identifier ({names}); pass --keep-id-like")
        for message in left_out:
            print(
                f"id3tree: left out column {message.feature!r}, which looks like an identifier "
                f"(it split {message.split}); to keep it, pass --keep-id-like or name it in "
                "--features",
                file=sys.stderr,
            )
        X = X.drop(columns=[message.feature for message in left_out])


def _progress_while(what: str, args: argparse.Namespace):
    """A bar that shows the seconds spent on one long step (a fit), when progress is wanted."""
    from id3tree.base.progress import elapsed_bar, wanted

    return elapsed_bar(what, enabled=wanted(getattr(args, "progress", None)))


def _split(X, y, size: float, seed: int, train_test_split):
    """Rows split at random, stratified by class when every class has two rows or more."""
    stratify = y if y.value_counts().min() >= 2 else None
    try:
        return train_test_split(X, y, test_size=size, random_state=seed, stratify=stratify)
    except ValueError:  # too few rows of a class for the stratified split asked for
        return train_test_split(X, y, test_size=size, random_state=seed)


def _validation_weights(class_weight, y, y_val):
    """The held-out rows weighed as the training rows were: each class by its training weight
    (None without ``--class-weight``, and for pruning that needs no held-out rows)."""
    if class_weight is None or y_val is None:
        return None
    from sklearn.utils.class_weight import compute_sample_weight

    by_class = dict(zip(y.tolist(), compute_sample_weight(class_weight, y.to_numpy(object))))
    return np.array([by_class.get(c, 1.0) for c in y_val.tolist()])


def _prune_tracer(verbose: int):
    if not verbose:
        return None
    from id3tree.trace.tracers import PrintTracer

    return PrintTracer()


def confusion_table(actual, predicted, classes) -> pd.DataFrame:
    """Counts of (actual, predicted) pairs: one row per actual class, one column per prediction."""
    labels = list(classes)
    extra = [c for c in pd.unique(pd.Series(actual)) if c not in labels]
    labels += sorted(extra, key=str)
    table = pd.crosstab(
        pd.Categorical(np.asarray(actual, dtype=object), categories=labels),
        pd.Categorical(np.asarray(predicted, dtype=object), categories=labels),
        dropna=False,
    )
    table.index.name, table.columns.name = "actual", "predicted"
    return table


def _predict(args: argparse.Namespace) -> int:
    check_new_file(args.out, args.force)
    try:
        record = persistence.read_json(Path(args.model))
        model = ID3Classifier.from_dict(record)
    except ValueError as exc:
        raise UserError(f"{args.model}: {exc}") from None
    frame = read_data(args.data, args.na_values.split(",") if args.na_values else None)
    names = list(model._names)
    missing = [n for n in names if n not in frame.columns]
    if missing:
        raise UserError(f"the data lacks the model's feature column(s) {missing}")
    X = frame[names]
    if args.id_column is not None:
        if args.id_column not in frame.columns:
            raise UserError(f"--id-column {args.id_column!r} is not in the data")
        ids = frame[args.id_column].to_numpy()
    else:
        ids = np.arange(len(frame))
    predicted = model.predict(X)
    result = pd.DataFrame({args.id_column or "row": ids, "prediction": predicted})
    if args.proba:
        proba = model.predict_proba(X)
        for i, c in enumerate(model.classes_):
            result[f"P({c})"] = proba[:, i]
    from id3tree.base.diagnostics import stopped_early_words, unseen_classes_message

    result["stopped_early"] = stopped_early_words(model.stopped_early(X))
    write_table(result, args.out)
    target = args.target or record.get("target")
    if target is not None and target in frame.columns:
        actual = frame[target]
        known = actual.notna().to_numpy()
        # the report goes beside the table: to stderr when the table fills stdout
        report = sys.stdout if args.out is not None else sys.stderr
        hits = int((actual.to_numpy()[known] == predicted[known]).sum())
        unseen = unseen_classes_message(actual, model.classes_)
        if unseen:
            print(f"id3tree: warning: {unseen}", file=sys.stderr)
        print(
            f"accuracy {hits / max(known.sum(), 1):.4f} ({hits} of {int(known.sum())} rows with "
            f"a {target!r} value)",
            file=report,
        )
        print(confusion_table(actual[known], predicted[known], model.classes_), file=report)
    elif args.target is not None:
        raise UserError(f"target column {args.target!r} is not in the data")
    return 0


def _stats(args: argparse.Namespace) -> int:
    import math

    from id3tree.stats import test_features
    from id3tree.stats.result import format_pvalue

    data = read_table(args)
    if args.complete_rows:
        data = data.dropna()
    X, y = split_target(data, args.target)
    listed = (
        [c.strip() for c in args.categorical.split(",") if c.strip()]
        if args.categorical
        else "auto"
    )
    table = test_features(X, y, categorical=listed, target_kind=args.target_kind, alpha=args.alpha)
    shown = table.drop(columns=["note"])
    shown["pvalue"] = [
        "" if math.isnan(i) else format_pvalue(-i * math.log(10)) for i in table["importance"]
    ]
    print(f"{len(X)} rows, target {args.target!r}; significant at alpha = {args.alpha:g}\n")
    print(
        shown.to_string(
            formatters={
                "statistic": "{:.4f}".format,
                "importance": "{:.2f}".format,
                "association": "{:.4f}".format,
            }
        )
    )
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


def _screen(args: argparse.Namespace) -> int:
    from id3tree.ranking import screen_features

    table = screen_features(read_table(args))
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(table.to_string(float_format="{:.4g}".format))
    return 0


def _mi(args: argparse.Namespace) -> int:
    from id3tree.base.progress import wanted
    from id3tree.ranking import mutual_information_matrix, plot_heatmap

    if args.out is not None and Path(args.out).suffix.lower() not in (
        ".csv", ".png", ".svg", ".pdf",
    ):  # fmt: skip
        raise UserError(f"cannot write {args.out!r}: use .csv, .png, .svg or .pdf")
    check_new_file(args.out, args.force)
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
    check_new_file(args.out, args.force, "the page")
    X, y = split_target(read_table(args), args.target)
    model = ID3Classifier(criterion=args.criterion, max_depth=args.max_depth)
    model, X = fit_without_id_like(model, X, y, args)
    if args.build:
        model.to_html(args.out, title=args.title, mode="build", holdout=args.holdout,
                      random_state=args.seed)  # fmt: skip
        print(f"wrote {args.out}: grow the tree yourself; open it in a browser")
        return 0
    model.to_html(args.out, title=args.title or f"{args.data}: predicting {args.target}")
    print(f"wrote {args.out} ({sum(1 for _ in model.root_.walk())} nodes); open it in a browser")
    return 0


def _exercise(args: argparse.Namespace) -> int:
    from id3tree.classroom.exercises import write_sheets

    names = ["exercises.md", "answers.md"] + (
        ["exercises.tex", "answers.tex"] if args.latex else []
    )
    for name in names:  # every file is checked before one is written
        check_new_file(Path(args.out) / name, args.force, "the sheet")
    for path in write_sheets(
        args.out, kind=args.kind, n_rows=args.rows, seed=args.seed, count=args.count,
        latex=args.latex,
    ):  # fmt: skip
        print(f"wrote {path}")
    return 0


CRITERION_HELP = "how features compete: information gain (entropy) or gain ratio (C4.5)"
MAX_DEPTH_HELP = "grow at most this many levels below the root (default: no limit)"
DATA_HELP = "a CSV path or a built-in dataset name"


def _command(commands, name: str, summary: str, description: str = ""):
    """A subcommand whose --help screen opens with its description."""
    return commands.add_parser(
        name, help=summary, description=f"{summary[0].upper()}{summary[1:]}. {description}".strip()
    )


def _add_id_like_option(parser) -> None:
    parser.add_argument(
        "--keep-id-like",
        action="store_true",
        help="keep a column that looks like an identifier (a name, a ticket number) even when "
        "it wins a split; by default it is left out and the tree grown again",
    )


def _add_teaching_commands(commands) -> None:
    explore = _command(
        commands,
        "explore",
        "write an interactive HTML page of the tree",
        "Identifier-like columns that would win a split are left out, as in fit.",
    )
    explore.add_argument("data", help=DATA_HELP)
    explore.add_argument("--target", required=True, help="the class column")
    explore.add_argument("--out", default="tree.html", help="the page (default: tree.html)")
    explore.add_argument(
        "--criterion", default="entropy", choices=["entropy", "gain_ratio"], help=CRITERION_HELP
    )
    explore.add_argument("--max-depth", type=int, default=None, help=MAX_DEPTH_HELP)
    explore.add_argument("--title", help="the page title")
    explore.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    explore.add_argument(
        "--build", action="store_true", help="a page where you choose every split yourself"
    )
    explore.add_argument(
        "--holdout", type=float, default=None,
        help="with --build: the share of rows kept aside to score the trees (default 0.3)",
    )  # fmt: skip
    explore.add_argument("--seed", type=int, default=0, help="with --build: draws the holdout")
    add_column_options(explore)
    _add_id_like_option(explore)
    add_progress_option(explore)
    explore.set_defaults(run=_explore)

    exercise = _command(commands, "exercise", "write an exercise sheet and its answer key")
    add_exercise_kind_option(
        exercise, "the kind of features of the exercises' data sets (default: mixed)"
    )
    exercise.add_argument("--rows", type=int, default=12, help="rows per data set (6 to 40)")
    exercise.add_argument("--seed", type=int, default=0, help="the same seed, the same sheet")
    exercise.add_argument("--count", type=int, default=1, help="exercises on the sheet")
    exercise.add_argument("--out", default=".", help="folder for the files (default: here)")
    exercise.add_argument("--latex", action="store_true", help="also write .tex files")
    exercise.add_argument(
        "--force", action="store_true", help="overwrite sheets that exist in --out"
    )
    exercise.set_defaults(run=_exercise)


def _add_fit_command(commands) -> None:
    fit = _command(
        commands,
        "fit",
        "fit a tree to a CSV file or a built-in dataset",
        "A column that looks like an identifier (one row per value) and would win a split is "
        "left out and the tree grown again; the command says which.",
    )
    fit.add_argument("data", help=DATA_HELP)
    fit.add_argument("--target", required=True, help="the class column")
    fit.add_argument(
        "--criterion", default="entropy", choices=["entropy", "gain_ratio"], help=CRITERION_HELP
    )
    fit.add_argument("--max-depth", type=int, default=None, help=MAX_DEPTH_HELP)
    fit.add_argument("--min-samples-leaf", type=int, default=1, help="rows every branch needs")
    fit.add_argument(
        "--class-weight", choices=["balanced"], default=None,
        help="weigh each class's rows so the classes count the same (scikit-learn's 'balanced')",
    )  # fmt: skip
    fit.add_argument(
        "--alpha", type=float, default=None, help="split only if chi-square p < ALPHA (pre-pruning)"
    )
    fit.add_argument(
        "--categorical", metavar="A,B,...", help="numeric columns to treat as categories"
    )
    fit.add_argument(
        "--prune",
        choices=["reduced_error", "pessimistic", "cost_complexity"],
        help="post-prune the grown tree (reduced_error holds out --validation-size of the rows)",
    )
    fit.add_argument(
        "--confidence", type=float, default=None,
        help="C4.5's CF for --prune pessimistic, in (0, 0.5] (default 0.25)",
    )  # fmt: skip
    fit.add_argument(
        "--ccp-alpha", type=float, default=None,
        help="complexity parameter of cost-complexity pruning (implies --prune cost_complexity)",
    )  # fmt: skip
    fit.add_argument(
        "--validation-size", type=float, default=0.25, help="share held out for reduced_error"
    )
    held_out = fit.add_mutually_exclusive_group()
    held_out.add_argument(
        "--test-size", type=float, help="hold out this share of the rows and report accuracy on it"
    )
    held_out.add_argument("--test", metavar="DATA", help="report accuracy on this second data set")
    fit.add_argument("--seed", type=int, default=0, help="random seed of the held-out splits")
    fit.add_argument(
        "--trace", action="store_true", help="print every node, candidate and decision"
    )
    fit.add_argument(
        "--verbose", type=int, default=0, choices=[0, 1, 2],
        help="1 = --trace, 2 also prints every candidate threshold",
    )  # fmt: skip
    fit.add_argument("--render", metavar="FILE", help="draw the tree: .png, .svg, .pdf or .dot")
    fit.add_argument("--save", metavar="MODEL.json", help="save the fitted model as JSON")
    fit.add_argument(
        "--force", action="store_true", help="overwrite --render and --save files that exist"
    )
    fit.add_argument(
        "--show-depth", type=int, default=4, help="levels of the text view (default 4)"
    )
    add_column_options(fit)
    _add_id_like_option(fit)
    add_progress_option(fit)
    fit.set_defaults(run=_fit)


def _add_predict_command(commands) -> None:
    predict = _command(
        commands,
        "predict",
        "predict with a saved model; scores the predictions when the target column is there",
        "The columns are those the model was fitted on; others in DATA are not read.",
    )
    predict.add_argument("model", help="a model saved by fit --save")
    predict.description += (
        " The stopped_early column names, for a row that stopped before a leaf (a category "
        "never seen at a node, a missing value where none was seen), the node and the feature."
    )
    predict.add_argument("data", help=DATA_HELP)
    predict.add_argument("--proba", action="store_true", help="add the class probabilities")
    predict.add_argument(
        "--id-column", metavar="COL", help="label rows by this column (default: row number)"
    )
    predict.add_argument(
        "--target",
        metavar="COL",
        help="the class column to score against (default: the one the model was fitted on)",
    )
    predict.add_argument("--out", metavar="FILE", help="write CSV here instead of the screen")
    predict.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    predict.add_argument(
        "--na-values",
        metavar="V,W,...",
        help="values to read as missing, besides '?' and empty fields",
    )
    predict.set_defaults(run=_predict)


def _add_table_commands(commands) -> None:
    stats = _command(commands, "stats", "chi-square, ANOVA, regression and deviance tests")
    stats.add_argument("data", help=DATA_HELP)
    stats.add_argument("--target", required=True, help="the target column")
    add_kind_options(stats)
    stats.add_argument(
        "--alpha", type=float, default=0.05, help="significance level of the tests (0.05)"
    )
    stats.add_argument(
        "--complete-rows", action="store_true", help="first drop every row with a missing value"
    )
    add_column_options(stats)
    stats.set_defaults(run=_stats)

    rank = _command(commands, "rank", "rank the features by an entropy measure")
    rank.add_argument("data", help=DATA_HELP)
    rank.add_argument("--target", required=True, help="the class column")
    rank.add_argument(
        "--method",
        default="information_gain",
        choices=[
            "information_gain",
            "gain_ratio",
            "mutual_information",
            "symmetric_uncertainty",
            "jsd",
        ],
        help="the measure (default: information_gain)",
    )
    rank.add_argument(
        "--bins", type=int, default=None,
        help="bins of numeric columns (histogram methods; default 25 for jsd, 10 for the others)",
    )  # fmt: skip
    add_column_options(rank)
    rank.set_defaults(run=_rank)

    screen = _command(commands, "screen", "missing values, variety and entropy of every column")
    screen.add_argument("data", help=DATA_HELP)
    add_column_options(screen)
    screen.set_defaults(run=_screen)

    mi = _command(commands, "mi", "mutual information between every pair of columns")
    mi.add_argument("data", help=DATA_HELP)
    mi.add_argument(
        "--out", metavar="FILE", help="a heatmap (.png, .svg, .pdf) or the matrix (.csv)"
    )
    mi.add_argument("--bins", type=int, default=10, help="bins of numeric columns")
    mi.add_argument("--normalize", action="store_true", help="symmetric uncertainty in [0, 1]")
    mi.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    add_column_options(mi)
    add_progress_option(mi)
    mi.set_defaults(run=_mi)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="id3tree", description="Decision trees with entropy.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = _command(commands, "demo", "fit Play Tennis, print the trace and the tree, draw it")
    demo.add_argument("--out", default=".", help="folder for the tree image (default: here)")
    demo.set_defaults(run=_demo)
    _add_fit_command(commands)
    _add_predict_command(commands)
    _add_table_commands(commands)
    _add_teaching_commands(commands)
    add_select_command(commands)
    add_grade_command(commands)
    add_class_command(commands)
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


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one line on stderr, without Python's source path and line."""
    print(f"id3tree: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    twice = repeated_option(argv)
    if twice:
        print(f"id3tree: error: {twice} is given twice; give it once", file=sys.stderr)
        return 2
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its one-line message
        return int(exc.code or 0)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warning
            warnings.simplefilter("ignore", StrayValuesWarning)  # read_table names them once
            return args.run(args)
    except KeyboardInterrupt:  # Ctrl-C: one line, and the shell's status for SIGINT
        print("id3tree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (keeps Python's exit flush quiet)
        return 0
    except (UserError, ValueError, OSError) as exc:
        print(f"id3tree: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
