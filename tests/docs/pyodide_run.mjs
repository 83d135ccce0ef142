// Python in the bundled Pyodide (node_modules/pyodide: the runtime the site serves), for what only WebAssembly shows:
// its JavaScript stack, which a deep recursion in C overflows before Python's recursion limit can raise, killing the
// runtime for every later call. Reads JSON {"pyodide": <folder>, "files": {path: text}, "steps": [Python source, ...]}
// on stdin; writes the files under /home/pyodide (the first folder on sys.path), runs the steps one after the other in
// the same runtime, and writes JSON [{"ok": true, "value": <the step's last expression, as text>, "ms": <wall time>}
// | {"ok": false, "error": <what JavaScript caught>}] on stdout, one entry a step: once a step kills the runtime,
// every later step says so too.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const request = JSON.parse(readFileSync(0, "utf-8"));
const { loadPyodide } = await import(pathToFileURL(`${request.pyodide}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${request.pyodide}/`, stdout: () => {}, stderr: () => {} });
for (const [path, text] of Object.entries(request.files)) {
  const full = `/home/pyodide/${path}`;
  pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
  pyodide.FS.writeFile(full, text);
}
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
const out = [];
for (const step of request.steps) {
  const t0 = performance.now();
  try {
    const value = pyodide.runPython(step);
    out.push({ ok: true, value: String(value), ms: performance.now() - t0 });
  } catch (err) {
    out.push({ ok: false, error: String(err).slice(0, 500), ms: performance.now() - t0 });
  }
}
process.stdout.write(JSON.stringify(out));
