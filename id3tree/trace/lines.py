"""The lines of the printed trace, each kind written by one function: a node, a candidate and
its branches, the best thresholds, a split, a leaf. Each has a single form (an event prints
itself with it, :mod:`id3tree.trace.tracers`) and a column form that writes the lines of the
whole tree at once (:mod:`id3tree.trace.page`), with the same characters.

Every equation follows :mod:`id3tree.base.pencil`: its result is the exact value rounded, its
sign ``=`` where a pencil gets that result from the numbers printed in it and ``≈`` where it
does not.
"""

from __future__ import annotations

import decimal
from itertools import repeat
from typing import Any

import numpy as np

from id3tree.base import pencil
from id3tree.base.entropy import entropy_rows, tie_rule
from id3tree.base.language import N_, current
from id3tree.base.words import (
    LONG_COLUMN,
    count_texts,
    format_number,
    number_pieces,
    number_texts,
    plural_words,
    rounded_units,
    tie_order,
)
from id3tree.engine.stopping import REASONS

__all__ = [
    "candidate_lines", "candidate_text", "DECIMALS", "fixed_text", "fixed_texts", "indent",
    "below_midpoint", "cut_reason", "indents", "leaf_text", "leaf_texts", "midpoint_holds", "midway_mark",
    "midway_marks",
    "node_text", "node_texts",
    "split_information", "split_text", "split_texts", "threshold_text", "THRESHOLDS_PER_LINE",
    "thresholds_text", "thresholds_texts",
]  # fmt: skip

DECIMALS = 4
"""Digits after the point for every entropy, gain, weight and threshold the trace prints."""


_FIXED = f".{DECIMALS}f"


_write_fixed = f"{{:{_FIXED}}}".format  # fixed_text as a bound method: mapped over a column in C


def fixed_text(value: float) -> str:
    return format(value, _FIXED)


def threshold_text(value: float) -> str:
    return format_number(value, DECIMALS)


def indent(depth: int) -> str:
    """The indentation of a node at ``depth``: four spaces a level."""
    return "    " * depth


def indents(depth, n: int, more: str = "") -> np.ndarray:
    """:func:`indent` of many lines at once, then ``more``: ``depth`` is one depth for all
    ``n`` lines or one per line; each distinct indentation is written once. An array of str
    (dtype object)."""
    if np.ndim(depth) == 0:
        return np.full(n, indent(int(depth)) + more, dtype=object)
    depth = np.asarray(depth, dtype=np.intp)
    table = [indent(at) + more for at in range(int(depth.max(initial=0)) + 1)]
    return np.array(table, dtype=object)[depth]


_fixed_table = np.empty(0, dtype=object)  # entry q: q / 10**DECIMALS, written by fixed_text


_FIXED_TABLE_UNITS = 8  # the table covers 0 to 8 at most (an entropy of 256 classes)


def fixed_texts(values) -> list[str]:
    """Each value of a column written with ``DECIMALS`` digits after the point, character for
    character as :func:`fixed_text` (``format(value, ".4f")``) writes it.

    A trace writes tens of thousands of such numbers (entropies, weights, gains), and writing a
    float is most of the cost of a line. Python writes a float from its exact binary value,
    rounded half to even. A long column takes a shortcut: each value times ``10**DECIMALS`` is
    rounded to a whole number q (:func:`~id3tree.base.words.rounded_units`), whose text is looked up
    in a table made once (the text of every q from 0 up; the numbers of a trace lie between 0
    and a few bits). Where q is not sure, or outside the table, ``format`` writes the value.
    """
    values = np.asarray(values, dtype=float)
    if len(values) < LONG_COLUMN:
        return list(map(_write_fixed, values.tolist()))
    q, sure = rounded_units(values, DECIMALS)  # an infinity or NaN is not sure: format writes it
    with np.errstate(invalid="ignore"):
        in_reach = ~np.signbit(values) & (q < _FIXED_TABLE_UNITS * 10**DECIMALS)  # not -0.0
    table = _fixed_table_up_to(q[in_reach].max(initial=0))
    sure &= in_reach & (q < len(table))
    texts = table[np.where(sure, q, 0).astype(np.intp)]
    unsure = np.flatnonzero(~sure)
    texts[unsure] = list(map(_write_fixed, values[unsure].tolist()))
    return texts.tolist()


