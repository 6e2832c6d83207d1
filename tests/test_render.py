"""The Graphviz and matplotlib renderers: golden DOT, escaping through `dot`, measured layouts."""

from __future__ import annotations

import html
import io
import itertools
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")  # tests only: the library itself never picks a backend

import matplotlib.pyplot as plt  # noqa: E402

from id3tree import ID3Classifier  # noqa: E402
from id3tree.datasets import (  # noqa: E402
    load_adult,
    load_iris,
    load_mushroom,
    load_play_tennis,
)
from id3tree.model.node import Node  # noqa: E402
from id3tree.render.dot import tree_to_dot, tree_to_graphviz  # noqa: E402
from id3tree.render.layout import arrange  # noqa: E402
from id3tree.render.plot import (  # noqa: E402
    EDGE_GID,
    GROUP_GID,
    MARKER_GID,
    NODE_GID,
    NOTE_GID,
    _items,
    _measure,
    _Metrics,
    plot_tree,
)
from id3tree.render.style import (  # noqa: E402
    FEWEST_BRANCHES,
    PALETTE,
    READABLE_BOXES,
    boxes_per_level,
    class_palette,
    fill_color,
    kept_branches,
    purity,
    readable_branches,
)

GOLDEN = Path(__file__).parent / "golden" / "play_tennis.dot"
HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot program is not installed")


def fitted(load):
    model = ID3Classifier().fit(*load(return_X_y=True))
    return model.root_, model.classes_.tolist()


@pytest.fixture(scope="module")
def tennis():
    return fitted(load_play_tennis)


@pytest.fixture(scope="module")
def iris():
    return fitted(load_iris)


@pytest.fixture(scope="module")
def mushroom():
    return fitted(load_mushroom)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def labels(dot: str) -> dict[str, list[str]]:
    """Statement id (``3`` or ``0->3``) -> the lines of its HTML-like label, unescaped."""
    found = {}
    for line in dot.splitlines():
        match = re.match(r"\t(\w+)(?: -> (\w+))? \[label=<(.*)>( |\])", line)
        if match:
            key = (
                match.group(1) if match.group(2) is None else f"{match.group(1)}->{match.group(2)}"
            )
            rows = re.sub(r"</?[bi]>", "", match.group(3)).split("<br/>")
            found[key] = [html.unescape(row) for row in rows]
    return found


def drawn(ax, gid: str) -> list:
    """The patches (boxes) of a drawing with this gid."""
    return [p for p in ax.patches if p.get_gid() == gid]


def leaf(node_id: int, prediction, counts: dict) -> Node:
    return Node(None, None, {}, counts, sum(counts.values()), 0.0, None, prediction, 1, node_id)


# ---------------------------------------------------------------------------------------------
# DOT
# ---------------------------------------------------------------------------------------------
def test_play_tennis_matches_the_golden_file(tennis):
    root, classes = tennis
    expected = GOLDEN.read_text(encoding="utf-8")
    assert tree_to_dot(root, classes=classes) == expected, (
        "the DOT of Play Tennis changed; if on purpose, rewrite tests/golden/play_tennis.dot "
        "from tree_to_dot and read the new file before committing it"
    )


def test_play_tennis_reads_like_the_textbook(tennis):
    root, classes = tennis
    found = labels(tree_to_dot(root, classes=classes))
    assert found["0"] == [
        "Outlook",
        "samples = 14",
        "No: 5, Yes: 9",
        "entropy = 0.940",
        "gain = 0.247",
    ]
    edges = {key: text[0] for key, text in found.items() if "->" in key}
    assert sorted(edges.values()) == [
        "High",
        "Normal",
        "Overcast",
        "Rain",
        "Strong",
        "Sunny",
        "Weak",
    ]
    overcast = next(key.split("->")[1] for key, text in edges.items() if text == "Overcast")
    assert found[overcast] == ["predict Yes", "samples = 4", "No: 0, Yes: 4", "entropy = 0.000"]


