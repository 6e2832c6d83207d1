"""Teaching tools: step-through, why-not, worked solutions, exercises, the HTML page.

Numbers are checked against seed 002's published table (Play Tennis), hand calculations done
here with exact fractions and ``math.log2``, the public ``candidate_splits`` and ``trace_``.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier, candidate_splits, information_gain
from id3tree.classroom.exercises import make_exercise, sheet_latex
from id3tree.cli.commands import main
from id3tree.datasets import load_iris, load_play_tennis


@pytest.fixture(scope="module")
def tennis():
    X, y = load_play_tennis(return_X_y=True)
    return ID3Classifier().fit(X, y), X, y


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return ID3Classifier().fit(X, y), X, y


def node_at(tree, *path):
    """The node reached by following branch keys from the root (ids are not hard-coded)."""
    node = tree.root_
    for key in path:
        node = node.children[key]
    return node


def hand_entropy(counts) -> float:
    n = sum(counts)
    return -sum(float(Fraction(c, n)) * math.log2(Fraction(c, n)) for c in counts if c)


# ---------------------------------------------------------------------------------------------
# worked solutions
# ---------------------------------------------------------------------------------------------
SEED_002_GAINS = {"Outlook": 0.2467, "Temperature": 0.0292, "Humidity": 0.1518, "Wind": 0.0481}


def test_worked_solution_of_the_play_tennis_root_reproduces_seed_002(tennis):
    tree, X, y = tennis
    text = tree.worked_solution(tree.root_.node_id)
    assert "H(S) = -(9/14) log2(9/14) - (5/14) log2(5/14) = 0.9403" in text
    for feature, gain in SEED_002_GAINS.items():
        assert re.search(rf"Gain\(S, {feature}\) = 0\.9403 - 0\.\d{{4}} [=≈] {gain:.4f}", text)
    # seed 002's per-value rows: value, count, class counts
    assert "| Sunny | 5 | 3 | 2 |" in text and "| Overcast | 4 | 0 | 4 |" in text
    # 5/14 x 0.9710 twice is 0.69357 by pencil: the exact 0.6935 is marked, and so is the gain
    assert "H(S | Outlook) = 4/14 × 0 + 5/14 × 0.9710 + 5/14 × 0.9710 ≈ 0.6935" in text
    assert "Gain(S, Outlook) = 0.9403 - 0.6935 ≈ 0.2467" in text
    assert "H(S_{Outlook=Rain}) = -(3/5) log2(3/5) - (2/5) log2(2/5) = 0.9710" in text
    assert text.count("≈ marks a result") == 1
    assert "splits on Outlook" in text


def test_every_printed_entropy_matches_its_fractions(tennis, iris):
    """Recompute every ``-(a/n) log2(a/n) - ... = v`` of the whole-tree solutions by hand."""
    for tree, _, _ in (tennis, iris):
        text = tree.worked_solution()
        found = re.findall(r"((?:-? ?\(\d+/\d+\) log2\(\d+/\d+\) ?)+)= (\d\.\d{4})", text)
        assert len(found) > 10
        for expr, value in found:
            fractions = [
                Fraction(int(a), int(b)) for a, b in re.findall(r"\((\d+)/(\d+)\) log2", expr)
            ]
            assert sum(fractions) == 1
            hand = -sum(float(p) * math.log2(p) for p in fractions)
            assert abs(hand - float(value)) <= 5e-5


def test_gains_of_the_worked_solution_equal_the_trace(iris):
    tree, X, y = iris
    record = tree._teaching()
    trace = tree.trace_.dropna(subset=["feature"])
    for row in trace.itertuples():
        table = record.table(row.node, row.feature)
        if np.isnan(row.gain):
            assert not table.valid
        else:
            assert table.gain == pytest.approx(row.gain, abs=1e-12)
            assert table.threshold == pytest.approx(row.threshold)


def test_numeric_root_says_between_which_values(iris):
    tree, X, y = iris
    text = tree.worked_solution(tree.root_.node_id)
    # independent: the largest setosa petal length and the smallest of the others
    low = X.loc[y == "setosa", "petal_length"].max()
    high = X.loc[y != "setosa", "petal_length"].min()
    assert f"petal_length <= {(low + high) / 2:g}, between {low:g} and {high:g}" in text
    assert "| <= 2.45 | 50 | 50 | 0 | 0 |" in text
    # the winning threshold is the one of lowest overall entropy in candidate_splits
    table = candidate_splits(X["petal_length"], y)
    best = table.loc[table["overall_entropy"].idxmin()]
    assert f"= {best['overall_entropy']:.4f}" in text
    assert f"{table.shape[0]} candidate midpoints" in text


def test_decimal_form_and_latex(tennis):
    tree, _, _ = tennis
    decimals = tree.worked_solution(0, exact=False)
    # by pencil, -0.6429 log2(0.6429) - 0.3571 log2(0.3571) is 0.94027..., not 0.9403's 0.94029
    hand = -sum(p * math.log2(p) for p in (0.6429, 0.3571))
    assert round(hand, 4) != 0.9403
    assert "-0.6429 log2(0.6429) - 0.3571 log2(0.3571) ≈ 0.9403" in decimals
    latex = tree.worked_solution(format="latex")
    assert r"-\frac{9}{14}\log_2\frac{9}{14} - \frac{5}{14}\log_2\frac{5}{14} = 0.9403" in latex
    check_latex(latex)
    with pytest.raises(ValueError, match="format must be one of"):
        tree.worked_solution(format="html")
    with pytest.raises(ValueError, match="there is no node 99"):
        tree.worked_solution(99)


def test_gain_ratio_solution_shows_split_information():
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier(criterion="gain_ratio").fit(X, y)
    text = tree.worked_solution(0)
    # Outlook: split information of 4, 5, 5 rows out of 14, by hand
    split = hand_entropy([4, 5, 5])
    assert "SplitInfo(S, Outlook) = " in text
    assert f"= {split:.4f}" in text
    assert re.search(
        rf"GainRatio\(S, Outlook\) = 0\.2467 / {split:.4f} [=≈] {0.2467498 / split:.4f}", text
    )


def check_latex(text: str) -> None:
    """Balanced braces and environments, no stray specials outside math."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{" and text[i - 1] != "\\":
            depth += 1
        elif ch == "}" and text[i - 1] != "\\":
            depth -= 1
            assert depth >= 0
    assert depth == 0
    opened = re.findall(r"\\begin\{(\w+)\}", text)
    closed = re.findall(r"\\end\{(\w+)\}", text)
    assert sorted(opened) == sorted(closed)
    assert text.count(r"\[") == text.count(r"\]")