def _fixed_table_up_to(q: float) -> np.ndarray:
    """The table of :func:`fixed_texts`, grown (a unit at a time, up to its limit) to reach
    ``q / 10**DECIMALS`` if it can."""
    global _fixed_table
    scale = 10**DECIMALS
    units = min(int(q) // scale + 1, _FIXED_TABLE_UNITS)
    if len(_fixed_table) < units * scale:
        fractions = [f".{i:0{DECIMALS}d}" for i in range(scale)]
        _fixed_table = np.array(
            [f"{unit}{fraction}" for unit in range(units) for fraction in fractions], dtype=object
        )
    return _fixed_table


def node_text(node: int, depth: int, path, counts: str, n_samples, entropy: float) -> str:
    """``Node 4 [Outlook = Rain and Wind = Strong]: 2 samples (No: 2, Yes: 0), entropy 0.0000``."""
    where = path_text(path)
    return node_texts([node], depth, [where], [counts], np.asarray([n_samples]), [entropy])[0]


def path_text(words) -> str:
    """The tests on the way to a node, joined by ``and`` (``root`` for none)."""
    L = current()
    if L.english:
        return " and ".join(words) if words else "root"
    return f" {L.gettext('and')} ".join(words) if words else L.gettext("root")


def node_texts(node, depth, where, counts, n_samples, entropy) -> list[str]:
    """:func:`node_text` of many nodes: ``node`` their numbers, ``depth`` one for all or one
    per node, ``where`` each path already joined (``root`` for the root), ``counts`` each
    node's class counts written; each column of numbers written by one call."""
    n = len(where)
    L = current()
    if not L.english:
        texts = L.lines(
            "Node {number} [{path}]: {size} {samples} ({counts}), entropy {entropy}",
            number=list(map(str, node)), path=where,
            size=L.numbers(count_texts(n_samples)),
            samples=L.words(n_samples, "sample", "samples"), counts=counts,
            entropy=L.numbers(fixed_texts(entropy)),
        )  # fmt: skip
        texts = [p + t for p, t in zip(indents(depth, n).tolist(), texts)]
        legend = L.gettext(pencil.LEGEND)
        for i in np.flatnonzero((np.asarray(node) == 0) & (np.asarray(entropy) > 0)).tolist():
            texts[i] = f"{legend}\n{texts[i]}"
        return _unit_noted(texts, node)
    lines = zip(
        indents(depth, n).tolist(),
        node,
        where,
        count_texts(n_samples),
        plural_words(n_samples, "sample", "samples"),
        counts,
        fixed_texts(entropy),
    )
    texts = [
        f"{pad}Node {number} [{path}]: {size} {samples} ({written}), entropy {h}"
        for pad, number, path, size, samples, written, h in lines
    ]
    for i in np.flatnonzero((np.asarray(node) == 0) & (np.asarray(entropy) > 0)).tolist():
        texts[i] = f"{pencil.LEGEND}\n{texts[i]}"  # the root of a tree that weighs candidates
    return _unit_noted(texts, node)


def _unit_noted(texts: list[str], node: Any) -> list[str]:
    """The root's line after the unit's note, first on the page, when the tree measures in
    nats (:func:`~id3tree.base.pencil.unit_note`); the texts as they are in bits."""
    note = pencil.unit_note()
    if note is not None:
        for i in np.flatnonzero(np.asarray(node) == 0).tolist():
            texts[i] = f"{note}\n{texts[i]}"
    return texts


def candidate_text(
    depth: int, feature: str, kind: str, n_samples, entropy: float, gain: float | None,
    gain_ratio: float | None, overall_entropy: float | None, threshold: float | None,
    low: float | None, high: float | None, branches, criterion: str, reason: str | None = None,
) -> str:  # fmt: skip
    """One candidate: its test, a line per branch, then the overall entropy and the gain.

    ``branches`` holds ``(label, counts, n_samples, entropy)`` of each branch, counts written.
    """
    pad = indent(depth) + "  "
    L = current()
    if gain is None and not L.english:
        line = L.line("candidate {feature}: no valid split", feature=feature)
        return pad + line + (f", {L.phrase(reason, CANDIDATE_REASONS)}" if reason else "")
    if gain is None:
        why = f", {reason}" if reason else ""
        return f"{pad}candidate {feature}: no valid split{why}"
    if not branches:  # a grower that kept no branch counts (Dask): the score only
        test = f" <= {L.number(threshold_text(threshold))}" if threshold is not None else ""
        gain_text = L.number(fixed_text(gain))
        return pad + L.line(
            "candidate {feature}{test}: gain {gain}", feature=feature, test=test, gain=gain_text
        )
    labels, counts, sizes, entropies = (list(column) for column in zip(*branches))
    candidates = {
        "feature": [feature], "n_samples": [n_samples], "entropy": [entropy], "gain": [gain],
        "gain_ratio": [gain_ratio], "overall_entropy": [overall_entropy], "first": [0, len(labels)],
    }  # fmt: skip
    if kind == "numeric":
        candidates |= {"threshold": [threshold_text(threshold)], "low": [low], "high": [high]}
    candidates["depth"] = [depth]
    written = {"label": labels, "counts": counts, "n_samples": sizes, "entropy": entropies}
    heads, lines, totals = candidate_lines(kind, criterion, candidates, written)
    return "\n".join([*heads, *lines, *totals])


def candidate_lines(kind: str, criterion: str, candidates: dict, branches: dict) -> tuple:
    """The lines of many candidates of one kind, each with a valid split and its branches, in
    order: each candidate's test, a line per branch, then its overall entropy and gain. What
    :func:`candidate_text` writes, for a whole tree at once: each column of numbers is written
    by one call (:func:`fixed_texts`, :func:`~id3tree.base.words.count_texts`), then each line by one
    f-string.

    Parameters
    ----------
    kind, criterion
        As in :func:`candidate_text`.
    candidates : dict
        Columns with one entry per candidate: ``depth`` (of its node), ``feature``,
        ``n_samples`` and ``entropy`` (the node's), ``gain``, ``gain_ratio``,
        ``overall_entropy``; for numeric candidates ``threshold`` (written), ``low`` and
        ``high`` (the two values it lies between); and ``first``, one entry more: candidate i
        has the branches ``first[i]:first[i + 1]``.
    branches : dict
        Columns with one entry per branch: ``label``, ``counts`` (written), ``n_samples`` and
        ``entropy``; and, if given and not None, ``label_end``: what follows each label (the
        learner gives a numeric side's words, such as ``petal_length <=`` and a space, and its
        threshold apart, so that no label is made only to be copied into its line).

    Returns
    -------
    tuple of three lists of str
        The tests (one per candidate), the branches' lines (candidate i's are
        ``first[i]:first[i + 1]``) and the totals (one per candidate): each candidate's lines
        are its test, its branches, its total, which the caller puts in their places.
    """
    first = np.asarray(candidates["first"], dtype=np.int64)
    n_branches = np.diff(first)
    n_candidates = len(n_branches)
    node_n = np.asarray(candidates["n_samples"])
    owner = np.repeat(np.arange(n_candidates), n_branches)  # the candidate of each branch
    pad = indents(candidates["depth"], n_candidates, "  ")  # of each candidate
    sizes = np.asarray(branches["n_samples"])
    entropy = np.asarray(branches["entropy"], dtype=float)
    weight = sizes / node_n[owner]
    size_text = count_texts(sizes)
    of_text = np.array(count_texts(node_n), dtype=object)[owner].tolist()
    entropy_text, weighted_text = fixed_texts(entropy), fixed_texts(weight * entropy)
    signs = _branch_signs(sizes, node_n[owner], entropy, weight, size_text, of_text)
    label_end = branches.get("label_end")
    L = current()
    if not L.english:
        return _candidate_lines_in(
            L, kind, criterion, candidates, branches, first, pad, owner, weight,
            (size_text, of_text, entropy_text, weighted_text, signs),
        )  # fmt: skip
    branch = zip(
        pad[owner].tolist(),
        branches["label"],
        repeat("") if label_end is None else label_end,
        size_text,
        plural_words(sizes, "sample", "samples"),
        branches["counts"],
        entropy_text,
        of_text,
        fixed_texts(weight),
        weighted_text,
        *signs,
    )
    lines = [
        f"{p}    {label}{end}: {n} {samples} ({counts}), entropy {h}, weight {n}/{of_n} {s} {w}, "
        f"weighted entropy {n}/{of_n} × {h} {s_h} {w_h}"
        for p, label, end, n, samples, counts, h, of_n, w, w_h, s, s_h in branch
    ]
    pad = pad.tolist()
    features = candidates["feature"]
    if kind == "numeric":  # the two values of each cut, written in one column (they repeat)
        between = number_texts(np.concatenate([candidates["low"], candidates["high"]]))
        tests = zip(
            pad, features, candidates["threshold"], between[:n_candidates], between[n_candidates:]
        )
        marks = midway_marks(
            between[:n_candidates], between[n_candidates:], candidates["threshold"]
        )
        heads = [
            f"{p}candidate {f} <= {t} ({m}between {a} and {b}):"
            for (p, f, t, a, b), m in zip(tests, marks)
        ]
    else:
        values = zip(
            pad, features, count_texts(n_branches), plural_words(n_branches, "value", "values")
        )
        heads = [f"{p}candidate {f} ({n} {word}):" for p, f, n, word in values]
    # the overall entropy as the sum of the weighted entropies printed above it, and the gain
    units = {k: pencil.fixed_units(candidates[k]) for k in ("entropy", "overall_entropy", "gain")}
    added = np.bincount(owner, pencil.fixed_units(weight * entropy), n_candidates)
    scores = zip(
        pad,
        _sums(weighted_text, first),
        _signs(added.astype(np.int64) == units["overall_entropy"]),
        *map(fixed_texts, (candidates["overall_entropy"], candidates["entropy"])),
        _signs(pencil.difference_holds(*units.values())),
        fixed_texts(candidates["gain"]),
    )
    totals = [
        f"{p}    overall entropy {t} {s} {o}, gain {h} - {o} {s_g} {g}"
        for p, t, s, o, h, s_g, g in scores
    ]
    if criterion == "gain_ratio":  # the gain ratio as the gain over the split information
        info, ratio = split_information(sizes, first), candidates["gain_ratio"]
        quotient = (units["gain"] * 10**DECIMALS, pencil.fixed_units(info))
        holds = pencil.fraction_holds(*quotient, pencil.fixed_units(ratio))
        ratios = zip(totals, fixed_texts(info), fixed_texts(candidates["gain"]), _signs(holds))
        totals = [
            f"{t}, split information {i}, gain ratio {g} / {i} {s} {r}"
            for (t, i, g, s), r in zip(ratios, fixed_texts(ratio))
        ]
    return heads, lines, totals


def _candidate_lines_in(L, kind, criterion, candidates, branches, first, pad, owner, weight, texts):
    """:func:`candidate_lines` in the language ``L`` (not English): the same numbers and
    signs, the words of its catalog, its decimal mark."""
    size_text, of_text, entropy_text, weighted_text, (s_w, s_h) = texts
    n_candidates = len(first) - 1
    label_end = branches.get("label_end")
    sizes = np.asarray(branches["n_samples"])
    size_text, of_n, h, w_h = map(L.numbers, (size_text, of_text, entropy_text, weighted_text))
    labels = branches["label"]
    if label_end is not None:  # a numeric side's threshold, after its words
        labels = list(map(str.__add__, labels, L.numbers(label_end)))
    body = L.lines(
        "{label}: {n} {samples} ({counts}), entropy {h}, weight {n}/{of_n} {s_w} {w}, "
        "weighted entropy {n}/{of_n} × {h} {s_h} {w_h}",
        label=labels, n=size_text,
        samples=L.words(sizes, "sample", "samples"), counts=branches["counts"], h=h, of_n=of_n,
        s_w=s_w, w=L.numbers(fixed_texts(weight)), s_h=s_h, w_h=w_h,
    )  # fmt: skip
    lines = [f"{p}    {text}" for p, text in zip(pad[owner].tolist(), body)]
    features = candidates["feature"]
    if kind == "numeric":
        between = number_texts(np.concatenate([candidates["low"], candidates["high"]]))
        low, high = between[:n_candidates], between[n_candidates:]
        holds = pencil.midpoints_hold(low, high, candidates["threshold"]).tolist()
        midway = [
            "" if h else _midway_in(L, a, b, t)
            for h, a, b, t in zip(holds, low, high, candidates["threshold"])
        ]
        heads = L.lines(
            "candidate {feature} <= {threshold} ({midway}between {low} and {high}):",
            feature=features, threshold=L.numbers(candidates["threshold"]), midway=midway,
            low=L.numbers(low), high=L.numbers(high),
        )  # fmt: skip
    else:
        n_branches = np.diff(first)
        heads = L.lines(
            "candidate {feature} ({n} {values}):", feature=features,
            n=count_texts(n_branches), values=L.words(n_branches, "value", "values"),
        )  # fmt: skip
    pad = pad.tolist()
    heads = [p + t for p, t in zip(pad, heads)]
    units = {k: pencil.fixed_units(candidates[k]) for k in ("entropy", "overall_entropy", "gain")}
    added = np.bincount(
        owner, pencil.fixed_units(weight * np.asarray(branches["entropy"], float)), n_candidates
    )
    totals = L.lines(
        "overall entropy {terms} {s} {overall}, gain {entropy} - {overall} {s_g} {gain}",
        terms=_sums(w_h, first), s=_signs(added.astype(np.int64) == units["overall_entropy"]),
        overall=L.numbers(fixed_texts(candidates["overall_entropy"])),
        entropy=L.numbers(fixed_texts(candidates["entropy"])),
        s_g=_signs(pencil.difference_holds(*units.values())),
        gain=L.numbers(fixed_texts(candidates["gain"])),
    )  # fmt: skip
    if criterion == "gain_ratio":
        info, ratio = split_information(sizes, first), candidates["gain_ratio"]
        quotient = (units["gain"] * 10**DECIMALS, pencil.fixed_units(info))
        holds = pencil.fraction_holds(*quotient, pencil.fixed_units(ratio))
        ratios = L.lines(
            "split information {info}, gain ratio {gain} / {info} {s} {ratio}",
            info=L.numbers(fixed_texts(info)), gain=L.numbers(fixed_texts(candidates["gain"])),
            s=_signs(holds), ratio=L.numbers(fixed_texts(ratio)),
        )  # fmt: skip
        totals = [f"{t}, {r}" for t, r in zip(totals, ratios)]
    return heads, lines, [f"{p}    {t}" for p, t in zip(pad, totals)]


def _midway_in(L, low: str, high: str, threshold: str) -> str:
    """:func:`midway_mark` in the language ``L``."""
    mark = midway_mark(low, high, threshold)
    if not mark:
        return ""
    below = below_midpoint(low, high, threshold)
    if below is None:
        return L.gettext("≈ midway") + " "
    return L.line("C4.5: largest value <= midpoint {below}", below=L.number(below)) + ", "


def midway_mark(low: str, high: str, threshold: str) -> str:
    """``"≈ midway "`` where a pencil does not get the printed threshold as the midpoint of the
    two printed values it lies between (:func:`~id3tree.base.pencil.midpoint_sign`: 28.8562
    between 28.7125 and 29, whose midpoint 28.85625 rounds to 28.8563), else nothing; each
    distinct three is judged once (a tree repeats its cuts from node to node)."""
    key = (low, high, threshold)
    if key not in _MIDWAY:
        if len(_MIDWAY) > 4096:
            _MIDWAY.clear()
        if midpoint_holds(low, high, threshold):  # (then it is not below the midpoint)
            _MIDWAY[key] = ""
        else:
            below = below_midpoint(low, high, threshold)
            _MIDWAY[key] = (
                f"{pencil.APPROX} midway " if below is None
                else f"C4.5: largest value <= midpoint {below}, "
            )  # fmt: skip
    return _MIDWAY[key]


def midway_marks(lows: list, highs: list, thresholds: list) -> list[str]:
    """:func:`midway_mark` of columns of cuts (the fast path; that function is its plain
    twin): the cuts whose midpoint holds by pencil, nearly all, found at once
    (:func:`~id3tree.base.pencil.midpoints_hold`), the others marked one by one."""
    holds = pencil.midpoints_hold(lows, highs, thresholds).tolist()
    return ["" if h else midway_mark(a, b, t) for h, a, b, t in zip(holds, lows, highs, thresholds)]


def cut_reason(low: str, high: str, threshold: str) -> str:
    """Where a printed threshold comes from, for the steps and the page: "the midpoint between
    a and b", or C4.5's value below it (:func:`below_midpoint`)."""
    below = below_midpoint(low, high, threshold)
    L = current()
    low, high = L.number(low), L.number(high)
    if below is None:
        return L.line("the midpoint between {low} and {high}", low=low, high=high)
    return L.line(
        "C4.5's largest training value <= {below}, the midpoint between {low} and {high}",
        below=L.number(below),
        low=low,
        high=high,
    )


def below_midpoint(low: str, high: str, threshold: str) -> str | None:
    """The midpoint of the printed ``low`` and ``high`` (as text) when the printed threshold
    lies below it by more than the printing's rounding: a threshold placed by C4.5's rule
    (``thresholds="c45"``, a training value at most the midpoint); else None.

    >>> below_midpoint("70", "85", "75"), below_midpoint("28.7125", "29", "28.8562")
    ('77.5', None)
    """
    numbers = [decimal.Decimal(text) for text in (low, high, threshold)]
    if not all(n.is_finite() for n in numbers):
        return None
    mid = _EXACT.divide(_EXACT.add(numbers[0], numbers[1]), 2)
    unit = max(decimal.Decimal(1).scaleb(n.as_tuple().exponent) for n in numbers)  # type: ignore[arg-type]
    return format(mid.normalize(), "f") if numbers[2] < mid - unit else None


_MIDWAY: dict[tuple[str, str, str], str] = {}
_EXACT = decimal.Context(prec=1000)  # a sum of two printed floats, exactly (exponents +-330)


def midpoint_holds(low: str, high: str, threshold: str) -> bool:
    """Whether ``(low + high) / 2 = threshold`` holds by pencil, the printed numbers read as
    decimals: :func:`~id3tree.base.pencil.midpoint_sign` by decimal arithmetic (ten times
    quicker than fractions; a test holds the two equal), for the trace's thousands of cuts.

    >>> midpoint_holds("28.7125", "29", "28.8562"), midpoint_holds("1.9", "3", "2.45")
    (False, True)
    """
    printed = decimal.Decimal(threshold)
    middle = _EXACT.divide(_EXACT.add(decimal.Decimal(low), decimal.Decimal(high)), 2)
    unit = decimal.Decimal(1).scaleb(min(printed.as_tuple().exponent, 0))
    return middle.quantize(unit, rounding=decimal.ROUND_HALF_UP, context=_EXACT) == printed


def _sums(terms: list, first: np.ndarray) -> list[str]:
    """``a + b + ...`` of the terms ``first[i]:first[i + 1]`` for each i, one C-level pass for
    all the sums of as many terms."""
    terms, n_terms = np.array(terms, dtype=object), np.diff(first)
    sums = np.full(len(n_terms), "", dtype=object)  # no terms: nothing to add
    for n in np.unique(n_terms[n_terms > 0]).tolist():
        rows = np.flatnonzero(n_terms == n)
        sums[rows] = list(map(" + ".join, zip(*(terms[first[rows] + i] for i in range(n)))))
    return sums.tolist()


def _signs(holds) -> list[str]:
    """``=`` where an equation holds by pencil, ``≈`` where it does not (:mod:`id3tree.base.pencil`)."""
    return np.array([pencil.APPROX, pencil.EQUALS], dtype=object)[np.asarray(holds, int)].tolist()


def _branch_signs(n, of_n, entropy, weight, n_text, of_text) -> tuple[list, list]:
    """The signs of each branch's ``n/N = weight`` and ``n/N × entropy = weighted entropy``:
    by whole numbers when the counts are (:func:`~id3tree.base.pencil.fraction_holds`), else (a
    sum of weights) by :func:`~id3tree.base.pencil.sign` from the counts as printed."""
    if n.dtype.kind in "iu" and np.asarray(of_n).dtype.kind in "iu":
        w, h, w_h = (pencil.fixed_units(x) for x in (weight, entropy, weight * entropy))
        weights = pencil.fraction_holds(n * 10**DECIMALS, of_n, w)
        return _signs(weights), _signs(pencil.fraction_holds(n * h, of_n, w_h))
    share = [pencil.exact(a) / pencil.exact(b) for a, b in zip(n_text, of_text)]
    written = zip(share, fixed_texts(weight), fixed_texts(entropy), fixed_texts(weight * entropy))
    signs = [(pencil.sign(q, w), pencil.sign(q * pencil.exact(h), w_h)) for q, w, h, w_h in written]
    return [a for a, _ in signs], [b for _, b in signs]


def split_information(sizes: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The split information of each candidate (gain ratio's denominator): the entropy of its
    branch sizes ``sizes[first[i]:first[i + 1]]``, bit for bit what :func:`entropy_rows` gives
    for each alone (the candidates with the same number of branches as the rows of one table).
    """
    n_branches = np.diff(first)
    split_info = np.zeros(len(n_branches))
    for b in np.unique(n_branches).tolist():
        rows = np.flatnonzero(n_branches == b)
        split_info[rows] = entropy_rows(sizes[first[rows, None] + np.arange(b)])
    return split_info


CANDIDATE_REASONS = (
    N_("all {samples} have the same value"),
    N_("a branch would hold fewer than min_samples_leaf = {leaf} samples"),
    N_("its value is missing in all {samples}"),
    N_("all {n} samples where it is known have the same value"),
    N_("every threshold leaves fewer than min_samples_leaf = {leaf} samples on a side"),
    N_("the missing-values branch would hold {samples}, fewer than min_samples_leaf = {leaf}"),
)
"""Why a candidate has no valid split (:class:`~id3tree.trace.details.TraceDetails` writes them
in English), for :meth:`~id3tree.base.language.Language.phrase` to translate where printed."""

THRESHOLDS_PER_LINE = 5
"""How many thresholds ``verbose=2`` writes on one line."""


def thresholds_text(depth: int, thresholds, n_more: int) -> str:
    """The best thresholds of a numeric candidate with their overall entropy, a few to a line,
    best first, then how many more there are: ``best thresholds by overall entropy: <= 0.8:
    0.6667, <= 0.55: 0.7206, ..., and 11 more thresholds``. Indented like the candidate's
    branches, under its line.

    ``thresholds`` holds ``(threshold, overall_entropy)`` pairs, best first.
    """
    threshold = [t for t, _ in thresholds]
    overall = [h for _, h in thresholds]
    return thresholds_texts(depth, threshold, overall, [(0, len(threshold), n_more)])[0]


def thresholds_texts(depth, threshold, overall_entropy, spans) -> list[str]:
    """:func:`thresholds_text` of many candidates at once: candidate i lists the thresholds
    ``first:stop`` of the columns ``threshold`` and ``overall_entropy`` (best first), and
    ``spans[i]`` is ``(first, stop, n_more)`` (a row of an array will do); ``depth`` is the
    depth of their nodes, one for all or one per candidate.

    Each column is written by one call (a threshold in two pieces, :func:`number_pieces`). The
    candidates whose thresholds fit on one line (the learner's five, or fewer) are joined from
    their pieces by one C-level pass (one column a piece: the i-th threshold of every candidate
    with as many thresholds, the words between them), those with as many thresholds and more
    or none to count at once; longer lists are cut into lines of ``THRESHOLDS_PER_LINE``.
    """
    L = current()
    if not L.english:
        return _thresholds_texts_in(L, depth, threshold, overall_entropy, spans)
    head, tail = number_pieces(threshold, DECIMALS)  # sign and whole part, then decimals
    overall_text = np.array(fixed_texts(overall_entropy), dtype=object)
    first, stop, n_more = np.asarray(spans, dtype=np.int64).reshape(-1, 3).T
    pad = indents(depth, len(first), "      ")
    more = np.array(count_texts(n_more), dtype=object)
    more_words = np.array(plural_words(n_more, "more threshold", "more thresholds"), dtype=object)
    n_listed, k = stop - first, THRESHOLDS_PER_LINE
    texts = np.empty(len(first), dtype=object)
    one_line = (n_listed >= 1) & (n_listed <= k)
    for n, counted in sorted(
        set(zip(n_listed[one_line].tolist(), (n_more[one_line] > 0).tolist()))
    ):
        rows = np.flatnonzero((n_listed == n) & ((n_more > 0) == counted))
        pieces = [pad[rows].tolist(), repeat("best thresholds by overall entropy: <= ")]
        for i in range(n):  # "<= t: h", joined by ", "
            if i:
                pieces.append(repeat(", <= "))
            at = first[rows] + i
            pieces += [head[at].tolist(), tail[at].tolist(), repeat(": ")]
            pieces.append(overall_text[at].tolist())
        if counted:
            pieces += [
                repeat(", and "), more[rows].tolist(), repeat(" "), more_words[rows].tolist(),
            ]  # fmt: skip
        texts[rows] = list(map("".join, zip(*pieces)))
    for i in np.flatnonzero(~one_line).tolist():  # several lines, or none
        entries = [f"<= {head[j]}{tail[j]}: {overall_text[j]}" for j in range(first[i], stop[i])]
        lines = [", ".join(entries[j : j + k]) for j in range(0, len(entries), k)] or [""]
        if n_more[i]:
            lines[-1] += f", and {more[i]} {more_words[i]}"
        at = pad[i]
        texts[i] = f"{at}best thresholds by overall entropy: " + f",\n{at}    ".join(lines)
    return texts.tolist()


def _thresholds_texts_in(L, depth, threshold, overall_entropy, spans) -> list[str]:
    """:func:`thresholds_texts` in the language ``L`` (not English): its words, its decimal
    mark, its list separator."""
    entries = L.lines(
        "<= {threshold}: {entropy}", threshold=L.numbers(number_texts(threshold, DECIMALS)),
        entropy=L.numbers(fixed_texts(overall_entropy)),
    )  # fmt: skip
    first, stop, n_more = np.asarray(spans, dtype=np.int64).reshape(-1, 3).T
    pad = indents(depth, len(first), "      ").tolist()
    more = L.words(n_more, "more threshold", "more thresholds")
    head = L.gettext("best thresholds by overall entropy:")
    texts, k = [], THRESHOLDS_PER_LINE
    for i in range(len(first)):
        listed = entries[first[i] : stop[i]]
        lines = [L.join(listed[j : j + k]) for j in range(0, len(listed), k)] or [""]
        if n_more[i]:
            lines[-1] += L.separator + L.line("and {n} {more}", n=str(n_more[i]), more=more[i])
        texts.append(f"{pad[i]}{head} " + f"{L.separator.rstrip()}\n{pad[i]}    ".join(lines))
    return texts


def split_text(
    depth: int, feature: str, threshold: float | None, gain: float, gain_ratio: float,
    criterion: str, tied_with, n_tied_thresholds: int, branches, below_average=(),
) -> str:  # fmt: skip
    """The decision to split: on which feature, the score that won, the branches, any tie, and
    (gain ratio) the features C4.5's rule kept out: ``below_average`` is ``(average gain,
    names)``, or empty."""
    splits = {
        "feature": [feature],
        "threshold": [None if threshold is None else threshold_text(threshold)],
        "gain": [gain],
        "gain_ratio": [gain_ratio],
        "notes": [(tied_with, n_tied_thresholds, below_average)],
    }
    labels, sizes = (list(column) for column in zip(*branches)) if branches else ([], [])
    written = {"label": labels, "n_samples": sizes, "first": [0, len(labels)]}
    return split_texts(depth, criterion, splits, written)[0]


def split_texts(depth, criterion: str, splits: dict, branches: dict) -> list[str]:
    """:func:`split_text` of many splits, each column of numbers written by one call.

    ``depth`` is the depth of their nodes, one for all or one per split. ``splits`` holds
    columns with one entry per split: ``feature``, ``threshold`` (written, or None for a
    categorical split), ``gain``, ``gain_ratio`` and ``notes``, each
    ``(tied_with, n_tied_thresholds, below_average)`` as :func:`split_text` takes them;
    ``branches`` the columns ``label`` and ``n_samples`` of the branches, split i having the
    branches ``first[i]:first[i + 1]`` (``first``, one entry more).
    """
    pad = indents(depth, len(splits["feature"]), "  ").tolist()
    sizes = np.asarray(branches["n_samples"])
    into = [
        f"{label} ({n} {samples})"
        for label, n, samples in zip(
            branches["label"], count_texts(sizes), plural_words(sizes, "sample", "samples")
        )
    ]
    first = np.asarray(branches["first"]).tolist()
    scored = "gain ratio" if criterion == "gain_ratio" else "gain"
    scores = fixed_texts(splits["gain_ratio"] if criterion == "gain_ratio" else splits["gain"])
    L = current()
    if L.english:
        parts = zip(pad, splits["feature"], splits["threshold"], scores, first, first[1:])
        texts = [
            f"{p}=> split on {feature}{'' if t is None else ' <= ' + t}, the highest {scored} "
            f"{score}; branches: {', '.join(into[a:b])}"
            for p, feature, t, score, a, b in parts
        ]
    else:
        texts = _split_texts_in(L, pad, criterion, splits, branches, scores, first)
    for i, (tied_with, n_tied_thresholds, below_average) in enumerate(splits["notes"]):
        if tied_with or n_tied_thresholds > 1 or below_average:
            notes = _split_notes(
                pad[i], splits["feature"][i], tied_with, n_tied_thresholds, below_average
            )
            texts[i] = "\n".join([texts[i], *notes])
    return texts


def _split_texts_in(L, pad, criterion: str, splits: dict, branches: dict, scores, first) -> list:
    """The lines of :func:`split_texts` in the language ``L`` (not English)."""
    sizes = np.asarray(branches["n_samples"])
    into = L.lines(
        "{label} ({n} {samples})", label=branches["label"], n=L.numbers(count_texts(sizes)),
        samples=L.words(sizes, "sample", "samples"),
    )  # fmt: skip
    split_on = [
        f"{feature} <= {L.number(t)}" if t is not None else feature
        for feature, t in zip(splits["feature"], splits["threshold"])
    ]
    columns = {
        "test": split_on, "score": L.numbers(scores),
        "branches": [L.join(into[a:b]) for a, b in zip(first, first[1:])],
    }  # fmt: skip
    if criterion == "gain_ratio":
        texts = L.lines(
            "=> split on {test}, the highest gain ratio {score}; branches: {branches}", **columns
        )
    else:
        texts = L.lines(
            "=> split on {test}, the highest gain {score}; branches: {branches}", **columns
        )
    return [p + t for p, t in zip(pad, texts)]


def _split_notes(pad: str, feature: str, tied_with, n_tied_thresholds, below_average) -> list:
    """The lines under a decision to split: a tie between features or between thresholds, and
    the features C4.5's rule kept out."""
    L = current()
    if not L.english:
        return _split_notes_in(L, pad, feature, tied_with, n_tied_thresholds, below_average)
    lines = []
    if tied_with:
        lines.append(
            f"{pad}   tie with {', '.join(tied_with)}: broken by {tie_order()} "
            f"({feature} comes first)"
        )
    if n_tied_thresholds > 1:
        lines.append(f"{pad}   {n_tied_thresholds} thresholds tie: the smallest is used")
    if below_average:
        average, names = below_average
        lines.append(
            f"{pad}   C4.5's rule: only candidates with at least the average gain "
            f"{fixed_text(average)} compete ({', '.join(names)} below it)"
        )
    return lines


def _split_notes_in(L, pad, feature, tied_with, n_tied_thresholds, below_average) -> list:
    """:func:`_split_notes` in the language ``L`` (not English)."""
    lines = []
    if tied_with:
        message = (
            N_("tie with {features}: broken by alphabetical order ({feature} comes first)")
            if tie_rule() == "name"
            else N_("tie with {features}: broken by column order ({feature} comes first)")
        )
        lines.append(L.line(message, features=L.join(tied_with), feature=feature))
    if n_tied_thresholds > 1:
        lines.append(L.line("{n} thresholds tie: the smallest is used", n=str(n_tied_thresholds)))
    if below_average:
        average, names = below_average
        lines.append(
            L.line(
                "C4.5's rule: only candidates with at least the average gain {average} compete "
                "({features} below it)",
                average=L.number(fixed_text(average)),
                features=L.join(names),
            )  # fmt: skip
        )
    return [f"{pad}   {line}" for line in lines]


def leaf_text(depth: int, prediction, reason: str, tie_note: str = "") -> str:
    """The decision to stop: what the leaf predicts and why, and a tie between its top classes."""
    return leaf_texts(depth, [prediction], [reason], [tie_note])[0]


def leaf_texts(depth, predictions, reasons, tie_notes) -> list[str]:
    """:func:`leaf_text` of many leaves; ``depth`` is the depth of the leaves, one for all or
    one per leaf."""
    pad = indents(depth, len(predictions), "  ").tolist()
    L = current()
    if not L.english:
        heads = L.lines(
            "=> leaf, predict {prediction}: {reason}", prediction=list(map(str, predictions)),
            reason=[L.phrase(r, REASONS) for r in reasons],
        )  # fmt: skip
        return [p + h + (f"\n{p}   {n}" if n else "") for p, h, n in zip(pad, heads, tie_notes)]
    return [
        f"{p}=> leaf, predict {prediction}: {reason}" + (f"\n{p}   {note}" if note else "")
        for p, prediction, reason, note in zip(pad, predictions, reasons, tie_notes)
    ]
