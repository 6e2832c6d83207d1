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
from id3tree.base.pencil import unit_note
from id3tree.base.words import format_counts, format_number, plural, tie_order
from id3tree.model.node import class_tie_note
from id3tree.render.svg import tree_to_svg
from id3tree.teaching.record import CandidateTable, NodeInfo, TeachingRecord
from id3tree.trace.lines import cut_reason

__all__ = [
    "candidate_frame", "counts_text", "iter_steps", "make_step", "samples", "Step", "was_scored",
]  # fmt: skip


def counts_text(classes, counts) -> str:
    """Class counts as the trace writes them: ``No: 5, Yes: 9`` (``class 0: 549`` for numbers)."""
    return format_counts(dict(zip(classes, counts)))


def samples(n: int) -> str:
    return plural(n, "sample")


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
    rows = []
    for t in tables:
        if t.chosen:
            note = "chosen" + (f" (tie broken by {tie_order()})" if t.tie else "")
        elif t.excluded:
            note = t.excluded
        elif t.tie:
            note = f"tied with the winner; it comes later in {tie_order()}"
        else:
            note = ""
        between = (
            f"between {format_number(t.low)} and {format_number(t.high)}"
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
    if table.kind == "numeric":
        return f"<= {format_number(table.threshold)}"
    return f"{len(table.branches)} branches"


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
        """The full candidate table: one row per feature."""
        return candidate_frame(self._record, self.tables)

    def header(self) -> str:
        node, info = self.info.node, self.info
        where = (
            "the root"
            if info.parent is None
            else f"{info.branch}, child of node {info.parent.node_id}"
        )
        return (
            f"Step {self.k} ({self.numbering()}): node {node.node_id} ({where})\n"
            f"{samples(node.n_samples)} ({counts_text(self.classes, node.class_counts.values())}), "
            f"entropy {node.entropy:.4f}" + ("" if unit_note() is None else f"\n{unit_note()}")
        )

    def numbering(self) -> str:
        """``steps 0 to 7``: steps are numbered as ``step(k)`` and ``list(steps())`` count them,
        from 0 (the root)."""
        return f"steps 0 to {self.n_steps - 1}" if self.n_steps > 1 else "the only step"

    def __str__(self) -> str:
        lines = [self.header()]
        if self.tables:
            frame = self.candidates
            lines.append("candidates:")
            width = max(len(t.feature) for t in self.tables)
            for _, row in frame.iterrows():
                split = row["split"] + (f" ({row['between']})" if row["between"] else "")
                gain = "" if pd.isna(row["gain"]) else f"gain {row['gain']:.4f}"
                if self.criterion == "gain_ratio" and not pd.isna(row["gain_ratio"]):
                    gain += f", gain ratio {row['gain_ratio']:.4f}"
                note = f"  [{row['note']}]" if row["note"] else ""
                text = f"{split}, {gain}" if gain else "not a candidate"
                lines.append(f"  {row['feature']:<{width}}  {text}{note}")
        lines.append(f"decision: {self.decision}")
        lines.append(f"why: {self.reason}")
        if self.k + 1 < self.n_steps:
            lines.append(f"next: tree.step({self.k + 1})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def svg(self) -> str:
        """The tree grown so far (nodes up to this step), this node outlined in red."""
        shown = {info.node_id for info in self._record.infos[: self.k + 1]}
        return tree_to_svg(
            self._record.root, classes=self.classes, shown=shown, highlight=self.node_id
        )

    def _repr_html_(self) -> str:
        head = "<br>".join(escape(line) for line in self.header().split("\n"))
        if self.tables:
            frame = self.candidates.copy()
            for column in ("overall_entropy", "gain", "gain_ratio"):
                frame[column] = frame[column].map(lambda v: "" if pd.isna(v) else f"{v:.4f}")
            table = frame.to_html(index=False, escape=True, border=0)
        else:
            table = "<p><em>No feature was scored here.</em></p>"
        nav = (
            f"<p style='color:#666'>step {self.k} ({self.numbering()})"
            + (
                f" &middot; next: <code>tree.step({self.k + 1})</code>"
                if self.k + 1 < self.n_steps
                else ""
            )
            + "</p>"
        )
        return (
            "<div class='id3tree-step' style='display:flex;gap:1.5em;align-items:flex-start;"
            "flex-wrap:wrap'>"
            f"<div style='max-width:48em'><p><strong>{head}</strong></p>{table}"
            f"<p><strong>Decision:</strong> {escape(self.decision)}<br>"
            f"<strong>Why:</strong> {escape(self.reason)}</p>{nav}</div>"
            f"<div style='overflow:auto;max-width:100%'>{self.svg()}</div></div>"
        )


def _decision(record: TeachingRecord, info: NodeInfo, tables) -> tuple[str, str]:
    node = info.node
    if node.is_leaf:
        decision = f"leaf: predict {node.prediction}"
        reason = node.stop_reason or "no split"
        tie = class_tie_note(node.class_counts, node.prediction)
        if tie:
            reason += f"; {tie}"
        return decision, reason
    chosen = next(t for t in tables if t.chosen)
    score_name = "gain ratio" if record.criterion == "gain_ratio" else "gain"
    branches = ", ".join(f"{b.label} ({b.n})" for b in chosen.branches)
    decision = f"split on {chosen.test} into {branches}"
    valid = [t for t in tables if t.valid]
    reason = (
        f"{chosen.feature} has the highest {score_name} ({chosen.score(record.criterion):.4f}) of "
        f"the {len(valid)} feature{'s' * (len(valid) != 1)} that can split here"
    )
    if chosen.tie:
        tied = [t.feature for t in tables if t.tie and not t.chosen]
        reason += f"; it ties with {', '.join(tied)} and comes first in {tie_order()}"
    if chosen.threshold is not None:
        reason += (
            f"; its threshold {format_number(chosen.threshold)} is "
            + cut_reason(*map(format_number, (chosen.low, chosen.high, chosen.threshold)))
            + ", the cut of lowest overall entropy"
        )
        if chosen.n_tied_thresholds > 1:
            reason += f" ({chosen.n_tied_thresholds} cuts tie: the smallest is used)"
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
    return Step(k, n, info, record.classes, record.criterion, tables, decision, reason, record)


def iter_steps(record: TeachingRecord) -> Iterator[Step]:
    for k in range(len(record.infos)):
        yield make_step(record, k)
