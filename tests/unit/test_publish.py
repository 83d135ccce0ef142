"""The publish switch without a build: the rule, and the checks that fail the build on a misspelt or misplaced
key."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.config import load_config

from sitebuild import publish

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site_config():
    return load_config(str(ROOT / "mkdocs.yml"))


def languages(site_config) -> list:
    return [lang for lang in site_config.plugins["i18n"].config.languages if lang.build]


# ---------------------------------------------------------------------------------------------------------------
# The rule
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("connected,draft_default,draft,expected", [
    (False, True, None, True), (False, True, True, True), (False, True, False, True),
    (False, False, None, True), (False, False, False, True),
    (True, True, None, True), (True, True, True, True), (True, True, False, False),
    (True, False, None, False), (True, False, True, True), (True, False, False, False),
])
def test_publish_rule(connected, draft_default, draft, expected):
    assert publish.Publishing(connected, draft_default).is_draft(draft) is expected


# ---------------------------------------------------------------------------------------------------------------
# The switch is set once: a misspelt, misplaced or mistyped key fails the build
# ---------------------------------------------------------------------------------------------------------------
def test_the_sites_own_settings_pass(site_config):
    extras = {lang.locale: lang.extra for lang in languages(site_config)}
    assert publish.check_extra(site_config.extra, extras) == publish.Publishing(connected=False, draft_default=True)
    assert publish.article_drafts(DOCS, ["" if lang.default else f".{lang.locale}" for lang in languages(site_config)])


OK = {"cms_connected": False, "draft_default": True}


@pytest.mark.parametrize("extra,languages_extra,message", [
    ({**OK, "draft_defualt": False}, {}, "unknown key `draft_defualt` (did you mean `draft_default`?)"),
    ({**OK, "cms_conected": True}, {}, "did you mean `cms_connected`?"),
    (OK, {"en": {"draft_default": False}}, "set once for every language"),
    (OK, {"en": {"cms_connected": True}}, "set once for every language"),
    (OK, {"en": {"stauts": {}}}, "did you mean `status`?"),
    ({**OK, "draft_default": "false"}, {}, "must be true or false"),
    ({**OK, "cms_connected": "yes"}, {}, "must be true or false"),
    ({"cms_connected": True}, {}, "`draft_default` is missing"),
])
def test_publish_settings_fail_loudly(extra, languages_extra, message):
    with pytest.raises(publish.PublishConfigError, match=re.escape(message)):
        publish.check_extra(extra, languages_extra)


def _article(folder: Path, name: str, draft) -> None:
    line = "" if draft is None else f"draft: {draft}\n"
    (folder / name).write_text(f"---\ntitle: t\n{line}---\n\n# t {{#t}}\n", encoding="utf-8")


def test_draft_must_agree_between_the_language_files(tmp_path):
    articles = tmp_path / "articles"
    articles.mkdir()
    _article(articles, "a.md", "false")
    _article(articles, "a.en.md", "false")
    _article(articles, "b.md", None)
    _article(articles, "b.en.md", None)
    assert publish.article_drafts(tmp_path, ["", ".en"]) == {"articles/a": False, "articles/b": None}
    _article(articles, "b.en.md", "true")
    with pytest.raises(publish.PublishConfigError, match="one language would publish alone"):
        publish.article_drafts(tmp_path, ["", ".en"])
    _article(articles, "b.en.md", '"no"')
    with pytest.raises(publish.PublishConfigError, match="must be true or false"):
        publish.article_drafts(tmp_path, ["", ".en"])
