"""Speed of the in-page calculator, in headless Debian Chromium with the e2e tests' flags. Prints figures; not a test.

    .venv/bin/python benchmarks/page.py [--site DIR] [--runs N] [--changes N] [--json]

Builds the site (``mkdocs build --strict`` into a temporary folder) unless ``--site`` names a built one, serves it with
sitebuild/serve.py on 127.0.0.1, and measures in the same run:

* bare Pyodide: a tiny page (written next to the built site) whose module worker loads the same bundled runtime
  (assets/pyodide/<version>/) and nothing else; time from navigation start to the worker's "ready" message;
* the calculator page: time from navigation start to the runtime's "ready" (calc.js marks ``calc:ready``), with a
  cold cache (a new browser profile) and a warm one (the same profile, navigating again);
* what a reader meets page after page, in one browser profile: the first page (the calculator, cold), the second
  page a reader opens (an article, its estimator brought into view as soon as the page is parsed) and a reload of
  the calculator; each from navigation and from the runtime's start (``calc:downloading``) to ready, with how the
  runtime began (Python started, or restored from the snapshot the first page left), and the first page's stages
  (downloading, starting Python, loading the estimator);
* one recalculation: from a changed input (a <select>, so no typing debounce) to the results drawn on screen (the
  next frame after they are in the DOM), median and p95 over N changes of the full estimator (GPU and method
  alternate, so every change recomputes everything: estimate, GPU table, smallest setup, remedies, inverse solver);
* Python time per widget change, for every widget of every page that has one (the calculator page and the
  articles): each option of each of its selects and each number field halved and doubled (typed, as a reader
  types: calc.js computes typed text on "input"), one change at a time; the worker's own time in Python for the
  change, all its calls (median and worst per widget kind: what a change costs before its results can be drawn),
  and the longest single call (worker.mjs answers a change in slices, ``Page.prepare``, with its other messages
  between them; the tab itself stays responsive whatever the time, since Python runs in the worker);
* bytes transferred by an article page before any widget starts (the reader is at the top of the page);
* the CMS's admin app beside them (no reader page loads it): its files on disk (bytes, and gzip -6 bytes as a
  static host would send them compressed), what opening ``admin/`` transfers, and what an editing session does (a
  new editor's sandbox, which the admin fills with the site's pages on first open; one article open in the editor).

Targets: calculator ready within 1.3 x bare Pyodide's time (cold and warm); recalculation round trip (input to
results in the page) median < 30 ms -- the time until the next painted frame is printed too; the longest Python call
of any widget change < 100 ms in the page (a phone is 3-5 x slower: the report says what that makes both figures
there; Chromium's CPU throttling does not reach a worker, so it is not emulated);
article page before a widget starts <= 1 MB.
"""
from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from sitebuild.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]

#: The targets of the docstring, declared once (the report and benchmarks/README.md read them here).
TARGETS = {"ready_vs_bare": 1.3, "recalc_median_ms": 30, "article_bytes": 1_000_000, "change_python_ms": 100}
#: How much slower than this machine a phone runs the same Python (the report's phone column: both ends).
PHONE_SLOWER = (3, 5)
#: The pages with widgets, and the widget kinds the report expects to find on them together.
WIDGET_PAGES = ("en/calculator/", "en/articles/vram-guide/", "en/articles/five-ways/")
#: Every article in both languages (Arabic at the site root), each measured for its bytes before any widget starts.
ARTICLE_PAGES = tuple(f"{prefix}articles/{md.stem}/" for md in sorted((ROOT / "docs" / "articles").glob("*.md"))
                      if not md.name.endswith(".en.md") for prefix in ("", "en/"))


