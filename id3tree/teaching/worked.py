"""Worked solutions: the hand calculation an answer key shows, with exact fractions.

For each node: the entropy of its rows written out, then for every feature one row per branch
(samples, class counts, entropy, weight, weight x entropy: the table of a hand calculation), the
entropy of every branch written out, the weighted sum, the gain (and with
``criterion="gain_ratio"`` the split information and the ratio), for a numeric feature every
candidate threshold with its overall entropy and the chosen midpoint "between a and b", and the
decision.

Every set is named by the tests that define it: ``S`` holds all the training rows,
``S_{Outlook=Rain}`` those with Outlook = Rain, ``S_{Outlook=Rain, Wind=Weak}`` those of them
with Wind = Weak. Every equation follows :mod:`id3tree.base.pencil`: its result is the exact value
rounded to four places, and its sign is ``=`` only when the numbers printed on its left give the
printed result by hand (else ``≈``, explained once at the top).

Three notations of the same solution:

* ``format="markdown"``: Markdown with the formulas in plain text (a terminal, a ``.md`` file);
  Jupyter and the documentation show :meth:`WorkedSolution.math`, the same Markdown with the
  formulas typeset as mathematics;
* ``format="latex"``: a complete LaTeX document that pdflatex compiles as it comes (A4, no
  package beyond ``geometry`` and ``tabularx``, labels escaped by :func:`id3tree.base.latex.latex_escape`);
  ``.body`` is the part inside ``document``, for a document of one's own (with ``tabularx``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from id3tree.base import pencil
from id3tree.base.entropy import measuring
from id3tree.base.language import Language, current, speaking
from id3tree.base.latex import latex_escape
from id3tree.base.words import class_name, format_number, tie_order
from id3tree.engine.stopping import REASONS
from id3tree.model.node import class_tie_note
from id3tree.teaching.record import (
    Branch,
    CandidateTable,
    NodeInfo,
    TeachingRecord,
    excluded_words,
    path_subset,
)
from id3tree.teaching.steps import counts_text, label_words, samples, was_scored
from id3tree.trace.lines import below_midpoint

__all__ = [
    "entropy_formula", "FORMATS", "latex_document", "LATEX_PACKAGES", "MAX_LISTED_THRESHOLDS",
    "path_name", "subset_name", "weighted_formula", "worked_solution", "WorkedSolution",
]  # fmt: skip

FORMATS = ("markdown", "latex")
MAX_LISTED_THRESHOLDS = 20
"""A numeric feature's candidate thresholds are listed one by one when there are at most this
many (an exercise always lists them all); else the solution says where to find them."""

LATEX_PACKAGES = ("tabularx",)
"""The packages the LaTeX body of a worked solution needs in a document of one's own."""


class WorkedSolution(str):
    """The solution text. Jupyter renders it: the Markdown with its formulas typeset as
    mathematics (:meth:`math`), or the LaTeX document in a code block.

    ``equations`` lists every equation printed, in order, as written in the solution's notation;
    for LaTeX, ``body`` is the document's body (to paste into a document that loads the
    packages of :data:`LATEX_PACKAGES`).
    """

    format: str = "markdown"
    equations: tuple = ()
    body: str = ""

    def __new__(cls, text: str, format: str = "markdown", *, equations=(), body="", math=None):
        obj = super().__new__(cls, text)
        obj.format, obj.equations, obj.body = format, tuple(equations), body or str(text)
        obj._math = math
        return obj

    def math(self) -> str:
        """The Markdown with every formula typeset (``$$ ... $$``, LaTeX notation), as Jupyter
        and the documentation site show it; the LaTeX document itself for ``format="latex"``."""
        maker = getattr(self, "_math", None)
        return str(self) if maker is None else maker()

    def _repr_markdown_(self) -> str:
        if self.format == "markdown":
            return self.math()
        return "```latex\n" + str(self) + "\n```"


def _md_escape(text) -> str:
    """Text made safe inside a Markdown table cell or paragraph (what would change its meaning
    is escaped; ``<=`` and intraword underscores read as they are)."""
    out = str(text).replace("\\", "\\\\").replace("\n", " ")
    for ch in "|*`$":
        out = out.replace(ch, "\\" + ch)
    out = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", out)
    return re.sub(r"(^|\s)_", r"\1\\_", out)


