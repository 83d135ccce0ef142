// The calculator widgets on the page: this module only moves data between the page and the one Pyodide worker
// (worker.mjs; messages: protocol.mjs) and keeps the inputs in the address's fragment. Python renders every piece of
// markup and decides every form rule (CONTRIBUTING.md, "One renderer for every figure").

import { MESSAGE, STATUS } from "./protocol.mjs";

document.documentElement.dataset.calcJs = "loaded";   // assets/site.js reports a page whose script never ran

const START_TIMEOUT_MS = 90000;   // a runtime that is neither ready nor failed by then is reported as failed
const REQUEST_TIMEOUT_MS = 20000;
const TYPING_DELAY_MS = 150;      // debounce for typed values; choices recompute at once
const ANNOUNCE_DELAY_MS = 900;    // the live region speaks once the reader pauses
const URL_DELAY_MS = 250;         // history.replaceState costs Chrome ~10 ms: keep it off the input-to-result path
const PARAM = "calc";             // #calc=… (or #<anchor>&calc=…); the older ?calc=… is read once and moved
const MAX_STATE_CHARS = 8000;     // the longest state the address keeps (and accepts); the reader is told when a
                                  // pasted config.json is longer than that

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
// How far a value may be cut before it is sent to the worker (calculator.page.form.TRANSPORT_LIMITS, written into
// the page by the build): one character beyond what Python accepts, so a cut value is still refused, as too long,
// next to its control, and no paste or typing can make the worker read megabytes.
const LIMITS = { text: Number((CONFIG.limits || {}).text) || Infinity, field: Number((CONFIG.limits || {}).field) || Infinity };
const LANG = document.documentElement.lang || "en";
const SITE_ROOT = new URL("../../", import.meta.url);

function text(path, fallback = "") {
  let node = S;
  for (const part of path.split(".")) {
    if (node == null || typeof node !== "object" || !(part in node)) return fallback;
    node = node[part];
  }
  return typeof node === "string" ? node : fallback;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value) {   // a JSON object: not null, not a list
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

// Megabytes of the runtime's download, one decimal, Latin digits grouped by thousands: the format of
// calculator.page.text.fmt_number, which cannot run before the runtime it counts has arrived.
const MEGABYTES = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

// A string of the table with its {placeholders} filled, each value an isolated left-to-right run (what
// calculator.page.text.filled makes in Python): DOM nodes, never markup.
function filledNodes(template, values) {
  return template.split(/\{(\w+)\}/).map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    if (!Object.hasOwn(values, part)) return document.createTextNode(`{${part}}`);
    const run = document.createElement("bdi");
    run.dir = "ltr";
    run.textContent = values[part];
    return run;
  });
}

// A control marked invalid and described by its error box (`box`: the box's id), or no longer (null): the error boxes'
// ids (every one ends in "-error") leave its aria-describedby.
function invalid(el, box) {
  const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && !id.endsWith("-error"));
  if (box) el.setAttribute("aria-invalid", "true");
  else el.removeAttribute("aria-invalid");
  if (box) ids.push(box);
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
  else el.removeAttribute("aria-describedby");
}

// ---- The runtime: one module worker per page ----------------------------------------------------------------------
const runtime = {
  status: STATUS.IDLE,
  code: null,
  progress: null,
  worker: null,
  seq: 0,
  pending: new Map(),
  listeners: new Set(),
  timer: 0,
  later: "",                  // the second load: "" (not asked), loading, ready, failed
  laterListeners: new Set(),

  set(status, code = null, progress = null) {
    if (this.status === STATUS.FAILED) return;
    if (this.status === status && status !== STATUS.DOWNLOADING) return;
    this.status = status;
    this.code = code;
    this.progress = progress;
    document.documentElement.dataset.calcRuntime = status;
    performance.mark(`calc:${status}`);  // read by benchmarks/page.py
    if (status === STATUS.READY || status === STATUS.FAILED) clearTimeout(this.timer);
    if (status === STATUS.FAILED) {
      if (this.worker) this.worker.terminate();  // Pyodide may still be waiting on what failed: stop it
      for (const { lost, timer } of this.pending.values()) {
        clearTimeout(timer);
        lost();
      }
      this.pending.clear();
    }
    for (const listener of this.listeners) listener(status, code, progress);
  },

  start() {
    if (this.worker || this.status !== STATUS.IDLE) return;
    if (!CONFIG.pyodide || !CONFIG.wheel) {
      this.set(STATUS.FAILED, "start");
      return;
    }
    this.set(STATUS.DOWNLOADING, null, { done: 0, total: CONFIG.bytes || 0 });
    this.timer = setTimeout(() => this.set(STATUS.FAILED, "timeout"), START_TIMEOUT_MS);
    try {
      this.worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
    } catch (error) {
      this.set(STATUS.FAILED, "worker");
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data || {});
    this.worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this.set(STATUS.FAILED, "worker");
    };
    this.worker.onmessageerror = () => this.set(STATUS.FAILED, "worker");
    this.worker.postMessage({
      type: MESSAGE.INIT,
      indexURL: new URL(CONFIG.pyodide, SITE_ROOT).href,
      wheelURL: new URL(CONFIG.wheel, SITE_ROOT).href,
      laterURLs: (Array.isArray(CONFIG.later) ? CONFIG.later : []).map((rel) => new URL(rel, SITE_ROOT).href),
      bytes: CONFIG.bytes || 0,
      stringsURL: new URL(CONFIG.strings, SITE_ROOT).href,
      lang: LANG,
    });
  },

  receive(message) {
    if (message.type === MESSAGE.LATER) {
      this.later = String(message.status);
      for (const listener of this.laterListeners) listener(this.later);
      return;
    }
    if (message.type === MESSAGE.STATUS) {
      if (message.status === STATUS.READY && typeof message.from === "string") {
        document.documentElement.dataset.calcRuntimeFrom = message.from;   // "start" or "snapshot" (benchmarks/page.py)
      }
      if (Object.values(STATUS).includes(message.status)) {
        const progress = message.status === STATUS.DOWNLOADING ? { done: message.done, total: message.total } : null;
        this.set(message.status, message.code || null, progress);
      }
    } else if (message.type === MESSAGE.ANSWER) {
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      clearTimeout(entry.timer);
      let answer = null;
      try {
        answer = JSON.parse(String(message.answer));
      } catch (error) {
        // an unreadable answer is an internal error
      }
      entry.resolve({ answer: isObject(answer) ? answer : internalAnswer(),
                      ms: Number(message.ms) || 0, longest: Number(message.longest) || 0 });
    }
  },

  // One call of calculator.page.Page in the worker (`op`: render, search, hub, run; the other fields are the
  // message it reads): {answer, ms, longest}. "Run it"'s first call loads the exporters first. Never rejects: a call
  // that cannot be answered (a runtime not ready or failed, a timeout, an unreadable answer) is answered with the
  // API's internal_error, `lost` when no answer came.
  call(op, fields) {
    const timeout = op === "run" && this.later !== STATUS.READY ? START_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
    return new Promise((resolve) => {
      const lost = () => resolve({ answer: internalAnswer(), ms: 0, longest: 0, lost: true });
      if (this.status !== STATUS.READY) {
        lost();
        return;
      }
      const id = ++this.seq;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        lost();
      }, timeout);
      this.pending.set(id, { resolve, lost, timer });
      this.worker.postMessage({ type: MESSAGE.CALL, op, ...fields, id });
    });
  },
};

