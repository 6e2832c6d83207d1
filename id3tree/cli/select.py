"""``id3tree select``: the wrapper search (:func:`id3tree.stats.select_features`) on a CSV file."""

from __future__ import annotations

import argparse
from typing import Any

from id3tree.cli.common import (
    DATA_HELP,
    SEED,
    add_column_options,
    add_kind_options,
    add_progress_option,
    add_target_option,
    check_new_file,
    check_writable,
    column_list,
    command_parser,
    integer,
    read_table,
    split_target,
)

__all__ = ["add_select_command", "run_select"]


def run_select(args: argparse.Namespace) -> int:
    import pandas as pd

    from id3tree.base.progress import wanted
    from id3tree.stats import select_features

    check_new_file(args.out, args.force)  # before the search, which may take minutes
    check_writable(args.out)
    X, y = split_target(read_table(args), args.target)
    features = column_list(args.features)
    if features:  # in the order given
        X = X[features]
    result = select_features(
        X, y, direction=args.direction, criterion=args.criterion,
        categorical=column_list(args.categorical) or "auto", target_kind=args.target_kind,
        alpha_enter=args.alpha, alpha_remove=args.alpha_remove, max_features=args.max_features,
        n_iter=args.n_iter, random_state=args.seed, missing=args.missing,
        progress=wanted(args.progress),
    )  # fmt: skip
    with pd.option_context("display.width", 200, "display.max_columns", None):
        print(result)
    if args.out:
        table = result.candidates if args.candidates else result.path
        table.to_csv(args.out, index=False)
        print(f"wrote {args.out}")
    elif args.candidates:
        with pd.option_context("display.width", 200, "display.max_columns", None):
            print("\nevery model fitted:\n")
            print(result.candidates.drop(columns=["note"]).to_string(index=False))
    return 0


def add_select_command(commands: Any) -> None:
    select = command_parser(
        commands,
        "select",
        "By AIC, BIC or p-values: a multinomial logit (categorical target) or least squares "
        "(interval target) fitted to subsets of the features.",
    )
    select.add_argument("data", help=DATA_HELP)
    add_target_option(select, "the target column")
    select.add_argument(
        "--direction",
        default="forward",
        choices=["forward", "backward", "both", "exhaustive", "random"],
        help="the search (both = stepwise)",
    )
    select.add_argument(
        "--criterion", default="aic", choices=["aic", "bic", "pvalue"],
        help="what the search minimises (pvalue: directional searches only)",
    )  # fmt: skip
    add_kind_options(select)
    select.add_argument(
        "--alpha",
        type=float,
        metavar="P",
        default=0.05,
        help="p-value to enter (--criterion pvalue)",
    )
    select.add_argument(
        "--alpha-remove",
        type=float,
        metavar="P",
        default=None,
        help="p-value to leave (default: --alpha)",
    )
    select.add_argument(
        "--max-features", type=integer(1), metavar="N", default=None,
        help="largest subset (default: every feature)",
    )  # fmt: skip
    select.add_argument(
        "--n-iter", type=int, metavar="N", default=100, help="random search: subsets drawn"
    )
    select.add_argument(
        "--seed",
        type=SEED,
        metavar="N",
        default=None,
        help="random search: the seed (default: a fresh one)",
    )
    select.add_argument(
        "--missing", default="drop", choices=["drop", "category"],
        help="drop rows with a missing value, or make it a category (categorical features)",
    )  # fmt: skip
    select.add_argument(
        "--candidates", action="store_true", help="show (or write) every model fitted"
    )
    select.add_argument(
        "--out", metavar="FILE",
        help="write the path (or candidates) as CSV (default: to the screen)",
    )  # fmt: skip
    select.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    add_progress_option(select, "a progress bar of the models fitted")
    add_column_options(select)
    select.set_defaults(run=run_select)
