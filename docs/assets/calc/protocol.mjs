// The messages between the page (calc.js) and the calculator's worker (worker.mjs), defined once and imported by
// both (Material's search worker defines its messages the same way). All messages are plain objects.

/** Message kinds. */
export const MESSAGE = Object.freeze({
  INIT: "init",          // page -> worker, once: where the runtime, the wheel and the language's strings file are
  STATUS: "status",      // worker -> page: how far the runtime got
  CALL: "call",          // page -> worker: one call of calculator.page.Page, by `op` (render, search, hub, run)
  ANSWER: "answer",      // worker -> page: the answer to one CALL, by its id
  LATER: "later",        // worker -> page: how far the second load (the exporters and their YAML library) got
});

/** Runtime stages, in order; "failed" can follow any of them. */
export const STATUS = Object.freeze({
  IDLE: "idle",
  DOWNLOADING: "downloading",   // the runtime's files are downloading (done / total bytes come with it)
  STARTING: "starting",         // every file is here; Python is starting
  LOADING: "loading",           // Python runs; the estimator wheel is being loaded
  READY: "ready",
  FAILED: "failed",
});

/**
 * @typedef {{type: "init", indexURL: string, wheelURL: string, laterURLs: string[], bytes: number,
 *            stringsURL: string, lang: string}} InitMessage
 * @typedef {{type: "status", status: string, code?: string, done?: number, total?: number, from?: string}}
 *   StatusMessage   (with "ready": how it began)
 * @typedef {{type: "later", status: "loading"|"ready"|"failed"}} LaterMessage
 * @typedef {{type: "call", id: number, op: "render"|"search"|"hub"|"run", widget?: string, warm?: boolean}}
 *   CallMessage (its other fields: the message the Page method reads; CONTRIBUTING.md): a render's `widget` lets a
 *   newer change of that widget stop an older one, `warm` marks the state the page already shows (never drawn)
 * @typedef {{type: "answer", id: number, answer: string, ms: number, longest?: number}} AnswerMessage
 *   (ms: time in Python, all its calls; longest: the longest one call, a render being answered in slices)
 */