// The one request to another host (CONTRIBUTING.md): GET `url` (Page.hub names it) with no cookies and no referrer,
// at most `maxBytes` read within `ms`: {status, text} or {error: "timeout" | "unreachable" | "too_large"}.
async function hubGet(url, maxBytes, ms) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  try {
    const reply = await fetch(url, { credentials: "omit", referrerPolicy: "no-referrer", signal: stop.signal });
    if (!reply.ok || !reply.body) return { status: reply.status };
    const reader = reply.body.getReader();
    const parts = [];
    for (let size = 0, part = await reader.read(); !part.done; part = await reader.read()) {
      size += part.value.length;
      if (size > maxBytes) {
        stop.abort();
        return { error: "too_large" };
      }
      parts.push(part.value);
    }
    return { status: reply.status, text: new TextDecoder().decode(await new Blob(parts).arrayBuffer()) };
  } catch (error) {
    return { error: stop.signal.aborted ? "timeout" : "unreachable" };
  } finally {
    clearTimeout(timer);
  }
}

// An answer the page could not get (timeout, a runtime that died): the API's own code, the table's own words.
function internalAnswer() {
  return { ok: false, errors: [{ field: null, code: "internal_error", quiet: false, message: text("errors.internal_error") }] };
}

// The address: #calc=<JSON {widget id: {key: value, ...}}> (the inputs that differ from the defaults), after the
// section's anchor when there is one (#<anchor>&calc=…; CONTRIBUTING.md says why the fragment).
let urlTimer = 0;
let written = null;          // the state text this page last put in the address (null: none)

// The fragment's two parts: the anchor the reader is at, and the state text (null when it carries none).
function splitHash(hash) {
  const parts = hash.replace(/^#/, "").split("&").filter(Boolean);
  const state = parts.find((part) => part.startsWith(`${PARAM}=`));
  const anchor = parts.filter((part) => !part.startsWith(`${PARAM}=`)).join("&");
  return { anchor, state: state === undefined ? null : state.slice(PARAM.length + 1) };
}

function joinHash(anchor, state) {
  const parts = [anchor, state === null ? "" : `${PARAM}=${state}`].filter(Boolean);
  return parts.length ? `#${parts.join("&")}` : "";
}

// An address of the older form (?calc=…, which the browser sent to the server) becomes the fragment, before
// anything else runs, so a reload or a copied link never sends it again. Runs once, when this module starts.
function moveQueryState() {
  const url = new URL(location.href);
  const raw = url.searchParams.get(PARAM);
  if (raw === null) return;
  url.searchParams.delete(PARAM);
  const { anchor, state } = splitHash(url.hash);
  url.hash = joinHash(anchor, state === null ? encodeURIComponent(raw) : state);
  history.replaceState(history.state, "", url.href);
}

// The state the address carries: {present, valid, data}.
function readLink(hash = location.hash) {
  const { state } = splitHash(hash);
  if (state === null) return { present: false };
  try {
    const raw = decodeURIComponent(state);
    const data = raw.length <= MAX_STATE_CHARS ? JSON.parse(raw) : null;
    if (isObject(data)) return { present: true, valid: true, data };
  } catch (error) {
    // not a state this page can read: refused below, as one too long or not an object is
  }
  return { present: true, valid: false };
}

function writeUrlSoon() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, URL_DELAY_MS);
}

// Before a click can follow a link (the language switcher copies the address on click), write what is pending.
function flushUrl() {
  if (urlTimer) writeUrl();
}

// The address with the inputs on screen, keeping the reader's anchor. A widget whose link is still waiting for the
// runtime keeps that link's inputs.
function writeUrl() {
  clearTimeout(urlTimer);
  urlTimer = 0;
  const data = {};
  for (const widget of widgets) {
    const diff = widget.pendingLink || widget.diff();
    if (diff) data[widget.id] = diff;
  }
  let json = JSON.stringify(data);
  if (json.length > MAX_STATE_CHARS) {
    // A pasted config.json too long for an address: the link keeps every other input, and the reader is told.
    for (const [id, entry] of Object.entries(data)) {
      const widget = widgets.find((w) => w.id === id);
      if (!widget || !widget.spare.some((key) => key in entry)) continue;
      for (const key of widget.spare) delete entry[key];
      widget.showNotice("state_too_long");
    }
    json = JSON.stringify(data);
    if (json.length > MAX_STATE_CHARS) return;
  }
  const url = new URL(location.href);
  url.searchParams.delete(PARAM);
  const state = Object.keys(data).length ? encodeURIComponent(json) : null;
  url.hash = joinHash(splitHash(url.hash).anchor, state);
  written = state;
  if (url.href === location.href) return;
  history.replaceState(history.state, "", url.href);
}

