"""The sandbox's starting files, without a build: which files the collections edit (as the CMS names them in each
language), their bytes, the file's name, and the one line the admin page gains."""
from __future__ import annotations

from pathlib import Path

import pytest

from sitebuild import cms

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
I18N = {"locales": ["ar", "en"], "default_locale": "ar", "omit_default_locale_from_file_path": True}


@pytest.mark.parametrize("path,locale,omit,expected", [
    ("docs/index.{{locale}}.md", "ar", True, "docs/index.md"),
    ("docs/index.{{locale}}.md", "en", False, "docs/index.en.md"),
    ("docs/index.{{locale}}.md", "ar", False, "docs/index.ar.md"),
    ("content/{{locale}}/posts", "ar", True, "content/posts"),
    ("content/posts/{{locale}}", "ar", True, "content/posts"),
    ("content/{{locale}}/posts/{{locale}}.md", "en", False, "content/en/posts/en.md"),
])
def test_locale_path_fills_the_placeholder_as_the_cms_does(path, locale, omit, expected):
    assert cms.locale_path(path, locale, omit=omit) == expected


def _config(collections: list[dict]) -> dict:
    return {"backend": {"name": "test-repo"}, "i18n": dict(I18N), "collections": collections}


def test_the_sites_collections_give_every_article_home_and_glossary_in_both_languages():
    served = cms.admin_config(cms.read_config(ROOT / "cms" / "config.yml"), locales=["ar", "en"],
                              default_locale="ar", draft_default=True, root=ROOT, calc_labels={})
    sources = cms.sandbox_sources(served, ROOT)
    expected = sorted(str(p.relative_to(ROOT)) for pattern in ("docs/articles/*.md", "docs/index*.md",
                                                               "docs/glossary*.md") for p in ROOT.glob(pattern))
    assert sorted(sources) == expected
    assert {"docs/articles/vram-guide.md", "docs/articles/vram-guide.en.md", "docs/index.md", "docs/glossary.en.md"} \
        <= set(sources)
    for path, text in sources.items():
        assert text.encode("utf-8") == (ROOT / path).read_bytes(), path


def test_the_sources_keep_their_bytes(tmp_path):
    (tmp_path / "docs" / "posts").mkdir(parents=True)
    crlf = "---\r\ntitle: x\r\n---\r\n\ufeffبدء\r\n"
    (tmp_path / "docs" / "posts" / "a.md").write_bytes(crlf.encode("utf-8"))
    (tmp_path / "docs" / "posts" / "a.en.md").write_bytes(b"---\ntitle: y\n---\n")
    (tmp_path / "docs" / "posts" / "notes.txt").write_text("not an entry", encoding="utf-8")
    config = _config([{"name": "posts", "folder": "docs/posts", "extension": "md"}])
    assert cms.sandbox_sources(config, tmp_path) == {"docs/posts/a.en.md": "---\ntitle: y\n---\n",
                                                     "docs/posts/a.md": crlf}


def test_a_collection_file_that_does_not_exist_fails(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "home.md").write_text("---\ntitle: x\n---\n", encoding="utf-8")
    config = _config([{"name": "pages", "files": [{"name": "home", "file": "docs/home.{{locale}}.md"}]}])
    with pytest.raises(cms.CmsConfigError, match="docs/home.en.md does not exist"):
        cms.sandbox_sources(config, tmp_path)
    with pytest.raises(cms.CmsConfigError, match="no file in docs/posts/"):
        cms.sandbox_sources(_config([{"name": "posts", "folder": "docs/posts", "extension": "md"}]), tmp_path)


def test_the_files_name_follows_their_content():
    name, payload = cms.sandbox_file({"docs/a.md": "ا"})
    assert name.startswith("sandbox-") and name.endswith(".json")
    assert cms.sandbox_file({"docs/a.md": "ا"}) == (name, payload)
    assert cms.sandbox_file({"docs/a.md": "ب"})[0] != name
    assert payload.decode("utf-8") == '{"files":{"docs/a.md":"ا"}}'


def test_the_admin_page_gains_one_line():
    page = (ROOT / "cms" / "admin.html").read_text(encoding="utf-8")
    named = cms.name_sandbox_in_page(page, "sandbox-0123.json")
    assert named.replace('  <meta name="cms-sandbox" content="sandbox-0123.json">\n', "") == page
    with pytest.raises(cms.CmsConfigError):
        cms.name_sandbox_in_page(named, "sandbox-4567.json")  # never two names
