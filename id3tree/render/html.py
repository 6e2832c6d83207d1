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
"""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files

from id3tree.base.pencil import LEGEND

__all__ = ["json_for_script", "MODES", "page_html", "PAGE_PALETTE", "palette", "TEXT_COLOR"]

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

_VIEW_CONTROLS = """<span class="group" role="group" aria-label="the view">
<button id="fit" type="button" title="Fit the tree to the window (0)">Fit</button>
<button id="zoom-in" type="button" title="Zoom in (+)">+</button>
<button id="zoom-out" type="button" title="Zoom out (-)">&#x2212;</button>
<button id="unfold-all" type="button" title="Show every node">Unfold all</button>
<button id="fold-all" type="button" title="Show the root only">Fold all</button>
<button id="large" type="button" title="Larger text, for a lecture hall">Larger text</button>
</span>"""

_CONTROLS = {
    "explore": """<span class="group" role="group" aria-label="the growth">
<button id="first" type="button" title="Back to the root">&#xAB; Start</button>
<button id="prev" type="button" title="One node back (left arrow)">&#x25C0; Back</button>
<button id="next" type="button" title="One node on (right arrow)">Next &#x25B6;</button>
<button id="all" type="button" title="The whole tree">Show all</button>
<span id="step-label"></span>
</span>
{view}
<input id="search" type="search" placeholder="Find a feature" aria-label="Find a feature">
<span id="search-results"></span>""",
    "build": """<span class="group" role="group" aria-label="your tree">
<button id="undo" type="button" title="Undo your last choice (Ctrl+Z)">Undo</button>
<button id="redo" type="button" title="Redo (Ctrl+Shift+Z)">Redo</button>
<button id="restart" type="button" title="Start again from the root">Start again</button>
<span id="progress" role="status"></span>
</span>
{view}
<span class="group" role="group" aria-label="export">
<button id="export-json" type="button" title="Your tree as the answers id3tree grade reads">Export answers</button>
<button id="export-png" type="button" title="A picture of your tree">Save picture</button>
<button id="print" type="button" title="Your tree and every decision on paper">Print</button>
</span>
<span id="saved"></span>""",
}


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
    data = {**data, "palette": palette(len(data["classes"])), "approx_legend": LEGEND}
    names = _SCRIPTS[mode] + (("stability.js",) if "stability" in data else ())
    scripts = "\n".join(f"<script>{_asset(name)}</script>" for name in names)
    if not isinstance(title, str):
        raise ValueError(f"title must be text (a str), got {type(title).__name__} {title!r}")
    controls = _CONTROLS[mode].format(view=_VIEW_CONTROLS)
    return f"""<!DOCTYPE html>
<html lang="en">
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
<section id="details" aria-label="the node"></section>
</main>
<footer id="legend" hidden></footer>
<div id="announce" class="sr-only" aria-live="polite"></div>
<div id="print-view"></div>
<script type="application/json" id="tree-data">{json_for_script(data)}</script>
{scripts}
</body>
</html>
"""
