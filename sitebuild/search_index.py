"""One search index per language, each page searching its own.

How the pinned plugins build the index: Material's search plugin (9.7.6, ``plugins/search/plugin.py``) collects one
entry per page section during a build and writes ``<site_dir>/search/search_index.json`` in ``on_post_build``. The
i18n plugin (mkdocs-static-i18n 1.3.1) runs one build per language and, at the end of the default language's
``on_post_build`` (priority -100), replaces the search plugin's entries with those of every language and has it
write the index again: one index of both languages at the site root, which every page loads (Material fetches
``<__config.base>/search/search_index.json``, and every page's base is the site root). So an English query's first
hits could be Arabic pages.

Here, after both plugins (hooks/search.py runs this at priority -200), the entries the search plugin holds are split
by language: the default language's (those whose location is not under another language's folder) to
``search/search_index.json``, any other language's to ``<lang>/search/search_index.json`` with locations relative
to that folder. The last run, the default language's, holds every language's entries and writes every index (the
other languages' builds, nested in it, hold only their own and write only theirs). :func:`language_base` points
every page's ``__config.base`` at its language's folder. The index's
``config`` (lunr languages, separator, pipeline) is the search plugin's own, unchanged.
"""
from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError


def _languages(config) -> tuple[str, list[str]]:
    """(default locale, every built locale) from the i18n plugin's configuration."""
    languages = [lang for lang in config.plugins["i18n"].config.languages if lang.build]
    return next(lang.locale for lang in languages if lang.default), [lang.locale for lang in languages]


def _search_plugin(config):
    for name in ("material/search", "search"):
        if name in config.plugins:
            return config.plugins[name]
    raise PluginError("the search plugin is not configured")


def write_language_indexes(config) -> list[Path]:
    """Write the search index of every language the search plugin holds entries of; return their paths."""
    default, languages = _languages(config)
    others = tuple(f"{code}/" for code in languages if code != default)
    data = json.loads(_search_plugin(config).search_index.generate_search_index(None))
    written = []
    for lang in languages:
        if lang == default:
            docs = [doc for doc in data["docs"] if not doc["location"].startswith(others)]
            out = Path(config.site_dir) / "search" / "search_index.json"
        else:
            prefix = f"{lang}/"
            docs = [{**doc, "location": doc["location"][len(prefix):]}
                    for doc in data["docs"] if doc["location"].startswith(prefix)]
            out = Path(config.site_dir) / lang / "search" / "search_index.json"
        if docs:
            out.parent.mkdir(parents=True, exist_ok=True)
            # UTF-8 as is: escaped, every Arabic letter would cost six bytes instead of two (the index loads with the page)
            out.write_text(json.dumps({**data, "docs": docs}, separators=(",", ":"), ensure_ascii=False, default=str),
                           encoding="utf-8")
            written.append(out)
    return written


_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(?P<json>.*?)(</script>)', re.S)


def language_base(html: str, config, lang: str) -> str:
    """Point the page's Material base at its language's folder (``"../.."`` -> ``"../../en/"`` on an English page),
    so that search loads that language's index and resolves its locations there."""
    default, _ = _languages(config)
    if lang == default:
        return html
    match = _CONFIG.search(html)
    if not match:
        raise PluginError("a page has no __config block (Material changed?)")
    data = json.loads(match["json"])
    data["base"] = posixpath.join(data["base"], lang) + "/"
    block = json.dumps(data).replace("</", "<\\/")
    return html[:match.start("json")] + block + html[match.end("json"):]
