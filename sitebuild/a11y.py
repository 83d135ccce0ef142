"""Accessibility fixes to markup the theme writes (what axe-core reports in Material's own templates; the colours are
in docs/assets/site.css and docs/assets/calc/calc.css, the checks in tests/e2e/test_a11y.py).

* Material's search is a ``role="dialog"`` without a name (axe: aria-dialog-name, serious). It gets the label of
  its own search field ("بحث" / "Search", Material's translation), so the two cannot disagree.
"""
from __future__ import annotations

import re

_DIALOG = re.compile(r'<div class="md-search" data-md-component="search" role="dialog">')
_FIELD_LABEL = re.compile(r'<input type="text" class="md-search__input" name="query" aria-label="(?P<label>[^"]+)"')


def name_search_dialog(html: str) -> str:
    label = _FIELD_LABEL.search(html)
    if not label:
        return html
    return _DIALOG.sub(lambda m: m.group(0)[:-1] + f' aria-label="{label["label"]}">', html, count=1)
