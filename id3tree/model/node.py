"""The tree's nodes: a small, explicit model that renderers, tracing and persistence rely on."""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

MISSING = None
"""The branch key of the branch that missing values take."""

LEFT, RIGHT, NUMERIC_MISSING = 0, 1, 2
"""Branch slots of a numeric split in the flat arrays (``<=``, ``>``, missing). A categorical
split uses the category's code as its slot and ``len(categories)`` for missing values."""


@dataclass(eq=False, slots=True)
class Node:
    """One node of an ID3 tree.

    Attributes
    ----------
    feature : str or None
        The feature this node splits on; None for a leaf.
    threshold : float or None
        The cut of a numeric split (``x <= threshold`` goes to ``"<="``); None otherwise.
    children : dict
        Branch key -> child Node. Categorical splits use the category values as keys, numeric
        splits ``"<="`` and ``">"``; both use ``None`` for the branch of missing values.
    class_counts : dict
        Class -> number of training rows of that class that reached this node.
    n_samples : int
        Number of training rows that reached this node.
    entropy : float
        Entropy (bits) of the class counts.
    gain : float or None
        Information gain of the split made here; None for a leaf.
    prediction : object
        The majority class (ties go to the class that comes first in ``classes_``; see
        :attr:`tied_classes`).
    depth : int
        0 for the root.
    node_id : int
        Position in pre-order (depth first, as in scikit-learn): the root is 0, its first child 1,
        that child's first child 2, and a node's whole subtree is numbered before its next
        sibling. It is the order in which the trace, the text and the drawings list the nodes.
    """

    feature: str | None
    threshold: float | None
    children: dict[Any, Node]
    class_counts: dict[Any, int]
    n_samples: int
    entropy: float
    gain: float | None
    prediction: Any
    depth: int
    node_id: int = 0
    stop_reason: str | None = field(default=None, repr=False)

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def tied_classes(self) -> list:
        """The classes tied for the largest count (``[]`` when one class leads). The prediction
        is then the first of them in ``classes_``."""
        return tied_classes(self.class_counts)

    @property
    def is_numeric_split(self) -> bool:
        return self.threshold is not None

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, children in branch order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children.values())))

    def iter_edges(self) -> Iterator[tuple[Node, Any, Node]]:
        """Every (parent, branch key, child) below this node, depth first."""
        for node in self.walk():
            for key, child in node.children.items():
                yield node, key, child

    def __repr__(self) -> str:
        test = "leaf" if self.is_leaf else f"split on {self.feature!r}"
        return f"Node({self.node_id}: {test}, n={self.n_samples}, counts={self.class_counts})"


def format_number(value: float, decimals: int | None = None) -> str:
    """A threshold as people write it: ``2.45``, not ``2.4500000000000002``; rounded to
    ``decimals`` digits after the point when given (the model keeps the exact value).

    >>> format_number(28.85625), format_number(28.85625, 3), format_number(2.45, 3)
    ('28.85625', '28.856', '2.45')
    """
    if decimals is not None:
        value = round(float(value), decimals)
    return f"{value + 0.0:.10g}"  # + 0.0: never "-0"


def class_name(c: Any) -> str:
    """A class as the trace, the text and the drawings write it: ``Yes``, or ``class 0`` when the
    classes are numbers (a bare ``0 549`` reads like two numbers)."""
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (numbers.Number, np.number)):
        return str(c)
    return f"class {c}"


def format_count(value) -> str:
    """A count as people write it: ``9`` for a whole number, ``948.222`` for a sum of weights
    (six significant digits, so ``431.99999999999983`` reads ``432``).

    >>> format_count(9), format_count(9.0), format_count(948.2222222), format_count(0.1 + 0.2)
    ('9', '9', '948.222', '0.3')
    """
    if isinstance(value, (float, np.floating)):
        return f"{float(value) + 0.0:.6g}"
    return str(value)


