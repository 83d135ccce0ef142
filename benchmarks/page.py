"""Speed of the in-page calculator, in headless Debian Chromium with the e2e tests' flags. Prints figures; not a test.

    .venv/bin/python benchmarks/page.py [--site DIR] [--runs N] [--changes N] [--json]

Builds the site (``mkdocs build --strict`` into a temporary folder) unless ``--site`` names a built one, serves it with
sitebuild/serve.py on 127.0.0.1, and measures in the same run:

* bare Pyodide: a tiny page (written next to the built site) whose module worker loads the same bundled runtime
  (assets/pyodide/<version>/) and nothing else; time from navigation start to the worker's "ready" message;
* the calculator page: time from navigation start to the runtime's "ready" (calc.js marks ``calc:ready``), with a
  cold cache (a new browser profile) and a warm one (the same profile, navigating again);
* one recalculation: from a changed input (a <select>, so no typing debounce) to the results drawn on screen (the
  next frame after they are in the DOM), median and p95 over N changes of the full estimator (GPU and method
  alternate, so every change recomputes everything: estimate, GPU table, smallest setup, remedies, inverse solver);
* bytes transferred by an article page before any widget starts (the reader is at the top of the page);
* the CMS's admin app beside them (no reader page loads it): its files on disk (bytes, and gzip -6 bytes as a
  static host would send them compressed), what opening ``admin/`` transfers, and what an editing session does (a
  new editor's sandbox, which the admin fills with the site's pages on first open; one article open in the editor).

Targets: calculator ready within 1.3 x bare Pyodide's time (cold and warm); recalculation round trip (input to
results in the page) median < 30 ms -- the time until the next painted frame is printed too; article page before a
widget starts <= 1 MB.
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
from pathlib import Path

from sitebuild.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]

#: The targets of the docstring, declared once (the report and benchmarks/README.md read them here).
TARGETS = {"ready_vs_bare": 1.3, "recalc_median_ms": 30, "article_bytes": 1_000_000}


def _e2e_flags() -> tuple[str, list[str]]:
    """The same Chromium and flags as tests/e2e/conftest.py (read from it, so the two never drift)."""
    for folder in (str(ROOT), str(ROOT / "tests" / "e2e")):   # the conftest imports calc_pages.py beside it,
        if folder not in sys.path:                             # which imports tests.lazy (as under pytest)
            sys.path.insert(0, folder)
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

RECALC_JS = """async ({ n }) => {
  const root = document.querySelector('[data-calc-kind="estimator"]');
  const gpu = root.querySelector('select[data-calc-field="gpu"]');
  const method = root.querySelector('select[data-calc-field="method"]');
  const gpus = Array.from(gpu.options).map((o) => o.value);
  const methods = Array.from(method.options).map((o) => o.value);
  const times = [];
  const worker = [];
  const python = [];
  for (let i = 0; i < n; i++) {
    const select = i % 2 ? method : gpu;
    const values = i % 2 ? methods : gpus;
    const next = values[(values.indexOf(select.value) + 1) % values.length];
    const done = new Promise((resolve) => root.addEventListener("calc:rendered", (ev) => resolve(ev.detail), { once: true }));
    const t0 = performance.now();
    select.value = next;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    const detail = await done;
    worker.push(detail.ms);
    python.push(detail.pythonMs);
    // Drawn: the frame with the new results has been laid out and painted.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    times.push(performance.now() - t0);
    // A reader's next change comes later than the next frame: let the page settle before it.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { times, worker, python };
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
            def fresh_profile():
                profile = Path(tempfile.mkdtemp(prefix="calc-bench-profile-"))
                ctx = p.chromium.launch_persistent_context(str(profile), executable_path=chromium, args=args,
                                                           headless=True, viewport={"width": 1280, "height": 800})
                return ctx, profile

            def guard(ctx):
                def route(r):
                    if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:")):
                        r.continue_()
                    else:
                        r.abort()
                ctx.route("**/*", route)

            bare, cold, warm = [], [], []
            for _ in range(runs):
                # Bare Pyodide, cold profile.
                ctx, profile = fresh_profile()
                guard(ctx)
                page = ctx.new_page()
                page.goto(base + "_bench/bare.html")
                page.wait_for_function("document.documentElement.dataset.bare", timeout=120_000)
                assert page.evaluate("document.documentElement.dataset.bare") == "ready", "bare Pyodide failed"
                bare.append(mark(page, "bare:ready"))
                ctx.close()
                shutil.rmtree(profile, ignore_errors=True)
                # The calculator page: cold, then warm (same profile).
                ctx, profile = fresh_profile()
                guard(ctx)
                page = ctx.new_page()
                for bucket in (cold, warm):
                    page.goto(base + "en/calculator/")
                    page.wait_for_function("['ready', 'failed'].includes(document.documentElement.dataset.calcRuntime)",
                                           timeout=120_000)
                    assert page.evaluate("document.documentElement.dataset.calcRuntime") == "ready", "calculator failed"
                    bucket.append(mark(page, "calc:ready"))
                    if bucket is cold:
                        page.goto("about:blank")
                if len(cold) == 1:
                    result = page.evaluate(RECALC_JS, {"n": changes})
                    figures["recalc_ms"] = {
                        "median": statistics.median(result["times"]), "p95": percentile(result["times"], 0.95),
                        "worker_median": statistics.median(result["worker"]),
                        "worker_p95": percentile(result["worker"], 0.95), "changes": changes,
                        "python_median": statistics.median(result["python"]),
                    }
                ctx.close()
                shutil.rmtree(profile, ignore_errors=True)
            figures["bare_ready_ms"] = statistics.median(bare)
            figures["calc_ready_cold_ms"] = statistics.median(cold)
            figures["calc_ready_warm_ms"] = statistics.median(warm)
            figures["samples"] = {"bare": bare, "cold": cold, "warm": warm}

            # Bytes an article page transfers before any widget starts (fresh profile, reader at the top).
            figures["article_bytes"] = {}
            for path in ("en/articles/vram-guide/", "articles/five-ways/"):
                ctx, profile = fresh_profile()
                guard(ctx)
                page = ctx.new_page()
                page.goto(base + path, wait_until="networkidle")
                state = page.evaluate("document.documentElement.dataset.calcRuntime")
                figures["article_bytes"][path] = {"bytes": transferred(page), "runtime": state}
                ctx.close()
                shutil.rmtree(profile, ignore_errors=True)

            # The admin app: its sign-in screen, then an editing session in its sandbox (the in-browser test backend
            # the site ships with; a fresh profile, so the admin copies the site's pages into it first).
            figures["admin"] = admin_size(site)
            ctx, profile = fresh_profile()
            off_host: list[str] = []
            on_host = ("http://127.0.0.1", "data:", "blob:")
            ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(on_host)
                      else (off_host.append(r.request.url), r.abort()))
            page = ctx.new_page()
            page.goto(base + "admin/", wait_until="networkidle")
            figures["admin"]["signin_bytes"] = transferred(page)
            page.get_by_role("button", name=ADMIN_SANDBOX_LABEL).click()
            page.goto(base + "admin/#/collections/articles/entries/vram-guide")
            page.locator('input[lang="en"]').first.wait_for()
            page.wait_for_load_state("networkidle")
            figures["admin"]["session_bytes"] = transferred(page)
            figures["admin"]["session_requests"] = page.evaluate("performance.getEntriesByType('resource').length + 1")
            figures["admin"]["off_host_requests"] = len(off_host)
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)
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
    r = f["recalc_ms"]
    lines.append(f"recalculation round trip, input -> results in the page (worker + redraw)   "
                 f"median {r['worker_median']:5.1f} ms, p95 {r['worker_p95']:5.1f} ms over {r['changes']} changes  "
                 f"(target median < {ms_max})  {'OK' if r['worker_median'] < ms_max else 'MISSED'}")
    lines.append(f"  ... of which Python in the worker (read, estimate, render)                        "
                 f"median {r['python_median']:5.1f} ms")
    lines.append(f"  ... until the next frame is painted                                        "
                 f"median {r['median']:5.1f} ms, p95 {r['p95']:5.1f} ms  "
                 f"{'OK' if r['median'] < ms_max else f'over {ms_max}'}")
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