def test_numeric_splits_show_thresholds_on_nodes_and_edges(iris):
    root, classes = iris
    found = labels(tree_to_dot(root, classes=classes, decimals=4))
    assert found["0"][0] == "petal_length ≤ 2.45"
    assert found["0"][2:5] == ["setosa: 50", "versicolor: 50", "virginica: 50"]
    assert found["0"][-2:] == ["entropy = 1.5850", "gain = 0.9183"]
    assert found["0->1"] == ["≤ 2.45"] and found["0->2"] == ["> 2.45"]


def test_every_node_shows_every_class_count(mushroom):
    root, classes = mushroom
    dot = tree_to_dot(root, classes=classes)
    found = labels(dot)
    nodes = list(root.walk())
    assert len([k for k in found if "->" not in k]) == len(nodes)
    for i, node in enumerate(nodes):  # statements are numbered in the order walk() visits
        assert f"e: {node.class_counts['e']}, p: {node.class_counts['p']}" in found[str(i)]
        assert any(line.startswith("gain = ") for line in found[str(i)]) == (not node.is_leaf)


def test_the_missing_branch_is_labelled_missing_in_italics():
    X = pd.DataFrame({"colour": ["red", "red", "blue", None, None, "blue"]})
    y = ["a", "a", "b", "c", "c", "b"]
    model = ID3Classifier().fit(X, y)
    dot = tree_to_dot(model.root_, classes=model.classes_.tolist())
    assert "[label=<<i>missing</i>>]" in dot
    assert sorted(t[0] for k, t in labels(dot).items() if "->" in k) == ["blue", "missing", "red"]


def test_to_graphviz_is_a_digraph_whose_source_is_the_dot(tennis):
    graphviz = pytest.importorskip("graphviz")
    root, classes = tennis
    graph = tree_to_graphviz(root, classes=classes, rankdir="LR")
    assert isinstance(graph, graphviz.Digraph)
    assert graph.source == tree_to_dot(root, classes=classes, rankdir="LR", max_pixels=8000)
    assert 'size="83.3333,83.3333"' in graph.source  # 8,000 pixels at Graphviz's 96 dpi
    assert hasattr(graph, "_repr_mimebundle_")  # how Jupyter shows it inline


def test_options(tennis):
    root, classes = tennis
    plain = tree_to_dot(root, classes=classes, show=("samples",), filled=False, rankdir="LR")
    assert 'fillcolor="#' not in plain.split("\tedge")[1] and "rankdir=LR" in plain
    assert labels(plain)["0"] == ["Outlook", "samples = 14"]
    assert labels(tree_to_dot(root, show=("gain", "entropy"), decimals=1))["0"] == [
        "Outlook",
        "entropy = 0.9",
        "gain = 0.2",
    ]
    reordered = labels(tree_to_dot(root, classes=["Yes", "No"], show=("counts",)))
    assert reordered["0"] == ["Outlook", "Yes: 9, No: 5"]
    colours = tree_to_dot(root, class_colors={"Yes": "#00ff00", "No": "red"})
    assert 'fillcolor="#00ff00"' in colours and 'fillcolor="#ff0000"' in colours
    assert 'fontname="Courier"' in tree_to_dot(root, fontname="Courier")


@pytest.mark.parametrize(
    "options",
    [
        {"show": ("samples", "purity")},
        {"decimals": -1},
        {"rankdir": "XY"},
        {"max_depth": -1},
        {"fontname": 'a"b'},
        {"class_colors": {"Yes": "not a colour"}},
    ],
)
def test_bad_options_are_errors_that_say_why(tennis, options):
    with pytest.raises(ValueError, match=next(iter(options))):
        tree_to_dot(tennis[0], **options)


def test_unknown_options_are_type_errors(tennis):
    with pytest.raises(TypeError):
        tree_to_dot(tennis[0], colour=True)
    with pytest.raises(TypeError):
        plot_tree(tennis[0], rankdir="LR")