// In-page navigation (a click in the table of contents, a heading's link, back and forward) changes the fragment:
// an anchor alone gets the inputs back at once (the browser has already scrolled to it; replaceState does not
// scroll), and a fragment with other inputs than the page wrote (a link opened on this same page, a step back in
// history) is applied like a link.
function onHashChange() {
  const { state } = splitHash(location.hash);
  if (state === null) {
    writeUrl();
  } else if (state !== written) {
    applyLink({ scroll: false });
  }
}

// ---- One widget ---------------------------------------------------------------------------------------------------
// The controls of one widget (every element with a data-calc-field), read and written by their kind of element
// alone: a checkbox of a multi-choice (data-calc-multi) is one value of a list, a radio the value of its group, a
// checkbox a flag, anything else its text (cut at its transport limit); a part shows by Python's data-calc-when.
class Form {
  constructor(root) {
    this.root = root;
  }

  controls(key) {
    return Array.from(this.root.querySelectorAll(`[data-calc-field="${CSS.escape(key)}"]`));
  }

  // The raw value of every control; `initial`: as the build wrote them (the widget's defaults).
  read(initial = false) {
    const raw = {};
    for (const el of this.root.querySelectorAll("[data-calc-field]")) {
      const key = el.dataset.calcField;
      const checked = initial ? el.defaultChecked : el.checked;
      if ("calcMulti" in el.dataset) raw[key] = [...(raw[key] || []), ...(checked ? [el.value] : [])];
      else if (el.type === "radio") raw[key] = checked ? el.value : raw[key];
      else if (el.type === "checkbox") raw[key] = checked;
      else if (el.tagName === "SELECT" && initial) raw[key] = (Array.from(el.options).find((o) => o.defaultSelected) || el.options[0] || {}).value;
      else raw[key] = (initial ? el.defaultValue : el.value).slice(0, el.tagName === "TEXTAREA" ? LIMITS.text : LIMITS.field);
    }
    return raw;
  }

  // Put control values (Python's, or the build's) into the controls; false when a drop-down does not offer one.
  write(values) {
    let ok = true;
    for (const el of this.root.querySelectorAll("[data-calc-field]")) {
      if (!Object.hasOwn(values, el.dataset.calcField)) continue;
      const value = values[el.dataset.calcField];
      if ("calcMulti" in el.dataset) el.checked = Array.isArray(value) && value.includes(el.value);
      else if (el.type === "radio") el.checked = el.value === value;
      else if (el.type === "checkbox") el.checked = Boolean(value);
      else if (el.tagName === "SELECT" && !Array.from(el.options).some((o) => o.value === value)) ok = false;
      else if ("calcJson" in el.dataset && value && typeof value === "object") el.value = JSON.stringify(value, null, 2);
      else el.value = value === null || value === undefined ? "" : String(value);   // null: left empty
    }
    this.sync();
    return ok;
  }

  sync() {
    const raw = this.read();
    for (const part of this.root.querySelectorAll("[data-calc-when]")) {
      const when = JSON.parse(part.dataset.calcWhen);
      part.hidden = !Object.entries(when).every(([key, values]) => values.includes(raw[key]));
    }
  }

}

// Errors next to the controls they are about, in boxes the build wrote (role="alert": read out when they appear), at
// the control Python names (form.error_slots), and there while they last; the box then comes into view above the
// sticky summary strip.
class Errors {
  constructor(root, form) {
    this.root = root;
    this.form = form;
    this.staleNote = root.querySelector("[data-calc-stale-note]");
    this.placed = new Map();   // "field|code" -> the slot it was shown at (a conflict stays where it appeared)
  }

  boxOf(slot) {
    const box = this.root.querySelector(`[data-calc-error-for="${CSS.escape(slot)}"]`);
    return box && !box.closest("[data-calc-when][hidden]") ? box : null;
  }

  // The box of an error: where it was shown while it lasts, else the first of Python's slots (form.error_slots)
  // whose box is on screen, else the form's own box.
  slot(error) {
    const kept = this.placed.get(`${error.field || ""}|${error.code}`);
    if (kept && this.boxOf(kept)) return kept;
    return (Array.isArray(error.slots) ? error.slots : [error.field || ""]).find((slot) => this.boxOf(slot)) || "";
  }

  show(errors, lastEdited, reveal) {
    this.clear();
    const placed = new Map();
    let quietOnly = true;
    let first = null;
    for (const error of errors) {
      const slot = this.slot(error);
      const box = this.boxOf(slot) || this.root.querySelector('[data-calc-error-for=""]');
      if (!box) continue;
      placed.set(`${error.field || ""}|${error.code}`, slot);
      if (error.quiet) continue;
      quietOnly = false;
      if (error.message) box.innerHTML = error.message;   // markup made and escaped by calculator.page
      else box.textContent = text("errors.internal_error");
      box.hidden = false;
      box.dataset.code = String(error.code);
      const details = box.closest("details");
      if (details) details.open = true;                  // never an error inside a closed section
      if (!first || slot === lastEdited) first = box;
      for (const el of slot ? this.form.controls(slot) : []) invalid(el, box.id);
    }
    this.placed = placed;
    this.root.dataset.calcStale = "true";
    if (this.staleNote) this.staleNote.hidden = quietOnly;
    if (first && reveal) reveal(first);
  }

