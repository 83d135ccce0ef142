"""The bundled Pyodide runtime: its core files are copied from ``node_modules/pyodide`` (pinned in package.json) into
``assets/pyodide/<version>/`` of the built site, with two literal edits so that no other host's address is left in
what the site serves.

Pyodide's fallback for packages is its CDN, used only when ``packageBaseUrl`` is unset (worker.mjs sets it); it now
falls back to the bundle's own folder (``t`` is indexURL there). The second edit is not a request at all (a host:port
parse in the sockets shim), written so that no "https://..." literal remains. A pinned-version upgrade that changes
these lines fails the build here, so the edits are looked at again.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"

#: Pyodide's core: the loader, the Emscripten module, the wasm binary, the standard library, the (empty) lock file.
FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PATCHES: dict[str, tuple[tuple[bytes, bytes], ...]] = {
    "pyodide.mjs": ((b"e.cdnUrl=k(e.packageBaseUrl??`https://cdn.jsdelivr.net/pyodide/v${U}/full/`)",
                     b"e.cdnUrl=k(e.packageBaseUrl??t)"),),
    "pyodide.asm.mjs": ((b"new URL(`https://${t}`)", b'new URL("https://"+t)'),),
}


def version() -> str:
    """The installed Pyodide version, which must be the one package.json pins."""
    pkg = PYODIDE_DIR / "package.json"
    if not pkg.is_file():
        raise PluginError("node_modules/pyodide is missing: run `npm ci` (make serve does it)")
    installed = json.loads(pkg.read_text(encoding="utf-8"))["version"]
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    if installed != pinned:
        raise PluginError(f"node_modules/pyodide is {installed} but package.json pins {pinned}: run `npm ci`")
    return installed


def copy_if_changed(src: Path, dst: Path) -> None:
    if dst.is_file() and dst.stat().st_size == src.stat().st_size and dst.stat().st_mtime >= src.stat().st_mtime:
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def patched(name: str) -> bytes | None:
    """The file's bytes with its edits applied, or None when it is copied as it is."""
    patches = PATCHES.get(name)
    if not patches:
        return None
    data = (PYODIDE_DIR / name).read_bytes()
    for old, new in patches:
        if data.count(old) != 1:
            raise PluginError(f"node_modules/pyodide/{name} changed: the edit {old[:60]!r}... no longer applies "
                              "(see PATCHES in sitebuild/runtime.py)")
        data = data.replace(old, new)
    return data


def download_bytes() -> int:
    """What a page downloads to start the runtime (every core file, as served), for the loading progress."""
    total = 0
    for name in FILES:
        data = patched(name)
        total += len(data) if data is not None else (PYODIDE_DIR / name).stat().st_size
    return total


def install(target: Path) -> None:
    """Copy (or patch) every core file into ``target``; files that did not change are left alone."""
    for name in FILES:
        src = PYODIDE_DIR / name
        if not src.is_file():
            raise PluginError(f"{src} is missing: run `npm ci`")
        data = patched(name)
        dst = target / name
        if data is None:
            copy_if_changed(src, dst)
        elif not dst.is_file() or dst.read_bytes() != data:
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
            shutil.copystat(src, dst)  # keep npm's timestamp: the runtime's Last-Modified does not change per build
