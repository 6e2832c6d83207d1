"""A tree read as if-then rules: one rule per leaf, and the rules of the rows a node stops.

Every path from the root to a leaf is a rule: the tests on the way, condensed to one interval
per numeric feature (``2.45 < petal_length <= 4.75``) and one test per categorical feature,
predict the leaf's majority class. Its *coverage* is the training rows that reach the leaf (and
their share of all), its *confidence* the share of them that are of the predicted class.

A tree also answers rows that no leaf rule describes. A row whose value a node cannot follow (a
missing value where no training row at that node was missing, or a category the node never saw)
stops at that node and gets the node's majority class (see :mod:`id3tree.engine.routing`). So the rule
set has a second, shorter list, the *stop rules*: one per node that can stop a row, whose last
condition says which values stop there (``Wind is missing or not in {Strong, Weak}``). No
training row meets a stop rule. Leaf rules and stop rules never overlap and together cover every
possible row, so their order does not matter: a row meets exactly one rule, and that rule
predicts what the tree predicts.

The rule set prints as text, LaTeX (a document pdflatex compiles), the source of a Python
function of a dict row, and an SQL query (``SELECT *, CASE ... END AS prediction``). The Python
and SQL compare numbers exactly as the tree does (``x <= threshold`` in float64; every threshold
is written so that it reads back as the same float64).

>>> from id3tree import ID3Classifier
>>> from id3tree.datasets import load_play_tennis
>>> X, y = load_play_tennis(return_X_y=True)
>>> rules = ID3Classifier().fit(X, y).to_rules()
>>> len(rules), rules[1].text()
(5, 'IF Outlook = Rain AND Wind = Strong THEN No')
"""

from __future__ import annotations

import builtins
import keyword
import math
import re
import textwrap
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.latex import latex_escape
from id3tree.base.words import class_name, format_count, format_number, printable
from id3tree.model.node import MISSING, Node, narrowed, path_step, path_word

__all__ = [
    "check_function_name", "Condition", "condition_of", "Equals", "Interval", "Missing", "NotIn",
    "python_literal", "python_source", "quote_identifier", "READ_BACK_MARGIN", "RESERVED", "rows",
    "Rule", "rules_of", "RuleSet", "sql_literal", "sql_number", "sql_query", "STOP_NOTE",
    "variable_names",
]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Conditions: what a rule asks of one feature
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Interval:
    """``low < feature <= high`` (a bound None is open); a missing value never meets it."""

    feature: str
    low: float | None = None
    high: float | None = None

    def text(self, decimals: int | None = None) -> str:
        return path_word(self.feature, (self.low, self.high, None), decimals)

    def latex(self, decimals: int | None = None) -> str:
        name = latex_escape(self.feature)
        low = None if self.low is None else format_number(self.low, decimals)
        high = None if self.high is None else format_number(self.high, decimals)
        if low is not None and high is not None:
            return f"{low} $<$ {name} $\\leq$ {high}"
        if low is not None:
            return f"{name} $>$ {low}"
        return f"{name} $\\leq$ {high}"

    def python(self, var: str) -> str:
        if self.low is not None and self.high is not None:
            return f"{python_literal(self.low)} < {var} <= {python_literal(self.high)}"
        if self.low is not None:
            return f"{var} > {python_literal(self.low)}"
        return f"{var} <= {python_literal(self.high)}"

    def sql(self, column: str) -> str:
        tests = []
        if self.low is not None:
            tests.append(f"{column} > {sql_number(self.low)}")
        if self.high is not None:
            tests.append(f"{column} <= {sql_number(self.high)}")
        return " AND ".join(tests)