def test_max_depth_draws_the_top_levels_and_counts_what_it_cut(iris):
    root, classes = iris
    dot = tree_to_dot(root, classes=classes, max_depth=1)
    found = labels(dot)
    assert [k for k in found if "->" not in k and not k.startswith("m")] == ["0", "1", "2"]
    hidden = sum(1 for _ in root.children[">"].walk()) - 1
    assert found["m2"] == [f"… {hidden} more nodes"]
    assert "\t2 -> m2 [style=dashed arrowhead=none]" in dot
    assert "m1" not in found  # a leaf hides nothing
    assert tree_to_dot(root, max_depth=10) == tree_to_dot(root)


def test_colour_is_the_majority_class_faded_by_impurity():
    palette = class_palette(["a", "b", "c"])
    assert palette == dict(zip("abc", PALETTE[:3]))
    pure = leaf(1, "b", {"a": 0, "b": 5, "c": 0})
    assert purity(pure, 3) == 1.0 and fill_color(pure, palette, 3) == PALETTE[1]
    mixed = Node(None, None, {}, {"a": 2, "b": 2, "c": 2}, 6, np.log2(3), None, "a", 0, 0)
    assert purity(mixed, 3) == pytest.approx(0.0) and fill_color(mixed, palette, 3) == "#ffffff"
    half = Node(None, None, {}, {"a": 1, "b": 1}, 2, 1.0, None, "a", 0, 0)
    assert fill_color(half, class_palette(["a", "b"], {"a": "#000000"}), 4) == "#808080"


def test_dot_and_drawings_of_trees_5000_levels_deep():
    """No recursion anywhere: a chain of 5,000 splits, each with a leaf beside it."""
    node = leaf(0, "x", {"x": 1, "y": 0})
    for level in range(5000):
        node = Node(
            f"f{level}",
            0.5,
            {"<=": leaf(0, "y", {"x": 0, "y": 1}), ">": node},
            {"x": 1, "y": 1},
            2,
            1.0,
            1.0,
            "x",
            0,
            0,
        )
    dot = tree_to_dot(node)
    assert dot.count(" -> ") == 10_000
    items = _items(node, ["x", "y"], ("samples",), 3, True, None, None, None)
    layout = arrange(items, _measure(items, _Metrics(None, 9.0, 72.0)))
    assert len(items) == 10_001 and layout.height > 5000 * 40
    ax = plot_tree(node, max_depth=3)
    assert len([p for p in ax.patches if p.get_gid() == NODE_GID]) == 1 + 2 * 3