def format_counts(class_counts: dict) -> str:
    """Class counts in the one form used everywhere: ``No: 5, Yes: 9`` or ``class 0: 549, class 1: 342``."""
    return ", ".join(f"{class_name(c)}: {format_count(n)}" for c, n in class_counts.items())


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 sample``, ``2 samples``; ``words`` for irregular plurals (``branch``, ``branches``).
    A sum of weights is written as :func:`format_count` writes it."""
    return f"{format_count(n)} {word if n == 1 else (words or word + 's')}"


# The same words for a whole column at once: a trace writes tens of thousands of numbers, and
# one call per array (each value by a C-level ``map``) costs a fraction of one call per number.
def count_texts(values) -> list[str]:
    """:func:`format_count` of every entry of an array (whole counts as they are, sums of weights
    to six significant digits), the same characters.

    >>> count_texts(np.array([9, 1])), count_texts(np.array([9.0, 948.2222222]))
    (['9', '1'], ['9', '948.222'])
    """
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return list(map("{:.6g}".format, (values + 0.0).tolist()))
    if len(values) >= LONG_COLUMN and values.dtype.kind in "iu" and values.min(initial=0) >= 0:
        # a long column of counts: each looked up in a table of written whole numbers, the
        # few beyond it written by str
        table = _count_table_up_to(int(values.max(initial=0)))
        within = values < len(table)
        texts = table[np.where(within, values, 0)]
        beyond = np.flatnonzero(~within)
        texts[beyond] = list(map(str, values[beyond].tolist()))
        return texts.tolist()
    return list(map(str, values.tolist()))


_COUNT_TABLE_LIMIT = 2**16
"""The table of written counts covers at most ``0 .. _COUNT_TABLE_LIMIT - 1`` (some 4 MB)."""
_count_table = np.empty(0, dtype=object)  # entry i: str(i)


def _count_table_up_to(n: int) -> np.ndarray:
    """The table of :func:`count_texts` (``str(i)`` at entry i), grown to reach ``n`` if it
    can."""
    global _count_table
    if len(_count_table) <= min(n, _COUNT_TABLE_LIMIT - 1):
        size = min(max(2 * n, 1024), _COUNT_TABLE_LIMIT)
        _count_table = np.array(list(map(str, range(size))), dtype=object)
    return _count_table


def plural_words(counts: np.ndarray, one: str, many: str) -> list[str]:
    """The word :func:`plural` puts after each count: ``one`` for 1, else ``many``
    (the two words themselves, looked up: no new string per count)."""
    is_one = np.asarray(counts) == 1
    return np.array([many, one], dtype=object)[is_one.astype(np.intp)].tolist()


def counts_texts(counts, classes) -> list[str]:
    """:func:`format_counts` of every row of an array of class counts (a column per class of
    ``classes``), the same characters.

    Each column is written by one call (:func:`count_texts`: a long column of whole counts is
    looked up in a table of written numbers), then each row is joined from its pieces (the
    class names, written once, and the counts) by one C-level pass.

    >>> counts_texts(np.array([[5, 9], [0, 4]]), ["No", "Yes"])
    ['No: 5, Yes: 9', 'No: 0, Yes: 4']
    """
    counts = np.asarray(counts)
    n = len(counts)
    pieces = []
    for k, c in enumerate(classes):
        pieces.append(repeat(f"{', ' if k else ''}{class_name(c)}: ", n))
        pieces.append(count_texts(counts[:, k]))
    return list(map("".join, zip(*pieces)))


def number_texts(values, decimals: int | None = None) -> list[str]:
    """:func:`format_number` of every entry of an array, the same characters.

    Rounding to ``decimals`` digits is Python's :func:`round`, which rounds the exact binary
    value half to even (``numpy.round`` may differ in the last digit). A long column takes a
    shortcut with the same result: each value times ``10**decimals`` is rounded to a whole
    number q (:func:`rounded_units`; where q is not sure, :func:`round` rounds the value), and q
    is written as its whole part and its decimals, the decimals looked up in a table made once.

    >>> number_texts(np.array([28.85625, 2.45, -0.00001]), 3)
    ['28.856', '2.45', '0']
    """
    values = np.asarray(values, dtype=float)
    if decimals is None:
        if len(values) < LONG_COLUMN:
            return list(map("{:.10g}".format, (values + 0.0).tolist()))
        # a long column repeats values (the same cut at many nodes): each is written once
        distinct, which = np.unique(values + 0.0, return_inverse=True)  # -0.0 is 0.0
        texts = np.array(list(map("{:.10g}".format, distinct.tolist())), dtype=object)
        return texts[which.ravel()].tolist()
    if len(values) < LONG_COLUMN or not 0 < decimals <= 4:
        rounded = [round(v, decimals) for v in values.tolist()]
        return list(map("{:.10g}".format, (np.asarray(rounded, dtype=float) + 0.0).tolist()))
    return list(map("".join, zip(*(piece.tolist() for piece in number_pieces(values, decimals)))))


def number_pieces(values, decimals: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`number_texts` of a column (``decimals`` given) in two pieces a number, to be
    joined into lines without first making each number's text: its sign and whole part
    (``-28``), then its point and decimals (``.856``, or nothing). Two arrays of str (dtype
    object).

    A long column (at most 4 decimals) is looked up: q, the value in units of
    ``10**-decimals`` (:func:`rounded_units`), gives the sign and whole part from a table of
    written signed whole numbers made once (beyond it, ``str``), and its decimals from a table
    of decimals; where q is not sure, :func:`format_number` writes the value (all in the first
    piece)."""
    values = np.asarray(values, dtype=float)
    if len(values) < LONG_COLUMN or not 0 < decimals <= 4:
        written = np.array(number_texts(values, decimals), dtype=object)
        return written, np.full(len(values), "", dtype=object)
    q, sure = rounded_units(values, decimals)  # an infinity or NaN is not sure: round() writes it
    sure &= np.abs(q) < 2**31
    units = np.where(sure, q, 0).astype(np.int64)
    whole, part = np.divmod(np.abs(units), 10**decimals)
    signed = 2 * whole + (units < 0)  # entry 2w of the table writes w, 2w + 1 writes -w
    table = _signed_table_up_to(int(signed.max(initial=0)))
    within = signed < len(table)
    head = table[np.where(within, signed, 0)]
    tail = _decimals_table(decimals)[part]
    beyond = np.flatnonzero(~within).tolist()
    head[beyond] = [("-" if w & 1 else "") + str(w >> 1) for w in signed[beyond].tolist()]
    unsure = np.flatnonzero(~sure).tolist()
    head[unsure] = [format_number(values[i], decimals) for i in unsure]
    tail[unsure] = ""
    return head, tail


