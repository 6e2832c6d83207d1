"""The data of the page where a student grows the tree: "you pick the split".

The student chooses the feature (and, for a number, the threshold) at every node, and their
choice decides the rows of each child, so the page cannot hold a fixed list of nodes: it holds
the training rows themselves (each feature's category codes or values, and each row's class),
and the browser counts the rows of every node the student makes, scores every feature there as
ID3 does, and says how the student's choice compares with the best one.

The page also holds the rows that score the finished tree, ID3's tree (to find the nodes where
the student's tree agrees with it) and ID3's predictions for those rows:

* ``test=(X_test, y_test)``: those rows; ID3's tree is the fitted tree;
* else a share ``holdout`` of the training rows, drawn with ``random_state``, kept aside: the
  student and ID3 (the fitted tree's parameters, grown again) both grow their trees on the other
  rows. By default (``holdout=None``) the share is :data:`HOLDOUT`, except for a data set of
  fewer than :data:`SMALL` rows: a textbook data set (Play Tennis has 14 rows) keeps all its rows,
  so that the student grows the textbook's tree, and the page says so;
* ``holdout=0``: no rows kept aside; the trees are scored on the training rows.

``hints`` are the steps of the hint ladder the page offers at a node before the student chooses
(:data:`HINTS`, in that order): the formulas, each feature's class counts per branch, each
feature's H(S | A) sum and gain, and ID3's choice. A teacher leaves out the steps the class should
work out alone; without ``"choice"`` the page also keeps its verdict on each choice until the
tree is finished.

Size: the rows ride in the page as JSON, a few bytes per value, so the page holds at most
:data:`MAX_VALUES` values (training and scoring rows times features): about 1 MB of data, a page
that opens at once and scores a student's node in a few milliseconds. A larger data set is an
error that says how to take a sample.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd

from id3tree.base.language import current
from id3tree.base.params import check_random_state, is_real
from id3tree.base.training import EncodedData
from id3tree.base.validation import encode_like_fit, rows_to_predict
from id3tree.base.words import class_name
from id3tree.engine.grow import GrowParams
from id3tree.engine.stopping import NO_VALID_SPLIT, REASONS, stop_reasons
from id3tree.model.node import majority_classes
from id3tree.teaching.page_data import PageSource, levels

__all__ = ["build_data", "check_hints", "HINTS", "HOLDOUT", "MAX_VALUES", "SMALL"]

HOLDOUT = 0.3
"""The share of the training rows the page keeps aside when no test rows are given."""

SMALL = 50
"""A data set of fewer training rows keeps them all by default (``holdout=None``): no rows
aside, the trees scored on the training rows, so a textbook data set keeps its textbook tree."""

HINTS = ("formula", "counts", "gains", "choice")
"""The steps of the hint ladder, in the order the page offers them."""

MAX_VALUES = 200_000
"""The most values (rows times features, training and scoring rows together) a build page holds."""


def check_hints(hints) -> list[str]:
    """The steps of ``hints`` in the ladder's order (:data:`HINTS`); anything else is refused."""
    if isinstance(hints, str) or not isinstance(hints, (list, tuple, set, frozenset)):
        raise ValueError(
            f"hints must be a list of the hint steps {list(HINTS)} (or [] for none), got {hints!r}"
        )
    unknown = [h for h in hints if not isinstance(h, str) or h not in HINTS]
    if unknown:
        raise ValueError(f"hints: {unknown[0]!r} is not a hint step; the steps are {list(HINTS)}")
    return [h for h in HINTS if h in hints]


def build_data(
    model, source: PageSource, *, test=None, holdout=None, random_state=0, hints=HINTS
) -> dict:
    """Everything the build page needs, as JSON-ready lists (see the module)."""
    hints = check_hints(hints)
    if test is not None and holdout is not None:
        raise ValueError("give test=(X_test, y_test) or holdout, not both")
    if test is not None:
        scoring = _given_rows(model, source, test)
    else:
        if holdout is not None and (not is_real(holdout) or not 0 <= holdout < 1):
            raise ValueError(f"holdout must be a number in [0, 1) or None, got {holdout!r}")
        random_state = check_random_state(random_state)
        scoring = _kept_aside(model, source, holdout, random_state)
    model, data, X_score, y_score, id3_says, about, rows = scoring
    _check_size(data, len(y_score))
    tree = model._tree
    out = {
        "format": 2,
        "classes": [class_name(c) for c in data.classes],
        "predictions": [str(c) for c in data.classes],
        "features": list(data.names),
        "numeric": [int(c is None) for c in data.codes],
        "categories": [None if c is None else [str(v) for v in c] for c in data.categories],
        "params": _params(model),
        "words": _stop_words(model),
        "train": {"columns": _columns(data, None), "y": data.y.tolist(), "row": rows},
        "test": {"columns": X_score, "y": y_score, "id3": id3_says, "about": about},
        "id3": {
            "parent": tree.parent.tolist(),
            "slot": tree.slot.tolist(),
            "feature": tree.feature.tolist(),
            "threshold": [None if t != t else t for t in tree.threshold.tolist()],
        },
        "hints": hints,
    }
    out["key"] = _data_key(out)
    return out