@needs_dot
def test_awkward_names_reach_the_svg_unchanged():
    """Quotes, backslashes, braces, |, <, >, &, newlines and non-ASCII text, through `dot`."""
    feature = 'say "hi" \\ {x|y} <b>&amp; naïve ☃'
    categories = ["a<b>c", 'q"uote\\', "{brace}|pipe", "line1\nline2", "Ünïcödé 日本 &", "\\n"]
    classes = ["<yes>", 'no & "maybe"\\']
    kids = {
        value: leaf(i + 1, classes[i % 2], {classes[0]: 1 - i % 2, classes[1]: i % 2})
        for i, value in enumerate(categories)
    }
    kids[None] = leaf(9, classes[0], {classes[0]: 1, classes[1]: 0})
    root = Node(
        feature, None, kids, {classes[0]: 4, classes[1]: 3}, 7, 0.985, 0.5, classes[0], 0, 0
    )
    for max_depth in (None, 0):
        done = subprocess.run(
            ["dot", "-Tsvg"],
            input=tree_to_dot(root, max_depth=max_depth).encode("utf-8"),
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr.decode()
        svg = ET.fromstring(done.stdout)  # the XML parser undoes the escaping
        texts = "\n".join(e.text or "" for e in svg.iter("{http://www.w3.org/2000/svg}text"))
        wanted = [feature, *classes] + (categories + ["missing"] if max_depth is None else [])
        for original in wanted:
            assert original in texts, original


# ---------------------------------------------------------------------------------------------
# matplotlib
# ---------------------------------------------------------------------------------------------
def extents(ax):
    """Window extents (pixels) of the node boxes, the edge labels, the markers and the words."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    boxes = [p.get_window_extent(renderer) for p in ax.patches if p.get_gid() == NODE_GID]
    edge_labels = [t.get_window_extent(renderer) for t in ax.texts if t.get_gid() == EDGE_GID]
    markers = [t.get_window_extent(renderer) for t in ax.texts if t.get_gid() == MARKER_GID]
    words = [t.get_window_extent(renderer) for t in ax.texts if t.get_gid() is None]
    return boxes, edge_labels, markers, words


def overlapping(extents_) -> list:
    """Pairs that overlap by more than a hair (0.5 px: antialiasing, not layout)."""
    bad = []
    for a, b in itertools.combinations(extents_, 2):
        if min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5:
            bad.append((a, b))
    return bad


def check_layout(ax, n_nodes: int, n_cut: int) -> None:
    ax.figure.canvas.draw()
    boxes, edge_labels, markers, words = extents(ax)
    assert len(boxes) == n_nodes and len(edge_labels) == n_nodes - 1 and len(markers) == n_cut
    assert overlapping(boxes + edge_labels + markers) == []
    for word in words:  # the words of every node lie inside that node's box
        assert any(
            box.x0 <= word.x0 and word.x1 <= box.x1 and box.y0 <= word.y0 and word.y1 <= box.y1
            for box in boxes
        ), word
    canvas = ax.figure.bbox
    for e in boxes + edge_labels + markers:
        assert canvas.x0 <= e.x0 and e.x1 <= canvas.x1 and canvas.y0 <= e.y0 and e.y1 <= canvas.y1


@pytest.mark.parametrize("name", ["tennis", "iris", "mushroom"])
def test_no_boxes_or_labels_overlap_at_depth_3(name, request):
    root, classes = request.getfixturevalue(name)
    ax = plot_tree(root, classes=classes, max_depth=3)
    shown = [n for n in root.walk() if n.depth <= 3]
    cut = [n for n in shown if n.depth == 3 and not n.is_leaf]
    check_layout(ax, len(shown), len(cut))


def test_the_figure_is_sized_to_the_tree(tennis, mushroom):
    small = plot_tree(tennis[0]).figure.get_size_inches()
    large = plot_tree(mushroom[0]).figure.get_size_inches()
    assert 3 < small[0] < 12 and 2 < small[1] < 8
    assert large[0] > 1.5 * small[0] and large[1] > small[1]


def test_a_given_axes_is_used_and_fonts_shrink_to_fit(mushroom):
    root, classes = mushroom
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    assert plot_tree(root, classes=classes, ax=right) is right
    assert not left.texts and right.texts
    check_layout(right, sum(1 for _ in root.walk()), 0)
    right_box = right.get_window_extent()
    for box in extents(right)[0]:
        assert right_box.x0 <= box.x0 and box.x1 <= right_box.x1


def test_the_drawing_says_what_the_dot_says(iris):
    root, classes = iris
    ax = plot_tree(root, classes=classes, max_depth=2)
    dot_lines = sorted(
        line
        for text in labels(tree_to_dot(root, classes=classes, max_depth=2)).values()
        for line in text
    )
    drawn = sorted(line for t in ax.texts for line in t.get_text().split("\n"))
    assert drawn == dot_lines
    dot_fills = sorted(
        re.findall(r'\t\d+ \[label=.*fillcolor="(#\w+)"', tree_to_dot(root, max_depth=2))
    )
    drawn_fills = sorted(
        matplotlib.colors.to_hex(p.get_facecolor()) for p in ax.patches if p.get_gid() == NODE_GID
    )
    assert drawn_fills == dot_fills


def test_a_single_leaf_and_unfilled_boxes():
    ax = plot_tree(leaf(0, "only", {"only": 3}), filled=False)
    lines = [line for t in ax.texts for line in t.get_text().split("\n")]
    assert lines[:2] == ["predict only", "samples = 3"]
    assert matplotlib.colors.to_hex(ax.patches[0].get_facecolor()) == "#ffffff"


def test_dollar_signs_are_text_not_mathematics():
    kids = {"$x$": leaf(1, "$a$", {"$a$": 1, "b": 0}), "b": leaf(2, "b", {"$a$": 0, "b": 1})}
    root = Node("$f_1$", None, kids, {"$a$": 1, "b": 1}, 2, 1.0, 1.0, "$a$", 0, 0)
    ax = plot_tree(root)
    ax.figure.canvas.draw()
    assert {"$f_1$", "$x$", "predict $a$"} <= {t.get_text() for t in ax.texts}


def test_the_library_leaves_the_backend_alone(tmp_path):
    code = (
        "import sys, id3tree.render.plot, id3tree.render.dot\n"
        "assert 'matplotlib' not in sys.modules and 'graphviz' not in sys.modules\n"
        "import matplotlib\n"
        "from id3tree.datasets import load_play_tennis\n"
        "from id3tree import ID3Classifier\n"
        "root = ID3Classifier().fit(*load_play_tennis(return_X_y=True)).root_\n"
        "id3tree.render.plot.plot_tree(root).figure.savefig(sys.argv[1])\n"
        "print(matplotlib.get_backend())\n"
    )
    target = tmp_path / "tree.svg"
    done = subprocess.run(
        [sys.executable, "-c", code, str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MPLBACKEND": "svg"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "svg" and target.read_text().startswith("<?xml")


# ---------------------------------------------------------------------------------------------
# large trees (timings belong in reports; the bounds here only catch something gone badly wrong)
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def adult():
    model = ID3Classifier().fit(*load_adult(return_X_y=True))
    return model.root_, model.classes_.tolist()


@pytest.mark.timeout(900)  # a hang guard only: the work is counted, not timed
def test_adult_renders_with_work_linear_in_its_nodes(adult, monkeypatch):
    """Drawing the 11,137-node Adult tree does a bounded amount of work per node: each label
    line is escaped once per box (no level redrawn again and again), and the drawing to depth
    3 walks the tree a few times at most, whatever the machine's speed."""
    import id3tree.render.dot as dot_module

    root, classes = adult
    n_nodes = sum(1 for _ in root.walk())
    work = {"label lines": 0, "nodes walked": 0}
    escape, walk = dot_module._html, Node.walk

    def counted_escape(text):
        work["label lines"] += 1
        return escape(text)

    def counted_walk(self, *args, **kwargs):
        for node in walk(self, *args, **kwargs):
            work["nodes walked"] += 1
            yield node

    monkeypatch.setattr(dot_module, "_html", counted_escape)
    monkeypatch.setattr(Node, "walk", counted_walk)
    dot = tree_to_dot(root, classes=classes, max_branches=None)
    assert dot.count(" -> ") == n_nodes - 1
    lines_per_box = max(len(node.class_counts) for node in root.walk()) + 6  # title, counts...
    assert n_nodes <= work["label lines"] <= lines_per_box * n_nodes
    work["nodes walked"] = 0
    ax = plot_tree(root, classes=classes, max_depth=3, max_branches=10)
    ax.figure.canvas.draw()
    assert work["nodes walked"] <= 4 * n_nodes
    assert len(drawn(ax, NODE_GID)) + len(drawn(ax, GROUP_GID)) == sum(
        boxes_per_level(root, 10, 3, 10**9)
    )


def test_graphviz_object_explains_itself_in_jupyter_without_dot(monkeypatch):
    from id3tree import ID3Classifier
    from id3tree.datasets import load_play_tennis
    from id3tree.render.dot import NO_DOT

    graph = ID3Classifier().fit(*load_play_tennis(return_X_y=True)).to_graphviz()
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable))  # no dot program to be found
    assert graph._repr_mimebundle_() == {"text/plain": NO_DOT}
    assert "Outlook" in graph.source  # the DOT text is still there


