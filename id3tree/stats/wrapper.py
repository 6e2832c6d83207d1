"""Wrapper feature selection: search subsets of features by fitting a model to each one.

The lecture's wrapper methods score a model by how well it fits, with a price on its size:

    AIC = -2 l + 2 k,        BIC = -2 l + k ln(n),

with ``l`` the model's log-likelihood, ``k`` its number of free parameters and ``n`` its rows.
A categorical target gets a multinomial logit (``k = (K - 1)`` times the design's columns), an
interval target least squares (``k`` = the design's columns; the error variance, common to all
models, is not counted, as in statsmodels and R's ``extractAIC``). A categorical feature enters as
the indicator columns of its categories but the last one (the reference), all together, as one
feature. Before each fit the SWEEP operator (:mod:`id3tree.stats.sweep`) finds the columns that
are linear combinations of the others; they are left out of the fit and reported as aliased.

Searches (``direction``):

* ``"forward"``: start from the intercept alone; at each step add the feature that lowers the
  criterion most; stop when none lowers it.
* ``"backward"``: start from all features; at each step remove the feature whose removal lowers
  the criterion most; stop when no removal lowers it.
* ``"both"`` (stepwise): start from the intercept; at each step make the single addition or
  removal that lowers the criterion most.
* ``"exhaustive"``: every subset of up to ``max_features`` features.
* ``"random"``: ``n_iter`` random subsets, each a different one (a size drawn uniformly among
  the sizes not yet exhausted, then a subset of that size not drawn before). When ``n_iter`` is
  at least the number of distinct non-empty subsets, every subset is fitted once.

With ``criterion="pvalue"`` the directional searches use the likelihood-ratio test of each step
instead (the F test of least squares, its exact form): a feature enters when its p-value is
below ``alpha_enter`` and leaves when its p-value is above ``alpha_remove``.

Every fitted model is compared on the same rows: rows missing the target or any feature are
dropped first (the lecture's complete rows), unless ``missing="category"`` makes a missing value
of a categorical feature a category of its own.
"""

from __future__ import annotations

import html
import itertools
import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from id3tree.base.params import check_choice, check_int, check_random_state, check_real
from id3tree.base.progress import progress_bar
from id3tree.stats._wrapper_models import (
    Fit,
    Models,
    build_design,
    compare_nested,
    information_criteria,
)
from id3tree.stats.result import format_pvalue
from id3tree.stats.sweep import TOLERANCE

__all__ = [
    "CRITERIA", "DIRECTIONS", "MAX_SUBSETS", "PATH_COLUMNS", "select_features", "SelectionResult",
    "TIE",
]  # fmt: skip

