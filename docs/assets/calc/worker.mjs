// The calculator's one Pyodide runtime: a module worker (Pyodide 314 needs `{type: "module"}`) that loads the bundled
// runtime and the `calculator` wheel from this site only (no micropip, no CDN) and answers each CALL with the
// `calculator.page.Page` method it names; the first RUN loads the exporters' wheel first. Messages: protocol.mjs.
//
// Progress is real through every stage: the bytes of each runtime file are counted as they arrive (a copy of the
// response is read alongside the one Pyodide consumes), then Python starts, then the estimator loads.
//
// The second page is ready sooner than the first: once Python has started and imported the estimator, the worker
// keeps a memory snapshot of it in the browser (IndexedDB), keyed on this runtime and this wheel, and the next page
// that opens a widget restores it instead of starting Python and importing the estimator again (Pyodide's
// `_makeSnapshot` / `_loadSnapshot`, the mechanism Cloudflare's Python Workers start from). A snapshot that cannot be
// read or restored is dropped and Python starts as on a first visit. Measured with `python benchmarks/page.py`.
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
let stringsURL = "";      // this language's calc strings (calculator.page reads them), fetched beside the runtime
let laterURLs = [];       // the second load: the exporters' wheel and the YAML library, on the first RUN
let later = null;         // its promise (true once calculator.export imports); a failed one is tried again
let pyodide = null;
let internalError = "";   // the answer for a call that failed outside Python's own boundary

const newest = new Map();    // widget -> the id of its newest RENDER that is not a warm-up
const SUPERSEDED = JSON.stringify({ ok: false, superseded: true, errors: [] });

const SNAPSHOT_DB = "calc-runtime";
const SNAPSHOT_STORE = "snapshots";
const REPORT_MS = 50;     // the most often the download's progress is posted

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

// Progress: bytes of the runtime's files against the total the build measured (its core files). Files fetched with
// fetch() (the wasm, the standard library, the lock file) are counted chunk by chunk; the two module scripts, which
// Pyodide imports rather than fetches, when resource timing reports them complete. "starting" once all are here.
const arrived = new Map();   // URL -> bytes so far
let total = 0;
let reportTimer = 0;

function received() {
  let done = 0;
  for (const n of arrived.values()) done += n;
  return done;
}

function report() {
  if (page || stage > 0) return;
  if (total && received() >= total) {
    clearTimeout(reportTimer);
    status(STATUS.DOWNLOADING, { done: total, total });   // the bar full, then Python starts
    status(STATUS.STARTING);
  } else if (!reportTimer) {
    reportTimer = setTimeout(() => {
      reportTimer = 0;
      const done = received();
      if (stage <= 0 && done < total) status(STATUS.DOWNLOADING, { done, total });
    }, REPORT_MS);
  }
}

async function count(url, response) {
  // A copy of the body, read as it arrives; the response itself goes to Pyodide untouched (so the browser keeps its
  // compiled-wasm cache, which is keyed on that response).
  if (!response.ok || !response.body) return;
  try {
    const reader = response.clone().body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrived.set(url, (arrived.get(url) || 0) + value.byteLength);
      report();
    }
  } catch (error) {
    // the original reports its own failure
  }
}

// A runtime file that is missing or blocked fails at once (Pyodide would wait for ever).
function watchDownloads() {
  const realFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : String((input && input.url) || input);
    const ours = url.startsWith(runtimeBase) || url === wheelURL;
    let response;
    try {
      response = await realFetch(input, init);
    } catch (error) {
      if (ours) fail("download");
      throw error;
    }
    if (ours && !response.ok) fail("download");
    if (url.startsWith(runtimeBase) && !arrived.has(url)) {
      arrived.set(url, 0);
      count(url, response);
    }
    return response;
  };
}

function watchModules() {
  if (typeof PerformanceObserver !== "function") return;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.name.startsWith(runtimeBase) || arrived.has(entry.name)) continue;
      arrived.set(entry.name, entry.decodedBodySize || entry.encodedBodySize || 0);
      report();
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

