// fxkit's graph viewer: the interactive picture of `fxkit report` pages (exporters/report/
// GraphViewer.h writes its data). WebGL through sigma.js + graphology, both made for graphs of
// 100k+ nodes; positions come laid out from fxkit (a layered DAG layout in C++), so the browser
// never runs a layout. Built into assets/viewer.min.js by build.mjs; the page embeds that file.
//
// Data (one JSON object in <script type="application/json" id="fxkit-viewer-data">), columns of
// arrays rather than one object per node:
//   tables: {op, module, kernel, inductor, type}: the distinct strings, indexed by the columns;
//           typeBytes[t]: the bytes of a value of type t (-1: unknown)
//   nodes:  {name[], op[], module[], kernel[], inductor[], type[], x[], y[]} (-1: none); x in
//           half-node units, y the row (LayeredLayout.h)
//   edges:  {inDegree[], delta[]}: the inputs of node i are i - delta[e] for its inDegree[i]
//           deltas, in node order
//   groups: {module, kernel, inductor: {key[], of[], x[], y[], edges[]} or null}: the collapsed
//           views (by module path, fxkit's kernel, Inductor's kernel);
//           of[i] is node i's group, edges flat [from, to, ...]
// The page's state is written into #fxkit-viewer-status (data-state, data-tti-ms, data-errors)
// so a headless browser's DOM dump shows whether it became interactive and how fast.
import Graph from "graphology";
import Sigma from "sigma";
import { EdgeLineProgram, NodeCircleProgram } from "sigma/rendering";

const PALETTE = [
  "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
  "#9c755f", "#bab0ac", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
];
const GREY = "#dddddd";
const DIM = "#eeeeee";
const HIGHLIGHT = "#d62728";

const errors = [];
function statusElement() {
  return document.getElementById("fxkit-viewer-status");
}
function recordError(text) {
  errors.push(String(text));
  const s = statusElement();
  if (s) {
    s.dataset.errors = String(errors.length);
    const li = document.createElement("li");
    li.textContent = String(text);
    document.getElementById("fxkit-viewer-errors").appendChild(li);
  }
}
window.addEventListener("error", (e) => recordError(e.message || "error"));
window.addEventListener("unhandledrejection", (e) => recordError("unhandled rejection: " + e.reason));
const consoleError = console.error.bind(console);
console.error = (...args) => {
  recordError(args.join(" "));
  consoleError(...args);
};

function colourOf(index) {
  return index < 0 ? GREY : PALETTE[index % PALETTE.length];
}

// bytes -> a colour from light yellow to dark red (log scale), grey when unknown.
function heat(bytes, maxLog) {
  if (bytes < 0) return GREY;
  const t = maxLog > 0 ? Math.log2(1 + bytes) / maxLog : 0;
  const r = Math.round(255 - 80 * t), g = Math.round(235 - 200 * t), b = Math.round(160 - 140 * t);
  return `rgb(${r},${g},${b})`;
}

