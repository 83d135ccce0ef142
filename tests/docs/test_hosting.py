"""Hosting the built site anywhere, read from disk: every URL by which a built page, stylesheet or script reaches the
site itself is relative (the site works under any sub-path: issue 10, point 9). The browser checks are in
tests/e2e/test_site.py.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.docs

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