# Characters that would end or break a formula typeset in a browser (MathJax or MathML), with
# look-alikes that keep the label readable.
_MATH_TEXT = str.maketrans(
    {"\\": "∖", "{": "❴", "}": "❵", "$": "＄", "%": "％", "#": "＃", "&": "＆", "|": "∣"}
    | {"~": "∼", "^": "ˆ", "\n": " ", "\r": " ", "\t": " "}
)


class _Writer:
    """How one notation writes the pieces of a solution: the document (Markdown or LaTeX) and
    its formulas (plain text, or TeX), with exact fractions or decimals. It keeps every
    equation it writes and whether one of them needed ``≈``."""

    def __init__(self, format: str, tex: bool, exact: bool, listed: int | None):
        self.L: Language = current()  # the words and the decimal mark
        self.plain = format == "text"  # words as they are: no Markdown, no LaTeX
        self.latex = format == "latex"
        self.tex = tex
        self.exact = exact
        self.listed = listed
        self.equations: list[str] = []
        self.approx = False

    # words -------------------------------------------------------------------------------
    def text(self, value) -> str:
        if self.plain:
            return str(value)
        return latex_escape(value) if self.latex else _md_escape(value)

    def heading(self, text: str, level: int = 3) -> str:
        if self.latex:
            command = {2: "section*", 3: "subsection*", 4: "subsubsection*"}[level]
            return f"\\{command}{{{text}}}"
        return "#" * level + " " + text

    def bold(self, text: str) -> str:
        return f"\\textbf{{{text}}}" if self.latex else f"**{text}**"

    def code(self, text: str) -> str:
        return f"\\texttt{{{latex_escape(text)}}}" if self.latex else f"`{text}`"

    def le(self) -> str:
        """``<=`` in running text."""
        return "$\\le$" if self.latex else "<="

    def gt(self) -> str:
        """``>`` in running text."""
        return "$>$" if self.latex else ">"

    # numbers -----------------------------------------------------------------------------
    @staticmethod
    def num(value: float) -> str:
        return pencil.fixed(value)

    def dec(self, text: str) -> str:
        """A number written with a point (as the pencil reads it) as the page's words print it:
        with the language's decimal mark."""
        return self.L.number(text)

    def mdec(self, text: str) -> str:
        """:meth:`dec` inside a formula: TeX reads a comma as punctuation (a space after it),
        so a decimal comma is written ``{,}``."""
        if self.tex and self.L.decimal != ".":
            return text.replace(".", "{" + self.L.decimal + "}")
        return self.L.number(text)

    def frac_text(self, a: int, n: int) -> str:
        """A share as printed, in plain digits (what a pencil reads): ``5/14`` or ``0.3571``."""
        return f"{a}/{n}" if self.exact else self.num(a / n)

    def frac(self, a: int, n: int) -> str:
        if self.exact and self.tex:
            return f"\\frac{{{a}}}{{{n}}}"
        return self.mdec(self.frac_text(a, n))

    def mark(self, sign: str) -> str:
        """``=`` or ``≈`` (``\\approx``) between an expression and its result."""
        if sign == pencil.APPROX:
            self.approx = True
            return "\\approx" if self.tex else pencil.APPROX
        return "="

    def times(self) -> str:
        return " \\cdot " if self.tex else " × "

    # names of features, values and sets ---------------------------------------------------
    def name(self, label) -> str:
        if not self.tex:
            return self.text(label)
        text = latex_escape(label) if self.latex else str(label).translate(_MATH_TEXT)
        return f"\\textrm{{{text}}}"

    def subset(self, tests: list[tuple[str, tuple]]) -> str:
        """``S``, or ``S_{Outlook=Rain, Wind=Weak}``: the rows that pass every test."""
        if not tests:
            return "S"
        words = [self._test(feature, bounds) for feature, bounds in tests]
        separator = self.L.separator.rstrip()  # "," or ";"
        return "S_{" + (separator + ("\\ " if self.tex else " ")).join(words) + "}"

    def _test(self, feature: str, bounds: tuple) -> str:
        low, high, other = bounds
        name = self.name(feature)
        if other is not None:
            op, value = other
            if op == "missing":
                L = self.L
                if self.tex:
                    return f"{name}\\ \\textrm{{{L.gettext('missing')}}}"
                return L.line("{feature} is missing", feature=name)
            return f"{name}={self.name(value)}"
        le = "\\le " if self.tex else "<="
        low_text, high_text = (
            None if v is None else self.mdec(format_number(v)) for v in (low, high)
        )
        if low is not None and high is not None:
            return f"{low_text}<{name}{le}{high_text}"
        if low is not None:
            return f"{name}>{low_text}"
        return f"{name}{le}{high_text}"

    def symbol(self, name: str, subset: str, feature: str | None = None) -> str:
        """``H(S)``, ``H(S | Outlook)``, ``Gain(S, Outlook)``, in the notation's letters."""
        if name == "H":
            if feature is None:
                return f"H({subset})"
            bar = " \\mid " if self.tex else " | "
            return f"H({subset}{bar}{self.name(feature)})"
        head = f"\\mathrm{{{name}}}" if self.tex else name
        return f"{head}({subset}, {self.name(feature)})"

    # formulas ----------------------------------------------------------------------------
    def entropy_expr(self, counts) -> tuple[str, list[str]]:
        """``-(9/14) log2(9/14) - (5/14) log2(5/14)``, largest count first, and the shares as
        printed."""
        n = sum(counts)
        nonzero = sorted((c for c in counts if c), reverse=True)
        shares = [self.frac_text(c, n) for c in nonzero]
        terms, log = [], pencil.log_symbol(self.tex)  # (log2, or ln in nats)
        for c in nonzero:
            f = self.frac(c, n)
            if self.tex:
                terms.append(f"{f}{log}{f}")
            else:
                terms.append(f"({f}) {log}({f})" if self.exact else f"{f} {log}({f})")
        return " ".join(("-" if i == 0 else "- ") + t for i, t in enumerate(terms)), shares

    def entropy_text(self, counts) -> str:
        """The printed entropy of ``counts``: ``0`` for a pure set."""
        return (
            "0" if sum(1 for c in counts if c) <= 1 else self.num(Branch("", tuple(counts)).entropy)
        )

    def entropy_value(self, counts) -> str:
        """The entropy of ``counts`` written out (``... = 0.9710``), or ``0`` for a pure set."""
        result = self.entropy_text(counts)
        if result == "0":
            return "0"
        expr, shares = self.entropy_expr(counts)
        return f"{expr} {self.mark(pencil.entropy_sign(shares, result))} {self.mdec(result)}"

    def weighted_sum(self, weights: list[tuple[int, int]], values: list[str], result: str) -> str:
        """``w1 × v1 + w2 × v2 ... = result`` with each weight ``(a, n)`` as a share."""
        texts = [self.frac_text(a, n) for a, n in weights]
        terms = [
            f"{self.frac(a, n)}{self.times()}{self.mdec(v)}" for (a, n), v in zip(weights, values)
        ]
        sign = self.mark(pencil.weighted_sum_sign(texts, values, result))
        return f"{' + '.join(terms)} {sign} {self.mdec(result)}"

    def equation(self, body: str) -> str:
        """A displayed equation, kept in :attr:`equations`."""
        self.equations.append(body)
        if self.latex:  # in-line mathematics of its own paragraph: long sums break at + and =
            return f"{{\\raggedright\\noindent ${body}$\\par}}"
        return f"$$ {body} $$" if self.tex else body

    def inline(self, body: str) -> str:
        """An equation inside a sentence or a table cell, kept in :attr:`equations`."""
        self.equations.append(body)
        return f"${body}$" if self.tex else body

    # tables ------------------------------------------------------------------------------
    def table(self, header: list[str], rows: list[list[str]], align: str) -> str:
        """A table; ``X`` in ``align`` is a left column that takes the room left (LaTeX)."""
        if self.latex:
            lines = [
                "\\par\\medskip\\noindent{\\small",
                f"\\begin{{tabularx}}{{\\linewidth}}{{{align}}}",
                "\\hline",
                " & ".join(header) + " \\\\",
                "\\hline",
            ]
            lines.extend(" & ".join(r) + " \\\\" for r in rows)
            lines += ["\\hline", "\\end{tabularx}}\\par\\medskip"]
            return "\n".join(lines)
        marks = {"l": "---", "X": "---", "r": "---:", "c": ":---:"}
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks[a] for a in align) + "|"]
        lines.extend("| " + " | ".join(r) + " |" for r in rows)
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# one feature at one node
# ---------------------------------------------------------------------------------------------
def _branch_step(table: CandidateTable, branch: Branch) -> tuple:
    """The test of one branch, as a ``(feature, op, value)`` step of the path."""
    if branch.label == "missing":
        return table.feature, "missing", None
    if table.kind == "numeric":
        return table.feature, "<=" if branch.label.startswith("<=") else ">", table.threshold
    return table.feature, "=", branch.label


