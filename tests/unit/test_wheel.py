"""The browser wheel (sitebuild/wheel.py): every module of the estimator package ships, subpackages included, and
nothing else; its packages are the pip wheel's (tests/docs/test_install.py installs that one). The file list is pinned here: a module added to calculator/ (or a new subpackage) changes it on
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
calculator/evidence.py
calculator/frameworks.py
calculator/hub.py
calculator/inputs.py
calculator/memory.py
calculator/models.py
calculator/page/__init__.py
calculator/page/articles.py
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
calculator/page/run.py
calculator/page/search.py
calculator/page/text.py
calculator/params.py
calculator/py.typed
calculator/recommend.py
calculator/rl.py
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
    later = [p for p in tracked if p.endswith(".py") and p.split("/")[1] in wheel.LATER]
    assert sorted(later) == sorted(LATER_FILES)


#: The second load's own wheel: the exporters (calculator/export/), loaded when a reader opens "Run it".
LATER_FILES = """
calculator/export/__init__.py
calculator/export/_common.py
calculator/export/_quote.py
calculator/export/_yaml.py
calculator/export/axolotl.py
calculator/export/llamafactory.py
calculator/export/trl.py
calculator/export/unsloth.py
""".split()


def test_the_second_wheel_holds_the_exporters_only(tmp_path):
    names = _names(wheel.write_wheel(tmp_path, later=True))
    dist = f"{wheel.LATER_DIST}-{wheel.project_version()}.dist-info"
    assert names == LATER_FILES + [f"{dist}/METADATA", f"{dist}/WHEEL", f"{dist}/RECORD"]
    with zipfile.ZipFile(tmp_path / f"{wheel.LATER_DIST}-{wheel.project_version()}-py3-none-any.whl") as zf:
        assert "Requires-Dist: ruamel.yaml" in zf.read(f"{dist}/METADATA").decode()


def test_the_yaml_library_is_repacked_from_the_pinned_install():
    """ruamel.yaml ships as pip installed it (the export extra's pin): its files and dist-info, every file's hash
    the one of the RECORD pip wrote, nothing compiled, and a RECORD of its own."""
    import importlib.metadata
    import tomllib

    pin = next(r for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "export"] if r.startswith("ruamel.yaml=="))
    version = pin.split("==")[1]
    assert importlib.metadata.version("ruamel.yaml") == version
    _, path = wheel.cached_dist_wheel("ruamel.yaml")
    assert path.name == f"ruamel_yaml-{version}-py3-none-any.whl"
    names = _names(path)
    assert "ruamel/yaml/main.py" in names and f"ruamel_yaml-{version}.dist-info/METADATA" in names
    assert f"ruamel_yaml-{version}.dist-info/RECORD" in names and f"ruamel_yaml-{version}.dist-info/INSTALLER" \
        not in names
    assert not [n for n in names if n.endswith((".pyc", ".so")) or "__pycache__" in n]
    installed = {str(f): f for f in importlib.metadata.distribution("ruamel.yaml").files}
    with zipfile.ZipFile(path) as zf:
        for name in names:
            if name.endswith("RECORD"):
                continue
            f = installed[name]
            assert wheel._record_hash(zf.read(name)) == f"{f.hash.mode}={f.hash.value}", name


def test_a_changed_install_fails_the_build(tmp_path, monkeypatch):
    """A file that differs from the hash pip recorded (an edited install) never ships."""
    import importlib.metadata
    from mkdocs.exceptions import PluginError

    real = importlib.metadata.distribution("ruamel.yaml")
    target = next(f for f in real.files if str(f) == "ruamel/yaml/main.py")
    copy = tmp_path / "main.py"
    copy.write_bytes(Path(str(target.locate())).read_bytes() + b"\n# changed\n")

    class Changed:
        version = real.version
        metadata = real.metadata

        def read_text(self, name):
            return real.read_text(name)

        def locate_file(self, path):
            return copy

    changed = Changed()
    edited = importlib.metadata.PackagePath("ruamel/yaml/main.py")
    edited.hash, edited.size, edited.dist = target.hash, target.size, changed
    changed.files = [edited]
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: changed)
    with pytest.raises(PluginError, match="differs from what pip installed"):
        wheel._dist_entries("ruamel.yaml")


def test_subpackages_ship_and_caches_do_not(tmp_path, monkeypatch):
    """The packages setuptools finds (a folder with an __init__.py) ship, whatever their depth; a folder that is no
    package (the string tables, a stray script) and caches do not, in the page's wheel as in the pip wheel."""
    pkg = tmp_path / "calculator"
    for rel in ("__init__.py", "api.py", "py.typed", "page/__init__.py", "page/kinds/__init__.py",
                "page/kinds/estimator.py", "page/__pycache__/x.pyc", "__pycache__/api.cpython-311.pyc", "notes.txt",
                "strings/en.json", "scratch/try.py", "export/__init__.py", "export/trl.py"):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text("# " + rel)
    monkeypatch.setattr(wheel, "PACKAGE_DIR", pkg)
    assert wheel.packages() == ["calculator", "calculator.export", "calculator.page", "calculator.page.kinds"]
    names = _names(wheel.write_wheel(tmp_path / "out"))
    assert [n for n in names if not n.startswith("calculator-")] == [
        "calculator/__init__.py", "calculator/api.py", "calculator/page/__init__.py",
        "calculator/page/kinds/__init__.py", "calculator/page/kinds/estimator.py", "calculator/py.typed"]
    with zipfile.ZipFile(tmp_path / "out" / f"calculator-{wheel.project_version()}-py3-none-any.whl") as zf:
        assert zf.read("calculator/page/kinds/estimator.py") == b"# page/kinds/estimator.py"
    later = _names(wheel.write_wheel(tmp_path / "later", later=True))
    assert [n for n in later if n.startswith("calculator/")] == ["calculator/export/__init__.py",
                                                                 "calculator/export/trl.py"]


def test_a_wheel_without_the_api_or_the_exporters_fails_the_build(tmp_path, monkeypatch):
    from mkdocs.exceptions import PluginError
    (tmp_path / "calculator").mkdir()
    (tmp_path / "calculator" / "memory.py").write_text("")
    monkeypatch.setattr(wheel, "PACKAGE_DIR", tmp_path / "calculator")
    with pytest.raises(PluginError, match="api.py"):
        wheel.package_files()
    with pytest.raises(PluginError, match="export/__init__.py"):
        wheel.package_files(later=True)
