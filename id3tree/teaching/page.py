"""The numbers behind the interactive page: one entry per node, in reading order."""

from __future__ import annotations

import math

from id3tree.node import format_number
from id3tree.render.html import page_html
from id3tree.teaching.record import TeachingRecord
from id3tree.teaching.steps import make_step


def _number(value):
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def page_data(record: TeachingRecord) -> dict:
    """Everything the page shows, as JSON-ready Python objects."""
    nodes = []
    for info in record.infos:
        step = make_step(record, info.order)
        frame = step.candidates if step.tables else None
        candidates = []
        for i, table in enumerate(step.tables):
            row = frame.iloc[i]
            candidates.append(
                {
                    "feature": table.feature,
                    "kind": table.kind,
                    "split": row["split"] if table.valid else "",
                    "between": row["between"],
                    "overall_entropy": _number(table.overall_entropy),
                    "gain": _number(table.gain),
                    "gain_ratio": _number(table.gain_ratio),
                    "chosen": table.chosen,
                    "tie": table.tie,
                    "note": row["note"],
                    "branches": [
                        {"label": b.label, "n": b.n, "counts": list(b.counts), "entropy": b.entropy}
                        for b in table.branches
                    ],
                }
            )
        node = info.node
        nodes.append(
            {
                "id": node.node_id,
                "order": info.order,
                "parent": None if info.parent is None else info.parent.node_id,
                "branch": info.branch,
                "path": list(info.path),
                "depth": node.depth,
                "n": node.n_samples,
                "counts": [int(v) for v in node.class_counts.values()],
                "entropy": node.entropy,
                "prediction": str(node.prediction),
                "leaf": node.is_leaf,
                "feature": node.feature,
                "threshold": None if node.threshold is None else format_number(node.threshold),
                "decision": step.decision,
                "reason": step.reason,
                "candidates": candidates,
            }
        )
    return {
        "classes": [str(c) for c in record.classes],
        "features": record.names,
        "criterion": record.criterion,
        "nodes": nodes,
    }


def tree_page(record: TeachingRecord, *, title: str | None = None) -> str:
    """The self-contained HTML page of a fitted tree."""
    title = title or f"Decision tree: {len(record.infos)} nodes, {len(record.names)} features"
    return page_html(record.root, page_data(record), classes=record.classes, title=title)