def _branch_label(w: _Writer, label: str) -> str:
    if label == "missing":
        word = w.L.gettext("missing")
        return f"\\textit{{{word}}}" if w.latex else f"*{word}*"
    for op, tex in (("<= ", "$\\le$ "), ("> ", "$>$ ")):
        if label.startswith(op):  # a numeric branch: its threshold with the decimal mark
            return (tex if w.latex else op) + w.text(w.dec(label[len(op) :]))
    return w.text(label)


def _branch_table(w: _Writer, record: TeachingRecord, table: CandidateTable) -> str:
    """One row per branch: samples, class counts, entropy, weight, weight × entropy."""
    L = w.L
    rows = []
    for b in table.branches:
        entropy = w.entropy_text(b.counts)
        weight = w.frac_text(b.n, table.n)
        if entropy == "0":
            product = "0"
        else:
            product = w.dec(w.num(b.n / table.n * b.entropy))
            if pencil.product_sign(weight, entropy, product) == pencil.APPROX:
                w.approx = True
                product = ("$\\approx$ " if w.latex else "≈ ") + product
        shown = f"${w.frac(b.n, table.n)}$" if w.latex else w.dec(weight)
        rows.append(
            [
                _branch_label(w, b.label),
                str(b.n),
                *map(str, b.counts),
                w.dec(entropy),
                shown,
                product,
            ]
        )
    entropy = L.gettext("entropy")
    header = [
        w.text(table.feature),
        L.gettext("samples"),
        *[w.text(class_name(c)) for c in record.classes],
        entropy,
        L.gettext("weight"),
        L.gettext("weight") + (" $\\times$ " if w.latex else " × ") + entropy,
    ]
    return w.table(header, rows, "X" + "r" * (len(header) - 1))


