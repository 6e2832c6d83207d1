// The build page: the student grows a tree of their own, one split at a time.
//
// The page holds the training rows (id3tree.teaching.build): every node the student makes gets
// its rows from the student's own choices, and this script scores every feature there as ID3
// does (the page's twin of id3tree's arithmetic, in JavaScript doubles: entropies summed class
// by class, midpoint thresholds, ties within 1e-10 going to the first feature and the smallest
// threshold). A test grows ID3's own tree on the page and checks that every choice is called
// ID3's, with the gains of the learner's trace.
(function () {
  "use strict";
  var C = window.ID3Page, el = C.el;
  var data = C.data();
  var F = data.features.length, K = data.classes.length, P = data.params, W = data.words;
  var X = data.train.columns, Y = data.train.y, TIE = 1e-10;

  // ---- the arithmetic -------------------------------------------------------------------------
  function entropy(counts) {
    var n = 0, h = 0, k;
    for (k = 0; k < counts.length; k++) n += counts[k];
    if (n <= 0) return 0;
    for (k = 0; k < counts.length; k++) {
      if (counts[k] > 0) { var p = counts[k] / n; h -= p * Math.log(p); }
    }
    return h / Math.LN2 + 0;
  }
  function classCounts(rows) {
    var counts = new Array(K).fill(0);
    for (var j = 0; j < rows.length; j++) counts[Y[rows[j]]]++;
    return counts;
  }
  function majority(counts) {
    var best = 0;
    for (var k = 1; k < K; k++) if (counts[k] > counts[best]) best = k;
    return best;
  }
  function midpoint(low, high) {  // id3tree.splits.midpoint: never equal to the higher value
    var mid = low / 2 + high / 2;
    return mid >= high ? low : mid;
  }
  // a threshold as format_number writes it ("{:.10g}")
  function number(x) {
    if (x === 0) return "0";
    var e = x.toExponential(9), exp = Number(e.slice(e.indexOf("e") + 1));
    if (exp < -4 || exp >= 10) {
      var mantissa = e.slice(0, e.indexOf("e")).replace(/\.?0+$/, "");
      return mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }
    return x.toFixed(Math.max(0, 9 - exp)).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
  }

  // every feature's best split at a node, as ID3 scores them
  function analyse(node) {
    var h = entropy(node.counts), n = node.rows.length, feats = [];
    for (var f = 0; f < F; f++) {
      var a = data.numeric[f] ? numeric(node, f, h, n) : categorical(node, f, h, n);
      a.f = f;
      feats.push(a);
    }
    return {entropy: h, n: n, feats: feats, best: chooseBest(feats)};
  }

  function scored(a, h, n) {  // overall entropy, gain, split information, gain ratio
    var overall = 0, sizes = [];
    a.branches.forEach(function (b) { overall += b.n * entropy(b.counts); sizes.push(b.n); });
    a.overall = a.overall === undefined ? overall / n : a.overall;
    a.gain = Math.max(h - a.overall, 0);
    var info = entropy(sizes);
    a.ratio = info > 0 ? a.gain / info : 0;
    a.valid = true;
    return a;
  }

  function categorical(node, f, h, n) {
    if (node.used[f]) return {valid: false, why: "used on the path (a categorical feature splits once)"};
    var L = data.categories[f].length, table = {}, codes = X[f];
    node.rows.forEach(function (r) {
      var c = codes[r];
      if (!table[c]) table[c] = new Array(K).fill(0);
      table[c][Y[r]]++;
    });
    var branches = Object.keys(table).map(Number).sort(function (a, b) { return a - b; })
      .map(function (c) {
        var counts = table[c];
        return {slot: c, counts: counts, n: counts.reduce(function (x, y) { return x + y; }, 0),
          label: c === L ? "missing" : data.categories[f][c]};
      });
    if (branches.length < 2) return {valid: false, why: "every row here has the same value (" +
      (branches.length ? branches[0].label : "no value") + ")"};
    var small = branches.filter(function (b) { return b.n < P.min_samples_leaf; });
    if (small.length) return {valid: false, why: "the branch " + small[0].label + " would get " +
      C.plural(small[0].n, "row") + ", fewer than min_samples_leaf = " + P.min_samples_leaf};
    return scored({branches: branches}, h, n);
  }

  function numeric(node, f, h, n) {
    var values = X[f], present = [], missing = new Array(K).fill(0), m = P.min_samples_leaf;
    node.rows.forEach(function (r) {
      if (values[r] === null) missing[Y[r]]++; else present.push(r);
    });
    var nMissing = n - present.length;
    if (!present.length) return {valid: false, why: "every value is missing here"};
    if (nMissing > 0 && nMissing < m) return {valid: false, why: "the branch of missing values " +
      "would get " + C.plural(nMissing, "row") + ", fewer than min_samples_leaf = " + m};
    present.sort(function (a, b) { return values[a] - values[b]; });
    var left = new Array(K).fill(0), total = classCounts(present), hMissing = entropy(missing);
    var cuts = [], best = -1;
    for (var j = 0; j < present.length - 1; j++) {
      left[Y[present[j]]]++;
      var low = values[present[j]], high = values[present[j + 1]];
      if (!(low < high)) continue;
      var right = total.map(function (t, k) { return t - left[k]; }), nl = j + 1, nr = present.length - nl;
      var cut = {threshold: midpoint(low, high), low: low, high: high, left: left.slice(),
        right: right, allowed: nl >= m && nr >= m,
        overall: (nl * entropy(left) + nr * entropy(right) + nMissing * hMissing) / n};
      cut.gain = Math.max(h - cut.overall, 0);
      cuts.push(cut);
    }
    if (!cuts.length) return {valid: false, why: "every row with a value has the same value (" +
      number(values[present[0]]) + ")"};
    cuts.forEach(function (c, k) {
      if (c.allowed && (best < 0 || c.overall < cuts[best].overall - TIE)) best = k;
    });
    if (best < 0) return {valid: false, cuts: cuts, why: "every threshold leaves fewer than " +
      "min_samples_leaf = " + m + " rows on one side"};
    var b = cuts[best], branches = [
      {slot: 0, counts: b.left, n: sum(b.left), label: "<= " + number(b.threshold)},
      {slot: 1, counts: b.right, n: sum(b.right), label: "> " + number(b.threshold)}];
    if (nMissing) branches.push({slot: 2, counts: missing, n: nMissing, label: "missing"});
    return scored({branches: branches, cuts: cuts, cut: best, threshold: b.threshold,
      overall: b.overall}, h, n);
  }
  function sum(a) { return a.reduce(function (x, y) { return x + y; }, 0); }

  // ID3's choice: the highest gain (or gain ratio, among the features of at least average
  // gain), ties going to the first feature in column order
  function chooseBest(feats) {
    var valid = feats.filter(function (a) { return a.valid; });
    if (!valid.length) return null;
    var ratio = P.criterion === "gain_ratio", average = 0;
    valid.forEach(function (a) { average += a.gain / valid.length; });
    var competing = valid.filter(function (a) {
      return !(ratio && P.average_gain_rule && a.gain < average - TIE);
    });
    var top = -Infinity;
    competing.forEach(function (a) { top = Math.max(top, ratio ? a.ratio : a.gain); });
    var tied = competing.filter(function (a) { return (ratio ? a.ratio : a.gain) >= top - TIE; });
    return {f: tied[0].f, tied: tied.map(function (a) { return a.f; }), n: valid.length,
      score: ratio ? "gain ratio" : "gain"};
  }

  // why ID3 makes a leaf here, before any scoring (stopping.stop_reasons) or after
  function stopsBefore(node) {
    var n = node.rows.length;
    if (node.counts.filter(function (c) { return c > 0; }).length <= 1) return W.pure;
    if (P.max_depth !== null && node.depth >= P.max_depth) return W.max_depth;
    if (W.min_split && n < P.min_samples_split) return W.min_split;
    if (W.too_small && n < 2 * P.min_samples_leaf) return W.too_small;
    return null;
  }
  function stopsAfter(node) {
    var a = node.analysis;
    if (!a.best) return W.no_split;
    var gain = a.feats[a.best.f].gain;
    if (P.min_gain > 0 && gain < P.min_gain) {
      return "the best gain, " + C.fixed(gain) + ", is below min_gain = " + W.min_gain;
    }
    return null;
  }

  // ---- the student's tree -----------------------------------------------------------------------
  var nodes = [], selected = 0, finished = false;

  function makeNode(parent, slot, rows) {
    var up = parent < 0 ? null : nodes[parent];
    var node = {parent: parent, slot: slot, rows: rows, counts: classCounts(rows), children: [],
      depth: up ? up.depth + 1 : 0, used: up ? up.used.slice() : new Array(F).fill(false),
      choice: null, auto: null, feedback: null};
    if (up && !data.numeric[up.choice.f]) node.used[up.choice.f] = true;
    node.analysis = analyse(node);
    node.auto = stopsBefore(node) || (node.analysis.best ? null : W.no_split);
    if (node.auto) node.choice = {leaf: true};
    nodes.push(node);
    return nodes.length - 1;
  }

  function slotOf(choice, r, columns) {
    var v = columns[choice.f][r];
    if (data.numeric[choice.f]) return v === null ? 2 : v <= choice.threshold ? 0 : 1;
    return v;
  }

  function split(i, f, threshold) {
    var node = nodes[i], choice = {f: f, threshold: threshold}, groups = {};
    node.choice = choice;
    node.feedback = feedback(node, choice);
    node.rows.forEach(function (r) {
      var s = slotOf(choice, r, X);
      (groups[s] = groups[s] || []).push(r);
    });
    Object.keys(groups).map(Number).sort(function (a, b) { return a - b; }).forEach(function (s) {
      node.children.push(makeNode(i, s, groups[s]));
    });
    changed();
  }

  function leaf(i) {
    nodes[i].choice = {leaf: true};
    nodes[i].feedback = feedback(nodes[i], nodes[i].choice);
    changed();
  }

  function undo(i) {  // forget the choice at node i and everything below it
    var keep = [], old = nodes, gone = {};
    (function drop(j) { old[j].children.forEach(function (c) { gone[c] = true; drop(c); }); })(i);
    var renumber = {};
    old.forEach(function (node, j) { if (!gone[j]) { renumber[j] = keep.length; keep.push(node); } });
    keep.forEach(function (node) {
      node.parent = node.parent < 0 ? -1 : renumber[node.parent];
      node.children = node.children.filter(function (c) { return !gone[c]; })
        .map(function (c) { return renumber[c]; });
    });
    nodes = keep;
    var node = nodes[renumber[i]];
    node.choice = null; node.feedback = null; node.children = [];
    selected = renumber[i];
    changed();
  }

  function restart() {
    nodes = [];
    makeNode(-1, null, Y.map(function (y, r) { return r; }));
    selected = 0;
    changed();
  }

  function openNodes() {  // the nodes still to decide, in reading order
    var out = [], stack = [0];
    while (stack.length) {
      var i = stack.pop();
      if (!nodes[i].choice) out.push(i);
      for (var k = nodes[i].children.length - 1; k >= 0; k--) stack.push(nodes[i].children[k]);
    }
    return out;
  }

  // ---- what the student is told ------------------------------------------------------------------
  function feedback(node, choice) {
    var a = node.analysis, best = a.best, id3Stops = stopsAfter(node);
    var out = {verdict: "", lines: []};
    if (choice.leaf) {
      if (id3Stops) {
        out.verdict = "good";
        out.lines.push("ID3 makes a leaf here too: " + id3Stops + ".");
      } else {
        var b = a.feats[best.f];
        out.verdict = "bad";
        out.lines.push("ID3 splits here: " + testWords(best.f, b.threshold) + " has " + best.score +
          " " + C.fixed(scoreOf(b)) + ", and a leaf stops the tree from growing.");
      }
      return out;
    }
    var mine = a.feats[choice.f], yours = scoreOfChoice(mine, choice);
    out.lines.push("Your split: " + testWords(choice.f, choice.threshold) + ", " + best.score + " " +
      C.fixed(yours) + ".");
    var theBest = a.feats[best.f];
    var sameFeature = best.tied.indexOf(choice.f) >= 0;
    var sameCut = !data.numeric[choice.f] || choice.threshold === mine.threshold;
    if (choice.f === best.f && sameCut) {
      out.verdict = "good";
      out.lines.push("That is ID3's choice: the highest " + best.score + " of the " +
        C.plural(best.n, "feature") + " that can split here.");
    } else if (sameFeature && sameCut) {
      out.verdict = "good";
      out.lines.push("It ties with ID3's choice, " + data.features[best.f] + " (" + best.score +
        " " + C.fixed(scoreOf(theBest)) + "): ID3 takes the first in column order.");
    } else {
      out.verdict = "bad";
      out.lines.push("ID3's choice: " + testWords(best.f, theBest.threshold) + ", " + best.score +
        " " + C.fixed(scoreOf(theBest)) + ", the highest of the " + C.plural(best.n, "feature") +
        " that can split here.");
      if (data.numeric[choice.f] && !sameCut) {
        var cut = mine.cuts.filter(function (c) { return c.threshold === choice.threshold; })[0];
        out.lines.push("For " + data.features[choice.f] + " your threshold " + number(choice.threshold) +
          " leaves an overall entropy of " + C.fixed(cut.overall) + "; its best threshold, " +
          number(mine.threshold) + ", leaves " + C.fixed(mine.overall) + " (the table below lists them all).");
      }
    }
    if (id3Stops) out.lines.push("(ID3 itself makes a leaf here: " + id3Stops + ".)");
    return out;
  }

  function scoreOf(a) { return P.criterion === "gain_ratio" ? a.ratio : a.gain; }
  function scoreOfChoice(a, choice) {  // the score of the student's cut (their own threshold)
    if (!data.numeric[choice.f] || choice.threshold === a.threshold) return scoreOf(a);
    var cut = a.cuts.filter(function (c) { return c.threshold === choice.threshold; })[0];
    if (P.criterion !== "gain_ratio") return cut.gain;
    var sizes = [sum(cut.left), sum(cut.right)], miss = a.branches.length > 2 ? a.branches[2].n : 0;
    if (miss) sizes.push(miss);
    var info = entropy(sizes);
    return info > 0 ? cut.gain / info : 0;
  }
  function testWords(f, threshold) {
    return data.numeric[f] ? data.features[f] + " <= " + number(threshold) : data.features[f];
  }

  // ---- the drawing ---------------------------------------------------------------------------------
  var agreement = null;  // after the tree is finished: node -> true (agrees with ID3) / false

  function edgeLabel(i) {
    var node = nodes[i], up = nodes[node.parent], f = up.choice.f;
    if (data.numeric[f]) {
      if (node.slot === 2) return {text: "missing", italic: true};
      return {text: (node.slot === 0 ? "\u2264 " : "> ") + number(up.choice.threshold), italic: false};
    }
    var values = data.categories[f];
    return node.slot === values.length ? {text: "missing", italic: true} :
      {text: values[node.slot].replace(/\n/g, " "), italic: false};
  }

  var tree = {
    get count() { return nodes.length; },
    parent: function (i) { return nodes[i].parent; },
    children: function (i) { return nodes[i].children; },
    box: function (i) {
      var node = nodes[i], c = node.choice, title;
      if (!c) title = "? your choice";
      else if (c.leaf) title = "predict " + data.predictions[majority(node.counts)];
      else title = data.numeric[c.f] ? data.features[c.f] + " \u2264 " + number(c.threshold) : data.features[c.f];
      var lines = [["#" + i + " " + title, true], ["samples = " + node.rows.length, false]];
      C.countLines(data.classes, node.counts).forEach(function (t) { lines.push([t, false]); });
      lines.push(["entropy = " + C.fixed(node.analysis.entropy), false]);
      return {lines: lines, dashed: !c, fill: C.fill(data.palette, majority(node.counts), node.analysis.entropy)};
    },
    edge: edgeLabel,
    classes: function (i) {
      var out = [];
      if (i === selected) out.push("selected");
      if (!nodes[i].choice) out.push("open");
      if (agreement) out.push(agreement[i] ? "agree" : "differ");
      return out.join(" ");
    }
  };
  var view = new window.ID3TreeView(document.getElementById("tree"), tree, {
    onSelect: function (i) { selected = i; panel(); view.draw(true); },
    onDraw: C.status
  });

  function changed() {
    view.resized();
    for (var i = 0; i < nodes.length; i++) if (nodes[i].children.length) view.open[i] = 1;
    var open = openNodes();
    finished = open.length === 0;
    agreement = finished ? agreeing() : null;
    document.getElementById("progress").textContent = finished ? "your tree is finished" :
      C.plural(open.length, "node") + " to decide";
    view.layout();
    view.fit();
    panel();
  }

  // ---- the panel ----------------------------------------------------------------------------------
  function panel() {
    var d = document.getElementById("details"), node = nodes[selected];
    d.textContent = "";
    if (finished) d.appendChild(score());
    d.appendChild(el("h2", "Node " + selected + (selected === 0 ? " (the root)" : "")));
    var path = [];
    for (var j = selected; nodes[j].parent >= 0; j = nodes[j].parent) path.unshift(branchWords(j));
    if (path.length) d.appendChild(el("p", path.join(" and "), "muted"));
    d.appendChild(el("p", C.plural(node.rows.length, "row") + " (" + data.classes.map(function (c, k) {
      return c + ": " + node.counts[k];
    }).join(", ") + "), entropy " + C.fixed(node.analysis.entropy)));
    if (node.auto) {
      var p = el("p"); p.id = "decision";
      p.textContent = "A leaf: " + node.auto + "; it predicts " + data.predictions[majority(node.counts)] + ".";
      d.appendChild(p);
    } else if (!node.choice) {
      d.appendChild(chooser(selected));
    } else {
      d.appendChild(decided(selected));
    }
    var open = openNodes();
    if (open.length) {
      var next = el("button", "Next node to decide \u25B6"); next.id = "next-open"; next.type = "button";
      next.addEventListener("click", function () {
        var after = open.filter(function (k) { return k > selected; });
        selected = (after.length ? after : open)[0];
        view.reveal(selected); view.update(); view.centreOn(selected, true); panel();
      });
      d.appendChild(next);
    }
  }

  function branchWords(j) {
    var up = nodes[nodes[j].parent], f = up.choice.f, label = edgeLabel(j).text;
    if (label === "missing") return data.features[f] + " is missing";
    if (data.numeric[f]) return data.features[f] + " " + (nodes[j].slot === 0 ? "<= " : "> ") +
      number(up.choice.threshold);
    return data.features[f] + " = " + label;
  }

  function chooser(i) {
    var box = el("div"), a = nodes[i].analysis;
    box.appendChild(el("p", "Choose the split ID3 makes here, or make the node a leaf."));
    var row = el("div", null, "choice");
    var feature = el("select"); feature.id = "choose-feature";
    var none = el("option", "a feature\u2026"); none.value = ""; feature.appendChild(none);
    a.feats.forEach(function (x, f) {
      var o = el("option", data.features[f] + (x.valid ? "" : " (cannot split here: " + x.why + ")"));
      o.value = String(f); o.disabled = !x.valid;
      feature.appendChild(o);
    });
    var threshold = el("select"); threshold.id = "choose-threshold"; threshold.hidden = true;
    feature.addEventListener("change", function () {
      threshold.textContent = "";
      var f = Number(feature.value), x = a.feats[f];
      threshold.hidden = feature.value === "" || !data.numeric[f];
      if (threshold.hidden) return;
      var first = el("option", "a threshold\u2026"); first.value = ""; threshold.appendChild(first);
      x.cuts.forEach(function (c, k) {
        var o = el("option", "<= " + number(c.threshold) + " (between " + number(c.low) + " and " +
          number(c.high) + ")" + (c.allowed ? "" : ": a side would have fewer than min_samples_leaf rows"));
        o.value = String(k); o.disabled = !c.allowed;
        threshold.appendChild(o);
      });
    });
    var go = el("button", "Split"); go.id = "split"; go.type = "button";
    var message = el("p", "", "muted");
    go.addEventListener("click", function () {
      if (feature.value === "") { message.textContent = "Choose a feature first."; return; }
      var f = Number(feature.value);
      if (data.numeric[f] && threshold.value === "") { message.textContent = "Choose a threshold."; return; }
      split(i, f, data.numeric[f] ? a.feats[f].cuts[Number(threshold.value)].threshold : null);
    });
    var stop = el("button", "Make it a leaf"); stop.id = "leaf"; stop.type = "button";
    stop.addEventListener("click", function () { leaf(i); });
    [feature, threshold, go, stop].forEach(function (e) { row.appendChild(e); });
    box.appendChild(row);
    box.appendChild(message);
    return box;
  }

  function decided(i) {
    var node = nodes[i], box = el("div"), c = node.choice;
    var p = el("p"); p.id = "decision";
    p.appendChild(el("strong", "Your choice: "));
    p.appendChild(document.createTextNode(c.leaf ? "a leaf, predicting " +
      data.predictions[majority(node.counts)] : "split on " + testWords(c.f, c.threshold) + " into " +
      node.children.map(function (k) { return edgeLabel(k).text + " (" + nodes[k].rows.length + ")"; }).join(", ")));
    box.appendChild(p);
    var fb = el("div", null, "feedback " + node.feedback.verdict); fb.id = "feedback";
    node.feedback.lines.forEach(function (line) { fb.appendChild(el("p", line)); });
    box.appendChild(fb);
    box.appendChild(whyTable(node));
    if (!c.leaf && data.numeric[c.f]) box.appendChild(thresholdTable(node, c));
    var again = el("button", "Change this choice"); again.id = "undo"; again.type = "button";
    again.addEventListener("click", function () { undo(i); });
    box.appendChild(el("div", null, "choice")).appendChild(again);
    return box;
  }

  function whyTable(node) {  // every feature's best split here: the numbers behind the advice
    var a = node.analysis, c = node.choice, ratio = P.criterion === "gain_ratio", box = el("div");
    box.appendChild(el("h3", "Every feature here"));
    var table = el("table"); table.id = "build-candidates";
    var head = ["feature", "best split", "overall entropy", "gain"];
    if (ratio) head.push("gain ratio");
    table.appendChild(C.tableRow(head, "th"));
    a.feats.forEach(function (x, f) {
      var cells = [data.features[f], x.valid ? (data.numeric[f] ? "<= " + number(x.threshold) :
        C.plural(x.branches.length, "branch", "branches")) : x.why,
        x.valid ? C.fixed(x.overall) : "", x.valid ? C.fixed(x.gain) : ""];
      if (ratio) cells.push(x.valid ? C.fixed(x.ratio) : "");
      var tr = C.tableRow(cells);
      tr.dataset.feature = data.features[f];
      if (a.best && f === a.best.f) tr.classList.add("best");
      if (!c.leaf && f === c.f) tr.classList.add("yours");
      table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }

  function thresholdTable(node, c) {  // every threshold of the student's numeric feature
    var x = node.analysis.feats[c.f], box = el("div");
    box.appendChild(el("h3", "Every threshold of " + data.features[c.f]));
    var table = el("table"); table.id = "thresholds";
    table.appendChild(C.tableRow(["threshold", "between", "left", "right", "overall entropy", "gain"], "th"));
    x.cuts.forEach(function (cut, k) {
      var tr = C.tableRow(["<= " + number(cut.threshold), number(cut.low) + " and " + number(cut.high),
        cut.left.join(" / "), cut.right.join(" / "), C.fixed(cut.overall), C.fixed(cut.gain)]);
      if (k === x.cut) tr.classList.add("best");
      if (cut.threshold === c.threshold) tr.classList.add("yours");
      if (!cut.allowed) tr.classList.add("muted");
      table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }

  // ---- the score ------------------------------------------------------------------------------------
  function id3Child(m, slot) {
    var ids = data.id3;
    for (var j = m + 1; j < ids.parent.length; j++) if (ids.parent[j] === m && ids.slot[j] === slot) return j;
    return -1;
  }

  function agreeing() {  // node -> does it make ID3's decision at the same place?
    var out = {}, ids = data.id3;
    (function walk(i, m) {
      var node = nodes[i], c = node.choice, agree = false;
      if (m >= 0) {
        var f = ids.feature[m];
        agree = c.leaf ? f < 0 : f === c.f && (!data.numeric[f] || ids.threshold[m] === c.threshold);
      }
      out[i] = agree;
      node.children.forEach(function (k) { walk(k, agree ? id3Child(m, nodes[k].slot) : -1); });
    })(0, 0);
    return out;
  }

  function predict(r) {  // the class of scoring row r by the student's tree
    var i = 0;
    for (;;) {
      var node = nodes[i], c = node.choice;
      if (c.leaf) return majority(node.counts);
      var slot = slotOf(c, r, data.test.columns), next = -1;
      node.children.forEach(function (k) { if (nodes[k].slot === slot) next = k; });
      if (next < 0) return majority(node.counts);  // a value this node never saw
      i = next;
    }
  }

  function score() {
    var box = el("div"); box.id = "score";
    box.appendChild(el("h2", "Your tree against ID3's"));
    var y = data.test.y, n = y.length, mine = 0, theirs = 0;
    for (var r = 0; r < n; r++) {
      if (predict(r) === y[r]) mine++;
      if (data.test.id3[r] === y[r]) theirs++;
    }
    var leaves = nodes.filter(function (x) { return x.choice.leaf; }).length;
    function share(k) { return n ? C.fixed(100 * k / n, 1) + "%" : "-"; }
    box.appendChild(el("p", "Scored on " + data.test.about + "."));
    var table = el("table"); table.id = "score-table";
    table.appendChild(C.tableRow(["", "right", "of", "accuracy"], "th"));
    table.appendChild(C.tableRow(["your tree", mine, n, share(mine)]));
    table.appendChild(C.tableRow(["ID3's tree", theirs, n, share(theirs)]));
    box.appendChild(table);
    var agree = Object.keys(agreement).filter(function (k) { return agreement[k]; }).length;
    var p = el("p", "Your tree has " + C.plural(nodes.length, "node") + " (" + C.plural(leaves, "leaf", "leaves") +
      "); ID3's has " + C.plural(data.id3.parent.length, "node") + ". " + agree + " of your " +
      C.plural(nodes.length, "node") + " make ID3's decision at the same place (outlined in green; " +
      "the others in red)."); p.id = "agreement";
    box.appendChild(p);
    return box;
  }

  document.getElementById("restart").addEventListener("click", restart);
  C.viewControls(view);
  restart();
  window.id3page = {view: view, nodes: function () { return nodes; }, analyse: analyse,
    select: function (i) { selected = i; panel(); view.draw(true); view.centreOn(i, true); }};
})();