// ---- The snapshot: Python started with the estimator imported (about 31 MB of memory), in IndexedDB ----------------
// One transaction on the snapshots' store: `work` gets the store and returns the request whose result it answers;
// null when there is no IndexedDB, no room, or storage is refused (the next page then starts Python again).
async function snapshots(mode, work) {
  try {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open(SNAPSHOT_DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(SNAPSHOT_STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("blocked"));
    });
    try {
      return await new Promise((resolve, reject) => {
        const tx = db.transaction(SNAPSHOT_STORE, mode);
        const result = work(tx.objectStore(SNAPSHOT_STORE));
        tx.oncomplete = () => resolve(result.result);
        tx.onerror = tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  } catch (error) {
    return null;
  }
}

async function readSnapshot(key) {
  const value = await snapshots("readonly", (store) => store.get(key));
  return value && value.bytes instanceof ArrayBuffer && value.bytes.byteLength === value.length
    ? new Uint8Array(value.bytes) : null;
}

// One snapshot per origin: the one of the runtime and wheel this site serves now.
function writeSnapshot(key, bytes) {
  return snapshots("readwrite", (store) => {
    const copy = bytes.slice().buffer;
    store.clear();
    return store.put({ bytes: copy, length: copy.byteLength }, key);
  });
}

function dropSnapshot() {
  return snapshots("readwrite", (store) => store.clear());
}

// The strings file, parsed; a file that does not arrive (or is not JSON) fails the start as a download.
async function readStrings() {
  try {
    const response = await fetch(stringsURL);
    if (!response.ok) throw new Error(String(response.status));
    return await response.json();
  } catch (error) {
    fail("download");
    throw error;
  }
}

// ---- Starting -----------------------------------------------------------------------------------------------------
// The wheel, built from calculator/ when the site was built, unpacked into site-packages and imported. Done by
// Python's zipfile rather than pyodide.loadPackage, which keeps JavaScript objects alive that a snapshot cannot hold.
async function installEstimator(pyodide) {
  const response = await fetch(wheelURL);     // a failure is reported by watchDownloads
  if (!response.ok) throw new Error(`wheel: HTTP ${response.status}`);
  pyodide.FS.writeFile("/tmp/calculator.whl", new Uint8Array(await response.arrayBuffer()));
  pyodide.runPython(`
import importlib, sys, zipfile
with zipfile.ZipFile("/tmp/calculator.whl") as wheel:
    wheel.extractall(next(p for p in sys.path if p.endswith("site-packages")))
importlib.invalidate_caches()
import calculator.page
`);
  pyodide.FS.unlink("/tmp/calculator.whl");
}

function answers(candidate, strings, lang, restored) {
  const made = candidate.pyimport("calculator.page").Page(JSON.stringify(strings), lang);
  // A restored snapshot is proved sound by one answer before "ready" (a snapshot that cannot answer is dropped and
  // Python started instead). A runtime started here needs no proof: the estimator's first run is the warm-up of the
  // widgets' own states that calc.js asks for at "ready" (render with `warm`), which any change of theirs overtakes,
  // so it is not paid twice, and not before "ready" (60-90 ms of the cold start in Chromium).
  if (restored) {
    const out = made.render(JSON.stringify({ kind: "estimator", raw: {}, fixed: {} }));
    if (JSON.parse(out).ok !== true) throw new Error("estimator");
  }
  // What is alive now (the estimator, its catalogue and string tables: about 26,000 objects) lives as long as the page:
  // Python's cycle collector stops scanning it. A full collection with the memo full took 22.8 ms in Pyodide (node),
  // inside whichever call it fell in; after gc.freeze(), it scans only what the changes made.
  candidate.runPython("import gc; gc.freeze()");
  return made;
}

async function init(message) {
  if (started) return;
  started = true;
  runtimeBase = String(message.indexURL);
  wheelURL = String(message.wheelURL);
  total = Number(message.bytes) || 0;
  laterURLs = Array.isArray(message.laterURLs) ? message.laterURLs.map(String) : [];
  const lang = String(message.lang || "en");
  stringsURL = String(message.stringsURL);
  status(STATUS.DOWNLOADING, { done: 0, total });
  watchDownloads();
  watchCompile();
  watchModules();
  const key = `${runtimeBase} ${wheelURL}`;
  try {
    // The page's strings (one cached file per language, sitebuild/strings.py) arrive beside the runtime.
    const [{ loadPyodide }, snapshot, strings] = await Promise.all([import(runtimeBase + "pyodide.mjs"),
                                                                      readSnapshot(key), readStrings()]);
    if (failed) return;
    // No call reaches Python before "ready", so the answer to one that fails outside its boundary can wait for them.
    internalError = JSON.stringify({ ok: false, errors: [{ field: null, code: "internal_error", quiet: false,
      message: String((strings.errors || {}).internal_error || "") }] });
    // packageBaseUrl: Pyodide's fallback for packages is its CDN; pointing it at this site keeps every request here.
    const options = { indexURL: runtimeBase, packageBaseUrl: runtimeBase, stdout: () => {}, stderr: () => {} };
    let made = null;
    let from = "start";          // how this runtime began: Python started here, or restored from a snapshot
    if (snapshot) {
      try {
        const restored = await loadPyodide({ ...options, _loadSnapshot: snapshot });
        status(STATUS.STARTING);
        status(STATUS.LOADING);
        page = answers(restored, strings, lang, true);
        pyodide = restored;        // the second load (calculator.export) installs into this runtime
        from = "snapshot";
      } catch (error) {
        if (failed) return;
        page = null;
        dropSnapshot();
      }
    }
    if (!page) {
      pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
      if (failed) return;
      status(STATUS.STARTING);   // every file is here by now, whenever the last one was counted
      status(STATUS.LOADING);
      await installEstimator(pyodide);
      if (failed) return;
      try {
        made = pyodide.makeMemorySnapshot();
      } catch (error) {
        made = null;             // the page works without it; the next one starts Python again
      }
      page = answers(pyodide, strings, lang, false);
    }
    // The snapshot's write starts before "ready": the widgets' warm-ups that "ready" brings then share the worker with
    // it instead of going first, so a reader who leaves soon after still leaves the next page a snapshot.
    if (made) writeSnapshot(key, made);
    status(STATUS.READY, { from });
  } catch (error) {
    fail("start");             // a file that failed to arrive has been reported as such already
  }
}

// The next task of this worker's event loop (a message from the page goes first if one is waiting).
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
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

// One CALL: the Page method it names (`op`) asked with the message's other fields, its answer (JSON text) posted
// back, or internal_error where the call fails outside Python's own boundary; "run" loads the exporters first. A
// render is answered in slices (Page.prepare, for calculator.page.SLICE_MS or one request each, with the worker's
// other messages between them); a warm-up gives way to any change of its widget, a change to a newer one, which
// makes it answer SUPERSEDED (the page has moved on).
async function call(message) {
  const { type, id, op, widget: _, warm, ...fields } = message;   // what the Page method reads
  const text = JSON.stringify(fields);
  let answer = internalError;
  let python = 0;
  let longest = 0;
  const widget = message.widget === undefined ? null : String(message.widget);
  if (widget !== null && !warm) newest.set(widget, id);
  const mine = widget === null ? undefined : newest.get(widget);
  const timed = (work) => {
    const t = performance.now();
    try {
      return work();
    } finally {
      const d = performance.now() - t;
      python += d;
      longest = Math.max(longest, d);
    }
  };
  try {
    if (page && (op !== "run" || await loadLater())) {
      while (op === "render" && Number(timed(() => page.prepare(text))) > 0) {
        await nextTask();
        if (widget !== null && newest.get(widget) !== mine) {
          post({ type: MESSAGE.ANSWER, id, answer: SUPERSEDED, ms: python, longest });
          return;
        }
      }
      answer = op === "run" && fields.action === "preload" ? JSON.stringify({ ok: true }) : timed(() => page[op](text));
      // The warm-ups' answers (the widgets' shown states) live as long as the page, like the estimator itself.
      if (warm && pyodide) timed(() => pyodide.runPython("import gc; gc.freeze()"));
    }
  } catch (error) {
    answer = internalError;
  }
  post({ type: MESSAGE.ANSWER, id, answer: typeof answer === "string" ? answer : internalError, ms: python, longest });
}

// A runtime file that failed leaves promises inside Pyodide rejected with nobody waiting on them: that failure
// has been reported already (or is reported now), so it is not left to surface as an uncaught error.
self.addEventListener("unhandledrejection", (event) => {
  if (!page) {
    fail("start");
    event.preventDefault();
  }
});

const CALLS = ["render", "run", "search", "hub"];   // the Page methods a CALL may name

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === MESSAGE.INIT) init(message);
  else if (message.type === MESSAGE.CALL && CALLS.includes(message.op)) call(message);
};
