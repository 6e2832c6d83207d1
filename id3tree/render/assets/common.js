// What both pages share: the data, numbers as the package prints them, node colours, controls.
(function () {
  "use strict";

  var C = {};

  C.data = function () { return JSON.parse(document.getElementById("tree-data").textContent); };

  // ---- the page's language: its messages (id3tree.render.html.page_words), English without --
  var words = document.getElementById("page-words");
  var WORDS = words ? JSON.parse(words.textContent) : {messages: {}, plurals: {}};
  var DECIMAL = WORDS.decimal || ".", SEPARATOR = WORDS.separator || ", ";
  // t("Node {number}", {number: 3}): the message in the page's language, its fields filled
  C.t = function (message, values) {
    var text = WORDS.messages[message] || message;
    if (!values) return text;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  };
  // a number written by the page (0.9403) as the page's language shows it (0,9403)
  C.mark = function (text) { return DECIMAL === "." ? String(text) : String(text).replace(/\./g, DECIMAL); };
  // items of a list that may hold numbers ("No: 2, Yes: 3"; "No: 2; Yes: 3" with a decimal comma)
  C.join = function (items) { return items.join(SEPARATOR); };
  // a time of day as the page's language writes it (the browser's own way on an English page)
  C.time = function (date) {
    return words ? date.toLocaleTimeString(document.documentElement.lang) : date.toLocaleTimeString();
  };

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
    return whole + DECIMAL + "0000".slice(part.length) + part;
  };

  C.plural = function (n, word, words) {  // "3 rows": the count, then the word for it
    var forms = WORDS.plurals[word] || [word, words || word + "s"];
    return n + " " + (n === 1 ? forms[0] : forms[1]);
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
  C.shown = function (x, digits) { return C.mark(C.fixed(x, digits)); };  // C.fixed, as shown

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
    var joined = C.join(parts);
    return joined.length <= 32 ? [joined] : parts;
  };

  C.typing = function (e) {  // a key meant for a control, not for the page's shortcuts
    var t = e.target.tagName;
    return t === "INPUT" || t === "SELECT" || t === "TEXTAREA" || t === "BUTTON" ||
      t === "SUMMARY" || e.ctrlKey || e.metaKey || e.altKey;
  };

  C.tableRow = function (cells, tag) {
    var tr = C.el("tr");
    cells.forEach(function (c) { tr.appendChild(C.el(tag || "td", c)); });
    return tr;
  };

  // The zoom controls of a view, and its keys: + and - zoom, 0 fits.
  C.viewControls = function (view) {
    C.largeText(view);
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
      if (C.typing(e)) return;
      if (e.key === "+" || e.key === "=") view.zoom(1.25);
      if (e.key === "-") view.zoom(0.8);
      if (e.key === "0") view.fit();
    });
  };

  // ---- numbers by pencil (id3tree.base.pencil): each in units of its last printed digit ----
  C.printedUnits = function (x) { return Math.round(Number(C.fixed(x)) * 10000); };
  // n1/N × v1 + n2/N × v2 + ... = r: the sign a pencil gives (half away from zero)
  C.weightedSumSign = function (sizes, values, result) {
    var total = 0, n = 0;
    for (var j = 0; j < sizes.length; j++) { total += sizes[j] * values[j]; n += sizes[j]; }
    return 2 * total >= (2 * result - 1) * n && 2 * total < (2 * result + 1) * n ? "=" : "\u2248";
  };
  C.differenceSign = function (a, b, result) { return a - b === result ? "=" : "\u2248"; };

  // ---- a short message for a screen reader -------------------------------------------------
  C.announce = function (text) {
    var out = document.getElementById("announce");
    if (!out) return;
    out.textContent = "";
    window.setTimeout(function () { out.textContent = text; }, 30);
  };

  // ---- the legend: every colour and outline of the drawing, and what it means ---------------
  var SVG = "http://www.w3.org/2000/svg";
  function swatch(item) {
    var svg = document.createElementNS(SVG, "svg"), rect = document.createElementNS(SVG, "rect");
    svg.setAttribute("width", "26"); svg.setAttribute("height", "16");
    svg.setAttribute("aria-hidden", "true"); svg.setAttribute("class", "swatch");
    var attrs = {x: 2, y: 2, width: 22, height: 12, rx: 3, fill: item.fill || "#ffffff",
      stroke: item.stroke || "#555555", "stroke-width": item.width || 1};
    if (item.dash) attrs["stroke-dasharray"] = item.dash;
    for (var k in attrs) rect.setAttribute(k, attrs[k]);
    svg.appendChild(rect);
    return svg;
  }
  // items: [{fill, stroke, width, dash, text}]; notes: sentences after them
  C.legend = function (items, notes) {
    var legend = document.getElementById("legend");
    legend.textContent = "";
    legend.appendChild(C.el("h2", C.t("Legend"), "sr-only"));
    var list = C.el("ul", null, "legend-items");
    items.forEach(function (item) {
      var li = C.el("li");
      if (item.fill || item.stroke || item.dash) li.appendChild(swatch(item));
      li.appendChild(C.el("span", item.text));
      list.appendChild(li);
    });
    legend.appendChild(list);
    (notes || []).forEach(function (t) { if (t) legend.appendChild(C.el("p", t)); });
    legend.hidden = false;
  };
  C.classItems = function (data) {  // one swatch per class: a box's colour is its majority class
    var items = data.classes.map(function (name, k) {
      return {fill: data.palette[k], text: name};
    });
    items.push({fill: C.fill(data.palette, 0, Math.log2(Math.max(2, data.classes.length)) * 0.7),
      text: C.t("paler: the classes are more mixed (a box is coloured by its majority class)")});
    return items;
  };

  // ---- a question before anything is thrown away ------------------------------------------
  // confirm({title, text, yes, no}, onYes): a modal dialog; Escape or "no" keeps everything
  C.confirm = function (q, onYes) {
    var dialog = document.getElementById("confirm");
    if (!dialog) {
      dialog = C.el("dialog"); dialog.id = "confirm";
      dialog.setAttribute("aria-labelledby", "confirm-title");
      dialog.setAttribute("aria-describedby", "confirm-text");
      var h = C.el("h2"); h.id = "confirm-title";
      var p = C.el("p"); p.id = "confirm-text";
      var row = C.el("div", null, "choice");
      var no = C.el("button"); no.id = "confirm-no"; no.type = "button";
      var yes = C.el("button"); yes.id = "confirm-yes"; yes.type = "button";
      row.appendChild(no); row.appendChild(yes);
      [h, p, row].forEach(function (e) { dialog.appendChild(e); });
      document.body.appendChild(dialog);
      no.addEventListener("click", function () { dialog.close("no"); });
      yes.addEventListener("click", function () {  // at once: the close event comes later
        var then = dialog.onYes;
        dialog.onYes = null;
        dialog.close("yes");
        if (then) then();
      });
    }
    var back = document.activeElement;
    dialog.querySelector("#confirm-title").textContent = q.title;
    dialog.querySelector("#confirm-text").textContent = q.text;
    dialog.querySelector("#confirm-no").textContent = q.no || C.t("Keep it");
    dialog.querySelector("#confirm-yes").textContent = q.yes;
    dialog.onYes = onYes;
    dialog.onclose = function () {
      if (dialog.returnValue !== "yes" && back && document.body.contains(back)) back.focus();
    };
    dialog.returnValue = "";
    dialog.showModal();
    dialog.querySelector("#confirm-no").focus();
  };

  // ---- files the page hands over (no network: a link to data in the page itself) ----------
  C.download = function (name, blob) {
    var a = document.createElement("a"), url = URL.createObjectURL(blob);
    a.setAttribute("href", url);  // a blob of the page's own making, never the network
    a.setAttribute("download", name);
    document.body.appendChild(a);
    a.click();
    window.setTimeout(function () { URL.revokeObjectURL(url); a.remove(); }, 1000);
  };

  C.KEYS = C.t("Keys: Tab moves between controls; in the tree the arrow keys go from node to node, Enter opens a node and the space bar folds it; + and \u2212 zoom, 0 fits the tree.");

  // larger text for a lecture hall (the tree's boxes grow with the zoom)
  C.largeText = function (view) {
    var button = document.getElementById("large");
    if (!button) return;
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", function () {
      var on = document.body.classList.toggle("large");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      view.fit();
    });
  };

  C.status = function (drawn, skipped) {
    var out = document.getElementById("view-status");
    if (!out) return;
    out.textContent = skipped ? C.t("showing {drawn} boxes here; zoom in for the other {skipped}",
      {drawn: drawn, skipped: skipped}) : "";
  };

  window.ID3Page = C;
})();
