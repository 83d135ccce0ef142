// The calculator widgets on the page (markup rendered at build time by hooks/widgets.py and
// overrides/partials/calc/*.html). This module:
//   * starts ONE module worker (worker.mjs, which runs Pyodide) when the first widget comes into view or is
//     touched, and shows its status idle -> downloading -> starting -> ready | failed;
//   * reads each widget's inputs (data-calc-field = the API key), sends the API requests to the worker, and
//     redraws the results with DOM methods only (textContent / setAttribute; never innerHTML with data);
//   * keeps the inputs in the URL hash (#calc=<urlencoded JSON>: widget id -> inputs that differ from the
//     defaults), so a link, a reload and the language switcher (assets/site.js) keep them.
// Every number comes from calculator.api.estimate; this file only formats bytes as GB/GiB and draws bars.

// Loaded from the <head> of pages with widgets as <script type="module" async> (hooks/widgets.py adds it, with the
// runtime config), so it may run before the page is parsed: on a page whose first widget opens the page
// (<meta name="calc-start" content="eager">, the calculator page) the runtime starts at once; elsewhere when a
// widget comes near the viewport. The widgets are wired up once the document is parsed.
let roots = [];

const START_TIMEOUT_MS = 90000;   // a runtime that is neither ready nor failed by then is reported as failed
const REQUEST_TIMEOUT_MS = 20000;
const TYPING_DELAY_MS = 150;      // debounce for typed values; choices recompute at once
const HASH_PREFIX = "#calc=";
const MAX_HASH_CHARS = 20000;
const SVG_NS = "http://www.w3.org/2000/svg";

// ------------------------------------------------------------------------------------------------------------
// Strings, configuration, formatting
// ------------------------------------------------------------------------------------------------------------
function readJSON(id) {
  const el = document.getElementById(id);
  if (!el) return null;
  try {
    return JSON.parse(el.textContent);
  } catch (error) {
    return null;
  }
}

const S = (readJSON("site-strings") || {}).calc || {};
const CONFIG = readJSON("calc-runtime") || {};
const RTL = document.documentElement.dir === "rtl";
const SITE_ROOT = new URL("../../", import.meta.url);

const formats = new Map();
function number(x, digits) {
  if (!formats.has(digits)) {
    formats.set(digits, new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return formats.get(digits).format(x);
}
const GB = 1e9;
const GIB = 2 ** 30;
const MB = 1e6;
const MIB = 2 ** 20;

function bytesLabels(b) {
  if (b >= GB) return [`${number(b / GB, 1)} GB`, `${number(b / GIB, 1)} GiB`];
  return [`${number(b / MB, 0)} MB`, `${number(b / MIB, 0)} MiB`];
}

function percent(share) {
  return `${number(share * 100, 2)}%`;
}

function text(path, fallback = "") {
  let node = S;
  for (const part of path.split(".")) {
    if (node == null || typeof node !== "object" || !(part in node)) return fallback;
    node = node[part];
  }
  return typeof node === "string" ? node : fallback;
}

function gpuName(id) {
  return (CONFIG.gpus && CONFIG.gpus[id] && CONFIG.gpus[id].name) || String(id);
}

function modelName(id) {
  return (CONFIG.models && CONFIG.models[id] && CONFIG.models[id].name) || String(id);
}

// ------------------------------------------------------------------------------------------------------------
// DOM helpers (text only)
// ------------------------------------------------------------------------------------------------------------
function h(tag, attrs, ...children) {
  const el = tag.startsWith("svg:") ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false || child === "") continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function ltr(value) {
  return h("bdi", { dir: "ltr" }, String(value));
}

// A string from the table with {placeholders} replaced by isolated LTR runs.
function filled(template, values) {
  const frag = document.createDocumentFragment();
  const parts = String(template).split(/\{(\w+)\}/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) frag.append(part);
    } else if (part in values) {
      frag.append(ltr(values[part]));
    } else {
      frag.append(`{${part}}`);
    }
  });
  return frag;
}

function bytesNode(value, output) {
  const [dec, bin] = bytesLabels(value);
  return h("span", { class: "calc-bytes", "data-calc-output": output || null, "data-value": value },
    h("bdi", { dir: "ltr" }, dec), " ", h("span", { class: "calc-bytes__alt" }, "(", h("bdi", { dir: "ltr" }, bin), ")"));
}

function verdictNode(v) {
  return h("span", { class: `calc-verdict calc-verdict--${v}`, "data-verdict": v }, text(`verdict.${v}`, v));
}

function componentName(key) {
  return text(`components.${key}`, key);
}

