// The page's estimator as bytecode of the Python the page runs (sitebuild/bytecode.py): the bundled Pyodide
// (node_modules/pyodide, the very files the site serves) compiles the modules it is given. Reads JSON
// {"pyodide": <folder>, "files": {name: source text}} on stdin; writes JSON {"magic": hex, "version": "3.14.x",
// "files": {name: base64 .pyc}} on stdout. Each .pyc is "unchecked-hash" (PEP 552): read as it is, whatever the
// file times a zip leaves (extractall sets none), so the wheel needs no source beside it.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const request = JSON.parse(readFileSync(0, "utf-8"));
const { loadPyodide } = await import(pathToFileURL(`${request.pyodide}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${request.pyodide}/`, stdout: () => {}, stderr: (s) => process.stderr.write(`${s}\n`) });
pyodide.globals.set("request_json", JSON.stringify(request.files));
const answer = pyodide.runPython(`
import base64, importlib.util, json, os, py_compile, sys
out = {}
for name, source in json.loads(request_json).items():
    path = "/tmp/bytecode/" + name
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(source)
    # dfile: the name tracebacks give, the module's place in the wheel
    py_compile.compile(path, cfile=path + "c", dfile=name, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open(path + "c", "rb") as f:
        out[name] = base64.b64encode(f.read()).decode("ascii")
json.dumps({"magic": importlib.util.MAGIC_NUMBER.hex(), "version": sys.version.split()[0], "files": out})
`);
process.stdout.write(answer);