_signed_table = np.empty(0, dtype=object)  # entry 2w: str(w), entry 2w + 1: "-" + str(w)


def _signed_table_up_to(n: int) -> np.ndarray:
    """The table of :func:`number_pieces` (signed whole numbers), grown to reach entry ``n`` if
    it can (as far as twice the table of written counts, :data:`_COUNT_TABLE_LIMIT`)."""
    global _signed_table
    if len(_signed_table) <= min(n, 2 * _COUNT_TABLE_LIMIT - 1):
        size = min(max(n + 2, 2048), 2 * _COUNT_TABLE_LIMIT) // 2  # whole numbers
        written = _count_table_up_to(size - 1)[:size].tolist()
        _signed_table = np.array([t for w in written for t in (w, "-" + w)], dtype=object)
    return _signed_table


LONG_COLUMN = 200
"""A column of at least this many numbers is written by a shortcut (:func:`number_texts`,
:func:`~id3tree.trace.tracers.fixed_texts`); a shorter one number by number."""


def rounded_units(values: np.ndarray, decimals: int) -> tuple[np.ndarray, np.ndarray]:
    """Each value in units of ``10**-decimals``, rounded to a whole number ``q``, and whether
    that ``q`` is surely the one Python's own rounding of the value gives: the scaled value
    carries a rounding error of its own, far below ``1e-6``, so within ``1e-6`` of a half (``q``
    could go either way), and for an infinity or NaN, it is not sure and the caller writes the
    value by Python's :func:`round` or :func:`format` instead."""
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = values * 10.0**decimals
        q = np.rint(scaled)
        sure = np.abs(scaled - np.floor(scaled) - 0.5) > 1e-6
    return q, sure


_decimals_tables: dict[int, np.ndarray] = {}


def _decimals_table(decimals: int) -> np.ndarray:
    """Entry i: the decimals of ``i / 10**decimals`` as :func:`format_number` ends a number
    (``.45`` for 4500 at 4 decimals, ``""`` for 0), made once."""
    if decimals not in _decimals_tables:
        written = [f".{i:0{decimals}d}".rstrip("0") for i in range(10**decimals)]
        written[0] = ""
        _decimals_tables[decimals] = np.array(written, dtype=object)
    return _decimals_tables[decimals]


COUNT_TIE_RTOL = 1e-9
"""Sums of fractional weights within this share of the top count tie with it: they are equal
up to floating-point rounding (three rows of weight 0.1 sum to 0.30000000000000004, one row of
weight 0.3 to 0.3). Whole counts tie only when equal."""


def top_classes(counts) -> np.ndarray:
    """Which classes hold the largest count of each node: a boolean array shaped like
    ``counts`` (nodes by classes, or one node's classes). Whole counts must be equal; sums of
    fractional weights may differ by :data:`COUNT_TIE_RTOL` of the top (rounding)."""
    counts = np.asarray(counts)
    top = counts.max(axis=-1, keepdims=True)
    if counts.dtype.kind != "f" or np.array_equal(counts, np.round(counts)):
        return counts == top
    return counts >= top - COUNT_TIE_RTOL * np.abs(top)


def majority_classes(counts) -> np.ndarray:
    """Each node's predicted class (index into the classes) from its counts (nodes by classes):
    the first of its :func:`top_classes` (ties go to the class that comes first)."""
    return np.argmax(top_classes(counts), axis=-1)


def tied_classes(class_counts: dict) -> list:
    """The classes that share the largest count, when more than one does (else ``[]``); sums
    of fractional weights equal up to rounding tie (:func:`top_classes`)."""
    counts = list(class_counts.values())
    if not counts or max(counts) <= 0:
        return []
    tied = [c for c, top in zip(class_counts, top_classes(counts)) if top]
    return tied if len(tied) > 1 else []


CLASS_TIE_RULE = "the class that comes first in classes_ wins"