// Horizontal stacked bar: bytes to pixels (presentation only), mirrored in RTL.
function stackedBar(breakdown, scale, line, label) {
  const svg = h("svg:svg", { class: "calc-bar", viewBox: "0 0 1000 28", preserveAspectRatio: "none", role: "img",
    "aria-label": label, focusable: "false" });
  let x = 0;
  for (const [key, value] of Object.entries(breakdown)) {
    if (!(value > 0)) continue;
    const w = scale ? (value / scale) * 1000 : 0;
    const left = RTL ? 1000 - x - w : x;
    svg.append(h("svg:rect", { class: `calc-c calc-c--${key}`, x: left.toFixed(2), y: 2, width: w.toFixed(2), height: 24 },
      h("svg:title", {}, `${componentName(key)}: ${bytesLabels(value)[0]}`)));
    x += w;
  }
  if (line !== null && line !== undefined && scale) {
    const lx = ((RTL ? 1000 - (line / scale) * 1000 : (line / scale) * 1000)).toFixed(2);
    svg.append(h("svg:line", { class: "calc-bar__limit", x1: lx, x2: lx, y1: 0, y2: 28 }));
  }
  return svg;
}

function legend(breakdown, withBytes) {
  return h("ul", { class: "calc-legend" }, Object.entries(breakdown).filter(([, v]) => v > 0).map(([key, value]) =>
    h("li", { class: "calc-legend__item", "data-component": key },
      h("span", { class: `calc-swatch calc-c--${key}`, "aria-hidden": "true" }),
      h("span", { class: "calc-legend__name" }, componentName(key)),
      withBytes ? [" ", bytesNode(value)] : null)));
}

function unionBreakdown(results) {
  const out = {};
  for (const key of Object.keys(results[0].breakdown_bytes)) {
    out[key] = Math.max(...results.map((r) => r.breakdown_bytes[key] || 0));
  }
  return out;
}

function tableWrap(attrs, ...children) {
  return h("div", { class: "calc-table-wrap", ...attrs }, h("table", { class: "calc-table" }, ...children));
}

// ------------------------------------------------------------------------------------------------------------
// Renderers: the same markup as overrides/partials/calc/results-*.html
// ------------------------------------------------------------------------------------------------------------
function renderEstimator(results, state) {
  const r = results[0];
  const g = r.gpu;
  const scale = Math.max(r.peak_bytes_per_gpu, g.memory_bytes);
  const frag = document.createDocumentFragment();
  frag.append(h("div", { class: "calc-peak" },
    h("p", { class: "calc-peak__label" }, text("out.peak")),
    h("p", { class: "calc-peak__value" }, bytesNode(r.peak_bytes_per_gpu, "peak_bytes_per_gpu")),
    h("p", { class: "calc-peak__range" }, `${text("out.range")}: `, bytesNode(r.range.low_bytes, "range.low_bytes"),
      ` ${text("out.range_sep")} `, bytesNode(r.range.high_bytes, "range.high_bytes")),
    h("p", { class: "calc-peak__verdict" }, filled(text("out.verdict_on"), { gpu: g.name }), " ",
      h("span", { "data-calc-output": "gpu.verdict", "data-value": g.verdict }, verdictNode(g.verdict)))));
  frag.append(h("figure", { class: "calc-figure" },
    h("figcaption", { class: "calc-subtitle" }, text("out.breakdown")),
    stackedBar(r.breakdown_bytes, scale, g.memory_bytes, text("out.breakdown")),
    legend(r.breakdown_bytes, true)));
  const fact = (term, ...value) => h("div", {}, h("dt", {}, term), h("dd", {}, ...value));
  const facts = h("dl", { class: "calc-facts" },
    fact(text("out.params"), h("bdi", { dir: "ltr", "data-calc-output": "params", "data-value": r.params }, number(r.params, 0))),
    fact(text("out.trainable"),
      h("bdi", { dir: "ltr", "data-calc-output": "trainable_params", "data-value": r.trainable_params }, number(r.trainable_params, 0)),
      " (", h("bdi", { dir: "ltr", "data-calc-output": "trainable_share", "data-value": r.trainable_share }, percent(r.trainable_share)), ")"));
  if (r.adapter_bytes > 0) facts.append(fact(text("out.adapter"), bytesNode(r.adapter_bytes, "adapter_bytes")));
  facts.append(fact(text("out.checkpoint"), bytesNode(r.checkpoint_bytes, "checkpoint_bytes")));
  facts.append(fact(text("out.optimizer_file"), bytesNode(r.optimizer_state_file_bytes, "optimizer_state_file_bytes")));
  if (r.host_ram_bytes > 0) facts.append(fact(text("out.host_ram"), bytesNode(r.host_ram_bytes, "host_ram_bytes")));
  const inverse = (key, value, unit) => h("div", {}, h("dt", {}, filled(text(`out.${key}`), { gpu: g.name })),
    h("dd", { "data-calc-output": key === "max_seq_len" ? "max_seq_len" : "max_micro_batch_size", "data-value": value },
      value > 0 ? [ltr(number(value, 0)), unit ? ` ${unit}` : ""] : text("out.none_fits")));
  facts.append(inverse("max_seq_len", r.max_seq_len, text("out.tokens")));
  facts.append(inverse("max_micro_batch", r.max_micro_batch_size, ""));
  frag.append(facts);
  for (const note of r.notes || []) {
    const message = text(`notes.${note}`);
    if (message) frag.append(h("p", { class: "calc-note", "data-note": note }, message));
  }
  const fit = (ok) => h("span", { class: `calc-fit calc-fit--${ok ? "yes" : "no"}` }, ok ? text("out.fits") : text("verdict.does_not_fit"));
  const remedies = h("div", { class: "calc-block", "data-calc-output": "remedies" },
    h("p", { class: "calc-subtitle" }, filled(text("out.remedies"), { gpu: g.name })));
  if (r.remedies && r.remedies.length) {
    remedies.append(h("ol", { class: "calc-remedies" }, r.remedies.map((x) => {
      const n = x.remedy === "shorter_sequences" ? number(x.changes.seq_len, 0)
        : x.remedy === "sharding" ? number(x.changes.num_gpus, 0) : "";
      return h("li", { class: "calc-remedy", "data-remedy": x.remedy },
        h("span", { class: "calc-remedy__name" }, filled(text(`remedies.${x.remedy}`, x.remedy), { n })), " ",
        h("span", { class: "calc-remedy__figures" }, `${text("out.remedy_alone")} `, bytesNode(x.peak_bytes_alone), " ",
          fit(x.fits_alone), `; ${text("out.remedy_cumulative")} `, bytesNode(x.peak_bytes_cumulative), " ", fit(x.fits_cumulative)));
    })));
  } else {
    remedies.append(h("p", {}, text("out.remedies_none")));
  }
  frag.append(remedies);
  const ss = r.smallest_setup;
  const smallest = h("div", { class: "calc-block", "data-calc-output": "smallest_setup" }, h("p", { class: "calc-subtitle" }, text("out.smallest")));
  if (ss && ss.fits) {
    smallest.append(h("ul", { class: "calc-plain" }, ["fits", "comfortable"].filter((k) => ss[k]).map((k) =>
      h("li", { "data-setup": k }, `${text(`out.smallest_${k}`)} `, filled(text("out.setup"), { n: ss[k].num_gpus, gpu: gpuName(ss[k].gpu) }),
        " — ", bytesNode(ss[k].peak_bytes_per_gpu)))));
  } else {
    smallest.append(h("p", {}, text("out.smallest_none")));
  }
  frag.append(smallest);
  const table = r.gpu_table || [];
  if (table.length) {
    frag.append(tableWrap({ "data-calc-output": "gpu_table" },
      h("caption", {}, `${text("out.gpu_table")}. ${text("out.gpu_table_caption")}`),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, text("out.gpu_col")),
        h("th", { scope: "col" }, text("out.memory_col")),
        table[0].setups.map((st) => h("th", { scope: "col" }, filled(text("out.cards_col"), { n: st.num_gpus }), h("br"), bytesNode(st.peak_bytes_per_gpu))))),
      h("tbody", {}, table.map((row) => h("tr", { "data-gpu": row.gpu, class: row.gpu === state.gpu ? "calc-table__current" : null },
        h("th", { scope: "row" }, ltr(row.name)),
        h("td", {}, bytesNode(row.memory_bytes)),
        row.setups.map((st) => h("td", { class: `calc-cell calc-cell--${st.verdict}` }, verdictNode(st.verdict))))))));
  }
  return frag;
}

