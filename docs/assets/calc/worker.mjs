// The calculator's one Pyodide runtime: a module worker (Pyodide 314 needs `{type: "module"}`), started by calc.js
// when the first widget comes into view. It loads the bundled runtime and the `calculator` wheel from this site only
// (no micropip, no CDN), then answers each widget's RENDER with `calculator.page.Page.render`: the inputs read,
// estimated and rendered in Python, the same code the site build ran. The first RUN (a reader opening "Run it", or
// pasting a training config) loads the second wheel, the exporters with their YAML library, and every RUN is
// answered by `Page.run`. Messages: protocol.mjs.
//
// Failure never hangs: a runtime file that fails to download (blocked, 404) or to compile (corrupt wasm) is reported
// at once, because Pyodide itself only logs such errors and waits for ever. Python exceptions never reach the page:
// Page.render answers every bug as the API's `internal_error`, and so does this file if the call itself fails.

import { MESSAGE, STATUS } from "./protocol.mjs";

let page = null;          // calculator.page.Page for this page's language
let failed = false;
let started = false;
let runtimeBase = "";
let wheelURL = "";
let laterURLs = [];       // the second load: the exporters' wheel and the YAML library, on the first RUN
let later = null;         // its promise (true once calculator.export imports); a failed one is tried again
let pyodide = null;
let internalError = "";   // the answer for a call that failed outside Python's own boundary

function post(message) {
  self.postMessage(message);
}

// Stages only move forward (resource timing can report the last file after Python has already started).
const ORDER = [STATUS.DOWNLOADING, STATUS.STARTING, STATUS.LOADING, STATUS.READY];
let stage = -1;

function status(value, extra = {}) {
  const rank = ORDER.indexOf(value);
  if (failed || rank < stage || (rank === stage && value !== STATUS.DOWNLOADING)) return;
  stage = rank;
  post({ type: MESSAGE.STATUS, status: value, ...extra });
}

function fail(code) {
  if (failed) return;
  failed = true;
  post({ type: MESSAGE.STATUS, status: STATUS.FAILED, code });
}

function urlOf(input) {
  if (typeof input === "string") return input;
  if (input && typeof input.url === "string") return input.url;
  return String(input);
}

// A runtime file that is missing or blocked fails at once (Pyodide would wait for ever). The responses are passed
// on untouched, so the browser keeps its compiled-wasm cache, which is keyed on the original response.
function watchDownloads() {
  const realFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const url = urlOf(input);
    const ours = url.startsWith(runtimeBase) || url === wheelURL;
    let response;
    try {
      response = await realFetch(input, init);
    } catch (error) {
      if (ours) fail("download");
      throw error;
    }
    if (ours && !response.ok) fail("download");
    return response;
  };
}

// Progress: the bytes of the runtime's files that have arrived (resource timing reports each file when it is
// complete), against the total the build measured (the runtime's core files). "starting" once all of them are
// here: Python then initialises from them.
function watchProgress(total) {
  if (typeof PerformanceObserver !== "function") return;
  let done = 0;
  const seen = new Set();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.name.startsWith(runtimeBase) || seen.has(entry.name)) continue;
      seen.add(entry.name);
      done += entry.decodedBodySize || entry.encodedBodySize || 0;
      if (page) continue;
      if (done >= total) {
        observer.disconnect();
        status(STATUS.STARTING);
      } else {
        status(STATUS.DOWNLOADING, { done, total });
      }
    }
  });
  observer.observe({ type: "resource", buffered: true });
}

function watchCompile() {
  const wasm = self.WebAssembly;
  for (const name of ["instantiateStreaming", "instantiate", "compileStreaming", "compile"]) {
    const real = wasm[name];
    if (typeof real !== "function") continue;
    wasm[name] = function (...args) {
      return Promise.resolve(real.apply(wasm, args)).catch((error) => {
        fail("wasm");
        throw error;
      });
    };
  }
}

