"""Step through the growth of a tree, one node at a time, in reading order.

Each :class:`Step` is one node: where it hangs, its class counts and entropy, every feature's
best split there (the full candidate table), the decision and the reason. It prints as text and
shows in Jupyter as the candidate table beside a drawing of the tree grown so far, with the
current node outlined in red.

Steps are numbered from 0, the root, as ``tree.step(k)`` and ``list(tree.steps())[k]`` index
them: ``tree.step(3)`` shows "Step 3" and names ``tree.step(4)`` as the next.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from typing import Any

import pandas as pd

from id3tree.base.entropy import measures
from id3tree.base.language import Language, current, speaking
from id3tree.base.pencil import unit_note
from id3tree.base.words import format_count, format_counts, format_number, tie_order
from id3tree.engine.stopping import REASONS
from id3tree.model.node import class_tie_note
from id3tree.render.svg import tree_to_svg
from id3tree.teaching.record import CandidateTable, NodeInfo, TeachingRecord, excluded_words
from id3tree.trace.lines import cut_reason

__all__ = [
    "candidate_frame", "counts_text", "iter_steps", "label_words", "make_step", "samples", "Step",
    "was_scored",
]  # fmt: skip


def counts_text(classes, counts) -> str:
    """Class counts as the trace writes them: ``No: 5, Yes: 9`` (``class 0: 549`` for numbers)."""
    return format_counts(dict(zip(classes, counts)))


def samples(n: int) -> str:
    """``1 sample``, ``14 samples``, in the language of the page."""
    return f"{format_count(n)} {current().words([n], 'sample', 'samples')[0]}"


def was_scored(record: TeachingRecord, info: NodeInfo) -> bool:
    """Whether the learner scored the features at this node (a pure or too small node is not)."""
    if not info.node.is_leaf:
        return True
    if record.trace is not None:
        mine = record.trace[record.trace["node"] == info.node_id]
        return bool(mine["feature"].notna().any())
    reason = info.node.stop_reason or ""
    return not (reason.startswith("pure") or "max_depth" in reason or reason.startswith("fewer"))


def candidate_frame(record: TeachingRecord, tables: list[CandidateTable]) -> pd.DataFrame:
    """One row per feature: its best split, gain, gain ratio and a note."""
    L = current()
    rows = []
    for t in tables:
        if t.chosen:
            note = (
                L.line("chosen (tie broken by {order})", order=tie_order())
                if t.tie
                else L.gettext("chosen")
            )
        elif t.excluded:
            note = excluded_words(t) or ""
        elif t.tie:
            note = L.line("tied with the winner; it comes later in {order}", order=tie_order())
        else:
            note = ""
        between = (
            L.line(
                "between {low} and {high}",
                low=L.number(format_number(t.low)),
                high=L.number(format_number(t.high)),
            )
            if t.threshold is not None
            else ""
        )
        rows.append({
            "feature": t.feature, "split": _split_words(t), "between": between,
            "overall_entropy": t.overall_entropy, "gain": t.gain, "gain_ratio": t.gain_ratio,
            "note": note,
        })  # fmt: skip
    return pd.DataFrame(rows)


def _split_words(table: CandidateTable) -> str:
    """``<= 2.45`` for a numeric feature, ``3 branches`` for a categorical one, ``-`` if none."""
    if not table.valid:
        return "-"
    L = current()
    if table.kind == "numeric":
        return f"<= {L.number(format_number(table.threshold))}"
    n = len(table.branches)
    return f"{n} {L.words([n], 'branch', 'branches')[0]}"


@measures("candidates", "header", "__str__", "_repr_html_")  # (in the tree's unit)
@dataclass
class Step:
    """One node of the growth. ``str(step)`` is the text form; Jupyter shows ``_repr_html_``."""

    k: int
    n_steps: int
    info: NodeInfo
    classes: list
    criterion: str
    tables: list[CandidateTable]  # empty when the node was not scored
    decision: str
    reason: str
    _record: TeachingRecord
    language: Language | None = None  # the language of its words (None: the page's)

    @property
    def log_base(self) -> Any:
        """The unit of the tree's numbers: 2 (bits) or ``"e"`` (nats), as the model has it."""
        return self._record.log_base

    @property
    def ties(self) -> str:
        """The tie rule between features: ``"first"`` (column order) or ``"name"``."""
        return self._record.ties

    @property
    def node(self):
        return self.info.node

    @property
    def node_id(self) -> int:
        return self.info.node_id

    @property
    def candidates(self) -> pd.DataFrame:
        """The full candidate table: one row per feature (its notes in the step's language)."""
        with speaking(self.language):
            return candidate_frame(self._record, self.tables)

    def header(self) -> str:
        with speaking(self.language) as L:
            node, info = self.info.node, self.info
            where = (
                L.gettext("the root")
                if info.parent is None
                else L.line(
                    "{branch}, child of node {parent}",
                    branch=info.branch_words(),
                    parent=str(info.parent.node_id),
                )
            )
            counts = counts_text(self.classes, node.class_counts.values())
            return L.line(
                "Step {k} ({numbering}): node {node} ({where})\n{samples} ({counts}), entropy "
                "{entropy}",
                k=str(self.k),
                numbering=self.numbering(),
                node=str(node.node_id),
                where=where,
                samples=samples(node.n_samples),
                counts=counts,
                entropy=L.number(f"{node.entropy:.4f}"),
            ) + ("" if unit_note() is None else f"\n{unit_note()}")

    def numbering(self) -> str:
        """``steps 0 to 7``: steps are numbered as ``step(k)`` and ``list(steps())`` count them,
        from 0 (the root)."""
        with speaking(self.language) as L:
            if self.n_steps > 1:
                return L.line("steps 0 to {last}", last=str(self.n_steps - 1))
            return L.gettext("the only step")

    def _candidate_lines(self, L: Language) -> list[str]:
        frame = self.candidates
        lines = [L.gettext("candidates:")]
        width = max(len(t.feature) for t in self.tables)
        for _, row in frame.iterrows():
            split = row["split"] + (f" ({row['between']})" if row["between"] else "")
            gain = ""
            if not pd.isna(row["gain"]):
                gain = L.line("gain {gain}", gain=L.number(f"{row['gain']:.4f}"))
            if self.criterion == "gain_ratio" and not pd.isna(row["gain_ratio"]):
                ratio = L.number(f"{row['gain_ratio']:.4f}")
                gain += ", " + L.line("gain ratio {ratio}", ratio=ratio)
            note = f"  [{row['note']}]" if row["note"] else ""
            text = f"{split}, {gain}" if gain else L.gettext("not a candidate")
            lines.append(f"  {row['feature']:<{width}}  {text}{note}")
        return lines

    def __str__(self) -> str:
        with speaking(self.language) as L:
            lines = [self.header()]
            if self.tables:
                lines.extend(self._candidate_lines(L))
            lines.append(L.line("decision: {decision}", decision=self.decision))
            lines.append(L.line("why: {reason}", reason=self.reason))
            if self.k + 1 < self.n_steps:
                lines.append(L.line("next: tree.step({k})", k=str(self.k + 1)))
            return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def svg(self) -> str:
        """The tree grown so far (nodes up to this step), this node outlined in red; its words in
        the step's language."""
        shown = {info.node_id for info in self._record.infos[: self.k + 1]}
        with speaking(self.language):
            return tree_to_svg(
                self._record.root, classes=self.classes, shown=shown, highlight=self.node_id
            )

    def _repr_html_(self) -> str:
        with speaking(self.language) as L:
            return self._html(L)

    def _html(self, L: Language) -> str:
        head = "<br>".join(escape(line) for line in self.header().split("\n"))
        if self.tables:
            frame = self.candidates.copy()
            for column in ("overall_entropy", "gain", "gain_ratio"):
                frame[column] = frame[column].map(
                    lambda v: "" if pd.isna(v) else L.number(f"{v:.4f}")
                )
            table = frame.to_html(index=False, escape=True, border=0)
        else:
            table = f"<p><em>{escape(L.gettext('No feature was scored here.'))}</em></p>"
        step = L.line("step {k} ({numbering})", k=str(self.k), numbering=self.numbering())
        nav = (
            f"<p style='color:#666'>{escape(step)}"
            + (
                f" &middot; {escape(L.gettext('next:'))} <code>tree.step({self.k + 1})</code>"
                if self.k + 1 < self.n_steps
                else ""
            )
            + "</p>"
        )
        decision, why = escape(L.gettext("Decision:")), escape(L.gettext("Why:"))
        return (
            "<div class='id3tree-step' style='display:flex;gap:1.5em;align-items:flex-start;"
            "flex-wrap:wrap'>"
            f"<div style='max-width:48em'><p><strong>{head}</strong></p>{table}"
            f"<p><strong>{decision}</strong> {escape(self.decision)}<br>"
            f"<strong>{why}</strong> {escape(self.reason)}</p>{nav}</div>"
            f"<div style='overflow:auto;max-width:100%'>{self.svg()}</div></div>"
        )


