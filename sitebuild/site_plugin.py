"""The site's own MkDocs plugin (``plugins: - site`` in mkdocs.yml, registered by dev/pyproject.toml's entry point):
site-wide build behaviour that the theme does not do by itself.

* The unpublished-draft flag (the rule is ``sitebuild/publish.py``): while ``cms/config.yml`` names no real
  backend every article is a draft; once it does, an article's ``draft`` front-matter key (default
  ``extra.draft_default``) decides. A draft gets the banner, ``<meta name="robots" content="noindex">`` and
  Material's page status in the navigation.
* The CMS's admin app, bundled from npm and copied into ``site/admin/`` with its configuration (``sitebuild/cms.py``).
* Page strings in one table per language (``calculator/strings/<lang>.json``), given to the templates as
  ``strings`` and to the page scripts as a JSON block.
* Self-hosted fonts (``sitebuild/fonts.py``) and the offline guarantees: nothing in the built site reaches another
  host.

The i18n plugin builds the site once per language with the same plugin instances (its ``on_post_build`` runs the
other languages' builds), so ``on_config`` sets this build's state on the instance (the publish rule and what the
admin reads: Material's plugins' habit, never module globals), every step is idempotent and writes only below that
build's ``site_dir``. Notes about the build go to the ``mkdocs.plugins.site`` logger at INFO (shown by ``mkdocs
build``, hidden by ``--quiet``; a WARNING would fail the strict build, so none is one).
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from . import a11y, cms, fonts, hosting, minify, publish
from .strings import LANGUAGES, load_strings, page_script_strings

log = logging.getLogger("mkdocs.plugins.site")


@dataclass(frozen=True)
class _Build:
    """What one language build needs, set in on_config: the publish rule and the CMS configuration it came from."""

    lang: str
    publishing: publish.Publishing
    cms_config: dict[str, Any]
    cms_file: Path


class SiteConfig(Config):
    """The plugin takes no options: the publish switch is cms/config.yml and mkdocs.yml's ``extra``."""


class SitePlugin(BasePlugin[SiteConfig]):
    """The site-wide build events."""

    def __init__(self) -> None:
        self.build: _Build | None = None
        self.drafts: list[str] = []          # this build's articles shown as unpublished drafts

    def _state(self) -> _Build:
        if self.build is None:
            raise PluginError("the site plugin's on_config did not run before the build")
        return self.build

    def draft_active(self, page: Any) -> bool:
        """True when the page is an article that is still an unpublished draft."""
        return publish.is_article(page.file.src_uri) and self._state().publishing.is_draft(page.meta.get("draft"))

    @event_priority(-110)  # after the i18n plugin's on_config (-100), which sets this build's language
    def on_config(self, config: Any) -> Any:
        languages = _languages(config)
        cms_file = cms.config_path(config.config_file_path)
        try:
            cms_config = cms.read_config(cms_file)
            rule = publish.publishing(config.extra, {lang.locale: lang.extra for lang in languages}, cms_config,
                                      str(cms_file))
            publish.article_drafts(Path(config.docs_dir),
                                   ["" if lang.default else f".{lang.locale}" for lang in languages])
        except (publish.PublishConfigError, cms.CmsConfigError) as exc:
            raise PluginError(str(exc)) from exc
        lang = _language(config)
        self.build = _Build(lang=lang, publishing=rule, cms_config=cms_config, cms_file=cms_file)
        self.drafts = []
        strings = _strings(lang)
        config.copyright = strings["footer_note_connected" if rule.connected else "footer_note"]
        where = f"{cms_file.parent.name}/{cms_file.name}"
        if rule.connected:
            log.info("site (%s): a CMS is connected (%s): each article's `draft` decides, %s without one", lang,
                     where, "a draft" if rule.draft_default else "published")
        else:
            log.info("site (%s): no CMS connected (%s names no backend that edits the repository): every article is"
                     " an unpublished draft", lang, where)
        return config

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Any) -> str:
        if self.draft_active(page):
            page.meta["draft_active"] = True
            page.meta["status"] = "draft"  # Material shows it beside the page in the navigation
            self.drafts.append(page.file.src_uri)
        return markdown

    def on_pre_build(self, *, config: Any) -> None:
        # One 404.html at the site root, from the default (Arabic) build; it carries both languages.
        if _language(config) == "ar":
            config.theme.static_templates.add("404.html")
        else:
            config.theme.static_templates.discard("404.html")

    def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
        # Globals reach every template, the static ones (404.html) included.
        lang = _language(config)
        strings = _strings(lang)
        env.globals["strings"] = strings
        env.globals["strings_other"] = {code: _strings(code) for code in LANGUAGES if code != lang}
        # Only what the page's scripts say themselves: the worker fetches the rest (sitebuild/strings.py).
        inline = {"calc": page_script_strings(strings["calc"])}
        env.globals["strings_json"] = json.dumps(inline, ensure_ascii=False).replace("</", "<\\/")
        env.globals["publishing"] = self._state().publishing
        return env

    def on_page_context(self, context: Any, *, page: Any, config: Any, nav: Any) -> Any:
        # After the i18n plugin's (priority 50), which sets this page's language links.
        hosting.relative_alternates(config)
        return context

    def on_template_context(self, context: Any, *, template_name: str, config: Any) -> Any:
        if template_name == "404.html":
            hosting.not_found_context(context, config)
        return context

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        return a11y.name_search_dialog(_HEAD_ALTERNATE.sub("", _with_dir(output)))

    def on_post_template(self, output_content: str, *, template_name: str, config: Any) -> str:
        output = _with_dir(output_content)
        if template_name == "404.html":
            output = hosting.not_found_page(a11y.name_search_dialog(_HEAD_ALTERNATE.sub("", output)))
        return output

    def on_post_build(self, *, config: Any) -> None:
        site = Path(config.site_dir)
        build = self._state()
        log.info("site (%s): %d unpublished drafts%s", build.lang, len(self.drafts),
                 f" ({', '.join(self.drafts)})" if self.drafts else "")
        patched = _neutralise_cdn_fallbacks(site)
        if patched:
            log.info("site (%s): the theme's off-host URLs point at the host itself in %s", build.lang,
                     ", ".join(patched))
        if build.lang == _default_language(config):
            admin = self._install_admin(config, build)
            log.info("site: the CMS admin in %s (%s)", admin,
                     "connected" if build.publishing.connected else "not connected: a sandbox of the site's sources")
        fonts.install(site)
        minify.install(site)

    def _install_admin(self, config: Any, build: _Build) -> Path:
        """The admin app and the configuration it reads, into site/admin/ (once, from the default language's build)."""
        languages = _languages(config)
        default = _default_language(config)
        root = Path(config.config_file_path).parent
        try:
            served = cms.admin_config(
                build.cms_config, locales=[lang.locale for lang in languages], default_locale=default,
                draft_default=build.publishing.draft_default, root=root,
                calc_labels=_strings(default)["calc"]["fields"], where=str(build.cms_file))
            return cms.install_admin(Path(config.site_dir), served, root)
        except cms.CmsConfigError as exc:
            raise PluginError(str(exc)) from exc


