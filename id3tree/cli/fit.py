"""``id3tree fit`` and ``id3tree predict``: a tree fitted to a table, shown, scored, pruned,
drawn and saved; a saved tree's predictions (:class:`id3tree.ID3Classifier` on the command line).

Both check every file they will write, and every column and row they will read, before the fit.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from id3tree.base.language import LANGUAGES
from id3tree.cli.common import (
    CRITERION_HELP,
    DATA_HELP,
    MAX_DEPTH_HELP,
    SEED,
    UserError,
    add_column_options,
    add_progress_option,
    add_target_option,
    check_new_file,
    check_writable,
    column_list,
    command_parser,
    fraction,
    integer,
    read_data,
    read_table,
    split_target,
    write_table,
)

if TYPE_CHECKING:
    import pandas as pd

    from id3tree.learner import ID3Classifier

__all__ = [
    "add_criterion_options", "add_fit_command", "add_id_like_option", "add_predict_command",
    "confusion_table", "fit_without_id_like",
]  # fmt: skip


def _categorical(text: str | None) -> list[str] | str:
    """``A,B,C`` as a list of names, or "auto"."""
    return column_list(text) or "auto"


def _check_outputs(args: argparse.Namespace) -> None:
    """Every problem with ``fit``'s files is found before the fit, not after it."""
    if args.render:
        from id3tree.render.files import check_image_path

        check_image_path(args.render)
    check_new_file(args.render, args.force, "the picture")
    check_new_file(args.save, args.force, "the model file")
    check_writable(args.render)
    check_writable(args.save)
    if args.render and args.save and Path(args.render).resolve() == Path(args.save).resolve():
        raise UserError("--render and --save name the same file")


def _test_rows(args: argparse.Namespace, X: pd.DataFrame) -> tuple[Any, Any]:
    """``--test``'s rows, checked before the fit: a target, every feature, at least one row."""
    if args.test is None:
        return None, None
    X_test, y_test = split_target(read_data(args.test, column_list(args.na_values)), args.target)
    missing = [c for c in X.columns if c not in X_test.columns]
    if missing:
        raise UserError(f"--test {args.test!r} lacks the feature column(s) {missing}")
    if len(X_test) == 0:
        raise UserError(f"--test {args.test!r} has no rows")
    return X_test, y_test


def _fit(args: argparse.Namespace) -> int:
    from sklearn.model_selection import train_test_split

    from id3tree.base.words import plural
    from id3tree.learner import ID3Classifier

    _check_outputs(args)
    _check_pruning_options(args)
    X, y = split_target(read_table(args), args.target)
    X_test, y_test = _test_rows(args, X)
    if args.test_size is not None:
        X, X_test, y, y_test = _split(X, y, args.test_size, args.seed, train_test_split)
    verbose = max(args.verbose, int(args.trace))
    model = ID3Classifier(
        criterion=args.criterion,
        max_depth=args.max_depth,
        min_samples_leaf=args.min_samples_leaf,
        class_weight=args.class_weight,
        alpha=args.alpha,
        categorical=_categorical(args.categorical),
        ccp_alpha=args.ccp_alpha if args.prune == "cost_complexity" else 0.0,
        verbose=verbose,
        language=args.language,
        log_base=2 if args.log_base == "2" else args.log_base,
        ties=args.ties,
    )
    X_val = y_val = None
    if args.prune == "reduced_error":
        size = 0.25 if args.validation_size is None else args.validation_size
        X, X_val, y, y_val = _split(X, y, size, args.seed, train_test_split)
    model, X = fit_without_id_like(model, X, y, args)
    if X_test is not None:
        X_test = X_test[list(X.columns)]
    if X_val is not None:
        X_val = X_val[list(X.columns)]
    model = _prune(model, args, verbose, y, X_val, y_val)
    print(
        f"ID3 tree on {plural(len(X), 'row')} and {plural(X.shape[1], 'feature')}: depth "
        f"{model.get_depth()}, {plural(model.get_n_leaves(), 'leaf', 'leaves')}, training "
        f"accuracy {model.score(X, y):.4f}"
    )
    if X_test is not None:
        print(
            f"held-out accuracy {model.score(X_test, y_test):.4f} on {plural(len(X_test), 'row')}"
        )
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


