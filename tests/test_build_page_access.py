"""Both pages open to every student: the keyboard alone grows a Play Tennis tree and walks it, a
screen reader reads the tree (an ARIA tree: each node's number, branch, decision, counts and
entropy), and the class colours stay apart under deuteranopia, protanopia and tritanopia.

The colours are checked in Python from published tables: the simulation matrices of Machado,
Oliveira and Fernandes (2009, severity 1) on linear RGB, and the CIEDE2000 colour difference,
its code checked against the test pairs of Sharma, Wu and Dalal (2005). Chromium's own emulation
(``Emulation.setEmulatedVisionDeficiency``) is checked against the same simulation."""

from __future__ import annotations

import io
import itertools
import math
import re

import numpy as np
import pytest
from test_page_in_browser import id3_children, open_page

from id3tree import ID3Classifier
from id3tree.datasets import load_play_tennis
from id3tree.render.html import PAGE_PALETTE, TEXT_COLOR
from id3tree.render.style import PALETTE

# ---------------------------------------------------------------------------------------------
# colours: simulation, difference, contrast
# ---------------------------------------------------------------------------------------------
MACHADO = {  # Machado et al. 2009, severity 1.0, on linear RGB
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}


def rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


def linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def encoded(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(lin, 0, 1)
    return 255 * np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)


def simulate(colour: np.ndarray, deficiency: str) -> np.ndarray:
    return encoded(np.array(MACHADO[deficiency]) @ linear(colour))


def lab(colour: np.ndarray) -> tuple:
    """CIELAB (D65) of an sRGB colour (0..255)."""
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    t = (m @ linear(colour)) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def ciede2000(lab1, lab2) -> float:
    """The CIEDE2000 difference (Sharma, Wu and Dalal 2005, equations 1 to 22)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, c_bar_p = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar_p**7 / (c_bar_p**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_bar_p, 1 + 0.015 * c_bar_p * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2
        + (dc / s_c) ** 2
        + (d_big_h / s_h) ** 2
        + r_t * (dc / s_c) * (d_big_h / s_h)
    )


SHARMA = [  # Sharma, Wu and Dalal (2005), Table 1: pairs 1, 2, 3, 7, 13, 17, 18, 19, 20, 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0009), 7.1792),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
]


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours."""

    def luminance(c):
        return float(np.array([0.2126, 0.7152, 0.0722]) @ linear(rgb(c)))

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def closest_pair(colours: list[str], deficiency: str | None) -> float:
    seen = [rgb(c) if deficiency is None else simulate(rgb(c), deficiency) for c in colours]
    return min(ciede2000(lab(a), lab(b)) for a, b in itertools.combinations(seen, 2))


def test_the_colour_difference_is_sharmas():
    for lab1, lab2, expected in SHARMA:
        assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=5e-5)
        assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=5e-5)  # symmetric
    for matrix in MACHADO.values():  # each simulation keeps white white
        assert np.allclose(np.sum(matrix, axis=1), 1, atol=1e-5)


@pytest.mark.parametrize("deficiency", [None, "deuteranopia", "protanopia", "tritanopia"])
def test_class_colours_stay_apart(deficiency):
    # up to 5 classes: clearly apart under every deficiency; up to 6 under the common red-green
    # ones; all 9 still apart (a difference of 7 is plain side by side)
    assert closest_pair(list(PAGE_PALETTE[:5]), deficiency) >= 10
    if deficiency in (None, "deuteranopia", "protanopia"):
        assert closest_pair(list(PAGE_PALETTE[:6]), deficiency) >= 10
    assert closest_pair(list(PAGE_PALETTE), deficiency) >= 7
    # the check can fail: the drawings' Set2 palette loses its 4th class to its 3rd
    if deficiency == "protanopia":
        assert closest_pair(list(PALETTE[:4]), deficiency) < 5


def test_text_on_every_class_colour_reads():
    for colour in PAGE_PALETTE:  # the text of a box, on a pure node's colour (WCAG AAA)
        assert contrast(TEXT_COLOR, colour) >= 7, colour
        for deficiency in MACHADO:  # and as a student with a deficiency sees it (AA)
            seen = "#" + "".join(f"{round(v):02x}" for v in simulate(rgb(colour), deficiency))
            assert contrast(TEXT_COLOR, seen) >= 4.5, (colour, deficiency)
    assert contrast("#666666", "#ffffff") >= 4.5  # the muted notes


