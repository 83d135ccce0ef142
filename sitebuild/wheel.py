"""The wheels the page loads into Pyodide: a tiny, deterministic wheel writer (no build backend, nothing
committed). Only ``calculator/`` goes in, with every subpackage (``calculator/page/`` and any later one): the packages
the pip wheel holds, found by the same setuptools lines (``packages``); the build code and the benchmarks never ship.

Two loads. The first wheel (``calculator``) is what a page needs to show and recompute its widgets, as the bundled
Pyodide's own bytecode (``sitebuild/bytecode.py``: no compiling in the reader's browser). The second load,
when a reader first opens "Run it" or pastes a training config, is the subpackages in ``LATER`` (the exporters, as
the wheel ``calculator_export``) and the pure-Python distributions they import (``PAGE_DISTS``: ruamel.yaml, which
reads the pasted YAML), so the first page load does not grow with them. A distribution is repacked from what this
virtualenv has installed (the pin of pyproject.toml's ``export`` extra, the very files the tests import): every
file is checked against the RECORD pip wrote, and one that is not pure Python fails the build. Nothing is downloaded
at build time.

Each wheel is cached in ``.cache/calc-wheel/<hash>/`` (``.cache/page-wheels/`` for a distribution) on a hash of its
sources, so the two language builds (and later builds of unchanged sources) reuse it, and the page's URL for it
changes exactly when its content does.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import tomllib
import zipfile
from pathlib import Path

from mkdocs.exceptions import PluginError

from . import bytecode, runtime

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = ROOT / "calculator"
CACHE_DIR = ROOT / ".cache" / "calc-wheel"
DIST_CACHE_DIR = ROOT / ".cache" / "page-wheels"
WRITER_VERSION = "5"  # bump when the wheel layout below changes
#: Subpackages the page cannot work without: a wheel missing one fails the build instead of the reader's page.
REQUIRED = ("api.py", "page/__init__.py")
#: Subpackages left out of the page's first wheel: the exporters (issue 21) load only when a reader asks for a config,
#: so the first page load does not grow with them.
LATER = ("export",)


#: Installed distributions the second load carries (pure Python, py3-none-any), each pinned in pyproject.toml.
PAGE_DISTS = ("ruamel.yaml",)
#: The second load's own wheel: the LATER subpackages of calculator/.
LATER_DIST = "calculator_export"


def packages() -> list[str]:
    """The estimator's packages as setuptools finds them for the pip wheel (pyproject.toml,
    ``[tool.setuptools.packages.find]``): the one package list of both wheels."""
    import setuptools

    find = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]["find"]
    finder = setuptools.find_namespace_packages if find.get("namespaces", True) else setuptools.find_packages
    return sorted(finder(str(PACKAGE_DIR.parent), include=find["include"], exclude=find.get("exclude", ())))


def _ships(path: Path, later: bool = False) -> bool:
    rel = path.relative_to(PACKAGE_DIR)
    in_later = len(rel.parts) > 1 and rel.parts[0] in LATER
    return path.is_file() and (path.suffix == ".py" or path.name == "py.typed") and in_later == later


def package_files(later: bool = False) -> list[Path]:
    """The files of the estimator's packages (``packages``) that ship in the first wheel (or, ``later``, in the
    second load's): every module and the py.typed marker, in a fixed order (their paths relative to the package).
    The string tables do not: the site sends the page its words (sitebuild/strings.py)."""
    files = sorted((p for name in packages() for p in (PACKAGE_DIR.parent / name.replace(".", "/")).iterdir()
                    if _ships(p, later)), key=lambda p: p.relative_to(PACKAGE_DIR).as_posix())
    shipped = {p.relative_to(PACKAGE_DIR).as_posix() for p in files}
    missing = [name for name in REQUIRED if name not in shipped] if not later else \
        [f"{name}/__init__.py" for name in LATER if f"{name}/__init__.py" not in shipped]
    if missing:
        raise PluginError(f"{PACKAGE_DIR}: {', '.join(missing)} missing from the estimator wheel")
    return files


def wheel_name(path: Path) -> str:
    """The name of a package file inside the wheel: ``calculator/<path relative to the package>``."""
    return "calculator/" + path.relative_to(PACKAGE_DIR).as_posix()


def project_version() -> str:
    """The estimator's version (``calculator.__version__``, which the pip wheel's metadata reads too)."""
    from calculator import __version__

    return __version__


def sources_hash(later: bool = False) -> str:
    # The first wheel is bytecode of the bundled Pyodide's Python (sitebuild/bytecode.py): its version is a source.
    compiler = "" if later else f"pyodide {runtime.version()}"
    h = hashlib.sha256(f"wheel-writer {WRITER_VERSION} {project_version()} {'later' if later else compiler}\n".encode())
    for path in package_files(later):
        h.update(wheel_name(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def _zip(wheel: Path, entries: list[tuple[str, bytes]], dist_info: str) -> Path:
    """A wheel of ``entries`` (name, bytes) plus a RECORD of sha256 hashes (PEP 427; fixed timestamps, so the same
    entries give the same bytes), written whole or not at all."""
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in entries)
    record += f"{dist_info}/RECORD,,\n"
    entries = entries + [(f"{dist_info}/RECORD", record.encode())]
    wheel.parent.mkdir(parents=True, exist_ok=True)
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    tmp.replace(wheel)
    return wheel


def write_wheel(target_dir: Path, later: bool = False, compiled: bool = False) -> Path:
    """Write ``calculator-<version>-py3-none-any.whl`` (or, ``later``, ``calculator_export-…``: the LATER
    subpackages) into target_dir: dist-info with METADATA, WHEEL and RECORD. ``compiled``: the modules as the
    bundled Pyodide's bytecode instead of their sources (sitebuild/bytecode.py), tagged for its Python
    (``calculator-<version>-cp314-none-any.whl``): the page's first wheel."""
    version = project_version()
    dist = LATER_DIST if later else "calculator"
    dist_info = f"{dist}-{version}.dist-info"
    entries = [(wheel_name(p), p.read_bytes()) for p in package_files(later)]
    tag = "py3"
    if compiled:
        sources = {name: data for name, data in entries if name.endswith(".py")}
        python, pycs = bytecode.compiled(sources)
        tag = "cp" + "".join(python.split(".")[:2])
        entries = sorted([(name, data) for name, data in entries if name not in sources] + list(pycs.items()))
    summary = ("The exporters and importers of the GPU memory estimator (loaded on demand)" if later else
               "GPU memory estimator for fine-tuning large language models")
    requires = "".join(f"Requires-Dist: {d}\n" for d in (PAGE_DISTS if later else ()))
    entries.append((f"{dist_info}/METADATA", (
        "Metadata-Version: 2.1\n"
        f"Name: {dist}\n"
        f"Version: {version}\n"
        f"Summary: {summary}\n"
        "Requires-Python: >=3.11\n" + requires
    ).encode()))
    entries.append((f"{dist_info}/WHEEL", (
        "Wheel-Version: 1.0\n"
        "Generator: sitebuild/wheel.py\n"
        "Root-Is-Purelib: true\n"
        f"Tag: {tag}-none-any\n"
    ).encode()))
    return _zip(target_dir / f"{dist}-{version}-{tag}-none-any.whl", entries, dist_info)