def test_a_drawing_too_large_is_fitted_or_refused_with_a_depth_that_fits(iris, monkeypatch):
    import id3tree.render.layout as layout_module
    import id3tree.render.plot as plot_module

    root, classes = iris
    per_level = {}
    for node in root.walk():
        per_level[node.depth] = per_level.get(node.depth, 0) + 1
    within_2 = sum(n for depth, n in per_level.items() if depth <= 2)
    for module in (plot_module, layout_module):  # levels 0-2 fit, level 3 does not
        monkeypatch.setattr(module, "MAX_BOXES", within_2)
    ax = plot_tree(root, classes=classes)  # the whole tree: the top levels that fit, and a note
    assert len(drawn(ax, NODE_GID)) == within_2
    (note,) = [t.get_text() for t in ax.texts if t.get_gid() == NOTE_GID]
    assert note.startswith(f"The top 3 of {max(per_level) + 1} levels (max_depth=2)")
    with pytest.raises(ValueError, match=r"max_depth=2 \(it fits\).*to_dot\(\)"):
        plot_tree(root, classes=classes, max_depth=3)  # asked for: refused, not cut
    with pytest.raises(ValueError, match=r"max_depth=2 \(it fits\)"):
        tree_to_dot(root, classes=classes, max_depth=3, max_pixels=8000)


