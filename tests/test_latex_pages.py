"""LaTeX a teacher compiles as it comes: complete documents, tables that fit A4, any label.

pdflatex runs where it is installed (the ``compile_latex`` fixture of conftest.py; CI installs
texlive-latex-base); its log is read for errors and for overfull boxes wider than 5 pt.
"""

from __future__ import annotations

import re
import warnings

import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.base.latex import latex_escape
from id3tree.datasets import load

NASTY = [
    "a|b",
    "two\n\nlines",
    "50% _#&$\\{}~^<>",
    "tab\there",
    "bell\x07",
    "αβγ ΔΩ",
    "Привет",
    "東京",
    "smile 😀",
    "naïve café Øre ß Łódź",
    "tiếng Việt",
    "[bracket]",
]


def overfull(log: str) -> list[float]:
    return [float(pt) for pt in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


def fits():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        X, y = load("play_tennis", return_X_y=True)
        yield "play_tennis", ID3Classifier().fit(X, y)
        X, y = load("titanic", return_X_y=True)
        X = X.drop(columns=["Name", "Ticket", "Cabin", "PassengerId"])
        yield "titanic_depth3", ID3Classifier(max_depth=3).fit(X, y)
        X, y = load("iris", return_X_y=True)
        yield "iris", ID3Classifier().fit(X, y)


FITS = dict(fits())


def test_latex_escape_writes_every_special_character_as_text():
    assert latex_escape("a|b") == r"a\textbar{}b"
    assert latex_escape("50% a_b & $x$ #1") == r"50\% a\_b \& \$x\$ \#1"
    assert (
        latex_escape("{a} ~ ^ \\") == r"\{a\} \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )
    assert latex_escape("two\n\nlines") == "two  lines"  # no blank line: no new paragraph
    assert latex_escape("é") == r"\'{e}" and latex_escape("ß") == r"\ss{}"
    assert latex_escape("α") == r"\ensuremath{\alpha}"
    assert latex_escape("Москва") == "Moskva"
    for label in NASTY:
        assert latex_escape(label).isascii(), label
    assert latex_escape("東") != latex_escape("京")  # distinct labels stay distinct


@pytest.mark.parametrize("name", list(FITS))
def test_the_latex_solution_is_a_complete_document(name):
    solution = FITS[name].worked_solution(format="latex")
    assert str(solution).startswith("\\documentclass") and str(solution).isascii()
    assert solution.body in str(solution) and "\\documentclass" not in solution.body


@pytest.mark.parametrize("name", ["play_tennis", "titanic_depth3", "iris"])
def test_worked_solutions_compile_and_fit_an_a4_page(name, compile_latex):
    log = compile_latex(str(FITS[name].worked_solution(format="latex")))
    assert [pt for pt in overfull(log) if pt > 5] == []


@pytest.mark.parametrize("name, code", [("titanic_depth3", "es"), ("iris", "de")])
def test_worked_solutions_in_another_language_compile_in_plain_ascii(name, code, compile_latex):
    """The catalog's accents are written as LaTeX's (``L\\"{o}sung``); a decimal comma in a
    formula is ``{,}`` (TeX would put a space after a bare comma)."""
    tree = FITS[name]
    tree.language = code
    try:
        solution = str(tree.worked_solution(format="latex"))
    finally:
        tree.language = "en"
    assert solution.isascii()
    formulas = re.split(r"(?<!\\)\$", solution)[1::2]
    assert any(re.search(r"\d\{,\}\d", f) for f in formulas)
    assert not [f for f in formulas if re.search(r"\d,\d", f)]
    log = compile_latex(solution)
    assert [pt for pt in overfull(log) if pt > 5] == []


def test_the_body_fits_a_plain_article_with_tabularx(compile_latex):
    """A teacher's own document: the default article (US letter, wide margins) plus tabularx."""
    body = FITS["titanic_depth3"].worked_solution(format="latex").body
    document = (
        "\\documentclass{article}\n\\usepackage{tabularx}\n\\begin{document}\n"
        + body
        + "\n\\end{document}\n"
    )
    log = compile_latex(document)
    assert [pt for pt in overfull(log) if pt > 5] == []


def test_any_label_compiles(compile_latex):
    n = len(NASTY)
    X = pd.DataFrame(
        {
            NASTY[0]: [NASTY[i % n] for i in range(2 * n)],
            NASTY[5]: [float(i % 7) for i in range(2 * n)],
            NASTY[8]: [NASTY[(i * 5) % n] for i in range(2 * n)],
        }
    )
    y = [NASTY[1] if i % 3 else NASTY[6] for i in range(2 * n)]
    tree = ID3Classifier().fit(X, y)
    document = str(tree.worked_solution(format="latex"))
    assert document.isascii()
    log = compile_latex(document)
    assert "Missing character" not in log