  // `forget`: also where the errors were shown (the state on screen is good again).
  clear(forget = false) {
    if (forget) this.placed = new Map();
    for (const box of this.root.querySelectorAll("[data-calc-error-for]")) {
      box.hidden = true;
      box.textContent = "";
      delete box.dataset.code;
    }
    for (const el of this.root.querySelectorAll("[aria-invalid]")) invalid(el, null);
    delete this.root.dataset.calcStale;
    if (this.staleNote) this.staleNote.hidden = true;
  }
}

// A widget's buttons, by the attribute Python wrote on each (page/form.py, page/run.py, pieces.write_attr): one click
// listener for them all, the first selector that matches acting.
const CLICKS = {
  "[data-calc-write]": (w, el) => w.writeFrom(el),
  "[data-calc-hub-button]": (w) => w.readHub(),
  "[data-calc-run-toggle]": (w) => w.run?.setOpen(!w.run.isOpen()),
  '[data-calc-run] [role="tab"]': (w, el) => w.run?.select(el.dataset.calcTab, true),
  "[data-calc-copy]": (w, el) => w.run?.copy(el),
  "[data-calc-download]": (w, el) => w.run?.download(el),
  "[data-calc-import-read]": (w) => w.run?.readPaste(),
  "[data-calc-import-forget]": (w) => w.run?.forget(),
};

class Widget {
  constructor(root) {
    this.root = root;
    this.id = root.id;
    this.kind = root.dataset.calcKind;
    this.defaults = JSON.parse(root.dataset.calcDefaults || "{}");
    this.fixed = JSON.parse(root.dataset.calcFixed || "{}");
    this.form = new Form(root);
    this.errors = new Errors(root, this.form);
    this.fieldset = root.querySelector("[data-calc-fieldset]");
    this.statusEl = root.querySelector("[data-calc-status]");
    this.shownStatus = "";             // the status text on screen (the build wrote status.prerendered)
    this.progressEl = root.querySelector("[data-calc-progress]");
    this.noticeEl = root.querySelector("[data-calc-notice]");
    this.announceEl = root.querySelector("[data-calc-announce]");
    this.fragment = root.querySelector("[data-calc-fragment]");
    this.formEl = root.querySelector("[data-calc-form]");
    this.good = { ...this.defaults };  // the state of the results on screen, as the address keeps it (Python's)
    this.spare = [];                   // the keys of it an address too long drops (a pasted config)
    this.token = 0;
    this.timer = 0;
    this.announceTimer = 0;
    this.pendingLink = null;
    this.lastEdited = null;            // the request key of the control the reader changed last (errors go there)
    this.summaryEl = root.querySelector('.calc__slot--summary');
    this.watchStrip();
    this.imported = {};                // request keys a pasted config set beyond the form's controls
    this.run = root.querySelector("[data-calc-run]") ? new RunIt(this) : null;
    this.formEl.addEventListener("submit", (event) => event.preventDefault());
    this.formEl.addEventListener("input", (event) => this.onEdit(event, true));
    this.formEl.addEventListener("change", (event) => this.onEdit(event, false));
    this.pickers = Array.from(root.querySelectorAll("[data-calc-picker]"), (el) => new Picker(el, this));
    this.hubBox = root.querySelector("[data-calc-hub]");
    // The GPU table's class filter (in the results, outside the form): it hides groups, nothing is recomputed, and
    // the choice outlives the fragments that replace the table.
    this.gpuClass = "all";
    root.addEventListener("change", (event) => {
      if (!(event.target instanceof Element) || !event.target.matches("[data-calc-gpu-class]")) return;
      this.gpuClass = event.target.value;
      this.showGpuClass();
    });
    root.addEventListener("click", (event) => {
      for (const [selector, act] of Object.entries(CLICKS)) {
        const el = event.target instanceof Element ? event.target.closest(selector) : null;
        if (el && root.contains(el)) return act(this, el);
      }
    });
  }

  // A button Python wrote with the values it sets (a remedy, a framework's own values: data-calc-write holds the
  // control values and the keys beyond the form, pieces.write_attr): written, then computed like an edit.
  writeFrom(button) {
    const { controls, imported } = JSON.parse(button.dataset.calcWrite);
    this.form.write(controls || {});
    this.imported = { ...this.imported, ...(imported || {}) };
    this.lastEdited = Object.keys(controls || {})[0] || this.lastEdited;
    this.schedule(false);
  }

  // Shown through an attribute of the widget (calc.css hides the other groups), so the fragment's markup stays
  // exactly what Python wrote.
  showGpuClass() {
    const select = this.root.querySelector("select[data-calc-gpu-class]");
    if (!select) return;
    if (!Array.from(select.options).some((o) => o.value === this.gpuClass)) this.gpuClass = "all";
    select.value = this.gpuClass;
    this.root.dataset.calcGpuShow = this.gpuClass;
  }

  // ---- layout ------------------------------------------------------------------------------------------
  // The sticky summary strip's height, for the CSS that keeps a focused control or an error above it
  // (scroll-margin-block-end: var(--calc-strip)).
  watchStrip() {
    if (!this.summaryEl) return;
    const update = () => this.root.style.setProperty("--calc-strip", `${Math.ceil(this.summaryEl.offsetHeight)}px`);
    update();
    if ("ResizeObserver" in window) new ResizeObserver(update).observe(this.summaryEl);
  }

  // Bring an error (and the control above it) into view between the page's header and the summary strip, if any
  // of it is hidden; the scroll margins in calc.css keep it clear of both.
  reveal(box) {
    const field = box.closest("[data-calc-wrap]") || box;
    const rect = field.getBoundingClientRect();
    const header = document.querySelector(".md-header");
    const top = header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
    const strip = this.summaryEl && getComputedStyle(this.summaryEl).position === "sticky"
      ? this.summaryEl.getBoundingClientRect().top : window.innerHeight;
    const bottom = Math.min(window.innerHeight, strip > top ? strip : window.innerHeight);
    if (rect.top >= top && rect.bottom <= bottom) return;
    (rect.height > bottom - top ? box : field).scrollIntoView({ block: "nearest" });
  }

