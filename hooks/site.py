"""Site-wide build behaviour that the theme does not do by itself.

* The unpublished-draft flag (the rule is ``sitebuild/publish.py``): while ``cms/config.yml`` names no real
  backend every article is a draft; once it does, an article's ``draft`` front-matter key (default
  ``extra.draft_default``) decides. A draft gets the banner, ``<meta name="robots" content="noindex">`` and
  Material's page status in the navigation.
* The CMS's admin app, bundled from npm and copied into ``site/admin/`` with its configuration (``sitebuild/cms.py``).
* Page strings in one table per language (``overrides/strings/<lang>.json``), given to the templates as
  ``strings`` and to the page scripts as a JSON block.
* Self-hosted fonts (``sitebuild/fonts.py``): the ``@fontsource`` packages installed by ``npm ci`` are copied into
  the built site, with a generated ``assets/fonts/fonts.css``; nothing is fetched from another host.

The i18n plugin builds the site once per language, so every hook here runs once per language build; each one
is idempotent and writes only below that build's ``site_dir``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from sitebuild import a11y, cms, fonts, hosting, publish
from sitebuild.strings import LANGUAGES, load_strings


def _language(config) -> str:
    return str(config.theme["language"])


def _strings(lang: str) -> dict:
    try:
        return load_strings(lang)
    except FileNotFoundError as exc:
        raise PluginError(f"missing string table: {exc.filename}") from exc


def _languages(config) -> list:
    """The i18n plugin's languages (locale, default, build, extra), in mkdocs.yml order."""
    return [lang for lang in config.plugins["i18n"].config.languages if lang.build]


def _default_language(config) -> str:
    return next(lang.locale for lang in _languages(config) if lang.default)


# Per build (the i18n plugin runs one per language): the publish rule and what the admin reads.
_STATE: dict = {}


def draft_active(page) -> bool:
    """True when the page is an article that is still an unpublished draft."""
    return publish.is_article(page.file.src_uri) and _STATE["publishing"].is_draft(page.meta.get("draft"))


# --------------------------------------------------------------------------------------------------------
# MkDocs events
# --------------------------------------------------------------------------------------------------------
@event_priority(-110)  # after the i18n plugin's on_config (-100), which sets this build's language
def on_config(config):
    languages = _languages(config)
    cms_file = cms.config_path(config.config_file_path)
    try:
        cms_config = cms.read_config(cms_file)
        rule = publish.publishing(config.extra, {lang.locale: lang.extra for lang in languages}, cms_config,
                                  str(cms_file))
        publish.article_drafts(Path(config.docs_dir), ["" if lang.default else f".{lang.locale}" for lang in languages])
    except (publish.PublishConfigError, cms.CmsConfigError) as exc:
        raise PluginError(str(exc)) from exc
    _STATE.update(publishing=rule, cms_config=cms_config, cms_file=cms_file)
    strings = _strings(_language(config))
    config.copyright = strings["footer_note_connected" if rule.connected else "footer_note"]
    return config


def on_page_markdown(markdown, page, config, files):
    if draft_active(page):
        page.meta["draft_active"] = True
        page.meta["status"] = "draft"  # Material shows it beside the page in the navigation
    return markdown


def on_pre_build(config):
    # One 404.html at the site root, from the default (Arabic) build; it carries both languages.
    if _language(config) == "ar":
        config.theme.static_templates.add("404.html")
    else:
        config.theme.static_templates.discard("404.html")


def on_env(env, config, files):
    # Globals reach every template, the static ones (404.html) included.
    lang = _language(config)
    strings = _strings(lang)
    env.globals["strings"] = strings
    env.globals["strings_other"] = {
        code: _strings(code) for code in LANGUAGES if code != lang
    }
    env.globals["strings_json"] = json.dumps(strings, ensure_ascii=False).replace("</", "<\\/")
    env.globals["publishing"] = _STATE["publishing"]
    return env


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


def on_page_context(context, page, config, nav):
    # After the i18n plugin's (priority 50), which sets this page's language links.
    hosting.relative_alternates(config)
    return context


def on_template_context(context, template_name, config):
    if template_name == "404.html":
        hosting.not_found_context(context, config)
    return context


def on_post_page(output, page, config):
    return a11y.name_search_dialog(_HEAD_ALTERNATE.sub("", _with_dir(output)))


def on_post_template(output_content, template_name, config):
    output = _with_dir(output_content)
    if template_name == "404.html":
        output = hosting.not_found_page(a11y.name_search_dialog(_HEAD_ALTERNATE.sub("", output)))
    return output


# Material's bundle holds a few absolute URLs it may fetch: mermaid and a ResizeObserver polyfill from unpkg (only
# for ```mermaid blocks, which we do not use, and for browsers without ResizeObserver), and the GitHub/GitLab APIs
# (only with repo_url, unset here). Point every one of them at the host itself, so no code path can leave it.
_QUOTED_URL = re.compile(r"""(["'`])https?://(?!www\.w3\.org/)""")


def _neutralise_cdn_fallbacks(site_dir: Path) -> None:
    for bundle in (site_dir / "assets" / "javascripts").glob("bundle.*.min.js"):
        text = bundle.read_text(encoding="utf-8")
        new = _QUOTED_URL.sub(lambda m: m.group(1) + "./offline-unavailable/", text)
        if new != text:
            bundle.write_text(new, encoding="utf-8")


def _install_admin(config) -> None:
    """The admin app and the configuration it reads, into site/admin/ (once, from the default language's build)."""
    languages = _languages(config)
    default = _default_language(config)
    try:
        served = cms.admin_config(
            _STATE["cms_config"], locales=[lang.locale for lang in languages], default_locale=default,
            draft_default=_STATE["publishing"].draft_default, root=Path(config.config_file_path).parent,
            calc_labels=_strings(default)["calc"]["fields"], where=str(_STATE["cms_file"]))
        cms.install_admin(Path(config.site_dir), served, Path(config.config_file_path).parent)
    except cms.CmsConfigError as exc:
        raise PluginError(str(exc)) from exc


def on_post_build(config):
    _neutralise_cdn_fallbacks(Path(config.site_dir))
    if _language(config) == _default_language(config):
        _install_admin(config)
    fonts.install(Path(config.site_dir))