def test_chromiums_emulated_deficiency_agrees_with_the_simulation(tmp_path, browser_page):
    """Swatches of the palette drawn in Chromium under its emulated deficiencies: each pixel is
    the simulation's colour, and the classes stay apart on the screen."""
    from PIL import Image

    cells = "".join(
        f'<div style="width:40px;height:40px;display:inline-block;background:{c}"></div>'
        for c in PAGE_PALETTE
    )
    path = tmp_path / "swatches.html"
    path.write_text(f"<!DOCTYPE html><body style='margin:0'>{cells}</body>", encoding="utf-8")
    page = open_page(browser_page, path, 600, 200)
    cdp = page.context.new_cdp_session(page)
    for deficiency in ("deuteranopia", "protanopia", "tritanopia"):
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        seen = [np.array(shot.getpixel((40 * k + 20, 20)), dtype=float) for k in range(9)]
        for colour, pixel in zip(PAGE_PALETTE, seen):
            expected = simulate(rgb(colour), deficiency)
            assert ciede2000(lab(pixel), lab(expected)) < 3, (deficiency, colour, pixel, expected)
        apart = min(ciede2000(lab(a), lab(b)) for a, b in itertools.combinations(seen[:5], 2))
        assert apart >= 9, deficiency
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
    assert browser_page.errors == []


# ---------------------------------------------------------------------------------------------
# the keyboard alone
# ---------------------------------------------------------------------------------------------
def focused(page) -> dict:
    return page.evaluate(
        """() => { const e = document.activeElement;
          return {id: e.id, tag: e.tagName, role: e.getAttribute('role'),
                  label: e.getAttribute('aria-label'), text: (e.textContent || '').slice(0, 80),
                  node: e.getAttribute('data-node'),
                  option: e.tagName === 'SELECT' && e.selectedIndex >= 0
                    ? e.options[e.selectedIndex].text : null}; }"""
    )


def tab_to(page, test, back=False, limit=60) -> dict:
    for _ in range(limit):
        now = focused(page)
        if test(now):
            return now
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"the keyboard never reached it; last at {focused(page)}")


def pick(page, label: str) -> None:
    """Move a focused select to the option that starts with ``label``, by arrow keys."""
    for _ in range(40):
        if (focused(page)["option"] or "").startswith(label):
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"no option {label!r}")


def id3_decision(page, tree, X) -> tuple:
    """ID3's decision at the node the page has selected (read, not clicked)."""
    state = page.evaluate(
        "() => [id3page.nodes().map(n => [n.parent, n.slot]), "
        "Number(document.getElementById('node-title').textContent.split(' ')[1])]"
    )
    nodes, i = state
    path = []
    while nodes[i][0] >= 0:
        path.append(nodes[i][1])
        i = nodes[i][0]
    m, kids = 0, id3_children(tree)
    for slot in reversed(path):
        m = kids[(m, slot)]
    f = int(tree._tree.feature[m])
    return (None, None) if f < 0 else (X.columns[f], tree._tree.threshold[m])


