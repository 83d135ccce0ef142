"""The ``calculator`` wheel the page loads into Pyodide: a tiny, deterministic py3-none-any wheel writer (no build
backend, nothing committed). Only ``calculator/`` goes in, with every subpackage (``calculator/page/`` and any
later one); the build code and the benchmarks never ship.

The wheel is cached in ``.cache/calc-wheel/<hash>/`` on a hash of the package sources and the project version, so
the two language builds (and later builds of unchanged sources) reuse it, and the page's URL for it changes exactly
when its content does.
"""
from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = ROOT / "calculator"
CACHE_DIR = ROOT / ".cache" / "calc-wheel"
WRITER_VERSION = "3"  # bump when the wheel layout below changes
#: Subpackages the page cannot work without: a wheel missing one fails the build instead of the reader's page.
REQUIRED = ("api.py", "page/__init__.py")
#: Subpackages left out of the page's first wheel: the exporters (issue 21) load only when a reader asks for a config,
#: so the first page load does not grow with them.
LATER = ("export",)


def _ships(path: Path) -> bool:
    rel = path.relative_to(PACKAGE_DIR)
    return (path.is_file() and (path.suffix == ".py" or path.name == "py.typed") and "__pycache__" not in rel.parts
            and rel.parts[0] not in LATER)


def package_files() -> list[Path]:
    """The files of the estimator package that ship, subpackages included: every module and the py.typed marker,
    in a fixed order (their paths relative to the package)."""
    files = sorted((p for p in PACKAGE_DIR.rglob("*") if _ships(p)),
                   key=lambda p: p.relative_to(PACKAGE_DIR).as_posix())
    shipped = {p.relative_to(PACKAGE_DIR).as_posix() for p in files}
    missing = [name for name in REQUIRED if name not in shipped]
    if missing:
        raise PluginError(f"{PACKAGE_DIR}: {', '.join(missing)} missing from the estimator wheel")
    return files


def wheel_name(path: Path) -> str:
    """The name of a package file inside the wheel: ``calculator/<path relative to the package>``."""
    return "calculator/" + path.relative_to(PACKAGE_DIR).as_posix()


def project_version() -> str:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def sources_hash() -> str:
    h = hashlib.sha256(f"wheel-writer {WRITER_VERSION} {project_version()}\n".encode())
    for path in package_files():
        h.update(wheel_name(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def write_wheel(target_dir: Path) -> Path:
    """Write ``calculator-<version>-py3-none-any.whl`` into target_dir (PEP 427: dist-info with METADATA, WHEEL
    and a RECORD of sha256 hashes; fixed timestamps, so the same sources give the same bytes)."""
    version = project_version()
    dist_info = f"calculator-{version}.dist-info"
    entries = [(wheel_name(p), p.read_bytes()) for p in package_files()]
    entries.append((f"{dist_info}/METADATA", (
        "Metadata-Version: 2.1\n"
        "Name: calculator\n"
        f"Version: {version}\n"
        "Summary: GPU memory estimator for fine-tuning large language models\n"
        "Requires-Python: >=3.11\n"
    ).encode()))
    entries.append((f"{dist_info}/WHEEL", (
        "Wheel-Version: 1.0\n"
        "Generator: sitebuild/wheel.py\n"
        "Root-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    ).encode()))
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in entries)
    record += f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))
    target_dir.mkdir(parents=True, exist_ok=True)
    wheel = target_dir / f"calculator-{version}-py3-none-any.whl"
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    tmp.replace(wheel)
    return wheel


def cached_wheel() -> tuple[str, Path]:
    """(sources hash, path of the wheel for the current sources), writing it on first use."""
    digest = sources_hash()
    folder = CACHE_DIR / digest
    found = sorted(folder.glob("calculator-*-py3-none-any.whl")) if folder.is_dir() else []
    return digest, (found[0] if found else write_wheel(folder))