DIRECTIONS = ("forward", "backward", "both", "exhaustive", "random")
CRITERIA = ("aic", "bic", "pvalue")
MAX_SUBSETS = 1 << 16
"""An exhaustive or random search refuses to fit more models than this (choose ``max_features``
or a smaller ``n_iter``)."""
TIE = 1e-10
"""Criterion values closer than this are ties, broken by the feature's place in X."""
PATH_COLUMNS = [
    "step", "action", "feature", "features", "n_features", "n_parameters", "log_likelihood", "aic",
    "bic", "statistic", "df", "pvalue", "aliased", "note",
]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SelectionResult:
    """The outcome of a wrapper search: print it for the path, show it in Jupyter for a table.

    Attributes
    ----------
    direction, criterion : str
        The search and what it minimised.
    model : str
        ``"multinomial logit"`` (categorical target) or ``"least squares"`` (interval target).
    target : str
    n : int
        Rows every model was fitted to.
    n_dropped : int
        Rows dropped because the target or a feature was missing.
    path : DataFrame
        One row per step: ``step``, ``action`` (``start``, ``enter``, ``remove``, ``best of size
        k``, ``draw i``), ``feature`` (entered or removed), ``features`` (the model after the
        step), ``n_features``, ``n_parameters``, ``log_likelihood``, ``aic``, ``bic`` and the
        likelihood-ratio (or F) test of the step against the model before it: ``statistic``,
        ``df``, ``pvalue``; ``aliased``: the model's aliased design columns; ``note``.
    candidates : DataFrame
        Every model fitted, step by step, with the same columns and ``chosen``.
    selected : list of str
        The features of the chosen model (in the order they entered, for directional searches).
    design_columns : dict
        Each feature's design columns (a categorical feature's indicator columns).
    """

    direction: str
    criterion: str
    model: str
    target: str
    n: int
    n_dropped: int
    path: pd.DataFrame = field(repr=False)
    candidates: pd.DataFrame = field(repr=False)
    selected: list[str] = field(default_factory=list)
    design_columns: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def title(self) -> str:
        search = {"both": "stepwise"}.get(self.direction, self.direction)
        by = {"aic": "AIC", "bic": "BIC", "pvalue": "likelihood-ratio p-value"}[self.criterion]
        dropped = f", {self.n_dropped} dropped for missing values" if self.n_dropped else ""
        return (
            f"{search.capitalize()} selection by {by}: {self.model} of {self.target!r} "
            f"on {self.n} rows{dropped}"
        )

    def _shown(self) -> pd.DataFrame:
        shown = self.path.drop(columns=["features", "note"]).copy()
        shown["pvalue"] = [_format_p(p) for p in self.path["pvalue"]]
        shown["df"] = [("" if pd.isna(d) else str(int(d))) for d in self.path["df"]]
        return shown

    def __str__(self) -> str:
        table = self._shown().to_string(
            index=False,
            na_rep="",
            formatters={
                "log_likelihood": "{:.4f}".format,
                "aic": "{:.4f}".format,
                "bic": "{:.4f}".format,
                "statistic": lambda v: "" if pd.isna(v) else f"{v:.4f}",
            },
        )
        notes = [
            f"note at step {s}: {t}" for s, t in zip(self.path["step"], self.path["note"]) if t
        ]
        chosen = ", ".join(self.selected) if self.selected else "(none: the intercept alone)"
        return "\n".join([self.title, "", table, "", f"selected: {chosen}", *notes])

    def _repr_html_(self) -> str:
        table = self._shown().to_html(
            index=False, float_format="{:.4f}".format, na_rep="", border=0
        )
        chosen = ", ".join(self.selected) if self.selected else "(none: the intercept alone)"
        notes = "".join(
            f"<li>step {s}: {html.escape(t)}</li>"
            for s, t in zip(self.path["step"], self.path["note"])
            if t
        )
        return (
            f"<p><strong>{html.escape(self.title)}</strong></p>{table}"
            f"<p>selected: {html.escape(chosen)}</p>" + (f"<ul>{notes}</ul>" if notes else "")
        )


def _format_p(p: Any) -> str:
    if pd.isna(p):
        return ""
    return format_pvalue(math.log(p)) if p > 0 else "0"


# ---------------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------------
def select_features(
    X: Any, y: Any, *, direction: str = "forward", criterion: str = "aic", categorical: Any = "auto",
    target_kind: str = "auto", alpha_enter: float = 0.05, alpha_remove: float | None = None,
    max_features: int | None = None, n_iter: int = 100, random_state: Any = None, missing: str = "drop",
    tolerance: float = TOLERANCE, progress: bool = False,
) -> SelectionResult:  # fmt: skip
    """Choose a subset of the features of X by fitting a model of y to candidate subsets.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    direction : {"forward", "backward", "both", "exhaustive", "random"}, default="forward"
        The search (see the module's description).
    criterion : {"aic", "bic", "pvalue"}, default="aic"
        What the search minimises. ``"pvalue"`` (the likelihood-ratio test of each step) is for
        the directional searches only.
    categorical : "auto" or list of str or int, default="auto"
        Text, category and bool columns are categorical; numeric columns are interval unless
        listed here.
    target_kind : {"auto", "categorical", "interval"}, default="auto"
        As in :func:`test_features`: categorical targets get a multinomial logit, interval
        targets least squares.
    alpha_enter, alpha_remove : float, default=0.05 and None (the same as ``alpha_enter``)
        With ``criterion="pvalue"``: a feature enters when its p-value is below ``alpha_enter``
        and leaves when its p-value is above ``alpha_remove`` (at least ``alpha_enter``).
    max_features : int, optional
        The largest subset a search may reach (exhaustive and random search: the largest size
        tried). Default: all features.
    n_iter : int, default=100
        Random search: how many different subsets to draw (at most ``MAX_SUBSETS`` = 65,536
        fits). More than there are distinct subsets fits each one once, and the path's first
        row says so.
    random_state : int >= 0, numpy Generator or None
        Random search: the seed.
    missing : {"drop", "category"}, default="drop"
        ``"drop"``: rows missing any feature are dropped. ``"category"``: a missing value of a
        categorical feature is a category of its own (rows missing an interval feature are
        still dropped).
    tolerance : float, default=1e-8
        The SWEEP operator's tolerance for aliased columns.
    progress : bool, default=False
        Show a progress bar of the models fitted (tqdm, on stderr) once the search has run a
        few seconds.

    Returns
    -------
    SelectionResult
        ``.path`` (with ``aic`` and ``bic`` columns), ``.selected``, ``.candidates``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "noise"])
    >>> y = 2 * X["a"] - X["b"] + rng.normal(size=200)
    >>> select_features(X, y).selected
    ['a', 'b']
    """
    _check_search(direction, criterion, alpha_enter, alpha_remove, max_features, n_iter)
    if not (isinstance(tolerance, numbers.Real) and 0 <= tolerance < 1):
        raise ValueError(f"tolerance must be a number in [0, 1), got {tolerance!r}")
    random_state = check_random_state(random_state)
    alpha_remove = alpha_enter if alpha_remove is None else alpha_remove

    design, model, target = build_design(X, y, categorical, target_kind, missing)
    search = _Search(design, criterion, alpha_enter, alpha_remove, max_features, tolerance)
    if direction == "random":
        search.check_random(n_iter)
    # many small fits of tall, thin matrices: BLAS threads only add synchronisation (on a busy
    # machine they made the search 10 to 40 times slower), so one thread does the products
    with (
        threadpool_limits(limits=1, user_api="blas"),
        progress_bar(
            search.planned(direction, n_iter), unit="model", desc=f"{direction} search",
            enabled=progress,
        ) as bar,
    ):  # fmt: skip
        search.models.on_fit = bar.update
        if direction in ("forward", "both"):
            search.stepwise(backward=False, both=direction == "both")
        elif direction == "backward":
            search.stepwise(backward=True, both=False)
        elif direction == "exhaustive":
            search.exhaustive()
        else:
            search.random(n_iter, np.random.default_rng(random_state))

    return SelectionResult(
        direction=direction,
        criterion=criterion,
        model=model,
        target=target,
        n=search.models.n,
        n_dropped=design.n_dropped,
        path=pd.DataFrame(search.path, columns=PATH_COLUMNS),
        candidates=pd.DataFrame(search.candidates, columns=[*PATH_COLUMNS, "chosen"]),
        selected=[design.names[f] for f in search.selected],
        design_columns={
            name: [design.labels[c] for c in block]
            for name, block in zip(design.names, design.blocks)
        },
    )


