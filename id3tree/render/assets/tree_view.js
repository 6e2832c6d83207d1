// A tree drawn as SVG that scales: fit to the window, zoom, pan, fold and unfold subtrees.
//
// The layout is computed here, in the browser, over the unfolded nodes only: leaves take
// consecutive columns in reading order and a parent sits over the middle of its children (the
// layout of id3tree.render.svg). Only what the window shows is put in the page: nodes outside
// it are not drawn, and when the tree is zoomed out so far that text cannot be read, boxes are
// drawn without their text. So a tree of 100,000 nodes opens as fast as one of 100.
//
// Text goes in with textContent only: no label can become markup.
//
// The drawing is an ARIA tree: each box a treeitem (its level, its place among its siblings,
// folded or not, and a name that says its number, decision, counts, entropy and branch), one of
// them in the tab order at a time. The arrow keys walk it (down and up in reading order, right
// to unfold or go to the first child, left to fold or go to the parent, Home and End), Enter
// chooses a node and the space bar folds or unfolds it; the focused box is always drawn.
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var CHAR_WIDTH = 7, LINE_HEIGHT = 15, PAD = 6, H_GAP = 16, V_GAP = 44, FONT = 12;
  var TEXT_SCALE = 0.35;   // below this zoom, boxes are drawn without text
  var MAX_DRAWN = 20000;   // at most this many boxes are put in the page at once
  var FIRST_VIEW = 63;     // levels are unfolded at first while at most this many nodes show
  var MIN_BOX = 110;
  var MAX_FIT = 1.2;       // fitting a small tree enlarges it at most this much       // and while each level's boxes get this many pixels of width

  function make(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // tree: {count, parent(i), children(i) -> [..], box(i) -> {lines: [[text, bold]], fill,
  //        dashed}, edge(i) -> {text, italic}, classes(i) -> "...", label(i) -> "...",
  //        selected(i) -> bool}
  // options: {onSelect(i), hidden(i) -> bool (not drawn, e.g. not grown yet), label}
  function TreeView(pane, tree, options) {
    this.pane = pane;
    this.tree = tree;
    this.options = options || {};
    this.svg = make("svg", {"class": "id3tree-view", "font-family": "sans-serif",
      "font-size": FONT, "role": "tree", "aria-label": this.options.label || window.ID3Page.t("the tree")});
    this.view = make("g", {"class": "view", role: "none"});
    this.svg.appendChild(this.view);
    pane.textContent = "";
    pane.appendChild(this.svg);
    this.open = new Uint8Array(tree.count);   // 1: the node's children are shown
    this.scale = 1; this.tx = 0; this.ty = 0;
    this.drawn = null;                        // the part of the tree last put in the page
    this.sizes = null;
    this.focus = 0;                           // the box in the tab order
    this._listen();
  }

  TreeView.prototype.subtreeSizes = function () {  // nodes below each node (cached)
    if (this.sizes && this.sizes.length === this.tree.count) return this.sizes;
    var n = this.tree.count, size = new Int32Array(n);
    for (var i = n - 1; i >= 0; i--) {  // children come after their parent (reading order)
      var p = this.tree.parent(i);
      if (p >= 0) size[p] += size[i] + 1;
    }
    this.sizes = size;
    return size;
  };

  // At first, whole levels are unfolded while they fit side by side in the window, readable
  // (at most FIRST_VIEW nodes in all): a small tree shows whole, a large one its top levels.
  TreeView.prototype.unfoldFirstLevels = function () {
    this.open = new Uint8Array(this.tree.count);
    var across = Math.max(4, Math.floor(this.paneSize().w / MIN_BOX));
    var level = [0], shown = 1;
    while (level.length) {
      var next = [];
      for (var j = 0; j < level.length && next.length <= across; j++) {
        next.push.apply(next, this.tree.children(level[j]));
      }
      if (!next.length || next.length > across || shown + next.length > FIRST_VIEW) break;
      for (j = 0; j < level.length; j++) this.open[level[j]] = 1;
      shown += next.length;
      level = next;
    }
  };

  TreeView.prototype.resized = function () {  // the tree has more nodes than before
    var open = this.open;
    this.open = new Uint8Array(this.tree.count);
    this.open.set(open.subarray(0, Math.min(open.length, this.tree.count)));
    this.sizes = null;
  };

  TreeView.prototype.unfoldAll = function () {
    for (var i = 0; i < this.tree.count; i++) this.open[i] = 1;
    this.update();
  };
  TreeView.prototype.foldAll = function () { this.open.fill(0); this.update(); };
  TreeView.prototype.isOpen = function (i) { return this.open[i] === 1; };

  TreeView.prototype.toggle = function (i) {
    var before = this.place && this.place[i] ? this.place[i] : null;
    this.open[i] = this.open[i] ? 0 : 1;
    this.layout();
    if (before) {  // keep the node where it was on the screen
      var after = this.place[i];
      this.tx += (before.x - after.x) * this.scale;
      this.ty += (before.y - after.y) * this.scale;
    }
    this.draw(true);
  };

  TreeView.prototype.reveal = function (i) {  // unfold every node on the way to i
    var changed = false;
    for (var p = this.tree.parent(i); p >= 0; p = this.tree.parent(p)) {
      if (!this.open[p]) { this.open[p] = 1; changed = true; }
    }
    if (changed) this.layout();
    return changed;
  };

  // ---- layout ----------------------------------------------------------------------------
  TreeView.prototype.boxOf = function (i) {
    var box = this.tree.box(i), longest = 1;
    box.lines.forEach(function (line) { longest = Math.max(longest, line[0].length); });
    box.width = longest * CHAR_WIDTH + 2 * PAD;
    box.height = box.lines.length * LINE_HEIGHT + 2 * PAD;
    return box;
  };

  TreeView.prototype.layout = function () {
    var tree = this.tree, self = this;
    var order = [], shownKids = {}, stack = [0];
    while (stack.length) {  // the unfolded nodes, in reading order
      var i = stack.pop();
      order.push(i);
      var kids = this.open[i] ? tree.children(i) : [];
      shownKids[i] = kids;
      for (var k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
    var place = {}, levelHeight = [];
    order.forEach(function (i) {
      var box = self.boxOf(i), depth = i === 0 ? 0 : place[tree.parent(i)].depth + 1;
      place[i] = {box: box, depth: depth, sub: 0, left: 0, x: 0, y: 0};
      levelHeight[depth] = Math.max(levelHeight[depth] || 0, box.height);
    });
    function inner(i) {
      var kids = shownKids[i], w = H_GAP * Math.max(0, kids.length - 1);
      for (var k = 0; k < kids.length; k++) w += place[kids[k]].sub;
      return w;
    }
    for (var j = order.length - 1; j >= 0; j--) {  // each subtree's width, children first
      var me = place[order[j]];
      me.sub = Math.max(me.box.width, inner(order[j]));
    }
    order.forEach(function (i) {  // each child's left edge, parents first
      var kids = shownKids[i], start = place[i].left + (place[i].sub - inner(i)) / 2;
      kids.forEach(function (c) { place[c].left = start; start += place[c].sub + H_GAP; });
    });
    var top = [], y = 10;
    for (var d = 0; d < levelHeight.length; d++) { top[d] = y; y += levelHeight[d] + V_GAP; }
    for (j = order.length - 1; j >= 0; j--) {  // x: over the middle of the children
      var i2 = order[j], p = place[i2], kids2 = shownKids[i2];
      if (kids2.length) {
        var middle = (place[kids2[0]].x + place[kids2[kids2.length - 1]].x) / 2;
        var half = p.box.width / 2;
        p.x = Math.min(Math.max(middle, p.left + half), p.left + p.sub - half);
      } else {
        p.x = p.left + p.sub / 2;
      }
      p.y = top[p.depth];
    }
    this.order = order;
    this.place = place;
    this.width = (place[0] ? place[0].sub : 0) + 20;
    this.height = y - V_GAP + 10;
  };

  // ---- the view: fit, zoom, pan ------------------------------------------------------------
  TreeView.prototype.paneSize = function () {
    return {w: Math.max(1, this.pane.clientWidth), h: Math.max(1, this.pane.clientHeight)};
  };

  TreeView.prototype.fit = function () {
    var size = this.paneSize();
    this.scale = Math.min(size.w / this.width, size.h / this.height, MAX_FIT);
    this.tx = (size.w - this.width * this.scale) / 2 + 10 * this.scale;
    this.ty = Math.max(0, (size.h - this.height * this.scale) / 2);
    this.draw(true);
  };

  TreeView.prototype.zoom = function (factor, cx, cy) {
    var size = this.paneSize();
    if (cx === undefined) { cx = size.w / 2; cy = size.h / 2; }
    var scale = Math.min(4, Math.max(0.002, this.scale * factor));
    this.tx = cx - (cx - this.tx) * (scale / this.scale);
    this.ty = cy - (cy - this.ty) * (scale / this.scale);
    this.scale = scale;
    this.draw(false);
  };

  TreeView.prototype.panBy = function (dx, dy) {
    this.tx += dx; this.ty += dy; this.draw(false);
  };

  TreeView.prototype.centreOn = function (i, onlyIfOutside) {
    var p = this.place[i];
    if (!p) return;
    var size = this.paneSize();
    var sx = p.x * this.scale + this.tx, sy = (p.y + p.box.height / 2) * this.scale + this.ty;
    if (onlyIfOutside && sx > 20 && sx < size.w - 20 && sy > 20 && sy < size.h - 20) return;
    if (this.scale < TEXT_SCALE) this.scale = 1;
    this.tx = size.w / 2 - p.x * this.scale;
    this.ty = size.h / 2 - (p.y + p.box.height / 2) * this.scale;
    this.draw(false);
  };

  TreeView.prototype.update = function () { this.layout(); this.draw(true); };

  // the tree's area that the pane shows, in tree units, widened by `margin` panes each side
  TreeView.prototype.window = function (margin) {
    var size = this.paneSize(), w = size.w / this.scale, h = size.h / this.scale;
    var x0 = -this.tx / this.scale, y0 = -this.ty / this.scale;
    return {x0: x0 - margin * w, y0: y0 - margin * h, x1: x0 + (1 + margin) * w,
      y1: y0 + (1 + margin) * h};
  };

  TreeView.prototype.draw = function (force) {
    this.view.setAttribute("transform", "translate(" + this.tx + "," + this.ty + ") scale(" +
      this.scale + ")");
    var detailed = this.scale >= TEXT_SCALE, seen = this.window(0), d = this.drawn;
    if (!force && d && d.detailed === detailed && seen.x0 >= d.area.x0 && seen.y0 >= d.area.y0 &&
        seen.x1 <= d.area.x1 && seen.y1 <= d.area.y1) return;  // what is drawn still covers it
    this.render(detailed, this.window(0.5));
  };

  TreeView.prototype.render = function (detailed, area) {
    var self = this, place = this.place, hidden = this.options.hidden;
    var edges = make("g", {"class": "edges", "aria-hidden": "true"});
    var boxes = make("g", {"class": "boxes", role: "none"});
    var sizes = this.subtreeSizes(), drawn = 0, skipped = 0;
    var hadFocus = this.svg.contains(document.activeElement) && document.activeElement !== this.svg;
    if (!place[this.focus] || (hidden && hidden(this.focus))) this.focus = 0;
    this.order.forEach(function (i) {
      var p = place[i];
      if (hidden && hidden(i)) return;
      var left = p.x - p.box.width / 2, inside = left < area.x1 && left + p.box.width > area.x0 &&
        p.y < area.y1 && p.y + p.box.height + 20 > area.y0;
      var parent = i === 0 ? null : place[self.tree.parent(i)];
      if (parent && self._edgeInside(parent, p, area)) edges.appendChild(self._edge(i, parent, p, detailed));
      if (!inside && i !== self.focus) return;  // the focused box is always in the page
      if (drawn >= MAX_DRAWN && i !== self.focus) { skipped++; return; }
      drawn++;
      boxes.appendChild(self._node(i, p, detailed, sizes[i]));
    });
    this.view.textContent = "";
    this.view.appendChild(edges);
    this.view.appendChild(boxes);
    this.drawn = {detailed: detailed, area: area};
    this.skipped = skipped;
    if (hadFocus) this.focusBox();
    if (this.options.onDraw) this.options.onDraw(drawn, skipped);
  };

  TreeView.prototype.box = function (i) {
    return this.view.querySelector('g.node[data-node="' + i + '"]');
  };
  TreeView.prototype.focusBox = function () {
    var g = this.box(this.focus);
    if (g) g.focus();
  };

  // move the keyboard's focus to node i: unfold to it, bring it into the window, focus it
  TreeView.prototype.moveFocus = function (i) {
    this.focus = i;
    if (this.reveal(i)) this.layout();
    this.centreOn(i, true);
    this.draw(true);
    this.focusBox();
  };

  TreeView.prototype.shown = function () {  // the unfolded, not hidden nodes in reading order
    var hidden = this.options.hidden;
    return this.order.filter(function (i) { return !(hidden && hidden(i)); });
  };

  TreeView.prototype.key = function (i, key) {  // the ARIA tree's keys; true if handled
    var shown = this.shown(), at = shown.indexOf(i), kids = this.tree.children(i);
    var hidden = this.options.hidden, visibleKids = kids.filter(function (k) { return !(hidden && hidden(k)); });
    if (key === "ArrowDown" && at + 1 < shown.length) this.moveFocus(shown[at + 1]);
    else if (key === "ArrowUp" && at > 0) this.moveFocus(shown[at - 1]);
    else if (key === "Home") this.moveFocus(shown[0]);
    else if (key === "End") this.moveFocus(shown[shown.length - 1]);
    else if (key === "ArrowRight" && visibleKids.length) {
      if (!this.open[i]) { this.toggle(i); this.focusBox(); } else this.moveFocus(visibleKids[0]);
    } else if (key === "ArrowLeft") {
      if (visibleKids.length && this.open[i]) { this.toggle(i); this.focusBox(); }
      else if (this.tree.parent(i) >= 0) this.moveFocus(this.tree.parent(i));
    } else if (key === "Enter") {
      if (this.options.onSelect) this.options.onSelect(i);
    } else if (key === " ") {
      if (kids.length) { this.toggle(i); this.focusBox(); } else if (this.options.onSelect) this.options.onSelect(i);
    } else return ["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End"].indexOf(key) >= 0;
    return true;
  };

  // the whole tree, every node unfolded and drawn, as a standalone SVG document (for a PNG
  // and for print)
  TreeView.prototype.standalone = function () {
    var open = this.open, drawn = this.drawn, out;
    this.open = new Uint8Array(this.tree.count).fill(1);
    this.layout();
    var svg = make("svg", {xmlns: SVG, width: Math.ceil(this.width), height: Math.ceil(this.height),
      viewBox: "0 0 " + Math.ceil(this.width) + " " + Math.ceil(this.height),
      "font-family": "sans-serif", "font-size": FONT});
    svg.appendChild(make("rect", {x: 0, y: 0, width: "100%", height: "100%", fill: "white"}));
    var keep = this.view, self = this;
    this.view = make("g", {transform: "translate(0,0)"});
    var focus = this.focus;
    this.focus = -1;
    var edges = make("g", {}), boxes = make("g", {}), sizes = this.subtreeSizes();
    this.order.forEach(function (i) {
      var p = self.place[i];
      if (i > 0) edges.appendChild(self._edge(i, self.place[self.tree.parent(i)], p, true));
      var g = self._node(i, p, true, sizes[i], true);
      boxes.appendChild(g);
    });
    this.view.appendChild(edges);
    this.view.appendChild(boxes);
    svg.appendChild(this.view);
    out = {svg: svg, width: Math.ceil(this.width), height: Math.ceil(this.height)};
    this.view = keep;
    this.focus = focus;
    this.open = open;
    this.layout();
    this.drawn = drawn;
    this.draw(true);
    return out;
  };

  TreeView.prototype._edgeInside = function (a, b, area) {
    var x0 = Math.min(a.x, b.x), x1 = Math.max(a.x, b.x);
    return x0 < area.x1 && x1 > area.x0 && a.y < area.y1 && b.y > area.y0;
  };

  TreeView.prototype._edge = function (i, parent, p, detailed) {
    var g = make("g", {"class": "edge", "data-node": i});
    var x1 = parent.x, y1 = parent.y + parent.box.height, x2 = p.x, y2 = p.y;
    g.appendChild(make("line", {x1: x1, y1: y1, x2: x2, y2: y2, stroke: "#666666"}));
    if (detailed) {
      var label = this.tree.edge(i);
      var t = make("text", {x: (x1 + x2) / 2, y: (y1 + y2) / 2 + 4, "text-anchor": "middle",
        fill: "#333", stroke: "white", "stroke-width": 3, "paint-order": "stroke"}, label.text);
      if (label.italic) t.setAttribute("font-style", "italic");
      g.appendChild(t);
    }
    return g;
  };

  TreeView.prototype._node = function (i, p, detailed, below, still) {
    var box = p.box, left = p.x - box.width / 2, tree = this.tree;
    var extra = tree.classes && !still ? tree.classes(i) : "";
    var g = make("g", {"class": "node" + (extra ? " " + extra : ""), "data-node": i});
    if (!still) {  // a treeitem of the ARIA tree
      var parent = tree.parent(i), siblings = parent < 0 ? [i] : tree.children(parent);
      var hidden = this.options.hidden;
      var kids = tree.children(i).filter(function (k) { return !(hidden && hidden(k)); });
      g.setAttribute("role", "treeitem");
      g.setAttribute("tabindex", i === this.focus ? 0 : -1);
      g.setAttribute("aria-level", p.depth + 1);
      g.setAttribute("aria-setsize", siblings.length);
      g.setAttribute("aria-posinset", siblings.indexOf(i) + 1);
      if (kids.length) g.setAttribute("aria-expanded", this.open[i] ? "true" : "false");
      g.setAttribute("aria-selected", tree.selected && tree.selected(i) ? "true" : "false");
      g.setAttribute("aria-label", tree.label ? tree.label(i) : box.lines.map(function (l) { return l[0]; }).join(", "));
    }
    var rect = make("rect", {x: left, y: p.y, width: box.width, height: box.height, rx: 4,
      fill: box.fill, stroke: box.stroke || "#555555", "stroke-width": box.strokeWidth || 1});
    if (box.dashed) rect.setAttribute("stroke-dasharray", box.dashed === true ? "5 3" : box.dashed);
    g.appendChild(rect);
    if (detailed) {
      var y = p.y + PAD + FONT;
      box.lines.forEach(function (line) {
        var t = make("text", {x: p.x, y: y, "text-anchor": "middle", "aria-hidden": "true"}, line[0]);
        if (line[1]) t.setAttribute("font-weight", "bold");
        g.appendChild(t);
        y += LINE_HEIGHT;
      });
    }
    if (!still && tree.children(i).length) g.appendChild(this._fold(i, p, below, detailed));
    return g;
  };

  TreeView.prototype._fold = function (i, p, below, detailed) {  // the fold / unfold button
    var open = this.open[i] === 1, cy = p.y + p.box.height + 9;
    var g = make("g", {"class": "fold", "data-node": i, "aria-hidden": "true"});
    g.appendChild(make("circle", {cx: p.x, cy: cy, r: 7, fill: "white", stroke: "#555555"}));
    g.appendChild(make("text", {x: p.x, y: cy + 4, "text-anchor": "middle",
      "font-weight": "bold"}, open ? "\u2212" : "+"));
    if (!open && detailed) {
      g.appendChild(make("text", {x: p.x + 11, y: cy + 4, fill: "#555555"},
        window.ID3Page.plural(below, "node")));
    }
    return g;
  };

  // ---- the mouse, the wheel and the keys ----------------------------------------------------
  TreeView.prototype._listen = function () {
    var self = this, drag = null;
    this.svg.addEventListener("click", function (e) {
      if (self.dragged) { self.dragged = false; return; }
      var fold = e.target.closest("g.fold");
      if (fold) { self.toggle(Number(fold.getAttribute("data-node"))); return; }
      var node = e.target.closest("g.node");
      if (!node) return;
      self.focus = Number(node.getAttribute("data-node"));
      if (self.options.onSelect) self.options.onSelect(self.focus);
    });
    this.svg.addEventListener("keydown", function (e) {
      var node = e.target.closest && e.target.closest("g.node");
      if (!node || e.altKey || e.ctrlKey || e.metaKey) return;
      var i = Number(node.getAttribute("data-node"));
      if (self.key(i, e.key)) { e.preventDefault(); e.stopPropagation(); }
    });
    this.svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      var r = self.svg.getBoundingClientRect();
      self.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    }, {passive: false});
    this.svg.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      drag = {x: e.clientX, y: e.clientY, moved: 0};
    });
    window.addEventListener("pointermove", function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag.moved += Math.abs(dx) + Math.abs(dy);
      drag.x = e.clientX; drag.y = e.clientY;
      if (drag.moved > 3) { self.svg.classList.add("panning"); self.panBy(dx, dy); }
    });
    window.addEventListener("pointerup", function () {
      if (drag && drag.moved > 3) self.dragged = true;
      drag = null;
      self.svg.classList.remove("panning");
    });
    window.addEventListener("resize", function () { self.draw(true); });
  };

  window.ID3TreeView = TreeView;
})();