async function init(message) {
  if (started) return;
  started = true;
  runtimeBase = String(message.indexURL);
  wheelURL = String(message.wheelURL);
  laterURLs = Array.isArray(message.laterURLs) ? message.laterURLs.map(String) : [];
  const strings = message.strings || {};
  internalError = JSON.stringify({ ok: false, errors: [{ field: null, code: "internal_error", quiet: false,
    message: String((strings.errors || {}).internal_error || "") }] });
  status(STATUS.DOWNLOADING, { done: 0, total: Number(message.bytes) || 0 });
  watchDownloads();
  watchCompile();
  watchProgress(Number(message.bytes) || 0);
  try {
    const { loadPyodide } = await import(runtimeBase + "pyodide.mjs");
    if (failed) return;
    // packageBaseUrl: Pyodide's fallback for packages is its CDN; pointing it at this site keeps every request here.
    pyodide = await loadPyodide({
      indexURL: runtimeBase,
      packageBaseUrl: runtimeBase,
      stdout: () => {},
      stderr: () => {},
    });
    if (failed) return;
    status(STATUS.STARTING);   // every file is here by now, whenever resource timing reports the last one
    status(STATUS.LOADING);
    // The calculator wheel, built from calculator/ when the site was built, from this site only.
    await pyodide.loadPackage(wheelURL, { messageCallback: () => {}, errorCallback: () => fail("download") });
    if (failed) return;
    const calculatorPage = pyodide.pyimport("calculator.page");
    page = calculatorPage.Page(JSON.stringify(strings), String(message.lang || "en"));
    // One call right away, so the first real request does not pay for the estimator's first run.
    page.render(JSON.stringify({ kind: "estimator", raw: {}, fixed: {} }));
    status(STATUS.READY);
  } catch (error) {
    fail("start");
  }
}

function render(message) {
  let answer = internalError;
  const started = performance.now();
  if (page) {
    try {
      const out = page.render(JSON.stringify({ kind: message.kind, raw: message.raw || {}, fixed: message.fixed || {},
        imported: message.imported || {} }));
      if (typeof out === "string") answer = out;
    } catch (error) {
      answer = internalError;
    }
  }
  post({ type: MESSAGE.RENDERED, id: message.id, answer, ms: performance.now() - started });
}

// The second load, once: the exporters' wheel and the pure-Python YAML library (sitebuild/wheel.py), from this site.
// A file that fails to arrive leaves calculator.export unimportable, which is what is checked.
function loadLater() {
  if (!later) {
    post({ type: MESSAGE.LATER, status: STATUS.LOADING });
    later = (async () => {
      let missing = !laterURLs.length;
      await pyodide.loadPackage(laterURLs, { messageCallback: () => {}, errorCallback: () => { missing = true; } });
      if (missing) throw new Error("download");
      pyodide.pyimport("calculator.export");
    })().then(() => {
      post({ type: MESSAGE.LATER, status: STATUS.READY });
      return true;
    }, () => {
      later = null;
      post({ type: MESSAGE.LATER, status: STATUS.FAILED });
      return false;
    });
  }
  return later;
}

async function run(message) {
  let answer = internalError;
  const started = performance.now();
  if (page && await loadLater()) {
    if (message.action === "preload") answer = JSON.stringify({ ok: true });
    else {
      try {
        const out = page.run(String(message.payload));
        if (typeof out === "string") answer = out;
      } catch (error) {
        answer = internalError;
      }
    }
  }
  post({ type: MESSAGE.RENDERED, id: message.id, answer, ms: performance.now() - started });
}

// A runtime file that failed leaves promises inside Pyodide rejected with nobody waiting on them: that failure
// has been reported already (or is reported now), so it is not left to surface as an uncaught error.
self.addEventListener("unhandledrejection", (event) => {
  if (!page) {
    fail("start");
    event.preventDefault();
  }
});

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === MESSAGE.INIT) init(message);
  else if (message.type === MESSAGE.RENDER) render(message);
  else if (message.type === MESSAGE.RUN) run(message);
};