def _threshold_table(w: _Writer, record: TeachingRecord, table: CandidateTable) -> list[str]:
    """Every candidate cut of a numeric feature: the class counts on each side and the overall
    entropy of the cut, written out."""
    L = w.L
    missing = next((b for b in table.branches if b.label == "missing"), None)
    rows, blocked = [], False
    for t in table.thresholds:
        sides = [t.left, t.right] + ([missing.counts] if missing else [])
        weights = [(sum(s), table.n) for s in sides]
        values = [w.entropy_text(s) for s in sides]
        overall = w.weighted_sum(weights, values, w.num(t.overall_entropy))
        threshold = w.dec(format_number(t.threshold))
        if t.threshold == table.threshold:
            threshold = w.bold(threshold)
        if not t.allowed:
            threshold, blocked = threshold + "*", True
        between = L.line(
            "{low} and {high}", low=w.dec(format_number(t.low)), high=w.dec(format_number(t.high))
        )
        left, right = (L.join(list(map(str, side))) for side in (t.left, t.right))
        rows.append([threshold, between, left, right, w.inline(overall)])
    classes = L.join([w.text(class_name(c)) for c in record.classes])
    word = L.gettext("threshold")
    header = [
        word, L.gettext("between"), f"{w.le()} {word}", f"{w.gt()} {word}",
        L.gettext("overall entropy"),
    ]  # fmt: skip
    out = [
        L.line(
            "Every candidate threshold, with the class counts on each side (in the order "
            "{classes}) and the overall entropy of the cut (the lowest in bold):",
            classes=classes,
        ),
        w.table(header, rows, "rlrrX"),
    ]
    if missing:
        out.append(
            L.line("The last term of each sum is the {n} rows with no value.", n=str(missing.n))
        )
    if blocked:
        out.append(
            w.text(
                L.line(
                    "* a cut that leaves fewer than min_samples_leaf = {leaf} rows on one side: "
                    "not allowed.",
                    leaf=str(record.min_leaf),
                )
            )
        )
    return out


