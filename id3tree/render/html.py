"""One self-contained HTML page of a tree: no network, every script and style inline.

Two pages share one frame (a header of controls, the tree on the left, the details on the right):

* ``"explore"``: the fitted tree. Click a node for its counts, its decision and every feature's
  best split there (click a candidate for its branches and sums); the step buttons replay the
  growth node by node in reading order; the search box finds where a feature was used.
* ``"build"``: the student grows a tree of their own, choosing each split: they can look at a
  node's rows and climb a ladder of hints before choosing, undo and redo, and the browser keeps
  their work; each choice is set beside the best one, the finished tree scored against ID3's, and
  the tree exported as the answers ``id3tree grade`` reads, as a picture or as a printed page.

Both pages are made to be used with the keyboard alone and with a screen reader: the drawing is
an ARIA tree (arrow keys walk it, Enter opens a node), every control is a button, a select or a
disclosure, short messages go to a live region, and a legend names every colour and outline. The
class colours (:data:`PAGE_PALETTE`) stay apart under the common colour-vision deficiencies.

The tree is drawn by a script (``assets/tree_view.js``) that lays it out in the browser, draws
only what the window shows, folds and unfolds subtrees, zooms and pans: a tree of any size opens
at once. The data rides in the page as JSON (its ``<``, ``>`` and ``&`` escaped, so no label can
end the script element) and goes on screen through ``textContent`` only, so no label can inject
markup.

A page speaks the language of :func:`id3tree.base.language.current` (the learner's
``language``): the controls written here are the catalog's, and a page that is not English
carries a table of its scripts' messages (:func:`page_words`) that their ``t("...")`` reads, with
the decimal mark the numbers are shown with; an English page carries none and reads as it always
has.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html import escape
from importlib.resources import files

from id3tree.base.language import current
from id3tree.base.pencil import LEGEND

__all__ = [
    "json_for_script", "MODES", "page_html", "page_messages", "page_words", "PAGE_PALETTE",
    "palette", "TEXT_COLOR",
]  # fmt: skip

MODES = ("explore", "build")
"""The pages :func:`page_html` writes."""

PAGE_PALETTE = (
    "#77aadd", "#ee8866", "#eedd88", "#ffaabb", "#99ddff", "#44bb99", "#bbcc33", "#aaaa00",
    "#dddddd",
)  # fmt: skip
"""The class colours of the pages: Paul Tol's "light" scheme, made for dark text on it and to stay
apart under deuteranopia, protanopia and tritanopia (tests/test_build_page_access.py measures the
distances after simulating each). A box is its majority class's colour, paler as it is mixed;
the counts in it are written too, so the colour is never the only sign."""

TEXT_COLOR = "#000000"
"""The colour of the text in the boxes (on every class colour, contrast at least 7:1)."""

_SCRIPTS = {
    "explore": ("common.js", "tree_view.js", "explore.js"),
    "build": ("common.js", "tree_view.js", "build.js", "build_page.js"),
}


def _view_controls() -> str:
    L = current()
    return f"""<span class="group" role="group" aria-label="{escape(L.gettext("the view"))}">
<button id="fit" type="button" title="{escape(L.gettext("Fit the tree to the window (0)"))}">{escape(L.gettext("Fit"))}</button>
<button id="zoom-in" type="button" title="{escape(L.gettext("Zoom in (+)"))}">+</button>
<button id="zoom-out" type="button" title="{escape(L.gettext("Zoom out (-)"))}">&#x2212;</button>
<button id="unfold-all" type="button" title="{escape(L.gettext("Show every node"))}">{escape(L.gettext("Unfold all"))}</button>
<button id="fold-all" type="button" title="{escape(L.gettext("Show the root only"))}">{escape(L.gettext("Fold all"))}</button>
<button id="large" type="button" title="{escape(L.gettext("Larger text, for a lecture hall"))}">{escape(L.gettext("Larger text"))}</button>
</span>"""  # noqa: E501


def _explore_controls() -> str:
    L = current()
    return f"""<span class="group" role="group" aria-label="{escape(L.gettext("the growth"))}">
<button id="first" type="button" title="{escape(L.gettext("Back to the root"))}">&#xAB; {escape(L.gettext("Start"))}</button>
<button id="prev" type="button" title="{escape(L.gettext("One node back (left arrow)"))}">&#x25C0; {escape(L.gettext("Back"))}</button>
<button id="next" type="button" title="{escape(L.gettext("One node on (right arrow)"))}">{escape(L.gettext("Next"))} &#x25B6;</button>
<button id="all" type="button" title="{escape(L.gettext("The whole tree"))}">{escape(L.gettext("Show all"))}</button>
<span id="step-label"></span>
</span>
{_view_controls()}
<input id="search" type="search" placeholder="{escape(L.gettext("Find a feature"))}" aria-label="{escape(L.gettext("Find a feature"))}">
<span id="search-results"></span>"""  # noqa: E501


def _build_controls() -> str:
    L = current()
    return f"""<span class="group" role="group" aria-label="{escape(L.gettext("your tree"))}">
