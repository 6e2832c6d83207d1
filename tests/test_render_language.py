"""The drawings in Spanish and German: the Graphviz and matplotlib boxes, their notes and marks,
and the overfitting picture, with the language's words and decimal mark (English unchanged)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy.stats import entropy as scipy_entropy

matplotlib.use("Agg")  # tests only: the library itself never picks a backend

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from id3tree import ID3Classifier, plot_complexity  # noqa: E402
from id3tree.base.language import speaking  # noqa: E402
from id3tree.datasets import load_play_tennis  # noqa: E402
from id3tree.render.dot import tree_to_dot  # noqa: E402
from id3tree.render.plot import plot_tree  # noqa: E402
from id3tree.render.style import fitted_note, stability_line  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "play_tennis.dot"
ENGLISH = ("samples", "entropy", "gain", "predict", "missing", "more node", 'tooltip="node')
WORDS = {  # the words of a box, as the catalogs give them (checked by hand, not by the code)
    "es": ("muestras = 14", "entropía = ", "ganancia = ", "predice Yes", 'tooltip="nodo 0"'),
    "de": ("Beispiele = 14", "Entropie = ", "Informationsgewinn = ", "Vorhersage Yes",
           'tooltip="Knoten 0"'),
}  # fmt: skip
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


@pytest.fixture(scope="module")
def tennis():
    X, y = load_play_tennis(return_X_y=True)
    return X, y


def _labels(dot: str) -> list[str]:
    """The text of every label of a DOT graph, tags removed."""
    return [re.sub(r"<[^>]*>", "\n", m) for m in re.findall(r"label=<(.*?)>(?: |\])", dot)]


@pytest.mark.parametrize("code", ["es", "de"])
def test_a_tree_in_a_language_draws_its_words_and_decimal_commas(tennis, code):
    tree = ID3Classifier(language=code).fit(*tennis)
    dot = tree.to_dot()
    for word in WORDS[code]:
        assert word in dot
    for word in ENGLISH:
        assert word not in dot
    # the root's entropy, from scipy, with a decimal comma (5 No and 9 Yes)
    assert f"{scipy_entropy([5, 9], base=2):.3f}".replace(".", ",") == "0,940"
    assert "0,940" in dot and "0.940" not in dot
    assert "No: 5; Yes: 9" in dot  # a list of numbers is separated by "; "


@pytest.mark.parametrize("code", ["es", "de"])
def test_the_numbers_are_the_english_ones_with_the_languages_mark(tennis, code):
    X, y = tennis
    english = _labels(ID3Classifier().fit(X, y).to_dot(decimals=4))
    spoken = _labels(ID3Classifier(language=code).fit(X, y).to_dot(decimals=4))
    assert len(english) == len(spoken)
    for en, other in zip(english, spoken):
        assert [n.replace(".", ",") for n in NUMBER.findall(en)] == NUMBER.findall(other)


def test_english_is_the_golden_drawing_whatever_the_language_around(tennis):
    X, y = tennis
    root = ID3Classifier().fit(X, y).root_
    golden = GOLDEN.read_text(encoding="utf-8")
    assert ID3Classifier().fit(X, y).to_dot() == golden
    with speaking("de"):  # a language given to the function wins over the one around it
        assert tree_to_dot(root, language="en") == golden
        assert "Beispiele = 14" in tree_to_dot(root)
    assert "muestras = 14" in tree_to_dot(root, language="es")
    with pytest.raises(ValueError, match="language must be one of"):
        tree_to_dot(root, language="fr")


def test_missing_values_grouped_branches_and_cut_subtrees_are_translated():
    rng = np.random.default_rng(0)
    colour = [f"c{i}" for i in range(12)] * 2 + [None, None]
    X = pd.DataFrame({"colour": colour, "noise": rng.integers(0, 2, len(colour))})
    y = [str(i % 3) for i in range(24)] + ["x", "x"]
    tree = ID3Classifier(language="es", id_like="keep").fit(X, y)
    dot = tree.to_dot(max_branches=4)
    assert "<i>otros</i>" in dot
    assert re.search(r"\+ \d+ valores más y ausente", dot)  # the missing branch is grouped
    tree.set_params(language="de")
    dot = tree.to_dot(max_branches=None, max_depth=0)
    assert re.search(r"… \d+ weitere Knoten", dot)
    dot = tree.to_dot(max_branches=None)
    assert "<i>fehlend</i>" in dot and "missing" not in dot


def test_stability_marks_and_the_note_of_a_cut_drawing_are_translated():
    with speaking("de"):
        assert stability_line(0.96, True) == "instabil: gleiches Merkmal 96%"
        assert stability_line(math.nan, False) == "gleiches Merkmal: keine Zeilen"
    with speaking("es"):
        note = fitted_note(2, 7, 8000)
        assert note[0].startswith("Los 3 niveles superiores de 7 (max_depth=2)")
        assert "8\u202f000 x 8\u202f000 píxeles" in note[0]  # never "8,000" beside "0,940"
    assert "8,000 x 8,000 pixels" in fitted_note(2, 7, 8000)[0]


@pytest.mark.parametrize("code", ["es", "de"])
def test_the_matplotlib_drawing_holds_the_same_words(tennis, code):
    tree = ID3Classifier(language=code).fit(*tennis)
    ax = tree.plot()
    texts = "\n".join(a.get_text() for a in ax.get_children() if isinstance(a, Text))
    for word in WORDS[code][:4]:
        assert word in texts
    for word in ENGLISH[:5]:
        assert word not in texts
    assert "0,940" in texts and "0.940" not in texts
    english = ID3Classifier().fit(*tennis).plot()
    words = "\n".join(a.get_text() for a in english.get_children() if isinstance(a, Text))
    assert "samples = 14" in words and "entropy = 0.940" in words
    plt.close("all")


def test_the_overfitting_picture_speaks_the_trees_language():
    X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6, 7, 8]})
    y = ["a", "a", "b", "b", "a", "a", "b", "b"]
    tree = ID3Classifier(language="es").fit(X, y)
    ax = plot_complexity(tree, X, y, X, y)
    ax.figure.canvas.draw()
    assert ax.get_xlabel() == "número de hojas" and ax.get_ylabel() == "exactitud"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "filas de entrenamiento" in legend and "filas de validación" in legend
    assert any(text.startswith("crecido del todo: 4 hojas") for text in legend)
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert ticks and all("." not in t for t in ticks) and any("," in t for t in ticks)
    english = ID3Classifier().fit(X, y).plot_complexity(X, y, X, y)
    assert english.get_xlabel() == "number of leaves"
    plt.close("all")


def test_a_node_drawn_alone_follows_the_language_around_it(tennis):
    root = ID3Classifier().fit(*tennis).root_
    with speaking("es"):
        ax = plot_tree(root, max_depth=0)
    texts = "\n".join(a.get_text() for a in ax.get_children() if isinstance(a, Text))
    assert "muestras = 14" in texts and "7 nodos más" in texts
    plt.close("all")