def test_latex_sheet_compiles(compile_latex):
    exercise = make_exercise("mixed", 12, seed=3)
    document = sheet_latex([exercise], answers=True)
    check_latex(document)
    compile_latex(document, "answers")  # (skips without pdflatex: the LaTeX was parse-checked)


# ---------------------------------------------------------------------------------------------
# step-through
# ---------------------------------------------------------------------------------------------
def test_steps_visit_every_node_depth_first(iris):
    tree, _, _ = iris
    steps = list(tree.steps())
    assert len(steps) == sum(1 for _ in tree.root_.walk())
    assert [s.node for s in steps] == list(tree.root_.walk())
    seen = set()
    for s in steps:
        if s.info.parent is not None:
            assert s.info.parent.node_id in seen  # a parent always comes before its children
        seen.add(s.node_id)
        if not s.node.is_leaf:
            children = list(s.node.children.values())
            total = np.sum([list(c.class_counts.values()) for c in children], axis=0)
            assert total.tolist() == list(s.node.class_counts.values())
            assert 0 <= s.node.entropy <= math.log2(3) + 1e-12


def test_a_step_shows_its_candidates_and_decision(tennis):
    tree, _, _ = tennis
    sunny = node_at(tree, "Sunny")
    k = list(tree.root_.walk()).index(sunny)
    step = tree.step(k)
    text = str(step)
    assert f"node {sunny.node_id} (Outlook = Sunny" in text
    assert "already used on the path" in text  # Outlook is no candidate below Outlook
    assert "decision: split on Humidity into High (3), Normal (2)" in text
    frame = step.candidates
    assert frame.set_index("feature").loc["Humidity", "gain"] == pytest.approx(hand_entropy([3, 2]))
    html = step._repr_html_()
    assert "<svg" in html and "<table" in html and 'class="node current"' in html
    # the drawing shows the tree grown so far: this node and those before it, not those after
    drawn = set(map(int, re.findall(r'class="node[^"]*" data-node="(\d+)"', html)))
    assert drawn == {s.node_id for s in list(tree.steps())[: k + 1]}
    assert tree.step(-1).node_id == list(tree.root_.walk())[-1].node_id
    with pytest.raises(ValueError, match="this tree has 8 steps"):
        tree.step(8)


def test_leaf_steps_say_why_they_stop(tennis):
    tree, _, _ = tennis
    overcast = node_at(tree, "Overcast")
    step = next(s for s in tree.steps() if s.node_id == overcast.node_id)
    assert step.tables == []
    assert "pure" in step.reason and step.decision == "leaf: predict Yes"