def _check_search(
    direction: Any,
    criterion: Any,
    alpha_enter: Any,
    alpha_remove: Any,
    max_features: Any,
    n_iter: Any,
) -> None:
    """The search's own parameters, checked before any data is read."""
    check_choice("direction", direction, DIRECTIONS)
    check_choice("criterion", criterion, CRITERIA)
    if criterion == "pvalue" and direction in ("exhaustive", "random"):
        raise ValueError(
            "criterion='pvalue' needs a directional search (forward, backward or both); the "
            f"{direction} search compares models of different sizes: use 'aic' or 'bic'"
        )
    check_real("alpha_enter", alpha_enter, low=0, high=1, low_open=True, high_open=True)
    check_real(
        "alpha_remove", alpha_remove, low=0, high=1, low_open=True, high_open=True, allow_none=True
    )
    if alpha_remove is not None and alpha_remove < alpha_enter:
        raise ValueError(
            f"alpha_remove ({alpha_remove}) must be at least alpha_enter ({alpha_enter}), or "
            "a feature could enter and leave for ever"
        )
    check_int("max_features", max_features, 0, allow_none=True)
    check_int("n_iter", n_iter, 1)


class _Search:
    def __init__(
        self,
        design: Any,
        criterion: Any,
        alpha_enter: Any,
        alpha_remove: Any,
        max_features: Any,
        tolerance: Any,
    ) -> None:
        self.design = design
        self.models = Models(design, tolerance)
        self.criterion = criterion
        self.alpha_enter = alpha_enter
        self.alpha_remove = alpha_remove
        n_features = len(design.names)
        self.max_features = n_features if max_features is None else min(max_features, n_features)
        self.least_squares = design.n_classes == 0
        self.path: list[list[Any]] = []
        self.candidates: list[list[Any]] = []
        self.selected: tuple[int, ...] = ()

    # -- rows of the tables --------------------------------------------------------------------
    def _row(
        self,
        step: Any,
        action: Any,
        feature: Any,
        fit: Fit,
        test: Any = (math.nan, math.nan, math.nan),
    ) -> Any:
        aic, bic = information_criteria(fit, self.models.n)
        names = [self.design.names[f] for f in fit.features]
        aliased = ", ".join(self.design.labels[c] for c in fit.aliased)
        return [
            step,
            action,
            "" if feature is None else self.design.names[feature],
            ", ".join(names) if names else "(intercept only)",
            len(names),
            fit.n_parameters,
            fit.log_likelihood,
            aic,
            bic,
            test[0],
            test[1],
            test[2],
            aliased,
            fit.note,
        ]

    def _score(self, fit: Fit) -> float:
        aic, bic = information_criteria(fit, self.models.n)
        return aic if self.criterion == "aic" else bic

    # -- forward, backward, both ---------------------------------------------------------------
    def stepwise(self, *, backward: bool, both: bool) -> None:
        n_features = len(self.design.names)
        if backward and n_features > self.max_features:
            raise ValueError(
                f"a backward search starts from all {n_features} features, more than "
                f"max_features={self.max_features}"
            )
        current = self.models.fit(tuple(range(n_features)) if backward else ())
        self.path.append(self._row(0, "start", None, current))
        seen = {frozenset(current.features)}
        step = 0
        while True:
            step += 1
            moves = []  # (score, order, action, feature, fit, test)
            if not backward and len(current.features) < self.max_features:
                for f in range(n_features):
                    if f not in current.features:
                        fit = self.models.fit((*current.features, f), current)
                        moves.append(
                            ("enter", f, fit, compare_nested(current, fit, *self._nesting()))
                        )
            if backward or both:
                for f in current.features:
                    kept = tuple(g for g in current.features if g != f)
                    fit = self.models.fit(kept, current)
                    moves.append(("remove", f, fit, compare_nested(fit, current, *self._nesting())))
            if not moves:
                break
            chosen = self._choose(current, moves, seen)
            for action, f, fit, test in moves:
                self.candidates.append(
                    [
                        *self._row(step, action, f, fit, test),
                        chosen is not None and chosen[2] is fit,
                    ]
                )
            if chosen is None:
                break
            action, f, fit, test = chosen
            self.path.append(self._row(step, action, f, fit, test))
            seen.add(frozenset(fit.features))
            current = fit
        self.selected = current.features

    def _nesting(self) -> Any:
        return self.models.n, self.least_squares

    def _choose(self, current: Fit, moves: list[Any], seen: set[Any]) -> Any:
        """The move to make, or None. Ties go to the feature that comes first in X."""
        # a feature whose columns are all aliased adds nothing to the model: it leaves first
        idle = [
            m
            for m in moves
            if m[0] == "remove" and set(self.design.blocks[m[1]]) <= set(current.aliased)
        ]
        if idle:
            return idle[-1]
        if self.criterion != "pvalue":
            best, best_score = None, self._score(current) - TIE
            for move in sorted(moves, key=lambda m: m[1]):
                score = self._score(move[2])
                if score < best_score:  # strictly better by more than a tie
                    best, best_score = move, score - TIE
            return best
        # p-values: first remove the feature that is least significant (above alpha_remove),
        # else enter the most significant one (below alpha_enter); never revisit a model
        removals = [m for m in moves if m[0] == "remove" and not math.isnan(m[3][2])]
        removals = [m for m in removals if m[3][2] > self.alpha_remove]
        removals = [m for m in removals if frozenset(m[2].features) not in seen]
        if removals:
            return max(sorted(removals, key=lambda m: m[1]), key=lambda m: (m[3][2], -m[3][0]))
        entries = [m for m in moves if m[0] == "enter" and not math.isnan(m[3][2])]
        entries = [m for m in entries if m[3][2] < self.alpha_enter]
        entries = [m for m in entries if frozenset(m[2].features) not in seen]
        if not entries:
            return None
        # the smallest p-value; p underflows to 0 for strong features, so the larger statistic
        # per degree of freedom breaks those ties
        return min(sorted(entries, key=lambda m: m[1]), key=lambda m: (m[3][2], -m[3][0] / m[3][1]))

    # -- exhaustive and random -----------------------------------------------------------------
    def exhaustive(self) -> None:
        n_features = len(self.design.names)
        total = sum(math.comb(n_features, k) for k in range(self.max_features + 1))
        if total > MAX_SUBSETS:
            raise ValueError(
                f"an exhaustive search over {n_features} features fits {total} models, more "
                f"than {MAX_SUBSETS}; set max_features to limit the subsets' size"
            )
        best_by_size: dict[int, Any] = {}
        step = 0
        for size in range(self.max_features + 1):
            for subset in itertools.combinations(range(n_features), size):
                fit = self.models.fit(subset)
                score = self._score(fit)
                self.candidates.append([*self._row(step, "model", None, fit), False])
                step += 1
                if size not in best_by_size or score < best_by_size[size][0] - TIE:
                    best_by_size[size] = (score, fit, len(self.candidates) - 1)
        self._finish(best_by_size, "best of size")

    def n_subsets(self) -> int:
        """The distinct non-empty subsets of at most ``max_features`` features."""
        n_features = len(self.design.names)
        return sum(math.comb(n_features, k) for k in range(1, self.max_features + 1))

    def check_random(self, n_iter: int) -> None:
        """Refuse a random search of more fits than ``MAX_SUBSETS``: it would run for hours."""
        draws = min(n_iter, self.n_subsets())
        if draws > MAX_SUBSETS:
            raise ValueError(
                f"a random search of n_iter={n_iter} draws would fit {draws} models, more than "
                f"{MAX_SUBSETS}; lower n_iter (or max_features)"
            )

    def planned(self, direction: str, n_iter: int) -> int | None:
        """How many models the search fits (for the progress bar); None when unknown."""
        if direction == "exhaustive":
            return self.n_subsets() + 1
        if direction == "random":
            return min(n_iter, self.n_subsets()) + 1
        return None

    def random(self, n_iter: int, rng: np.random.Generator) -> None:
        start = self.models.fit(())
        best_score, best = self._score(start), start
        self.path.append(self._row(0, "start", None, start))
        self.candidates.append([*self._row(0, "start", None, start), False])
        n_subsets = self.n_subsets()
        if n_iter > n_subsets:  # every subset, once: the search is the exhaustive one
            self.path[0][-1] = (
                f"n_iter={n_iter} is more than the {n_subsets} distinct subsets of at most "
                f"{self.max_features} features: each was drawn once"
            )
        best_index = 0
        draws = _Draws(len(self.design.names), self.max_features, rng)
        for draw in range(1, min(n_iter, n_subsets) + 1):
            fit = self.models.fit(draws.next())
            score = self._score(fit)
            self.candidates.append([*self._row(draw, f"draw {draw}", None, fit), False])
            if score < best_score - TIE:
                best_score, best, best_index = score, fit, len(self.candidates) - 1
                self.path.append(self._row(draw, f"draw {draw}", None, fit))
        self.candidates[best_index][-1] = True
        self.selected = best.features

    def _finish(self, best_by_size: dict[Any, Any], label: str) -> None:
        overall = min(best_by_size.values(), key=lambda item: (item[0], len(item[1].features)))
        previous = None
        for size, (_, fit, _index) in sorted(best_by_size.items()):
            test = (math.nan, math.nan, math.nan)
            if previous is not None and set(previous.features) <= set(fit.features):
                test = compare_nested(previous, fit, *self._nesting())
            self.path.append(self._row(size, f"{label} {size}", None, fit, test))
            previous = fit
        self.candidates[overall[2]][-1] = True
        self.selected = overall[1].features


