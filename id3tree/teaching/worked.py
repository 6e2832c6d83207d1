"""Worked solutions: the hand calculation an answer key shows, with exact fractions.

For each node: the entropy of the node written out, then for every feature one row per branch
(samples, class counts, entropy, weight, weighted entropy: the table of a hand calculation), the
weighted sum, the gain (and with ``criterion="gain_ratio"`` the split information and the ratio),
for a numeric feature the chosen midpoint "between a and b", and the decision. Markdown (which
Jupyter renders) or LaTeX (a fragment; :func:`latex_document` makes it a document).

The numbers come from the same integer counts as the step-through and the trace; only the
printed values are rounded, at the end.
"""

from __future__ import annotations

import re

from id3tree.latex import latex_escape
from id3tree.node import class_name, class_tie_note, format_number
from id3tree.teaching.record import Branch, CandidateTable, TeachingRecord
from id3tree.teaching.steps import counts_text, samples, was_scored

FORMATS = ("markdown", "latex")


class WorkedSolution(str):
    """The solution text; Jupyter renders it (Markdown, or LaTeX in a code block)."""

    format: str = "markdown"

    def __new__(cls, text: str, format: str = "markdown"):
        obj = super().__new__(cls, text)
        obj.format = format
        return obj

    def _repr_markdown_(self) -> str:
        if self.format == "markdown":
            return str(self)
        return "```latex\n" + str(self) + "\n```"


def _md_escape(text) -> str:
    """Text made safe inside a Markdown table cell or paragraph (what would change its meaning
    is escaped; ``<=`` and intraword underscores read as they are)."""
    out = str(text).replace("\\", "\\\\").replace("\n", " ")
    for ch in "|*`":
        out = out.replace(ch, "\\" + ch)
    out = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", out)
    return re.sub(r"(^|\s)_", r"\1\\_", out)


class _Writer:
    """How one format writes the pieces of a solution."""

    def __init__(self, format: str, exact: bool, decimals: int = 4):
        self.latex = format == "latex"
        self.exact = exact
        self.decimals = decimals

    # words -------------------------------------------------------------------------------
    def text(self, value) -> str:
        return latex_escape(value) if self.latex else _md_escape(value)

    def num(self, value: float) -> str:
        return f"{value:.{self.decimals}f}"

    def heading(self, text: str, level: int = 3) -> str:
        if self.latex:
            command = {2: "section*", 3: "subsection*", 4: "subsubsection*"}[level]
            return f"\\{command}{{{text}}}"
        return "#" * level + " " + text

    def bold(self, text: str) -> str:
        return f"\\textbf{{{text}}}" if self.latex else f"**{text}**"

    def para(self, text: str) -> str:
        return text

    # mathematics -------------------------------------------------------------------------
    def frac(self, a: int, n: int) -> str:
        if not self.exact:
            return self.num(a / n)
        return f"\\frac{{{a}}}{{{n}}}" if self.latex else f"{a}/{n}"

    def term(self, a: int, n: int) -> str:
        """``(a/n) log2(a/n)``."""
        if self.latex:
            f = self.frac(a, n)
            return f"{f}\\log_2{f}"
        f = self.frac(a, n)
        return f"({f}) log2({f})" if self.exact else f"{f} log2({f})"

    def entropy_expr(self, counts) -> str:
        """``-(9/14) log2(9/14) - (5/14) log2(5/14)``, largest count first."""
        n = sum(counts)
        nonzero = sorted((c for c in counts if c), reverse=True)
        return " ".join(("-" if i == 0 else "- ") + self.term(c, n) for i, c in enumerate(nonzero))

    def entropy_value(self, counts) -> str:
        """The entropy of ``counts``, written out unless the set is pure."""
        nonzero = [c for c in counts if c]
        if len(nonzero) <= 1:
            return "0"
        return f"{self.entropy_expr(counts)} = {self.num(Branch('', tuple(counts)).entropy)}"

    def times(self) -> str:
        return " \\cdot " if self.latex else " × "

    def math(self, body: str) -> str:
        """A displayed formula."""
        return f"\\[ {body} \\]" if self.latex else body

    def symbol(self, name: str, *args: str) -> str:
        """``H(S)``, ``H(S | Outlook)``, ``Gain(S, Outlook)``."""
        if self.latex:
            args = [a.replace("|", "\\mid") for a in args]
            inner = ", ".join(args)
            return f"\\mathrm{{{name}}}({inner})" if name != "H" else f"H({inner})"
        return f"{name}({', '.join(args)})"

    def name(self, feature: str) -> str:
        return f"\\text{{{latex_escape(feature)}}}" if self.latex else feature

    # tables ------------------------------------------------------------------------------
    def table(self, header: list[str], rows: list[list[str]], align: str) -> str:
        if self.latex:
            lines = [f"\\begin{{tabular}}{{{align}}}", "\\hline"]
            lines.append(" & ".join(header) + " \\\\")
            lines.append("\\hline")
            lines.extend(" & ".join(r) + " \\\\" for r in rows)
            lines += ["\\hline", "\\end{tabular}"]
            return "\\begin{center}\n" + "\n".join(lines) + "\n\\end{center}"
        marks = {"l": "---", "r": "---:", "c": ":---:"}
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks[a] for a in align) + "|"]
        lines.extend("| " + " | ".join(r) + " |" for r in rows)
        return "\n".join(lines)

    def cell_math(self, body: str) -> str:
        return f"${body}$" if self.latex else body