def _numeric_intro(w: _Writer, record: TeachingRecord, table: CandidateTable) -> list[str]:
    L = w.L
    name, allowed = table.feature, table.n_allowed_thresholds
    low, high, cut = (format_number(v) for v in (table.low, table.high, table.threshold))
    below = below_midpoint(low, high, cut)  # thresholds="c45": a training value below it
    m_low, m_high, m_cut = map(w.mdec, (low, high, cut))
    sign = w.mark(pencil.midpoint_sign(low, high, cut))
    midpoint = f"({m_low} + {m_high}) / 2 {sign} {m_cut}"
    if below is not None:
        midpoint = f"({m_low} + {m_high}) / 2 = {w.mdec(below)}, " + L.line(
            "C4.5's cut: the largest value {le} it, {cut}", le=w.le(), cut=m_cut
        )
    ties = table.n_tied_thresholds
    out = [
        L.line(
            "{name} (numeric): {n} {midpoints} between adjacent distinct values; the lowest "
            "overall entropy is at {feature} {le} {cut}, between {low} and {high}, their "
            "midpoint {midpoint}.",
            name=w.bold(w.text(name)),
            n=str(allowed),
            midpoints=L.words([allowed], "candidate midpoint", "candidate midpoints")[0],
            feature=w.text(name),
            le=w.le(),
            cut=w.dec(cut),
            low=w.dec(low),
            high=w.dec(high),
            midpoint=w.inline(midpoint),
        )  # fmt: skip
        + (" " + L.line("{n} cuts tie; the smallest is used.", n=str(ties)) if ties > 1 else "")
    ]
    n_cuts = len(table.thresholds)
    if w.listed is None or n_cuts <= w.listed:
        out.extend(_threshold_table(w, record, table))
    else:
        call = f'tree.candidate_table({table.node}, "{name}")'
        out.append(
            L.line(
                "{call} lists the {n} candidate thresholds and their overall entropies.",
                call=w.code(call),
                n=str(n_cuts),
            )
        )
    return out


def _feature_block(w: _Writer, record: TeachingRecord, info: NodeInfo, table: CandidateTable):
    L = w.L
    name = table.feature
    if not table.valid:
        return [
            L.line(
                "{name}: not a candidate here: {reason}.",
                name=w.bold(w.text(name)), reason=w.text(excluded_words(table)),
            )
        ]  # fmt: skip
    if table.kind == "numeric":
        out = _numeric_intro(w, record, table)
    else:
        k = len(table.branches)
        out = [
            L.line(
                "{name}: one branch per value ({k} {values}).",
                name=w.bold(w.text(name)), k=str(k), values=L.words([k], "value", "values")[0],
            )
        ]  # fmt: skip
    out.append(_branch_table(w, record, table))
    here = w.subset(info.subset())
    for b in table.branches:
        subset = w.subset(info.subset(_branch_step(table, b)))
        out.append(w.equation(f"{w.symbol('H', subset)} = {w.entropy_value(b.counts)}"))
    values = [w.entropy_text(b.counts) for b in table.branches]
    weights = [(b.n, table.n) for b in table.branches]
    overall, gain = w.num(table.overall_entropy), w.num(table.gain)
    conditional = w.symbol("H", here, name)
    out.append(w.equation(f"{conditional} = {w.weighted_sum(weights, values, overall)}"))
    parent = w.num(table.parent_entropy)
    sign = w.mark(pencil.difference_sign(parent, overall, gain))
    m_parent, m_overall, m_gain = map(w.mdec, (parent, overall, gain))
    out.append(
        w.equation(f"{w.symbol('Gain', here, name)} = {m_parent} - {m_overall} {sign} {m_gain}")
    )
    if record.criterion == "gain_ratio":
        split = w.symbol("SplitInfo", here, name)
        out.append(w.equation(f"{split} = {w.entropy_value([b.n for b in table.branches])}"))
        info_text, ratio = w.num(table.split_info), w.num(table.gain_ratio)
        sign = w.mark(pencil.quotient_sign(gain, info_text, ratio))
        quotient = f"{m_gain} / {w.mdec(info_text)} {sign} {w.mdec(ratio)}"
        out.append(w.equation(f"{w.symbol('GainRatio', here, name)} = {quotient}"))
    return out