function formatBytes(b) {
  if (b < 0) return "unknown";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let u = 0, v = b;
  while (v >= 1024 && u + 1 < units.length) { v /= 1024; ++u; }
  return (u ? v.toFixed(1) : String(v)) + " " + units[u];
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

class Viewer {
  constructor(root, data) {
    this.root = root;
    this.d = data;
    const n = data.nodes.name.length;
    this.n = n;
    // Inputs and users of every node, as offsets into flat arrays (CSR).
    const inDeg = data.edges.inDegree, delta = data.edges.delta;
    this.inStart = new Int32Array(n + 1);
    for (let i = 0; i < n; ++i) this.inStart[i + 1] = this.inStart[i] + inDeg[i];
    this.inputs = new Int32Array(delta.length);
    const outDeg = new Int32Array(n);
    for (let i = 0; i < n; ++i)
      for (let e = this.inStart[i]; e < this.inStart[i + 1]; ++e) {
        const src = i - delta[e];
        this.inputs[e] = src;
        ++outDeg[src];
      }
    this.outStart = new Int32Array(n + 1);
    for (let i = 0; i < n; ++i) this.outStart[i + 1] = this.outStart[i] + outDeg[i];
    this.users = new Int32Array(delta.length);
    const fill = this.outStart.slice(0, n);
    for (let i = 0; i < n; ++i)
      for (let e = this.inStart[i]; e < this.inStart[i + 1]; ++e) this.users[fill[this.inputs[e]]++] = i;
    this.bytes = new Float64Array(n);
    let maxBytes = 0;
    for (let i = 0; i < n; ++i) {
      const t = data.nodes.type[i];
      const b = t < 0 ? -1 : data.tables.typeBytes[t];
      this.bytes[i] = b;
      if (b > maxBytes) maxBytes = b;
    }
    this.maxLog = Math.log2(1 + maxBytes);
    this.view = "nodes";
    this.colourBy = data.tables.kernel.length ? "kernel" : data.tables.module.length ? "module" : "op";
    this.sizeBy = "uniform";
    this.matches = null; // Set of node (or group) indices matching the search
    this.selected = -1;
    this.graphs = {};
    this.buildUi();
    // The overlays' look is set as the nodes are added (applyOverlay changes it later).
    const graph = this.graphFor("nodes");
    this.tGraph = performance.now();
    this.renderer = new Sigma(graph, this.canvasBox, {
      defaultEdgeType: "line",
      edgeProgramClasses: { line: EdgeLineProgram },
      nodeProgramClasses: { circle: NodeCircleProgram },
      hideEdgesOnMove: delta.length > 20000,
      labelRenderedSizeThreshold: 4,
      labelDensity: 0.5,
      minCameraRatio: 0.0005,
      maxCameraRatio: 4,
      zIndex: true,
      defaultEdgeColor: "#c8c8c8",
    });
    this.renderer.on("clickNode", ({ node }) => this.select(Number(node)));
    this.renderer.on("clickStage", () => this.select(-1));
    this.renderer.on("doubleClickNode", ({ node, event }) => {
      if (this.view !== "nodes") {
        event.preventSigmaDefault();
        this.expandGroup(Number(node));
      }
    });
  }

  // The graphology graph of a view, built once.
  graphFor(view) {
    if (this.graphs[view]) return this.graphs[view];
    const g = new Graph({ type: "directed", multi: false, allowSelfLoops: false });
    const d = this.d;
    const SPACE_X = 1, SPACE_Y = 1.5;
    if (view === "nodes") {
      const nd = d.nodes;
      // Nodes as large as the gap between neighbours allows once the graph fits the canvas.
      let minX = Infinity, maxX = -Infinity, maxY = 0;
      for (let i = 0; i < this.n; ++i) {
        minX = Math.min(minX, nd.x[i]);
        maxX = Math.max(maxX, nd.x[i]);
        maxY = Math.max(maxY, nd.y[i]);
      }
      const w = Math.max(this.canvasBox.clientWidth - 60, 100), h = Math.max(this.canvasBox.clientHeight - 60, 100);
      const unitsPerPx = Math.max(((maxX - minX) * SPACE_X) / w, (maxY * SPACE_Y) / h, 1e-9);
      const gapPx = Math.min(2 * SPACE_X, SPACE_Y) / unitsPerPx;
      this.nodeSize = Math.min(8, Math.max(1.5, 0.4 * gapPx));
      // The keys as strings made once: graphology turns every key it is given into a string
      // and looks it up (an edge's two ends each time); a string made once keeps its hash.
      const keys = new Array(this.n);
      for (let i = 0; i < this.n; ++i) {
        keys[i] = String(i);
        g.addNode(keys[i], { x: nd.x[i] * SPACE_X, y: -nd.y[i] * SPACE_Y, label: nd.name[i], color: this.nodeColour(i), size: this.nodeSizeOf(i) });
      }
      // Edges keyed by their index into this.inputs: graphology's generated keys ("geid_1_42",
      // a string built and hashed per edge) were a third of the graph's build at 100k nodes,
      // and sigma's per-edge caches are objects keyed by them (integer-like keys are faster).
      for (let i = 0; i < this.n; ++i)
        for (let e = this.inStart[i]; e < this.inStart[i + 1]; ++e) g.addEdgeWithKey(e, keys[this.inputs[e]], keys[i]);
    } else {
      const gr = d.groups[view];
      const count = new Int32Array(gr.key.length);
      for (const k of gr.of) ++count[k];
      this.groupSize = this.groupSize || {};
      this.groupSize[view] = count;
      for (let k = 0; k < gr.key.length; ++k)
        g.addNode(k, {
          color: colourOf(k),
          x: gr.x[k] * SPACE_X * 2,
          y: -gr.y[k] * SPACE_Y * 2,
          size: 3 + 2 * Math.log2(count[k]),
          label: gr.key[k] + (count[k] > 1 ? ` (${count[k]})` : ""),
        });
      for (let e = 0; e + 1 < gr.edges.length; e += 2) g.addEdgeWithKey(e >> 1, gr.edges[e], gr.edges[e + 1]);
    }
    this.graphs[view] = g;
    return g;
  }

  // A representative node of an item of the current view (a group's first member).
  groupMembers(view, k) {
    const of = this.d.groups[view].of, out = [];
    for (let i = 0; i < this.n; ++i) if (of[i] === k) out.push(i);
    return out;
  }

  columnValue(column, i) {
    const v = this.d.nodes[column][i];
    return v < 0 ? "" : this.d.tables[column][v];
  }

  colourIndex(i) {
    const nd = this.d.nodes;
    switch (this.colourBy) {
      case "op": return nd.op[i];
      case "module": return nd.module[i];
      case "kernel": return nd.kernel[i];
      case "inductor": return nd.inductor[i];
      default: return -1;
    }
  }

  // The base look of the nodes (colour and size overlays) goes into the graph's attributes, so
  // a frame without a search or selection needs no reducer (100k nodes: no object per node).
  applyOverlay() {
    if (this.view === "nodes") {
      this.graphs.nodes.updateEachNodeAttributes((key, attrs) => {
        const k = Number(key);
        attrs.color = this.nodeColour(k);
        attrs.size = this.nodeSizeOf(k);
        return attrs;
      }, { attributes: ["color", "size"] });
    }
    this.updateReducers();
  }

  // Node k's colour and size under the current overlays (no object per node: 100k of them).
  nodeColour(k) {
    return this.colourBy === "bytes" ? heat(this.bytes[k], this.maxLog) : colourOf(this.colourIndex(k));
  }

  nodeSizeOf(k) {
    const b = this.bytes[k];
    return this.sizeBy === "bytes" ? (b > 0 ? 1 + Math.log2(1 + b) / 3 : 1.5) : this.nodeSize;
  }

  // Reducers only while a search or a selection changes how items look.
  updateReducers() {
    if (!this.renderer) return;
    const active = this.matches !== null || this.selected >= 0;
    this.renderer.setSetting("nodeReducer", active ? (key, attrs) => this.reduceNode(key, attrs) : null);
    this.renderer.setSetting("edgeReducer", active ? (key, attrs) => this.reduceEdge(key, attrs) : null);
  }

  reduceNode(key, attrs) {
    const k = Number(key);
    const out = { ...attrs };
    if (this.matches && !this.matches.has(k)) {
      out.color = DIM;
      out.label = "";
      out.zIndex = 0;
    } else if (this.matches) {
      out.zIndex = 1;
      out.highlighted = true;
    }
    if (k === this.selected) {
      out.color = HIGHLIGHT;
      out.highlighted = true;
      out.zIndex = 2;
    }
    return out;
  }

  reduceEdge(key, attrs) {
    const out = { ...attrs };
    if (this.matches) out.color = "#eeeeee";
    if (this.selected >= 0) {
      const [s, t] = this.graphs[this.view].extremities(key);
      if (Number(s) === this.selected || Number(t) === this.selected) {
        out.color = HIGHLIGHT;
        out.zIndex = 1;
      }
    }
    return out;
  }

  buildUi() {
    const d = this.d;
    const hasModules = d.groups.module && d.groups.module.key.length < this.n;
    const hasKernels = d.groups.kernel && d.groups.kernel.key.length < this.n;
    const hasInductor = d.groups.inductor && d.groups.inductor.key.length < this.n;
    const option = (value, text, enabled = true) => {
      const o = el("option", { value }, text);
      if (!enabled) o.disabled = true;
      return o;
    };
    this.viewSelect = el("select", { title: "collapse the graph", onchange: (e) => this.setView(e.target.value) },
      option("nodes", `every node (${this.n})`),
      option("module", d.groups.module ? `by module (${d.groups.module.key.length})` : "by module (none known)", hasModules),
      option("kernel", d.groups.kernel ? `by fxkit kernel (${d.groups.kernel.key.length})` : "by fxkit kernel (none)", hasKernels),
      option("inductor", d.groups.inductor ? `by Inductor kernel (${d.groups.inductor.key.length})` : "by Inductor kernel (none)", hasInductor));
    this.colourSelect = el("select", { title: "colour nodes by", onchange: (e) => { this.colourBy = e.target.value; this.applyOverlay(); } },
      option("op", "colour: op"), option("module", "colour: module", d.tables.module.length > 0),
      option("kernel", "colour: fxkit kernel", d.tables.kernel.length > 0),
      option("inductor", "colour: Inductor kernel", d.tables.inductor.length > 0),
      option("bytes", "colour: bytes"));
    this.colourSelect.value = this.colourBy;
    this.sizeSelect = el("select", { title: "node size", onchange: (e) => { this.sizeBy = e.target.value; this.applyOverlay(); } },
      option("uniform", "size: uniform"), option("bytes", "size: bytes"));
    this.search = el("input", { type: "search", placeholder: "search name or op", size: "24" });
    let timer = 0;
    this.search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => this.runSearch(), 150); });
    this.search.addEventListener("keydown", (e) => { if (e.key === "Enter") this.focusNextMatch(); });
    const fit = el("button", { type: "button", onclick: () => this.renderer.getCamera().animatedReset({ duration: 300 }) }, "fit");
    this.found = el("span", { class: "fxv-found" });
    this.panel = el("div", { class: "fxv-panel" }, el("p", { class: "note" }, "Click a node for its details; scroll to zoom, drag to pan; double-click a group to see its nodes."));
    this.canvasBox = el("div", { class: "fxv-canvas" });
    this.root.append(el("div", { class: "fxv-bar" }, this.viewSelect, this.colourSelect, this.sizeSelect, this.search, fit, this.found),
      el("div", { class: "fxv-main" }, this.canvasBox, this.panel));
  }

  setView(view) {
    this.view = view;
    this.viewSelect.value = view;
    this.selected = -1;
    this.matches = null;
    this.renderer.setGraph(this.graphFor(view));
    this.renderer.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
    this.runSearch();
    this.showDetails();
  }

  // Names and ops (or group keys) containing the search text.
  runSearch() {
    const q = this.search.value.trim().toLowerCase();
    this.matchList = [];
    this.matchAt = -1;
    if (!q) {
      this.matches = null;
      this.found.textContent = "";
    } else {
      const set = new Set();
      if (this.view === "nodes") {
        const nd = this.d.nodes, ops = this.d.tables.op.map((o) => o.toLowerCase().includes(q));
        for (let i = 0; i < this.n; ++i)
          if (ops[nd.op[i]] || nd.name[i].toLowerCase().includes(q)) set.add(i);
      } else {
        const keys = this.d.groups[this.view].key;
        for (let k = 0; k < keys.length; ++k) if (keys[k].toLowerCase().includes(q)) set.add(k);
      }
      this.matches = set;
      this.matchList = [...set];
      this.found.textContent = `${set.size} found` + (set.size ? " (Enter: next)" : "");
    }
    this.updateReducers();
  }

  focusNextMatch() {
    if (!this.matchList || !this.matchList.length) return;
    this.matchAt = (this.matchAt + 1) % this.matchList.length;
    this.focus(this.matchList[this.matchAt]);
  }

  focus(k) {
    this.select(k);
    const pos = this.renderer.getNodeDisplayData(String(k));
    if (pos) this.renderer.getCamera().animate({ x: pos.x, y: pos.y, ratio: Math.min(this.renderer.getCamera().ratio, 0.05) }, { duration: 300 });
  }

  select(k) {
    this.selected = k;
    this.updateReducers();
    this.showDetails();
  }

  expandGroup(k) {
    const members = this.groupMembers(this.view, k);
    this.setView("nodes");
    this.matches = new Set(members);
    this.matchList = members;
    this.matchAt = -1;
    this.found.textContent = `${members.length} nodes of the group (Enter: next)`;
    this.updateReducers();
    if (members.length) this.focusNextMatch();
  }

  nodeLink(i) {
    return el("a", { href: "#", onclick: (e) => { e.preventDefault(); this.focus(i); } }, this.d.nodes.name[i]);
  }

  showDetails() {
    this.panel.replaceChildren();
    const k = this.selected;
    if (k < 0) return;
    const rows = [];
    const row = (name, value) => rows.push(el("tr", {}, el("th", {}, name), el("td", {}, value)));
    if (this.view === "nodes") {
      const nd = this.d.nodes;
      row("node", nd.name[k]);
      row("op", this.columnValue("op", k));
      row("type", this.columnValue("type", k));
      row("bytes", formatBytes(this.bytes[k]));
      row("module", this.columnValue("module", k) || "(none)");
      row("fxkit kernel", this.columnValue("kernel", k) || "(none)");
      if (this.d.tables.inductor.length) row("Inductor kernel", this.columnValue("inductor", k) || "(none)");
      const list = (from, to, arr) => {
        const td = el("td", {});
        const shown = Math.min(to - from, 50);
        for (let e = from; e < from + shown; ++e) td.append(this.nodeLink(arr[e]), " ");
        if (to - from > shown) td.append(`... ${to - from - shown} more`);
        return td;
      };
      rows.push(el("tr", {}, el("th", {}, "inputs"), list(this.inStart[k], this.inStart[k + 1], this.inputs)));
      rows.push(el("tr", {}, el("th", {}, "users"), list(this.outStart[k], this.outStart[k + 1], this.users)));
    } else {
      const members = this.groupMembers(this.view, k);
      let bytes = 0;
      for (const i of members) bytes += Math.max(0, this.bytes[i]);
      row(this.view, this.d.groups[this.view].key[k]);
      row("nodes", String(members.length));
      row("bytes", formatBytes(bytes));
      const td = el("td", {});
      for (const i of members.slice(0, 50)) td.append(el("code", {}, this.d.nodes.name[i]), " ");
      if (members.length > 50) td.append(`... ${members.length - 50} more`);
      rows.push(el("tr", {}, el("th", {}, "members"), td));
      rows.push(el("tr", {}, el("th", {}, ""), el("td", {}, el("button", { type: "button", onclick: () => this.expandGroup(k) }, "show in the full graph"))));
    }
    this.panel.append(el("table", {}, ...rows));
  }
}

