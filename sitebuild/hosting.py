"""The built site works under any sub-path (``https://host/guide/``), so no URL in it may start with "/".

MkDocs writes page-relative URLs everywhere except in two places, both fixed here:

* The language switcher. mkdocs-static-i18n (1.3.1, ``reconfigure.py``) writes each language's home as a
  root-absolute link (``"/"``, ``"/en/"``) and replaces it by the page's alternate only on pages other than the
  homes; Material's ``url`` filter leaves a root-absolute link as it is. :func:`relative_alternates` makes those
  links relative to the site root, which the filter then makes relative to the page.
* The 404 page. A static host serves the site's ``404.html`` for a missing address at any depth below the site
  (``/guide/no/such/page/``), so no relative URL in it is right for every request, and MkDocs writes its URLs from
  the server root instead (``base_url`` "/", mkdocs ``commands/build.py``). The page is rendered relative to the
  site root (:func:`not_found_context`) and reshaped by :func:`not_found_page`: its stylesheets and scripts wait in
  ``<template>`` elements (which the browser does not fetch from) until the inline loader
  (``overrides/partials/not-found-loader.html``) has found the site root, set ``<base href>`` to it and put them in.
  Without JavaScript the page shows its text unstyled.
"""
from __future__ import annotations

import re

from mkdocs.exceptions import PluginError
from mkdocs.utils import normalize_url


def relative_alternates(config) -> None:
    """The language switcher's links, relative to the site root ("/" -> "", "/en/" -> "en/"). The i18n plugin sets
    them both as an attribute of ``config.extra`` (what the templates read) and as its item; both are fixed."""
    for alternates in (getattr(config.extra, "alternate", None), config.extra.get("alternate")):
        for alternate in alternates or []:
            link = alternate.get("link") or ""
            if link.startswith("/") and not link.startswith("//"):
                alternate["link"] = link.lstrip("/")


def not_found_context(context, config) -> None:
    """Render the 404 page relative to the site root (base "."), like a page at the root, instead of from "/"."""
    context["base_url"] = "."
    context["extra_css"] = [normalize_url(path, None, ".") for path in config.extra_css]
    context["extra_javascript"] = [normalize_url(str(script), None, ".") for script in config.extra_javascript]
    relative_alternates(config)


_HEAD = re.compile(r"<head>(?P<inner>.*?)</head>", re.S)
_BODY = re.compile(r"(?P<open><body[^>]*>)(?P<inner>.*)</body>", re.S)
_LOADER = re.compile(r'<script id="site-root-loader">.*?</script>', re.S)
# What the page shows before the loader has run: the character set, the viewport and the title.
_EARLY = re.compile(r'<meta charset="[^"]*">|<meta name="viewport"[^>]*>|<title>.*?</title>', re.S)
# Executable scripts (not JSON data blocks): they run, in order, once the root is known.
_SCRIPT = re.compile(r'<script(?![^>]*type="application/json")[^>]*>.*?</script>', re.S)
# Material's storage scope (palette, tabs), written from the page's own address; on this page it is the site root.
_SCOPE = 'new URL(".",location)'


def not_found_page(html: str) -> str:
    """Move the 404 page's stylesheets, favicon and scripts into <template>s that its loader fills in."""
    head, body = _HEAD.search(html), _BODY.search(html)
    loader = _LOADER.search(html)
    if not (head and body and loader):
        raise PluginError("404.html: expected <head>, <body> and the site-root loader (overrides/404.html)")
    if _SCOPE not in html:
        raise PluginError(f"404.html: Material's storage scope {_SCOPE!r} is not in the page (Material changed?)")
    head_inner = _LOADER.sub("", head["inner"]).replace(_SCOPE, 'new URL(".",document.baseURI)')
    early = "\n".join(m.group(0) for m in _EARLY.finditer(head_inner))
    deferred_head = _EARLY.sub("", head_inner)
    scripts = "\n".join(m.group(0) for m in _SCRIPT.finditer(body["inner"]))
    body_inner = _SCRIPT.sub("", body["inner"])
    new_head = (f"<head>\n{early}\n{loader.group(0)}\n"
                f'<template id="site-root-head">{deferred_head}</template>\n</head>')
    new_body = f'{body["open"]}{body_inner}<template id="site-root-scripts">\n{scripts}\n</template>\n</body>'
    return html[:head.start()] + new_head + html[head.end():body.start()] + new_body + html[body.end():]