@dataclass(frozen=True)
class Equals:
    """``feature = value`` for a categorical feature."""

    feature: str
    value: Any

    def text(self, decimals: int | None = None) -> str:
        return path_word(self.feature, (None, None, ("=", self.value)), decimals)

    def latex(self, decimals: int | None = None) -> str:
        return f"{latex_escape(self.feature)} $=$ {latex_escape(self.value)}"

    def python(self, var: str) -> str:
        return f"{var} == {python_literal(self.value, self.feature)}"

    def sql(self, column: str) -> str:
        return f"{column} = {sql_literal(self.value, self.feature)}"


@dataclass(frozen=True)
class Missing:
    """The feature's value is missing (None, NaN, pandas' NA; NULL in SQL)."""

    feature: str
    numeric: bool = False

    def text(self, decimals: int | None = None) -> str:
        return path_word(self.feature, (None, None, ("missing", None)), decimals)

    def latex(self, decimals: int | None = None) -> str:
        return f"{latex_escape(self.feature)} is missing"

    def python(self, var: str) -> str:
        return f"math.isnan({var})" if self.numeric else f"{var} is None"

    def sql(self, column: str) -> str:
        return f"{column} IS NULL"


@dataclass(frozen=True)
class NotIn:
    """A categorical value that a node has no branch for: none of ``values``, or missing too when
    ``or_missing`` (the node saw no missing value). The last condition of a stop rule."""

    feature: str
    values: tuple
    or_missing: bool

    def _listed(self, write) -> str:
        return "{" + ", ".join(write(v) for v in self.values) + "}"

    def text(self, decimals: int | None = None) -> str:
        listed = self._listed(str)
        if self.or_missing:
            return f"{self.feature} is missing or not in {listed}"
        return f"{self.feature} is not in {listed} (nor missing)"

    def latex(self, decimals: int | None = None) -> str:
        listed = "\\{" + ", ".join(latex_escape(v) for v in self.values) + "\\}"
        name = latex_escape(self.feature)
        if self.or_missing:
            return f"{name} is missing or not in {listed}"
        return f"{name} is not in {listed} (nor missing)"

    def python(self, var: str) -> str:
        listed = ", ".join(python_literal(v, self.feature) for v in self.values)
        listed = f"({listed},)" if len(self.values) == 1 else f"({listed})"
        if self.or_missing:  # None is in no tuple of values
            return f"{var} not in {listed}"
        return f"{var} is not None and {var} not in {listed}"

    def sql(self, column: str) -> str:
        listed = ", ".join(sql_literal(v, self.feature) for v in self.values)
        if self.or_missing:  # NULL NOT IN (...) is not true: missing values are named
            return f"({column} IS NULL OR {column} NOT IN ({listed}))"
        return f"{column} NOT IN ({listed})"


Condition = Interval | Equals | Missing | NotIn


def condition_of(feature: str, tests: tuple, numeric: bool) -> Condition:
    """The condition on one feature from what a path knows of it, ``(low, high, other)`` as
    :func:`~id3tree.model.node.narrowed` keeps it (``other`` may also be ``("not in", values,
    or_missing)``, the values a node has no branch for)."""
    low, high, other = tests
    if other is None:
        return Interval(feature, low, high)
    if other[0] == "missing":
        return Missing(feature, numeric)
    if other[0] == "not in":
        return NotIn(feature, other[1], other[2])
    return Equals(feature, other[1])