def test_a_play_tennis_tree_by_keyboard_alone(tmp_path, browser_page):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "build.html"
    tree.to_html(path, mode="build")
    page = open_page(browser_page, path)
    # the ladder and the rows open from the keyboard too
    tab_to(page, lambda f: f["id"] == "hint")
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "hint-formula"
    tab_to(page, lambda f: f["id"] == "choose-feature")
    for _ in range(10):
        feature, _ = id3_decision(page, tree, X)
        assert feature is not None  # Play Tennis's leaves are pure: the page makes them
        tab_to(page, lambda f: f["id"] == "choose-feature")
        pick(page, feature)
        tab_to(page, lambda f: f["id"] == "split")
        page.keyboard.press("Enter")
        assert "That is ID3's choice" in page.inner_text("#feedback")
        now = focused(page)
        if now["id"] == "score":
            break
        assert now["id"] == "next-open"
        page.keyboard.press("Enter")
        assert focused(page)["id"] == "choose-feature"
    assert page.inner_text("#progress") == "Your tree is finished."
    assert "8 of your 8 nodes make ID3's decision" in page.inner_text("#agreement")
    # back to the drawing: the arrow keys walk the tree, Enter opens a node
    box = tab_to(page, lambda f: f["role"] == "treeitem", back=True)
    assert box["node"] is not None
    page.keyboard.press("Home")
    assert focused(page)["label"].startswith("node 0; split on Outlook; 14 rows: No 5, Yes 9")
    page.keyboard.press("End")
    assert focused(page)["label"].startswith("node 7; branch Normal; leaf, predicts Yes")
    page.keyboard.press("ArrowLeft")  # to the parent
    assert focused(page)["label"].startswith("node 5; branch Sunny; split on Humidity")
    page.keyboard.press("ArrowLeft")  # fold it
    assert page.get_attribute('#tree g.node[data-node="5"]', "aria-expanded") == "false"
    page.keyboard.press("ArrowRight")  # unfold it
    page.keyboard.press("ArrowRight")  # its first child
    assert focused(page)["label"].startswith("node 6; branch High")
    page.keyboard.press("Enter")
    assert page.inner_text("#node-title") == "Node 6"
    # start again, asked by a dialog the keys answer: Escape keeps the tree, then yes, then undo
    tab_to(page, lambda f: f["id"] == "restart", back=True)
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "confirm-no"
    page.keyboard.press("Escape")
    assert page.inner_text("#progress") == "Your tree is finished."
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "confirm-yes"
    page.keyboard.press("Enter")
    assert page.inner_text("#progress") == "1 node to decide"
    page.keyboard.press("Control+z")
    assert page.inner_text("#progress") == "Your tree is finished."
    assert browser_page.errors == []


def test_the_screen_reader_reads_the_tree(tmp_path, browser_page):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    for mode in ("explore", "build"):
        path = tmp_path / f"{mode}.html"
        tree.to_html(path, mode=mode)
        page = open_page(browser_page, path)
        if mode == "build":  # grow ID3's root: one split, three branches
            page.select_option("#choose-feature", label="Outlook")
            page.click("#split")
        snapshot = page.locator("#tree").aria_snapshot()
        assert re.match(r"- '?tree \"", snapshot.lstrip())
        items = re.findall(r'treeitem "([^"]*)"([^:\n]*)', snapshot)
        names = [name for name, _ in items]
        samples = "sample" if mode == "explore" else "row"
        assert names[0].startswith(f"node 0; split on Outlook; 14 {samples}s: No 5, Yes 9")
        assert names[0].endswith("entropy 0.9403")
        rain = next(n for n in names if "branch Rain" in n)
        assert f"5 {samples}s: No 2, Yes 3; entropy 0.9710" in rain
        assert "[level=1]" in items[0][1] and "[expanded]" in items[0][1]
        assert all("[level=2]" in flags for name, flags in items if "branch Sunny" in name)
        tree_box = page.get_by_role("tree")
        assert tree_box.get_by_role("treeitem").count() == len(names) >= 4
        # exactly one box is in the tab order
        assert page.locator('#tree g[role="treeitem"][tabindex="0"]').count() == 1
    # the build page's controls have names a screen reader says
    for role, name in (
        ("button", "Undo"),
        ("button", "Export answers"),
        ("combobox", "Feature"),
        ("button", "Make it a leaf"),
    ):
        if name in ("Feature", "Make it a leaf"):
            page.click("#next-open")
        assert page.get_by_role(role, name=name).count() == 1, name
    assert browser_page.errors == []


def test_the_explore_page_by_keyboard_alone(tmp_path, browser_page):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    path = tmp_path / "explore.html"
    tree.to_html(path)
    page = open_page(browser_page, path)
    tab_to(page, lambda f: f["role"] == "treeitem")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused(page)["label"].startswith("node 2; branch Rain; split on Wind")
    page.keyboard.press("Enter")
    assert page.inner_text("#details h2") == "Node 2"
    # a candidate's sums open from the keyboard
    button = tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == "Humidity")
    assert button["text"] == "Humidity"
    page.keyboard.press("Enter")
    row = page.locator('#candidates tr[data-feature="Humidity"] button')
    assert row.get_attribute("aria-expanded") == "true"
    assert "H(S | Humidity) =" in page.inner_text("#candidates")
    assert browser_page.errors == []
