"""What the build bundles for the page (read from the built site, no browser): the pinned Pyodide runtime with its
two offline edits only, and a valid calculator wheel made from the same sources pytest tests and nothing else."""
from __future__ import annotations

import _imp
import base64
import csv
import hashlib
import importlib.util
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sitebuild.wheel import LATER

pytestmark = pytest.mark.docs
ROOT = Path(__file__).resolve().parents[2]


def test_the_bundled_runtime_is_the_pinned_one(built_site):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    runtime = built_site / "assets" / "pyodide" / pinned
    npm = ROOT / "node_modules" / "pyodide"
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert (runtime / name).read_bytes() == (npm / name).read_bytes(), name  # the pinned npm files, as they are
    for name in ("pyodide.mjs", "pyodide.asm.mjs"):  # the loader, with the offline edits only (sitebuild/runtime.py)
        text = (runtime / name).read_text(encoding="utf-8")
        assert not re.search(r"[\"'`]https?://[^\"'`\s]+", text), name
        assert abs(len(text) - len((npm / name).read_text(encoding="utf-8"))) < 100, name


def test_the_wheel_is_valid_and_carries_the_estimator_only(built_site, tmp_path):
    # The first wheel is the bundled Pyodide's bytecode (sitebuild/bytecode.py), tagged for its Python.
    pinned_python = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())["info"]["python"]
    tag = "cp" + "".join(pinned_python.split(".")[:2])
    wheels = list((built_site / "assets" / "calc" / "wheel").glob(f"*/calculator-*-{tag}-none-any.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        sources = {p.relative_to(ROOT / "calculator").as_posix() for p in (ROOT / "calculator").rglob("*.py")
                   if "__pycache__" not in p.parts and p.relative_to(ROOT / "calculator").parts[0] not in LATER}
        modules = {n for n in names if n.startswith("calculator/")}
        assert modules == {f"calculator/{n}c" for n in sources} | {"calculator/py.typed"}, modules ^ {
            f"calculator/{n}c" for n in sources}
        magics = set()
        for n in sources:  # compiled from the same sources pytest tests: each unchecked-hash .pyc (PEP 552) carries
            data = zf.read(f"calculator/{n}c")      # the hash of its source, keyed by the compiler's magic number
            magics.add(data[:4])
            assert int.from_bytes(data[4:8], "little") == 0b01, n
            assert data[8:16] == _imp.source_hash(int.from_bytes(data[:4], "little"), (ROOT / "calculator" / n)
                                                  .read_bytes()), f"{n}: not compiled from the source in calculator/"
        assert len(magics) == 1 and magics != {importlib.util.MAGIC_NUMBER}, magics   # one Python, not this one
        later = tuple(f"calculator/{sub}/" for sub in LATER)
        assert not [n for n in names if n.startswith(later)], "a subpackage meant for later is in the first wheel"
        assert not [n for n in names if not n.startswith(("calculator/", "calculator-"))], names
        dist = next(n.split("/")[0] for n in names if n.endswith(".dist-info/WHEEL"))
        meta = zf.read(f"{dist}/WHEEL").decode()
        assert f"Tag: {tag}-none-any" in meta and "Root-Is-Purelib: true" in meta
        for row in csv.reader(io.StringIO(zf.read(f"{dist}/RECORD").decode())):
            if row[0].endswith("RECORD"):
                continue
            data = zf.read(row[0])
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert row[1] == f"sha256={digest}" and int(row[2]) == len(data), row
        # Data only the benchmarks use (calibration aliases) stays out of the browser.
        assert not [n for n in names if b"CALIBRATION" in zf.read(n)], "calibration data shipped in the wheel"
    # pip installs it for the Python it is for (not this one), and the exporters' wheel beside it.
    foreign = ["--python-version", pinned_python, "--only-binary=:all:", "--no-deps", "--no-index"]
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *foreign,
                           "--disable-pip-version-check", "--target", str(tmp_path / "t"), str(wheel)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "t" / "calculator" / "api.pyc").is_file()
    assert not [n for n in names if n.split("/")[1:2] == ["export"]], "the exporters are the second load"
    # The second load: the exporters' wheel holds exactly calculator/export/ as pytest tests it, and installs beside
    # the first one with the YAML library it needs.
    later = list((built_site / "assets" / "calc" / "wheel").glob("*/calculator_export-*-py3-none-any.whl"))
    yaml = list((built_site / "assets" / "calc" / "wheel").glob("*/ruamel_yaml-*-py3-none-any.whl"))
    assert len(later) == 1 and len(yaml) == 1, (later, yaml)
    with zipfile.ZipFile(later[0]) as zf:
        shipped = {n for n in zf.namelist() if n.startswith("calculator/")}
        exporters = {f"calculator/{p.relative_to(ROOT / 'calculator').as_posix()}"
                     for p in (ROOT / "calculator" / "export").glob("*.py")}
        assert shipped == exporters
        for n in shipped:
            assert zf.read(n) == (ROOT / n).read_bytes()
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *foreign,
                           "--disable-pip-version-check", "--target", str(tmp_path / "both"), str(wheel),
                           str(later[0]), str(yaml[0])], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "both" / "calculator" / "api.pyc").is_file()
    assert (tmp_path / "both" / "calculator" / "export" / "trl.py").is_file()
    assert (tmp_path / "both" / "ruamel" / "yaml" / "main.py").is_file()