# ---------------------------------------------------------------------------------------------
# one node
# ---------------------------------------------------------------------------------------------
def _leaf_words(w: _Writer, node) -> str:
    L = w.L
    reason = node.stop_reason or "no split"
    prediction = w.text(node.prediction)
    if reason.startswith("pure"):
        if node.n_samples == 1:
            return L.line(
                "The only sample is {prediction}: the node is pure, a leaf predicting "
                "{prediction}.",
                prediction=prediction,
            )
        return L.line(
            "All {n} samples are {prediction}: the node is pure, a leaf predicting {prediction}.",
            n=str(node.n_samples), prediction=prediction,
        )  # fmt: skip
    tie = class_tie_note(node.class_counts, node.prediction)
    words = L.phrase(reason, REASONS) if reason != "no split" else L.gettext("no split")
    return L.line(
        "A leaf ({reason}), predicting {prediction}", reason=w.text(words), prediction=prediction
    ) + (f"; {w.text(tie)}." if tie else ".")


def _decision(w: _Writer, record: TeachingRecord, node, tables: list[CandidateTable]) -> str:
    L = w.L
    decision = w.bold(L.gettext("Decision"))
    if node.is_leaf:
        reason = L.phrase(node.stop_reason or "", REASONS)
        return L.line(
            "{decision}: no split ({reason}); a leaf predicting {prediction}.",
            decision=decision, reason=w.text(reason), prediction=w.text(node.prediction),
        )  # fmt: skip
    score = L.gettext("gain ratio") if record.criterion == "gain_ratio" else L.gettext("gain")
    chosen = next(t for t in tables if t.chosen)
    branches = L.join([f"{w.text(label_words(b.label))} ({b.n})" for b in chosen.branches])
    tie = ""
    if chosen.tie:
        others = L.join([w.text(t.feature) for t in tables if t.tie and not t.chosen])
        tie = " " + L.line(
            "It ties with {others}; ties go to the feature that comes first in {order}.",
            others=others, order=tie_order(),
        )  # fmt: skip
    test = w.text(chosen.feature)
    if chosen.threshold is not None:
        test += f" {w.le()} {w.dec(format_number(chosen.threshold))}"
    return L.line(
        "{decision}: the highest {score} is {feature}'s ({value}), so node {node} splits on "
        "{test} into {branches}.{tie}",
        decision=decision, score=score, feature=w.text(chosen.feature),
        value=w.dec(w.num(chosen.score(record.criterion))), node=str(node.node_id), test=test,
        branches=branches, tie=tie,
    )  # fmt: skip


def _node_block(w: _Writer, record: TeachingRecord, node_id: int, level: int) -> list[str]:
    L = w.L
    info = record.info(node_id)
    n = info.node
    counts = counts_text(record.classes, n.class_counts.values())
    out = [
        w.heading(
            L.line(
                "Node {number} ({where}): {samples} ({counts})",
                number=str(n.node_id),
                where=w.text(info.where()),
                samples=samples(n.n_samples),
                counts=w.text(counts),
            ),
            level,
        )  # fmt: skip
    ]
    if not was_scored(record, info):
        return [*out, _leaf_words(w, n)]
    here = w.symbol("H", w.subset(info.subset()))
    out.append(w.equation(f"{here} = {w.entropy_value(list(n.class_counts.values()))}"))
    tables = record.tables(node_id)
    for table in tables:
        out.extend(_feature_block(w, record, info, table))
    out.append(_decision(w, record, n, tables))
    return out


# ---------------------------------------------------------------------------------------------
# the whole solution
# ---------------------------------------------------------------------------------------------
def _intro(w: _Writer, record: TeachingRecord) -> str:
    n = len(record.data.y)
    L = w.L
    text = L.line(
        "Every number below is computed from the exact fractions and rounded to four decimals "
        "only when printed. {logs} S is the set of all {n} training rows; a subscript keeps the "
        "rows that pass its tests.",
        logs=w.text(pencil.log_sentence()),
        n=str(n),
    )
    return text + (" " + w.text(L.gettext(pencil.LEGEND)) if w.approx else "")