function renderCompare(results, state, plan) {
  const g = results[0].gpu;
  const scale = Math.max(...results.map((r) => r.peak_bytes_per_gpu), g.memory_bytes);
  return h("figure", { class: "calc-figure" },
    h("figcaption", { class: "calc-subtitle" }, filled(text("out.compare_caption"), { gpu: g.name })),
    h("ul", { class: "calc-rows" }, plan.variants.map(([method, dpo], i) => {
      const r = results[i];
      return h("li", { class: "calc-row", "data-variant": `${method}${dpo ? "+dpo" : ""}` },
        h("span", { class: "calc-row__label" }, text(`options.method.${method}`, method), dpo ? ` ${text("out.dpo_suffix")}` : ""),
        stackedBar(r.breakdown_bytes, scale, g.memory_bytes, text(`options.method.${method}`, method)),
        h("span", { class: "calc-row__value" }, bytesNode(r.peak_bytes_per_gpu, "peak_bytes_per_gpu"), " ", verdictNode(r.gpu.verdict)));
    })),
    legend(unionBreakdown(results), false));
}

function renderFits(results, state, plan) {
  const g = results[0].gpu;
  const k = plan.methods.length;
  return tableWrap({},
    h("caption", {}, filled(text("out.fits_caption"), { gpu: g.name })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, text("out.model_col")),
      plan.methods.map((m) => h("th", { scope: "col" }, text(`options.method.${m}`, m))))),
    h("tbody", {}, plan.models.map((id, row) => h("tr", { "data-model": id },
      h("th", { scope: "row" }, ltr(modelName(id))),
      plan.methods.map((m, j) => {
        const r = results[row * k + j];
        return h("td", { class: `calc-cell calc-cell--${r.gpu.verdict}` }, verdictNode(r.gpu.verdict), " ",
          bytesNode(r.peak_bytes_per_gpu, "peak_bytes_per_gpu"));
      })))));
}