def cached_wheel(later: bool = False) -> tuple[str, Path]:
    """(sources hash, path of the wheel for the current sources), writing it on first use."""
    digest = sources_hash(later)
    folder = CACHE_DIR / digest
    pattern = f"{LATER_DIST if later else 'calculator'}-*-none-any.whl"
    found = sorted(folder.glob(pattern)) if folder.is_dir() else []
    return digest, (found[0] if found else write_wheel(folder, later, compiled=not later))


# ---------------------------------------------------------------------------------------------------------------
# Installed distributions, repacked (the second load's libraries)
# ---------------------------------------------------------------------------------------------------------------
#: dist-info files pip writes at install time, not part of the wheel.
_INSTALL_ONLY = ("INSTALLER", "RECORD", "REQUESTED", "direct_url.json")


def _dist_entries(name: str) -> tuple[importlib.metadata.Distribution, list[tuple[str, bytes]]]:
    """The files of an installed distribution as its wheel had them, each checked against the RECORD pip wrote (a
    modified install fails); PluginError for a missing distribution, a missing or changed file, or a binary one."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        raise PluginError(f"{name} is not installed: run `make install` (pyproject.toml's export extra pins it)") \
            from None
    wheel_meta = dist.read_text("WHEEL") or ""
    if "Root-Is-Purelib: true" not in wheel_meta or "Tag: py3-none-any" not in wheel_meta:
        raise PluginError(f"{name} {dist.version} is not a pure-Python py3-none-any wheel: the page cannot load it")
    entries = []
    for f in sorted(dist.files or [], key=lambda f: f.as_posix()):
        rel = f.as_posix()
        if "__pycache__" in f.parts or rel.endswith(".pyc") or rel.startswith(".."):
            continue
        if f.parts[0].endswith(".dist-info") and f.name in _INSTALL_ONLY:
            continue
        if f.suffix in (".so", ".pyd", ".dylib"):
            raise PluginError(f"{name} {dist.version} has a binary file ({rel}): the page cannot load it")
        path = Path(str(f.locate()))
        try:
            data = path.read_bytes()
        except OSError:
            raise PluginError(f"{name} {dist.version}: {rel} is missing: reinstall it (`make install`)") from None
        if f.hash is None or _record_hash(data) != f"{f.hash.mode}={f.hash.value}":
            raise PluginError(f"{name} {dist.version}: {rel} differs from what pip installed: reinstall it")
        entries.append((rel, data))
    return dist, entries


def cached_dist_wheel(name: str) -> tuple[str, Path]:
    """(hash, path) of the wheel of an installed distribution (PAGE_DISTS), repacked on first use."""
    dist, entries = _dist_entries(name)
    h = hashlib.sha256(f"wheel-writer {WRITER_VERSION}\n".encode())
    for rel, data in entries:
        h.update(rel.encode() + b"\0" + data + b"\0")
    digest = h.hexdigest()[:16]
    project = dist.metadata["Name"].replace("-", "_").replace(".", "_")
    wheel = DIST_CACHE_DIR / digest / f"{project}-{dist.version}-py3-none-any.whl"
    if not wheel.is_file():
        _zip(wheel, entries, f"{project}-{dist.version}.dist-info")
    return digest, wheel


def later_wheels() -> list[tuple[str, Path]]:
    """What the second load brings, in load order: the libraries, then the exporters' wheel."""
    return [cached_dist_wheel(name) for name in PAGE_DISTS] + [cached_wheel(later=True)]
