"""The page's first wheel as bytecode (sitebuild/wheel.py): its modules compiled by the bundled Pyodide itself
(``sitebuild/bytecode.mjs``, run by Node from ``node_modules/pyodide``, the files the site serves), so the reader's
browser does not compile 0.7 MB of Python before the first answer. In Pyodide (node), ``import calculator.page``
took 184 ms from the sources and 84 ms from this bytecode; a phone is 3-5 x slower.

Each ``.pyc`` is unchecked-hash (PEP 552): it is read as it is, whatever times the unpacked files get, and it sits
where its source would (``calculator/api.pyc``), which Python imports with no source beside it. It is the bytecode
of the one Python version the page runs: the build fails, rather than the page, when Node or the bundle is missing.
"""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

from .runtime import PYODIDE_DIR

SCRIPT = Path(__file__).with_name("bytecode.mjs")
#: The header of an unchecked-hash .pyc (PEP 552): magic (4 bytes), flags 0b01 (hash-based, not checked), the hash.
UNCHECKED_HASH_FLAGS = 0b01


def compiled(sources: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """(Python version, {module name + "c": bytecode}) for ``sources`` ({"calculator/api.py": source bytes}), compiled
    by the bundled Pyodide's Python."""
    node = shutil.which("node")
    if node is None:
        raise PluginError("node is missing: the page's estimator is compiled by the bundled Pyodide under Node "
                          "(install Node.js and run `npm ci`; make serve does the latter)")
    if not (PYODIDE_DIR / "pyodide.mjs").is_file():
        raise PluginError("node_modules/pyodide is missing: run `npm ci` (make serve does it)")
    request = {"pyodide": str(PYODIDE_DIR), "files": {name: data.decode("utf-8") for name, data in sources.items()}}
    proc = subprocess.run([node, str(SCRIPT)], input=json.dumps(request).encode(), capture_output=True, timeout=300)
    if proc.returncode != 0:
        raise PluginError(f"the bundled Pyodide could not compile the estimator: {proc.stderr.decode(errors='replace')}")
    answer = json.loads(proc.stdout)
    out = {f"{name}c": base64.b64decode(data) for name, data in answer["files"].items()}
    magic = bytes.fromhex(answer["magic"])
    for name, data in out.items():
        if data[:4] != magic or int.from_bytes(data[4:8], "little") != UNCHECKED_HASH_FLAGS:
            raise PluginError(f"{name}: not an unchecked-hash .pyc of Pyodide's Python {answer['version']}")
    if set(out) != {f"{name}c" for name in sources}:
        raise PluginError("the bundled Pyodide did not compile every module of the estimator")
    return str(answer["version"]), out
