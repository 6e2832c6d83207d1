"""The build page as a student uses it the night before the deadline: look at the rows, climb
the hint ladder, choose, undo, reload, finish, export; and what its data and words say (the
rows that score the trees, the node numbers and paths of the trace, the counts of every table).
The exported answers are graded by id3tree's own grader."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from scipy.stats import entropy as scipy_entropy
from test_page_in_browser import follow_id3, open_page
from test_pencil_pages import check, is_equation

from id3tree import ID3Classifier
from id3tree.classroom.exercises import make_exercise
from id3tree.classroom.grading import grade
from id3tree.datasets import load, load_iris, load_play_tennis
from id3tree.model.node import node_paths
from id3tree.teaching.build import HINTS, SMALL, check_hints
from id3tree.teaching.page import tree_page


def page_data(html: str) -> dict:
    text = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', html, re.S)
    return json.loads(text.group(1))


def play_tennis():
    X, y = load_play_tennis(return_X_y=True)
    return X, y, ID3Classifier().fit(X, y)


def state(page) -> list:
    return page.evaluate("() => id3page.nodes().map(n => [n.parent, n.slot, !!n.choice])")


def choose(page, feature: str, threshold: str | None = None) -> None:
    page.select_option("#choose-feature", label=feature)
    if threshold is not None:
        value = page.eval_on_selector(
            "#choose-threshold",
            "(s, t) => [...s.options].find(o => o.text.startsWith(t)).value",
            f"<= {threshold} (",
        )
        page.select_option("#choose-threshold", value=value)
    page.click("#split")


def export(page) -> dict:
    with page.expect_download() as download:
        page.click("#export-json")
    assert download.value.suggested_filename == "id3tree-answers.json"
    return json.loads(open(download.value.path(), encoding="utf-8").read())


# ---------------------------------------------------------------------------------------------
# the data and the words (no browser)
# ---------------------------------------------------------------------------------------------
def test_a_small_data_set_keeps_its_rows_and_says_so():
    X, y, tree = play_tennis()
    d = page_data(tree.to_html(mode="build"))
    assert len(d["train"]["y"]) == len(y) == 14 < SMALL  # every row to grow on
    assert d["id3"]["feature"][0] == list(X.columns).index("Outlook")  # the textbook's root
    about = d["test"]["about"]
    assert about.startswith("The trees are scored on the 14 training rows themselves")
    assert f"fewer than {SMALL} rows" in about and "holdout=0)" not in about
    # a larger one keeps 30% aside, and holdout=0 says it in a sentence of its own
    iris = ID3Classifier().fit(*load_iris(return_X_y=True))
    d = page_data(iris.to_html(mode="build"))
    assert len(d["train"]["y"]) == 105 and len(d["test"]["y"]) == 45
    assert d["test"]["about"].startswith("The trees are scored on 45 rows (30%) the page kept")
    assert sorted(d["train"]["row"]) == d["train"]["row"] and len(set(d["train"]["row"])) == 105
    d = page_data(iris.to_html(mode="build", holdout=0))
    assert "no rows were kept aside (holdout=0)." in d["test"]["about"]
    for data in (d, page_data(tree.to_html(mode="build", test=(X, y)))):
        assert re.fullmatch(
            r"The trees are scored on [^.]*\.( [A-Z][^.]*\.)*", data["test"]["about"]
        )


def test_hints_title_and_holdout_are_checked_by_name():
    X, y, tree = play_tennis()
    assert check_hints(["choice", "formula"]) == ["formula", "choice"]  # the ladder's order
    assert check_hints([]) == [] and check_hints(HINTS) == list(HINTS)
    for bad, words in (
        ("formula", "hints must be a list"),
        (["formula", "answer"], "'answer' is not a hint step"),
        (None, "hints must be a list"),
    ):
        with pytest.raises(ValueError, match=words):
            check_hints(bad)
    with pytest.raises(ValueError, match="hints applies to mode='build' only"):
        tree_page(tree, hints=["formula"])
    with pytest.raises(ValueError, match="title must be text"):
        tree.to_html(title=5)
    with pytest.raises(ValueError, match="holdout must be a number in"):
        tree.to_html(mode="build", holdout=1.5)
    with pytest.raises(ValueError, match="random_state"):
        tree.to_html(mode="build", holdout=0.2, random_state=-1)
    # the same data gives the same key (the browser's saved work), other hints another
    key = page_data(tree_page(tree, mode="build"))["key"]
    assert key == page_data(tree_page(tree, mode="build"))["key"]
    assert key != page_data(tree_page(tree, mode="build", hints=["formula"]))["key"]


# ---------------------------------------------------------------------------------------------
# the student: look, hint, choose, undo, reload, finish, export
# ---------------------------------------------------------------------------------------------
def test_a_student_looks_hints_undoes_reloads_finishes_and_exports(tmp_path, browser_page):
    X, y, tree = play_tennis()
    path = tmp_path / "build.html"
    tree.to_html(path, mode="build")
    page = open_page(browser_page, path)
    # before choosing: the rows, then the ladder, one step at a time
    page.click("#rows summary")
    rows = page.locator("#rows table.rows tr").all_inner_texts()
    assert len(rows) == 15 and rows[1].split("\t") == ["1", *map(str, X.iloc[0]), y.iloc[0]]
    assert page.locator("#hint-formula").count() == 0
    assert page.inner_text("#hint").startswith("Show a hint: the formulas (1 of 4)")
    page.click("#hint")
    assert "Here: H(S) = −(5/14) log2(5/14) − (9/14) log2(9/14) = 0.9403" in page.inner_text(
        "#hint-formula"
    )
    assert page.locator(".feature-hint").count() == 0  # no counts yet
    page.click("#hint")  # the counts: class order stated, no gains
    counts = page.inner_text("#hint-counts")
    assert "in the order of the classes: No / Yes" in counts and "gain" not in counts
    outlook = page.locator('.feature-hint[data-feature="Outlook"]')
    outlook.locator("summary").click()
    table = outlook.locator("table").inner_text()
    assert "Sunny\t5\t3\t2" in table and "Overcast\t4\t0\t4" in table
    page.click("#hint")  # the sums and gains, by pencil
    assert "Outlook: gain 0.2467" in page.inner_text("#hint-gains")
    equations = page.eval_on_selector_all(
        "#hint-gains p.equation", "e => e.map(p => p.textContent)"
    )
    assert "H(S | Outlook) = 4/14 × 0.0000 + 5/14 × 0.9710 + 5/14 × 0.9710 ≈ 0.6935" in equations
    assert page.locator("#hint-choice").count() == 0
    page.click("#hint")
    assert "ID3 splits here on Outlook: gain 0.2467" in page.inner_text("#hint-choice")
    assert page.locator("#hint").count() == 0
    # a wrong choice, then undo, redo and undo again
    choose(page, "Humidity")
    assert "bad" in page.get_attribute("#feedback", "class")
    assert page.inner_text("#progress") == "2 nodes to decide"
    page.click("#undo")
    assert page.inner_text("#progress") == "1 node to decide"
    page.click("#redo")
    assert page.inner_text("#progress") == "2 nodes to decide"
    page.keyboard.press("Control+z")
    assert page.inner_text("#progress") == "1 node to decide"
    # ID3's root, then a reload: the same file resumes, the hints taken remembered
    choose(page, "Outlook")
    assert "That is ID3's choice" in page.inner_text("#feedback")
    page.reload()
    assert page.inner_text("#progress") == "2 nodes to decide"
    assert "was restored" in page.inner_text("#saved")
    assert state(page)[0][2] and len(state(page)) == 4
    page.evaluate("() => id3page.select(0)")
    assert page.inner_text("#decision").startswith("Your choice: split on Outlook")
    # finish as ID3 does: the trace's numbers (Sunny is node 5) and every node agreeing
    follow_id3(page, tree, X)
    boxes = page.eval_on_selector_all(
        "#tree g.node", "e => e.map(g => g.querySelector('text').textContent)"
    )
    assert "✓ #5 Humidity" in boxes and "✓ #2 Wind" in boxes
    assert "8 of your 8 nodes make ID3's decision" in page.inner_text("#agreement")
    answers = export(page)
    key = {  # what Exercise.answers() holds, made here from the fitted tree
        "root_entropy": tree.root_.entropy,
        "gains": {t.feature: t.gain for t in tree._teaching().tables(0) if t.valid},
        "root_feature": "Outlook",
    }
    assert answers["root_feature"] == key["root_feature"]
    assert answers["root_entropy"] == pytest.approx(key["root_entropy"], abs=1e-12)
    assert answers["gains"] == pytest.approx(key["gains"], abs=1e-12)
    assert answers["tree"]["branches"]["Sunny"]["feature"] == "Humidity"
    assert answers["tree"]["branches"]["Overcast"] == {"entropy": 0, "predict": "Yes"}
    assert browser_page.errors == []


def test_the_exported_answers_of_id3s_tree_get_full_marks(tmp_path, browser_page):
    """An exercise of id3tree.classroom (numbers and categories): the page grows ID3's tree, and
    its export, graded by the exercise, is all right; a tree with another root loses marks."""
    for kind, seed in (("mixed", 3), ("numeric", 1)):
        ex = make_exercise(kind=kind, n_rows=12, seed=seed)
        path = tmp_path / f"{kind}.html"
        ex.tree.to_html(path, mode="build")
        page = open_page(browser_page, path)
        follow_id3(page, ex.tree, ex.X)
        answers = export(page)
        marks = grade(ex, answers)
        assert marks.score == 1.0 and not marks.wrong, (kind, str(marks))
        assert set(answers["best_thresholds"]) == set(ex.numeric)
        # another root: the tree task and the root task lose marks, the numbers stay right
        page.evaluate("() => localStorage.clear()")
        page.reload()
        other = next(n for n in ex.X.columns if n != ex.tree.root_.feature)
        page.select_option("#choose-feature", label=other)
        if other in ex.numeric:
            page.select_option("#choose-threshold", index=1)
        page.click("#split")
        for _ in range(50):
            if not page.locator("#next-open").count():
                break
            page.click("#next-open")
            page.click("#leaf")
        wrong = grade(ex, export(page))
        assert wrong.score < 1.0
        assert {c.task for c in wrong.wrong} >= {"root", "tree"}
        assert {c.task for c in wrong.wrong} <= {"root", "tree"}
    assert browser_page.errors == []


def test_asked_before_anything_is_thrown_away(tmp_path, browser_page):
    X, y, tree = play_tennis()
    path = tmp_path / "build.html"
    tree.to_html(path, mode="build")
    page = open_page(browser_page, path)
    page.click("#restart")  # nothing to lose: nothing asked
    assert page.locator("#confirm[open]").count() == 0
    follow_id3(page, tree, X)
    for button, where in (("#restart", None), ("#change", 0)):
        if where is not None:
            page.evaluate("i => id3page.select(i)", where)
        page.click(button)
        assert page.locator("#confirm[open]").count() == 1
        assert "Undo brings them back" in page.inner_text("#confirm")
        page.keyboard.press("Escape")  # keeps everything
        assert page.inner_text("#progress") == "Your tree is finished."
    page.click("#restart")
    page.click("#confirm-yes")
    assert page.inner_text("#progress") == "1 node to decide"
    page.click("#undo")
    assert page.inner_text("#progress") == "Your tree is finished."
    assert browser_page.errors == []


def test_teachers_hints_and_feedback_at_the_end(tmp_path, browser_page):
    X, y, tree = play_tennis()
    path = tmp_path / "build.html"
    path.write_text(tree_page(tree, mode="build", hints=["counts"]), encoding="utf-8")
    page = open_page(browser_page, path)
    assert page.inner_text("#hint").startswith("Show a hint: each feature's class counts (1 of 1)")
    page.click("#hint")
    assert page.locator("#hint-formula, #hint-gains, #hint-choice").count() == 0
    choose(page, "Temperature")  # no verdict, no gains: until the tree is finished
    assert "shown when your tree is finished" in page.inner_text("#feedback")
    assert page.locator("#build-candidates").count() == 0
    answers = export(page)
    assert set(answers) == {"root_entropy", "root_feature", "tree"}  # no gains to copy
    for _ in range(20):
        if page.locator("#score").count():
            break
        page.click("#next-open")
        page.click("#leaf")
    page.evaluate("() => id3page.select(0)")
    assert "bad" in page.get_attribute("#feedback", "class")  # the verdict, once finished
    path.write_text(tree_page(tree, mode="build", hints=[]), encoding="utf-8")
    page = open_page(browser_page, path)
    assert page.locator("#hint").count() == 0
    assert "gives no hints" in page.inner_text("#hints")
    assert browser_page.errors == []


# ---------------------------------------------------------------------------------------------
# the words: node numbers, paths, tables
# ---------------------------------------------------------------------------------------------
def test_node_numbers_and_paths_are_the_traces(tmp_path, browser_page):
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "iris.html"
    tree.to_html(path, mode="build", holdout=0)
    page = open_page(browser_page, path)
    follow_id3(page, tree, X)
    paths = node_paths(tree.root_)
    ids = [node.node_id for node in tree.root_.walk()]
    assert len(state(page)) == len(ids)
    for i, node_id in enumerate(ids):
        page.evaluate("i => id3page.select(i)", i)
        assert page.inner_text("#node-title").startswith(f"Node {node_id}")
        words = " and ".join(paths[node_id])
        shown = page.locator("#details p.path")
        assert (shown.inner_text() if shown.count() else "") == words
    # (Iris cuts petal_width twice on some paths: one interval, as the trace writes it)
    assert any(re.fullmatch(r"[\d.]+ < \w+ <= [\d.]+", w) for p in paths.values() for w in p)
    assert browser_page.errors == []


def test_the_threshold_table_says_its_class_order_and_counts_the_missing_rows(
    tmp_path, browser_page
):
    X, y = load("titanic", return_X_y=True)
    X = X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"])
    tree = ID3Classifier(max_depth=2).fit(X, y)
    path = tmp_path / "titanic.html"
    tree.to_html(path, mode="build", holdout=0)
    page = open_page(browser_page, path)
    for _ in range(3):
        page.click("#hint")
    age = page.locator('.feature-hint[data-feature="Age"]')
    age.locator("summary").click()
    head = age.locator("table.thresholds tr").first.inner_text().split("\t")
    classes = page_data(path.read_text(encoding="utf-8"))["classes"]
    order = " / ".join(classes)
    assert head[2:5] == [f"≤ side ({order})", f"> side ({order})", f"missing ({order})"]
    assert "count in its overall entropy" in age.inner_text()
    n = len(y)
    checked = 0
    for row in age.locator("table.thresholds tr").all_inner_texts()[1:]:
        cells = row.split("\t")
        sides = [[int(v) for v in cells[k].split(" / ")] for k in (2, 3, 4)]
        assert sum(map(sum, sides)) == n  # the shown counts are every row of the node
        overall = sum(sum(c) / n * scipy_entropy(c, base=2) for c in sides if sum(c))
        assert abs(overall - float(cells[5])) <= 0.00005 + 1e-12, row
        checked += 1
    assert checked > 50
    assert browser_page.errors == []


def test_every_equation_of_the_hints_holds_by_pencil(tmp_path, browser_page):
    X, y = load("titanic", return_X_y=True)
    X = X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"])
    for name, tree in (
        ("play_tennis", play_tennis()[2]),
        ("iris", ID3Classifier().fit(*load_iris(return_X_y=True))),
        ("titanic", ID3Classifier(max_depth=3).fit(X, y)),
    ):
        path = tmp_path / f"{name}.html"
        tree.to_html(path, mode="build", holdout=0)
        page = open_page(browser_page, path)
        found = []
        for _ in range(12):  # the root and the nodes of ID3's first splits
            while page.locator("#hint").count():
                page.click("#hint")
            found += page.eval_on_selector_all(
                "#details p.equation", "e => e.map(p => p.textContent.replace('Here: ', ''))"
            )
            text = page.inner_text("#hint-choice")
            feature = re.search(r"on (.+?)(?: <= ([^:]+))?:", text)
            if feature is None:
                page.click("#leaf")
            else:
                choose(page, feature.group(1), feature.group(2))
            if not page.locator("#next-open").count():
                break
            page.click("#next-open")
        equations = [e.replace("\u2212", "-") for e in found]
        equations = [e for e in equations if is_equation(e)]
        assert len(equations) >= 8, name
        problems = [p for p in map(check, equations) if p]
        assert not problems, f"{name}: " + "\n".join(problems[:10])
        if any("≈" in e for e in equations):
            assert "≈ marks a result" in page.inner_text("#legend")
    assert browser_page.errors == []


def test_picture_and_printed_page(tmp_path, browser_page):
    X, y, tree = play_tennis()
    path = tmp_path / "build.html"
    tree.to_html(path, mode="build")
    page = open_page(browser_page, path)
    follow_id3(page, tree, X)
    with page.expect_download() as download:
        page.click("#export-png")
    png = open(download.value.path(), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width > 600 and height > 300  # the whole tree, at twice its size
    page.evaluate("() => { window.print = () => {}; }")
    page.click("#print")
    page.emulate_media(media="print")
    assert not page.is_visible("header") and not page.is_visible("#tree")
    assert page.is_visible("#print-view")
    rows = page.locator("#print-decisions tr").all_inner_texts()
    assert len(rows) == 1 + tree._tree.n_nodes
    assert rows[6].split("\t")[:2] == ["5", "Outlook = Sunny"]
    assert page.locator("#print-view svg g.node").count() == tree._tree.n_nodes
    assert "Accuracy: your tree 14 of 14" in page.inner_text("#print-view")
    page.emulate_media(media="screen")
    assert browser_page.errors == []


def test_page_numbers_match_a_plain_recount():
    """The page's arithmetic is in the browser; its inputs are checked here: the training rows
    the page holds give the fitted tree's root counts, and the scoring rows ID3's accuracy."""
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    d = page_data(tree.to_html(mode="build"))
    counts = np.bincount(d["train"]["y"], minlength=3)
    kept = np.array(d["train"]["row"]) - 1
    expected = np.unique(np.asarray(y)[kept], return_counts=True)[1]
    assert counts.tolist() == expected.tolist()
    assert all(0 <= k < len(y) for k in kept)
