"""The languages of the printed pages: the catalogs are complete, compiled and faithful, and a
page in another language says what the English one says.

* every message of the template (extracted from the code) has a translation in every shipped
  language, with exactly the fields of the English message, and each ``.mo`` is the one
  compiled from its ``.po`` (the reference reader is the standard library's :mod:`gettext`);
* the English messages of the catalog are the English lines: written through the catalog with
  no translation (a pseudo-language whose words are the messages themselves), a page is the
  English page byte for byte, so a translation translates the line the learner prints;
* a page in Spanish or German holds the numbers of the English page, with a decimal comma.
"""

from __future__ import annotations

import contextlib
import gettext
import importlib.util
import io
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.base import language as lang
from id3tree.base.language import LANGUAGES, Language, fields, speaking
from id3tree.datasets import load

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
catalogs = importlib.util.module_from_spec(_spec)
sys.modules["catalogs"] = catalogs
_spec.loader.exec_module(catalogs)

SHIPPED = [code for code in LANGUAGES if code != "en"]
TEMPLATE = catalogs.extract()


def _po(code: str) -> Path:
    return ROOT / "id3tree" / "locale" / code / "LC_MESSAGES" / "id3tree.po"


def test_spanish_and_german_are_shipped():
    assert {"es", "de"} <= set(SHIPPED)
    assert LANGUAGES[0] == "en"


def test_the_template_is_the_one_extracted_from_the_code():
    committed = (ROOT / "id3tree" / "locale" / "id3tree.pot").read_text(encoding="utf-8")
    assert committed == catalogs.template_text(), "run: python tools/catalogs.py all"
    assert len(TEMPLATE) >= 60


@pytest.mark.parametrize("code", SHIPPED)
def test_every_message_is_translated_with_the_same_fields(code):
    _, entries = catalogs.read_po(_po(code).read_text(encoding="utf-8"))
    translated = {e.key: e for e in entries}
    missing = [
        t.msgid for t in TEMPLATE if t.key not in translated or not all(translated[t.key].msgstr)
    ]
    assert not missing, f"{code} lacks {missing}"
    for t in TEMPLATE:
        e = translated[t.key]
        assert not e.fuzzy, f"{code}: {t.msgid!r} is marked fuzzy"
        english = [t.msgid] if t.plural is None else [t.msgid, t.plural]
        for text in e.msgstr:
            assert sorted(fields(text)) == sorted(fields(english[-1])), (code, t.msgid, text)
        if t.plural is not None:
            assert len(e.msgstr) == 2, (code, t.msgid)


@pytest.mark.parametrize("code", SHIPPED)
def test_each_mo_is_compiled_from_its_po_and_reads_as_gettext_reads_it(code):
    po = _po(code)
    compiled = catalogs.compile_po(po.read_text(encoding="utf-8"))
    assert po.with_suffix(".mo").read_bytes() == compiled, (
        "stale .mo: python tools/catalogs.py compile"
    )
    reader = gettext.GNUTranslations(io.BytesIO(compiled))
    _, entries = catalogs.read_po(po.read_text(encoding="utf-8"))
    for e in entries:
        if e.plural is not None:
            assert reader.ngettext(e.msgid, e.plural, 1) == e.msgstr[0]
            assert reader.ngettext(e.msgid, e.plural, 5) == e.msgstr[1]
        elif e.msgctxt is not None:
            assert reader.pgettext(e.msgctxt, e.msgid) == e.msgstr[0]
        else:
            assert reader.gettext(e.msgid) == e.msgstr[0]
    assert reader.info()["language"] == code


def test_the_po_reader_and_writer_round_trip_escapes():
    entries = [
        catalogs.Entry('say "hi"\n\tback\\slash', msgstr=['dí "hola"\n\tbarra\\']),
        catalogs.Entry("one", plural="many", msgstr=["uno", "muchos"]),
        catalogs.Entry(".", msgctxt="decimal mark", msgstr=[","]),
    ]
    _, read = catalogs.read_po(catalogs.write_po(entries))
    assert [(e.msgid, e.msgctxt, e.plural, e.msgstr) for e in read] == [
        (e.msgid, e.msgctxt, e.plural, e.msgstr) for e in entries
    ]


def test_an_unknown_language_is_a_clear_error_naming_the_shipped_ones():
    X, y = load("play_tennis", return_X_y=True)
    with pytest.raises(ValueError, match=r"language must be one of 'en', .*'es'.*; got 'fr'"):
        ID3Classifier(language="fr").fit(X, y)
    tree = ID3Classifier().fit(X, y)
    tree.language = "klingon"
    with pytest.raises(ValueError, match="language must be one of"):
        tree.to_text()
    with pytest.raises(ValueError, match="got 3"):
        lang.language(3)


# ---------------------------------------------------------------------------------------------
# the pages
# ---------------------------------------------------------------------------------------------
def _fits():
    titanic, survived = load("titanic", return_X_y=True)
    titanic = titanic.drop(columns=["Name", "Ticket", "Cabin", "PassengerId"])
    return {
        "play_tennis": (*load("play_tennis", return_X_y=True), {}),
        "play_tennis_ratio": (*load("play_tennis", return_X_y=True), {"criterion": "gain_ratio"}),
        "iris": (*load("iris", return_X_y=True), {}),
        "iris_leaf": (*load("iris", return_X_y=True), {"min_samples_leaf": 30, "max_depth": 3}),
        "titanic_depth3": (titanic, survived, {"max_depth": 3}),
    }