def test_one_vocabulary_for_counts_and_rounded_thresholds():
    X = pd.DataFrame({"fare": [7.25, 28.7125, 28.7125, 29.0, 30.5, 31.0]})
    y = [0, 0, 1, 1, 1, 1]
    model = ID3Classifier().fit(X, y)
    assert model.root_.threshold == (28.7125 + 29.0) / 2  # the model keeps the exact value
    text = model.to_text(decimals=3)
    assert "fare <= 28.856" in text and "28.85625" not in text
    assert "(class 0: 2, class 1: 4)" in text
    dot = model.to_dot(decimals=3)
    assert "fare ≤ 28.856" in dot and "&gt; 28.856" in dot and "28.85625" not in dot
    assert "class 0: 2, class 1: 4" in dot
    ax = model.plot(decimals=2)
    shown = " ".join(t.get_text() for t in ax.texts)
    assert "28.86" in shown and "28.85625" not in shown and "class 1: 4" in shown
    plt.close(ax.figure)
    assert "class 0: 2" in model.explain({"fare": 7.25})
    assert "1 sample " in model.to_text() or "1 sample (" in model.to_text()
    assert "1 samples" not in model.to_text()


def test_a_leaf_whose_classes_tie_says_so_everywhere():
    X = pd.DataFrame({"a": ["p", "p", "q", "q", "q", "r"]})
    y = ["yes", "no", "no", "no", "yes", "yes"]
    model = ID3Classifier().fit(X, y)
    rule = "the class that comes first in classes_ wins, so it predicts no"
    text = model.to_text()
    assert (
        f"a = p: 2 samples (no: 1, yes: 1), entropy 1.0000 -> predict no (no and yes tie with 1 sample each; {rule})"
        in text
    )
    assert f"Tie: no and yes tie with 1 sample each; {rule}." in model.explain({"a": "p"})
    assert "tie: 2 classes, first wins" in model.to_dot()


def test_text_measured_per_shape_is_measured_exactly(iris):
    from id3tree.render.plot import _Metrics

    root, classes = iris
    lines = [line for node in root.walk() for line in node_lines(node, classes)]
    lines += ["x 1 111 · 222", "≤ -0.000123", "samples = 9876543210"]
    metrics = _Metrics(None, 9.0, 100.0)
    for font in (metrics.regular, metrics.bold, metrics.small):
        shapes = {metrics.size([line], font) for line in lines}
        for line in lines:  # the cached size of the shape is the line's own measured size
            assert metrics.size([line], font) == pytest.approx(metrics._measure(line, font))
        assert len(metrics.sizes) < len(lines) and len(shapes) > 1
    block = ["samples = 150", "entropy = 1.585"]
    width, height = metrics.size(block, metrics.regular)
    assert width == pytest.approx(max(metrics._measure(line, metrics.regular)[0] for line in block))
    assert height > 1.5 * metrics._measure(block[0], metrics.regular)[1]  # two lines tall


