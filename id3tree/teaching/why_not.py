"""Why was this feature not chosen here? An answer in words and numbers."""

from __future__ import annotations

from dataclasses import dataclass

from id3tree.base.pencil import unit_word
from id3tree.base.words import format_number, tie_order
from id3tree.engine.splits import TIE_TOLERANCE
from id3tree.teaching.record import CandidateTable, TeachingRecord
from id3tree.teaching.steps import counts_text, samples, was_scored

__all__ = ["why_not", "WhyNot"]


@dataclass(frozen=True)
class WhyNot:
    """The answer: ``kind`` names the case, ``text`` explains it.

    ``kind`` is one of ``"chosen"`` (it was not rejected), ``"lower_score"``, ``"tie"`` (tied
    and lost on column order), ``"excluded"`` (used on the path, no valid threshold,
    min_samples_leaf, a single value), ``"not_scored"`` (the node was never split: pure, too
    small, too deep) or ``"no_split"`` (features were scored but the node stopped).
    """

    node: int
    feature: str
    kind: str
    text: str
    gain: float | None = None
    gain_ratio: float | None = None
    winner: str | None = None
    winner_gain: float | None = None
    winner_gain_ratio: float | None = None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def _branches(table: CandidateTable) -> str:
    return "; ".join(
        f"{b.label}: {samples(b.n)} ({counts_text(table.classes, b.counts)}), entropy {b.entropy:.4f}"
        for b in table.branches
    )


def _offer(table: CandidateTable) -> str:
    """What the feature's best split is and what it gains."""
    where = table.test
    if table.threshold is not None:
        where += f" (between {format_number(table.low)} and {format_number(table.high)})"
    return (
        f"its best split is {where}, with overall entropy {table.overall_entropy:.4f} against "
        f"the node's {table.parent_entropy:.4f}, so it gains {table.gain:.4f} {unit_word()} "
        f"(branches {_branches(table)})"
    )


def why_not(record: TeachingRecord, node, feature) -> WhyNot:
    """Explain why ``feature`` was not chosen at ``node`` (a node id or a Node)."""
    info = record.info(node)
    f = record.feature_index(feature)
    name = record.names[f]
    n = info.node
    where = "the root" if info.parent is None else " and ".join(info.path)
    counts = counts_text(record.classes, n.class_counts.values())
    at = f"At node {n.node_id} ({where}: {samples(n.n_samples)}, {counts})"
    table = record.table(info.node_id, name)
    score_name = "gain ratio" if record.criterion == "gain_ratio" else "gain"
    if not was_scored(record, info):
        reason = n.stop_reason or "it stopped"
        if reason.startswith("pure"):
            reason = f"it is pure (all {samples(n.n_samples)} are {n.prediction})"
        return WhyNot(
            n.node_id,
            name,
            "not_scored",
            f"{at}, no feature was considered: the node is a leaf because {reason}.",
        )
    if table.chosen:
        return WhyNot(
            n.node_id,
            name,
            "chosen",
            f"{at}, {name} was chosen: {_offer(table)}.",
            table.gain,
            table.gain_ratio,
            name,
            table.gain,
            table.gain_ratio,
        )
    if not table.valid:
        return WhyNot(
            n.node_id, name, "excluded", f"{at}, {name} could not split the node: {table.excluded}."
        )
    if n.is_leaf:
        return WhyNot(
            n.node_id,
            name,
            "no_split",
            f"{at}, {_offer(table)}; but the node was not split at all: {n.stop_reason}.",
            table.gain,
            table.gain_ratio,
        )
    winner = record.table(info.node_id, n.feature)
    mine, theirs = table.score(record.criterion), winner.score(record.criterion)
    if mine >= theirs - TIE_TOLERANCE:
        text = (
            f"{at}, {name} ties with {winner.feature}: both score {score_name} {theirs:.4f} "
            f"(within {TIE_TOLERANCE:g} {unit_word()}). Ties go to the feature that comes first in "
            f"{tie_order()}, and {winner.feature} comes before {name}. {name}: {_offer(table)}."
        )
        kind = "tie"
    else:
        text = (
            f"{at}, {name} loses on {score_name}: {_offer(table)}. The winner is "
            f"{winner.feature}: {_offer(winner)}."
        )
        if record.criterion == "gain_ratio":
            text += (
                f" Gain ratios: {name} {mine:.4f} (split information {table.split_info:.4f}) "
                f"against {winner.feature} {theirs:.4f} (split information {winner.split_info:.4f})."
            )
        text += f" {name} scores {theirs - mine:.4f} less."
        kind = "lower_score"
    return WhyNot(
        n.node_id, name, kind, text, table.gain, table.gain_ratio, winner.feature, winner.gain,
        winner.gain_ratio,
    )  # fmt: skip
