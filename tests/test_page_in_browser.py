"""The interactive page in a real browser: click a node, step through, search a feature."""

from __future__ import annotations

import pandas as pd

from id3tree import ID3Classifier
from id3tree.datasets import load_iris, load_play_tennis


def test_click_step_and_search_in_chromium(tmp_path, browser_page):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "tree.html"
    tree.to_html(path)
    order = [node.node_id for node in tree.root_.walk()]
    sunny = tree.root_.children["Sunny"]
    view = browser_page
    page = view.page
    page.goto(path.as_uri())
    # at first: the whole tree, the root's details
    assert page.locator("#tree g.node:not(.hidden)").count() == len(order)
    assert page.inner_text("#step-label") == f"Step {len(order)} of {len(order)}"
    # click a node: its counts and candidate table appear
    page.click(f'#tree g.node[data-node="{sunny.node_id}"]')
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
    # the step buttons replay the growth node by node, in reading order
    page.click("#first")
    assert page.inner_text("#step-label") == f"Step 1 of {len(order)}"
    assert page.locator("#tree g.node:not(.hidden)").count() == 1
    for k in range(1, 4):
        page.click("#next")
        visible = page.locator("#tree g.node:not(.hidden)")
        assert visible.count() == k + 1
        current = page.get_attribute("#tree g.node.current", "data-node")
        assert int(current) == order[k]
        assert f"Node {order[k]}" in page.inner_text("#details h2")
    page.click("#prev")
    assert page.inner_text("#step-label") == f"Step 3 of {len(order)}"
    page.click("#all")
    assert page.locator("#tree g.node:not(.hidden)").count() == len(order)
    # search: the nodes that split on the feature are marked
    page.fill("#search", "humid")
    marked = page.locator("#tree g.node.match")
    assert marked.count() == 1 and marked.get_attribute("data-node") == str(sunny.node_id)
    assert "Humidity: splits at node" in page.inner_text("#search-results")
    page.fill("#search", "zzz")
    assert page.inner_text("#search-results") == "no feature matches"
    assert view.errors == []


def test_nasty_labels_stay_text_in_chromium(tmp_path, browser_page):
    nasty = '<img src=x onerror="alert(1)">'
    X = pd.DataFrame({nasty: ["</script>", "</script>", "a&b", "a&b"], "n": [1.0, 2.0, 3.0, 4.0]})
    tree = ID3Classifier().fit(X, ["<b>yes</b>", "<b>yes</b>", "no", "no"])
    path = tmp_path / "tree.html"
    tree.to_html(path)
    view = browser_page
    view.page.goto(path.as_uri())
    assert view.page.locator("img").count() == 0 and view.page.locator("#details b").count() == 0
    view.page.click('#tree g.node[data-node="0"]')
    assert nasty in view.page.inner_text("#candidates")
    assert view.errors == []


def test_a_bigger_tree_page_loads_cleanly(tmp_path, browser_page):
    X, y = load_iris(return_X_y=True)
    path = tmp_path / "iris.html"
    ID3Classifier().fit(X, y).to_html(path)
    view = browser_page
    view.page.goto(path.as_uri())
    view.page.keyboard.press("ArrowRight")
    assert view.page.inner_text("#step-label").startswith("Step 1 of")
    assert view.errors == []
