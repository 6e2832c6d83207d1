"""Teaching tools: step through the growth, ask why a feature lost, print the answer key.

The methods :meth:`~id3tree.ID3Classifier.steps`, :meth:`~id3tree.ID3Classifier.step`,
:meth:`~id3tree.ID3Classifier.why_not`, :meth:`~id3tree.ID3Classifier.worked_solution` and
:meth:`~id3tree.ID3Classifier.to_html` of a fitted tree call into this package. Exercises with
their solutions are in :mod:`id3tree.classroom.exercises`. :func:`plot_complexity` draws the
overfitting picture of a tree and its pruned versions; :func:`stability` how often each split wins
again on bootstrap samples of its node's rows.
"""

from id3tree.teaching.complexity import complexity_table, plot_complexity
from id3tree.teaching.page import tree_page
from id3tree.teaching.record import (
    Branch,
    CandidateTable,
    NodeInfo,
    TeachingRecord,
    Threshold,
    record_of,
)
from id3tree.teaching.stability import Stability, stability
from id3tree.teaching.steps import Step, iter_steps, make_step
from id3tree.teaching.why_not import WhyNot, why_not
from id3tree.teaching.worked import WorkedSolution, latex_document, worked_solution

__all__ = [
    "Branch", "CandidateTable", "NodeInfo", "Stability", "Step", "TeachingRecord", "Threshold",
    "WhyNot", "WorkedSolution", "complexity_table", "iter_steps", "latex_document", "make_step",
    "plot_complexity", "record_of", "stability", "tree_page", "why_not", "worked_solution",
]  # fmt: skip