def _data_key(data: dict) -> str:
    """A short hash of the page's data: the browser saves the student's work under it, so the
    same page opened again (or made again from the same data) resumes it."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# the rows that score the trees
# ---------------------------------------------------------------------------------------------
def _given_rows(model, source: PageSource, test) -> tuple:
    if not isinstance(test, tuple) or len(test) != 2:
        raise ValueError(f"test must be a pair (X_test, y_test), got {type(test).__name__}")
    X_test, y_test = test
    encoded = rows_to_predict(  # rows as the fitted tree reads them (checked like predict)
        X_test,
        model._names,
        model._categories,
        by_name=hasattr(model, "feature_names_in_") or getattr(model, "_names_from_frame", False),
        with_names=hasattr(model, "feature_names_in_"),
    )
    y_score = _class_indices(source.data.classes, y_test, len(encoded))
    id3_says = _class_indices(source.data.classes, model.predict(X_test), len(encoded))
    L, n = current(), len(encoded)
    about = L.line(
        "The trees are scored on the {n} {rows} given.",
        n=str(n), rows=L.words([n], "test row", "test rows")[0],
    )  # fmt: skip
    rows = list(range(1, len(source.data.y) + 1))
    columns = _columns_of_matrix(encoded.T, source.data)
    return model, source.data, columns, y_score, id3_says, about, rows


def _kept_aside(model, source: PageSource, holdout: float | None, random_state) -> tuple:
    data = source.data
    n = len(data.y)
    small = holdout is None and n < SMALL
    holdout = (0.0 if small else HOLDOUT) if holdout is None else float(holdout)
    n_aside = int(round(holdout * n))
    if n_aside == 0:
        leaf = _leaves(source)
        id3_says = majority_classes(source.tree.counts)[leaf].tolist()
        L = current()
        why = (
            L.line(
                "a data set of fewer than {small} rows keeps them all to grow on by default, so "
                "that a textbook data set keeps its textbook tree",
                small=str(SMALL),
            )
            if small
            else L.line("no rows were kept aside (holdout={holdout})", holdout=f"{holdout:g}")
        )
        about = L.line(
            "The trees are scored on the {n} {rows} themselves: {why}. This says how well each "
            "tree fits the rows it was grown on, not how well it predicts new rows (give test "
            "rows or a holdout for that).",
            n=str(n), rows=L.words([n], "training row", "training rows")[0], why=why,
        )  # fmt: skip
        rows = list(range(1, n + 1))
        return model, data, _columns(data, None), data.y.tolist(), id3_says, about, rows
    if n - n_aside < 2:
        raise ValueError(f"holdout={holdout} leaves {n - n_aside} training rows: too few to grow")
    order = np.random.default_rng(random_state).permutation(n)
    aside, kept = np.sort(order[:n_aside]), np.sort(order[n_aside:])
    from sklearn.base import clone

    categorical = [name for name, codes in zip(data.names, data.codes) if codes is not None]
    again = clone(model).set_params(categorical=categorical or "auto", verbose=0, keep_trace=True)
    again.fit(_frame(data, kept), np.asarray(data.classes, dtype=object)[data.y[kept]])
    aside_frame = _frame(data, aside)
    mine = again._fit_data
    encoded = encode_like_fit(aside_frame, list(mine.names), mine.categories)
    y_score = _class_indices(
        mine.classes, np.asarray(data.classes, dtype=object)[data.y[aside]], n_aside
    )
    id3_says = _class_indices(mine.classes, again.predict(aside_frame), n_aside)
    L = current()
    about = L.line(
        "The trees are scored on {n} {rows} ({share}) the page kept aside, drawn with "
        "random_state={seed}; both trees are grown on the other {rest}.",
        n=str(n_aside), rows=L.words([n_aside], "row", "rows")[0], share=f"{holdout:.0%}",
        seed=str(random_state), rest=str(n - n_aside),
    )  # fmt: skip
    rows = (kept + 1).tolist()
    return again, mine, _columns_of_matrix(encoded, mine), y_score, id3_says, about, rows


def _leaves(source: PageSource) -> np.ndarray:
    """The leaf (position) each training row reaches."""
    leaf = np.zeros(len(source.data.y), dtype=np.int64)
    for rows, at in levels(source.tree, source.data):
        leaf[rows] = at
    return leaf


def _class_indices(classes: list, labels, n: int) -> list[int]:
    """Each label's index among ``classes`` (-1 for a class the tree never saw)."""
    labels = np.asarray(labels, dtype=object)
    if labels.shape != (n,):
        raise ValueError(
            f"y_test must hold one label per row of X_test ({n}), got shape {labels.shape}"
        )
    return pd.Index(list(classes), dtype=object).get_indexer(labels).tolist()


