// The messages between the page (calc.js) and the calculator's worker (worker.mjs), defined once and imported by
// both (Material's search worker defines its messages the same way). All messages are plain objects.

/** Message kinds. */
export const MESSAGE = Object.freeze({
  INIT: "init",          // page -> worker, once: where the runtime, the wheel and the language's strings file are
  RENDER: "render",      // page -> worker: one widget's raw inputs, to be read, estimated and rendered
  STATUS: "status",      // worker -> page: how far the runtime got
  RENDERED: "rendered",  // worker -> page: the answer to one RENDER or RUN
  SEARCH: "search",      // page -> worker: what the reader typed in a model or card picker
  SEARCHED: "searched",  // worker -> page: the answer to one SEARCH
  RUN: "run",            // page -> worker: the "Run it" section's request (the exporters load on the first one)
  HUB: "hub",            // page -> worker: one step of reading a model's config from Hugging Face (answered SEARCHED)
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
 * @typedef {{type: "render", id: number, kind: string, raw?: object, fixed?: object, imported?: object,
 *            edited?: string, state?: object, widget?: string, warm?: boolean}} RenderMessage
 *   (raw: every control's value by its data-calc-field; edited: the control changed last, where a conflict is shown;
 *   state: a link's state, answered with the controls that show it; widget: which widget asks, so that its newer
 *   change stops an older one; warm: the state the page already shows, asked once when the runtime is ready so that
 *   the next change finds its answers, and never drawn)
 * @typedef {{type: "run", id: number, action: "preload"|"export"|"import", payload: string}} RunMessage
 * @typedef {{type: "later", status: "loading"|"ready"|"failed"}} LaterMessage
 * @typedef {{type: "status", status: string, code?: string, done?: number, total?: number, from?: string}}
 *   StatusMessage   (with "ready": how it began)
 * @typedef {{type: "rendered", id: number, answer: string, ms: number, longest?: number}} RenderedMessage
 *   (ms: time in Python, all calls; longest: the longest one call, a render being answered in slices)
 * @typedef {{type: "search", id: number, kind: string, text: string, listbox?: string}} SearchMessage
 *   (kind: "model" | "gpu"; listbox: the id of the picker's listbox, whose options, the matches, the answer carries)
 * @typedef {{type: "searched", id: number, answer: string}} SearchedMessage
 * @typedef {{type: "hub", id: number, repo: string, replies: object}} HubMessage
 *   (replies: {url: {status, text} | {error}}, what calc.js's hubGet got so far; answered by Page.hub)
 *
 * `answer` is the JSON text of calculator.page.Page.render: {ok: true, html, state, link, spare, summary, slots?,
 * controls} (link: the state as the address keeps it, spare: its keys an address too long drops, controls: values
 * to write into the form), {ok: true, controls} for a `state`, or {ok: false, errors: [{field, code, quiet, message,
 * slots}]} (slots: the controls whose boxes may show it, best first). Error codes are the estimator API's own. A render that a
 * newer change of the same widget overtook answers {ok: false, superseded: true, errors: []}.
 * A SEARCHED `answer` is the JSON text of calculator.page.Page.search: {ok, values: [catalogue ids, best first],
 * announce: the sentence the picker's status reads out, named: the id the text names exactly (a repo id, an alias,
 * any case) or null, options: the listbox's markup}.
 * A RUN's answer is
 * calculator.page.Page.run's: {ok: true, html} (export), {ok: true, state, controls, imported, target, html}
 * (import), or the
 * errors as above (an import's also carry the html of what was not read); a preload answers {ok: true}.
 */