  // The typed numbers as Python read them, beside their fields ("1,5" -> "Read as 1.5").
  showReadings(read) {
    for (const el of this.root.querySelectorAll("[data-calc-read-for]")) {
      const html = read && Object.hasOwn(read, el.dataset.calcReadFor) ? read[el.dataset.calcReadFor] : "";
      if (html) el.innerHTML = html;            // markup made and escaped by calculator.page
      else el.textContent = "";
      el.hidden = !html;
    }
  }

  // ---- status ------------------------------------------------------------------------------------------
  // The stage in the reader's words (status.<stage> for every STATUS value; sitebuild/strings.py requires them),
  // with the bytes downloaded so far while the runtime arrives.
  showStatus(status, code, progress) {
    let message = text(`status.${status}`);
    let values = {};
    if (status === STATUS.FAILED) {
      message = `${text("status.failed")} ${text(`failure.${code}`, text("failure.start"))}`;
    } else if (status === STATUS.DOWNLOADING && progress && progress.total > 0) {
      message = text("status.downloading_bytes", message);
      values = { done: MEGABYTES.format(Math.min(progress.done || 0, progress.total) / 1e6),
                 total: MEGABYTES.format(progress.total / 1e6) };
    }
    const shown = JSON.stringify([message, values]);
    if (message && this.shownStatus !== shown) {
      this.statusEl.replaceChildren(...filledNodes(message, values));
      this.shownStatus = shown;
    }
    this.statusEl.dataset.calcStatus = status;
    if (this.progressEl) {
      // Through every stage: the bytes while the runtime arrives, then a moving bar while Python starts and the
      // estimator loads (stages with no measure of their own), gone when ready or failed.
      const loading = [STATUS.DOWNLOADING, STATUS.STARTING, STATUS.LOADING].includes(status);
      this.progressEl.hidden = !loading;
      if (status === STATUS.DOWNLOADING && progress && progress.total > 0) {
        this.progressEl.max = progress.total;
        this.progressEl.value = Math.min(progress.done || 0, progress.total);
      } else if (loading && status !== STATUS.DOWNLOADING) {
        this.progressEl.removeAttribute("value");           // indeterminate
      }
    }
    if (status === STATUS.FAILED) this.root.dataset.calcState = "error";
    if (this.run) this.run.runtimeStatus(status);
    if (status === STATUS.READY) {
      this.fieldset.disabled = false;
      if (this.run) this.run.refresh();
      this.form.sync();
      if (this.pendingLink) {
        this.applyLink(this.pendingLink);
      } else if (!same(this.form.read(), this.form.read(true))) {
        this.compute();
      } else {
        this.root.dataset.calcState = "ready";
        // The figures on screen are the build's; their answers go into the worker's memo now, while the reader
        // reads, so that a first change which shares most of them ("what fits" with another card) asks one.
        runtime.call("render", { kind: this.kind, raw: this.form.read(), fixed: this.fixed, imported: this.imported,
                         widget: this.id, warm: true });
      }
    }
  }

  showNotice(key) {
    this.noticeEl.textContent = text(`notice.${key}`);
    this.noticeEl.hidden = false;
  }

  // ---- links -------------------------------------------------------------------------------------------
  // What differs from the defaults, for the address.
  diff() {
    const out = {};
    for (const [key, value] of Object.entries(this.good)) {
      if (!same(value, this.defaults[key])) out[key] = value;
    }
    if (Object.keys(this.imported).length) out.imported = this.imported;
    return Object.keys(out).length ? out : null;
  }

  takeLink(entry) {
    // Checked now for shape; applied when the runtime is ready (the inputs are disabled until then).
    if (!isObject(entry) || ("imported" in entry && !isObject(entry.imported))) return false;
    this.pendingLink = entry;
    if (runtime.status === STATUS.READY) this.applyLink(entry);
    return true;
  }

  // Python says which control values show the link's state (a model named by its repo, "Qwen/Qwen3-8B", is its
  // catalogue entry), or refuses it; they go into the form, then it computes.
  async applyLink(entry) {
    this.pendingLink = null;
    const { imported, ...values } = entry;
    this.imported = imported || {};
    const { answer } = await runtime.call("render", { kind: this.kind, state: { ...this.defaults, ...values } });
    if (answer.ok !== true || !this.form.write(answer.controls || {})) {
      this.resetToDefaults();
      return;
    }
    const ok = await this.compute({ fromLink: true });
    if (ok) this.showNotice("link_applied");
  }

  resetToDefaults() {
    this.form.write(this.form.read(true));
    this.imported = {};
    if (this.run) this.run.showImported("");
    this.errors.clear();
    this.showNotice("link_invalid");
    this.good = { ...this.defaults };
    this.spare = [];
    if (runtime.status === STATUS.READY) this.root.dataset.calcState = "ready";
    writeUrl();
  }

  // ---- a model's config read from Hugging Face: offered for an owner/name id the catalogue lacks (Page.search's
  // `fetch`), asked only on the button's click, step by step as Page.hub says; what it reads goes into the paste box.
  offerHub(repo) {
    if (!this.hubBox || this.hubBox.dataset.repo === (repo || "")) return;
    this.hubBox.dataset.repo = repo || "";
    this.hubBox.hidden = !repo;
    this.showHub("", "");
  }

  showHub(note, error) {
    this.hubBox.querySelector("[data-calc-hub-status]").innerHTML = note;   // markup made and escaped by calculator.page
    const box = this.hubBox.querySelector("[data-calc-hub-error]");
    box.innerHTML = error;
    box.hidden = !error;
  }

