"""The interactive pages in a real browser: the explorer (click, step, search, fit, zoom, fold)
and the build page (choose a split, see the feedback, finish, see the score)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from id3tree import ID3Classifier
from id3tree.base.words import format_number
from id3tree.datasets import load, load_iris, load_play_tennis


def open_page(view, path, width=1280, height=800):
    view.page.set_viewport_size({"width": width, "height": height})
    view.page.goto(path.as_uri())
    return view.page


def drawn(page) -> list[int]:
    return [
        int(v) for v in page.eval_on_selector_all("#tree g.node", "e => e.map(g => g.dataset.node)")
    ]


def test_click_step_and_search_in_chromium(tmp_path, browser_page):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "tree.html"
    tree.to_html(path)
    order = [node.node_id for node in tree.root_.walk()]
    sunny = tree.root_.children["Sunny"]
    page = open_page(browser_page, path)
    # at first: the whole tree (8 nodes fit side by side), the root's details
    assert sorted(drawn(page)) == sorted(order)
    assert page.inner_text("#step-label") == f"the whole tree, {len(order)} nodes"
    page.click(f'#tree g.node[data-node="{order.index(sunny.node_id)}"] rect')
    details = page.inner_text("#details")
    assert f"Node {sunny.node_id}" in details and "Outlook = Sunny" in details
    counts = dict(
        zip(
            page.locator("#counts td:nth-child(1)").all_inner_texts(),
            page.locator("#counts td:nth-child(2)").all_inner_texts(),
        )
    )
    assert counts == {"No": "3", "Yes": "2"}
    chosen = page.inner_text("#candidates tr.chosen")
    assert chosen.startswith("Humidity") and "0.9710" in chosen
    assert "already used on the path" in page.inner_text("#candidates")
    # the chosen candidate's sums are open under it: 3/5 x 0 + 2/5 x 0 = 0
    assert "H(S | Humidity) = 3/5 × 0.0000 + 2/5 × 0.0000 = 0.0000" in details
    # the step buttons replay the growth node by node, in reading order (step k is node k)
    page.click("#first")
    assert page.inner_text("#step-label") == f"Step 0 of {len(order) - 1}"
    assert drawn(page) == [0]
    for k in range(1, 4):
        page.click("#next")
        assert sorted(drawn(page)) == list(range(k + 1))
        assert page.get_attribute("#tree g.node.current", "data-node") == str(k)
        assert f"Node {order[k]}" in page.inner_text("#details h2")
    page.click("#prev")
    assert page.inner_text("#step-label") == f"Step 2 of {len(order) - 1}"
    page.click("#all")
    assert len(drawn(page)) == len(order)
    # search: the nodes that split on the feature are marked
    page.fill("#search", "humid")
    marked = page.locator("#tree g.node.match")
    assert marked.count() == 1 and marked.get_attribute("data-node") == str(
        order.index(sunny.node_id)
    )
    assert "Humidity: splits at" in page.inner_text("#search-results")
    page.fill("#search", "zzz")
    assert page.inner_text("#search-results") == "no feature matches"
    # Play Tennis's root: 0.9403 - 0.6935 gives 0.2468 by pencil, so the page writes ≈ and says why
    page.click("#first")  # (the chosen candidate's sums are open)
    assert "0.9403 − 0.6935 ≈ 0.2467" in page.inner_text("#candidates")
    assert "≈ marks a result" in page.inner_text("#legend")
    assert browser_page.errors == []


def rects(page, selector):
    return page.eval_on_selector_all(
        selector,
        "e => e.map(g => { const r = g.querySelector('rect').getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })",
    )


def test_fit_zoom_fold_and_the_table_fits_at_1280(tmp_path, browser_page):
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "iris.html"
    tree.to_html(path)
    page = open_page(browser_page, path, 1280, 800)
    # fit: all 17 nodes are drawn, every box inside the tree's pane
    assert len(drawn(page)) == 17
    pane = page.eval_on_selector(
        "#tree",
        "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }",
    )
    for left, top, right, bottom in rects(page, "#tree g.node"):
        assert (
            pane[0] - 0.5 <= left
            and right <= pane[2] + 0.5
            and pane[1] - 0.5 <= top
            and bottom <= pane[3] + 0.5
        )
    # zoom: boxes grow by the zoom factor
    width = rects(page, '#tree g.node[data-node="0"]')[0]
    page.click("#zoom-in")
    wider = rects(page, '#tree g.node[data-node="0"]')[0]
    assert abs((wider[2] - wider[0]) / (width[2] - width[0]) - 1.25) < 0.01
    page.click("#fit")
    # fold node 2's subtree (15 nodes below it) and unfold it again
    below = sum(1 for _ in tree.root_.children[">"].walk()) - 1
    page.click('#tree g.fold[data-node="2"] circle')
    assert len(drawn(page)) == 17 - below
    page.click('#tree g.fold[data-node="2"] circle')
    assert len(drawn(page)) == 17
    # the candidate table fits its panel at 1280 px, wrapping long names
    page.click('#tree g.node[data-node="2"] rect')
    fits = page.eval_on_selector(
        "#details",
        "d => [d.scrollWidth, d.clientWidth, document.querySelector('#candidates').scrollWidth]",
    )
    assert fits[0] <= fits[1] and fits[2] <= fits[1]
    assert browser_page.errors == []


def test_the_table_of_a_wide_data_set_fits_at_1280(tmp_path, browser_page):
    X, y = load("adult", return_X_y=True)
    X = X.iloc[:3000].rename(columns={"native-country": "native_country_of_the_person_questioned"})
    for criterion in ("entropy", "gain_ratio"):
        path = tmp_path / f"adult_{criterion}.html"
        ID3Classifier(criterion=criterion, max_depth=3).fit(X, y.iloc[:3000]).to_html(path)
        page = open_page(browser_page, path, 1280, 800)
        for row in page.locator("#candidates tr.has-workings").all():
            row.click()  # every candidate's branches open
        width = page.eval_on_selector("#candidates", "t => t.scrollWidth")
        assert width <= page.eval_on_selector("#details", "d => d.clientWidth")
    assert browser_page.errors == []


def test_a_large_tree_opens_folded_and_steps_anywhere(tmp_path, browser_page):
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(8000, 3)).round(2), columns=["a", "b", "c"])
    tree = ID3Classifier(keep_trace=True).fit(X, rng.integers(0, 2, len(X)))
    n = tree._tree.n_nodes
    assert n > 3000
    path = tmp_path / "large.html"
    tree.to_html(path)
    page = open_page(browser_page, path)
    assert 1 <= len(drawn(page)) <= 63  # the top levels only
    page.keyboard.press("ArrowLeft")  # the last step: its node is unfolded to and drawn
    assert page.inner_text("#step-label") == f"Step {n - 1} of {n - 1}"
    assert page.get_attribute("#tree g.node.current", "data-node") == str(n - 1)
    page.click("#unfold-all")
    assert 0 < len(drawn(page)) <= 20_000
    page.click("#zoom-in")
    assert browser_page.errors == []


def test_nasty_labels_stay_text_in_chromium(tmp_path, browser_page):
    nasty = '<img src=x onerror="alert(1)">'
    X = pd.DataFrame(
        {nasty: ["</script>", "</script>", "a&b\nc", "a&b\nc"], "n": [1.0, 2.0, 3.0, 4.0]}
    )
    tree = ID3Classifier().fit(X, ['<b>"yes"</b>', '<b>"yes"</b>', "no", "no"])
    for mode in ("explore", "build"):
        path = tmp_path / f"{mode}.html"
        tree.to_html(path, mode=mode, **({"holdout": 0} if mode == "build" else {}))
        page = open_page(browser_page, path)
        assert page.locator("img").count() == 0 and page.locator("#details b").count() == 0
        if mode == "explore":
            assert nasty in page.inner_text("#candidates")
        else:
            assert nasty in page.inner_text("#choose-feature")
    assert browser_page.errors == []


# ---------------------------------------------------------------------------------------------
# the build page
# ---------------------------------------------------------------------------------------------
def finish_with_leaves(page):
    for _ in range(100):
        if page.locator("#score").count():
            return
        if page.locator("#leaf").count():
            page.click("#leaf")
        else:
            page.click("#next-open")
    raise AssertionError("the tree never finished")


def test_a_wrong_split_then_a_finished_tree_and_its_score(tmp_path, browser_page):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "build.html"
    tree.to_html(path, mode="build", test=(X, y))
    page = open_page(browser_page, path)
    page.select_option("#choose-feature", label="Temperature")
    page.click("#split")
    feedback = page.locator("#feedback")
    assert "bad" in feedback.get_attribute("class")
    text = feedback.inner_text()
    assert "Temperature, gain 0.0292" in text and "ID3's choice: Outlook, gain 0.2467" in text
    assert page.inner_text("#build-candidates tr.best").startswith("Outlook")
    finish_with_leaves(page)
    # the reference: each Temperature's majority class (ties: the first class), scored on X
    majority = y.groupby(X["Temperature"]).agg(
        lambda s: sorted(s.value_counts()[lambda v: v == v.max()].index)[0]
    )
    right = int((X["Temperature"].map(majority) == y).sum())
    score = page.inner_text("#score-table")
    assert f"your tree\t{right}\t14" in score and "ID3's tree\t14\t14" in score
    assert "0 of your 4 nodes make ID3's decision" in page.inner_text("#agreement")
    # change the root's choice: the page asks first, then the tree is back to one open node
    page.click('#tree g.node[data-node="0"] rect')
    page.click("#change")
    assert "throws away the 3 nodes under it" in page.inner_text("#confirm")
    page.click("#confirm-yes")
    assert page.inner_text("#progress") == "1 node to decide"
    assert browser_page.errors == []


def id3_children(tree) -> dict:
    return {
        (int(p), int(s)): i
        for i, (p, s) in enumerate(zip(tree._tree.parent, tree._tree.slot))
        if p >= 0
    }


def follow_id3(page, tree, X, decimal=".", says="That is ID3's choice"):
    """Choose ID3's own decision at every open node; each must be called ID3's choice (``says``,
    in the page's language, whose numbers are written with ``decimal``)."""
    kids, grown = id3_children(tree), tree._tree
    gains = dict(zip(zip(tree.trace_["node"], tree.trace_["feature"]), tree.trace_["gain"]))
    for _ in range(200):
        state = page.evaluate(
            "() => window.id3page.nodes().map(n => [n.parent, n.slot, !!n.choice])"
        )
        open_nodes = [i for i, (_, _, chosen) in enumerate(state) if not chosen]
        if not open_nodes:
            return
        i = open_nodes[0]
        path, j = [], i
        while state[j][0] >= 0:
            path.append(state[j][1])
            j = state[j][0]
        m = 0
        for slot in reversed(path):
            m = kids[(m, slot)]
        page.evaluate("i => window.id3page.select(i)", i)
        f = int(grown.feature[m])
        if f < 0:
            page.click("#leaf")
            assert "good" in page.get_attribute("#feedback", "class")
            continue
        name = X.columns[f]
        page.select_option("#choose-feature", label=name)
        if grown.threshold[m] == grown.threshold[m]:
            label = page.eval_on_selector(
                "#choose-threshold",
                "(s, t) => [...s.options].find(o => o.text.startsWith(t)).value",
                f"<= {format_number(grown.threshold[m]).replace('.', decimal)} (",
            )
            page.select_option("#choose-threshold", value=label)
        page.click("#split")
        assert says in page.inner_text("#feedback")
        row = page.inner_text(f'#build-candidates tr[data-feature="{name}"]').split("\t")
        gain = f"{gains[(m, name)]:.4f}".replace(".", decimal)
        assert row[-1] == gain  # the page's arithmetic, the learner's gain
    raise AssertionError("the tree never finished")


def test_growing_id3s_own_tree_on_the_page(tmp_path, browser_page):
    X, y = load("titanic", return_X_y=True)
    X = X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"])
    train, test = np.arange(len(X)) % 4 != 0, np.arange(len(X)) % 4 == 0
    for data, params in (
        ((X[train], y[train]), {"max_depth": 3}),
        (load_iris(return_X_y=True), {}),
    ):
        tree = ID3Classifier(**params).fit(*data)
        path = tmp_path / "id3.html"
        scoring = (X[test], y[test]) if params else data
        tree.to_html(path, mode="build", test=scoring)
        page = open_page(browser_page, path)
        follow_id3(page, tree, data[0])
        n = tree._tree.n_nodes
        assert f"{n} of your {n} nodes make ID3's decision" in page.inner_text("#agreement")
        right = int((tree.predict(scoring[0]) == np.asarray(scoring[1])).sum())
        table = page.inner_text("#score-table")
        assert f"your tree\t{right}\t" in table and f"ID3's tree\t{right}\t" in table
    assert browser_page.errors == []


def test_every_equation_on_the_page_holds_by_pencil(tmp_path, browser_page):
    """Every node's details, as the page shows them, on Play Tennis, Iris and Titanic (depth 3):
    each equation (H(S | A) as a weighted sum, the gain as a difference) redone from the numbers
    printed in it, by the same independent checker as the printed pages."""
    from test_pencil_pages import check, is_equation

    X, y = load("titanic", return_X_y=True)
    X = X.drop(columns=["Name", "Ticket", "Cabin", "PassengerId"])
    trees = {
        "play_tennis": ID3Classifier().fit(*load_play_tennis(return_X_y=True)),
        "iris": ID3Classifier().fit(*load_iris(return_X_y=True)),
        "titanic_depth3": ID3Classifier(max_depth=3).fit(X, y),
    }
    for name, tree in trees.items():
        path = tmp_path / f"{name}.html"
        tree.to_html(path)
        page = open_page(browser_page, path)
        n_nodes = sum(1 for _ in tree.root_.walk())
        found = page.evaluate(
            """n => { var all = [];
              for (var i = 0; i < n; i++) {
                id3page.show(i);
                document.querySelectorAll('#details p.equation').forEach(
                  function (p) { all.push(p.textContent); });
              }
              return all; }""",
            n_nodes,
        )
        equations = [e.replace("\u2212", "-") for e in found]
        equations = [e for e in equations if is_equation(e)]
        n_scored = sum(1 for node in tree.root_.walk() if node.children)
        assert len(equations) >= 2 * n_scored, name
        problems = [p for p in map(check, equations) if p]
        assert not problems, f"{name}: " + "\n".join(problems[:10])
        if any("≈" in e for e in equations):
            assert "≈ marks a result" in page.inner_text("#legend")
    assert browser_page.errors == []


def test_stability_in_the_explorer(tmp_path, browser_page):
    """With stability=..., every split's box and panel say how often its feature wins again,
    and the shaky ones are outlined in vermilion, dashed; the legend names the outline."""
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier(max_depth=3).fit(X, y)
    s = tree.stability(X, y, n_bootstrap=40)
    marks = s.marks()
    path = tmp_path / "tree.html"
    tree.to_html(path, stability=s)
    order = [node.node_id for node in tree.root_.walk()]
    page = open_page(browser_page, path)
    for node_id, (share, shaky) in marks.items():
        box = f'#tree g.node[data-node="{order.index(node_id)}"]'
        assert f"same feature {share:.0%}" in page.get_attribute(box, "aria-label")
        dash = page.get_attribute(f"{box} rect", "stroke-dasharray")
        assert (dash == "5 3") == shaky
        assert (page.get_attribute(f"{box} rect", "stroke") == "#D55E00") == shaky
    shaky_node = next(n for n, (_, k) in marks.items() if k)
    page.click(f'#tree g.node[data-node="{order.index(shaky_node)}"] rect')
    text = page.inner_text("#stability")
    row = s.to_frame().set_index("node").loc[shaky_node]
    assert f"the same feature wins {row['same_feature']:.0%}" in text
    assert "on 40 bootstrap resamples" in text and "A shaky split." in text
    page.click('#tree g.node[data-node="1"] rect')  # a leaf: not measured
    assert "not measured here" in page.inner_text("#stability")
    assert "a shaky split" in page.inner_text("#legend")
    assert browser_page.errors == []
