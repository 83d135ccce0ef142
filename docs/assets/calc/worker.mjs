// The calculator's one Pyodide runtime: a module worker (Pyodide 314 needs `{type: "module"}`), started by
// calc.js when the first widget comes into view. It loads the bundled runtime and the `calculator` wheel from
// this site only (no micropip, no CDN), then answers estimate requests with `calculator.api.estimate`.
//
// Protocol (all messages are plain objects):
//   page -> worker  {type: "init", indexURL, wheelURL}            once, right after the worker starts
//   page -> worker  {type: "estimate", id, inputs: [json, ...]}   a batch of API input texts
//   worker -> page  {type: "status", status: "downloading" | "starting" | "ready" | "failed", code?}
//   worker -> page  {type: "result", id, outputs: [json, ...]}     the API's output texts, same order
//
// Failure never hangs: a runtime file that fails to download (blocked, 404) or to compile (corrupt wasm) is
// reported at once, because Pyodide itself only logs such errors and waits for ever. Python exceptions never
// reach the page: any of them becomes {"ok": false, "error": {"code": "internal"}}.

let estimate = null;
let failed = false;
let started = false;
let runtimeBase = "";
let wheelURL = "";

const INTERNAL = JSON.stringify({ ok: false, error: { code: "internal", field: null } });

function post(message) {
  self.postMessage(message);
}

function fail(code) {
  if (failed) return;
  failed = true;
  post({ type: "status", status: "failed", code });
}

function urlOf(input) {
  if (typeof input === "string") return input;
  if (input && typeof input.url === "string") return input.url;
  return String(input);
}

// Watch the runtime's own downloads without touching the responses (the browser keeps its compiled-wasm cache,
// which is keyed on the original response).
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

function watchCompile() {
  const wasm = self.WebAssembly;
  for (const name of ["instantiateStreaming", "instantiate", "compileStreaming", "compile"]) {
    const real = wasm[name];
    if (typeof real !== "function") continue;
    wasm[name] = function (...args) {
      const result = real.apply(wasm, args);
      return Promise.resolve(result).then(
        (value) => {
          if (!failed && name.startsWith("instantiate")) post({ type: "status", status: "starting" });
          return value;
        },
        (error) => {
          fail("wasm");
          throw error;
        },
      );
    };
  }
}

async function init(message) {
  if (started) return;
  started = true;
  runtimeBase = String(message.indexURL);
  wheelURL = String(message.wheelURL);
  post({ type: "status", status: "downloading" });
  watchDownloads();
  watchCompile();
  try {
    const { loadPyodide } = await import(runtimeBase + "pyodide.mjs");
    if (failed) return;
    // packageBaseUrl: Pyodide's fallback for packages is its CDN; pointing it at this site keeps every request here.
    const pyodide = await loadPyodide({
      indexURL: runtimeBase,
      packageBaseUrl: runtimeBase,
      stdout: () => {},
      stderr: () => {},
    });
    if (failed) return;
    post({ type: "status", status: "starting" });
    // The calculator wheel, built from calculator/ when the site was built, from this site only.
    await pyodide.loadPackage(wheelURL, { messageCallback: () => {}, errorCallback: () => fail("download") });
    if (failed) return;
    const api = pyodide.pyimport("calculator.api");
    estimate = api.estimate;
    post({ type: "status", status: "ready" });
    // One call right away, so the first real request does not pay for the estimator's first run.
    estimate(JSON.stringify({ model: "llama-3.1-8b", gpu: "rtx-4090" }));
  } catch (error) {
    fail("start");
  }
}

function run(message) {
  const inputs = Array.isArray(message.inputs) ? message.inputs : [];
  const outputs = inputs.map((text) => {
    if (!estimate) return INTERNAL;
    try {
      const out = estimate(String(text));
      return typeof out === "string" ? out : INTERNAL;
    } catch (error) {
      return INTERNAL;
    }
  });
  post({ type: "result", id: message.id, outputs });
}

// A runtime file that failed leaves promises inside Pyodide rejected with nobody waiting on them: that failure
// has been reported already (or is reported now), so it is not left to surface as an uncaught error.
self.addEventListener("unhandledrejection", (event) => {
  if (!estimate) {
    fail("start");
    event.preventDefault();
  }
});

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === "init") init(message);
  else if (message.type === "estimate") run(message);
};