def _prune(
    model: ID3Classifier, args: argparse.Namespace, verbose: int, y: Any, X_val: Any, y_val: Any
) -> ID3Classifier:
    """The fitted tree pruned as ``--prune`` asks (cost complexity was done by the fit)."""
    from id3tree.base.words import plural

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
        held = f", {plural(len(X_val), 'row')} held out to prune" if X_val is not None else ""
        leaves = plural(model.get_n_leaves(), "leaf", "leaves")
        print(f"{args.prune} pruning: {plural(grown, 'leaf', 'leaves')} -> {leaves}{held}")
    elif args.prune == "cost_complexity":
        leaves = plural(model.get_n_leaves(), "leaf", "leaves")
        print(f"cost-complexity pruning at ccp_alpha {args.ccp_alpha:g}: {leaves}")
    return model


def _check_pruning_options(args: argparse.Namespace) -> None:
    """``--ccp-alpha`` alone means cost-complexity pruning; with another ``--prune``, and
    ``--confidence`` without pessimistic pruning or ``--validation-size`` without reduced-error
    pruning, it would be ignored: refused instead."""
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
    if args.validation_size is not None and args.prune != "reduced_error":
        raise UserError(
            "--validation-size is the share held out by --prune reduced_error; add that"
        )


def _id_like_feature(message: Warning | str) -> str | None:
    """The column an identifier-like warning names, from its ``feature`` attribute (never read
    back from its text, which may hold any column name)."""
    return getattr(message, "feature", None)


def fit_without_id_like(
    model: ID3Classifier, X: pd.DataFrame, y: Any, args: argparse.Namespace
) -> tuple[ID3Classifier, pd.DataFrame]:
    """Fit ``model``; while a column that looks like an identifier wins a split, leave it out
    (saying which, and how to keep it) and fit again. A column named in ``--features``, or
    any with ``--keep-id-like``, is kept, with the warning. Returns the model and the columns
    it was fitted on."""
    from id3tree.base.diagnostics import IDLikeFeatureWarning

    keep = set(column_list(args.features))
    while True:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", IDLikeFeatureWarning)
            with _progress_while(f"fitting a tree to {len(X)} rows", args):
                model.fit(X, y)
        left_out: list[tuple[str, Warning | str]] = []
        for warning in caught:  # one plain line each, as for errors
            message, feature = warning.message, _id_like_feature(warning.message)
            if not issubclass(warning.category, IDLikeFeatureWarning):
                warnings.warn_explicit(message, warning.category, warning.filename, warning.lineno)
            elif args.keep_id_like or feature is None or feature in keep:
                print(f"id3tree: warning: {message}", file=sys.stderr)
            else:
                left_out.append((feature, message))
        if not left_out:
            return model, X
        if len(left_out) == X.shape[1]:
            names = [feature for feature, _ in left_out]
            raise UserError(f"every column looks like an identifier ({names}); pass --keep-id-like")
        for feature, message in left_out:
            split = getattr(message, "split", None)
            print(
                f"id3tree: left out column {feature!r}, which looks like an identifier"
                + (f" (it split {split})" if split else "")
                + "; to keep it, pass --keep-id-like or name it in --features",
                file=sys.stderr,
            )
        X = X.drop(columns=[feature for feature, _ in left_out])


def _progress_while(what: str, args: argparse.Namespace) -> Any:
    """A bar that shows the seconds spent on one long step (a fit), when progress is wanted."""
    from id3tree.base.progress import elapsed_bar, wanted

    return elapsed_bar(what, enabled=wanted(getattr(args, "progress", None)))


def _split(X: Any, y: Any, size: float, seed: int, train_test_split: Callable[..., Any]) -> Any:
    """Rows split at random, stratified by class when every class has two rows or more."""
    stratify = y if y.value_counts().min() >= 2 else None
    try:
        return train_test_split(X, y, test_size=size, random_state=seed, stratify=stratify)
    except ValueError:  # too few rows of a class for the stratified split asked for
        try:
            return train_test_split(X, y, test_size=size, random_state=seed)
        except ValueError:  # too few rows for the share asked for
            raise UserError(
                f"{len(X)} rows are too few to hold out a share of {size:g} of them"
            ) from None


