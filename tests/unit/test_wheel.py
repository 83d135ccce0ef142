"""The browser wheel (sitebuild/wheel.py): every module of the estimator package ships, subpackages included, and
nothing else. The file list is pinned here: a module added to calculator/ (or a new subpackage) changes it on
purpose, never by accident, and one left out fails before a reader's page does."""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from sitebuild import wheel

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]

#: What the wheel carries (besides its dist-info): every tracked file of calculator/ that runs in the browser.
WHEEL_FILES = """
calculator/__init__.py
calculator/__main__.py
calculator/answer.py
calculator/api.py
calculator/catalog.py
calculator/configs.py
calculator/errors.py
calculator/frameworks.py
calculator/inputs.py
calculator/memory.py
calculator/models.py
calculator/page/__init__.py
calculator/page/figures.py
calculator/page/form.py
calculator/page/kinds/__init__.py
calculator/page/kinds/base.py
calculator/page/kinds/compare.py
calculator/page/kinds/estimator.py
calculator/page/kinds/fits.py
calculator/page/kinds/seqlen.py
calculator/page/messages.py
calculator/page/pieces.py
calculator/page/text.py
calculator/params.py
calculator/py.typed
calculator/recommend.py
calculator/throughput.py
calculator/values.py
calculator/vocab.py
""".split()


def _names(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as zf:
        return zf.namelist()


def test_the_wheel_file_list_is_pinned(tmp_path):
    names = _names(wheel.write_wheel(tmp_path))
    dist = f"calculator-{wheel.project_version()}.dist-info"
    assert names == WHEEL_FILES + [f"{dist}/METADATA", f"{dist}/WHEEL", f"{dist}/RECORD"]


def test_every_tracked_file_of_the_package_ships():
    tracked = subprocess.run(["git", "ls-files", "calculator"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    shipped = [p for p in tracked if (p.endswith(".py") or p.endswith("py.typed"))
               and p.split("/")[1] not in wheel.LATER]
    assert sorted(shipped) == sorted(WHEEL_FILES)
    assert [p for p in tracked if p.split("/")[1] in wheel.LATER], "a subpackage left for later that does not exist"


def test_subpackages_ship_and_caches_do_not(tmp_path, monkeypatch):
    pkg = tmp_path / "calculator"
    for rel in ("api.py", "py.typed", "page/__init__.py", "page/kinds/estimator.py", "page/__pycache__/x.pyc",
                "__pycache__/api.cpython-311.pyc", "notes.txt"):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text("# " + rel)
    monkeypatch.setattr(wheel, "PACKAGE_DIR", pkg)
    names = _names(wheel.write_wheel(tmp_path / "out"))
    assert [n for n in names if not n.startswith("calculator-")] == [
        "calculator/api.py", "calculator/page/__init__.py", "calculator/page/kinds/estimator.py",
        "calculator/py.typed"]
    with zipfile.ZipFile(tmp_path / "out" / f"calculator-{wheel.project_version()}-py3-none-any.whl") as zf:
        assert zf.read("calculator/page/kinds/estimator.py") == b"# page/kinds/estimator.py"


def test_a_wheel_without_the_api_fails_the_build(tmp_path, monkeypatch):
    from mkdocs.exceptions import PluginError
    (tmp_path / "calculator").mkdir()
    (tmp_path / "calculator" / "memory.py").write_text("")
    monkeypatch.setattr(wheel, "PACKAGE_DIR", tmp_path / "calculator")
    with pytest.raises(PluginError, match="api.py"):
        wheel.package_files()