FITS = _fits()


def pages(name: str, code: str | None) -> dict[str, str]:
    """Every page of one fit: the trace at verbose=1 and 2, to_text, explain of three rows."""
    X, y, params = FITS[name]
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for verbose in (1, 2):
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                tree = ID3Classifier(verbose=verbose, **params)
                if code is not None:
                    tree.set_params(language=code)
                tree.fit(X, y)
            out[f"verbose={verbose}"] = printed.getvalue()
    out["to_text"] = tree.to_text()
    for i in (0, len(X) // 2, len(X) - 1):
        out[f"explain {i}"] = tree.explain(X.iloc[i])
    return out


ENGLISH = {name: pages(name, None) for name in FITS}


@contextlib.contextmanager
def messages_as_they_are():
    """A language whose catalog has no translation: every line goes through the catalog and
    comes out as its English message filled."""
    token = lang._CURRENT.set(Language("xx", gettext.NullTranslations()))
    try:
        yield
    finally:
        lang._CURRENT.reset(token)


@pytest.mark.parametrize("name", list(FITS))
def test_the_catalogs_english_messages_are_the_english_pages_byte_for_byte(name):
    with messages_as_they_are():  # the methods themselves, not their language's wrapper
        X, y, params = FITS[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for verbose in (1, 2):
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    tree = ID3Classifier(verbose=verbose, **params)
                    ID3Classifier.fit.__wrapped__(tree, X, y)
                assert printed.getvalue() == ENGLISH[name][f"verbose={verbose}"]
        assert ID3Classifier.to_text.__wrapped__(tree) == ENGLISH[name]["to_text"]
        for i in (0, len(X) // 2, len(X) - 1):
            explained = ID3Classifier.explain.__wrapped__(tree, X.iloc[i])
            assert explained == ENGLISH[name][f"explain {i}"]


NUMBER = re.compile(r"\d+(?:[.,]\d+)?(?:e-\d+)?")


def _numbers(page: str, decimal: str) -> list[str]:
    """The numbers of a page in order, written with a point."""
    words = re.sub(r"[A-Za-z_]\w*\d\w*", "", page)  # names such as sepal_width2 hold digits
    return [n.replace(decimal, ".") for n in NUMBER.findall(words)]


@pytest.mark.parametrize("code", SHIPPED)
@pytest.mark.parametrize("name", list(FITS))
def test_a_page_in_another_language_holds_the_english_numbers_with_its_decimal_mark(code, name):
    spoken = pages(name, code)
    L = lang.language(code)
    assert L.decimal == "," and L.separator == "; "
    for page, english in ENGLISH[name].items():
        text = spoken[page]
        assert text != english
        assert _numbers(text, ",") == _numbers(english, "."), (code, name, page)
        unquoted = re.sub(r"'[^']*'", "", text).replace("C4.5", "")  # values, a name
        assert not re.search(r"\d\.\d", unquoted), (code, name, page)
        for word in ("entropy", "samples", "candidate", "weight", "split on", "predict"):
            assert not re.search(rf"\b{word}\b", text), (code, name, page, word)


def test_the_spanish_trace_reads_as_a_spanish_textbook_writes_it():
    trace = pages("play_tennis", "es")["verbose=1"]
    assert "Nodo 0 [raíz]: 14 muestras (No: 5; Yes: 9), entropía 0,9403" in trace
    assert (
        "entropía total 0,0000 + 0,3468 + 0,3468 ≈ 0,6935, ganancia 0,9403 - 0,6935 ≈ 0,2467"
        in trace
    )
    assert "=> hoja, predice Yes: pura, todas las muestras son de una sola clase" in trace
    german = pages("iris", "de")
    assert "Kandidat petal_length <= 2,45 (zwischen 1,9 und 3):" in german["verbose=1"]
    assert (
        "beste Schwellenwerte nach Gesamtentropie: <= 2,45: 0,6667; <= 3,15: 0,7073"
        in german["verbose=2"]
    )
    assert "Knoten 2 [petal_length > 2,45]" in german["verbose=1"]


def test_speaking_sets_the_language_for_the_pages_inside_only():
    with speaking("de") as L:
        assert lang.current() is L and L.code == "de"
        assert L.words([1, 2, 1.0, 1.5], "sample", "samples") == [
            "Beispiel",
            "Beispiele",
            "Beispiel",
            "Beispiele",
        ]
        assert (
            L.phrase("max_depth = 3 reached", ["max_depth = {depth} reached"])
            == "max_depth = 3 erreicht"
        )
        assert L.phrase("an unknown reason", ["max_depth = {depth} reached"]) == "an unknown reason"
    assert lang.current().code == "en"


@pytest.mark.parametrize("code", ["en", *SHIPPED])
def test_a_fits_warnings_name_the_users_line_in_every_language(code):
    """The language wraps ``fit`` in one more call: a warning still points at the caller."""
    X = pd.DataFrame({"row": np.arange(40), "v": np.arange(40) % 3})
    X["Temp"] = [str(v) for v in range(39)] + ["72?"]  # numbers and one stray value
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ID3Classifier(language=code).fit(X, np.arange(40) % 2)
    kinds = {w.category.__name__: w.filename for w in record}
    assert {"IDLikeFeatureWarning", "StrayValuesWarning"} <= set(kinds), kinds
    assert set(kinds.values()) == {__file__}, kinds


@pytest.mark.parametrize("code", SHIPPED)
def test_c45s_threshold_note_is_in_the_language(code):
    X = pd.DataFrame({"Humidity": [85, 90, 78, 96, 80, 70, 65, 95, 70, 80, 70, 90, 75, 80]})
    y = list("NNYYYNYNYYYYYN")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ID3Classifier(thresholds="c45", language=code, verbose=1).fit(X, y)
    note = lang.language(code).line("C4.5: largest value <= midpoint {below}", below="82,5")
    assert f"Humidity <= 80 ({note}, " in out.getvalue()
    assert "largest value" not in out.getvalue()


# ---------------------------------------------------------------------------------------------
# the teaching pages: worked solutions, steps, why_not
# ---------------------------------------------------------------------------------------------
TEACHING_FITS = ("play_tennis", "iris_leaf", "titanic_depth3")


def teaching_pages(tree, unwrapped: bool = False) -> dict[str, str]:
    """The worked solutions of a fitted tree in its four notations, its steps (text and HTML)
    and why_not of every feature at two nodes (``unwrapped``: the methods themselves, in the
    language around them, not the tree's)."""
    call = {
        name: getattr(ID3Classifier, name).__wrapped__.__get__(tree)
        if unwrapped
        else getattr(tree, name)
        for name in ("worked_solution", "steps", "step", "why_not")
    }
    solution = call["worked_solution"]()
    steps = list(call["steps"]())
    nodes = [0, steps[min(3, len(steps) - 1)].node_id]
    return {
        "steps": "\n\n".join(map(str, steps)),
        "steps_html": "\n\n".join(  # the drawing beside each step is not translated yet
            re.sub(r"<svg.*?</svg>", "", step._repr_html_(), flags=re.S) for step in steps
        ),
        "step_1": str(call["step"](1)),
        "why_not": "\n".join(
            str(call["why_not"](node, name)) for node in nodes for name in tree.feature_names_in_
        ),
        "worked": str(solution),
        "worked_math": solution.math(),
        "worked_latex": str(call["worked_solution"](format="latex")),
        "worked_decimals": str(call["worked_solution"](exact=False)),
        "worked_node0": str(call["worked_solution"](0)),
    }


def _teaching_tree(name: str, code: str = "en"):
    X, y, params = FITS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ID3Classifier(language=code, **params).fit(X, y)


@pytest.mark.parametrize("name", TEACHING_FITS)
def test_the_teaching_pages_english_messages_are_the_english_pages_byte_for_byte(name):
    tree = _teaching_tree(name)
    english = teaching_pages(tree)
    with messages_as_they_are():
        assert teaching_pages(tree, unwrapped=True) == english


@pytest.mark.parametrize("code", SHIPPED)
@pytest.mark.parametrize("name", TEACHING_FITS)
def test_a_teaching_page_in_another_language_holds_the_english_numbers(code, name):
    english = teaching_pages(_teaching_tree(name))
    spoken = teaching_pages(_teaching_tree(name, code))
    for page, text in spoken.items():
        assert text != english[page]
        if "latex" in page or "math" in page:  # TeX: a decimal comma {,}; LaTeX's 0.5ex
            text = text.replace("{,}", ",").replace("{0,5ex}", "{0.5ex}")
        assert _numbers(text, ",") == _numbers(english[page], "."), (code, name, page)
        if "html" in page:  # the candidate table's column names are the frame's keys
            text = re.sub(r"<th>[a-z_]+</th>", "", text)
        for word in ("entropy", "samples", "weight", "Decision", "predicting", "gain", "why"):
            assert not re.search(rf"\b{word}\b", text), (code, name, page, word)


@pytest.mark.parametrize("code", SHIPPED)
def test_the_tie_rule_and_the_unit_are_said_in_the_language(code):
    """A tie broken by name and a gain in nats: why_not and the step's notes say both in the
    tree's language, through the catalog's own words for them."""
    X = pd.DataFrame({"Wind": list("aabb"), "Humidity": list("xxyy"), "Z": list("pqpq")})
    tree = ID3Classifier(language=code, ties="name", log_base="e").fit(X, list("NNYY"))
    L = lang.language(code)
    text = str(tree.why_not(0, "Wind"))
    assert L.gettext("alphabetical order") in text and f" {L.gettext('nats')} " in text
    notes = tree.step(0).candidates.iloc[:, -1].tolist() + [str(tree.step(0))]
    assert "alphabetical order" not in " ".join(notes)
    assert L.gettext("alphabetical order") != "alphabetical order"