def _write(record: TeachingRecord, node, w: _Writer) -> str:
    blocks = []
    if node is None:
        for info in record.infos:
            blocks.extend(_node_block(w, record, info.node_id, 3))
        head = [w.heading(w.L.gettext("Worked solution"), 2)]
    else:
        blocks.extend(_node_block(w, record, record.info(node).node_id, 3))
        head = []
    head.append(_intro(w, record))  # last: it says what ≈ means if the solution used it
    text = "\n\n".join(head + blocks) + "\n"
    return _ascii(text) if w.latex else text


def _ascii(text: str) -> str:
    """A LaTeX page's translated words in plain ASCII (``Soluci\\'{o}n``): every label is
    escaped already, so what is left beyond ASCII is the catalog's."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else latex_escape(c) for c in text)


def worked_solution(
    record: TeachingRecord, node=None, *, format: str = "markdown", exact: bool = True,
    max_thresholds: int | None = MAX_LISTED_THRESHOLDS,
) -> WorkedSolution:  # fmt: skip
    """The hand calculation of one node (``node`` = its id) or of the whole tree (None), in the
    language of the page (:func:`~id3tree.base.language.speaking`).

    ``max_thresholds``: a numeric feature's candidate thresholds are listed when there are at
    most this many (None: always).
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {format!r}")
    if node is not None:
        record.info(node)  # an unknown node is named before anything is written
    exact = bool(exact)
    w = _Writer(format, format == "latex", exact, max_thresholds)
    text = _write(record, node, w)
    if format == "latex":
        L = w.L
        if node is None:
            title = L.gettext("Worked solution")
        else:
            title = L.line("Worked solution: node {node}", node=str(node))
        return WorkedSolution(
            latex_document(text, title), "latex", equations=w.equations, body=text
        )
    spoken = w.L

    def math() -> str:
        with speaking(spoken), measuring(record.log_base, record.ties):  # (as when made)
            return _write(record, node, _Writer(format, True, exact, max_thresholds))

    return WorkedSolution(text, "markdown", equations=w.equations, math=math)


def latex_document(body: str, title: str = "Worked solution") -> str:
    """A LaTeX body as a complete A4 document (article class) that pdflatex compiles as it is.

    The body may use the packages of :data:`LATEX_PACKAGES`; the document is plain ASCII."""
    return (
        "\\documentclass[11pt,a4paper]{article}\n"
        "\\usepackage[margin=2cm]{geometry}\n"
        "\\usepackage{tabularx}\n"
        "\\setlength{\\parskip}{0.5ex}\n"
        f"\\title{{{latex_escape(title)}}}\n"
        "\\date{}\n"
        "\\begin{document}\n"
        "\\maketitle\n"
        f"{body}\n"
        "\\end{document}\n"
    )


# ---------------------------------------------------------------------------------------------
# single formulas in plain text (the grader's feedback)
# ---------------------------------------------------------------------------------------------
def _plain() -> _Writer:
    return _Writer("text", False, True, None)


def subset_name(info: NodeInfo, step: tuple | None = None) -> str:
    """The name of a node's rows in plain text (``S_{Outlook=Rain}``), as the solutions write
    it; with ``step`` (a ``(feature, op, value)`` test), the name of one branch of it."""
    return _plain().subset(info.subset(step))


def path_name(steps: Iterable[tuple]) -> str:
    """The name of the rows a path of ``(feature, op, value)`` tests lets through, as
    :func:`subset_name` writes a node's: ``S_{Wind=Weak, Hours<=3.5}``."""
    return _plain().subset(path_subset(steps))


def entropy_formula(counts) -> str:
    """``-(3/5) log2(3/5) - (2/5) log2(2/5) = 0.9710`` (or ``0`` for a pure set)."""
    return _plain().entropy_value(list(counts))


def weighted_formula(parts: list[tuple[int, int, tuple]], result: float) -> str:
    """``5/12 × 0.9710 + 7/12 × 0 = 0.4046``: each part ``(rows, of, class counts)``."""
    w = _plain()
    values = [w.entropy_text(counts) for _, _, counts in parts]
    return w.weighted_sum([(a, n) for a, n, _ in parts], values, w.num(result))
