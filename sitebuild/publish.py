"""The one publish switch: which articles are unpublished drafts.

Each input is declared once:

* **connected** -- derived from the CMS configuration, ``cms/config.yml`` (:func:`sitebuild.cms.is_connected`);
  ``mkdocs.yml`` has no key for it.
* **draft_default** -- ``extra.draft_default`` in ``mkdocs.yml``, in the root ``extra`` only (the i18n plugin copies
  it into every language): the state of an article whose front matter has no ``draft`` key.
* **draft** -- each article's own front-matter key, the same in its two language files (the CMS writes both).

Not connected: every article is a draft (banner, ``noindex``, status in the navigation), whatever its front matter
says. Connected: the article's ``draft`` decides, ``draft_default`` when it has none. A misspelt or misplaced key
fails the build instead of publishing one language alone.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.utils.meta import get_data

from sitebuild import cms

# Pages whose source sits under these folders (of docs/) are articles: they carry the draft flag.
ARTICLE_DIRS = ("articles/",)

# The keys `extra` may hold: ours, and those Material's templates read (grep config.extra in material/templates).
SITE_EXTRA_KEYS = frozenset({"draft_default"})
MATERIAL_EXTRA_KEYS = frozenset({
    "alternate", "analytics", "annotate", "consent", "generator", "homepage", "polyfills", "scope", "social",
    "status", "tags", "version",
})
RETIRED_EXTRA_KEYS = {
    "cms_connected": "whether a CMS is connected is derived from cms/config.yml (its backend); remove the key",
}


class PublishConfigError(ValueError):
    """A publish setting is missing, misspelt, misplaced or of the wrong type."""


@dataclass(frozen=True)
class Publishing:
    connected: bool
    draft_default: bool

    def is_draft(self, draft: bool | None) -> bool:
        """Whether an article whose front matter says ``draft`` (None: no key) is an unpublished draft."""
        if not self.connected:
            return True
        return self.draft_default if draft is None else draft


def _unknown_key_message(key: str, where: str) -> str:
    if key in RETIRED_EXTRA_KEYS:
        return f"{where}: `{key}`: {RETIRED_EXTRA_KEYS[key]}"
    close = difflib.get_close_matches(key, sorted(SITE_EXTRA_KEYS | MATERIAL_EXTRA_KEYS), n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    return f"{where}: unknown key `{key}`{hint}"


def check_extra(extra: Mapping[str, Any], language_extras: Mapping[str, Mapping[str, Any] | None]) -> bool:
    """Validate the root ``extra`` and each language's ``extra`` override; return ``draft_default``."""
    for key in extra:
        if key not in SITE_EXTRA_KEYS | MATERIAL_EXTRA_KEYS:
            raise PublishConfigError(_unknown_key_message(key, "mkdocs.yml extra"))
    for locale, override in language_extras.items():
        where = f"mkdocs.yml plugins.i18n language `{locale}` extra"
        for key in override or {}:
            if key in SITE_EXTRA_KEYS:
                raise PublishConfigError(f"{where}: `{key}` is set once for every language, in the root `extra`")
            if key not in MATERIAL_EXTRA_KEYS:
                raise PublishConfigError(_unknown_key_message(key, where))
    if "draft_default" not in extra:
        raise PublishConfigError("mkdocs.yml extra: `draft_default` is missing (true: an article without a `draft` key"
                                 " stays a draft once a CMS is connected)")
    value = extra["draft_default"]
    if not isinstance(value, bool):
        raise PublishConfigError(f"mkdocs.yml extra: `draft_default` must be true or false, not {value!r}")
    return value


def _draft_key(path: Path, docs_dir: Path) -> bool | None:
    _, meta = get_data(path.read_text(encoding="utf-8-sig"))
    value = meta.get("draft")
    if value is not None and not isinstance(value, bool):
        raise PublishConfigError(f"{path.relative_to(docs_dir)}: `draft` must be true or false, not {value!r}")
    return value


def article_drafts(docs_dir: Path, suffixes: Iterable[str]) -> dict[str, bool | None]:
    """``draft`` of every article (by its path without language suffix, e.g. ``articles/vram-guide``), read from all
    its language files (``suffixes``: ``""`` for the default language, ``".en"``...); they must agree."""
    out: dict[str, bool | None] = {}
    for folder in ARTICLE_DIRS:
        default_files = [p for p in sorted((docs_dir / folder).glob("*.md"))
                         if not any(s and p.name.endswith(f"{s}.md") for s in suffixes)]
        for path in default_files:
            stem = str(path.relative_to(docs_dir).with_suffix("")).replace("\\", "/")
            values = {s: _draft_key(docs_dir / f"{stem}{s}.md", docs_dir)
                      for s in suffixes if (docs_dir / f"{stem}{s}.md").is_file()}
            if len(set(values.values())) > 1:
                listed = ", ".join(f"{stem}{s}.md: {v}" for s, v in values.items())
                raise PublishConfigError(f"`draft` differs between the language files of {stem} ({listed}); one"
                                         " language would publish alone")
            out[stem] = next(iter(values.values()))
    return out


def publishing(extra: Mapping[str, Any], language_extras: Mapping[str, Mapping[str, Any] | None],
               cms_config: Mapping[str, Any], cms_where: str = "cms/config.yml") -> Publishing:
    """The rule for this site: ``mkdocs.yml``'s ``extra`` (checked) and the CMS configuration (read by the caller)."""
    draft_default = check_extra(extra, language_extras)
    return Publishing(connected=cms.is_connected(cms_config, cms_where), draft_default=draft_default)


def is_article(src_uri: str) -> bool:
    return src_uri.startswith(ARTICLE_DIRS)
