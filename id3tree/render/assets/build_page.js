// The build page's screen: the drawing of the student's tree, the panel of a node (its rows and
// counts, the hint ladder, the choice; then the feedback and the numbers behind it), the score
// of the finished tree, and the controls (undo, redo, start again, export, print).
(function () {
  "use strict";
  var C = window.ID3Page, B = window.ID3Build, el = C.el, t = C.t, data = B.data;
  var P = data.params, number = B.shown, MISSING = t("missing");  // numbers as the page shows them
  var HINT_WORDS = {formula: t("the formulas"), counts: t("each feature's class counts"),
    gains: t("each feature's sums and gain"), choice: t("ID3's choice")};
  var HINT_NAMES = {formula: t("formula"), counts: t("counts"), gains: t("gains"), choice: t("choice")};
  var MAX_ROWS = 200;   // the rows a node's table lists at most
  var selected = 0, finished = false, agreement = null;
  var approx = false;  // a ≈ was shown: the legend says what it means from then on

  function nodes() { return B.nodes(); }
  function classOrder() { return data.classes.join(" / "); }
  function reveal(step) {  // may the student see this now (the tree finished shows everything)?
    return finished || B.allows(step);
  }

  // ---- the drawing ---------------------------------------------------------------------------------
  function title(i) {
    var node = nodes()[i], c = node.choice;
    if (!c) return t("? to decide");
    if (c.leaf) return t("predict {class}", {"class": data.predictions[B.majority(node.counts)]});
    return data.numeric[c.f] ? data.features[c.f] + " \u2264 " + number(c.threshold) : data.features[c.f];
  }
  function mark(i) { return agreement ? (agreement[i] ? "\u2713 " : "\u2717 ") : ""; }

  var tree = {
    get count() { return nodes().length; },
    parent: function (i) { return nodes()[i].parent; },
    children: function (i) { return nodes()[i].children; },
    box: function (i) {
      var node = nodes()[i], h = node.analysis.entropy;
      var lines = [[mark(i) + "#" + i + " " + title(i), true], [t("samples = {n}", {n: node.rows.length}), false]];
      C.countLines(data.classes, node.counts).forEach(function (t) { lines.push([t, false]); });
      lines.push([t("entropy = {h}", {h: C.shown(h)}), false]);
      var box = {lines: lines, fill: C.fill(data.palette, B.majority(node.counts), h)};
      if (!node.choice) box.dashed = "5 3";
      if (agreement && !agreement[i]) { box.dashed = "2 3"; box.stroke = "#000000"; box.strokeWidth = 2.5; }
      if (agreement && agreement[i]) { box.stroke = "#000000"; box.strokeWidth = 2.5; }
      return box;
    },
    edge: function (i) {
      var label = B.branchLabel(i);
      return {text: label.replace(/^<= /, "\u2264 ").replace(/\n/g, " "), italic: label === MISSING};
    },
    classes: function (i) {
      var out = [];
      if (i === selected) out.push("selected");
      if (!nodes()[i].choice) out.push("open");
      if (agreement) out.push(agreement[i] ? "agree" : "differ");
      return out.join(" ");
    },
    selected: function (i) { return i === selected; },
    label: function (i) {  // what a screen reader says of a box
      var node = nodes()[i], c = node.choice, words = [t("node {number}", {number: i})];
      if (i > 0) words.push(t("branch {label}", {label: B.branchLabel(i)}));
      words.push(!c ? t("still to decide") : c.leaf ? t("leaf, predicts {class}", {"class": data.predictions[B.majority(node.counts)]}) :
        t("split on {test}", {test: B.testWords(c.f, c.threshold)}));
      words.push(C.plural(node.rows.length, "row") + ": " + C.join(data.classes.map(function (name, k) {
        return name + " " + node.counts[k];
      })));
      words.push(t("entropy {h}", {h: C.shown(node.analysis.entropy)}));
      if (agreement) words.push(agreement[i] ? t("ID3 decides the same here") : t("ID3 decides otherwise here"));
      return words.join("; ");
    }
  };
  var view = new window.ID3TreeView(document.getElementById("tree"), tree, {
    onSelect: function (i) { select(i, true); },
    onDraw: C.status,
    label: t("your tree: arrow keys move between nodes, Enter opens a node")
  });

  function select(i, focusPanel) {
    selected = i;
    B.selectedPath = nodes()[i].path;
    B.save();
    view.focus = i;
    panel();
    view.draw(true);
    view.centreOn(i, true);
    if (focusPanel) {
      var first = document.getElementById("node-title");
      if (first) first.focus();
    }
  }

  function refresh() {  // after every change of the tree
    var all = nodes();
    var at = B.byPath(B.selectedPath);
    selected = at >= 0 ? at : Math.min(selected, all.length - 1);
    view.resized();
    for (var i = 0; i < all.length; i++) if (all[i].children.length) view.open[i] = 1;
    var open = B.openNodes();
    finished = open.length === 0;
    agreement = finished ? B.agreeing() : null;
    document.getElementById("progress").textContent = finished ? t("Your tree is finished.") :
      t("{nodes} to decide", {nodes: C.plural(open.length, "node")});
    document.getElementById("undo").disabled = !B.canUndo();
    document.getElementById("redo").disabled = !B.canRedo();
    savedNote();
    view.focus = selected;
    view.layout();
    view.fit();
    panel();
    legend();
  }
  B.onChange(refresh);

  function savedNote() {
    var out = document.getElementById("saved");
    if (!B.storage()) {
      out.textContent = t("Not saved: this browser keeps nothing for this file; export your tree before you close it.");
    } else if (B.savedAt()) {
      out.textContent = t("Saved in this browser at {time}.", {time: C.time(new Date(B.savedAt()))});
    }
  }

  // ---- the panel --------------------------------------------------------------------------------------
  function heading(text) {
    var h = el("h2", text);
    h.tabIndex = -1;
    return h;
  }

  function panel() {
    var d = document.getElementById("details"), node = nodes()[selected];
    d.textContent = "";
    if (finished) d.appendChild(scoreBox());
    var h = heading(selected === 0 ? t("Node {number} (the root)", {number: selected}) :
      t("Node {number}", {number: selected}));
    h.id = "node-title";
    d.appendChild(h);
    var path = B.path(selected);
    if (path.length) d.appendChild(el("p", path.join(" " + t("and") + " "), "muted path"));
    d.appendChild(el("p", t("{rows}, entropy {h}", {rows: C.plural(node.rows.length, "row"),
      h: C.shown(node.analysis.entropy)})));
    d.appendChild(countsTable(node));
    d.appendChild(rowsTable(node));
    if (node.auto) {
      var p = el("p"); p.id = "decision";
      p.textContent = t("A leaf: {reason}; it predicts {class}.", {reason: node.auto,
        "class": data.predictions[B.majority(node.counts)]});
      d.appendChild(p);
    } else if (!node.choice) {
      d.appendChild(hintBox(node));
      d.appendChild(chooser(node));
    } else {
      d.appendChild(decided(node));
    }
    d.appendChild(nextButton());
    legend();
  }

  function countsTable(node) {  // the node's class counts, a class a row
    var table = el("table"); table.id = "counts";
    table.appendChild(el("caption", t("The rows here by class")));
    table.appendChild(C.tableRow([t("class"), t("rows")], "th"));
    data.classes.forEach(function (c, k) { table.appendChild(C.tableRow([c, node.counts[k]])); });
    return table;
  }

  function rowsTable(node) {  // the node's rows themselves, to count by hand
    var box = el("details"); box.id = "rows";
    box.appendChild(el("summary", t("Look at the {rows} here", {rows: C.plural(node.rows.length, "row")})));
    var table = el("table", null, "rows");
    table.appendChild(C.tableRow([t("row")].concat(data.features, [t("class")]), "th"));
    node.rows.slice(0, MAX_ROWS).forEach(function (r) {
      table.appendChild(C.tableRow([data.train.row[r]].concat(data.features.map(function (name, f) {
        var v = data.train.columns[f][r];
        if (data.numeric[f]) return v === null ? MISSING : number(v);
        return v === data.categories[f].length ? MISSING : data.categories[f][v];
      }), [data.classes[data.train.y[r]]])));
    });
    box.appendChild(table);
    if (node.rows.length > MAX_ROWS) {
      box.appendChild(el("p", t("The first {n} of them (row numbers are the rows of the data, from 1).", {n: MAX_ROWS}), "muted"));
    }
    return box;
  }

  // ---- the hint ladder ------------------------------------------------------------------------------
  function level(node, step) {  // is this step of the ladder shown at this node?
    var at = data.hints.indexOf(step);
    return at >= 0 && at < B.hintsAt(node.path);
  }

  function hintBox(node) {
    var box = el("section"); box.id = "hints";
    box.setAttribute("aria-labelledby", "hints-title");
    var h = el("h3", t("Work it out")); h.id = "hints-title";
    box.appendChild(h);
    if (!data.hints.length) {
      box.appendChild(el("p", t("This page gives no hints: work out every number by hand from the rows."), "muted"));
      return box;
    }
    if (level(node, "formula")) box.appendChild(formulaHint(node));
    if (level(node, "counts") || level(node, "gains")) {
      box.appendChild(featureHints(node, level(node, "counts"), level(node, "gains")));
    }
    if (level(node, "choice")) box.appendChild(choiceHint(node));
    var taken = B.hintsAt(node.path);
    if (taken < data.hints.length) {
      var next = data.hints[taken];
      var b = el("button", t("Show a hint: {hint} ({k} of {n})", {hint: HINT_WORDS[next], k: taken + 1, n: data.hints.length}));
      b.id = "hint"; b.type = "button";
      b.addEventListener("click", function () {
        B.moreHint(node.path);
        panel();
        var shown = document.getElementById("hint-" + next) || document.getElementById("hint");
        if (shown) shown.focus();
        C.announce(t("Hint {k}: {hint}.", {k: taken + 1, hint: HINT_WORDS[next]}));
      });
      box.appendChild(b);
    } else {
      box.appendChild(el("p", t("Every hint this page gives is shown."), "muted"));
    }
    return box;
  }

  function entropyTerms(counts) {  // −(9/14) log2(9/14) − (5/14) log2(5/14)
    var n = B.sum(counts), terms = [];
    counts.forEach(function (c) { if (c > 0) terms.push("(" + c + "/" + n + ") log2(" + c + "/" + n + ")"); });
    return "\u2212" + terms.join(" \u2212 ");
  }

  function formulaHint(node) {
    var box = el("div", null, "hint"); box.id = "hint-formula"; box.tabIndex = -1;
    box.appendChild(el("h4", t("The formulas")));
    box.appendChild(el("p", t("H(S) = \u2212\u03a3 p(c) log2 p(c), over the classes c ({classes}), p(c) being the share of the rows of class c.",
      {classes: data.classes.join(", ")})));
    box.appendChild(el("p", t("H(S | A) = \u03a3 |S\u1d65| / |S| \u00d7 H(S\u1d65), over the branches v of a feature A: the overall entropy after the split. A number is cut in two at a midpoint between two neighbouring values (each midpoint is a candidate), and its missing values make a third branch.")));
    box.appendChild(el("p", P.criterion === "gain_ratio" ?
      t("Gain(S, A) = H(S) \u2212 H(S | A). ID3 splits on the feature of highest gain ratio (the gain over the split information, among the features of at least average gain), a tie going to the first in column order.") :
      t("Gain(S, A) = H(S) \u2212 H(S | A). ID3 splits on the feature of highest gain, a tie going to the first in column order.")));
    var h = node.analysis.entropy;
    var here = node.counts.filter(function (c) { return c > 0; }).length < 2 ? "H(S) = " + C.shown(h) :
      "H(S) = " + entropyTerms(node.counts) + " = " + C.shown(h);
    box.appendChild(el("p", t("Here:") + " " + here, "equation"));
    return box;
  }

  function featureHints(node, counts, gains) {
    var box = el("div", null, "hint"); box.id = gains ? "hint-gains" : "hint-counts";
    box.tabIndex = -1;
    var what = counts && gains ? t("its counts, its sums and its gain") : gains ? t("its sums and its gain") :
      t("its class counts per branch");
    box.appendChild(el("h4", t("Each feature: {what}", {what: what})));
    box.appendChild(el("p", t("Counts are written in the order of the classes: {classes}.", {classes: classOrder()}), "muted"));
    node.analysis.feats.forEach(function (a, f) {
      var item = el("details", null, "feature-hint");
      item.dataset.feature = data.features[f];
      var summary = data.features[f] + ": " + (!a.valid ? t("cannot split here ({why})", {why: a.why}) :
        gains ? t("gain {gain}", {gain: C.shown(a.gain)}) + (P.criterion === "gain_ratio" ? ", " + t("gain ratio {ratio}", {ratio: C.shown(a.ratio)}) : "") :
        data.numeric[f] ? (a.cuts.length === 1 ? t("1 threshold") : t("{n} thresholds", {n: a.cuts.length})) : C.plural(a.branches.length, "branch", "branches"));
      item.appendChild(el("summary", summary));
      if (data.numeric[f] && a.cuts && a.cuts.length) {
        if (counts) item.appendChild(thresholdTable(node, a, f, null, gains));
        else if (gains && a.valid) item.appendChild(thresholdTable(node, a, f, null, true, true));
      } else if (counts && a.branches && a.branches.length) {
        item.appendChild(branchTable(a.branches));
      }
      if (gains && a.valid) sums(node, a, f).forEach(function (e) { item.appendChild(e); });
      box.appendChild(item);
    });
    return box;
  }

  function branchTable(branches) {
    var table = el("table", null, "branches");
    table.appendChild(C.tableRow([t("branch"), t("rows")].concat(data.classes), "th"));
    branches.forEach(function (b) { table.appendChild(C.tableRow([b.label, b.n].concat(b.counts))); });
    return table;
  }

  // H(S | A) as the weighted sum of its branches, and the gain as a difference, by pencil
  function sums(node, a, f) {
    var n = node.rows.length, name = data.features[f];
    var branches = data.numeric[f] ? B.cutBranches(a.cuts[a.cut], a.missing) : a.branches;
    var sizes = [], values = [], terms = [];
    branches.forEach(function (b) {
      var h = B.entropy(b.counts);
      sizes.push(b.n); values.push(C.printedUnits(h));
      terms.push(b.n + "/" + n + " \u00d7 " + C.shown(h));
    });
    var overall = C.printedUnits(a.overall), gain = C.printedUnits(a.gain);
    var h = C.printedUnits(node.analysis.entropy);
    var sumSign = C.weightedSumSign(sizes, values, overall);
    var differenceSign = C.differenceSign(h, overall, gain);
    if (sumSign !== "=" || differenceSign !== "=") approx = true;
    var where = data.numeric[f] ? " " + t("(cut at its best threshold, {threshold})", {threshold: number(a.threshold)}) : "";
    var out = [el("p", "H(S | " + name + ") = " + terms.join(" + ") + " " + sumSign + " " +
      C.shown(a.overall), "equation"),
      el("p", t("gain") + " = H(S) \u2212 H(S | " + name + ") = " + C.shown(node.analysis.entropy) + " \u2212 " +
        C.shown(a.overall) + " " + differenceSign + " " + C.shown(a.gain), "equation")];
    if (where) out.unshift(el("p", name + where + ":", "muted"));
    return out;
  }

  // every threshold of a numeric feature: the class counts either side (and of the missing
  // rows, which every cut's overall entropy counts), with the scores once they may be shown
  function thresholdTable(node, a, f, choice, withScores, scoresOnly) {
    var table = el("table", null, "thresholds"), order = " (" + classOrder() + ")";
    var missing = a.missing && B.sum(a.missing) > 0;
    var head = [t("threshold"), t("between")];
    if (!scoresOnly) head.push(t("\u2264 side") + order, t("> side") + order);
    if (missing && !scoresOnly) head.push(MISSING + order);
    if (withScores) head.push(t("overall entropy"), t("gain"));
    table.appendChild(C.tableRow(head, "th"));
    a.cuts.forEach(function (cut, k) {
      var cells = ["\u2264 " + number(cut.threshold), t("{low} and {high}", {low: number(cut.low), high: number(cut.high)})];
      if (!scoresOnly) cells.push(cut.left.join(" / "), cut.right.join(" / "));
      if (missing && !scoresOnly) cells.push(a.missing.join(" / "));
      if (withScores) cells.push(C.shown(cut.overall), C.shown(cut.gain));
      var tr = C.tableRow(cells);
      if (withScores && k === a.cut) tr.classList.add("best");
      if (choice && cut.threshold === choice.threshold) tr.classList.add("yours");
      if (!cut.allowed) {
        tr.classList.add("muted");
        tr.title = t("a side would have fewer than min_samples_leaf = {leaf} rows", {leaf: P.min_samples_leaf});
      }
      table.appendChild(tr);
    });
    var notes = [];
    if (missing) notes.push(t("The {rows} with no value of {feature} make a branch of their own under every threshold, and count in its overall entropy.",
      {rows: C.plural(B.sum(a.missing), "row"), feature: data.features[f]}));
    if (a.cuts.some(function (c) { return !c.allowed; })) notes.push(t("Greyed: a side would have fewer than min_samples_leaf = {leaf} rows.", {leaf: P.min_samples_leaf}));
    var box = el("div"), scroll = el("div", null, "scroll");
    scroll.appendChild(table);
    box.appendChild(scroll);
    notes.forEach(function (t) { box.appendChild(el("p", t, "muted")); });
    return box;
  }

  function choiceHint(node) {
    var box = el("div", null, "hint"); box.id = "hint-choice"; box.tabIndex = -1;
    box.appendChild(el("h4", t("ID3's choice")));
    var a = node.analysis, stops = B.stopsAfter(node), text;
    if (stops) text = t("ID3 makes a leaf here: {reason}.", {reason: stops});
    else {
      var b = a.feats[a.best.f];
      text = t("ID3 splits here on {test}: {score} {value}, the highest of the {features} that can split here.",
        {test: B.testWords(a.best.f, b.threshold), score: a.best.score, value: C.shown(B.scoreOf(b)),
          features: C.plural(a.best.n, "feature")});
    }
    box.appendChild(el("p", text));
    return box;
  }

  // ---- the choice --------------------------------------------------------------------------------------
  function chooser(node) {
    var box = el("section"), a = node.analysis, p = node.path;
    box.setAttribute("aria-labelledby", "choose-title");
    var h = el("h3", t("Your choice")); h.id = "choose-title";
    box.appendChild(h);
    box.appendChild(el("p", t("Choose the split ID3 makes here, or make the node a leaf.")));
    var row = el("div", null, "choice");
    var fl = el("label", t("Feature") + " "); fl.htmlFor = "choose-feature";
    var feature = el("select"); feature.id = "choose-feature";
    var none = el("option", t("a feature\u2026")); none.value = ""; feature.appendChild(none);
    a.feats.forEach(function (x, f) {
      var o = el("option", data.features[f] + (x.valid ? "" : " " + t("(cannot split here: {why})", {why: x.why})));
      o.value = String(f); o.disabled = !x.valid;
      feature.appendChild(o);
    });
    var tl = el("label", t("Threshold") + " "); tl.htmlFor = "choose-threshold"; tl.hidden = true;
    var threshold = el("select"); threshold.id = "choose-threshold"; threshold.hidden = true;
    feature.addEventListener("change", function () {
      threshold.textContent = "";
      var f = Number(feature.value), x = a.feats[f];
      threshold.hidden = tl.hidden = feature.value === "" || !data.numeric[f];
      if (threshold.hidden) return;
      var first = el("option", t("a threshold\u2026")); first.value = ""; threshold.appendChild(first);
      x.cuts.forEach(function (c, k) {
        var o = el("option", "<= " + number(c.threshold) + " (" + t("between {low} and {high}", {low: number(c.low),
          high: number(c.high)}) + ")" + (c.allowed ? "" : ": " + t("a side would have fewer than min_samples_leaf rows")));
        o.value = String(k); o.disabled = !c.allowed;
        threshold.appendChild(o);
      });
    });
    var go = el("button", t("Split")); go.id = "split"; go.type = "button";
    var message = el("p", "", "muted"); message.id = "choice-message";
    message.setAttribute("role", "status");
    go.addEventListener("click", function () {
      if (feature.value === "") { message.textContent = t("Choose a feature first."); feature.focus(); return; }
      var f = Number(feature.value);
      if (data.numeric[f] && threshold.value === "") { message.textContent = t("Choose a threshold."); threshold.focus(); return; }
      var cut = data.numeric[f] ? a.feats[f].cuts[Number(threshold.value)].threshold : null;
      B.split(p, f, cut);
      afterChoice(t("Node {number}: split on {test}.", {number: B.byPath(p), test: B.testWords(f, cut)}));
    });
    var stop = el("button", t("Make it a leaf")); stop.id = "leaf"; stop.type = "button";
    stop.addEventListener("click", function () {
      B.leaf(p);
      afterChoice(t("Node {number} is a leaf.", {number: B.byPath(p)}));
    });
    [fl, feature, tl, threshold, go, stop].forEach(function (e) { row.appendChild(e); });
    box.appendChild(row);
    box.appendChild(message);
    return box;
  }

  function afterChoice(said) {  // the panel shows the choice just made; the keys go on from it
    var open = B.openNodes().length;
    C.announce(said + " " + (open ? t("{nodes} to decide.", {nodes: C.plural(open, "node")}) : t("Your tree is finished.")));
    var target = document.getElementById(open ? "next-open" : "score") || document.getElementById("decision");
    if (!target) return;
    if (target.tagName !== "BUTTON") target.tabIndex = -1;  // focusable by script only
    target.focus();
  }

  function decided(node) {
    var box = el("div"), c = node.choice, i = B.byPath(node.path);
    var p = el("p"); p.id = "decision";
    p.appendChild(el("strong", t("Your choice:") + " "));
    p.appendChild(document.createTextNode(c.leaf ? t("a leaf, predicting {class}", {"class": data.predictions[B.majority(node.counts)]}) :
      t("split on {test} into {branches}", {test: B.testWords(c.f, c.threshold), branches:
        C.join(node.children.map(function (k) { return B.branchLabel(k) + " (" + nodes()[k].rows.length + ")"; }))})));
    box.appendChild(p);
    var fb = B.feedback(node);
    if (reveal("choice")) {
      var out = el("div", null, "feedback " + fb.verdict); out.id = "feedback";
      fb.lines.forEach(function (line, k) {
        var p = el("p", line);
        if (!k) p.insertBefore(el("strong", fb.verdict === "good" ? "\u2713 " : "\u2717 "), p.firstChild);
        out.appendChild(p);
      });
      box.appendChild(out);
    } else {
      var later = el("p", t("How your choice compares with ID3's is shown when your tree is finished."), "muted");
      later.id = "feedback";
      box.appendChild(later);
    }
    if (reveal("gains")) box.appendChild(whyTable(node));
    if (reveal("counts") || reveal("gains")) {
      var workings = featureHints(node, reveal("counts"), reveal("gains"));
      workings.id = "workings";
      box.appendChild(workings);
    }
    if (!c.leaf && data.numeric[c.f] && (reveal("counts") || reveal("gains"))) {
      var x = node.analysis.feats[c.f];
      box.appendChild(el("h3", t("Every threshold of {feature}", {feature: data.features[c.f]})));
      box.appendChild(thresholdTable(node, x, c.f, c, reveal("gains"), !reveal("counts")));
    }
    var row = el("div", null, "choice");
    var again = el("button", t("Change this choice")); again.id = "change"; again.type = "button";
    again.addEventListener("click", function () { change(node.path, i); });
    row.appendChild(again);
    box.appendChild(row);
    return box;
  }

  function change(path, i) {  // take a choice back, asking first if it throws work away
    var lost = B.below(path).length - 1;
    function go() {
      B.clear(path);
      C.announce(t("Node {number} is open again. Undo (Ctrl+Z) brings your choice back.", {number: i}));
      var first = document.getElementById("choose-feature");
      if (first) first.focus();
    }
    if (lost <= 0) { go(); return; }  // nothing but the choice itself: undo brings it back
    var gone = subtreeSize(i) - 1;
    C.confirm({title: t("Change the choice at node {number}?", {number: i}),
      text: t("This throws away the {nodes} under it, with {choices} you made there. Undo brings them back.",
        {nodes: C.plural(gone, "node"), choices: C.plural(lost, "choice")}),
      yes: t("Throw them away"), no: t("Keep them")}, go);
  }
  function subtreeSize(i) {
    var n = 1;
    nodes()[i].children.forEach(function (k) { n += subtreeSize(k); });
    return n;
  }

  function whyTable(node) {  // every feature's best split here: the numbers behind the advice
    var a = node.analysis, c = node.choice, ratio = P.criterion === "gain_ratio", box = el("div");
    box.appendChild(el("h3", t("Every feature here")));
    var table = el("table"); table.id = "build-candidates";
    var head = [t("feature"), t("best split"), t("overall entropy"), t("gain")];
    if (ratio) head.push(t("gain ratio"));
    table.appendChild(C.tableRow(head, "th"));
    a.feats.forEach(function (x, f) {
      var cells = [data.features[f], x.valid ? (data.numeric[f] ? "<= " + number(x.threshold) :
        C.plural(x.branches.length, "branch", "branches")) : x.why,
        x.valid ? C.shown(x.overall) : "", x.valid ? C.shown(x.gain) : ""];
      if (ratio) cells.push(x.valid ? C.shown(x.ratio) : "");
      var tr = C.tableRow(cells);
      tr.dataset.feature = data.features[f];
      var open = el("button", data.features[f], "link"); open.type = "button";
      open.title = t("its branches and sums, below");
      open.addEventListener("click", function () {  // the feature's workings, under the table
        var item = document.querySelector('#workings details[data-feature="' + CSS.escape(data.features[f]) + '"]');
        if (!item) return;
        item.open = true;
        item.querySelector("summary").focus();
        item.scrollIntoView({block: "nearest"});
      });
      tr.children[0].textContent = "";
      tr.children[0].appendChild(open);
      if (reveal("choice") && a.best && f === a.best.f) tr.classList.add("best");
      if (!c.leaf && f === c.f) tr.classList.add("yours");
      table.appendChild(tr);
    });
    box.appendChild(table);
    var notes = [];
    if (!c.leaf) notes.push(t("Your feature's row is outlined."));
    if (reveal("choice") && a.best) notes.push(t("ID3's is shaded."));
    if (notes.length) box.appendChild(el("p", notes.join(" "), "muted"));
    return box;
  }

  function nextButton() {
    var open = B.openNodes(), box = el("div", null, "choice");
    if (!open.length) return box;
    var next = el("button", t("Next node to decide") + " \u25B6"); next.id = "next-open"; next.type = "button";
    next.addEventListener("click", function () {
      var after = open.filter(function (k) { return k > selected; });
      var i = (after.length ? after : open)[0];
      view.reveal(i); view.update();
      select(i, false);
      var first = document.getElementById("choose-feature");
      C.announce(t("Node {number}: {rows}, entropy {h}. Your choice.", {number: i,
        rows: C.plural(nodes()[i].rows.length, "row"), h: C.shown(nodes()[i].analysis.entropy)}));
      if (first) first.focus();
    });
    box.appendChild(next);
    return box;
  }

  // ---- the score ------------------------------------------------------------------------------------
  function scoreBox() {
    var box = el("section"); box.id = "score"; box.tabIndex = -1;
    box.appendChild(el("h2", t("Your tree against ID3's")));
    var s = B.score(), all = nodes();
    var leaves = all.filter(function (x) { return x.choice.leaf; }).length;
    function share(k) { return s.n ? C.shown(100 * k / s.n, 1) + "%" : "-"; }
    box.appendChild(el("p", data.test.about));
    var table = el("table"); table.id = "score-table";
    table.appendChild(C.tableRow(["", t("right"), t("of"), t("accuracy")], "th"));
    table.appendChild(C.tableRow([t("your tree"), s.mine, s.n, share(s.mine)]));
    table.appendChild(C.tableRow([t("ID3's tree"), s.theirs, s.n, share(s.theirs)]));
    box.appendChild(table);
    var agree = agreement.filter(Boolean).length;
    var p = el("p", t("Your tree has {nodes} ({leaves}); ID3's has {id3_nodes}.", {nodes: C.plural(all.length, "node"),
      leaves: C.plural(leaves, "leaf", "leaves"), id3_nodes: C.plural(data.id3.parent.length, "node")}) + " " +
      (agree === 1 ? t("{k} of your {nodes} makes ID3's decision at the same place (marked \u2713; the others \u2717).",
        {k: agree, nodes: C.plural(all.length, "node")}) :
        t("{k} of your {nodes} make ID3's decision at the same place (marked \u2713; the others \u2717).",
          {k: agree, nodes: C.plural(all.length, "node")}))); p.id = "agreement";
    box.appendChild(p);
    return box;
  }

  // ---- the legend ------------------------------------------------------------------------------------
  function legend() {
    var items = C.classItems(data).concat([
      {stroke: "#000000", width: 3, text: t("the node you are looking at")},
      {dash: "5 3", text: t("still to decide")}]);
    if (agreement) {
      items.push({stroke: "#000000", width: 2.5, text: "\u2713 " + t("ID3 makes the same decision here")});
      items.push({stroke: "#000000", width: 2.5, dash: "2 3", text: "\u2717 " + t("ID3 decides otherwise here (or has no such node)")});
    }
    var notes = [t("Nodes are numbered in reading order (depth first), as the trace numbers them: a split renumbers the nodes after it."),
      C.KEYS + " " + t("Ctrl+Z undoes a choice, Ctrl+Shift+Z redoes it.")];
    if (approx) notes.push(data.approx_legend);
    C.legend(items, notes);
  }

  // ---- exporting: the answers, a picture, a printed page ------------------------------------------
  function exportJSON() {
    var text = JSON.stringify(B.answers(), null, 2);
    C.download("id3tree-answers.json", new Blob([text + "\n"], {type: "application/json"}));
    var open = B.openNodes().length;
    C.announce(open ? t("Your answers were saved as {file}; {nodes} are still to decide.",
      {file: "id3tree-answers.json", nodes: C.plural(open, "node")}) :
      t("Your answers were saved as {file}.", {file: "id3tree-answers.json"}));
  }

  function exportPNG() {
    var out = view.standalone(), text = new XMLSerializer().serializeToString(out.svg);
    var image = new Image(), scale = 2;
    image.onload = function () {
      var canvas = document.createElement("canvas");
      canvas.width = out.width * scale; canvas.height = out.height * scale;
      var g = canvas.getContext("2d");
      g.scale(scale, scale);
      g.drawImage(image, 0, 0);
      canvas.toBlob(function (blob) {
        C.download("id3tree-tree.png", blob);
        C.announce(t("The picture of your tree was saved as {file}.", {file: "id3tree-tree.png"}));
      }, "image/png");
    };
    image.setAttribute("src", "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text));
  }

  function printView() {  // the page as it prints: the tree whole, then every decision
    var box = document.getElementById("print-view");
    box.textContent = "";
    box.appendChild(el("h1", document.title));
    var open = B.openNodes().length;
    box.appendChild(el("p", open ? t("Not finished: {nodes} still to decide.", {nodes: C.plural(open, "node")}) :
      t("Finished:") + " " + data.test.about));
    var svg = view.standalone().svg;
    svg.setAttribute("class", "print-tree");
    box.appendChild(svg);
    var table = el("table"); table.id = "print-decisions";
    table.appendChild(C.tableRow([t("node"), t("path"), t("rows") + " (" + classOrder() + ")", t("entropy"), t("decision"),
      t("hints taken")].concat(finished ? [t("as ID3?")] : []), "th"));
    var taken = B.hintsTaken();
    nodes().forEach(function (node, i) {
      var c = node.choice;
      var decision = !c ? t("to decide") : c.auto ? t("leaf ({reason})", {reason: node.auto}) : c.leaf ? t("leaf") :
        t("split on {test}", {test: B.testWords(c.f, c.threshold)});
      var hints = data.hints.slice(0, taken[node.path] || 0).map(function (h) { return HINT_NAMES[h]; })
        .join(", ") || t("none");  // the steps' names, as hints=[...] names them
      var cells = [i, B.path(i).join(" " + t("and") + " ") || t("(the root)"), node.counts.join(" / "),
        C.shown(node.analysis.entropy), decision, hints];
      if (finished) cells.push(agreement[i] ? "\u2713 " + t("yes") : "\u2717 " + t("no"));
      table.appendChild(C.tableRow(cells));
    });
    box.appendChild(table);
    if (finished) {
      var s = B.score();
      box.appendChild(el("p", t("Accuracy: your tree {mine} of {n}, ID3's {theirs} of {n}.", {mine: s.mine, theirs: s.theirs, n: s.n})));
    }
  }
  window.addEventListener("beforeprint", printView);

  // ---- the controls ------------------------------------------------------------------------------------
  function wire(id, f) { document.getElementById(id).addEventListener("click", f); }
  wire("restart", function () {
    if (!B.choices()) return;
    C.confirm({title: t("Start again from the root?"), text: t("This throws away your {choices}. Undo brings them back.",
      {choices: C.plural(B.choices(), "choice")}), yes: t("Start again"), no: t("Keep my tree")},
    function () { B.restart(); C.announce(t("Your tree is back to its root. Undo brings it back.")); });
  });
  wire("undo", function () { B.undo(); C.announce(t("Undone.")); });
  wire("redo", function () { B.redo(); C.announce(t("Redone.")); });
  wire("export-json", exportJSON);
  wire("export-png", exportPNG);
  wire("print", function () { printView(); window.print(); });
  document.addEventListener("keydown", function (e) {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    var tag = e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var key = e.key.toLowerCase();
    if (key === "z" && !e.shiftKey) { e.preventDefault(); B.undo(); C.announce(t("Undone.")); }
    if ((key === "z" && e.shiftKey) || key === "y") { e.preventDefault(); B.redo(); C.announce(t("Redone.")); }
  });
  C.viewControls(view);

  var restored = B.restore();
  refresh();
  if (restored) {
    var note = document.getElementById("saved");
    note.textContent = t("Your work on this page was restored (saved at {time}). Start again to clear it.",
      {time: C.time(new Date(restored))});
  }
  window.id3page = {view: view, nodes: nodes, answers: B.answers, build: B,
    select: function (i) { select(i, false); }};
})();
