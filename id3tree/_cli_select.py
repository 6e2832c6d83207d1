"""``id3tree select``: the wrapper search (:func:`id3tree.stats.select_features`) on a CSV file."""

from __future__ import annotations

import argparse

import pandas as pd

from id3tree._cli_common import UserError, read_data, split_target


def _columns(text: str | None) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


def run_select(args: argparse.Namespace) -> int:
    from id3tree.stats import select_features

    X, y = split_target(read_data(args.data), args.target)
    features = _columns(args.features)
    if features:
        unknown = [f for f in features if f not in X.columns]
        if unknown:
            raise UserError(
                f"--features names column(s) {unknown} not in the data "
                f"(columns: {', '.join(map(str, X.columns))})"
            )
        X = X[features]
    result = select_features(
        X,
        y,
        direction=args.direction,
        criterion=args.criterion,
        categorical=_columns(args.categorical) or "auto",
        target_kind=args.target_kind,
        alpha_enter=args.alpha,
        alpha_remove=args.alpha_remove,
        max_features=args.max_features,
        n_iter=args.n_iter,
        random_state=args.seed,
        missing=args.missing,
    )
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


def add_select_command(commands) -> None:
    select = commands.add_parser(
        "select", help="wrapper feature selection: forward, backward, stepwise, exhaustive, random"
    )
    select.add_argument("data", help="a CSV path or a built-in dataset name")
    select.add_argument("--target", required=True, help="the target column")
    select.add_argument(
        "--direction",
        default="forward",
        choices=["forward", "backward", "both", "exhaustive", "random"],
    )
    select.add_argument("--criterion", default="aic", choices=["aic", "bic", "pvalue"])
    select.add_argument("--features", metavar="A,B,...", help="search these columns only")
    select.add_argument(
        "--categorical", metavar="A,B,...", help="numeric columns to treat as categories"
    )
    select.add_argument(
        "--target-kind", default="auto", choices=["auto", "categorical", "interval"]
    )
    select.add_argument(
        "--alpha", type=float, default=0.05, help="p-value to enter (--criterion pvalue)"
    )
    select.add_argument("--alpha-remove", type=float, default=None, help="p-value to leave")
    select.add_argument("--max-features", type=int, default=None, help="largest subset")
    select.add_argument("--n-iter", type=int, default=100, help="random search: subsets drawn")
    select.add_argument("--seed", type=int, default=None, help="random search: the seed")
    select.add_argument(
        "--missing",
        default="drop",
        choices=["drop", "category"],
        help="drop rows with a missing value, or make it a category (categorical features)",
    )
    select.add_argument(
        "--candidates", action="store_true", help="show (or write) every model fitted"
    )
    select.add_argument("--out", metavar="FILE", help="write the path (or candidates) as CSV")
    select.set_defaults(run=run_select)
