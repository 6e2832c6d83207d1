// What both pages share: the data, numbers as the package prints them, node colours, controls.
(function () {
  "use strict";

  var C = {};

  C.data = function () { return JSON.parse(document.getElementById("tree-data").textContent); };

  C.el = function (tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  };

  // A number the package printed, kept in units of its last digit (2467 is 0.2467).
  C.units = function (u) {
    if (u === null || u === undefined || u < 0) return "";
    var whole = Math.floor(u / 10000), part = String(u % 10000);
    return whole + "." + "0000".slice(part.length) + part;
  };

  C.plural = function (n, word, words) {
    return n + " " + (n === 1 ? word : (words || word + "s"));
  };

  // A number the page works out itself (the build mode), printed as Python prints it:
  // toFixed rounds an exact half up, Python's format to the even digit (as pencil.fixed).
  C.fixed = function (x, digits) {
    if (digits === undefined) digits = 4;
    if (!isFinite(x)) return String(x);
    var text = x.toFixed(digits);
    var exact = Math.abs(x).toFixed(Math.min(100, digits + 40));
    if (/^50*$/.test(exact.slice(exact.indexOf(".") + 1 + digits))) {
      var down = Math.floor(Math.abs(x) * Math.pow(10, digits));  // exact: x is k / 2^j
      var q = String(down % 2 === 0 ? down : down + 1);
      while (q.length <= digits) q = "0" + q;
      text = (x < 0 ? "-" : "") + q.slice(0, q.length - digits) + "." + q.slice(q.length - digits);
    }
    return Number(text) === 0 ? text.replace("-", "") : text;
  };

  // The colour of a box: its majority class's colour, paler as the node is less pure
  // (id3tree.render.style.fill_color).
  C.fill = function (palette, k, entropy) {
    var base = palette[k];
    if (!base) return "#ffffff";
    var n = palette.length, strength = n < 2 ? 1 : Math.min(1, Math.max(0, 1 - entropy / Math.log2(n)));
    var out = "#";
    for (var j = 1; j < 7; j += 2) {
      var v = parseInt(base.slice(j, j + 2), 16);
      var c = Math.round(255 + (v - 255) * strength).toString(16);
      out += c.length < 2 ? "0" + c : c;
    }
    return out;
  };

  // The counts as the drawings write them: on one line when short, else a class per line.
  C.countLines = function (names, counts) {
    var parts = names.map(function (name, k) { return name + ": " + counts[k]; });
    var joined = parts.join(", ");
    return joined.length <= 32 ? [joined] : parts;
  };

  C.tableRow = function (cells, tag) {
    var tr = C.el("tr");
    cells.forEach(function (c) { tr.appendChild(C.el(tag || "td", c)); });
    return tr;
  };

  // The zoom controls of a view, and its keys: + and - zoom, 0 fits.
  C.viewControls = function (view) {
    document.getElementById("fit").addEventListener("click", function () { view.fit(); });
    document.getElementById("zoom-in").addEventListener("click", function () { view.zoom(1.25); });
    document.getElementById("zoom-out").addEventListener("click", function () { view.zoom(0.8); });
    document.getElementById("unfold-all").addEventListener("click", function () {
      view.unfoldAll(); view.fit();
    });
    document.getElementById("fold-all").addEventListener("click", function () {
      view.foldAll(); view.fit();
    });
    document.addEventListener("keydown", function (e) {
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      if (e.key === "+" || e.key === "=") view.zoom(1.25);
      if (e.key === "-") view.zoom(0.8);
      if (e.key === "0") view.fit();
    });
  };

  C.status = function (drawn, skipped) {
    var out = document.getElementById("view-status");
    if (!out) return;
    out.textContent = skipped ? "showing " + drawn + " boxes here; zoom in for the other " + skipped : "";
  };

  window.ID3Page = C;
})();
