"""The calculator's MkDocs plugin (``plugins: - calc`` in mkdocs.yml, registered by dev/pyproject.toml's entry point):
markers in the Markdown become computed figures and widgets; the Python runtime and the estimator wheel are bundled
into the site. The work itself is in ``sitebuild`` (markers, compute, articles, wheel, runtime) and
``calculator.page`` (every widget's and article table's markup; a widget's is the same code the page's worker
runs); this class only routes the events, and keeps what one build needs on itself (Material's plugins' habit), never in module globals.

Article tables, inline figures and the assumptions sentence enter the page in ``on_page_content`` (they are
article text, so search indexes them). Widgets enter in ``on_post_page``, after the search plugin has indexed the
page (their labels, options and default figures are not article text). A page with widgets also gets, in its
<head>, the runtime's location and sizes and the widgets' module. Widget ids are ``calc-<kind>-<n>`` (n counts
that kind in page order, the same in both languages): the keys of the URL state.

The i18n plugin builds the site once per language into the same site_dir with the same plugins, so every step here
is idempotent and the expensive ones (estimates, the wheel) are cached across the two builds. Notes about the build
go to the ``mkdocs.plugins.calc`` logger at INFO (shown by ``mkdocs build``, hidden by ``--quiet``; a WARNING would
fail the strict build, so none is one).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import get_relative_url

from calculator.errors import EstimatorError, StringMissing
from calculator.page import WIDGET_KINDS, render_widget, runtime_head
from calculator.page.text import Strings

from . import compute, markers, runtime, wheel
from .calc_assets import check_calc_assets
from .strings import calc_strings, check_calc_strings, strings_file

log = logging.getLogger("mkdocs.plugins.calc")

#: The estimator sources this process imported (``mkdocs serve`` rebuilds in one process, whose ``calculator`` was
#: imported once: a changed source would mix old build-time figures with a new wheel).
IMPORTED_SOURCES = (wheel.sources_hash(), wheel.sources_hash(later=True))


@dataclass
class _Bundle:
    """Where this build puts the runtime and the wheel."""

    wheel: Path
    wheel_rel: str
    pyodide_rel: str
    runtime_bytes: int
    #: The second load (the exporters and the libraries they import: sitebuild/wheel.py), (wheel, its site path).
    later: list[tuple[Path, str]] = field(default_factory=list)


@dataclass
class _PageWidgets:
    """A page's widgets, rendered in on_page_content and placed in on_post_page, and its <head> addition."""

    head: str
    widgets: dict[str, str] = field(default_factory=dict)


class CalcConfig(Config):
    """The plugin takes no options: what it builds is declared in calculator/ and sitebuild/."""