# ---------------------------------------------------------------------------------------------
# Rules and the rule set
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    """One rule: IF every condition holds THEN predict ``prediction``.

    Attributes
    ----------
    conditions : tuple
        :class:`Interval`, :class:`Equals`, :class:`Missing` and :class:`NotIn` conditions, one
        per feature, in the order the path first tested each feature.
    prediction : object
        The majority class of ``node``.
    node : int
        The ``node_id`` of the leaf, or of the node where a stop rule's rows stop.
    kind : {"leaf", "stop"}
        A leaf's rule, or the rule of the rows a node stops (no training row meets it).
    n_samples : int or float
        Training rows (sums of weights for a weighted fit) that meet the rule: the leaf's rows;
        0 for a stop rule.
    coverage : float
        ``n_samples`` as a share of all training rows.
    node_samples : int or float
        Training rows at ``node``.
    confidence : float
        The share of ``node``'s training rows that are of the predicted class.
    """

    conditions: tuple
    prediction: Any
    node: int
    kind: str
    n_samples: Any
    coverage: float
    node_samples: Any
    confidence: float

    def text(self, decimals: int | None = None) -> str:
        """``IF Outlook = Rain AND Wind = Strong THEN No``."""
        tests = " AND ".join(c.text(decimals) for c in self.conditions) or "always"
        return printable(f"IF {tests} THEN {class_name(self.prediction)}")

    def support_text(self) -> str:
        """``4 rows, 28.6%; confidence 100.0%``, or where a stop rule's rows stop."""
        if self.kind == "stop":
            return f"node {self.node} holds {rows(self.node_samples)}; confidence {self.confidence:.1%}"
        return f"{rows(self.n_samples)}, {self.coverage:.1%}; confidence {self.confidence:.1%}"


def rows(n) -> str:
    """``1 row``, ``4 rows``, ``948.222 rows`` (a sum of weights)."""
    return f"{format_count(n)} {'row' if n == 1 else 'rows'}"


STOP_NOTE = (
    "A row whose value a node cannot follow (a value missing where no training row at that node "
    "was missing, or a category the node never saw) stops there and gets the node's majority "
    "class:"
)


