"""The page strings: one table per language in ``overrides/strings/<lang>.json``, read by both build hooks
(hooks/site.py for the site's own texts, hooks/widgets.py for the ``calc`` part) and, as a JSON block in every page,
by the widget script."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STRINGS_DIR = Path(__file__).resolve().parents[1] / "overrides" / "strings"
LANGUAGES = ("ar", "en")


def load_strings(lang: str) -> dict[str, Any]:
    """The whole table of ``lang``; FileNotFoundError names the missing file."""
    return json.loads((STRINGS_DIR / f"{lang}.json").read_text(encoding="utf-8"))