function renderSeqlen(results, state, plan) {
  const inv = results[0];
  const rows = results.slice(1);
  const g = inv.gpu;
  const scale = Math.max(...rows.map((r) => r.peak_bytes_per_gpu), g.memory_bytes);
  const n = rows.length;
  const top = 10;
  const base = 215;
  const svg = h("svg:svg", { class: "calc-columns", viewBox: `0 0 ${100 * n} 220`, preserveAspectRatio: "none", role: "img",
    "aria-label": text("title.seqlen"), focusable: "false" });
  rows.forEach((r, i) => {
    const slot = RTL ? n - 1 - i : i;
    const height = scale ? (r.peak_bytes_per_gpu / scale) * (base - top) : 0;
    svg.append(h("svg:rect", { class: `calc-col calc-col--${r.gpu.verdict}`, x: slot * 100 + 18, y: (base - height).toFixed(2), width: 64,
      height: height.toFixed(2) }, h("svg:title", {}, `${number(plan.seq_lens[i], 0)}: ${bytesLabels(r.peak_bytes_per_gpu)[0]}`)));
  });
  const y = (base - (scale ? (g.memory_bytes / scale) * (base - top) : 0)).toFixed(2);
  svg.append(h("svg:line", { class: "calc-bar__limit", x1: 0, x2: 100 * n, y1: y, y2: y }));
  const axis = h("ol", { class: "calc-axis", style: `--calc-points: ${n}`, "aria-hidden": "true" },
    plan.seq_lens.map((len) => h("li", {}, ltr(number(len, 0)))));
  const frag = document.createDocumentFragment();
  frag.append(h("figure", { class: "calc-figure" },
    h("figcaption", { class: "calc-subtitle" }, filled(text("out.seqlen_caption"), { gpu: g.name })), svg, axis));
  frag.append(h("p", { class: "calc-inverse" }, filled(text("out.max_seq_len"), { gpu: g.name }), ": ",
    h("span", { "data-calc-output": "max_seq_len", "data-value": inv.max_seq_len },
      inv.max_seq_len > 0 ? [ltr(number(inv.max_seq_len, 0)), ` ${text("out.tokens")}`] : text("out.none_fits"))));
  frag.append(tableWrap({},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, text("out.seq_col")), h("th", { scope: "col" }, text("out.peak_col")),
      h("th", { scope: "col" }, text("out.verdict_col")))),
    h("tbody", {}, rows.map((r, i) => h("tr", { "data-seq-len": plan.seq_lens[i] },
      h("th", { scope: "row" }, ltr(number(plan.seq_lens[i], 0))),
      h("td", {}, bytesNode(r.peak_bytes_per_gpu, "peak_bytes_per_gpu")),
      h("td", { class: `calc-cell calc-cell--${r.gpu.verdict}` }, verdictNode(r.gpu.verdict)))))));
  return frag;
}

const RENDERERS = { estimator: renderEstimator, compare: renderCompare, fits: renderFits, seqlen: renderSeqlen };

// The API requests of one state: the same list as requests_for() in hooks/widgets.py.
function requestsFor(kind, state, plan) {
  if (kind === "estimator") return [{ ...state }];
  if (kind === "compare") return plan.variants.map(([method, dpo]) => ({ ...state, method, dpo, include: [] }));
  if (kind === "fits") {
    const out = [];
    for (const model of plan.models) for (const method of plan.methods) out.push({ ...state, model, method, include: [] });
    return out;
  }
  if (kind === "seqlen") {
    return [{ ...state, seq_len: plan.seq_lens[0], include: ["inverse"] },
      ...plan.seq_lens.map((n) => ({ ...state, seq_len: n, include: [] }))];
  }
  return [];
}