// Drives the viewer as a user would (search, each collapsed view, a selection) and writes what
// it saw into data-selftest: the browser test (tests/cli/viewer.sh) opens the page with
// #fxkit-viewer-selftest.
function selfTest(v, status) {
  const out = [];
  v.search.value = "relu";
  v.runSearch();
  out.push(`search=${v.matches ? v.matches.size : 0}`);
  for (const view of ["module", "kernel", "inductor"])
    if (v.d.groups[view]) {
      v.setView(view);
      out.push(`${view}=${v.graphs[view].order}`);
      v.select(0);
      out.push(`${view}-members=${v.groupMembers(view, 0).length}`);
    }
  v.setView("nodes");
  // The overlays: colour and size by bytes, through the controls, as a user picks them.
  for (const [select, value] of [[v.colourSelect, "bytes"], [v.sizeSelect, "bytes"]]) {
    select.value = value;
    select.dispatchEvent(new Event("change"));
  }
  const colours = new Set(), sizes = new Set();
  v.graphs.nodes.forEachNode((key, attrs) => { colours.add(attrs.color); sizes.add(attrs.size); });
  out.push(`bytes-colours=${colours.size} bytes-sizes=${sizes.size}`);
  v.focus(v.n - 1);
  out.push(`selected=${v.d.nodes.name[v.selected]}`);
  out.push(`panel-rows=${v.panel.querySelectorAll("tr").length}`);
  status.dataset.selftest = out.join(" ");
}

