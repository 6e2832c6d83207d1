"""Feature ranking and screening with entropy.

* :func:`rank_features`: one score per feature against the class (information gain, gain ratio,
  mutual information, symmetric uncertainty, JSD), best first;
* :func:`mutual_information_matrix`: MI between every pair of columns, fast enough for a survey
  of 150 columns and 50,000 rows;
* :func:`jsd_screen` and :class:`JSDSelector`: one-vs-all Jensen-Shannon divergences per class
  and feature, and a scikit-learn selector built on them;
* :func:`screen_features`: missing values, distinct values, entropy and spread of every column,
  with warning flags;
* :func:`plot_heatmap`: any of these frames as a heatmap.

All of them take their entropies from :mod:`id3tree.base.entropy` and never import the learner.
"""

from id3tree.ranking.heatmap import plot_heatmap
from id3tree.ranking.jsd import jsd_screen
from id3tree.ranking.mi import mutual_information_matrix
from id3tree.ranking.scores import rank_features
from id3tree.ranking.screening import screen_features
from id3tree.ranking.selector import JSDSelector

__all__ = [
    "JSDSelector", "jsd_screen", "mutual_information_matrix", "plot_heatmap", "rank_features",
    "screen_features",
]  # fmt: skip