// ------------------------------------------------------------------------------------------------------------
// The runtime: one module worker per page
// ------------------------------------------------------------------------------------------------------------
const runtime = {
  status: "idle",
  code: null,
  worker: null,
  seq: 0,
  pending: new Map(),
  listeners: new Set(),
  timer: 0,

  set(status, code = null) {
    if (this.status === status || this.status === "failed") return;
    this.status = status;
    this.code = code;
    document.documentElement.dataset.calcRuntime = status;
    performance.mark(`calc:${status}`);  // read by benchmarks/page.py
    if (status === "ready" || status === "failed") clearTimeout(this.timer);
    if (status === "failed") {
      if (this.worker) this.worker.terminate();  // Pyodide may still be waiting on what failed: stop it
      for (const { reject, timer } of this.pending.values()) {
        clearTimeout(timer);
        reject(new Error("runtime failed"));
      }
      this.pending.clear();
    }
    for (const listener of this.listeners) listener(status, code);
  },

  start() {
    if (this.worker || this.status !== "idle") return;
    if (!CONFIG.pyodide || !CONFIG.wheel) {
      this.set("failed", "start");
      return;
    }
    this.set("downloading");
    this.timer = setTimeout(() => this.set("failed", "timeout"), START_TIMEOUT_MS);
    try {
      this.worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
    } catch (error) {
      this.set("failed", "worker");
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data || {});
    this.worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this.set("failed", "worker");
    };
    this.worker.onmessageerror = () => this.set("failed", "worker");
    this.worker.postMessage({
      type: "init",
      indexURL: new URL(CONFIG.pyodide, SITE_ROOT).href,
      wheelURL: new URL(CONFIG.wheel, SITE_ROOT).href,
    });
  },

  receive(message) {
    if (message.type === "status") {
      const allowed = ["downloading", "starting", "ready", "failed"];
      if (allowed.includes(message.status)) this.set(message.status, message.code || null);
    } else if (message.type === "result") {
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(Array.isArray(message.outputs) ? message.outputs : []);
    }
  },

  run(inputs) {
    return new Promise((resolve, reject) => {
      if (this.status !== "ready") {
        reject(new Error("runtime not ready"));
        return;
      }
      const id = ++this.seq;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error("request timeout"));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ type: "estimate", id, inputs });
    });
  },
};

// ------------------------------------------------------------------------------------------------------------
// The URL hash: #calc=<urlencoded JSON {widget id: {key: value, ...}}>, only inputs that differ from defaults
// ------------------------------------------------------------------------------------------------------------
let lastWrittenHash = "";

function readHash() {
  const hash = location.hash;
  if (!hash.startsWith(HASH_PREFIX)) return { present: false };
  if (hash.length > MAX_HASH_CHARS) return { present: true, valid: false };
  try {
    const data = JSON.parse(decodeURIComponent(hash.slice(HASH_PREFIX.length)));
    if (!data || typeof data !== "object" || Array.isArray(data)) return { present: true, valid: false };
    return { present: true, valid: true, data };
  } catch (error) {
    return { present: true, valid: false };
  }
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// history.replaceState costs Chrome ~10 ms (a round trip to the browser process): keep it off the path from an
// input to its redrawn result, and write the address once the reader pauses.
const HASH_DELAY_MS = 250;
let hashTimer = 0;
function writeHashSoon() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(writeHash, HASH_DELAY_MS);
}

// Before a click can follow a link (the language switcher copies location.hash on click), write what is pending.
function flushHash() {
  if (hashTimer) writeHash();
}