# ---------------------------------------------------------------------------------------------
# why not
# ---------------------------------------------------------------------------------------------
def test_why_not_at_the_root_compares_with_the_winner(tennis):
    tree, X, y = tennis
    answer = tree.why_not(tree.root_.node_id, "Temperature")
    assert answer.kind == "lower_score" and answer.winner == "Outlook"
    assert answer.gain == pytest.approx(information_gain(X["Temperature"], y))
    assert answer.winner_gain == pytest.approx(information_gain(X["Outlook"], y))
    assert "0.0292" in str(answer) and "0.2467" in str(answer) and "0.2175 less" in str(answer)


def test_why_not_names_the_rule_that_excluded_a_feature(tennis):
    tree, _, _ = tennis
    used = tree.why_not(node_at(tree, "Sunny"), "Outlook")
    assert used.kind == "excluded" and "already used on the path" in str(used)
    leaf = tree.why_not(node_at(tree, "Overcast"), "Wind")
    assert leaf.kind == "not_scored" and "pure" in str(leaf)
    chosen = tree.why_not(tree.root_, "Outlook")
    assert chosen.kind == "chosen"
    with pytest.raises(ValueError, match="unknown feature 'Rain'"):
        tree.why_not(0, "Rain")


def test_why_not_reports_a_tie_broken_by_column_order(iris):
    tree, X, y = iris
    # petal_length and petal_width separate setosa equally well at the root
    assert information_gain(X["petal_length"], y) == pytest.approx(
        information_gain(X["petal_width"], y)
    )
    answer = tree.why_not(tree.root_, "petal_width")
    assert answer.kind == "tie" and "column order" in str(answer)