<button id="undo" type="button" title="{escape(L.gettext("Undo your last choice (Ctrl+Z)"))}">{escape(L.gettext("Undo"))}</button>
<button id="redo" type="button" title="{escape(L.gettext("Redo (Ctrl+Shift+Z)"))}">{escape(L.gettext("Redo"))}</button>
<button id="restart" type="button" title="{escape(L.gettext("Start again from the root"))}">{escape(L.gettext("Start again"))}</button>
<span id="progress" role="status"></span>
</span>
{_view_controls()}
<span class="group" role="group" aria-label="{escape(L.gettext("export"))}">
<button id="export-json" type="button" title="{escape(L.gettext("Your tree as the answers id3tree grade reads"))}">{escape(L.gettext("Export answers"))}</button>
<button id="export-png" type="button" title="{escape(L.gettext("A picture of your tree"))}">{escape(L.gettext("Save picture"))}</button>
<button id="print" type="button" title="{escape(L.gettext("Your tree and every decision on paper"))}">{escape(L.gettext("Print"))}</button>
</span>
<span id="saved"></span>"""  # noqa: E501


_CONTROLS = {"explore": _explore_controls, "build": _build_controls}

# the page's own messages: the first argument of the scripts' t("..."), and the words of
# C.plural(n, "row") or C.plural(n, "branch", "branches") (tools/catalogs.py extracts them)
_STRING = r'"((?:[^"\\]|\\.)*)"'
_MESSAGE = re.compile(r"\bt\(\s*" + _STRING)
_PLURAL = re.compile(
    r"\bplural\((?:[^()\"]|\([^()]*\))*?,\s*" + _STRING + r"(?:\s*,\s*" + _STRING + r")?\s*\)"
)


@cache
def page_messages() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The messages of the pages' scripts (``t("...")``, in the order they appear) and the
    pairs of words after a count (``C.plural(n, "row")``: ``("row", "rows")``)."""
    messages: dict[str, None] = {}
    plurals: dict[tuple[str, str], None] = {}
    for name in sorted(files("id3tree.render").joinpath("assets").iterdir(), key=str):
        if not name.name.endswith(".js"):
            continue
        text = name.read_text(encoding="utf-8")
        for found in _MESSAGE.finditer(text):
            messages[json.loads(f'"{found.group(1)}"')] = None
        for found in _PLURAL.finditer(text):
            one = json.loads(f'"{found.group(1)}"')
            many = json.loads(f'"{found.group(2)}"') if found.group(2) is not None else one + "s"
            plurals[(one, many)] = None
    return tuple(messages), tuple(plurals)


def page_words() -> dict:
    """The page's messages in the current language (:func:`page_messages`), its decimal mark
    and list separator, for the scripts' ``t(...)``; written into a page that is not English."""
    L = current()
    messages, plurals = page_messages()
    catalog = L.catalog

    def forms(one: str, many: str) -> list[str]:
        if catalog is None:
            return [one, many]
        return [catalog.ngettext(one, many, 1), catalog.ngettext(one, many, 2)]

    words = {one: forms(one, many) for one, many in plurals}  # (a heading "node": the singular)
    return {
        "decimal": L.decimal, "separator": L.separator,
        "messages": {m: words[m][0] if m in words else L.gettext(m) for m in messages},
        "plurals": words,
    }  # fmt: skip


def _asset(name: str) -> str:
    text = files("id3tree.render").joinpath("assets", name).read_text(encoding="utf-8")
    if "</" in text.replace("<\\/", ""):  # would end the element it is inlined in
        raise ValueError(f"the page's asset {name} holds '</', which would end its element")
    return text


def json_for_script(data: dict) -> str:
    """JSON that cannot end the ``<script>`` element it sits in (nor open a comment in it)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def palette(n_classes: int) -> list[str]:
    """The colour of each class on the pages (:data:`PAGE_PALETTE`, repeated past its end)."""
    return [PAGE_PALETTE[k % len(PAGE_PALETTE)] for k in range(n_classes)]


def page_html(data: dict, *, title: str = "", mode: str = "explore") -> str:
    """The page of ``data`` (:func:`id3tree.teaching.page_data.page_data` for ``"explore"``,
    :func:`id3tree.teaching.build.build_data` for ``"build"``); a ``"stability"`` entry (how
    stable each split is, ``tree.stability``) brings its script, which marks the shaky splits."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    L = current()
    data = {**data, "palette": palette(len(data["classes"])), "approx_legend": L.gettext(LEGEND)}
    names = _SCRIPTS[mode] + (("stability.js",) if "stability" in data else ())
    scripts = "\n".join(f"<script>{_asset(name)}</script>" for name in names)
    if not isinstance(title, str):
        raise ValueError(f"title must be text (a str), got {type(title).__name__} {title!r}")
    controls = _CONTROLS[mode]()
    words = ""  # an English page holds no table: its scripts' own words are English
    if not L.english:
        table = json_for_script(page_words())
        words = f'<script type="application/json" id="page-words">{table}</script>\n'
    return f"""<!DOCTYPE html>
<html lang="{L.code}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{_asset("page.css")}</style>
</head>
<body class="{mode}">
<header>
<h1>{escape(title)}</h1>
<div class="controls">
{controls}
</div>
</header>
<main>
<div id="tree-pane"><div id="tree"></div>
<div id="view-status" aria-live="polite"></div></div>
<section id="details" aria-label="{escape(L.gettext("the node"))}"></section>
</main>
<footer id="legend" hidden></footer>
<div id="announce" class="sr-only" aria-live="polite"></div>
<div id="print-view"></div>
<script type="application/json" id="tree-data">{json_for_script(data)}</script>
{words}{scripts}
</body>
</html>
"""
