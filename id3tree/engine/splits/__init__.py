"""Split search: where to cut a numeric feature, and what a categorical split is worth.

ID3 scores every feature at a node by the information gain of its split: the node's entropy less
the *overall entropy* of the branches (the entropy of each branch weighted by its share of the
rows). A categorical feature has one branch per value (:mod:`id3tree.engine.splits.categorical`). A
numeric feature is cut in two at a midpoint between adjacent distinct values, the midpoint of
lowest overall entropy; rows with no value form a third branch of their own (they count in the
overall entropy and the gain, but never decide where the threshold goes). Thresholds whose overall
entropy is within ``TIE_TOLERANCE`` bits of the best are tied, and the smallest wins.

Read :mod:`id3tree.engine.splits.plain` first: :func:`plain_candidate_splits` scores every midpoint
from scratch, as a textbook does. The learner does the same for every node of a level at once,
by one of the named searches of :mod:`id3tree.engine.splits.strategies` (``counted``, ``matrix``,
``end_to_end``, ``in_pieces``, ``weighted``), chosen by size from one table; each scores a cut by
``n`` times its overall entropy in whole units of a ``c log c`` table
(:func:`~id3tree.base.entropy.cut_entropy_units`), and property tests prove every one equal to the
plain version.
"""

from id3tree.engine.splits.categorical import (
    CategoricalSearch,
    branch_search,
    count_keys,
    dense_ranks,
    score_categorical,
)
from id3tree.engine.splits.counted import search_counted
from id3tree.engine.splits.matrix import search_layouts
from id3tree.engine.splits.plain import (
    THRESHOLD_RULES,
    cut_threshold,
    midpoint,
    plain_candidate_splits,
    snapped,
)
from id3tree.engine.splits.results import (
    NOT_A_CUT,
    TIE_TOLERANCE,
    RankedCuts,
    ThresholdSearch,
    best_cuts,
    class_counts,
    filled,
    looked_up_tolerance,
    scaled_cut_scores,
    threshold_search,
    tie_tolerance,
)
from id3tree.engine.splits.sorted_rows import search_cuts, search_cuts_in_pieces
from id3tree.engine.splits.strategies import NUMERIC_SEARCHES, SIZE_RULES, search_sorted
from id3tree.engine.splits.thresholds import (
    enumerate_thresholds,
    search_thresholds,
)
from id3tree.engine.splits.weighted import search_weighted_cuts

__all__ = [
    "NOT_A_CUT", "NUMERIC_SEARCHES", "SIZE_RULES", "THRESHOLD_RULES", "TIE_TOLERANCE",
    "CategoricalSearch", "cut_threshold", "snapped",
    "RankedCuts", "ThresholdSearch", "best_cuts", "branch_search", "class_counts", "count_keys",
    "dense_ranks", "enumerate_thresholds", "filled", "looked_up_tolerance", "midpoint",
    "plain_candidate_splits", "scaled_cut_scores", "score_categorical", "search_counted",
    "search_cuts", "search_cuts_in_pieces", "search_layouts", "search_sorted", "search_thresholds",
    "search_weighted_cuts", "threshold_search", "tie_tolerance",
]  # fmt: skip