class RuleSet:
    """The rules of a tree: one per leaf (``len()``, iteration and indexing give these), and the
    stop rules of rows that end at an inner node (:attr:`stops`).

    Make one with ``tree.to_rules()`` or :func:`rules_of`. It prints as text (``str``), and
    writes LaTeX (:meth:`to_latex`), Python (:meth:`to_python`) and SQL (:meth:`to_sql`);
    :meth:`to_frame` gives one row per rule.
    """

    def __init__(
        self, rules: list[Rule], stops: list[Rule], numeric: dict[str, bool], features=None,
    ):  # fmt: skip
        self.rules = rules
        self.stops = stops
        self.numeric = numeric  # every feature the rules name -> whether it is numeric
        columns = list(numeric) if features is None else list(features)
        self.features = [str(f) for f in columns]
        # the key a row's dict holds each feature's value by: the column's own label (0, 1.5,
        # True, ("a", 1)) when the model was fitted on a frame so labelled, else its name
        self.keys = {str(f): f for f in columns}

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __getitem__(self, i) -> Rule:
        return self.rules[i]

    @property
    def all_rules(self) -> list[Rule]:
        """The leaf rules, then the stop rules."""
        return self.rules + self.stops

    def __repr__(self) -> str:
        return f"RuleSet({len(self.rules)} rules, {len(self.stops)} stop rules)"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)

    # -- text ---------------------------------------------------------------------------------
    def to_text(self, *, decimals: int | None = None) -> str:
        """One line per rule: its conditions, its prediction, coverage and confidence; then the
        stop rules. Thresholds are written to 10 significant digits (``decimals`` rounds them
        further); the Python and SQL write them exactly."""
        lines = [f"{_count_words(len(self.rules), 'rule')}, one per leaf:"]
        for i, rule in enumerate(self.rules, start=1):
            lines.append(f"Rule {i}: {rule.text(decimals)}  [{rule.support_text()}]")
        if self.stops:
            lines += ["", *textwrap.wrap(STOP_NOTE, 100)]
            for rule in self.stops:
                lines.append(
                    f"Stop at node {rule.node}: {rule.text(decimals)}  [{rule.support_text()}]"
                )
        return "\n".join(lines)

    def to_frame(self, *, decimals: int | None = None) -> pd.DataFrame:
        """One row per rule (leaf rules, then stop rules): ``rule``, ``kind``, ``node``,
        ``conditions``, ``prediction``, ``n_samples``, ``coverage``, ``confidence``."""
        records = []
        for i, rule in enumerate(self.all_rules, start=1):
            records.append(
                dict(
                    rule=i,
                    kind=rule.kind,
                    node=rule.node,
                    conditions=printable(" AND ".join(c.text(decimals) for c in rule.conditions)),
                    prediction=rule.prediction,
                    n_samples=rule.n_samples,
                    coverage=rule.coverage,
                    confidence=rule.confidence,
                )
            )
        return pd.DataFrame.from_records(records)

    # -- LaTeX --------------------------------------------------------------------------------
    def to_latex(
        self, *, decimals: int | None = None, standalone: bool = True, title: str = "Rules"
    ) -> str:
        """The rules as LaTeX: a complete document pdflatex compiles as it is, or with
        ``standalone=False`` the lists alone, to paste into a document of your own (they need
        no package)."""
        body = [f"\\section*{{{latex_escape(title)}}}", _latex_list(self.rules, decimals)]
        if self.stops:
            body += [latex_escape(STOP_NOTE), _latex_list(self.stops, decimals)]
        text = "\n\n".join(body) + "\n"
        if not standalone:
            return text
        return (
            "\\documentclass[11pt]{article}\n"
            "\\usepackage[T1]{fontenc}\n"
            "\\usepackage[utf8]{inputenc}\n"
            "\\usepackage[margin=2cm]{geometry}\n"
            "\\begin{document}\n"
            f"{text}"
            "\\end{document}\n"
        )

    # -- Python -------------------------------------------------------------------------------
    def to_python(self, function_name: str = "predict") -> str:
        """The source of a function ``function_name(row)`` that predicts one row, a dict of
        column name -> value (None, NaN or pandas' NA for a missing value), by the rules.

        The function needs nothing but the standard library; ``exec`` the source, or paste it
        into a module. Numbers are compared as the tree compares them, as float64. A feature is
        read by its column's label (``row["petal length"]``, ``row[0]`` for a column labelled
        0); its variable is its name made an identifier (:func:`variable_names`).

        ``function_name`` must be a Python identifier as Python spells it (NFKC: ``ﬁ`` is
        ``fi``), neither a keyword nor a built-in name (``float``, ``bool``, ...) that the
        function itself calls.
        """
        check_function_name(function_name)
        return python_source(self, function_name)

    # -- SQL ----------------------------------------------------------------------------------
    def to_sql(
        self, table: str = "data", *, column: str = "prediction", order_by: str | None = "rowid"
    ) -> str:
        """A query over ``table`` (its columns named as the features) that returns every row
        with its prediction as the last column: ``SELECT *, CASE ... END AS prediction``.

        ``order_by="rowid"`` keeps the rows in table order in SQLite (``"data".rowid``, or
        ``_rowid_`` or ``oid`` where a feature is called ``rowid``: a column of that name hides
        SQLite's row number; a table whose other columns hide all three names needs
        ``order_by=``); give the name of a column that numbers the rows for another database,
        or None for no ``ORDER BY`` (then the order is the database's). Identifiers are quoted
        (``"petal length"``), so names with spaces, quotes or keywords work; missing values are
        NULL. A class that is an integer beyond SQLite's 64 bits is written as its digits, as
        text (``'1180591620717411303424'``); a category or class holding a NUL character is
        refused (SQL text cannot hold one).
        """
        for name, value in (("table", table), ("column", column), ("order_by", order_by)):
            if not isinstance(value, str) and (name != "order_by" or value is not None):
                raise TypeError(f"{name} must be a str naming an SQL identifier, got {value!r}")
        return sql_query(self, table, column, order_by)