def _branch_rows(w: _Writer, table: CandidateTable) -> list[list[str]]:
    rows = []
    for b in table.branches:
        label = w.text(b.label)
        if w.latex and b.label.startswith("<= "):
            label = "$\\le$ " + w.text(b.label[3:])
        elif w.latex and b.label.startswith("> "):
            label = "$>$ " + w.text(b.label[2:])
        if b.label == "missing":
            label = "\\textit{missing}" if w.latex else "*missing*"
        rows.append(
            [
                label,
                str(b.n),
                *[str(c) for c in b.counts],
                w.cell_math(w.entropy_value(b.counts)),
                w.cell_math(w.frac(b.n, table.n)),
                w.num(b.n / table.n * b.entropy),
            ]
        )
    return rows


def _feature_block(w: _Writer, record: TeachingRecord, table: CandidateTable) -> list[str]:
    name = table.feature
    out = []
    if not table.valid:
        out.append(
            w.para(f"{w.bold(w.text(name))}: not a candidate here: {w.text(table.excluded)}.")
        )
        return out
    if table.kind == "numeric":
        allowed = table.n_allowed_thresholds
        out.append(
            w.para(
                f"{w.bold(w.text(name))} (numeric): {allowed} candidate "
                f"midpoint{'s' * (allowed != 1)} between adjacent distinct values; the lowest "
                f"overall entropy is at {w.text(name)} "
                + ("$\\le$ " if w.latex else "<= ")
                + f"{format_number(table.threshold)}, between {format_number(table.low)} and "
                f"{format_number(table.high)} (the midpoint "
                f"({format_number(table.low)} + {format_number(table.high)}) / 2)."
                + (
                    f" {table.n_tied_thresholds} cuts tie; the smallest is used."
                    if table.n_tied_thresholds > 1
                    else ""
                )
            )
        )
    else:
        k = len(table.branches)
        out.append(w.para(f"{w.bold(w.text(name))}: one branch per value ({k} values)."))
    header = [
        w.text(name),
        "samples",
        *[w.text(class_name(c)) for c in record.classes],
        "entropy",
        "weight",
        "weighted entropy",
    ]
    align = "l" + "r" * (len(header) - 1)
    out.append(w.table(header, _branch_rows(w, table), align))
    parts = []
    for b in table.branches:
        value = "0" if b.entropy == 0 else w.num(b.entropy)
        parts.append(f"{w.frac(b.n, table.n)}{w.times()}{value}")
    s = "S"
    cond = w.symbol("H", f"{s} | {w.name(name)}")
    out.append(w.math(f"{cond} = {' + '.join(parts)} = {w.num(table.overall_entropy)}"))
    gain = w.symbol("Gain", s, w.name(name))
    out.append(
        w.math(
            f"{gain} = {w.num(table.parent_entropy)} - {w.num(table.overall_entropy)} = "
            f"{w.num(table.gain)}"
        )
    )
    if record.criterion == "gain_ratio":
        split = w.symbol("SplitInfo", s, w.name(name))
        sizes = [b.n for b in table.branches]
        out.append(w.math(f"{split} = {w.entropy_value(sizes)}"))
        ratio = w.symbol("GainRatio", s, w.name(name))
        out.append(
            w.math(
                f"{ratio} = {w.num(table.gain)} / {w.num(table.split_info)} = {w.num(table.gain_ratio)}"
            )
        )
    return out