def _e2e_flags() -> tuple[str, list[str]]:
    """The same Chromium and flags as tests/e2e/conftest.py (read from it, so the two never drift)."""
    for folder in (ROOT, ROOT / "tests" / "e2e"):   # its own imports (tests.lazy, calc_pages), found as pytest finds them
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("_e2e_conftest", ROOT / "tests" / "e2e" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.CHROMIUM, list(module.CHROMIUM_ARGS)


# The sandbox button of the admin's sign-in screen, in the pinned CMS's English UI (the benchmark's browser language).
ADMIN_SANDBOX_LABEL = json.loads((ROOT / "node_modules" / "@sveltia" / "cms" / "locales" / "en-US.json")
                                 .read_text(encoding="utf-8"))["work_with_test_repo"]

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title></head>
<body><p id="out">starting</p>
<script type="module">
const worker = new Worker(new URL("bare-worker.mjs", import.meta.url), {type: "module"});
worker.onmessage = (e) => {
  if (e.data === "ready") performance.mark("bare:ready");
  document.getElementById("out").textContent = e.data;
  document.documentElement.dataset.bare = e.data;
};
worker.postMessage(new URL("../assets/pyodide/VERSION/", location.href).href);
</script></body></html>
"""

BARE_WORKER = """self.onmessage = async (e) => {
  try {
    const { loadPyodide } = await import(e.data + "pyodide.mjs");
    await loadPyodide({ indexURL: e.data, stdout: () => {}, stderr: () => {} });
    self.postMessage("ready");
  } catch (error) {
    self.postMessage("failed");
  }
};
"""

#: The one wait both loops below use: the widget's ``calc:rendered`` detail, or null when calc.js says the change was
#: refused (``calc:refused``; data-calc-stale may be set already) or nothing happened within ``ms``.
DRAWN_OR_REFUSED_JS = """
  const drawnOrRefused = (root, ms) => new Promise((resolve) => {
    const rendered = (ev) => finish(ev.detail);
    const refused = () => finish(null);
    const timer = setTimeout(() => finish(null), ms);
    const finish = (detail) => {
      clearTimeout(timer);
      root.removeEventListener("calc:rendered", rendered);
      root.removeEventListener("calc:refused", refused);
      resolve(detail);
    };
    root.addEventListener("calc:rendered", rendered);
    root.addEventListener("calc:refused", refused);
  });
"""

RECALC_JS = """async ({ n }) => {""" + DRAWN_OR_REFUSED_JS + """  const root = document.querySelector('[data-calc-kind="estimator"]');
  const gpu = root.querySelector('select[data-calc-field="gpu"]');
  const method = root.querySelector('select[data-calc-field="method"]');
  const gpus = Array.from(gpu.options).map((o) => o.value);
  const methods = Array.from(method.options).map((o) => o.value);
  const times = [];
  const worker = [];
  const python = [];
  let skipped = 0;
  for (let i = 0; i < n; i++) {
    const select = i % 2 ? method : gpu;
    const values = i % 2 ? methods : gpus;
    const next = values[(values.indexOf(select.value) + 1) % values.length];
    // Drawn, or refused (a card the setup cannot run: the widget marks its results out of date and draws none).
    const done = drawnOrRefused(root, 10000);
    const t0 = performance.now();
    select.value = next;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    const detail = await done;
    if (detail === null) { skipped += 1; await new Promise((resolve) => setTimeout(resolve, 50)); continue; }
    worker.push(detail.ms);
    python.push(detail.pythonMs);
    // Drawn: the frame with the new results has been laid out and painted.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    times.push(performance.now() - t0);
    // A reader's next change comes later than the next frame: let the page settle before it.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { times, worker, python, skipped };
}"""


#: Whether the worker's snapshot is in IndexedDB (docs/assets/calc/worker.mjs: database "calc-runtime", store
#: "snapshots", one entry).
SNAPSHOT_STORED_JS = """() => new Promise((resolve) => {
  const request = indexedDB.open("calc-runtime");
  request.onerror = () => resolve(false);
  request.onsuccess = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains("snapshots")) { db.close(); resolve(false); return; }
    const count = db.transaction("snapshots", "readonly").objectStore("snapshots").count();
    count.onsuccess = () => { db.close(); resolve(count.result === 1); };
    count.onerror = () => { db.close(); resolve(false); };
  };
})"""


def wait_until_stored(page, seconds: float = 30.0) -> bool:
    """Until the worker's snapshot is in IndexedDB (SNAPSHOT_STORED_JS), or ``seconds``; whether it is. (The check is
    polled with page.evaluate, which awaits its promise: wait_for_function takes the promise itself for a true answer.)"""
    deadline = time.monotonic() + seconds
    while not page.evaluate(SNAPSHOT_STORED_JS):
        if time.monotonic() >= deadline:
            return False
        page.wait_for_timeout(250)
    return True


#: Every one-control change of one widget, one at a time: each option of each select (the model's first 10), then
#: each number field halved and doubled and put back. Returns [{kind, change, python}] for the changes that drew
#: results (a refused value draws none and is not a change a reader waits for).
CHANGES_JS = """async (root) => {""" + DRAWN_OR_REFUSED_JS + """  const out = [];
  const change = async (control, value, label) => {
    const done = drawnOrRefused(root, 5000);     // 5 s: a control that starts no computation
    control.value = value;
    // the event calc.js computes on: typed text on "input" (after its typing delay), a choice on "change"
    const typed = control.matches("input[type=text], input:not([type])");
    control.dispatchEvent(new Event(typed ? "input" : "change", { bubbles: true }));
    const detail = await done;
    if (detail) out.push({ kind: root.dataset.calcKind, change: label, python: detail.pythonMs,
                           longest: detail.longestMs });
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  for (const select of root.querySelectorAll("select[data-calc-field]")) {
    if (select.closest("[hidden]")) continue;
    const start = select.value;
    const values = Array.from(select.options).map((o) => o.value).filter((v) => v !== start).slice(0, 10);
    for (const value of [...values, start]) await change(select, value, `${select.dataset.calcField}=${value}`);
  }
  for (const input of root.querySelectorAll('input[data-calc-field][inputmode="numeric"], input[data-calc-field][type="number"]')) {
    if (input.closest("[hidden]") || !/^[0-9]+$/.test(input.value)) continue;
    const start = input.value;
    for (const value of [String(Math.max(1, Math.floor(Number(start) / 2))), String(Number(start) * 2), start])
      await change(input, value, `${input.dataset.calcField}=${value}`);
  }
  return out;
}"""


def build_site(out: Path) -> Path:
    site = out / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}, timeout=900)
    if proc.returncode != 0:
        sys.exit(f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}")
    return site


def pyodide_version(site: Path) -> str:
    versions = sorted(p.name for p in (site / "assets" / "pyodide").iterdir() if p.is_dir())
    if len(versions) != 1:
        sys.exit(f"expected one bundled Pyodide version, found {versions}")
    return versions[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def mark(page, name: str) -> float:
    return page.evaluate("(n) => { const m = performance.getEntriesByName(n)[0]; return m ? m.startTime : null; }", name)


def visit(page) -> dict:
    """One page's runtime: navigation -> ready, runtime start -> ready, each stage, and how it began."""
    stages = {name: mark(page, f"calc:{name}") for name in ("downloading", "starting", "loading", "ready")}
    return {"nav_ms": stages["ready"], "start_ms": stages["ready"] - stages["downloading"],
            "download_ms": (stages["starting"] or stages["loading"] or stages["ready"]) - stages["downloading"],
            "starting_ms": (stages["loading"] or stages["ready"]) - (stages["starting"] or stages["downloading"]),
            "loading_ms": stages["ready"] - (stages["loading"] or stages["ready"]),
            "from": page.evaluate("document.documentElement.dataset.calcRuntimeFrom || 'start'")}


def open_run_it(page, site: Path, base: str) -> dict:
    """The estimator's "Run it" opened for the first time on a ready page: milliseconds from the click to its tabs
    shown (the second load, the exporters' wheel and the YAML library, then every target's files for the state), and
    the files that second load asked for, with their bytes (the worker's requests are the page's in Playwright)."""
    asked: list[str] = []

    def listen(request) -> None:
        asked.append(request.url)

    page.on("request", listen)
    section = page.locator("[data-calc-run]").first
    section.scroll_into_view_if_needed()
    start = page.evaluate("performance.now()")
    section.locator("[data-calc-run-toggle]").click()
    page.wait_for_function("s => ['ready', 'error'].includes(s.dataset.calcRunState)", arg=section.element_handle(),
                           timeout=120_000)
    shown = page.evaluate("performance.now()")
    page.remove_listener("request", listen)
    if section.get_attribute("data-calc-run-state") != "ready":
        raise RuntimeError("Run it failed")
    files = [site / url[len(base):].split("?")[0] for url in asked if url.startswith(base)]
    return {"open_ms": shown - start, "files": [f.name for f in files if f.is_file()],
            "bytes": sum(f.stat().st_size for f in files if f.is_file())}


def summarise(samples: list[dict]) -> dict:
    """Medians of each figure of a visit over the runs; how the runtime began in each run."""
    keys = [k for k in samples[0] if k.endswith("_ms")]
    return {**{k: statistics.median(s[k] for s in samples) for k in keys}, "from": [s["from"] for s in samples],
            "samples": samples}


def transferred(page) -> int:
    return page.evaluate("""() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource');
      return (nav ? nav.transferSize : 0) + res.reduce((sum, r) => sum + (r.transferSize || 0), 0);
    }""")


def admin_size(site: Path) -> dict:
    files = [p for p in (site / "admin").rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "gzip_bytes": sum(len(gzip.compress(p.read_bytes(), 6)) for p in files)}


class _Browser:
    """The benchmark's Chromium: a fresh profile per visit, kept off the network unless ``guarded`` is False (the
    admin run routes its own requests), closed and removed when the visit ends."""

    def __init__(self, playwright, chromium: str, args: list[str]) -> None:
        self.playwright, self.chromium, self.args = playwright, chromium, args

    @contextmanager
    def profile(self, guarded: bool = True):
        folder = Path(tempfile.mkdtemp(prefix="calc-bench-profile-"))
        ctx = self.playwright.chromium.launch_persistent_context(
            str(folder), executable_path=self.chromium, args=self.args, headless=True,
            viewport={"width": 1280, "height": 800})
        if guarded:
            def route(r):
                if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:")):
                    r.continue_()
                else:
                    r.abort()
            ctx.route("**/*", route)
        try:
            yield ctx
        finally:
            ctx.close()
            shutil.rmtree(folder, ignore_errors=True)


def _ready(page, expression: str, what: str) -> None:
    """Raise unless the page's ``expression`` reads "ready" (a failed start is no figure)."""
    if page.evaluate(expression) != "ready":
        raise RuntimeError(f"{what} failed")


def _bare_ready_ms(browser: _Browser, base: str) -> float:
    """Bare Pyodide's start, cold profile."""
    with browser.profile() as ctx:
        page = ctx.new_page()
        page.goto(base + "_bench/bare.html")
        page.wait_for_function("document.documentElement.dataset.bare", timeout=120_000)
        _ready(page, "document.documentElement.dataset.bare", "bare Pyodide")
        return mark(page, "bare:ready")


def _startups(browser: _Browser, site: Path, base: str, runs: int, changes: int) -> dict:
    """Bare Pyodide and the calculator page, ``runs`` times: cold (the first page), an article (the second page),
    the calculator again (the reload, the warm figure), one profile per run; the recalculation in the first run."""
    figures: dict = {}
    bare, cold, warm, run_it = [], [], [], []
    visits: dict[str, list[dict]] = {"first": [], "second": [], "reload": []}
    for _ in range(runs):
        bare.append(_bare_ready_ms(browser, base))
        with browser.profile() as ctx:
            page = ctx.new_page()
            for name, path in (("first", "en/calculator/"), ("second", "en/articles/vram-guide/"),
                               ("reload", "en/calculator/")):
                page.goto(base + path, wait_until="domcontentloaded")
                page.locator("[data-calc-root]").first.scroll_into_view_if_needed()
                page.wait_for_function("['ready', 'failed'].includes(document.documentElement.dataset.calcRuntime)",
                                       timeout=120_000)
                _ready(page, "document.documentElement.dataset.calcRuntime", "calculator")
                visits[name].append(visit(page))
                if name == "first":
                    cold.append(mark(page, "calc:ready"))
                    # A reader stays on the first page a while; the worker writes its snapshot (~31 MB into
                    # IndexedDB) after "ready", and leaving at once would kill that write and make the second page
                    # start Python again. Wait until the snapshot is stored (or 30 s).
                    wait_until_stored(page)
                elif name == "reload":
                    warm.append(mark(page, "calc:ready"))
                    run_it.append(open_run_it(page, site, base))
                if name != "reload":
                    page.goto("about:blank")
            if len(cold) == 1:
                result = page.evaluate(RECALC_JS, {"n": changes})
                figures["recalc_ms"] = {
                    "median": statistics.median(result["times"]), "p95": percentile(result["times"], 0.95),
                    "worker_median": statistics.median(result["worker"]),
                    "worker_p95": percentile(result["worker"], 0.95), "changes": changes,
                    "python_median": statistics.median(result["python"]),
                    "refused": result["skipped"],
                }
    figures["bare_ready_ms"] = statistics.median(bare)
    figures["calc_ready_cold_ms"] = statistics.median(cold)
    figures["calc_ready_warm_ms"] = statistics.median(warm)
    figures["run_it"] = {"open_ms": statistics.median(r["open_ms"] for r in run_it),
                         "bytes": statistics.median(r["bytes"] for r in run_it),
                         "files": run_it[0]["files"], "samples": run_it}
    figures["samples"] = {"bare": bare, "cold": cold, "warm": warm}
    figures["visits"] = {name: summarise(v) for name, v in visits.items()}
    return figures


def _change_python_ms(browser: _Browser, base: str) -> dict:
    """Python time per widget change, every widget of every page (one warm profile: the runtime is cached)."""
    seen: list[dict] = []
    with browser.profile() as ctx:
        page = ctx.new_page()
        for path in WIDGET_PAGES:
            page.goto(base + path)
            for root in page.locator("[data-calc-root]").all():
                root.scroll_into_view_if_needed()      # the runtime starts when a widget comes near the view
                root.page.wait_for_function("r => r.dataset.calcState === 'ready'", arg=root.element_handle(),
                                            timeout=120_000)
                seen += root.evaluate(CHANGES_JS)
    out = {}
    for kind in sorted({c["kind"] for c in seen}):
        mine = [c for c in seen if c["kind"] == kind]
        worst = max(mine, key=lambda c: c["python"])
        longest = max(mine, key=lambda c: c["longest"])
        out[kind] = {
            "changes": len(mine), "median": statistics.median(c["python"] for c in mine),
            "worst": worst["python"], "worst_change": worst["change"],
            "longest_call": longest["longest"], "longest_change": longest["change"]}
    return out


def _article_bytes(browser: _Browser, base: str) -> dict:
    """Bytes an article page transfers before any widget starts (fresh profile, reader at the top)."""
    out = {}
    for path in ARTICLE_PAGES:
        with browser.profile() as ctx:
            page = ctx.new_page()
            page.goto(base + path, wait_until="networkidle")
            state = page.evaluate("document.documentElement.dataset.calcRuntime")
            out[path] = {"bytes": transferred(page), "runtime": state}
    return out


def _admin(browser: _Browser, site: Path, base: str) -> dict:
    """The admin app: its sign-in screen, then an editing session in its sandbox (the in-browser test backend the
    site ships with; a fresh profile, so the admin copies the site's pages into it first)."""
    figures = admin_size(site)
    off_host: list[str] = []
    on_host = ("http://127.0.0.1", "data:", "blob:")
    with browser.profile(guarded=False) as ctx:
        ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(on_host)
                  else (off_host.append(r.request.url), r.abort()))
        page = ctx.new_page()
        page.goto(base + "admin/", wait_until="networkidle")
        figures["signin_bytes"] = transferred(page)
        page.get_by_role("button", name=ADMIN_SANDBOX_LABEL).click()
        page.goto(base + "admin/#/collections/articles/entries/vram-guide")
        page.locator('input[lang="en"]').first.wait_for()
        page.wait_for_load_state("networkidle")
        figures["session_bytes"] = transferred(page)
        figures["session_requests"] = page.evaluate("performance.getEntriesByType('resource').length + 1")
        figures["off_host_requests"] = len(off_host)
    return figures