def _count_words(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def _latex_list(rules: list[Rule], decimals: int | None) -> str:
    items = []
    for rule in rules:
        tests = " \\textbf{and} ".join(c.latex(decimals) for c in rule.conditions) or "always"
        then = latex_escape(class_name(rule.prediction))
        support = latex_escape(rule.support_text())
        items.append(
            f"\\item \\textbf{{if}} {tests} \\textbf{{then}} {then}\\\\\n{{\\small {support}}}"
        )
    return "\\begin{enumerate}\n" + "\n".join(items) + "\n\\end{enumerate}"


# ---------------------------------------------------------------------------------------------
# Reading the rules off a tree
# ---------------------------------------------------------------------------------------------
def rules_of(root: Node, features=None) -> RuleSet:
    """The rules of the tree below ``root``: a leaf rule per leaf, in pre-order (the order of the
    text and the drawings), and a stop rule per way a node can stop a row, in pre-order of the
    nodes. ``features``, the tree's columns if known (as X labelled them: names, or 0, 1.5,
    ...), keeps the SQL's row order right when one of them is called ``rowid``, and gives the
    keys the Python function reads a row's values by."""
    total = root.n_samples
    leaves, stops, numeric = [], [], {}
    made: dict[tuple, Condition] = {}  # rules share the conditions of their common paths

    def conditions(tests: dict) -> tuple:
        found = []
        for feature, known in tests.items():
            key = (feature, known)
            if key not in made:
                made[key] = condition_of(feature, known, numeric[feature])
            found.append(made[key])
        return tuple(found)

    stack = [(root, {})]
    while stack:  # depth first without recursion: trees can be thousands of levels deep
        node, tests = stack.pop()
        if node.is_leaf:
            leaves.append(_rule(node, conditions(tests), "leaf", total))
            continue
        numeric[node.feature] = node.is_numeric_split
        for stopped in _stopped_tests(node, tests):
            stops.append(_rule(node, conditions(stopped), "stop", total))
        for key, child in reversed(list(node.children.items())):
            feature, op, value = path_step(node, key)
            stack.append((child, {**tests, feature: narrowed(tests.get(feature), op, value)}))
    return RuleSet(leaves, stops, numeric, features)


def _stopped_tests(node: Node, tests: dict) -> list[dict]:
    """What a path knows of each feature for the rows that stop at ``node`` (as
    :mod:`id3tree.engine.routing` stops them), one dict per way of stopping."""
    feature = node.feature
    if node.is_numeric_split:  # a slot without a child: in practice, the missing values
        known = tests.get(feature)
        if known is not None and (known[0] is not None or known[1] is not None):
            return []  # the path holds the feature in an interval: it is not missing here
        return [
            {**tests, feature: narrowed(known, *path_step(node, key)[1:])}
            for key in ("<=", ">", MISSING)
            if key not in node.children
        ]
    values = tuple(k for k in node.children if k is not MISSING)
    return [{**tests, feature: (None, None, ("not in", values, MISSING not in node.children))}]


def _rule(node: Node, conditions: tuple, kind: str, total) -> Rule:
    n = node.n_samples
    covered = n if kind == "leaf" else 0
    top = node.class_counts.get(node.prediction, 0)
    return Rule(
        conditions=conditions,
        prediction=_plain(node.prediction),
        node=node.node_id,
        kind=kind,
        n_samples=covered,
        coverage=covered / total if total else 0.0,
        node_samples=n,
        confidence=top / n if n else 0.0,
    )


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


# ---------------------------------------------------------------------------------------------
# Literals: values written so that Python and SQL read back exactly the same value
# ---------------------------------------------------------------------------------------------
def python_literal(value, feature: str | None = None) -> str:
    """A category, class or threshold as Python source: ``'Sunny'``, ``3``, ``2.45``, ``True``
    (``repr`` of a float reads back as the same float)."""
    value = _plain(value)
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(value, (str, bool, int, float)):
        return repr(value)
    raise ValueError(_unwritable(value, feature, "Python"))


def sql_literal(value, feature: str | None = None) -> str:
    """A category or class as an SQL literal: ``'O''Brien'``, ``3``, ``TRUE``, a number. An
    integer beyond SQLite's 64 bits (which would read it as an inexact REAL) is a class's
    digits as text, and refused as a category; text with a NUL character is refused."""
    value = _plain(value)
    if isinstance(value, str):
        if "\x00" in value:
            where = f" of column {feature!r}" if feature is not None else ""
            raise ValueError(
                f"the value {value!r}{where} holds a NUL character, which SQL text cannot hold; "
                "replace it (for example with .str.replace('\\x00', '')) and fit again"
            )
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        if -(2**63) <= value < 2**63:
            return str(value)
        if feature is None:  # a class: its exact digits, as text
            return f"'{value}'"
        raise ValueError(
            f"the value {value} of column {feature!r} is an integer beyond SQLite's 64 bits, "
            "which SQL would compare as an inexact REAL; convert the column to text first"
        )
    if isinstance(value, float):
        return sql_number(value)
    raise ValueError(_unwritable(value, feature, "SQL"))


def _unwritable(value, feature, language) -> str:
    where = f" of column {feature!r}" if feature is not None else ""
    return (
        f"the value {value!r}{where} is a {type(value).__name__}, which has no {language} "
        "literal here; convert the column to text or numbers before fitting"
    )


def sql_number(x: float) -> str:
    """A float as a decimal that reads back as the same float64 even in a database whose
    decimal-to-binary conversion is not correctly rounded.

    SQLite's conversion errs in the last bit now and then, for a decimal that lies within a few
    thousandths of a unit in the last place (ulp) of the middle between two floats. So the
    shortest decimal (Python's ``repr``) is taken only when it lies at most ``READ_BACK_MARGIN``
    of the gap to the next float away from ``x``; else more digits are written, until one does.
    Any conversion that errs by less than 1/64 ulp reads it back as ``x``.

    >>> sql_number(2.45), sql_number(59.87980246659993), sql_number(-0.0), sql_number(1e300)
    ('2.45', '59.879802466599934', '0.0', '1e+300')
    """
    x = float(x)
    if x == 0:
        return "0.0"
    if not math.isfinite(x):  # not a threshold (those are finite); a category of a coded column
        return "9e999" if x > 0 else "-9e999"
    size = abs(x)  # the gaps to the neighbouring floats, away from zero and toward it
    exact, away = Fraction(size), Fraction(math.ulp(size))
    toward = exact - Fraction(math.nextafter(size, 0.0))
    text = repr(x)
    digits = len(re.sub(r"e.*|[^0-9]", "", text).lstrip("0"))
    while True:
        off = abs(Fraction(text)) - exact
        if abs(off) <= READ_BACK_MARGIN * (away if off > 0 else toward):
            return text if any(c in text for c in ".e") else text + ".0"
        digits += 1
        text = f"{x:.{digits}g}"


READ_BACK_MARGIN = Fraction(1, 2) - Fraction(1, 64)
"""How far (as a share of the gap to the neighbouring float) a written decimal may lie from the
float it stands for: a correctly rounded conversion reads back anything within half the gap."""


# ---------------------------------------------------------------------------------------------
# Python source
# ---------------------------------------------------------------------------------------------
_HELPERS = {
    "missing": (
        "    def missing(value):  # None, NaN or pandas' NA\n"
        "        try:\n"
        "            return value is None or bool(value != value)\n"
        "        except TypeError:\n"
        "            return True\n"
    ),
}


RESERVED = frozenset(dir(builtins)) | {"row", "missing", "math"}
"""Names a variable of the generated Python never takes: the built-in names (``float`` and
``bool`` are called by the function) and the function's own (its argument, its helper, the
module it imports)."""


def check_function_name(name) -> None:
    """``name`` as the name of :meth:`RuleSet.to_python`'s function, or a clear error."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"function_name must be a Python identifier, got {name!r}")
    spelled = unicodedata.normalize("NFKC", name)
    if spelled != name:
        raise ValueError(
            f"function_name {name!r} is spelled {spelled!r} by Python (it folds identifiers by "
            f"NFKC); use {spelled!r}"
        )
    if name in dir(builtins):
        raise ValueError(
            f"function_name {name!r} is a built-in name, which the function would hide from "
            "itself (it calls float and bool) or from the code that runs it; choose another"
        )


def variable_names(features: list[str], taken: set[str]) -> dict[str, str]:
    """A Python variable for each feature: its name made an identifier (``petal length (cm)``
    becomes ``petal_length_cm``, ``area (m²)`` ``area_m2``), never a keyword, a built-in or
    helper name (:data:`RESERVED`) nor a name in ``taken``, and each different as Python reads
    them: Python folds identifiers by NFKC (``ﬁ`` is ``fi``, ``ａ`` is ``a``), so every name is
    written folded. A clash adds ``_``, then ``_2``, ``_3``, ... (the search always ends).

    >>> variable_names(["petal length (cm)", "class", "2nd", "row", "ｒｏｗ", "ﬁ", "fi"], {"row"})
    {'petal length (cm)': 'petal_length_cm', 'class': 'class_', '2nd': 'x_2nd', 'row': 'row_', 'ｒｏｗ': 'row_2', 'ﬁ': 'fi', 'fi': 'fi_'}
    """
    names: dict[str, str] = {}
    used = {unicodedata.normalize("NFKC", t) for t in taken} | RESERVED
    for feature in features:
        base = _identifier(feature)
        name, n = base, 1
        while name in used or keyword.iskeyword(name):
            n += 1
            name = base + ("_" if n == 2 else f"_{n - 1}")
        used.add(name)
        names[feature] = name
    return names


def _identifier(feature) -> str:
    """A feature's name as an identifier in NFKC form: lower case, each run of characters an
    identifier cannot hold made one ``_``, ``x_`` before a leading digit, ``x`` if nothing is
    left (and plain ASCII letters, digits and ``_`` where Unicode would not settle)."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", str(feature)).lower())
    kept = "".join(c if ("_" + c).isidentifier() else " " for c in text)
    name = unicodedata.normalize("NFKC", re.sub(r"[\s_]+", "_", kept).strip("_")) or "x"
    if not name[0].isidentifier():
        name = "x_" + name
    if not name.isidentifier() or unicodedata.normalize("NFKC", name) != name:
        name = re.sub(r"[^0-9a-z_]+", "_", name).strip("_") or "x"
        name = "x_" + name if name[0].isdigit() else name
    return name