def label_words(label: str) -> str:
    """A branch's label in the page's language: ``missing``, ``<= 2,45``, or a value as it is."""
    L = current()
    if label == "missing":
        return L.gettext("missing")
    for op in ("<= ", "> "):
        if label.startswith(op):
            return op + L.number(label[len(op) :])
    return label


def _leaf_decision(node) -> tuple[str, str]:
    L = current()
    decision = L.line("leaf: predict {prediction}", prediction=str(node.prediction))
    reason = L.phrase(node.stop_reason, REASONS) if node.stop_reason else L.gettext("no split")
    tie = class_tie_note(node.class_counts, node.prediction)
    if tie:
        reason += f"; {tie}"
    return decision, reason


def _decision(record: TeachingRecord, info: NodeInfo, tables) -> tuple[str, str]:
    node = info.node
    if node.is_leaf:
        return _leaf_decision(node)
    L = current()
    chosen = next(t for t in tables if t.chosen)
    score_name = L.gettext("gain ratio") if record.criterion == "gain_ratio" else L.gettext("gain")
    branches = L.join([f"{label_words(b.label)} ({b.n})" for b in chosen.branches])
    test = chosen.feature
    if chosen.kind == "numeric" and chosen.threshold is not None:
        test += f" <= {L.number(format_number(chosen.threshold))}"
    decision = L.line("split on {test} into {branches}", test=test, branches=branches)
    n = len([t for t in tables if t.valid])
    reason = L.line(
        "{feature} has the highest {score} ({value}) of the {n} {features} that can split here",
        feature=chosen.feature, score=score_name,
        value=L.number(f"{chosen.score(record.criterion):.4f}"), n=str(n),
        features=L.words([n], "feature", "features")[0],
    )  # fmt: skip
    if chosen.tie:
        tied = L.join([t.feature for t in tables if t.tie and not t.chosen])
        reason += "; " + L.line(
            "it ties with {tied} and comes first in {order}", tied=tied, order=tie_order()
        )
    if chosen.threshold is not None:
        reason += "; " + L.line(
            "its threshold {threshold} is {where}, the cut of lowest overall entropy",
            threshold=L.number(format_number(chosen.threshold)),
            where=cut_reason(*map(format_number, (chosen.low, chosen.high, chosen.threshold))),
        )
        if chosen.n_tied_thresholds > 1:
            ties = str(chosen.n_tied_thresholds)
            reason += " " + L.line("({n} cuts tie: the smallest is used)", n=ties)
    return decision, reason


def make_step(record: TeachingRecord, k: int) -> Step:
    n = len(record.infos)
    if isinstance(k, bool) or not isinstance(k, int):
        raise ValueError(f"k must be an integer step number, got {k!r}")
    if not -n <= k < n:
        raise ValueError(f"this tree has {n} steps (0 to {n - 1}), got step {k}")
    k %= n
    info = record.infos[k]
    tables = record.tables(info.node_id) if was_scored(record, info) else []
    decision, reason = _decision(record, info, tables)
    return Step(
        k, n, info, record.classes, record.criterion, tables, decision, reason, record, current()
    )


def iter_steps(record: TeachingRecord) -> Iterator[Step]:
    """Every step in reading order, each written in the language of the page that asked for
    them (the language around this call, not the one around each ``next``)."""
    spoken = current()

    def walk() -> Iterator[Step]:
        for k in range(len(record.infos)):
            with speaking(spoken):
                step = make_step(record, k)
            yield step

    return walk()