def _validation_weights(class_weight: str | None, y: Any, y_val: Any) -> Any:
    """The held-out rows weighed as the training rows were: each class by its training weight
    (None without ``--class-weight``, and for pruning that needs no held-out rows)."""
    if class_weight is None or y_val is None:
        return None
    import numpy as np
    from sklearn.utils.class_weight import compute_sample_weight

    by_class = dict(zip(y.tolist(), compute_sample_weight(class_weight, y.to_numpy(object))))
    return np.array([by_class.get(c, 1.0) for c in y_val.tolist()])


def _prune_tracer(verbose: int) -> Any:
    if not verbose:
        return None
    from id3tree.trace.tracers import PrintTracer

    return PrintTracer()


def confusion_table(actual: Any, predicted: Any, classes: Iterable[Any]) -> pd.DataFrame:
    """Counts of (actual, predicted) pairs: one row per actual class, one column per prediction."""
    import numpy as np
    import pandas as pd

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
    import numpy as np
    import pandas as pd

    from id3tree.base.diagnostics import stopped_early_words
    from id3tree.io import persistence
    from id3tree.learner import ID3Classifier

    check_new_file(args.out, args.force)
    check_writable(args.out)
    try:
        record = persistence.read_json(Path(args.model))
        model = ID3Classifier.from_dict(record)
    except ValueError as exc:
        raise UserError(f"{args.model}: {exc}") from None
    frame = read_data(args.data, column_list(args.na_values))
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
    target = args.target or record.get("target")
    if args.target is not None and args.target not in frame.columns:
        raise UserError(f"target column {args.target!r} is not in the data")
    predicted = model.predict(X)
    result = pd.DataFrame({args.id_column or "row": ids, "prediction": predicted})
    if args.proba:
        proba = model.predict_proba(X)
        for i, c in enumerate(model.classes_):
            result[f"P({c})"] = proba[:, i]
    result["stopped_early"] = stopped_early_words(model.stopped_early(X))
    write_table(result, args.out)
    if target is not None and target in frame.columns:
        _score(frame[target], predicted, model, target, to_stdout=args.out is not None)
    return 0


def _score(actual: Any, predicted: Any, model: ID3Classifier, target: str, to_stdout: bool) -> None:
    """The accuracy and the confusion table of ``predict``, beside the table of predictions:
    on stderr when the table fills stdout."""
    from id3tree.base.diagnostics import unseen_classes_message
    from id3tree.base.words import plural

    report = sys.stdout if to_stdout else sys.stderr
    known = actual.notna().to_numpy()
    hits = int((actual.to_numpy()[known] == predicted[known]).sum())
    unseen = unseen_classes_message(actual, model.classes_)
    if unseen:
        print(f"id3tree: warning: {unseen}", file=sys.stderr)
    rows = plural(int(known.sum()), "row")
    print(
        f"accuracy {hits / max(known.sum(), 1):.4f} ({hits} of {rows} with a {target!r} value)",
        file=report,
    )
    print(confusion_table(actual[known], predicted[known], model.classes_), file=report)


def add_id_like_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep-id-like",
        action="store_true",
        help="keep a column that looks like an identifier (a name, a ticket number) even when "
        "it wins a split; by default it is left out and the tree grown again",
    )


def add_criterion_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--criterion", default="entropy", choices=["entropy", "gain_ratio"], help=CRITERION_HELP
    )
    parser.add_argument("--max-depth", type=int, metavar="N", default=None, help=MAX_DEPTH_HELP)