def _check_size(data: EncodedData, n_score: int) -> None:
    values = (len(data.y) + n_score) * data.n_features
    if values > MAX_VALUES:
        raise ValueError(
            f"the build page holds every training and scoring row for the browser to count: "
            f"{len(data.y)} + {n_score} rows x {data.n_features} features is {values:,} values, "
            f"more than the {MAX_VALUES:,} it holds; fit the tree on a sample, e.g. "
            f"X.sample(n={max(10, MAX_VALUES // (data.n_features or 1) * 7 // 10)}, random_state=0)"
        )


# ---------------------------------------------------------------------------------------------
# the rows as JSON
# ---------------------------------------------------------------------------------------------
def _columns(data: EncodedData, rows) -> list[list]:
    """Each feature's codes (categorical: 0.., the number of categories for missing) or values
    (numeric: None for missing) of ``rows`` (None: all)."""
    out = []
    for codes, values in zip(data.codes, data.numeric):
        if codes is not None:
            out.append((codes if rows is None else codes[rows]).tolist())
        else:
            x = values if rows is None else values[rows]
            out.append([None if v != v else v for v in x.tolist()])
    return out


def _columns_of_matrix(encoded: np.ndarray, data: EncodedData) -> list[list]:
    """:func:`_columns` of rows encoded for prediction ((features, rows) floats; an unseen
    category is -1)."""
    out = []
    for f, row in enumerate(encoded):
        if data.codes[f] is not None:
            out.append(row.astype(np.int64).tolist())
        else:
            out.append([None if v != v else v for v in row.tolist()])
    return out


def _frame(data: EncodedData, rows: np.ndarray) -> pd.DataFrame:
    """The training rows ``rows`` as a DataFrame again (categories as objects, None missing)."""
    columns = {}
    for name, codes, values, categories in zip(
        data.names, data.codes, data.numeric, data.categories
    ):
        if codes is None:
            columns[name] = values[rows]
        else:
            labels = np.array([*categories, None], dtype=object)
            columns[name] = pd.Series(labels[codes[rows]], dtype=object)
    return pd.DataFrame(columns)


# ---------------------------------------------------------------------------------------------
# how ID3 grows: its parameters and the words of its stopping rules
# ---------------------------------------------------------------------------------------------
def _params(model) -> dict:
    return {
        "criterion": model.criterion,
        "max_depth": model.max_depth,
        "min_samples_split": int(model.min_samples_split),
        "min_samples_leaf": int(model.min_samples_leaf),
        "min_gain": float(model.min_gain),
        "average_gain_rule": bool(model.average_gain_rule),
    }


def _stop_words(model) -> dict:
    """Why ID3 stops at a node, in the learner's words (:func:`~id3tree.engine.stopping.stop_reasons`)."""
    params = GrowParams(
        criterion=model.criterion,
        max_depth=np.inf if model.max_depth is None else model.max_depth,
        min_samples_split=int(model.min_samples_split),
        min_samples_leaf=int(model.min_samples_leaf),
    )
    m, split = params.min_samples_leaf, params.min_samples_split

    L = current()

    def reason(counts, depth=0) -> str | None:  # the words for a node of these counts
        words = stop_reasons(np.array([counts]), depth, params)[0]
        return None if words is None else L.phrase(words, REASONS)

    # (a node of one row is pure: the words of the size rules need a mixed node of 2 rows or more)
    return {
        "pure": reason([1, 0]),
        "max_depth": None if model.max_depth is None else reason([1, 1], model.max_depth),
        "min_split": reason([1, split - 2]) if split >= 3 else None,
        "too_small": reason([1, max(split, 2) - 1]) if 2 * m > split else None,
        "no_split": L.phrase(NO_VALID_SPLIT, REASONS),
        "min_gain": L.number(f"{float(model.min_gain):g}"),  # as low_gain_reason writes it
    }
