"""The site's own scripts and stylesheets, minified into the built site by esbuild (pinned in package.json, already
the admin app's bundler): each file alone, no bundling, its imports and syntax kept. ``docs/assets/`` keeps the
commented sources; the reader's browser gets the short copies. Before this, an article transferred calc.js (59 kB)
and calc.css (33 kB) as written, comments and all, before any widget started."""
from __future__ import annotations

import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
#: The files minified, relative to docs/ (and to the site root): every script and stylesheet of docs/assets/.
MINIFIED = tuple(sorted(str(p.relative_to(DOCS)) for p in (DOCS / "assets").rglob("*")
                        if p.suffix in (".js", ".mjs", ".css")))


def minify(path: Path) -> bytes:
    """The minified text of one source file (esbuild's ``--minify``, JavaScript modules and stylesheets alike)."""
    if not ESBUILD.exists():
        raise PluginError("node_modules/.bin/esbuild is missing: run `npm ci` (make serve does it)")
    loader = "css" if path.suffix == ".css" else "js"
    proc = subprocess.run([str(ESBUILD), "--minify", f"--loader={loader}", "--log-level=warning", "--charset=utf8"],
                          input=path.read_bytes(), capture_output=True, timeout=60)
    if proc.returncode != 0 or not proc.stdout:
        raise PluginError(f"esbuild could not minify {path.relative_to(ROOT)}: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


def install(site_dir: Path) -> list[str]:
    """Write the minified copy of every file of ``MINIFIED`` over the one MkDocs copied; the paths written."""
    done = []
    for rel in MINIFIED:
        out = site_dir / rel
        if out.exists():                       # a file MkDocs copied (a page without it still builds)
            out.write_bytes(minify(DOCS / rel))
            done.append(rel)
    return done