def python_source(rules: RuleSet, function_name: str) -> str:
    """The source of :meth:`RuleSet.to_python`."""
    features = list(rules.numeric)
    var = variable_names(features, {"row", "missing", "math", function_name})
    written = _writer()
    lines = [
        f"def {function_name}(row):",
        '    """Predict one row, a dict of column name -> value (None, NaN or pandas\' NA for a',
        f"    missing value), by the {_count_words(len(rules.rules), 'rule')} of an ID3 tree "
        "(one per leaf) and",
        f"    {_count_words(len(rules.stops), 'stop rule')}. A row meets exactly one rule.",
        '    """',
    ]
    if features:
        if any(rules.numeric.values()):
            lines.append("    import math")
            lines.append("")
        lines.append(_HELPERS["missing"])
    for feature in features:
        read = f"row[{_key_literal(rules.keys.get(feature, feature))}]"
        if rules.numeric[feature]:
            lines.append(f"    {var[feature]} = math.nan if missing({read}) else float({read})")
        else:
            lines.append(f"    {var[feature]} = None if missing({read}) else {read}")
    if features:
        lines.append("")
    for i, rule in enumerate(rules.all_rules, start=1):
        lines.append(f"    # {_rule_comment(rule, i)}")
        answer = python_literal(rule.prediction)
        if not rule.conditions:
            lines.append(f"    return {answer}")
            break
        tests = " and ".join(
            written(c, lambda c: _python_test(c, var[c.feature])) for c in rule.conditions
        )
        lines += [f"    if {tests}:", f"        return {answer}"]
    else:
        lines.append("    return None  # not reached: every row meets one rule above")
    return "\n".join(lines) + "\n"