def _node_block(w: _Writer, record: TeachingRecord, node_id: int, level: int) -> list[str]:
    info = record.info(node_id)
    n = info.node
    where = "the root" if info.parent is None else " and ".join(info.path)
    counts = counts_text(record.classes, n.class_counts.values())
    title = f"Node {n.node_id} ({w.text(where)}): {samples(n.n_samples)} ({w.text(counts)})"
    out = [w.heading(title, level)]
    if not was_scored(record, info):
        reason = n.stop_reason or "no split"
        if reason.startswith("pure"):
            who = "The only sample is" if n.n_samples == 1 else f"All {n.n_samples} samples are"
            out.append(
                w.para(
                    f"{who} {w.text(n.prediction)}: the node is pure, a leaf predicting "
                    f"{w.text(n.prediction)}."
                )
            )
        else:
            tie = class_tie_note(n.class_counts, n.prediction)
            out.append(
                w.para(
                    f"A leaf ({w.text(reason)}), predicting {w.text(n.prediction)}"
                    + (f"; {w.text(tie)}." if tie else ".")
                )
            )
        return out
    out.append(w.para("Entropy of the node:"))
    out.append(w.math(f"{w.symbol('H', 'S')} = {w.entropy_value(list(n.class_counts.values()))}"))
    tables = record.tables(node_id)
    for table in tables:
        out.extend(_feature_block(w, record, table))
    score = "gain ratio" if record.criterion == "gain_ratio" else "gain"
    if n.is_leaf:
        out.append(
            w.para(
                f"{w.bold('Decision')}: no split ({w.text(n.stop_reason or '')}); a leaf "
                f"predicting {w.text(n.prediction)}."
            )
        )
    else:
        chosen = next(t for t in tables if t.chosen)
        branches = ", ".join(f"{w.text(b.label)} ({b.n})" for b in chosen.branches)
        tie = ""
        if chosen.tie:
            others = ", ".join(w.text(t.feature) for t in tables if t.tie and not t.chosen)
            tie = (
                f" It ties with {others}; ties go to the feature that comes first in column order."
            )
        test = w.text(chosen.feature)
        if chosen.threshold is not None:
            test += (" $\\le$ " if w.latex else " <= ") + format_number(chosen.threshold)
        out.append(
            w.para(
                f"{w.bold('Decision')}: the highest {score} is {w.text(chosen.feature)}'s "
                f"({w.num(chosen.score(record.criterion))}), so node {n.node_id} splits on "
                f"{test} into {branches}.{tie}"
            )
        )
    return out


def worked_solution(
    record: TeachingRecord, node=None, *, format: str = "markdown", exact: bool = True
) -> WorkedSolution:
    """The hand calculation of one node (``node`` = its id) or of the whole tree (None)."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {format!r}")
    w = _Writer(format, bool(exact))
    blocks = []
    if node is None:
        blocks.append(w.heading("Worked solution", 2))
        blocks.append(
            w.para(
                "Every number below is computed from the exact fractions and rounded to four "
                "decimals only when printed. Logarithms are base 2."
            )
        )
        for info in record.infos:
            blocks.extend(_node_block(w, record, info.node_id, 3))
    else:
        blocks.extend(_node_block(w, record, record.info(node).node_id, 3))
    return WorkedSolution("\n\n".join(blocks) + "\n", format)


def latex_document(body: str, title: str = "Worked solution") -> str:
    """A LaTeX fragment as a complete document (article class, amsmath)."""
    return (
        "\\documentclass[11pt]{article}\n"
        "\\usepackage[T1]{fontenc}\n"
        "\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{amsmath}\n"
        "\\usepackage[margin=2cm]{geometry}\n"
        f"\\title{{{latex_escape(title)}}}\n"
        "\\date{}\n"
        "\\begin{document}\n"
        "\\maketitle\n"
        f"{body}\n"
        "\\end{document}\n"
    )
