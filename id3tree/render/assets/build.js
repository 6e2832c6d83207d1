// The build page's model: the arithmetic, the student's tree, its history and its saving.
//
// The page holds the training rows (id3tree.teaching.build): every node the student makes gets
// its rows from the student's own choices, and this script scores every feature there as ID3
// does (the page's twin of id3tree's arithmetic, in JavaScript doubles: entropies summed class
// by class, midpoint thresholds, ties within 1e-10 going to the first feature and the smallest
// threshold). A test grows ID3's own tree on the page and checks that every choice is called
// ID3's, with the gains of the learner's trace.
//
// The student's work is a set of decisions, each keyed by the path of its node (the branch
// slots from the root): the tree is made again from them after every change, its nodes in
// reading order, so a node's number is the one the trace gives it. Undo and redo step through
// the decisions' history; the browser keeps the decisions (localStorage, under a hash of the
// page's data), so the same page opened again resumes the work.
(function () {
  "use strict";
  var C = window.ID3Page, t = C.t, MISSING = t("missing");
  var data = C.data();
  var F = data.features.length, K = data.classes.length, P = data.params, W = data.words;
  var X = data.train.columns, Y = data.train.y, TIE = 1e-10;
  var B = {data: data};

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
  function sum(a) { return a.reduce(function (x, y) { return x + y; }, 0); }
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
  function shown(x) { return C.mark(number(x)); }  // a threshold as the page shows it

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
    var L = data.categories[f].length, table = {}, codes = X[f];
    node.rows.forEach(function (r) {
      var c = codes[r];
      if (!table[c]) table[c] = new Array(K).fill(0);
      table[c][Y[r]]++;
    });
    var branches = Object.keys(table).map(Number).sort(function (a, b) { return a - b; })
      .map(function (c) {
        var counts = table[c];
        return {slot: c, counts: counts, n: sum(counts),
          label: c === L ? MISSING : data.categories[f][c]};
      });
    if (node.used[f]) {
      return {valid: false, branches: branches,
        why: t("it is already used on the path to this node (a categorical feature splits once per path)")};
    }
    if (branches.length < 2) {
      return {valid: false, branches: branches, why: t("every row here has the same value ({value}), so it cannot split them",
        {value: branches.length ? branches[0].label : t("no value")})};
    }
    var small = branches.filter(function (b) { return b.n < P.min_samples_leaf; });
    if (small.length) {
      return {valid: false, branches: branches, why: t("the branch {value} would get {rows}, fewer than min_samples_leaf = {leaf}",
        {value: small[0].label, rows: C.plural(small[0].n, "row"), leaf: P.min_samples_leaf})};
    }
    return scored({branches: branches}, h, n);
  }

  function numeric(node, f, h, n) {
    var values = X[f], present = [], missing = new Array(K).fill(0), m = P.min_samples_leaf;
    node.rows.forEach(function (r) {
      if (values[r] === null) missing[Y[r]]++; else present.push(r);
    });
    var nMissing = n - present.length;
    if (!present.length) return {valid: false, cuts: [], missing: missing, why: t("every value is missing here")};
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
    var out = {valid: false, cuts: cuts, missing: missing, nMissing: nMissing};
    if (nMissing > 0 && nMissing < m) {
      out.why = t("the branch of missing values would get {rows}, fewer than min_samples_leaf = {leaf}",
        {rows: C.plural(nMissing, "row"), leaf: m});
      return out;
    }
    if (!cuts.length) {
      out.why = t("every row with a value has the same value ({value}), so there is no midpoint to cut at",
        {value: shown(values[present[0]])});
      return out;
    }
    cuts.forEach(function (c, k) {
      if (c.allowed && (best < 0 || c.overall < cuts[best].overall - TIE)) best = k;
    });
    if (best < 0) {
      out.why = t("every threshold leaves fewer than min_samples_leaf = {leaf} rows on one side", {leaf: m});
      return out;
    }
    out.cut = best;
    out.threshold = cuts[best].threshold;
    out.overall = cuts[best].overall;
    out.branches = cutBranches(cuts[best], missing);
    return scored(out, h, n);
  }

  function cutBranches(cut, missing) {  // the branches of a numeric cut, as the page lists them
    var out = [
      {slot: 0, counts: cut.left, n: sum(cut.left), label: "<= " + shown(cut.threshold)},
      {slot: 1, counts: cut.right, n: sum(cut.right), label: "> " + shown(cut.threshold)}];
    if (sum(missing)) out.push({slot: 2, counts: missing, n: sum(missing), label: MISSING});
    return out;
  }

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
      score: ratio ? t("gain ratio") : t("gain")};
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
      return t("the best gain, {gain}, is below min_gain = {min_gain}", {gain: C.shown(gain), min_gain: W.min_gain});
    }
    return null;
  }

  // the score of a split: the feature's best cut, or the student's own threshold
  function scoreOf(a) { return P.criterion === "gain_ratio" ? a.ratio : a.gain; }
  function cutOf(a, threshold) {
    return a.cuts.filter(function (c) { return c.threshold === threshold; })[0];
  }
  function choiceScore(a, choice) {
    if (!data.numeric[choice.f] || choice.threshold === a.threshold) return scoreOf(a);
    var cut = cutOf(a, choice.threshold);
    if (P.criterion !== "gain_ratio") return cut.gain;
    var sizes = [sum(cut.left), sum(cut.right)];
    if (a.nMissing) sizes.push(a.nMissing);
    var info = entropy(sizes);
    return info > 0 ? cut.gain / info : 0;
  }
  function testWords(f, threshold) {
    return data.numeric[f] ? data.features[f] + " <= " + shown(threshold) : data.features[f];
  }

  // ---- the student's tree: made again from the decisions ------------------------------------
  var decisions = {};        // path -> {f, threshold} or {leaf: true}
  var cache = {};            // path -> the node's analysis (its rows never change)
  var nodes = [];            // the tree, in reading order (a node's index is its number)
  var byPath = {};

  function makeNode(parent, slot, rows, path) {
    var up = parent < 0 ? null : nodes[parent];
    var node = {parent: parent, slot: slot, rows: rows, counts: classCounts(rows), children: [],
      depth: up ? up.depth + 1 : 0, used: up ? up.used.slice() : new Array(F).fill(false),
      path: path, choice: null, auto: null};
    if (up && !data.numeric[up.choice.f]) node.used[up.choice.f] = true;
    node.analysis = cache[path] || (cache[path] = analyse(node));
    node.auto = stopsBefore(node) || (node.analysis.best ? null : W.no_split);
    return node;
  }

  function slotOf(choice, r, columns) {
    var v = columns[choice.f][r];
    if (data.numeric[choice.f]) return v === null ? 2 : v <= choice.threshold ? 0 : 1;
    return v;
  }

  function allowed(node, d) {  // can the student's decision stand at this node?
    if (!d) return false;
    if (d.leaf) return true;
    var a = node.analysis.feats[d.f];
    if (!a || !a.valid) return false;
    return !data.numeric[d.f] || a.cuts.some(function (c) { return c.allowed && c.threshold === d.threshold; });
  }

  function grow() {  // the tree of the decisions, depth first in reading order
    nodes = []; byPath = {};
    var all = []; for (var r = 0; r < Y.length; r++) all.push(r);
    (function visit(parent, slot, rows, path) {
      var node = makeNode(parent, slot, rows, path), i = nodes.length;
      nodes.push(node); byPath[path] = i;
      if (node.auto) { node.choice = {leaf: true, auto: true}; return; }
      var d = decisions[path];
      if (!allowed(node, d)) { delete decisions[path]; return; }
      node.choice = d;
      if (d.leaf) return;
      var groups = {};
      rows.forEach(function (row) {
        var s = slotOf(d, row, X);
        (groups[s] = groups[s] || []).push(row);
      });
      Object.keys(groups).map(Number).sort(function (a, b) { return a - b; }).forEach(function (s) {
        node.children.push(nodes.length);
        visit(i, s, groups[s], path + "/" + s);
      });
    })(-1, null, all, "");
  }

  function openNodes() {  // the nodes still to decide, in reading order
    return nodes.map(function (n, i) { return n.choice ? -1 : i; }).filter(function (i) { return i >= 0; });
  }
  function choices() {  // how many decisions the student has made
    return Object.keys(decisions).length;
  }
  function below(path) {  // the decisions under (and at) a node
    return Object.keys(decisions).filter(function (p) { return p === path || p.indexOf(path + "/") === 0; });
  }

  // ---- what the student is told ------------------------------------------------------------------
  function feedback(node) {
    var a = node.analysis, best = a.best, choice = node.choice, id3Stops = stopsAfter(node);
    var out = {verdict: "", lines: []};
    if (!choice || choice.auto) return null;
    if (choice.leaf) {
      if (id3Stops) {
        out.verdict = "good";
        out.lines.push(t("ID3 makes a leaf here too: {reason}.", {reason: id3Stops}));
      } else {
        var b = a.feats[best.f];
        out.verdict = "bad";
        out.lines.push(t("ID3 splits here: {test} has {score} {value}, and a leaf stops the tree from growing.",
          {test: testWords(best.f, b.threshold), score: best.score, value: C.shown(scoreOf(b))}));
      }
      return out;
    }
    var mine = a.feats[choice.f], theBest = a.feats[best.f];
    out.lines.push(t("Your split: {test}, {score} {value}.", {test: testWords(choice.f, choice.threshold),
      score: best.score, value: C.shown(choiceScore(mine, choice))}));
    var sameCut = !data.numeric[choice.f] || choice.threshold === mine.threshold;
    if (choice.f === best.f && sameCut) {
      out.verdict = "good";
      out.lines.push(t("That is ID3's choice: the highest {score} of the {features} that can split here.",
        {score: best.score, features: C.plural(best.n, "feature")}));
    } else if (best.tied.indexOf(choice.f) >= 0 && sameCut) {
      out.verdict = "good";
      out.lines.push(t("It ties with ID3's choice, {feature} ({score} {value}): ID3 takes the first in column order.",
        {feature: data.features[best.f], score: best.score, value: C.shown(scoreOf(theBest))}));
    } else {
      out.verdict = "bad";
      out.lines.push(t("ID3's choice: {test}, {score} {value}, the highest of the {features} that can split here.",
        {test: testWords(best.f, theBest.threshold), score: best.score, value: C.shown(scoreOf(theBest)),
          features: C.plural(best.n, "feature")}));
      if (data.numeric[choice.f] && !sameCut) {
        var cut = cutOf(mine, choice.threshold);
        out.lines.push(t("For {feature} your threshold {threshold} leaves an overall entropy of {overall}; its best threshold, {best}, leaves {best_overall} (the table below lists them all).",
          {feature: data.features[choice.f], threshold: shown(choice.threshold), overall: C.shown(cut.overall),
            best: shown(mine.threshold), best_overall: C.shown(mine.overall)}));
      }
    }
    if (id3Stops) out.lines.push(t("ID3 itself makes a leaf here: {reason}.", {reason: id3Stops}));
    return out;
  }

  // the tests on the way to a node, one per feature (id3tree.model.node.condensed_path)
  function path(i) {
    var steps = [];
    for (var j = i; nodes[j].parent >= 0; j = nodes[j].parent) steps.unshift(j);
    var state = {}, order = [];
    steps.forEach(function (j) {
      var up = nodes[nodes[j].parent], f = up.choice.f, s = state[f];
      if (!s) { s = state[f] = {low: null, high: null, other: null}; order.push(f); }
      var cut = up.choice.threshold, slot = nodes[j].slot;
      if (data.numeric[f] && slot === 0) s.high = s.high === null ? cut : Math.min(s.high, cut);
      else if (data.numeric[f] && slot === 1) s.low = s.low === null ? cut : Math.max(s.low, cut);
      else s.other = slot === (data.numeric[f] ? 2 : data.categories[f].length) ? {missing: true} :
        {value: data.categories[f][slot]};
    });
    return order.map(function (f) {
      var s = state[f], name = data.features[f];
      if (s.other !== null) return s.other.missing ? t("{feature} is missing", {feature: name}) : name + " = " + s.other.value;
      if (s.low !== null && s.high !== null) return shown(s.low) + " < " + name + " <= " + shown(s.high);
      return s.low !== null ? name + " > " + shown(s.low) : name + " <= " + shown(s.high);
    });
  }

  function branchLabel(i, english) {  // the label of the branch into node i: Sunny, <= 2.45, missing
    var node = nodes[i], up = nodes[node.parent], f = up.choice.f, none = english ? "missing" : MISSING;
    if (data.numeric[f]) {
      return node.slot === 2 ? none : (node.slot === 0 ? "<= " : "> ") + (english ? number : shown)(up.choice.threshold);
    }
    return node.slot === data.categories[f].length ? none : data.categories[f][node.slot];
  }

  // ---- ID3's tree beside the student's ---------------------------------------------------------
  function id3Child(m, slot) {
    var ids = data.id3;
    for (var j = m + 1; j < ids.parent.length; j++) if (ids.parent[j] === m && ids.slot[j] === slot) return j;
    return -1;
  }
  function agreeing() {  // node -> does it make ID3's decision at the same place?
    var out = [], ids = data.id3;
    (function walk(i, m) {
      var c = nodes[i].choice, agree = false;
      if (m >= 0 && c) {
        var f = ids.feature[m];
        agree = c.leaf ? f < 0 : f === c.f && (!data.numeric[f] || ids.threshold[m] === c.threshold);
      }
      out[i] = agree;
      nodes[i].children.forEach(function (k) { walk(k, agree ? id3Child(m, nodes[k].slot) : -1); });
    })(0, 0);
    return out;
  }
  function predict(r, columns) {  // the class of a row by the student's tree
    var i = 0;
    for (;;) {
      var node = nodes[i], c = node.choice;
      if (!c || c.leaf) return majority(node.counts);
      var slot = slotOf(c, r, columns), next = -1;
      node.children.forEach(function (k) { if (nodes[k].slot === slot) next = k; });
      if (next < 0) return majority(node.counts);  // a value this node never saw
      i = next;
    }
  }
  function score() {
    var y = data.test.y, n = y.length, mine = 0, theirs = 0;
    for (var r = 0; r < n; r++) {
      if (predict(r, data.test.columns) === y[r]) mine++;
      if (data.test.id3[r] === y[r]) theirs++;
    }
    return {n: n, mine: mine, theirs: theirs};
  }

  // ---- the answers, as id3tree grade reads them (Exercise.answers) ------------------------------
  function answerNode(i) {
    var node = nodes[i], c = node.choice, out = {entropy: node.analysis.entropy};
    if (!c) return out;  // still to decide
    if (c.leaf) { out.predict = data.predictions[majority(node.counts)]; return out; }
    out.feature = data.features[c.f];
    if (data.numeric[c.f]) out.threshold = c.threshold;
    out.branches = {};
    node.children.forEach(function (k) {
      var s = nodes[k].slot, key = branchLabel(k, true);  // the answers' keys stay English
      if (data.numeric[c.f] && s < 2) key = s === 0 ? "<=" : ">";
      out.branches[key] = answerNode(k);
    });
    return out;
  }
  function answers() {
    var root = nodes[0], a = root.analysis, out = {root_entropy: a.entropy};
    if (B.allows("gains")) {
      var thresholds = {}, best = {}, gains = {};
      a.feats.forEach(function (x, f) {
        var name = data.features[f];
        if (data.numeric[f] && x.cuts && x.cuts.length) {
          thresholds[name] = {};
          x.cuts.forEach(function (c) { thresholds[name][number(c.threshold)] = c.overall; });
          if (x.valid) best[name] = x.threshold;
        }
        if (x.valid) gains[name] = x.gain;
      });
      if (Object.keys(thresholds).length) { out.thresholds = thresholds; out.best_thresholds = best; }
      out.gains = gains;
    }
    if (root.choice && !root.choice.leaf) out.root_feature = data.features[root.choice.f];
    out.tree = answerNode(0);
    return out;
  }

  // ---- history and saving -------------------------------------------------------------------------
  var past = [], future = [], hints = {}, listeners = [], storage = null, saved = null;
  var KEY = "id3tree-build-" + data.key, MAX_HISTORY = 500;
  var KEPT_HISTORY = 50;  // the steps of undo and redo the browser keeps (its storage is small)

  try {  // a browser may refuse storage to a file page (or in a private window)
    storage = window.localStorage;
    storage.setItem(KEY + "-probe", "1");
    storage.removeItem(KEY + "-probe");
  } catch (e) { storage = null; }

  function snapshot() { return JSON.stringify(decisions); }
  function save() {
    if (!storage) return;
    var state = {version: 1, decisions: decisions, past: past.slice(-KEPT_HISTORY),
      future: future.slice(-KEPT_HISTORY), hints: hints,
      selected: B.selectedPath, time: new Date().toISOString()};
    try { storage.setItem(KEY, JSON.stringify(state)); saved = state.time; } catch (e) { saved = null; }
  }
  function changed() {
    grow();
    save();
    listeners.forEach(function (f) { f(); });
  }
  function act(change) {  // one step the student can undo
    var before = snapshot();
    change();
    if (snapshot() === before) return;
    past.push(before);
    if (past.length > MAX_HISTORY) past.shift();
    future = [];
    changed();
  }

  B.restore = function () {  // the work saved by this browser for this page, if any
    if (!storage) return null;
    try {
      var state = JSON.parse(storage.getItem(KEY) || "null");
      if (!state || state.version !== 1) return null;
      decisions = state.decisions || {};
      past = state.past || []; future = state.future || []; hints = state.hints || {};
      B.selectedPath = state.selected || "";
      saved = state.time;
      grow();
      return state.time;
    } catch (e) { return null; }
  };

  // ---- what the panel and the drawing use -------------------------------------------------------
  B.entropy = entropy; B.number = number; B.shown = shown; B.sum = sum; B.majority = majority;
  B.scoreOf = scoreOf; B.cutOf = cutOf; B.cutBranches = cutBranches; B.choiceScore = choiceScore;
  B.testWords = testWords; B.feedback = feedback; B.stopsAfter = stopsAfter; B.path = path;
  B.branchLabel = function (i) { return branchLabel(i, false); }; B.agreeing = agreeing; B.score = score; B.answers = answers;
  B.nodes = function () { return nodes; };
  B.byPath = function (p) { return byPath[p] === undefined ? -1 : byPath[p]; };
  B.openNodes = openNodes;
  B.choices = choices;
  B.below = below;
  B.onChange = function (f) { listeners.push(f); };
  B.storage = function () { return storage !== null; };
  B.savedAt = function () { return saved; };
  B.canUndo = function () { return past.length > 0; };
  B.canRedo = function () { return future.length > 0; };
  B.allows = function (step) { return data.hints.indexOf(step) >= 0; };
  B.hintsAt = function (p) { return hints[p] || 0; };
  B.moreHint = function (p) {
    hints[p] = Math.min(data.hints.length, (hints[p] || 0) + 1);
    save();
    return hints[p];
  };
  B.hintsTaken = function () { return hints; };
  B.split = function (p, f, threshold) {
    act(function () {
      below(p).forEach(function (q) { delete decisions[q]; });
      decisions[p] = data.numeric[f] ? {f: f, threshold: threshold} : {f: f};
    });
  };
  B.leaf = function (p) {
    act(function () {
      below(p).forEach(function (q) { delete decisions[q]; });
      decisions[p] = {leaf: true};
    });
  };
  B.clear = function (p) {  // take back the decision at p and everything under it
    act(function () { below(p).forEach(function (q) { delete decisions[q]; }); });
  };
  B.restart = function () { act(function () { decisions = {}; }); };
  B.undo = function () {
    if (!past.length) return;
    future.push(snapshot());
    decisions = JSON.parse(past.pop());
    changed();
  };
  B.redo = function () {
    if (!future.length) return;
    past.push(snapshot());
    decisions = JSON.parse(future.pop());
    changed();
  };
  B.save = save;
  B.selectedPath = "";

  grow();
  window.ID3Build = B;
})();