def _key_literal(key) -> str:
    """The key of a row's dict as Python source: a column's label (``'petal length'``, ``0``,
    ``1.5``, ``True``, ``('a', 1)``), or its text where the label has no literal."""
    if isinstance(key, tuple):
        return "(" + "".join(_key_literal(k) + ", " for k in key).rstrip(" ") + ")"
    try:
        return python_literal(key)
    except ValueError:
        return repr(str(key))


def _row_number_name(table: str, features) -> str:
    """SQLite's row number, ``"table".rowid``: qualified, so that no column of the result (the
    prediction's, say) is taken for it, and named ``_rowid_`` or ``oid`` when a feature is
    called ``rowid`` (a column hides the name); an error when features hide all three."""
    taken = {f.lower() for f in features}
    free = [n for n in ("rowid", "_rowid_", "oid") if n not in taken]
    if not free:
        raise ValueError(
            "the table has columns named rowid, _rowid_ and oid, which hide SQLite's row "
            "number: pass order_by= the name of a column that numbers the rows, or None"
        )
    return f"{quote_identifier(table)}.{free[0]}"


def _writer():
    """``written(condition, write)``: ``write(condition)``, made once per condition (rules share
    the conditions of their common paths)."""
    texts: dict[int, str] = {}

    def written(condition, write) -> str:
        key = id(condition)
        if key not in texts:
            texts[key] = write(condition)
        return texts[key]

    return written