  async readHub() {
    const replies = {};
    let answer = null;
    this.showHub("", "");
    for (let step = 0; step < 4; step++) {
      answer = (await runtime.call("hub", { repo: this.hubBox.dataset.repo, replies })).answer;
      if (!answer.fetch) break;
      this.hubBox.querySelector("[data-calc-hub-status]").textContent = answer.reading;
      replies[answer.fetch] = await hubGet(answer.fetch, answer.max_bytes, answer.timeout_ms);
    }
    if (answer.ok !== true || answer.fetch) {
      this.showHub("", answer.message || text("errors.internal_error"));
      return;
    }
    this.form.write(answer.controls || {});   // the paste box (a link stores it as a paste) or a catalogue entry
    this.showHub(answer.note, "");
    await this.compute();
  }

  // ---- computing ---------------------------------------------------------------------------------------
  onEdit(event, typing) {
    const target = event.target;
    // a picker's search box (Picker handles it) and the paste boxes of "Run it" carry no data-calc-field
    if (!(target instanceof Element) || !target.dataset.calcField) return;
    const typed = target.matches("input[type=text], input:not([type]), textarea");
    if (typing !== typed) return;  // typed text recomputes on input (debounced), everything else on change
    this.lastEdited = target.dataset.calcField;
    this.form.sync();
    this.noticeEl.hidden = true;
    this.schedule(typing);
  }

  schedule(typing) {
    clearTimeout(this.timer);
    if (typing) this.timer = setTimeout(() => this.compute(), TYPING_DELAY_MS);
    else this.compute();
  }

  async compute(options = {}) {
    if (runtime.status !== STATUS.READY) return false;
    const token = ++this.token;
    const started = performance.now();
    const { answer, ms: pythonMs, longest: longestMs, lost } = await runtime.call("render", {
      kind: this.kind, raw: this.form.read(), fixed: this.fixed, imported: this.imported, edited: this.lastEdited,
      widget: this.id });
    if (token !== this.token || (lost && runtime.status !== STATUS.READY)) return false;
    this.showReadings(answer.read);
    if (answer.controls) this.form.write(answer.controls);   // what Python's form rules set (a framework's)
    if (answer.ok !== true) {
      this.errors.show(Array.isArray(answer.errors) ? answer.errors : internalAnswer().errors,
        this.lastEdited, options.fromLink ? null : (box) => this.reveal(box));
      if (this.run) this.run.markStale();
      if (options.fromLink) this.resetToDefaults();
      else this.root.dispatchEvent(new CustomEvent("calc:refused"));
      return false;
    }
    this.errors.clear(true);
    this.fragment.innerHTML = answer.html;   // markup made and escaped by calculator.page
    if (this.gpuClass !== "all") this.showGpuClass();
    for (const picker of this.pickers) picker.markSelected();   // a link or a reset may have changed the drop-down
    for (const [name, html] of Object.entries(answer.slots || {})) {
      const slot = this.root.querySelector(`[data-calc-slot-out="${CSS.escape(name)}"]`);
      if (slot) slot.innerHTML = html;
    }
    this.good = answer.link;
    this.spare = Array.isArray(answer.spare) ? answer.spare : [];
    this.root.dataset.calcState = "ready";
    this.announce(answer.summary);
    writeUrlSoon();
    if (this.run) this.run.refreshSoon();
    this.root.dispatchEvent(new CustomEvent("calc:rendered", { detail: { ms: performance.now() - started, pythonMs, longestMs } }));
    return true;
  }

  announce(summary) {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      if (this.announceEl && summary) this.announceEl.textContent = summary;
    }, ANNOUNCE_DELAY_MS);
  }
}

// A picker: the search box of the model or card drop-down (page/form.py `picker`), the WAI-ARIA APG "editable
// combobox with list autocomplete": focus stays in the text box, the highlighted option is its
// aria-activedescendant. Python (Page.search) renders the options that match, in their order; this shows them,
// highlights, and puts the chosen value into the drop-down, which stays the value the widget reads.
const SEARCH_DELAY_MS = 60;       // a search per pause in typing, not per key