def _language(config: Any) -> str:
    return str(config.theme["language"])


def _strings(lang: str) -> dict[str, Any]:
    try:
        return load_strings(lang)
    except FileNotFoundError as exc:
        raise PluginError(f"missing string table: {exc.filename}") from exc


def _languages(config: Any) -> list[Any]:
    """The i18n plugin's languages (locale, default, build, extra), in mkdocs.yml order."""
    return [lang for lang in config.plugins["i18n"].config.languages if lang.build]


def _default_language(config: Any) -> str:
    return next(lang.locale for lang in _languages(config) if lang.default)


_HTML_TAG = re.compile(r'<html lang="(?P<lang>[a-z]{2})"(?! dir=)')


def _with_dir(html: str) -> str:
    """Material puts ``dir`` on <body>; put it on <html> too, so the whole document (and screen readers, and
    the browser's own UI such as scroll bars) knows the direction."""
    return _HTML_TAG.sub(
        lambda m: f'<html lang="{m["lang"]}" dir="{"rtl" if m["lang"] == "ar" else "ltr"}"', html, count=1
    )


# Material's script reads every <link rel="alternate"> in the head as the root of another site version and fetches
# "sitemap.xml" beside it; the i18n plugin points those links at the same page in the other language, so every
# page load asked for two sitemap.xml files that do not exist (404). The visible language switcher (the
# .md-select links, with hreflang) is what readers use; the head links go.
_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[a-z]{2}">')

# Material's bundle holds a few absolute URLs it may fetch: mermaid and a ResizeObserver polyfill from unpkg (only
# for ```mermaid blocks, which we do not use, and for browsers without ResizeObserver), and the GitHub/GitLab APIs
# (only with repo_url, unset here). Point every one of them at the host itself, so no code path can leave it.
_QUOTED_URL = re.compile(r"""(["'`])https?://(?!www\.w3\.org/)""")


def _neutralise_cdn_fallbacks(site_dir: Path) -> list[str]:
    """Rewrite the theme bundle's off-host URLs; the names of the bundles changed (none when already done)."""
    changed = []
    for bundle in (site_dir / "assets" / "javascripts").glob("bundle.*.min.js"):
        text = bundle.read_text(encoding="utf-8")
        new = _QUOTED_URL.sub(lambda m: m.group(1) + "./offline-unavailable/", text)
        if new != text:
            bundle.write_text(new, encoding="utf-8")
            changed.append(bundle.name)
    return changed