def test_why_not_min_samples_leaf_and_constant_values():
    X = pd.DataFrame(
        {
            "colour": ["red", "red", "red", "blue", "blue", "green"],
            "size": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            "weight": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    y = ["a", "a", "b", "b", "b", "a"]
    tree = ID3Classifier(min_samples_leaf=2).fit(X, y)
    colour = tree.why_not(tree.root_, "colour")
    assert colour.kind == "excluded"
    assert "colour = green would get 1 row, fewer than min_samples_leaf = 2" in str(colour)
    size = tree.why_not(tree.root_, "size")
    assert size.kind == "excluded" and "no midpoint" in str(size)


# ---------------------------------------------------------------------------------------------
# exercises
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["categorical", "numeric", "mixed"])
def test_exercises_are_reproducible_and_solved(kind):
    a = make_exercise(kind=kind, n_rows=12, seed=5)
    b = make_exercise(kind=kind, n_rows=12, seed=5)
    c = make_exercise(kind=kind, n_rows=12, seed=6)
    assert a.data.equals(b.data) and a.question == b.question and a.solution == b.solution
    assert not a.data.equals(c.data)
    assert a.data.shape[0] == 12 and a.target in a.data
    assert ("numeric" in kind or "mixed" in kind) == bool(a.numeric)
    # the answer key's root gains, recomputed by hand from the exercise's own data
    y = a.data[a.target]
    parent = hand_entropy(y.value_counts().tolist())
    assert "H(S) = " in a.solution and f"= {parent:.4f}" in a.solution.replace("≈", "=")
    for feature in a.X:
        if feature in a.numeric:
            gain = candidate_splits(a.X[feature], y)["gain"].max()
        else:
            gain = parent - sum(
                len(g) / len(y) * hand_entropy(g.value_counts().tolist())
                for _, g in y.groupby(a.X[feature])
            )
        assert f"Gain(S, {feature}) = {parent:.4f} - " in a.solution
        assert re.search(rf"Gain\(S, {feature}\) = .* [=≈] {gain:.4f}", a.solution)
    assert "Build the whole tree" in a.question


def test_exercise_arguments_are_checked():
    with pytest.raises(ValueError, match="kind must be one of"):
        make_exercise(kind="text")
    with pytest.raises(ValueError, match="n_rows must be an integer from 6 to 40"):
        make_exercise(n_rows=3)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        make_exercise(seed=-1)


def test_exercise_command_writes_sheet_and_key(tmp_path, capsys):
    assert (
        main(["exercise", "--kind", "numeric", "--count", "2", "--out", str(tmp_path), "--latex"])
        == 0
    )
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["answers.md", "answers.tex", "exercises.md", "exercises.tex"]
    sheet = (tmp_path / "exercises.md").read_text(encoding="utf-8")
    key = (tmp_path / "answers.md").read_text(encoding="utf-8")
    assert sheet.count("## Exercise") == 2 and "Worked solution" not in sheet
    assert key.count("Worked solution") == 2
    check_latex((tmp_path / "answers.tex").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# the page
# ---------------------------------------------------------------------------------------------
def test_page_is_self_contained_and_escapes_labels(tmp_path):
    nasty = "</script><script>alert(1)</script>"
    X = pd.DataFrame({nasty: ["<b>a</b>", "<b>a</b>", "x&y", "x&y"], "n": [1.0, 2.0, 3.0, 4.0]})
    y = ["<i>yes</i>", "<i>yes</i>", "no", "no"]
    tree = ID3Classifier().fit(X, y)
    page = tree.to_html()
    assert "<script>alert" not in page and "<b>a</b>" not in page and "<i>yes" not in page
    assert not re.search(r"(src|href)\s*=", page, re.I)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
    data = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', page, re.S)
    parsed = json.loads(data.group(1))
    assert parsed["features"][0] == nasty and parsed["classes"] == ["<i>yes</i>", "no"]
    path = tmp_path / "tree.html"
    assert tree.to_html(path) is None and path.read_text(encoding="utf-8") == page


def test_explore_command_writes_the_page(tmp_path, capsys):
    out = tmp_path / "tree.html"
    assert main(["explore", "iris", "--target", "species", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert main(["explore", "iris", "--target", "nope", "--out", str(out)]) == 2


def test_teaching_needs_the_training_data(tennis):
    tree, _, _ = tennis
    loaded = ID3Classifier.from_json(tree.to_json())
    with pytest.raises(ValueError, match="only fit\\(\\) on in-memory data keeps"):
        loaded.worked_solution()


def test_every_threshold_of_a_numeric_table_matches_candidate_splits(iris):
    tree, X, y = iris
    for feature in X:
        table = tree.step(0).tables[list(X).index(feature)].to_frame()
        reference = candidate_splits(X[feature], y)
        assert np.allclose(table["threshold"], reference["threshold"])
        assert np.allclose(table["overall_entropy"], reference["overall_entropy"], atol=1e-12)
        assert (table["n_left"] == reference["n_left"]).all()
        left = table.filter(like="left ").sum(axis=1)
        assert (left == table["n_left"]).all()  # class counts add up to the side's size
        assert table["best"].sum() == 1


def test_a_tree_grown_from_dask_says_it_has_no_rows_to_count():
    dd = pytest.importorskip("dask.dataframe")
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    assert "Outlook" in tree.worked_solution(0)
    frame = dd.from_pandas(X.assign(Play=y), npartitions=2)
    tree.fit(frame[list(X.columns)], frame["Play"])
    with pytest.raises(ValueError, match="grown from a Dask DataFrame, has none"):
        tree.worked_solution(0)


def test_markdown_of_the_solution_renders_as_tables_and_paragraphs(tennis):
    markdown_it = pytest.importorskip("markdown_it")
    tree, _, _ = tennis
    solution = tree.worked_solution()
    # Jupyter renders the same Markdown with its formulas typeset
    shown = solution._repr_markdown_()
    assert shown == solution.math() and shown != str(solution)
    assert re.sub(r"\$\$ .* \$\$", "", shown) == re.sub(
        r"^[HG].*[=≈] .*$", "", str(solution), flags=re.M
    )
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(str(solution))
    # one table per feature at the root, three below it (Outlook is used up) at Rain and Sunny
    assert html.count("<table>") == 4 + 3 + 3
    assert "<td>Sunny</td>" in html and "<strong>Decision</strong>" in html
    assert "<li>" not in html  # no formula line was taken for a list item


def test_why_not_under_gain_ratio_compares_ratios():
    from id3tree import gain_ratio

    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier(criterion="gain_ratio").fit(X, y)
    answer = tree.why_not(0, "Humidity")
    assert answer.kind == "lower_score" and "loses on gain ratio" in str(answer)
    assert answer.gain_ratio == pytest.approx(gain_ratio(X["Humidity"], y))
    assert answer.winner_gain_ratio == pytest.approx(gain_ratio(X["Outlook"], y))
    # Outlook's split information: the entropy of its branch sizes 4, 5, 5
    assert f"(split information {hand_entropy([4, 5, 5]):.4f})" in str(answer)


def test_step_k_is_labelled_k_and_names_the_next_one(tennis):
    tree, _, _ = tennis
    steps = list(tree.steps())
    for k, step in enumerate(steps):
        shown = tree.step(k)
        assert shown.node_id == step.node_id  # step(k) is the k-th of steps()
        assert str(shown).startswith(f"Step {k} (steps 0 to {len(steps) - 1}): ")
        html = shown._repr_html_()
        if k + 1 < len(steps):
            assert f"next: tree.step({k + 1})" in str(shown)
            assert f"next: <code>tree.step({k + 1})</code>" in html
        else:
            assert "next:" not in str(shown) and "next:" not in html
    assert str(tree.step(-1)).startswith(f"Step {len(steps) - 1} ")
