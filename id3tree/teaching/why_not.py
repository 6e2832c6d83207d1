"""Why was this feature not chosen here? An answer in words and numbers."""

from __future__ import annotations

from dataclasses import dataclass

from id3tree.base.language import current
from id3tree.base.pencil import unit_word
from id3tree.base.words import format_number, tie_order
from id3tree.engine.splits import TIE_TOLERANCE
from id3tree.engine.stopping import REASONS
from id3tree.teaching.record import CandidateTable, TeachingRecord, excluded_words
from id3tree.teaching.steps import counts_text, label_words, samples, was_scored

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
    L = current()
    return "; ".join(
        L.line(
            "{label}: {samples} ({counts}), entropy {entropy}",
            label=label_words(b.label),
            samples=samples(b.n),
            counts=counts_text(table.classes, b.counts),
            entropy=_fixed(b.entropy),
        )  # fmt: skip
        for b in table.branches
    )


def _fixed(value: float) -> str:
    return current().number(f"{value:.4f}")


def _offer(table: CandidateTable) -> str:
    """What the feature's best split is and what it gains."""
    L = current()
    where = table.feature
    if table.kind == "numeric" and table.threshold is not None:
        where += f" <= {L.number(format_number(table.threshold))}"
    if table.threshold is not None:
        where += " (" + L.line(
            "between {low} and {high}",
            low=L.number(format_number(table.low)), high=L.number(format_number(table.high)),
        ) + ")"  # fmt: skip
    return L.line(
        "its best split is {where}, with overall entropy {overall} against the node's {parent}, "
        "so it gains {gain} {unit} (branches {branches})",
        where=where, overall=_fixed(table.overall_entropy), parent=_fixed(table.parent_entropy),
        gain=_fixed(table.gain), unit=unit_word(), branches=_branches(table),
    )  # fmt: skip


def _unscored(at: str, n, name: str) -> WhyNot:
    L = current()
    if n.stop_reason and n.stop_reason.startswith("pure"):
        reason = L.line(
            "it is pure (all {samples} are {prediction})",
            samples=samples(n.n_samples), prediction=str(n.prediction),
        )  # fmt: skip
    else:
        reason = L.phrase(n.stop_reason, REASONS) if n.stop_reason else L.gettext("it stopped")
    text = L.line(
        "{at}, no feature was considered: the node is a leaf because {reason}.",
        at=at,
        reason=reason,
    )
    return WhyNot(n.node_id, name, "not_scored", text)


def _lost(record: TeachingRecord, at: str, name: str, table, winner) -> tuple[str, str]:
    """The words of a feature that scored and lost: a tie, or a lower score."""
    L = current()
    score_name = L.gettext("gain ratio") if record.criterion == "gain_ratio" else L.gettext("gain")
    mine, theirs = table.score(record.criterion), winner.score(record.criterion)
    if mine >= theirs - TIE_TOLERANCE:
        text = L.line(
            "{at}, {name} ties with {winner}: both score {score} {value} (within {tolerance} "
            "{unit}). Ties go to the feature that comes first in {order}, and {winner} comes "
            "before {name}. {name}: {offer}.",
            at=at, name=name, winner=winner.feature, score=score_name, value=_fixed(theirs),
            tolerance=f"{TIE_TOLERANCE:g}", unit=unit_word(), order=tie_order(),
            offer=_offer(table),
        )  # fmt: skip
        return text, "tie"
    text = L.line(
        "{at}, {name} loses on {score}: {offer}. The winner is {winner}: {winner_offer}.",
        at=at, name=name, score=score_name, offer=_offer(table), winner=winner.feature,
        winner_offer=_offer(winner),
    )  # fmt: skip
    if record.criterion == "gain_ratio":
        text += " " + L.line(
            "Gain ratios: {name} {mine} (split information {info}) against {winner} {theirs} "
            "(split information {winner_info}).",
            name=name, mine=_fixed(mine), info=_fixed(table.split_info), winner=winner.feature,
            theirs=_fixed(theirs), winner_info=_fixed(winner.split_info),
        )  # fmt: skip
    text += " " + L.line(
        "{name} scores {difference} less.", name=name, difference=_fixed(theirs - mine)
    )
    return text, "lower_score"


def why_not(record: TeachingRecord, node, feature) -> WhyNot:
    """Explain why ``feature`` was not chosen at ``node`` (a node id or a Node), in the language
    of the page."""
    L = current()
    info = record.info(node)
    f = record.feature_index(feature)
    name = record.names[f]
    n = info.node
    counts = counts_text(record.classes, n.class_counts.values())
    at = L.line(
        "At node {node} ({where}: {samples}, {counts})",
        node=str(n.node_id), where=info.where(), samples=samples(n.n_samples), counts=counts,
    )  # fmt: skip
    table = record.table(info.node_id, name)
    if not was_scored(record, info):
        return _unscored(at, n, name)
    if table.chosen:
        text = L.line("{at}, {name} was chosen: {offer}.", at=at, name=name, offer=_offer(table))
        return WhyNot(
            n.node_id, name, "chosen", text, table.gain, table.gain_ratio, name, table.gain,
            table.gain_ratio,
        )  # fmt: skip
    if not table.valid:
        text = L.line(
            "{at}, {name} could not split the node: {reason}.",
            at=at, name=name, reason=excluded_words(table),
        )  # fmt: skip
        return WhyNot(n.node_id, name, "excluded", text)
    if n.is_leaf:
        text = L.line(
            "{at}, {offer}; but the node was not split at all: {reason}.",
            at=at, offer=_offer(table), reason=L.phrase(n.stop_reason or "", REASONS),
        )  # fmt: skip
        return WhyNot(n.node_id, name, "no_split", text, table.gain, table.gain_ratio)
    winner = record.table(info.node_id, n.feature)
    text, kind = _lost(record, at, name, table, winner)
    return WhyNot(
        n.node_id, name, kind, text, table.gain, table.gain_ratio, winner.feature, winner.gain,
        winner.gain_ratio,
    )  # fmt: skip
