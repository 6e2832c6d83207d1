"""The interactive page's data: the whole-tree passes equal the step-through node by node, the
printed equations follow the pencil rule, the data is safe in the page, and a large tree's page
is made (its structure checked, never its time)."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from id3tree import ID3Classifier
from id3tree.base import pencil
from id3tree.base.pencil import difference_holds, fixed_units, fraction_holds, weighted_sum_holds
from id3tree.datasets import load
from id3tree.teaching import make_step, record_of
from id3tree.teaching.page import source_of
from id3tree.teaching.page_data import page_data


def printed(units: int) -> str:
    return "" if units < 0 else f"{units // 10_000}.{units % 10_000:04d}"


def page_json(tree) -> dict:
    """The data as the page holds it (through JSON, as the browser reads it)."""
    html = tree.to_html()
    text = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', html, re.S)
    return json.loads(text.group(1))


# ---------------------------------------------------------------------------------------------
# the page says what step(k) says, node by node
# ---------------------------------------------------------------------------------------------
def page_view(d: dict, pos: int) -> dict:
    """What the page shows of the node at ``pos``, read from the data as the script reads it."""
    S, F, K = d["strings"], len(d["features"]), len(d["classes"])
    node, cand, branch = d["node"], d["cand"], d["branch"]
    first = np.r_[0, np.cumsum(cand["branches"])]
    view = {
        "decision": S[node["decision"][pos]],
        "reason": S[node["reason"][pos]],
        "path": " and ".join(S[w] for w in node["path"][pos]),
        "candidates": [],
    }
    if pos not in d["scored"]:
        return view
    s = d["scored"].index(pos)
    for f in range(F):
        c = s * F + f
        valid, numeric, t = cand["gain"][c] >= 0, d["numeric"][f], S[cand["threshold"][c]]
        branches = []
        for b in range(first[c], first[c + 1]):
            slot = branch["slot"][b]
            if numeric:
                label = {0: f"<= {t}", 1: f"> {t}"}.get(slot, "missing")
            else:
                values = d["categories"][f]
                label = "missing" if slot == len(values) else values[slot]
            counts = tuple(branch["counts"][b * K : (b + 1) * K])
            branches.append((label, counts, printed(branch["entropy"][b])))
        split = "-" if not valid else f"<= {t}" if numeric else f"{cand['branches'][c]} branches"
        view["candidates"].append(
            {
                "feature": d["features"][f],
                "split": split,
                "between": f"between {S[cand['low'][c]]} and {S[cand['high'][c]]}"
                if valid and numeric
                else "",
                "numbers": tuple(printed(cand[k][c]) for k in ("overall", "gain", "ratio")),
                "note": S[cand["note"][c]],
                "chosen": bool(cand["flags"][c] & 1),
                "branches": branches,
            }
        )
    return view


def step_view(record, k: int) -> dict:
    """The same, from the step-through (the plain twin)."""
    step = make_step(record, k)
    view = {
        "decision": step.decision,
        "reason": step.reason,
        "path": " and ".join(step.info.path),
        "candidates": [],
    }
    if not step.tables:
        return view
    frame = step.candidates

    def text(v):
        return "" if v is None or v != v else pencil.fixed(v)

    for i, t in enumerate(step.tables):
        used = t.excluded is not None and "already used on the path" in t.excluded
        view["candidates"].append(
            {
                "feature": t.feature,
                "split": frame["split"][i],
                "between": frame["between"][i],
                "numbers": (text(t.overall_entropy), text(t.gain), text(t.gain_ratio)),
                "note": frame["note"][i],
                "chosen": t.chosen,
                # the page lists no branches for a feature used on the path (its one value)
                "branches": []
                if used
                else [(b.label, tuple(b.counts), pencil.fixed(b.entropy)) for b in t.branches],
            }
        )
    return view


def odd_data() -> tuple[pd.DataFrame, list]:
    """Every way a feature can fail to split: a constant number, a constant category, missing
    values, ties between features and between cuts."""
    X = pd.DataFrame(
        {
            "a": ["x", "x", "y", "y", "x", "y", "y", "x"],
            "b": [1.0] * 8,
            "c": ["p"] * 8,
            "d": [1, 2, 3, 4, 5, np.nan, 7, np.nan],
            "e": [np.nan] * 4 + [1.0, 2.0, 2.0, 1.0],
        }
    )
    return X, ["A", "B", "A", "B", "A", "A", "B", "B"]


def titanic():
    X, y = load("titanic", return_X_y=True)
    return X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"]), y


FITS = {
    "play_tennis": lambda: ID3Classifier().fit(*load("play_tennis", return_X_y=True)),
    "iris": lambda: ID3Classifier().fit(*load("iris", return_X_y=True)),
    "iris gain ratio": lambda: ID3Classifier(criterion="gain_ratio").fit(
        *load("iris", return_X_y=True)
    ),
    "titanic": lambda: ID3Classifier(max_depth=4).fit(*titanic()),
    "titanic min_samples_leaf": lambda: ID3Classifier(min_samples_leaf=7).fit(*titanic()),
    "hmeq missing values": lambda: ID3Classifier(max_depth=4).fit(*load("hmeq", return_X_y=True)),
    "car": lambda: ID3Classifier().fit(*load("car", return_X_y=True)),
    "odd": lambda: ID3Classifier().fit(*odd_data()),
    "odd min_samples_leaf": lambda: ID3Classifier(min_samples_leaf=2).fit(*odd_data()),
    "pruned": lambda: ID3Classifier().fit(*titanic()).prune("pessimistic"),
}


@pytest.mark.parametrize("name", list(FITS))
def test_every_node_of_the_page_says_what_step_says(name):
    tree = FITS[name]()
    d = page_json(tree)
    record = record_of(tree)
    assert len(d["node"]["parent"]) == len(record.infos)
    for k, info in enumerate(record.infos):
        assert (d["node"]["id"] or list(range(len(record.infos))))[k] == info.node_id
        assert page_view(d, k) == step_view(record, k), (name, k)


def test_the_odd_data_reaches_every_reason():
    d = page_json(FITS["odd min_samples_leaf"]())
    notes = " | ".join(d["strings"])
    for words in (
        "so there is no midpoint to cut at",
        "so it cannot split them",
        "is already used on the path",
    ):
        assert words in notes, words


# ---------------------------------------------------------------------------------------------
# numbers by pencil: the column twins of pencil.py
# ---------------------------------------------------------------------------------------------
@settings(max_examples=300)
@given(st.lists(st.floats(0, 20, allow_nan=False), min_size=1, max_size=20))
def test_fixed_units_print_as_pencil_fixed(values):
    values += [0.03125, 0.09375, 0.24675, 1 / 3]  # exact halves and a near half
    assert [printed(u) for u in fixed_units(values)] == [pencil.fixed(v) for v in values]


@settings(max_examples=300)
@given(st.integers(0, 70_000), st.integers(0, 70_000), st.integers(0, 70_000))
def test_difference_holds_as_pencil_says(a, b, c):
    c = c if c % 3 else a - b  # often the exact difference
    if c < 0:
        return
    expected = pencil.difference_sign(printed(a), printed(b), printed(c)) == "="
    assert difference_holds([a], [b], [c])[0] == expected


@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.integers(1, 500), st.integers(0, 20_000)), min_size=1, max_size=6),
    st.integers(-3, 3),
)
def test_weighted_sum_holds_as_pencil_says(terms, nudge):
    sizes, values = zip(*terms)
    total = sum(sizes)
    exact = sum(Fraction(n * v, total) for n, v in terms)
    result = max(0, round(exact) + nudge)
    expected = pencil.weighted_sum_sign(
        [f"{n}/{total}" for n in sizes], [printed(v) for v in values], printed(result)
    )
    holds = weighted_sum_holds(sizes, values, [0] * len(sizes), [result])[0]
    assert holds == (expected == "=")


@settings(max_examples=300)
@given(st.integers(1, 500), st.integers(1, 500), st.integers(0, 20_000), st.integers(-2, 2))
def test_fraction_holds_as_pencil_says_of_a_product_and_a_quotient(n, extra, v, nudge):
    """n/N × v (a weighted entropy) and g / i (a gain ratio) as fractions of printed units."""
    total = n + extra
    product = max(0, round(Fraction(n * v, total)) + nudge)
    expected = pencil.product_sign(f"{n}/{total}", printed(v), printed(product)) == "="
    assert fraction_holds([n * v], [total], [product])[0] == expected
    if v:
        ratio = max(0, round(Fraction(n * 10_000, v)) + nudge)
        expected = pencil.quotient_sign(printed(n), printed(v), printed(ratio)) == "="
        assert fraction_holds([n * 10_000], [v], [ratio])[0] == expected


def test_the_page_marks_the_equations_a_pencil_breaks():
    d = page_json(FITS["play_tennis"]())
    S, F, K = d["strings"], len(d["features"]), len(d["classes"])
    first = np.r_[0, np.cumsum(d["cand"]["branches"])]
    root = d["scored"].index(0)
    outlook = root * F + d["features"].index("Outlook")
    # seed 002's Outlook: 0.9403 - 0.6935 is 0.2468 by pencil, the page prints 0.2467 with ≈
    assert printed(d["cand"]["gain"][outlook]) == "0.2467"
    assert d["cand"]["approx"][outlook] & 2 and d["legend"] == pencil.LEGEND
    for c, approx in enumerate(d["cand"]["approx"]):  # every equation, redone by pencil
        if d["cand"]["gain"][c] < 0:
            continue
        node = d["scored"][c // F]
        n = sum(d["node"]["counts"][node * K : node * K + K])
        sizes = [
            sum(d["branch"]["counts"][b * K : b * K + K]) for b in range(first[c], first[c + 1])
        ]
        weights = [f"{m}/{n}" for m in sizes]
        values = [printed(d["branch"]["entropy"][b]) for b in range(first[c], first[c + 1])]
        overall, gain = printed(d["cand"]["overall"][c]), printed(d["cand"]["gain"][c])
        entropy = printed(d["node"]["entropy"][node])
        sum_sign = pencil.weighted_sum_sign(weights, values, overall)
        difference = pencil.difference_sign(entropy, overall, gain)
        assert bool(approx & 1) == (sum_sign == "≈") and bool(approx & 2) == (difference == "≈")
    assert S  # (the strings are there)


# ---------------------------------------------------------------------------------------------
# safe in the page, refused where it cannot be made
# ---------------------------------------------------------------------------------------------
NASTY = ['say "hi"', "a<b", "x & y", "</script><script>alert(1)</script>", "two\nlines", "<!--"]


@pytest.mark.parametrize("mode", ["explore", "build"])
def test_labels_are_safe_in_the_page(mode):
    X = pd.DataFrame({NASTY[3]: NASTY[:4] * 2, NASTY[4]: [1.0, 2.0, 3.0, 4.0] * 2})
    y = [NASTY[4], NASTY[5]] * 4
    page = (
        ID3Classifier().fit(X, y).to_html(mode=mode, **({"holdout": 0} if mode == "build" else {}))
    )
    assert "<script>alert" not in page and "<!--" not in page and "a<b" not in page
    assert page.count("</script>") == page.count("<script")  # every element ends where it should
    assert not re.search(r"(src|href)\s*=|https?://(?!www\.w3\.org/2000/svg)", page, re.I)
    body = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', page, re.S)
    d = json.loads(body.group(1))
    assert d["features"] == [NASTY[3], NASTY[4]]
    assert d["predictions"] == sorted([NASTY[4], NASTY[5]])
    assert sorted(d["categories"][0]) == sorted(NASTY[:4])


def test_refused_pages_say_why():
    X, y = load("play_tennis", return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="mode must be one of"):
        tree.to_html(mode="solve")
    with pytest.raises(ValueError, match="applies to mode='build' only"):
        tree.to_html(test=(X, y))
    with pytest.raises(ValueError, match="applies to mode='build' only"):
        tree.to_html(holdout=0.2)
    weighted = ID3Classifier().fit(X, y, sample_weight=np.arange(1, 15))
    with pytest.raises(ValueError, match="sums of weights"):
        weighted.to_html()
    with pytest.raises(ValueError, match="only fit\\(\\) on in-memory data keeps"):
        ID3Classifier.from_json(tree.to_json()).to_html()


# ---------------------------------------------------------------------------------------------
# a large tree: the page is made, whole (its time is a benchmark's business)
# ---------------------------------------------------------------------------------------------
def test_a_large_deep_tree_gets_its_whole_page():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(12_000, 4)).round(2), columns=list("abcd"))
    X["g"] = rng.choice(list("pqrstu"), size=len(X))
    y = rng.integers(0, 3, len(X))  # noise: a tree of thousands of nodes, dozens of levels deep
    tree = ID3Classifier(keep_trace=True).fit(X, y)
    n_nodes, depth = tree._tree.n_nodes, tree.get_depth()
    assert n_nodes > 5_000 and depth > 20
    d = page_data(source_of(tree))
    F, K = len(d["features"]), len(d["classes"])
    assert len(d["node"]["parent"]) == len(d["node"]["path"]) == n_nodes
    assert len(d["cand"]["gain"]) == len(d["scored"]) * F
    counts = np.array(d["node"]["counts"]).reshape(n_nodes, K)
    branch_counts = np.array(d["branch"]["counts"]).reshape(-1, K)
    first = np.r_[0, np.cumsum(d["cand"]["branches"])]
    for c in np.flatnonzero(np.array(d["cand"]["gain"]) >= 0)[::50]:  # the branches partition
        node = d["scored"][c // F]
        assert (branch_counts[first[c] : first[c + 1]].sum(axis=0) == counts[node]).all()
    entropy = np.array(d["node"]["entropy"])
    assert entropy.min() >= 0 and entropy.max() <= np.log2(K) * 10_000 + 1
    gains = np.array(d["cand"]["gain"])
    assert (gains[gains >= 0] <= entropy[np.repeat(d["scored"], F)][gains >= 0]).all()
    decisions = [d["strings"][k] for k in d["node"]["decision"]]
    assert sum(t.startswith("leaf: predict") for t in decisions) == tree.get_n_leaves()