function writeHash() {
  clearTimeout(hashTimer);
  hashTimer = 0;
  const data = {};
  for (const widget of widgets) {
    const diff = widget.diff();
    if (diff) data[widget.id] = diff;
  }
  const keys = Object.keys(data);
  const url = new URL(location.href);
  if (keys.length) {
    url.hash = HASH_PREFIX.slice(1) + encodeURIComponent(JSON.stringify(data));
  } else if (location.hash.startsWith(HASH_PREFIX)) {
    url.hash = "";
  } else {
    return;
  }
  const next = url.hash;
  if (next === location.hash) return;
  lastWrittenHash = next;
  history.replaceState(history.state, "", url.hash ? url.href : url.href.replace(/#.*$/, ""));
}

function clearHash() {
  if (!location.hash.startsWith(HASH_PREFIX)) return;
  lastWrittenHash = "";
  history.replaceState(history.state, "", location.href.replace(/#.*$/, ""));
}

// ------------------------------------------------------------------------------------------------------------
// One widget
// ------------------------------------------------------------------------------------------------------------
const INT_PATTERN = /^\s*-?[0-9]+\s*$/;
const CUSTOM_KEYS = ["hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "intermediate_size", "vocab_size"];

function parseIntField(value) {
  // Whole numbers go as numbers; anything else goes as typed, so the estimator names the error (wrong_type).
  return INT_PATTERN.test(value) ? Number(value.trim()) : value;
}

class Widget {
  constructor(root) {
    this.root = root;
    this.id = root.id;
    this.kind = root.dataset.calcKind;
    this.defaults = JSON.parse(root.dataset.calcDefaults || "{}");
    this.plan = JSON.parse(root.dataset.calcPlan || "{}");
    this.fieldset = root.querySelector("[data-calc-fieldset]");
    this.statusEl = root.querySelector("[data-calc-status]");
    this.noticeEl = root.querySelector("[data-calc-notice]");
    this.results = root.querySelector("[data-calc-results]");
    this.form = root.querySelector("[data-calc-form]");
    this.good = { ...this.defaults };  // the state of the results on screen
    this.lastResult = null;
    this.token = 0;
    this.timer = 0;
    this.pendingLink = null;
    this.form.addEventListener("submit", (event) => event.preventDefault());
    this.form.addEventListener("input", (event) => this.onEdit(event, true));
    this.form.addEventListener("change", (event) => this.onEdit(event, false));
    const filter = root.querySelector('[data-calc-control="model_filter"]');
    if (filter) {
      filter.addEventListener("input", () => this.filterModels(filter.value));
      filter.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        const select = this.modelSelect();
        const first = select && Array.from(select.options).find((o) => !o.hidden);
        if (first && select.value !== first.value) {
          select.value = first.value;
          this.schedule(false);
        }
      });
    }
  }

  // ---- status ------------------------------------------------------------------------------------------
  showStatus(status, code) {
    const message = status === "failed"
      ? `${text("status.failed")} ${text(`failure.${code}`, text("failure.start"))}`
      : text(`status.${status}`);
    if (message) this.statusEl.textContent = message;
    this.statusEl.dataset.calcStatus = status;
    if (status === "failed") this.root.dataset.calcState = "error";
    if (status === "ready") {
      this.fieldset.disabled = false;
      this.syncVisibility();
      if (this.pendingLink) {
        const link = this.pendingLink;
        this.pendingLink = null;
        this.applyLink(link);
      } else if (!same(this.readState().state, this.good)) {
        this.compute();
      } else {
        this.root.dataset.calcState = "ready";
      }
    }
  }

  showNotice(key) {
    this.noticeEl.textContent = text(`notice.${key}`);
    this.noticeEl.hidden = false;
  }

  // ---- controls ----------------------------------------------------------------------------------------
  controls(key) {
    return Array.from(this.root.querySelectorAll(`[data-calc-field="${CSS.escape(key)}"]`));
  }

  modelSelect() {
    return this.root.querySelector('select[data-calc-field="model"]');
  }

  source() {
    const checked = this.root.querySelector('[data-calc-control="model_source"]:checked');
    return checked ? checked.value : "preset";
  }

  setSource(value) {
    for (const radio of this.root.querySelectorAll('[data-calc-control="model_source"]')) radio.checked = radio.value === value;
    this.syncVisibility();
  }

  syncVisibility() {
    const src = this.source();
    for (const part of this.root.querySelectorAll("[data-calc-source]")) part.hidden = part.dataset.calcSource !== src;
    const lora = this.root.querySelector("[data-calc-lora]");
    const method = this.controls("method")[0];
    if (lora && method) lora.hidden = method.value === "full";
  }

  filterModels(query) {
    const select = this.modelSelect();
    if (!select) return;
    const q = query.trim().toLowerCase();
    for (const group of select.querySelectorAll("optgroup")) {
      let any = false;
      for (const option of group.querySelectorAll("option")) {
        const match = !q || option.textContent.toLowerCase().includes(q) || option.value.includes(q)
          || group.label.toLowerCase().includes(q);
        option.hidden = !match;
        any = any || match;
      }
      group.hidden = !any;
    }
  }

  fillCustom(model) {
    if (!model) return;
    for (const key of CUSTOM_KEYS) {
      const input = this.controls(`model.${key}`)[0];
      if (input && model[key] !== undefined && model[key] !== null) input.value = String(model[key]);
    }
    const tie = this.controls("model.tie_word_embeddings")[0];
    if (tie) tie.checked = Boolean(model.tie_word_embeddings);
  }

  readModel() {
    if (this.kind !== "estimator") {
      const select = this.modelSelect();
      return { value: select ? select.value : this.defaults.model };
    }
    const src = this.source();
    if (src === "custom") {
      const model = {};
      for (const key of CUSTOM_KEYS) {
        const input = this.controls(`model.${key}`)[0];
        if (input) model[key] = parseIntField(input.value);
      }
      const tie = this.controls("model.tie_word_embeddings")[0];
      if (tie) model.tie_word_embeddings = tie.checked;
      return { value: model };
    }
    if (src === "paste") {
      const area = this.root.querySelector("textarea[data-calc-field='model']");
      try {
        return { value: JSON.parse(area.value) };
      } catch (error) {
        return { error: { code: "invalid_json", field: "model" } };
      }
    }
    return { value: this.modelSelect().value };
  }

  readState() {
    const state = {};
    let error = null;
    for (const key of Object.keys(this.defaults)) {
      if (key === "model") {
        const read = this.readModel();
        if (read.error) error = read.error;
        state.model = read.error ? this.good.model : read.value;
        continue;
      }
      const els = this.controls(key);
      if (!els.length) {
        state[key] = this.defaults[key];
      } else if (key === "lora_targets") {
        state[key] = els.filter((el) => el.checked).map((el) => el.value);
      } else if (els[0].type === "checkbox") {
        state[key] = els[0].checked;
      } else if (els[0].tagName === "SELECT") {
        state[key] = els[0].value;
      } else {
        state[key] = parseIntField(els[0].value);
      }
    }
    return { state, error };
  }

  // Put a state into the controls; false when a value has no control that can show it.
  writeState(state) {
    for (const [key, value] of Object.entries(state)) {
      if (key === "model") {
        if (typeof value === "string") {
          const select = this.modelSelect();
          if (!select || !Array.from(select.options).some((o) => o.value === value)) return false;
          select.value = value;
          if (this.kind === "estimator") this.setSource("preset");
        } else if (this.kind === "estimator" && value && typeof value === "object" && !Array.isArray(value)) {
          this.root.querySelector("textarea[data-calc-field='model']").value = JSON.stringify(value, null, 2);
          this.setSource("paste");
        } else {
          return false;
        }
        continue;
      }
      const els = this.controls(key);
      if (!els.length) return false;
      if (key === "lora_targets") {
        if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return false;
        for (const el of els) el.checked = value.includes(el.value);
      } else if (els[0].type === "checkbox") {
        if (typeof value !== "boolean") return false;
        els[0].checked = value;
      } else if (els[0].tagName === "SELECT") {
        if (typeof value !== "string" || !Array.from(els[0].options).some((o) => o.value === value)) return false;
        els[0].value = value;
      } else {
        if (typeof value !== "number" && typeof value !== "string") return false;
        els[0].value = String(value);
      }
    }
    this.syncVisibility();
    return true;
  }

  diff() {
    const out = {};
    for (const [key, value] of Object.entries(this.good)) {
      if (!same(value, this.defaults[key])) out[key] = value;
    }
    return Object.keys(out).length ? out : null;
  }

  // ---- links -------------------------------------------------------------------------------------------
  takeLink(entry) {
    // Checked now for shape; applied when the runtime is ready (the inputs are disabled until then).
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) return false;
    for (const key of Object.keys(entry)) if (!Object.hasOwn(this.defaults, key)) return false;
    this.pendingLink = entry;
    if (runtime.status === "ready") {
      this.pendingLink = null;
      this.applyLink(entry);
    }
    return true;
  }

  async applyLink(entry) {
    const state = { ...this.defaults, ...entry };
    if (!this.writeState(state)) {
      this.resetToDefaults();
      return;
    }
    const ok = await this.compute({ fromLink: true });
    if (ok) this.showNotice("link_applied");
  }

  resetToDefaults() {
    this.writeState(this.defaults);
    this.clearErrors();
    this.showNotice("link_invalid");
    this.good = { ...this.defaults };
    this.root.dataset.calcState = runtime.status === "ready" ? "ready" : this.root.dataset.calcState;
    writeHash();
  }

  // ---- computing ---------------------------------------------------------------------------------------
  onEdit(event, typing) {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (target.matches('[data-calc-control="model_filter"]')) return;
    if (typing && !(target.matches("input[type=text], input:not([type]), textarea"))) return;
    if (!typing && target.matches("input[type=text], textarea")) return;  // already handled on input
    if (target.matches('[data-calc-control="model_source"]')) {
      if (target.value === "custom" && this.lastModel) this.fillCustom(this.lastModel);
      this.syncVisibility();
    }
    if (target.matches('[data-calc-field="method"]')) this.syncVisibility();
    this.noticeEl.hidden = true;
    this.schedule(typing);
  }

  schedule(typing) {
    clearTimeout(this.timer);
    if (typing) this.timer = setTimeout(() => this.compute(), TYPING_DELAY_MS);
    else this.compute();
  }

  async compute(options = {}) {
    if (runtime.status !== "ready") return false;
    const { state, error } = this.readState();
    const token = ++this.token;
    if (error) {
      this.showErrors(error);
      if (options.fromLink) this.resetToDefaults();
      return false;
    }
    const requests = requestsFor(this.kind, state, this.plan);
    const started = performance.now();
    let outputs;
    try {
      outputs = await runtime.run(requests.map((r) => JSON.stringify(r)));
    } catch (err) {
      if (token === this.token && runtime.status === "ready") this.showErrors({ code: "internal", field: null });
      return false;
    }
    if (token !== this.token) return false;
    const results = [];
    for (const out of outputs) {
      let parsed;
      try {
        parsed = JSON.parse(out);
      } catch (err) {
        parsed = { ok: false, error: { code: "internal", field: null } };
      }
      if (!parsed || parsed.ok !== true) {
        this.showErrors((parsed && parsed.error) || { code: "internal", field: null });
        if (options.fromLink) this.resetToDefaults();
        return false;
      }
      results.push(parsed.result);
    }
    if (results.length !== requests.length) {
      this.showErrors({ code: "internal", field: null });
      return false;
    }
    this.clearErrors();
    this.results.replaceChildren(RENDERERS[this.kind](results, state, this.plan));
    if (this.kind === "estimator") {
      const eff = this.root.querySelector('[data-calc-output="effective_batch_size"]');
      if (eff) {
        eff.dataset.value = String(results[0].effective_batch_size);
        eff.replaceChildren(ltr(number(results[0].effective_batch_size, 0)));
      }
      this.lastModel = results[0].model;
    }
    this.good = state;
    this.root.dataset.calcState = "ready";
    writeHashSoon();
    this.root.dispatchEvent(new CustomEvent("calc:rendered", { detail: { ms: performance.now() - started } }));
    return true;
  }

  // ---- errors ------------------------------------------------------------------------------------------
  errorTarget(field) {
    // Which error slot and which controls an API field maps to in this widget.
    if (field === null || field === undefined || field === "") return { slot: "", controls: [] };
    if (field === "model" || field.startsWith("model.")) {
      const src = this.kind === "estimator" ? this.source() : "preset";
      if (src === "paste") return { slot: "config", controls: this.controls("model").filter((el) => el.tagName === "TEXTAREA") };
      if (src === "custom" && this.controls(field).length) return { slot: field, controls: this.controls(field) };
      if (src === "preset") return { slot: "model", controls: this.modelSelect() ? [this.modelSelect()] : [] };
      return { slot: "", controls: [] };
    }
    const controls = this.controls(field);
    if (!controls.length) return { slot: "", controls: [] };
    return { slot: field, controls };
  }

  message(error) {
    const code = String(error.code || "internal");
    const field = error.field ? String(error.field) : "";
    const specific = text(`errors.by_field.${field}`);
    const useSpecific = specific && (code === "contradiction" || code === "missing_field"
      || (field === "lora_targets" && code === "out_of_range"));
    let message = useSpecific ? specific : text(`errors.${code}`, text("errors.internal"));
    if (!useSpecific && field.startsWith("model.")) message = `${message} (${field.slice(6)})`;
    return message;
  }

  showErrors(error) {
    this.clearErrors();
    const { slot, controls } = this.errorTarget(error.field);
    const box = this.root.querySelector(`[data-calc-error-for="${CSS.escape(slot)}"]`);
    if (!box) return;
    box.textContent = this.message(error);
    box.hidden = false;
    box.dataset.code = String(error.code || "internal");
    for (const el of controls) {
      el.setAttribute("aria-invalid", "true");
      if (box.id) {
        const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
        if (!ids.includes(box.id)) ids.push(box.id);
        el.setAttribute("aria-describedby", ids.join(" "));
      }
    }
  }

  clearErrors() {
    for (const box of this.root.querySelectorAll("[data-calc-error-for]")) {
      box.hidden = true;
      box.textContent = "";
      delete box.dataset.code;
    }
    for (const el of this.root.querySelectorAll("[aria-invalid]")) {
      el.removeAttribute("aria-invalid");
      const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && !id.endsWith("-error"));
      if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
      else el.removeAttribute("aria-describedby");
    }
  }
}

// ------------------------------------------------------------------------------------------------------------
// Start
// ------------------------------------------------------------------------------------------------------------
const widgets = [];

function applyHash() {
  const link = readHash();
  if (!link.present) return;
  const first = widgets[0];
  if (!link.valid) {
    if (first) first.showNotice("link_invalid");
    clearHash();
    return;
  }
  let target = null;
  for (const [id, entry] of Object.entries(link.data)) {
    const widget = widgets.find((w) => w.id === id);
    if (!widget || !widget.takeLink(entry)) {
      if (widget) widget.resetToDefaults();
      else if (first) first.showNotice("link_invalid");
      continue;
    }
    target = target || widget;
  }
  if (target) {
    target.root.scrollIntoView({ block: "start" });
    runtime.start();
  }
}

function nearView(root) {
  const box = root.getBoundingClientRect();
  return box.bottom > -200 && box.top < window.innerHeight + 200;
}

function main() {
  roots = Array.from(document.querySelectorAll("[data-calc-root]"));
  if (!roots.length) return;
  for (const root of roots) {
    try {
      widgets.push(new Widget(root));
    } catch (error) {
      root.dataset.calcState = "error";
    }
  }
  document.documentElement.dataset.calcRuntime = runtime.status;
  runtime.listeners.add((status, code) => {
    for (const widget of widgets) widget.showStatus(status, code);
  });
  if (runtime.status !== "idle") {
    for (const widget of widgets) widget.showStatus(runtime.status, runtime.code);
  }
  // Start the runtime when a widget is about to scroll into view, or on the first interaction with one. A widget
  // already in view starts it at once (an IntersectionObserver reports only after the first frame is drawn).
  if (roots.some(nearView)) runtime.start();
  if ("IntersectionObserver" in window) {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        runtime.start();
      }
    }, { rootMargin: "200px 0px" });
    for (const root of roots) observer.observe(root);
  } else {
    runtime.start();
  }
  for (const root of roots) {
    for (const type of ["pointerdown", "focusin", "keydown"]) root.addEventListener(type, () => runtime.start(), { once: true });
  }
  applyHash();
  // window capture listeners run before assets/site.js's document listener.
  for (const type of ["pointerdown", "keydown", "click"]) window.addEventListener(type, flushHash, true);
  window.addEventListener("pagehide", flushHash);
  window.addEventListener("hashchange", () => {
    if (location.hash !== lastWrittenHash && location.hash.startsWith(HASH_PREFIX)) applyHash();
  });
}

// A page that opens with a widget (the calculator page) starts the runtime now, while the page is still parsed.
if (document.querySelector('meta[name="calc-start"][content="eager"]')) runtime.start();
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main, { once: true });
else main();