def class_tie_note(class_counts: dict, prediction: Any) -> str:
    """Words for a tie between the top classes, or ``""`` when there is none."""
    tied = tied_classes(class_counts)
    if not tied:
        return ""
    names = ", ".join(class_name(c) for c in tied[:-1]) + f" and {class_name(tied[-1])}"
    each = plural(class_counts[tied[0]], "sample")
    return f"{names} tie with {each} each; {CLASS_TIE_RULE}, so it predicts {prediction}"


def condensed_path(steps: list[tuple[str, str, Any]], decimals: int | None = None) -> list[str]:
    """The tests on the way to a node, one per feature: a numeric feature cut several times
    becomes one interval (``2.45 < petal_length <= 4.95``).

    ``steps`` are ``(feature, op, value)`` with op one of ``"="``, ``"<="``, ``">"`` and
    ``"missing"``, in the order they were made.

    >>> condensed_path([("petal_length", ">", 2.45), ("petal_width", "<=", 1.75),
    ...                 ("petal_length", "<=", 4.95)])
    ['2.45 < petal_length <= 4.95', 'petal_width <= 1.75']
    """
    state: dict[str, tuple] = {}
    for feature, op, value in steps:
        state[feature] = narrowed(state.get(feature), op, value)
    return [path_word(feature, tests, decimals) for feature, tests in state.items()]


def narrowed(tests: tuple | None, op: str, value) -> tuple:
    """What the path knows of one feature, ``(low, high, other)``, after one more test on it
    (``tests`` None before the first): the largest ``>`` bound, the smallest ``<=`` bound, and
    the last ``=`` or ``missing`` test."""
    low, high, other = tests or (None, None, None)
    if op == "<=":
        return low, value if high is None else min(high, value), other
    if op == ">":
        return value if low is None else max(low, value), high, other
    return low, high, (op, value)


def path_word(
    feature: str, tests: tuple, decimals: int | None = None, written: dict | None = None
) -> str:
    """One feature's part of a condensed path, from its ``(low, high, other)``.

    ``written``, if given, keeps the thresholds written so far (value -> text, by
    :func:`format_number` with ``decimals``): it is read first and filled as it goes, so a
    caller that writes many paths writes each threshold once.
    """
    low, high, other = tests
    if other is not None:
        op, value = other
        return f"{feature} is missing" if op == "missing" else f"{feature} = {value}"
    if written is None:
        written = {}
    if low is not None:
        low_text = written.get(low) or written.setdefault(low, format_number(low, decimals))
    if high is not None:
        high_text = written.get(high) or written.setdefault(high, format_number(high, decimals))
    if low is not None and high is not None:
        return f"{low_text} < {feature} <= {high_text}"
    if low is not None:
        return f"{feature} > {low_text}"
    return f"{feature} <= {high_text}"


def path_step(node: Node, key: Any) -> tuple[str, str, Any]:
    """The branch ``key`` of ``node`` as a ``(feature, op, value)`` step of :func:`condensed_path`."""
    if key is MISSING:
        return node.feature, "missing", None
    if node.is_numeric_split:
        return node.feature, key, node.threshold
    return node.feature, "=", key


def node_paths(root: Node, decimals: int | None = None) -> dict[int, list[str]]:
    """``node_id`` -> the condensed tests on the way there, for every node below ``root``."""
    paths, stack = {root.node_id: []}, [(root, [])]
    while stack:
        node, steps = stack.pop()
        paths[node.node_id] = condensed_path(steps, decimals)
        for key, child in node.children.items():
            stack.append((child, [*steps, path_step(node, key)]))
    return paths


def branch_label(node: Node, key: Any, decimals: int | None = None) -> str:
    """How a branch reads in text: ``Outlook = Sunny``, ``petal_length <= 2.45``, ``Wind is missing``."""
    if key is MISSING:
        return f"{node.feature} is missing"
    if node.is_numeric_split:
        return f"{node.feature} {key} {format_number(node.threshold, decimals)}"
    return f"{node.feature} = {key}"


def edge_label(node: Node, key: Any, decimals: int | None = None) -> str:
    """A branch as a short label, without the feature: ``Sunny``, ``<= 2.45``, ``missing``."""
    if key is MISSING:
        return "missing"
    if node.is_numeric_split:
        return f"{key} {format_number(node.threshold, decimals)}"
    return str(key)


def feature_importances(root: Node, names: list[str]) -> np.ndarray:
    """Entropy decrease of every split weighted by its share of the rows, summed per feature and
    normalised to sum to 1 (all zeros for a single leaf)."""
    index = {name: i for i, name in enumerate(names)}
    total = np.zeros(len(names))
    for node in root.walk():
        if not node.is_leaf:
            total[index[node.feature]] += node.n_samples / root.n_samples * node.gain
    s = total.sum()
    return total / s if s > 0 else total