class Picker {
  constructor(root, widget) {
    this.root = root;
    this.widget = widget;
    this.key = root.dataset.calcPicker;
    this.input = root.querySelector('[role="combobox"]');
    this.list = root.querySelector('[role="listbox"]');
    this.none = root.querySelector("[data-calc-picker-none]");
    this.status = root.querySelector("[data-calc-picker-status]");
    this.select = widget.root.querySelector(`select[data-calc-field="${CSS.escape(this.key)}"]`);
    this.active = null;
    this.token = 0;
    this.timer = 0;
    if (!this.input || !this.select) return;
    root.hidden = false;
    this.input.addEventListener("input", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.query(true), SEARCH_DELAY_MS);
    });
    this.input.addEventListener("keydown", (event) => this.onKey(event));
    this.input.addEventListener("blur", () => this.setOpen(false));
    this.list.addEventListener("pointerdown", (event) => event.preventDefault());   // the text box keeps focus
    this.list.addEventListener("click", (event) => {
      const option = event.target instanceof Element ? event.target.closest('[role="option"]') : null;
      if (option) this.choose(option);
    });
    this.select.addEventListener("change", () => this.markSelected());
  }

  isOpen() {
    return !this.list.hidden;
  }

  shown() {
    return Array.from(this.list.querySelectorAll('[role="option"]'));
  }

  setOpen(open) {
    this.list.hidden = !open;
    this.input.setAttribute("aria-expanded", String(open));
    if (!open) this.highlight(null);
  }

  highlight(option) {
    if (this.active) this.active.classList.remove("calc-picker__option--active");
    this.active = option;
    if (!option) {
      this.input.removeAttribute("aria-activedescendant");
      return;
    }
    option.classList.add("calc-picker__option--active");
    this.input.setAttribute("aria-activedescendant", option.id);
    option.scrollIntoView({ block: "nearest" });
  }

  markSelected() {
    if (!this.select) return;
    for (const o of this.shown()) o.setAttribute("aria-selected", String(o.dataset.value === this.select.value));
  }

  // Ask Python for the matches of what is typed, grouped, the groups in the order of their best match.
  async query(announce, highlight = true) {
    const token = ++this.token;
    const { answer } = await runtime.call("search", { kind: this.key, text: this.input.value, listbox: this.list.id });
    if (token !== this.token || answer.ok !== true || typeof answer.options !== "string") return false;
    this.list.innerHTML = answer.options;   // markup made and escaped by calculator.page
    this.markSelected();
    const shown = this.shown();
    this.none.hidden = shown.length > 0;
    if (this.key === "model") this.widget.offerHub(answer.fetch);
    if (shown.length && document.activeElement === this.input) {   // an answer after the box lost focus stays shut
      this.setOpen(true);
      this.highlight(highlight ? shown[0] : null);
    } else {
      this.setOpen(false);
    }
    if (announce && this.status) this.status.textContent = String(answer.announce || "");
    return true;
  }

  move(step) {
    const shown = this.shown();
    if (!shown.length) return;
    const at = shown.indexOf(this.active);
    const next = at < 0 ? (step > 0 ? 0 : shown.length - 1) : (at + step + shown.length) % shown.length;
    this.highlight(shown[next]);
  }

  async onKey(event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      if (!this.isOpen()) {
        if (!(await this.query(true, !event.altKey))) return;   // Alt+Down opens the list only
        if (event.altKey) return;
        if (step < 0) this.move(-1);                   // Up opens on the last option
        return;
      }
      this.move(step);
    } else if (event.key === "Enter") {
      if (this.isOpen() && this.active) {
        event.preventDefault();
        this.choose(this.active);
      }
    } else if (event.key === "Escape") {
      if (this.isOpen()) {
        event.preventDefault();
        this.setOpen(false);
      } else if (this.input.value) {
        event.preventDefault();
        this.input.value = "";                         // the APG: Escape on a closed list clears the box
        this.token++;                                  // (an answer still on its way is for the old text)
        this.none.hidden = true;
        if (this.status) this.status.textContent = "";
      }
    }
  }

  choose(option) {
    const value = option.dataset.value;
    const name = option.querySelector(".calc-picker__name");
    this.input.value = name ? name.textContent : value;
    this.setOpen(false);
    if (this.select.value !== value) {
      this.select.value = value;
      this.select.dispatchEvent(new Event("change", { bubbles: true }));   // the widget recomputes, as for a choice
    }
    this.markSelected();
  }
}

// ---- "Run it": the estimator's setup as each framework's files, and a pasted training config read into the form ----
// Python renders the tabs (Page.run, once the worker has loaded the exporters); this class opens and closes the
// section, keeps the reader's tab when the tabs are redrawn, moves between tabs with the arrow keys (the tabs
// pattern of the ARIA Authoring Practices; mirrored in a right-to-left page), copies and downloads a file's text as
// shown, and sends the paste boxes to Python, writing what it read into the form.
class RunIt {
  constructor(widget) {
    this.widget = widget;
    const root = widget.root;
    this.section = root.querySelector("[data-calc-run]");
    this.toggle = this.section.querySelector("[data-calc-run-toggle]");
    this.body = this.section.querySelector("[data-calc-run-body]");
    this.statusEl = this.section.querySelector("[data-calc-run-status]");
    this.staleEl = this.section.querySelector("[data-calc-run-stale]");
    this.fragment = this.section.querySelector("[data-calc-run-fragment]");
    this.importBox = root.querySelector("[data-calc-import-box]");
    this.importError = root.querySelector("[data-calc-import-error]");
    this.importResult = root.querySelector("[data-calc-import-result]");
    this.tab = "";                 // the reader's tab (a target), kept across redraws
    this.token = 0;
    this.timer = 0;
    this.section.addEventListener("keydown", (event) => this.onKey(event));
    runtime.laterListeners.add((status) => this.laterStatus(status));
    // A paste is the sign the exporters will be wanted: start loading them (they read the YAML).
    if (this.importBox) this.importBox.addEventListener("paste", () => this.preload());
  }

  isOpen() {
    return this.toggle.getAttribute("aria-expanded") === "true";
  }

  setOpen(open) {
    this.toggle.setAttribute("aria-expanded", String(open));
    this.body.hidden = !open;
    if (open) {
      runtime.start();
      this.refresh();
    }
  }

  say(key) {
    this.statusEl.textContent = key ? text(key) : "";
  }

  runtimeStatus(status) {
    if (!this.isOpen()) return;
    if (status === STATUS.FAILED) this.say("run.failed");
    else if (status !== STATUS.READY) this.say(`status.${status}`);
  }

  laterStatus(status) {
    if (status === STATUS.LOADING && this.isOpen()) this.say("run.loading");
    if (status === STATUS.FAILED && (this.isOpen() || this.importBox)) this.say("run.failed");
  }

  preload() {
    if (runtime.status !== STATUS.READY || runtime.later === STATUS.READY || runtime.later === STATUS.LOADING) return;
    runtime.call("run", { action: "preload" });
  }