def node_lines(node, classes):
    from id3tree.render.style import node_body, node_title

    return node_title(node) + node_body(node, classes, ("samples", "counts", "entropy", "gain"), 3)


# ---------------------------------------------------------------------------------------------
# large trees: grouped branches, bounded size, wrapped levels
# ---------------------------------------------------------------------------------------------
def test_grouping_keeps_the_largest_branches_and_adds_up_the_rest(adult):
    root, _ = adult
    grouped = 0
    for node in root.walk():
        kept, group = kept_branches(node, 6)
        if len(node.children) <= 6:
            assert group is None and kept == list(node.children.items())
            continue
        grouped += 1
        assert len(kept) == 5 and len(group.keys) == len(node.children) - 5 >= 2
        assert [k for k, _ in kept] == [k for k in node.children if k not in group.keys]
        smallest_kept = min(child.n_samples for _, child in kept)
        assert all(child.n_samples <= smallest_kept for child in group.nodes)
        # the kept boxes and the group's box hold every sample of the parent, class by class
        for c, n in node.class_counts.items():
            below = sum(child.class_counts.get(c, 0) for _, child in kept)
            assert below + group.class_counts.get(c, 0) == n
        assert sum(ch.n_samples for _, ch in kept) + group.n_samples == node.n_samples
    assert grouped > 10  # Adult has many splits on education, occupation, native-country


def test_the_group_box_in_dot_says_how_many_values_and_their_counts(adult):
    root, classes = adult
    dot = tree_to_dot(root, classes=classes, max_depth=2, max_branches=6)
    found = labels(dot)
    education = root.children["Husband"]  # 16 values: 5 drawn, 11 in the group
    kept, group = kept_branches(education, 6)
    counts = group.class_counts
    assert found[f"g{education.node_id}"] == [
        "+ 11 more values",
        f"samples = {group.n_samples}",
        ", ".join(f"{c}: {counts[c]}" for c in classes),
    ]
    assert found[f"{education.node_id}->g{education.node_id}"] == ["others"]
    tooltip = re.search(rf'\tg{education.node_id} \[.*tooltip="([^"]*)"', dot).group(1)
    assert html.unescape(tooltip).split(", ") == [str(k) for k in group.keys]
    n_boxes = sum(boxes_per_level(root, 6, 2, 10**9))
    assert len([k for k in found if "->" not in k and not k.startswith("m")]) == n_boxes
    assert dot == tree_to_dot(root, classes=classes, max_depth=2, max_branches=6)  # the same twice


def test_small_trees_need_no_grouping_and_keep_their_dot(tennis, mushroom):
    for root, classes in (tennis, mushroom):
        assert tree_to_dot(root, classes=classes) == tree_to_dot(
            root, classes=classes, max_branches=None
        )
    assert "+ 2 more values" in tree_to_dot(*tennis[:1], max_branches=2)


def test_adult_top_levels_are_drawn_in_bounded_figures(adult):
    root, classes = adult
    for depth, branches in ((2, 10), (4, 10), (4, "auto")):
        ax = plot_tree(root, classes=classes, max_depth=depth, max_branches=branches)
        width, height = ax.figure.get_size_inches() * ax.figure.dpi
        assert max(width, height) <= 8000
        n_boxes = len(drawn(ax, NODE_GID)) + len(drawn(ax, GROUP_GID))
        if branches == 10:
            assert n_boxes == sum(boxes_per_level(root, 10, depth, 10**9))
        assert len(drawn(ax, GROUP_GID)) > 0
        plt.close(ax.figure)
    assert n_boxes == sum(boxes_per_level(root, 5, 4, 10**9)) <= READABLE_BOXES
    whole = plot_tree(root, classes=classes)  # the whole tree does not fit: the top levels do
    width, height = whole.figure.get_size_inches() * whole.figure.dpi
    assert max(width, height) <= 8000
    assert [t for t in whole.texts if t.get_gid() == NOTE_GID]
    with pytest.raises(ValueError, match=r"max_depth=\d+ \(it fits\)"):
        plot_tree(root, classes=classes, max_depth=8, max_branches=10)