def test_every_page_with_widgets_names_the_same_runtime_and_wheel(built_site):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    wheel = next((built_site / "assets" / "calc" / "wheel").glob("*/calculator-*-none-any.whl"))
    for page in (built_site / "calculator" / "index.html", built_site / "en" / "articles" / "five-ways" / "index.html"):
        html = page.read_text(encoding="utf-8")
        cfg = json.loads(re.search(r'<script type="application/json" id="calc-runtime">(.*?)</script>', html,
                                   re.S).group(1))
        assert cfg["pyodide"] == f"assets/pyodide/{pinned}/"
        assert (built_site / cfg["wheel"]).resolve() == wheel.resolve()
        npm = ROOT / "node_modules" / "pyodide"
        assert 0.99 < cfg["bytes"] / sum((npm / f).stat().st_size for f in
                                         ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                                          "pyodide-lock.json")) < 1.01


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_page_carries_only_its_scripts_strings_and_names_the_workers_file(built_site, lang):
    """The string table is no longer inline in every page (it was 40 kB in English, 57 kB in Arabic): a page holds
    what calc.js and site.js say themselves, and its runtime config names the worker's file, which holds the language's
    whole ``calc`` table, as the build renders it."""
    from sitebuild.strings import calc_strings

    root = built_site if lang == "ar" else built_site / "en"
    for page in (root / "calculator" / "index.html", root / "articles" / "vram-guide" / "index.html",
                 root / "glossary" / "index.html"):
        html = page.read_text(encoding="utf-8")
        inline = json.loads(re.search(r'<script type="application/json" id="site-strings">(.*?)</script>', html,
                                      re.S).group(1).replace("<\\/", "</"))
        assert set(inline) == {"calc"}
        assert set(inline["calc"]) == {"status", "failure", "notice", "errors", "run"}
        assert inline["calc"]["status"] == calc_strings(lang)["status"]
        assert set(inline["calc"]["run"]) == {"failed", "loading", "copied", "copy_failed"}
        assert len(inline["calc"]["run"]) < len(calc_strings(lang)["run"])
        match = re.search(r'<script type="application/json" id="calc-runtime">(.*?)</script>', html, re.S)
        if page.parent.name == "glossary":
            assert match is None                 # no widget, no runtime
            continue
        rel = json.loads(match.group(1))["strings"]
        assert rel.startswith(f"assets/calc/strings/{lang}.") and rel.endswith(".json")
        assert json.loads((built_site / rel).read_text(encoding="utf-8")) == calc_strings(lang)


def test_the_sites_own_scripts_and_styles_ship_minified_and_still_parse(built_site):
    """sitebuild/minify.py: the reader gets esbuild's short copy of each source under docs/ (no comments, a fraction
    of the bytes), and the copy is still a module Node can parse (a broken minify would only show in a browser)."""
    from sitebuild.minify import MINIFIED

    for rel in MINIFIED:
        source, shipped = ROOT / "docs" / rel, built_site / rel
        text = shipped.read_text(encoding="utf-8")
        assert len(text.encode()) < 0.8 * source.stat().st_size, rel
        assert "\n//" not in text and "/**" not in text, rel          # the sources' comments are gone
        if rel.endswith((".js", ".mjs")):
            check = subprocess.run(["node", "--check", "--input-type=module"], input=text, text=True,
                                   capture_output=True, timeout=60)
            assert check.returncode == 0, (rel, check.stderr[-500:])