  refreshSoon() {
    if (!this.isOpen()) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), TYPING_DELAY_MS);
  }

  markStale() {
    if (this.fragment.childElementCount) this.staleEl.hidden = false;
  }

  async refresh() {
    if (!this.isOpen()) return;
    if (runtime.status !== STATUS.READY) {
      this.runtimeStatus(runtime.status);
      return;                                     // showStatus(READY) asks again
    }
    const token = ++this.token;
    if (runtime.later !== STATUS.READY) this.say("run.loading");
    this.section.dataset.calcRunState = "loading";
    const { answer, lost } = await runtime.call("run", { action: "export", kind: this.widget.kind,
      raw: this.widget.form.read(), fixed: this.widget.fixed, imported: this.widget.imported, wid: this.widget.id });
    if (token !== this.token) return;
    if (answer.ok !== true) {
      if (runtime.later === STATUS.FAILED || lost) {
        this.say("run.failed");
        this.section.dataset.calcRunState = "error";
      } else {
        this.say("");
        this.section.dataset.calcRunState = "stale";
      }
      this.markStale();
      return;
    }
    this.fragment.innerHTML = answer.html;       // markup made and escaped by calculator.page
    this.staleEl.hidden = true;
    this.say("");
    if (this.tab) this.select(this.tab, false);
    this.section.dataset.calcRunState = "ready";
    this.section.dispatchEvent(new CustomEvent("calc:run-rendered"));
  }

  // ---- tabs ----------------------------------------------------------------------------------------------
  tabs() {
    return Array.from(this.section.querySelectorAll('[role="tab"]'));
  }

  select(target, focus) {
    const tabs = this.tabs();
    if (!tabs.some((t) => t.dataset.calcTab === target)) return;
    this.tab = target;
    for (const tab of tabs) {
      const on = tab.dataset.calcTab === target;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
    for (const panel of this.section.querySelectorAll('[role="tabpanel"]')) {
      panel.hidden = panel.dataset.calcTabpanel !== target;
    }
  }

  onKey(event) {
    const tab = event.target instanceof Element ? event.target.closest('[role="tab"]') : null;
    if (!tab) return;
    const tabs = this.tabs();
    const at = tabs.indexOf(tab);
    const rtl = getComputedStyle(tab).direction === "rtl";
    const next = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
    let to = -1;
    if (next) to = (at + next + tabs.length) % tabs.length;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = tabs.length - 1;
    if (to < 0) return;
    event.preventDefault();
    this.select(tabs[to].dataset.calcTab, true);
  }

  // The file a copy or download button is for: its <pre>, named by the button's attribute.
  fileOf(button, attr) {
    return document.getElementById(button.getAttribute(attr)) || document.createElement("pre");
  }

  async copy(button) {
    const pre = this.fileOf(button, "data-calc-copy");
    const name = button.closest("[data-calc-file]").dataset.calcFile;
    try {
      await navigator.clipboard.writeText(pre.textContent);
      this.statusEl.replaceChildren(...filledNodes(text("run.copied"), { file: name }));
    } catch (error) {
      const range = document.createRange();     // select it, so that the reader's own copy takes it
      range.selectNodeContents(pre);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      this.say("run.copy_failed");
    }
  }

  download(button) {
    const blob = new Blob([this.fileOf(button, "data-calc-download").textContent], { type: "text/plain;charset=utf-8" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = button.dataset.file;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  }

  // ---- a pasted training config --------------------------------------------------------------------------
  showImported(html) {
    if (this.importResult) this.importResult.innerHTML = html;   // markup made and escaped by calculator.page
  }

  // The errors under the box (Python's line of them, run.py `_refused`), or none ("").
  showImportErrors(html) {
    this.importError.innerHTML = html;   // markup made and escaped by calculator.page
    this.importError.hidden = !html;
    invalid(this.importBox.querySelector('[data-calc-import="main"]'), html ? this.importError.id : null);
  }

  async readPaste() {
    const files = {};
    for (const area of this.importBox.querySelectorAll("[data-calc-import]")) files[area.dataset.calcImport] = area.value;
    this.showImportErrors("");
    const { answer } = await runtime.call("run", { action: "import", kind: this.widget.kind, files });
    if (answer.ok !== true) {
      this.showImportErrors(answer.errors_html || text("errors.internal_error"));
      this.showImported(answer.html || "");
      return;
    }
    const w = this.widget;
    if (!answer.controls || !w.form.write(answer.controls)) {
      this.showImportErrors(text("errors.internal_error"));
      return;
    }
    w.imported = answer.imported || {};
    this.showImported(answer.html);
    await w.compute();
  }

  forget() {
    this.widget.imported = {};
    this.showImported("");
    this.widget.compute();
  }
}

// ---- Start --------------------------------------------------------------------------------------------------------
const widgets = [];

function applyLink({ scroll = true } = {}) {
  const link = readLink();
  const { anchor } = splitHash(location.hash);
  // An anchor beside the state: the browser found no element for the whole fragment, so go to the anchor here.
  const section = anchor ? document.getElementById(anchor) : null;
  if (scroll && section && link.present) section.scrollIntoView();
  if (!link.present) return;
  const first = widgets[0];
  if (!link.valid) {
    if (first) first.showNotice("link_invalid");
    const url = new URL(location.href);
    url.hash = joinHash(anchor, null);
    written = null;
    history.replaceState(history.state, "", url.href);
    return;
  }
  written = splitHash(location.hash).state;
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
    if (scroll && !section) target.root.scrollIntoView({ block: "start" });
    runtime.start();
  }
}

function nearView(root) {
  const box = root.getBoundingClientRect();
  return box.bottom > -200 && box.top < window.innerHeight + 200;
}

function main() {
  const roots = Array.from(document.querySelectorAll("[data-calc-root]"));
  if (!roots.length) return;
  for (const root of roots) {
    try {
      widgets.push(new Widget(root));
    } catch (error) {
      root.dataset.calcState = "error";
    }
  }
  document.documentElement.dataset.calcRuntime = runtime.status;
  runtime.listeners.add((status, code, progress) => {
    for (const widget of widgets) widget.showStatus(status, code, progress);
  });
  // The build wrote what is true without JavaScript (figures for the defaults); the idle status adds that the
  // calculator loads when it is reached, which only a page running this script can promise.
  for (const widget of widgets) widget.showStatus(runtime.status, runtime.code, runtime.progress);
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
  applyLink();
  window.addEventListener("hashchange", onHashChange);
  // window capture listeners run before assets/site.js's document listener.
  for (const type of ["pointerdown", "keydown", "click"]) window.addEventListener(type, flushUrl, true);
  window.addEventListener("pagehide", flushUrl);
}

moveQueryState();

// A page that opens with a widget (the calculator page) starts the runtime now, while the page is still parsed.
if (document.querySelector('meta[name="calc-start"][content="eager"]')) runtime.start();
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main, { once: true });
else main();
