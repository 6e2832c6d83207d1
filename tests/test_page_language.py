"""The interactive pages in Spanish and German: every word of their scripts goes through the
catalog (``t("...")``, ``C.plural``), a Spanish or German page holds the translation of each and
no English sentence of its own, its numbers take the decimal comma, and what the build page
exports is still graded by ``id3tree grade``."""

from __future__ import annotations

import importlib.util
import json
import re
import string
import sys
from pathlib import Path

import pytest
from scipy.stats import entropy as scipy_entropy
from test_page_in_browser import follow_id3

from id3tree import ID3Classifier
from id3tree.classroom.exercises import make_exercise
from id3tree.classroom.grading import grade
from id3tree.datasets import load_iris, load_play_tennis
from id3tree.render.html import page_messages

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "id3tree" / "render" / "assets"
_spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
catalogs = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("catalogs", catalogs)
_spec.loader.exec_module(catalogs)

LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def fields(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name is not None}


def script_code(name: str) -> str:
    """A script without its comments (a comment may quote English words)."""
    text = (ASSETS / name).read_text(encoding="utf-8")
    text = re.sub(r"(?m)^\s*//.*$", "", text)
    return re.sub(r"(?m)\s//\s.*$", "", text)


SCRIPTS = sorted(p.name for p in ASSETS.glob("*.js"))


def catalog(code: str) -> dict:
    po = ROOT / "id3tree" / "locale" / code / "LC_MESSAGES" / "id3tree.po"
    return {e.key: e for e in catalogs.read_po(po.read_text(encoding="utf-8"))[1]}


def words_table(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', html, re.S)
    assert found, "a page in another language carries the table of its messages"
    return json.loads(found.group(1))


# ---------------------------------------------------------------------------------------------
# every word of the scripts goes through the catalog
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SCRIPTS)
def test_no_sentence_of_a_script_bypasses_t(name):
    """A string of two words or more is a message (``t("...")``) or the words of a count
    (``C.plural``); the few others are code, listed here."""
    code = script_code(name)
    allowed = {
        "use strict", "muted path", "feedback ", "#legend ul", "' + CSS.escape(data.features[f]) + '"
    }  # fmt: skip
    left = []
    for found in LITERAL.finditer(code):
        text, before = found.group(1), code[max(0, found.start() - 60) : found.start()]
        if not re.search(r"[A-Za-z]{2,}[^\"]*\s\S", text) or text in allowed:
            continue
        if re.search(r"\bt\(\s*$", before) or re.search(r"\bplural\([^;]*$", before):
            continue
        left.append(text)
    assert left == [], f"{name}: English shown without t(): {left}"


@pytest.mark.parametrize("name", SCRIPTS)
def test_no_word_is_shown_without_t(name):
    """One word shown goes through ``t`` too: no literal text in a heading, a cell, a title,
    an ARIA label, a message for the screen reader, a reason or a legend."""
    shown = [
        r'\bel\("\w+",\s*"([^"]*[A-Za-z][^"]*)"',  # el("h3", "Candidates")
        r'textContent\s*=\s*"([^"]*[A-Za-z][^"]*)"',
        r'\.title\s*=\s*"([^"]*[A-Za-z][^"]*)"',
        r'"aria-label",\s*"([^"]*[A-Za-z][^"]*)"',
        r'announce\(\s*"([^"]*)"',
        r'\b(?:text|label|why|title|yes|no|score):\s*"([^"]*[A-Za-z][^"]*)"',
        r'\b(?:lines|notes|words|head|cells)\.push\(\s*\[?\s*"([^"]*[A-Za-z][^"]*)"',
        r'tableRow\(\[\s*"([^"]*[A-Za-z][^"]*)"',
    ]
    symbols = {"H(S | ", "\\u2713 ", "\\u2717 "}  # the same in every language
    code = script_code(name)
    found = [m.group(1) for pattern in shown for m in re.finditer(pattern, code)]
    found = [text for text in found if text not in symbols]
    assert found == [], f"{name}: shown without t(): {found}"


@pytest.mark.parametrize("code", ["es", "de"])
def test_every_message_of_the_pages_is_translated_with_its_fields(code):
    entries = catalog(code)
    messages, plurals = page_messages()
    assert len(messages) > 150 and ("row", "rows") in plurals
    for message in messages:
        entry = entries.get((None, message))
        assert entry is not None and entry.msgstr[0], f"{code}: {message!r} is not translated"
        if entry.plural is None:
            assert fields(entry.msgstr[0]) == fields(message), (code, message)
    for one, many in plurals:  # a plural entry, not a one-word message of the same msgid
        entry = entries[(None, one)]
        assert entry.plural == many and all(entry.msgstr), (code, one, entry)


