"""The publish switch and the CMS configuration, without a build: the rule, the checks that fail the build on a
misspelt or misplaced key, and the CMS configuration against the files it edits."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml
from mkdocs.config import load_config

from sitebuild import cms, publish
from sitebuild.strings import load_strings

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@functools.cache
def cms_config() -> dict:
    """cms/config.yml as the build reads it (read by the tests that use it, not at import)."""
    return cms.read_config(ROOT / "cms" / "config.yml")


@pytest.fixture(scope="module")
def site_config():
    return load_config(str(ROOT / "mkdocs.yml"))


def languages(site_config) -> list:
    return [lang for lang in site_config.plugins["i18n"].config.languages if lang.build]


def front_matter(path: Path) -> dict:
    match = re.match(r"^---\n(.*?)\n---\n", path.read_text(encoding="utf-8"), re.S)
    return yaml.safe_load(match.group(1)) if match else {}


# ---------------------------------------------------------------------------------------------------------------
# Connected or not: one rule, read from the CMS configuration only
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend,connected", [
    (None, False),
    ({"name": "test-repo"}, False),
    ({"name": "github", "repo": "owner/site"}, True),
    ({"name": "gitlab", "repo": "group/sub/site"}, True),
    ({"name": "gitea", "repo": "owner/site", "base_url": "https://codeberg.org"}, True),
])
def test_connected_only_with_a_backend_that_edits_the_repository(backend, connected):
    config = {} if backend is None else {"backend": backend}
    assert cms.is_connected(config) is connected


@pytest.mark.parametrize("backend,message", [
    ({"name": "forgejo", "repo": "o/r"}, "write `gitea`"),
    ({"name": "bitbucket", "repo": "o/r"}, "not one the bundled Sveltia CMS"),
    ({"name": "git-gateway"}, "not one the bundled Sveltia CMS"),
    ({"name": "githb", "repo": "o/r"}, "not one the bundled Sveltia CMS"),
    ({"name": "github"}, "needs `repo: owner/name`"),
    ({"name": "github", "repo": "just-a-name"}, "needs `repo: owner/name`"),
    ("github", "must be a mapping"),
])
def test_a_backend_the_cms_cannot_use_fails(backend, message):
    with pytest.raises(cms.CmsConfigError, match=re.escape(message)):
        cms.is_connected({"backend": backend})


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
    assert publish.check_extra(site_config.extra, extras) is True
    assert publish.article_drafts(DOCS, ["" if lang.default else f".{lang.locale}" for lang in languages(site_config)])


@pytest.mark.parametrize("extra,languages_extra,message", [
    ({"draft_defualt": False}, {}, "unknown key `draft_defualt` (did you mean `draft_default`?)"),
    ({"draft_default": True, "cms_connected": True}, {}, "derived from cms/config.yml"),
    ({"draft_default": True}, {"en": {"draft_default": False}}, "set once for every language"),
    ({"draft_default": True}, {"en": {"cms_connected": True}}, "derived from cms/config.yml"),
    ({"draft_default": True}, {"en": {"stauts": {}}}, "did you mean `status`?"),
    ({"draft_default": "false"}, {}, "must be true or false"),
    ({"status": {}}, {}, "`draft_default` is missing"),
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


def test_articles_are_drafts_in_both_files_while_not_connected():
    if cms.is_connected(cms_config()):
        pytest.skip("cms/config.yml is connected: each article's own `draft` decides")
    for path in sorted((DOCS / "articles").glob("*.md")):
        assert front_matter(path).get("draft") is True, f"{path.name} lacks `draft: true` while no CMS is connected"


# ---------------------------------------------------------------------------------------------------------------
# The configuration the admin reads, and the files it edits
# ---------------------------------------------------------------------------------------------------------------
def _served(site_config, draft_default: bool = True) -> dict:
    langs = languages(site_config)
    return cms.admin_config(cms_config(), locales=[lang.locale for lang in langs],
                            default_locale=next(lang.locale for lang in langs if lang.default),
                            draft_default=draft_default, root=ROOT, calc_labels=load_strings("ar")["calc"]["fields"])


def test_admin_config_takes_what_mkdocs_yml_declares(site_config):
    served = _served(site_config, draft_default=False)
    assert served["i18n"]["locales"] == ["ar", "en"] and served["i18n"]["default_locale"] == "ar"
    drafts = [f for c in served["collections"] for f in c.get("fields") or [] if f["name"] == "draft"]
    assert drafts and all(f["default"] is False for f in drafts)
    assert "default" not in next(f for f in cms_config()["collections"][0]["fields"] if f["name"] == "draft")
    reparsed = yaml.safe_load(cms.dump_admin_config(served))
    assert reparsed == served


def test_calc_fields_hold_every_articles_assumptions_as_they_are(site_config):
    """The `calc` object's fields come from the articles' keys and calculator/inputs.py: each value an article
    holds is one its field can show and write back unchanged (a number stays a number, a choice is offered)."""
    (articles,) = [c for c in _served(site_config)["collections"] if "folder" in c]
    fields = {f["name"]: f for f in next(f for f in articles["fields"] if f["name"] == "calc")["fields"]}
    for path in sorted((DOCS / "articles").glob("*.md")):
        calc = front_matter(path).get("calc") or {}
        assert calc, f"{path.name} has no `calc:` assumptions"
        for key, value in calc.items():
            field = fields[key]
            if field["widget"] == "number":
                assert type(value).__name__ == field["value_type"] and field["min"] <= value <= field["max"], key
            elif field["widget"] == "boolean":
                assert isinstance(value, bool), key
            elif field["widget"] == "select":
                assert value in field["options"], key
            else:
                assert isinstance(value, str), key
            assert key in field["label"]  # the request key beside its Arabic label


def test_admin_config_refuses_a_second_copy_of_what_is_declared_elsewhere():
    for bad in ({"i18n": {"locales": ["ar", "en"]}},
                {"collections": [{"name": "a", "fields": [{"name": "draft", "widget": "boolean", "default": True}]}]},
                {"collections": [{"name": "a", "folder": "docs/articles", "extension": "md", "fields": [
                    {"name": "calc", "widget": "object", "fields": [{"name": "seq_len", "widget": "string"}]}]}]}):
        with pytest.raises(cms.CmsConfigError, match="remove"):
            cms.admin_config(bad, locales=["ar"], default_locale="ar", draft_default=True, root=ROOT, calc_labels={})
    sandbox = cms.admin_config({}, locales=["ar"], default_locale="ar", draft_default=True, root=ROOT, calc_labels={})
    assert sandbox["backend"] == {"name": "test-repo"}


def _collection_files(collection: dict) -> list[tuple[dict, list[Path]]]:
    """(fields, the files of each entry in every language) for a folder or a file collection."""
    if "folder" in collection:
        folder = ROOT / collection["folder"]
        defaults = sorted(p for p in folder.glob(f"*.{collection['extension']}") if not p.name.endswith(".en.md"))
        return [(collection["fields"], [p, p.with_name(p.name.replace(".md", ".en.md"))]) for p in defaults]
    return [(f["fields"], [ROOT / f["file"].replace(".{{locale}}", ""), ROOT / f["file"].replace("{{locale}}", "en")])
            for f in collection["files"]]


def test_every_collection_matches_existing_files_in_both_languages():
    assert cms_config()["i18n"]["structure"] == "multiple_files"
    assert cms_config()["i18n"]["omit_default_locale_from_file_path"] is True  # foo.md is Arabic, as in mkdocs.yml
    names = set()
    for collection in cms_config()["collections"]:
        entries = _collection_files(collection)
        assert entries, f"collection {collection['name']} matches no file"
        for _, files in entries:
            for path in files:
                assert path.is_file(), f"collection {collection['name']}: {path.relative_to(ROOT)} does not exist"
                names.add(str(path.relative_to(DOCS)))
    assert {"articles/vram-guide.md", "articles/vram-guide.en.md", "glossary.md", "glossary.en.md"} <= names


def test_articles_collection_is_the_folder_the_draft_flag_applies_to():
    (articles,) = [c for c in cms_config()["collections"] if "folder" in c]
    assert [f"{articles['folder'].removeprefix('docs/')}/"] == list(publish.ARTICLE_DIRS)
    draft = next(f for f in articles["fields"] if f["name"] == "draft")
    assert draft["widget"] == "boolean" and draft["i18n"] == "duplicate"  # one switch, written to both files


def _same_order(mapping: dict, fields: list[dict], where: str) -> None:
    declared = [f["name"] for f in fields]
    keys = list(mapping)
    assert set(keys) <= set(declared), f"{where}: {set(keys) - set(declared)} are not fields"
    assert keys == [k for k in declared if k in keys], f"{where}: keys out of field order"
    for field in fields:
        if field.get("widget") == "object" and isinstance(mapping.get(field["name"]), dict):
            _same_order(mapping[field["name"]], field["fields"], f"{where} {field['name']}")


def test_every_front_matter_key_is_a_field_and_bodies_are_raw(site_config):
    """A key the configuration does not declare, or declares in another order, would move when the CMS saves."""
    for collection in _served(site_config)["collections"]:
        for fields, files in _collection_files(collection):
            for path in files:
                _same_order(front_matter(path), fields, str(path.relative_to(ROOT)))
            bodies = [f for f in fields if f["name"] == "body"]
            assert bodies and all(f["widget"] == "markdown" and f["modes"] == ["raw"] for f in bodies)
            assert all(f.get("i18n") in (True, "duplicate") for f in fields)


def test_no_secret_in_the_cms_configuration():
    text = (ROOT / "cms" / "config.yml").read_text(encoding="utf-8")
    assert not re.search(r"(?im)^\s*(token|secret|client_secret|password|access_token)\s*:", text)