def run(site: Path, runs: int, changes: int) -> dict:
    from playwright.sync_api import sync_playwright

    chromium, args = _e2e_flags()
    version = pyodide_version(site)
    bench = site / "_bench"
    bench.mkdir(exist_ok=True)
    (bench / "bare.html").write_text(BARE_HTML.replace("VERSION", version), encoding="utf-8")
    (bench / "bare-worker.mjs").write_text(BARE_WORKER, encoding="utf-8")
    server, base = serve_in_thread(site)
    server.handle_error = lambda request, address: None  # a closed browser resets connections: not news here
    figures: dict = {"pyodide": version, "runs": runs}
    try:
        with sync_playwright() as p:
            browser = _Browser(p, chromium, args)
            figures.update(_startups(browser, site, base, runs, changes))
            figures["change_python_ms"] = _change_python_ms(browser, base)
            figures["article_bytes"] = _article_bytes(browser, base)
            figures["admin"] = _admin(browser, site, base)
    finally:
        server.shutdown()
        shutil.rmtree(bench, ignore_errors=True)
    return figures


def report(f: dict) -> list[str]:
    ratio_max, ms_max, bytes_max = TARGETS["ready_vs_bare"], TARGETS["recalc_median_ms"], TARGETS["article_bytes"]
    ratio_cold = f["calc_ready_cold_ms"] / f["bare_ready_ms"]
    ratio_warm = f["calc_ready_warm_ms"] / f["bare_ready_ms"]
    lines = [
        f"Pyodide {f['pyodide']}, median of {f['runs']} run(s) each",
        f"bare Pyodide ready (empty page, cold)      {f['bare_ready_ms']:8.0f} ms",
        f"calculator ready, cold cache               {f['calc_ready_cold_ms']:8.0f} ms   "
        f"{ratio_cold:.2f} x bare  (target <= {ratio_max})  {'OK' if ratio_cold <= ratio_max else 'MISSED'}",
        f"calculator ready, warm cache               {f['calc_ready_warm_ms']:8.0f} ms   "
        f"{ratio_warm:.2f} x bare  (target <= {ratio_max})  {'OK' if ratio_warm <= ratio_max else 'MISSED'}",
    ]
    for name, label in (("first", "first page (the calculator, cold cache)"),
                        ("second", "second page (an article, same browser)"),
                        ("reload", "reload (the calculator again)")):
        v = f["visits"][name]
        began = "restored from the snapshot" if all(x == "snapshot" for x in v["from"]) else \
            "Python started" if all(x == "start" for x in v["from"]) else "/".join(v["from"])
        lines.append(f"{label:<43}{v['nav_ms']:8.0f} ms from navigation, {v['start_ms']:6.0f} ms from the runtime's "
                     f"start  ({began})")
    v = f["visits"]["first"]
    lines.append(f"  ... first page by stage: downloading {v['download_ms']:.0f} ms, starting Python "
                 f"{v['starting_ms']:.0f} ms, loading the estimator {v['loading_ms']:.0f} ms")
    lines.append(f"'Run it' first opened (the second load, then every target's files)   {f['run_it']['open_ms']:8.0f} ms, "
                 f"{f['run_it']['bytes'] / 1e3:.0f} kB in {len(f['run_it']['files'])} files: "
                 f"{', '.join(f['run_it']['files'])} (the first load leaves them out)")
    r = f["recalc_ms"]
    lines.append(f"recalculation round trip, input -> results in the page (worker + redraw)   "
                 f"median {r['worker_median']:5.1f} ms, p95 {r['worker_p95']:5.1f} ms over {r['changes']} changes "
                 f"({r.get('refused', 0)} refused, not timed)  "
                 f"(target median < {ms_max})  {'OK' if r['worker_median'] < ms_max else 'MISSED'}")
    lines.append(f"  ... of which Python in the worker (read, estimate, render)                        "
                 f"median {r['python_median']:5.1f} ms")
    lines.append(f"  ... until the next frame is painted                                        "
                 f"median {r['median']:5.1f} ms, p95 {r['p95']:5.1f} ms  "
                 f"{'OK' if r['median'] < ms_max else f'over {ms_max}'}")
    change_max, (slow_low, slow_high) = TARGETS["change_python_ms"], PHONE_SLOWER
    for kind, c in f["change_python_ms"].items():
        lines.append(f"Python per change, {kind:<10} median {c['median']:5.1f} ms, worst {c['worst']:5.1f} ms "
                     f"({c['worst_change']}) over {c['changes']} changes; on a phone ({slow_low}-{slow_high} x) "
                     f"{c['worst'] * slow_low:.0f}-{c['worst'] * slow_high:.0f} ms")
        lines.append(f"  ... its longest single Python call {c['longest_call']:5.1f} ms ({c['longest_change']})  "
                     f"(target < {change_max})  {'OK' if c['longest_call'] < change_max else 'MISSED'}; on a phone "
                     f"{c['longest_call'] * slow_low:.0f}-{c['longest_call'] * slow_high:.0f} ms "
                     f"({'OK' if c['longest_call'] * slow_high < change_max else 'over'} {change_max} there)")
    for path, a in f["article_bytes"].items():
        lines.append(f"article {path:<28} {a['bytes'] / 1e6:8.3f} MB before any widget starts (runtime {a['runtime']}) "
                     f"(target <= {bytes_max / 1e6:g} MB)  "
                     f"{'OK' if a['bytes'] <= bytes_max and a['runtime'] == 'idle' else 'MISSED'}")
    a = f["admin"]
    lines.append(f"admin/ (the CMS; no reader page loads it)  {a['files']} files, {a['bytes'] / 1e6:.2f} MB on disk "
                 f"({a['gzip_bytes'] / 1e6:.2f} MB gzip)")
    lines.append(f"  opening it {a['signin_bytes'] / 1e6:.3f} MB; an article open in its sandbox "
                 f"{a['session_bytes'] / 1e6:.3f} MB in {a['session_requests']} requests, "
                 f"{a['off_host_requests']} off-host")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an already built site (default: build one now)")
    parser.add_argument("--runs", type=int, default=3, help="page loads per figure (median is printed)")
    parser.add_argument("--changes", type=int, default=200, help="input changes for the recalculation figure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="calc-bench-") as tmp:
        site = args.site or build_site(Path(tmp))
        figures = run(site, args.runs, args.changes)
    print(json.dumps(figures, indent=2) if args.json else "\n".join(report(figures)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
