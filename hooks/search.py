"""One search index per language, each page searching its own (sitebuild/search_index.py says how and why)."""
from __future__ import annotations

from mkdocs.plugins import event_priority

from sitebuild import search_index


def on_post_page(output, page, config):
    return search_index.language_base(output, config, str(config.theme["language"]))


@event_priority(-200)  # after the search plugin (0) and the i18n plugin (-100) wrote the index of both languages
def on_post_build(config):
    search_index.write_language_indexes(config)