def test_auto_branches_group_more_only_past_the_readable_number_of_boxes(adult, tennis, iris):
    """max_branches="auto" keeps 10 branches while the levels asked for hold at most
    READABLE_BOXES boxes (the drawing is then the one of max_branches=10, byte for byte), and
    otherwise the most branches (not below FEWEST_BRANCHES) that stay within it, saying so."""
    for root in (tennis[0], iris[0]):
        assert readable_branches(root, 3) == (10, [])
    root, classes = adult
    for depth in (1, 2, 3, 4, 5):
        branches, note = readable_branches(root, depth)
        boxes = sum(boxes_per_level(root, branches, depth, 10**9))
        if sum(boxes_per_level(root, 10, depth, 10**9)) <= READABLE_BOXES:
            assert (branches, note) == (10, [])
        else:
            assert boxes <= READABLE_BOXES or branches == FEWEST_BRANCHES
            assert branches == 10 or sum(boxes_per_level(root, branches + 1, depth, 10**9)) > (
                READABLE_BOXES
            )  # the most branches that fit
            assert f"more than {branches} branches" in note[0]
    ax = plot_tree(root, classes=classes, max_depth=4)
    notes = [t.get_text() for t in ax.texts if t.get_gid() == NOTE_GID]
    assert any("max_branches=10" in text for text in notes), notes
    plt.close(ax.figure)


def test_a_wrapped_drawing_has_no_overlaps_and_every_box_inside(adult):
    root, classes = adult
    ax = plot_tree(root, classes=classes, max_depth=2, show=("samples",))
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    boxes = [p.get_window_extent(renderer) for p in drawn(ax, NODE_GID) + drawn(ax, GROUP_GID)]
    texts = [
        t.get_window_extent(renderer) for t in ax.texts if t.get_gid() in (EDGE_GID, MARKER_GID)
    ]
    assert overlapping(boxes + texts) == []
    width, height = ax.figure.get_size_inches() * ax.figure.dpi
    assert width < 4 * height  # a 35-box strip is wrapped towards the shape of a page
    canvas = ax.figure.bbox
    for e in boxes + texts:
        assert canvas.x0 <= e.x0 and e.x1 <= canvas.x1 and canvas.y0 <= e.y0 and e.y1 <= canvas.y1


def test_graphviz_bounds_chooses_depth_and_notes_it(adult):
    root, classes = adult
    dot = tree_to_dot(root, classes=classes, max_pixels=8000)
    assert 'size="83.3333,83.3333"' in dot and "labelloc=b" in dot
    match = re.search(r"The top (\d+) of (\d+) levels \(max_depth=(\d+)\)", dot)
    shown, total, depth = map(int, match.groups())
    assert shown == depth + 1 < total == 1 + max(n.depth for n in root.walk())
    assert labels(dot) == labels(tree_to_dot(root, classes=classes, max_depth=depth))


def test_deterministic_svg(iris):
    root, classes = iris
    out = []
    for _ in range(2):
        ax = plot_tree(root, classes=classes, max_branches=2)
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "id3tree"}):
            ax.figure.savefig(buffer, format="svg", metadata={"Date": None})
        out.append(buffer.getvalue())
        plt.close(ax.figure)
    assert out[0] == out[1]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"max_branches": 1}, "max_branches must be None"),
        ({"max_branches": "3"}, "max_branches must be None"),
        ({"max_branches": True}, "max_branches must be None"),
        ({"max_pixels": 50}, "max_pixels must be an integer of at least 100"),
        ({"max_pixels": 8000.0}, "max_pixels must be an integer"),
    ],
)
def test_bad_size_options_are_errors_that_say_why(tennis, options, message):
    with pytest.raises(ValueError, match=message):
        tree_to_dot(tennis[0], **options)
    with pytest.raises(ValueError, match=message):
        plot_tree(tennis[0], **options)
    with pytest.raises(ValueError, match="at most 60,000"):
        plot_tree(tennis[0], max_pixels=100_000)
