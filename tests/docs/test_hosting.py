"""Hosting the built site anywhere, read from disk: every URL by which a built page, stylesheet or script reaches the
site itself is relative (the site works under any sub-path: issue 10, point 9), and each language has its own
search index, which every page of that language loads (point 11). The browser checks are in tests/e2e/test_site.py.
"""
from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.docs

LANGS = ("ar", "en")  # ar is the default language, at the site root; en lives under en/


class _Urls(HTMLParser):
    """Every URL-valued attribute of one document, and the text of its inline scripts."""

    ATTRS = {"href", "src", "srcset", "action", "formaction", "poster", "data", "xlink:href"}

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.scripts: list[str] = []
        self.lang: str | None = None
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        for name, value in attrs:
            if name in self.ATTRS and value:
                parts = value.split(",") if name == "srcset" else [value]
                self.urls += [p.strip().split(" ")[0] for p in parts]
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def parse(path: Path) -> _Urls:
    doc = _Urls()
    doc.feed(path.read_text(encoding="utf-8"))
    return doc


def _root_absolute(url: str) -> bool:
    return url.startswith("/") and not url.startswith("//")  # "//host/..." is off-host: test_build.py's concern


_CSS_URL = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])(?P<u>[^"')\s]+)""", re.I)

# Scripts of another application bundled into the site, whose quoted "/..." strings are not this site's URLs. The
# browser tests still follow every request these pages make (tests/e2e/test_site.py, under /guide/).
OTHER_APPS = {
    "admin/": "Sveltia CMS (the admin app): '/assets', '/search/...' are its in-app routes, and '/admin/config.yml' "
              "its default configuration path, unused because the admin page names its configuration file "
              "(<link rel=\"cms-config-url\">)",
}


def test_no_built_file_reaches_the_site_by_a_root_absolute_url(built_site):
    """A URL starting with "/" leaves the sub-path the site is served under (https://host/guide/ -> https://host/).
    HTML attributes and CSS url() must never start with "/"; in scripts (files and inline) a quoted string starting
    with "/" followed by one of the site's own top-level names is such a URL ("/assets/...", "/en/", "/search/..."),
    and in an inline script a URL built from or a base set to "/" is the site root (Material's storage scope
    ``new URL("/",location)``, its ``"base": "/"``)."""
    tops = sorted(re.escape(p.name) for p in built_site.iterdir())
    own = re.compile(r"""(?P<q>["'`])(?P<u>/(?:%s)(?:[/?#]|(?P=q))[^"'`\s]*)""" % "|".join(tops))
    bare_root = re.compile(r"""(?:new URL\(|"base":\s*)(["'`])/""")
    offenders: list[str] = []
    for path in sorted(built_site.rglob("*")):
        rel = path.relative_to(built_site).as_posix()
        if path.suffix == ".html":
            doc = parse(path)
            offenders += [f"{rel}: {u}" for u in doc.urls if _root_absolute(u)]
            for script in doc.scripts:
                offenders += [f"{rel}: script {m['u']}" for m in own.finditer(script)]
                offenders += [f"{rel}: script {m.group(0)}" for m in bare_root.finditer(script)]
            text = path.read_text(encoding="utf-8")
            for style in re.findall(r"<style[^>]*>(.*?)</style>", text, re.S):
                offenders += [f"{rel}: style {u}" for u in _CSS_URL.findall(style) if _root_absolute(u)]
        elif path.suffix == ".css":
            css = path.read_text(encoding="utf-8")
            offenders += [f"{rel}: {u}" for u in _CSS_URL.findall(css) if _root_absolute(u)]
        elif path.suffix in (".js", ".mjs") and not rel.startswith(tuple(OTHER_APPS)):
            js = path.read_text(encoding="utf-8", errors="replace")
            offenders += [f"{rel}: {m['u']}" for m in own.finditer(js)]
    assert not offenders, "root-absolute URLs:\n" + "\n".join(offenders[:60])


# ------------------------------------------------------------------------------------------------------------
# Search: one index per language
# ------------------------------------------------------------------------------------------------------------
def lang_root(site: Path, lang: str) -> Path:
    return site if lang == LANGS[0] else site / lang


def built_pages(site: Path) -> dict[str, list[Path]]:
    """Every page MkDocs built (not the 404 page, nor another app's page such as the admin) by its <html lang>."""
    pages: dict[str, list[Path]] = {lang: [] for lang in LANGS}
    for path in sorted(site.rglob("index.html")):
        if '<script id="__config"' in path.read_text(encoding="utf-8"):
            pages.setdefault(parse(path).lang or "", []).append(path)
    return pages


def _config(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    match = re.search(r'<script id="__config" type="application/json">(.*?)</script>', text, re.S)
    assert match, f"{path}: no __config block"
    return json.loads(match.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_has_its_own_search_index_of_its_own_pages(built_site, lang):
    root = lang_root(built_site, lang)
    index_file = root / "search" / "search_index.json"
    assert index_file.is_file(), f"no search index for {lang!r} at {index_file.relative_to(built_site)}"
    docs = json.loads(index_file.read_text(encoding="utf-8"))["docs"]
    indexed: set[Path] = set()
    for doc in docs:
        page = doc["location"].split("#")[0]
        target = root / page / "index.html"
        assert target.is_file(), f"{lang} index: {doc['location']!r} is no page under {root.relative_to(built_site)}/"
        assert parse(target).lang == lang, f"{lang} index holds {doc['location']!r}, a page in {parse(target).lang}"
        indexed.add(target)
    assert indexed == set(built_pages(built_site)[lang]), "a page of this language is missing from its index"


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_loads_the_search_index_of_its_language(built_site, lang):
    """Material loads ``<__config.base>/search/search_index.json``: each page's base must be its language's root."""
    root = lang_root(built_site, lang)
    for path in built_pages(built_site)[lang]:
        base = _config(path)["base"]
        page_dir = path.parent.relative_to(built_site).as_posix()
        resolved = posixpath.normpath(posixpath.join(page_dir, base))
        expected = posixpath.normpath(root.relative_to(built_site).as_posix())
        assert resolved == expected, f"{path.relative_to(built_site)}: base {base!r} -> {resolved!r}, not {expected!r}"