def add_fit_command(commands: Any) -> None:
    fit = command_parser(
        commands,
        "fit",
        "A column that looks like an identifier (one row per value) and would win a split is "
        "left out and the tree grown again; the command says which.",
    )
    fit.add_argument("data", help=DATA_HELP)
    add_target_option(fit)
    add_criterion_options(fit)
    fit.add_argument(
        "--min-samples-leaf", type=int, metavar="N", default=1, help="rows every branch needs"
    )
    fit.add_argument(
        "--class-weight", choices=["balanced"], default=None,
        help="weigh each class's rows so the classes count the same (scikit-learn's 'balanced'; "
        "default: every row weighs 1)",
    )  # fmt: skip
    fit.add_argument(
        "--alpha", type=float, metavar="P", default=None,
        help="split only if chi-square p < P (pre-pruning; default: no test)",
    )  # fmt: skip
    fit.add_argument(
        "--categorical", metavar="A,B,...",
        help="numeric columns to treat as categories (default: none; text columns always are)",
    )  # fmt: skip
    fit.add_argument(
        "--prune",
        choices=["reduced_error", "pessimistic", "cost_complexity"],
        help="post-prune the grown tree (reduced_error holds out --validation-size of the rows; "
        "default: no pruning)",
    )
    fit.add_argument(
        "--confidence", type=float, metavar="CF", default=None,
        help="C4.5's CF for --prune pessimistic, in (0, 0.5] (default: 0.25)",
    )  # fmt: skip
    fit.add_argument(
        "--ccp-alpha", type=float, metavar="A", default=None,
        help="complexity parameter of cost-complexity pruning (implies --prune cost_complexity; "
        "default: none)",
    )  # fmt: skip
    fit.add_argument(
        "--validation-size", type=fraction, metavar="SHARE", default=None,
        help="share held out for --prune reduced_error (default: 0.25)",
    )  # fmt: skip
    held_out = fit.add_mutually_exclusive_group()
    held_out.add_argument(
        "--test-size", type=fraction, metavar="SHARE",
        help="hold out this share of the rows and report accuracy on it (default: none)",
    )  # fmt: skip
    held_out.add_argument(
        "--test", metavar="DATA", help="report accuracy on this second data set (default: none)"
    )
    fit.add_argument(
        "--seed", type=SEED, metavar="N", default=0, help="random seed of the held-out splits"
    )
    fit.add_argument(
        "--trace", action="store_true", help="print every node, candidate and decision"
    )
    fit.add_argument(
        "--verbose", type=int, default=0, choices=[0, 1, 2],
        help="1 = --trace, 2 also prints every candidate threshold",
    )  # fmt: skip
    fit.add_argument(
        "--language", choices=LANGUAGES, default="en",
        help=f"language of the trace and the text view: {', '.join(LANGUAGES)} (default: en)",
    )  # fmt: skip
    fit.add_argument(
        "--log-base", choices=["2", "e"], default="2",
        help="the unit of entropies and gains: 2 (bits) or e (nats) (default: 2)",
    )  # fmt: skip
    fit.add_argument(
        "--ties", choices=["first", "name"], default="first",
        help="of features whose gains tie, the first column or the first by name "
        "(default: first)",
    )  # fmt: skip
    fit.add_argument(
        "--render", metavar="FILE",
        help="draw the tree: .png, .svg, .pdf or .dot (default: no drawing)",
    )  # fmt: skip
    fit.add_argument(
        "--save", metavar="MODEL.json", help="save the fitted model as JSON (default: not saved)"
    )
    fit.add_argument(
        "--force", action="store_true", help="overwrite --render and --save files that exist"
    )
    fit.add_argument(
        "--show-depth", type=integer(0), metavar="N", default=4, help="levels of the text view"
    )
    add_column_options(fit)
    add_id_like_option(fit)
    add_progress_option(fit)
    fit.set_defaults(run=_fit)


def add_predict_command(commands: Any) -> None:
    predict = command_parser(
        commands,
        "predict",
        "The columns are those the model was fitted on; others in DATA are not read. The "
        "stopped_early column names, for a row that stopped before a leaf (a category never "
        "seen at a node, a missing value where none was seen), the node and the feature.",
    )
    predict.add_argument("model", help="a model saved by fit --save")
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
    predict.add_argument("--out", metavar="FILE", help="write CSV here (default: to the screen)")
    predict.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    predict.add_argument(
        "--na-values",
        metavar="V,W,...",
        help="values to read as missing, besides '?' and empty fields (default: none)",
    )
    predict.set_defaults(run=_predict)
