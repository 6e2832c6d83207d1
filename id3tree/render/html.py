"""One self-contained HTML page of a tree: no network, every script and style inline.

Two pages share one frame (a header of controls, the tree on the left, the details on the right):

* ``"explore"``: the fitted tree. Click a node for its counts, its decision and every feature's
  best split there (click a candidate for its branches and sums); the step buttons replay the
  growth node by node in reading order; the search box finds where a feature was used.
* ``"build"``: the student grows a tree of their own, choosing each split, and sees each choice
  beside the best one, then the finished tree scored against ID3's.

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

from id3tree.render.style import PALETTE

__all__ = ["json_for_script", "MODES", "page_html", "palette"]

MODES = ("explore", "build")
"""The pages :func:`page_html` writes."""

_SCRIPTS = {
    "explore": ("common.js", "tree_view.js", "explore.js"),
    "build": ("common.js", "tree_view.js", "build.js"),
}

_VIEW_CONTROLS = """<span class="group" aria-label="the view">
<button id="fit" type="button" title="Fit the tree to the window (0)">Fit</button>
<button id="zoom-in" type="button" title="Zoom in (+)">+</button>
<button id="zoom-out" type="button" title="Zoom out (-)">&#x2212;</button>
<button id="unfold-all" type="button" title="Show every node">Unfold all</button>
<button id="fold-all" type="button" title="Show the root only">Fold all</button>
</span>"""

_CONTROLS = {
    "explore": """<span class="group" aria-label="the growth">
<button id="first" type="button" title="Back to the root">&#xAB; Start</button>
<button id="prev" type="button" title="One node back (left arrow)">&#x25C0; Back</button>
<button id="next" type="button" title="One node on (right arrow)">Next &#x25B6;</button>
<button id="all" type="button" title="The whole tree">Show all</button>
<span id="step-label"></span>
</span>
{view}
<input id="search" type="search" placeholder="Find a feature" aria-label="Find a feature">
<span id="search-results"></span>""",
    "build": """<span class="group" aria-label="your tree">
<button id="restart" type="button" title="Start again from the root">Start again</button>
<span id="progress"></span>
</span>
{view}""",
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
    """The colour of each class, as the other drawings colour them."""
    return [PALETTE[k % len(PALETTE)] for k in range(n_classes)]


def page_html(data: dict, *, title: str = "", mode: str = "explore") -> str:
    """The page of ``data`` (:func:`id3tree.teaching.page_data.page_data` for ``"explore"``,
    :func:`id3tree.teaching.build.build_data` for ``"build"``)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    data = {**data, "palette": palette(len(data["classes"]))}
    scripts = "\n".join(f"<script>{_asset(name)}</script>" for name in _SCRIPTS[mode])
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
<div id="tree-pane"><div id="tree" aria-label="the tree: drag to move, wheel to zoom"></div>
<div id="view-status" aria-live="polite"></div></div>
<section id="details" aria-live="polite"></section>
</main>
<footer id="legend" hidden></footer>
<script type="application/json" id="tree-data">{json_for_script(data)}</script>
{scripts}
</body>
</html>
"""