class _Draws:
    """Random subsets of ``range(n_features)``, each different: a size drawn uniformly among
    the sizes 1 .. ``max_features`` that have subsets left, then a subset of that size not drawn
    before.

    While fewer than half of a size's subsets are drawn, a subset is drawn at random and drawn
    again if it was seen (fewer than two tries on average); past half, the subsets left are
    listed once and drawn from the list. So every draw takes bounded time, and asking for every
    subset ends after exactly that many draws.
    """

    def __init__(self, n_features: int, max_features: int, rng: np.random.Generator) -> None:
        self.n, self.rng = n_features, rng
        self.left = {k: math.comb(n_features, k) for k in range(1, max_features + 1)}
        self.total = dict(self.left)
        self.seen: set[tuple[int, ...]] = set()
        self.pools: dict[int, list[Any]] = {}

    def next(self) -> tuple[int, ...]:
        sizes = [k for k, left in self.left.items() if left]
        if len(sizes) == len(self.left):  # every size still open: as rng.integers(1, max + 1)
            size = int(self.rng.integers(1, len(sizes) + 1))
        else:
            size = sizes[int(self.rng.integers(len(sizes)))]
        if size not in self.pools and 2 * self.left[size] > self.total[size]:
            while True:  # more than half of this size's subsets are left: draw, retry if seen
                subset = tuple(sorted(self.rng.choice(self.n, size=size, replace=False).tolist()))
                if subset not in self.seen:
                    break
        else:
            pool = self.pools.get(size)
            if pool is None:  # list the subsets left once (at most twice those drawn)
                combos = itertools.combinations(range(self.n), size)
                pool = self.pools[size] = [c for c in combos if c not in self.seen]
            i = int(self.rng.integers(len(pool)))
            pool[i], pool[-1] = pool[-1], pool[i]
            subset = pool.pop()
        self.seen.add(subset)
        self.left[size] -= 1
        return subset