function boot() {
  const root = document.getElementById("fxkit-viewer");
  const status = statusElement();
  if (!root || !status) return;
  try {
    const probe = document.createElement("canvas");
    if (!probe.getContext("webgl")) {
      status.dataset.state = "no-webgl";
      root.append(el("p", { class: "note" }, "The interactive graph needs WebGL, which this browser does not offer."));
      return;
    }
    const t0 = performance.now();
    const data = JSON.parse(document.getElementById("fxkit-viewer-data").textContent);
    const t1 = performance.now();
    const viewer = new Viewer(root, data);
    // Where the time went: the page up to this script, parsing the data, the graph and first frame.
    status.dataset.phasesMs = [t0, t1 - t0, viewer.tGraph - t1, performance.now() - viewer.tGraph].map(Math.round).join(",");
    window.fxkitViewer = viewer;
    // Sigma drew the first frame in its constructor: the page answers input from here.
    status.dataset.ttiMs = String(Math.round(performance.now()));
    status.dataset.nodes = String(viewer.n);
    const box = viewer.canvasBox.getBoundingClientRect();
    status.dataset.canvas = [box.left, box.top + window.scrollY, box.width, box.height].map(Math.round).join(",");
    status.dataset.state = "ready";
    if (location.hash === "#fxkit-viewer-selftest") selfTest(viewer, status);
  } catch (e) {
    status.dataset.state = "error";
    recordError(e && e.stack ? e.stack : e);
  }
}

// The script sits right after the viewer's elements: start now, not after the rest of the page
// (a 100k-node report's tables take seconds to parse); elsewhere, once the page is parsed.
if (statusElement() || document.readyState !== "loading") boot();
else document.addEventListener("DOMContentLoaded", boot);