# ---------------------------------------------------------------------------------------------
# a Spanish or German page
# ---------------------------------------------------------------------------------------------
def pages(code: str) -> dict[str, str]:
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier(max_depth=2, language=code).fit(X, y)
    X2, y2 = load_play_tennis(return_X_y=True)
    tennis = ID3Classifier(language=code).fit(X2, y2)
    return {
        "explore": tree.to_html(stability=tree.stability(X, y, n_bootstrap=5)),
        "build": tennis.to_html(mode="build"),
    }


@pytest.mark.parametrize("code", ["es", "de"])
def test_a_page_in_spanish_or_german_holds_no_english_message(code):
    english_words = {  # sentences of the page's Python side, in English
        "split on", "leaf: predict", "has the highest", "no split", "the cut of lowest",
        "Decision tree:", "Grow the tree yourself", "The trees are scored", "samples",
    }  # fmt: skip
    same = {"no", "Start", "Print", "export", "Fit"} if code == "de" else {"no"}
    for mode, html in pages(code).items():
        table = words_table(html)
        assert table["decimal"] == "," and table["separator"] == "; "
        english = [m for m, said in table["messages"].items() if said == m and m not in same]
        assert english == [], f"{code} {mode}: untranslated {english}"
        assert f'<html lang="{code}">' in html
        outside = re.sub(r"<script[^>]*>.*?</script>", "", html, flags=re.S)
        data = re.search(r'id="tree-data">(.*?)</script>', html, re.S).group(1)
        for phrase in english_words:
            said = re.compile(rf"(?<![\w]){re.escape(phrase)}(?![\w])")
            assert not said.search(outside) and not said.search(data), (code, mode, phrase)
        for english_control in ("Unfold all", "Larger text", "Find a feature", "Export answers"):
            assert english_control not in outside, (code, english_control)


def test_an_english_page_has_no_table_and_its_own_words():
    X, y = load_play_tennis(return_X_y=True)
    html = ID3Classifier().fit(X, y).to_html()
    assert 'id="page-words"' not in html and '<html lang="en">' in html
    assert '">Unfold all</button>' in html and "split on Outlook into Overcast (4), Rain" in html


def test_the_explore_pages_numbers_take_the_decimal_comma():
    """The numbers the Python side writes into the Spanish page: thresholds and the entropy
    of the root's reason, checked against an independent entropy."""
    X, y = load_iris(return_X_y=True)
    html = ID3Classifier(max_depth=1, language="es").fit(X, y).to_html()
    data = json.loads(re.search(r'id="tree-data">(.*?)</script>', html, re.S).group(1))
    assert "2,45" in data["strings"] and "2.45" not in data["strings"]
    gain = scipy_entropy([50, 50, 50], base=2) - 100 / 150 * 1.0  # petal_length <= 2.45
    assert any(f"({gain:.4f})".replace(".", ",") in s for s in data["strings"])


# ---------------------------------------------------------------------------------------------
# in the browser: Spanish hints with decimal commas, and the export graded (one page load)
# ---------------------------------------------------------------------------------------------
def test_the_spanish_build_page_in_chromium_and_its_answers_graded(tmp_path, browser_page):
    ex = make_exercise(kind="mixed", n_rows=12, seed=3, language="es")
    tree = ex.tree.set_params(language="es")
    path = tmp_path / "es.html"
    tree.to_html(path, mode="build")
    page = browser_page.page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(path.as_uri())
    while page.locator("#hint").count():  # the whole ladder at the root
        page.click("#hint")
    hints = page.inner_text("#hints")
    counts = ex.y.value_counts().to_numpy()
    root = f"{scipy_entropy(counts, base=2):.4f}".replace(".", ",")
    assert "Las fórmulas" in hints and "la elección de ID3" in hints
    assert "Aquí: H(S) = " in hints and f"= {root}" in hints, hints
    assert not re.search(r"\d\.\d{4}", hints), "a number written with a point"
    assert "ganancia" in page.inner_text("#details") and "entropía" in page.inner_text("#tree")
    # ID3's choice at every node, through the page's own controls
    follow_id3(page, tree, ex.X, decimal=",", says="Es la elección de ID3")
    assert page.inner_text("#progress") == "Tu árbol está terminado."
    with page.expect_download() as download:
        page.click("#export-json")
    answers = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert {"root_entropy", "gains", "tree"} <= set(answers)  # the keys stay English
    assert not re.search(r'"\d+,\d', json.dumps(answers))  # and the numbers machine-readable
    marks = grade(ex, answers)
    assert marks.score == 1.0 and not marks.wrong, str(marks)
    assert browser_page.errors == []
