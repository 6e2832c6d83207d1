// How stable each split is (tree.stability, on the explore page given stability=...): a line
// in each split's box, a dashed vermilion outline on shaky ones, and the numbers in the node's
// panel. Loaded after explore.js, only on a page that has them: it wraps the drawing's boxes
// and labels, and adds its paragraph whenever the panel shows a node.
(function () {
  "use strict";
  var C = window.ID3Page, el = C.el, t = C.t, page = window.id3page;
  var data = C.data(), st = data.stability, node = data.node;
  var SHAKY = "#D55E00";  // Okabe-Ito vermilion, as in the matplotlib and Graphviz drawings
  function percent(v) { return v === null ? "-" : v; }  // (written by Python: "57%")
  function line(i) {
    return (st.shaky[i] ? t("shaky:") + " " : "") + t("same feature {share}", {share: percent(st.same_feature[i])});
  }

  var tree = page.view.tree, box = tree.box, label = tree.label;
  tree.box = function (i) {
    var b = box(i);
    if (!st.covered[i]) return b;
    b.lines.push([line(i), false]);
    if (st.shaky[i]) { b.stroke = SHAKY; b.strokeWidth = 2; b.dashed = "5 3"; }
    return b;
  };
  tree.label = function (i) {
    var words = label(i);
    return st.covered[i] ? words + "; " + t("{line} of the bootstrap resamples", {line: line(i)}) : words;
  };

  function index(h2) {  // the node the panel shows, from its heading "Node 12 ..." (in its language)
    var m = /^\D*(\d+)/.exec(h2 ? h2.textContent : "");
    if (!m) return -1;
    var id = Number(m[1]);
    return node.id ? node.id.indexOf(id) : id;
  }
  function paragraph(i) {
    var p = el("p"); p.id = "stability";
    p.appendChild(el("strong", t("Stability:") + " "));
    var words = t("not measured here (a leaf, or below the depth measured).");
    if (st.covered[i]) {
      words = t("on {n} bootstrap resamples of the node's {rows}, the same feature wins {share} of the time (with a threshold in the same gap {gap})",
        {n: st.n_bootstrap, rows: C.plural(st.n_rows[i], "row"), share: percent(st.same_feature[i]),
          gap: percent(st.same_gap[i])}) +
        (st.runner_up[i] === null ? "" : "; " + t("runner-up {feature} {share}",
          {feature: st.runner_up[i], share: percent(st.runner_up_share[i])})) + "; " +
        t("no split {share}", {share: percent(st.no_split[i])}) + "; " +
        t("gain {gain}, {interval}.", {gain: st.gain[i], interval: st.interval[i]}) + " " +
        (st.shaky[i] ? t("A shaky split.") : "");
    }
    p.appendChild(document.createTextNode(words));
    if (st.shaky[i]) p.className = "shaky";
    return p;
  }
  var details = document.getElementById("details");
  function annotate() {
    if (document.getElementById("stability")) return;
    var i = index(details.querySelector("h2"));
    var why = document.getElementById("why");
    if (i < 0 || !why) return;
    why.parentNode.insertBefore(paragraph(i), why.nextSibling);
  }
  new MutationObserver(annotate).observe(details, {childList: true});

  var legend = document.querySelector("#legend ul");
  if (legend) {  // the outline of a shaky split, named in the legend
    var li = el("li"), svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    var rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    var attrs = {x: 2, y: 2, width: 22, height: 12, rx: 3, fill: "#ffffff", stroke: SHAKY,
      "stroke-width": 2, "stroke-dasharray": "5 3"};
    for (var k in attrs) rect.setAttribute(k, attrs[k]);
    svg.setAttribute("width", "26"); svg.setAttribute("height", "16");
    svg.setAttribute("aria-hidden", "true"); svg.setAttribute("class", "swatch");
    svg.appendChild(rect); li.appendChild(svg);
    li.appendChild(el("span", t("a shaky split: its feature wins on fewer than {share} of the bootstrap resamples of its rows",
      {share: percent(st.shaky_below)})));
    legend.appendChild(li);
  }
  page.view.layout();
  page.view.fit();
  page.view.draw(true);
  annotate();
})();
