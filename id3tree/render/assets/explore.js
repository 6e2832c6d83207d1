// The explore page: the fitted tree, each node's numbers, the growth replayed step by step.
//
// The data (id3tree.teaching.page_data) is flat lists: one entry per node in reading order,
// one per candidate (scored node x feature) and one per branch, texts in one table.
(function () {
  "use strict";
  var C = window.ID3Page, el = C.el, t = C.t, MISSING = t("missing");
  var data = C.data();
  var S = data.strings, F = data.features.length, K = data.classes.length;
  var node = data.node, cand = data.cand, branch = data.branch;
  var N = node.parent.length;

  var kids = [], scoredAt = new Int32Array(N).fill(-1), firstBranch = [0];
  for (var i = 0; i < N; i++) kids.push([]);
  for (i = 1; i < N; i++) kids[node.parent[i]].push(i);
  data.scored.forEach(function (p, s) { scoredAt[p] = s; });
  cand.branches.forEach(function (n, c) { firstBranch.push(firstBranch[c] + n); });

  function id(i) { return node.id ? node.id[i] : i; }
  function counts(i) { return node.counts.slice(i * K, i * K + K); }
  function samples(i) { return counts(i).reduce(function (a, b) { return a + b; }, 0); }
  function thresholdOf(i) {  // the threshold of a node split on a number, as printed
    return S[cand.threshold[scoredAt[i] * F + node.feature[i]]];
  }
  function branchLabel(f, slot, threshold) {  // Sunny, <= 2.45, missing
    if (data.numeric[f]) return slot === 0 ? "<= " + threshold : slot === 1 ? "> " + threshold : MISSING;
    var values = data.categories[f];
    return slot === values.length ? MISSING : values[slot];
  }

  // ---- the drawing -------------------------------------------------------------------------
  var step = null;      // null: the whole tree; k: the tree grown up to node k (reading order)
  var selected = 0, query = "", matches = {};

  var tree = {
    count: N,
    parent: function (i) { return node.parent[i]; },
    children: function (i) { return kids[i]; },
    box: function (i) {
      var f = node.feature[i], title;
      if (f < 0) title = t("predict {class}", {"class": data.predictions[node.prediction[i]]});
      else if (data.numeric[f]) title = data.features[f] + " \u2264 " + thresholdOf(i);
      else title = data.features[f];
      var lines = [["#" + id(i) + " " + title, true], [t("samples = {n}", {n: samples(i)}), false]];
      C.countLines(data.classes, counts(i)).forEach(function (t) { lines.push([t, false]); });
      lines.push([t("entropy = {h}", {h: C.units(node.entropy[i])}), false]);
      return {lines: lines, fill: C.fill(data.palette, node.prediction[i], node.entropy[i] / 10000)};
    },
    edge: function (i) {
      var p = node.parent[i], f = node.feature[p], slot = node.slot[i];
      var label = branchLabel(f, slot, data.numeric[f] ? thresholdOf(p) : null);
      if (data.numeric[f] && slot === 0) label = "\u2264 " + thresholdOf(p);
      return {text: label.replace(/\n/g, " "), italic: label === MISSING &&
        (data.numeric[f] ? slot === 2 : slot === data.categories[f].length)};
    },
    classes: function (i) {
      var out = [];
      if (i === selected) out.push("selected");
      if (step !== null && i === step) out.push("current");
      if (matches[i]) out.push("match");
      return out.join(" ");
    },
    selected: function (i) { return i === selected; },
    label: function (i) {  // what a screen reader says of a box
      var f = node.feature[i], words = [t("node {number}", {number: id(i)})];
      if (i > 0) words.push(t("branch {label}", {label: tree.edge(i).text}));
      words.push(f < 0 ? t("leaf, predicts {class}", {"class": data.predictions[node.prediction[i]]}) :
        t("split on {test}", {test: data.features[f] + (data.numeric[f] ? " <= " + thresholdOf(i) : "")}));
      words.push(C.plural(samples(i), "sample") + ": " + C.join(counts(i).map(function (n, k) {
        return data.classes[k] + " " + n;
      })));
      words.push(t("entropy {h}", {h: C.units(node.entropy[i])}));
      if (matches[i]) words.push(t("splits on the feature searched for"));
      return words.join("; ");
    }
  };
  var view = new window.ID3TreeView(document.getElementById("tree"), tree, {
    onSelect: function (i) { show(i); },
    hidden: function (i) { return step !== null && i > step; },
    onDraw: C.status,
    label: t("the tree: arrow keys move between nodes, Enter shows a node's numbers")
  });

  // ---- the details of a node -----------------------------------------------------------------
  function show(i) {
    selected = i;
    var d = document.getElementById("details");
    d.textContent = "";
    d.appendChild(el("h2", i === 0 ? t("Node {number} (the root)", {number: id(i)}) :
      t("Node {number}", {number: id(i)})));
    if (node.path[i].length) {
      d.appendChild(el("p", node.path[i].map(function (w) { return S[w]; }).join(" " + t("and") + " "), "muted"));
    }
    d.appendChild(el("p", t("{samples}, entropy {h}", {samples: C.plural(samples(i), "sample"),
      h: C.units(node.entropy[i])})));
    var table = el("table"); table.id = "counts";
    table.appendChild(C.tableRow([t("class"), t("count")], "th"));
    counts(i).forEach(function (n, k) { table.appendChild(C.tableRow([data.classes[k], n])); });
    d.appendChild(table);
    var decision = el("p"); decision.id = "decision";
    decision.appendChild(el("strong", t("Decision:") + " "));
    decision.appendChild(document.createTextNode(S[node.decision[i]]));
    d.appendChild(decision);
    var why = el("p"); why.id = "why";
    why.appendChild(el("strong", t("Why:") + " "));
    why.appendChild(document.createTextNode(S[node.reason[i]]));
    d.appendChild(why);
    if (scoredAt[i] >= 0) d.appendChild(candidates(i));
    else d.appendChild(el("p", t("No feature was scored at this node."), "muted"));
    view.draw(true);
    view.centreOn(i, true);
  }

  function candidates(i) {
    var box = el("div"), s = scoredAt[i], ratio = data.criterion === "gain_ratio";
    box.appendChild(el("h3", t("Candidates")));
    var table = el("table"); table.id = "candidates";
    if (ratio) table.className = "with-ratio";
    var head = [t("feature"), t("best split"), t("overall entropy"), t("gain")];
    if (ratio) head.push(t("gain ratio"));
    table.appendChild(C.tableRow(head.concat([t("note")]), "th"));
    for (var f = 0; f < F; f++) {
      var c = s * F + f, flags = cand.flags[c], valid = cand.gain[c] >= 0;
      var threshold = S[cand.threshold[c]];
      var cells = [data.features[f], !valid ? "-" : data.numeric[f] ? "<= " + threshold :
        C.plural(cand.branches[c], "branch", "branches"), C.units(cand.overall[c]), C.units(cand.gain[c])];
      if (ratio) cells.push(C.units(cand.ratio[c]));
      var row = C.tableRow(cells.concat([S[cand.note[c]]]));
      if (valid && data.numeric[f]) {
        row.children[1].appendChild(el("div", t("between {low} and {high}", {low: S[cand.low[c]],
          high: S[cand.high[c]]}), "between"));
      }
      row.dataset.feature = data.features[f];
      if (flags & 1) row.className = "chosen";
      table.appendChild(row);
      if (valid) table.appendChild(workings(i, c, f, threshold, (flags & 1) === 1, row, cells.length + 1));
    }
    box.appendChild(table);
    return box;
  }

  // a candidate's branches and its two equations, under its row (open for the chosen one)
  function workings(i, c, f, threshold, open, row, columns) {
    var tr = el("tr", null, "workings"), td = el("td");
    td.colSpan = columns;
    tr.hidden = !open;
    tr.id = "workings-" + c;
    row.classList.add("has-workings");
    row.title = t("click for the branches and the sums");
    var cell = row.children[0], button = el("button", cell.textContent, "link");
    button.type = "button";  // the keyboard's way to the branches and the sums
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.setAttribute("aria-controls", tr.id);
    cell.textContent = "";
    cell.appendChild(button);
    row.addEventListener("click", function () {
      tr.hidden = !tr.hidden;
      button.setAttribute("aria-expanded", tr.hidden ? "false" : "true");
    });
    var list = el("ul"), n = samples(i), terms = [];
    for (var b = firstBranch[c]; b < firstBranch[c + 1]; b++) {
      var bc = branch.counts.slice(b * K, b * K + K), bn = bc.reduce(function (x, y) { return x + y; }, 0);
      var label = branchLabel(f, branch.slot[b], threshold);
      list.appendChild(el("li", label + ": " + C.plural(bn, "row") + " (" +
        C.join(bc.map(function (v, k) { return data.classes[k] + " " + v; })) + "), H = " +
        C.units(branch.entropy[b])));
      terms.push(bn + "/" + n + " \u00d7 " + C.units(branch.entropy[b]));
    }
    td.appendChild(list);
    var name = data.features[f];
    td.appendChild(el("p", "H(S | " + name + ") = " + terms.join(" + ") + " " +
      (cand.approx[c] & 1 ? "\u2248" : "=") + " " + C.units(cand.overall[c]), "equation"));
    td.appendChild(el("p", t("gain") + " = H(S) \u2212 H(S | " + name + ") = " + C.units(node.entropy[i]) +
      " \u2212 " + C.units(cand.overall[c]) + " " + (cand.approx[c] & 2 ? "\u2248" : "=") + " " +
      C.units(cand.gain[c]), "equation"));
    tr.appendChild(td);
    return tr;
  }

  // ---- stepping through the growth -------------------------------------------------------------
  function go(k) {
    step = Math.max(0, Math.min(N - 1, k));
    view.reveal(step);
    label();
    show(step);
  }
  function label() {
    document.getElementById("step-label").textContent = step === null ?
      t("the whole tree, {nodes}", {nodes: C.plural(N, "node")}) :
      t("Step {k} of {last}", {k: step, last: N - 1});
  }

  // ---- finding a feature ---------------------------------------------------------------------
  function search(text) {
    query = text.trim().toLowerCase();
    matches = {};
    var out = document.getElementById("search-results");
    out.textContent = "";
    if (query) {
      var found = data.features.map(function (f, k) { return k; }).filter(function (k) {
        return data.features[k].toLowerCase().indexOf(query) >= 0;
      });
      if (!found.length) out.textContent = t("no feature matches");
      found.forEach(function (f) { out.appendChild(searchResult(f)); });
    }
    view.draw(true);
  }

  function searchResult(f) {
    var splits = [], scored = 0;
    for (var j = 0; j < N; j++) if (node.feature[j] === f) { splits.push(j); matches[j] = true; }
    data.scored.forEach(function (p, s) { if (cand.gain[s * F + f] >= 0) scored++; });
    var span = el("span", null, "result");
    span.appendChild(document.createTextNode(data.features[f] + ": " + t("splits at") + " " +
      (splits.length ? "" : t("no node"))));
    splits.slice(0, 20).forEach(function (j) {
      var b = el("button", t("node {number}", {number: id(j)}), "link");
      b.type = "button";
      b.addEventListener("click", function () { view.reveal(j); view.update(); show(j); });
      span.appendChild(b);
    });
    if (splits.length > 20) span.appendChild(document.createTextNode(" " + t("and {n} more", {n: splits.length - 20})));
    span.appendChild(document.createTextNode("; " + t("a candidate at {nodes}", {nodes: C.plural(scored, "node")})));
    return span;
  }

  // ---- wiring ----------------------------------------------------------------------------------
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go((step === null ? N : step) - 1); });
  document.getElementById("next").addEventListener("click", function () { go(step === null ? 0 : step + 1); });
  document.getElementById("all").addEventListener("click", function () {
    step = null; label(); view.draw(true);
  });
  document.getElementById("search").addEventListener("input", function (e) { search(e.target.value); });
  document.addEventListener("keydown", function (e) {
    if (C.typing(e)) return;
    if (e.key === "ArrowRight") go(step === null ? 0 : step + 1);
    if (e.key === "ArrowLeft") go((step === null ? N : step) - 1);
  });
  C.viewControls(view);
  C.legend(C.classItems(data).concat([
    {stroke: "#000000", width: 3, text: t("the node whose numbers are shown")},
    {stroke: "#000000", width: 3, dash: "7 3", text: t("the node of the step (Back and Next)")},
    {stroke: "#000000", width: 3, dash: "1 3", text: t("splits on the feature searched for")}
  ]), [C.KEYS + " " + t("The left and right arrow keys, outside the tree, step through the growth."),
    data.legend]);
  view.unfoldFirstLevels();
  view.layout();
  view.fit();
  label();
  show(0);
  window.id3page = {view: view, go: go, show: show};
})();
