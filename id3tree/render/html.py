"""One self-contained HTML page to explore a tree: no network, every script and style inline.

The tree is drawn as SVG (:mod:`id3tree.render.svg`). Clicking a node shows its class counts and
its candidate table; the step buttons replay the growth node by node in reading order; the search
box finds where a feature was used or considered. The data rides along as JSON in the page and
is put on screen with ``textContent`` only, so no label can inject markup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from id3tree.node import Node
from id3tree.render.svg import tree_to_svg

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #222; }
header { padding: .6em 1em; background: #f4f4f4; border-bottom: 1px solid #ddd; }
header h1 { font-size: 1.2em; margin: 0 0 .4em 0; }
.controls { display: flex; gap: .4em; align-items: center; flex-wrap: wrap; }
.controls button { font-size: .95em; padding: .25em .7em; cursor: pointer; }
#step-label { margin: 0 .8em; font-weight: bold; }
#search { padding: .25em .5em; font-size: .95em; width: 14em; }
#search-results { color: #444; font-size: .9em; }
main { display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; }
#tree { flex: 3 1 40em; overflow: auto; border: 1px solid #ddd; max-height: 85vh; }
#details { flex: 2 1 34em; font-size: .92em; overflow-x: auto; }
#details table { border-collapse: collapse; margin: .4em 0 .8em 0; }
#details th, #details td { border: 1px solid #ccc; padding: .2em .45em; text-align: right;
  vertical-align: top; }
#details th:first-child, #details td:first-child { text-align: left; }
#details td.note, #details td.branches { text-align: left; }
#details td.branches { white-space: nowrap; font-size: .85em; }
#details tr.chosen { background: #e6f4ea; font-weight: bold; }
#details tr.match td:first-child { outline: 2px solid #ff9800; }
g.node { cursor: pointer; }
g.node.hidden, g.edge.hidden { display: none; }
g.node.selected rect { stroke: #1f77b4; stroke-width: 3; }
g.node.current rect { stroke: #d62728; stroke-width: 3; }
g.node.match rect { stroke: #ff9800; stroke-width: 4; stroke-dasharray: 5 2; }
.muted { color: #666; }
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tree-data").textContent);
  var nodes = data.nodes;
  var byId = {};
  nodes.forEach(function (n) { byId[n.id] = n; });
  var total = nodes.length;
  var step = total - 1;          // everything shown at first
  var stepping = false;          // true once a step button was used
  var selected = null;
  var query = "";

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function fmt(v) { return v === null || v === undefined ? "" : Number(v).toFixed(4); }
  function counts(c) {
    return data.classes.map(function (k, i) { return k + " " + c[i]; }).join(", ");
  }
  function svgNodes() { return document.querySelectorAll("#tree g.node"); }
  function svgEdges() { return document.querySelectorAll("#tree g.edge"); }

  function show(node) {
    selected = node.id;
    var d = document.getElementById("details");
    d.textContent = "";
    d.appendChild(el("h2", "Node " + node.id + (node.parent === null ? " (the root)" : "")));
    if (node.path.length) d.appendChild(el("p", node.path.join(" and "), "muted"));
    d.appendChild(el("p", node.n + (node.n === 1 ? " sample" : " samples") +
      ", entropy " + fmt(node.entropy)));
    var ct = el("table"); ct.id = "counts";
    var hr = el("tr"); hr.appendChild(el("th", "class")); hr.appendChild(el("th", "count"));
    ct.appendChild(hr);
    data.classes.forEach(function (k, i) {
      var tr = el("tr"); tr.appendChild(el("td", k)); tr.appendChild(el("td", node.counts[i]));
      ct.appendChild(tr);
    });
    d.appendChild(ct);
    var dec = el("p"); dec.id = "decision";
    dec.appendChild(el("strong", "Decision: ")); dec.appendChild(document.createTextNode(node.decision));
    d.appendChild(dec);
    var why = el("p"); why.appendChild(el("strong", "Why: "));
    why.appendChild(document.createTextNode(node.reason)); d.appendChild(why);
    if (node.candidates.length) {
      d.appendChild(el("h3", "Candidates"));
      var t = el("table"); t.id = "candidates";
      var head = el("tr");
      ["feature", "best split", "overall entropy", "gain", "gain ratio", "branches", "note"]
        .forEach(function (h) { head.appendChild(el("th", h)); });
      t.appendChild(head);
      node.candidates.forEach(function (c) {
        var tr = el("tr", null, c.chosen ? "chosen" : "");
        tr.dataset.feature = c.feature;
        tr.appendChild(el("td", c.feature));
        tr.appendChild(el("td", c.split + (c.between ? " (" + c.between + ")" : "")));
        tr.appendChild(el("td", fmt(c.overall_entropy)));
        tr.appendChild(el("td", fmt(c.gain)));
        tr.appendChild(el("td", fmt(c.gain_ratio)));
        var b = el("td", null, "branches");
        c.branches.forEach(function (br, i) {
          if (i) b.appendChild(el("br"));
          b.appendChild(document.createTextNode(br.label + ": " + br.n + " (" + counts(br.counts) +
            "), H " + fmt(br.entropy)));
        });
        tr.appendChild(b);
        tr.appendChild(el("td", c.note, "note"));
        t.appendChild(tr);
      });
      d.appendChild(t);
    } else {
      d.appendChild(el("p", "No feature was scored at this node.", "muted"));
    }
    paint();
    var box = document.querySelector('#tree g.node[data-node="' + node.id + '"]');
    var pane = document.getElementById("tree");
    if (box && box.getBoundingClientRect) {  // bring the node into the tree's view
      var r = box.getBoundingClientRect(), p = pane.getBoundingClientRect();
      pane.scrollLeft += (r.left + r.width / 2) - (p.left + p.width / 2);
      pane.scrollTop += (r.top + r.height / 2) - (p.top + p.height / 2);
    }
  }

  function paint() {
    var q = query;
    svgNodes().forEach(function (g) {
      var n = byId[g.dataset.node];
      g.classList.toggle("hidden", n.order > step);
      g.classList.toggle("current", stepping && n.order === step);
      g.classList.toggle("selected", selected !== null && n.id === selected);
      g.classList.toggle("match", q !== "" && n.feature !== null &&
        n.feature.toLowerCase().indexOf(q) >= 0);
    });
    svgEdges().forEach(function (g) {
      g.classList.toggle("hidden", byId[g.dataset.node].order > step);
    });
    document.querySelectorAll("#candidates tr[data-feature]").forEach(function (tr) {
      tr.classList.toggle("match", q !== "" && tr.dataset.feature.toLowerCase().indexOf(q) >= 0);
    });
    document.getElementById("step-label").textContent = "Step " + (step + 1) + " of " + total;
  }

  function forward() { go(stepping ? step + 1 : 0); }  // from the whole tree, start at the root

  function go(k) {
    stepping = true;
    step = Math.max(0, Math.min(total - 1, k));
    show(nodes[step]);
  }

  function search(text) {
    query = text.trim().toLowerCase();
    var out = document.getElementById("search-results");
    if (!query) { out.textContent = ""; paint(); return; }
    var features = data.features.filter(function (f) { return f.toLowerCase().indexOf(query) >= 0; });
    if (!features.length) { out.textContent = "no feature matches"; paint(); return; }
    var parts = features.map(function (f) {
      var split = nodes.filter(function (n) { return n.feature === f; }).map(function (n) { return n.id; });
      var cand = nodes.filter(function (n) {
        return n.candidates.some(function (c) { return c.feature === f && c.gain !== null; });
      }).map(function (n) { return n.id; });
      return f + ": splits at " + (split.length ? "node " + split.join(", ") : "no node") +
        "; a candidate at " + cand.length + (cand.length === 1 ? " node" : " nodes");
    });
    out.textContent = parts.join(" | ");
    paint();
  }

  svgNodes().forEach(function (g) {
    g.addEventListener("click", function () { show(byId[g.dataset.node]); });
    g.addEventListener("keydown", function (e) {
      if (e.key === "Enter") show(byId[g.dataset.node]);
    });
  });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(step - 1); });
  document.getElementById("next").addEventListener("click", forward);
  document.getElementById("all").addEventListener("click", function () {
    stepping = false; step = total - 1; paint();
  });
  document.getElementById("search").addEventListener("input", function (e) { search(e.target.value); });
  document.addEventListener("keydown", function (e) {
    if (e.target.id === "search") return;
    if (e.key === "ArrowRight") forward();
    if (e.key === "ArrowLeft") go(step - 1);
  });
  show(nodes[0]);
})();
"""


def _json_for_script(data: dict) -> str:
    """JSON that cannot end the ``<script>`` element it sits in."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def page_html(root: Node, data: dict, *, classes: Sequence | None = None, title: str = "") -> str:
    """The page: ``data`` holds one entry per node in reading order (see
    :func:`id3tree.teaching.page.page_data`)."""
    svg = tree_to_svg(root, classes=classes, show=("samples", "counts", "entropy"))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<div class="controls">
<button id="first" type="button" title="Back to the root">&#xAB; Start</button>
<button id="prev" type="button" title="One node back (left arrow)">&#x25C0; Back</button>
<button id="next" type="button" title="One node on (right arrow)">Next &#x25B6;</button>
<button id="all" type="button" title="The whole tree">Show all</button>
<span id="step-label"></span>
<input id="search" type="search" placeholder="Find a feature" aria-label="Find a feature">
<span id="search-results"></span>
</div>
</header>
<main>
<div id="tree">{svg}</div>
<section id="details" aria-live="polite"></section>
</main>
<script type="application/json" id="tree-data">{_json_for_script(data)}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