def _python_test(condition: Condition, var: str) -> str:
    text = condition.python(var)
    return f"({text})" if isinstance(condition, NotIn) and " and " in text else text


def _rule_comment(rule: Rule, i: int) -> str:
    """A comment line for a rule: numbers only (labels may hold newlines)."""
    if rule.kind == "stop":
        return f"stop at node {rule.node}: {rule.support_text()}"
    return f"rule {i}: {rule.support_text()}"


# ---------------------------------------------------------------------------------------------
# SQL
# ---------------------------------------------------------------------------------------------
def quote_identifier(name: str) -> str:
    """An SQL identifier in double quotes (standard SQL), inner double quotes doubled.

    >>> print(quote_identifier("petal length"), quote_identifier("order"), quote_identifier('a"b'))
    "petal length" "order" "a""b"
    """
    if "\x00" in name:
        raise ValueError(f"the name {name!r} holds a NUL character, which SQL cannot quote")
    return '"' + name.replace('"', '""') + '"'


def sql_query(rules: RuleSet, table: str, column: str, order_by: str | None) -> str:
    """The query of :meth:`RuleSet.to_sql`."""
    written = _writer()
    lines = ["SELECT", "  *,"]
    if len(rules.all_rules) == 1 and not rules.all_rules[0].conditions:
        lines.append(f"  {sql_literal(rules.rules[0].prediction)} AS {quote_identifier(column)}")
    else:
        lines.append("  CASE")
        for i, rule in enumerate(rules.all_rules, start=1):
            tests = " AND ".join(
                written(c, lambda c: c.sql(quote_identifier(c.feature))) for c in rule.conditions
            )
            lines.append(f"    -- {_rule_comment(rule, i)}")
            lines.append(f"    WHEN {tests} THEN {sql_literal(rule.prediction)}")
        lines.append(f"  END AS {quote_identifier(column)}")
    lines.append(f"FROM {quote_identifier(table)}")
    if order_by == "rowid":
        lines.append(f"ORDER BY {_row_number_name(table, rules.features + list(rules.numeric))}")
    elif order_by is not None:
        lines.append(f"ORDER BY {quote_identifier(order_by)}")
    return "\n".join(lines) + ";\n"