class CalcPlugin(BasePlugin[CalcConfig]):
    """The calculator's build events."""

    def __init__(self) -> None:
        self.bundle: _Bundle | None = None
        self.pages: dict[tuple[str, str], _PageWidgets] = {}   # (language, page url) -> its widgets

    def on_pre_build(self, *, config: Any) -> None:
        digest, wheel_path = wheel.cached_wheel()
        if (digest, wheel.sources_hash(later=True)) != IMPORTED_SOURCES:
            raise PluginError("calculator/ changed while `mkdocs serve` was running: restart it (or use `make serve`)")
        version = runtime.version()
        later = [(path, f"assets/calc/wheel/{d}/{path.name}") for d, path in wheel.later_wheels()]
        self.bundle = _Bundle(wheel=wheel_path, wheel_rel=f"assets/calc/wheel/{digest}/{wheel_path.name}",
                              pyodide_rel=f"assets/pyodide/{version}/", runtime_bytes=runtime.download_bytes(),
                              later=later)
        compute.clear()
        check_calc_strings()
        check_calc_assets()
        log.info("calc: estimator wheel %s (%d files), Pyodide %s (%.1f MB to download); on demand: %s", digest,
                 len(wheel.package_files()), version, self.bundle.runtime_bytes / 1e6,
                 ", ".join(f"{p.name} ({p.stat().st_size / 1e3:.0f} kB)" for p, _ in later))

    def on_page_content(self, html: str, *, page: Any, config: Any, files: Any) -> str:
        where = page.file.src_uri
        s = _strings(config)
        article = markers.front_matter(page.meta, where)
        found = markers.find(html, where)
        key = (s.lang, page.url)
        self.pages.pop(key, None)
        if not found:
            return html
        counts: dict[str, int] = {}
        widgets: dict[str, str] = {}
        out: list[str] = []
        last = 0
        first_widget_at = None
        for match, marker in found:
            out.append(html[last:match.start()])
            last = match.end()
            static = markers.STATIC_MARKERS.get(marker.kind)
            try:
                if static is not None and not static.with_widgets:
                    out.append(static.render(s, marker, article, where, ""))
                elif static is not None:             # placed with the widgets: the files stay out of the search
                    counts[marker.kind] = counts.get(marker.kind, 0) + 1
                    cid = f"calc-{marker.kind}-{counts[marker.kind]}"
                    widgets[cid] = static.render(s, marker, article, where, cid)
                    out.append(_slot(cid))
                else:
                    counts[marker.kind] = counts.get(marker.kind, 0) + 1
                    wid = f"calc-{marker.kind}-{counts[marker.kind]}"
                    if first_widget_at is None:
                        first_widget_at = match.start()
                    widgets[wid] = _widget(s, marker, article, wid, where=where)
                    out.append(_slot(wid))
            except StringMissing as exc:
                raise PluginError(f"{where}: a string the calculator needs is missing: {exc}") from exc
        out.append(html[last:])
        if widgets:
            first_heading = html.find("<h2")
            eager = first_heading == -1 or (first_widget_at is not None and first_widget_at < first_heading)
            self.pages[key] = _PageWidgets(self._head(page.url, eager, s.lang), widgets)
        log.info("calc: %s (%s): %d figures and tables, %d widgets", where, s.lang, len(found) - len(widgets),
                 len(widgets))
        return "".join(out)

    def _bundle(self) -> _Bundle:
        """The build's runtime and wheel, made in ``on_config``: a page or a build end without it is a plugin error
        (MkDocs calls ``on_config`` first), not an ``AssertionError`` that ``python -O`` would skip."""
        if self.bundle is None:
            raise PluginError("calc: the runtime and wheel were not prepared (on_config did not run)")
        return self.bundle

    def _head(self, page_url: str, eager: bool, lang: str) -> str:
        """The page's runtime config and widgets' module (calculator.page.runtime_head): the runtime's location (from
        the site root), the size of its core files, the worker's strings file for the page's language."""
        bundle = self._bundle()
        paths = {"pyodide": bundle.pyodide_rel, "wheel": bundle.wheel_rel, "bytes": bundle.runtime_bytes,
                 "later": [rel for _, rel in bundle.later], "strings": strings_file(lang)[0]}
        return runtime_head(paths, eager, get_relative_url("assets/calc/calc.js", page_url))

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        entry = self.pages.get((str(config.theme["language"]), page.url))
        if entry is None:
            return output
        for wid, widget in entry.widgets.items():
            slot = _slot(wid)
            if output.count(slot) != 1:
                raise PluginError(f"{page.file.src_uri}: the place of calculator widget {wid} was lost in rendering")
            output = output.replace(slot, widget)
        at = output.find("</head>")
        if at == -1:
            raise PluginError(f"{page.file.src_uri}: no </head> to put the calculator's runtime config in")
        return output[:at] + entry.head + output[at:]

    def on_post_build(self, *, config: Any) -> None:
        bundle = self._bundle()
        site = Path(config.site_dir)
        runtime.install(site / bundle.pyodide_rel)
        runtime.copy_if_changed(bundle.wheel, site / bundle.wheel_rel)
        for path, rel in bundle.later:
            runtime.copy_if_changed(path, site / rel)
        rel, data = strings_file(str(config.theme["language"]))
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
        log.info("calc: runtime and wheel in %s", site / "assets")


def _strings(config: Any) -> Strings:
    lang = str(config.theme["language"])
    return Strings(calc_strings(lang), lang)


def _widget(s: Strings, marker: markers.Marker, article: dict[str, Any], wid: str, *, where: str) -> str:
    kind = WIDGET_KINDS[marker.kind]
    fixed = kind.fixed(marker.attrs, article)
    state = kind.state(marker.attrs, fixed=article)
    try:
        return render_widget(s, marker.kind, wid, state, fixed)
    except EstimatorError as exc:
        raise PluginError(f"{where}: the estimator rejects the inputs of {wid}: {exc.code} (field {exc.field!r}); "
                          f"state {json.dumps(state, sort_keys=True)}, fixed {json.dumps(fixed, sort_keys=True)}") \
            from exc


def _slot(wid: str) -> str:
    return f'<div class="calc-slot" data-calc-slot="{wid}"></div>'
