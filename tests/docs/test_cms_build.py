"""The CMS in the built site: the admin app where it belongs (and nowhere else), and the publish switch driven by
the CMS configuration alone.

Besides the session's build (the repository as it is: not connected), one more real build runs here, from a
temporary folder whose ``mkdocs.yml`` inherits the project's (``INHERIT``) with its own ``cms/config.yml`` and a
copy of ``docs/``: connected to GitHub, with one article ``draft: false`` and the other ``draft: true``. A third
run checks that a misspelt switch fails the build (it stops at the configuration, before any page is built).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin

import pytest
import yaml

from calculator.page.text import STRING_TABLES
from sitebuild import cms
from tests.docs.test_build import ARTICLES, built_path, parse, source_pages

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED, DRAFT = "articles/vram-guide", "articles/five-ways"
CONNECTED_BACKEND = "backend:\n  name: github\n  repo: example/gpu-guide\n  branch: main\n"
# General-purpose CDNs: the admin must not load anything from them, whatever code path runs.
CDN_HOSTS = ("unpkg.com", "cdn.jsdelivr.net", "cdnjs.cloudflare.com", "esm.sh", "cdn.skypack.dev", "jspm.io",
             "fonts.googleapis.com", "fonts.gstatic.com")


def _mkdocs_build(config_file: Path, site_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config_file), "--site-dir", str(site_dir)],
        cwd=config_file.parent, capture_output=True, text=True, timeout=900,
        env={**os.environ, "NO_COLOR": "1", "NO_MKDOCS_2_WARNING": "1"},
    )


def _variant(folder: Path, *, cms_config: str, extra_yaml: str = "", docs: bool = False) -> Path:
    """A project folder that inherits mkdocs.yml and brings its own CMS configuration (and docs copy)."""
    folder.mkdir(parents=True)
    (folder / "cms").mkdir()
    (folder / "cms" / "config.yml").write_text(cms_config, encoding="utf-8")
    docs_dir = folder / "docs" if docs else ROOT / "docs"
    if docs:
        shutil.copytree(ROOT / "docs", docs_dir)
    # Paths in an inherited file are read from the child's folder: name the project's own ones absolutely.
    parent = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    child = {"INHERIT": str(ROOT / "mkdocs.yml"), "docs_dir": str(docs_dir),
             "theme": {"custom_dir": str(ROOT / parent["theme"]["custom_dir"])},
             "hooks": [str(ROOT / hook) for hook in parent["hooks"]]}
    (folder / "mkdocs.yml").write_text(yaml.safe_dump(child) + extra_yaml, encoding="utf-8")
    return folder / "mkdocs.yml"


def _connected_config() -> str:
    text = (ROOT / "cms" / "config.yml").read_text(encoding="utf-8")
    new, n = re.subn(r"(?m)^backend:\n  name: test-repo\n", CONNECTED_BACKEND, text)
    assert n == 1, "cms/config.yml: the test expects its `backend:` block to be `name: test-repo`"
    return new


@pytest.fixture(scope="module")
def connected_site(tmp_path_factory) -> Path:
    """Connected to GitHub; vram-guide says `draft: false` in both files, five-ways keeps `draft: true`."""
    base = tmp_path_factory.mktemp("connected")
    config = _variant(base / "project", cms_config=_connected_config(), docs=True)
    for suffix in (".md", ".en.md"):
        path = base / "project" / "docs" / f"{PUBLISHED}{suffix}"
        text, n = re.subn(r"(?m)^draft: true$", "draft: false", path.read_text(encoding="utf-8"))
        assert n == 1
        path.write_text(text, encoding="utf-8")
    proc = _mkdocs_build(config, base / "site")
    if proc.returncode != 0:
        pytest.fail(f"connected build failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return base / "site"


def _robots(doc) -> list:
    return [m.get("content") for m in doc.metas if m.get("name") == "robots"]


def _banner_text(path: Path) -> str:
    match = re.search(r'<span class="draft-banner__text">(.*?)</span>', path.read_text(encoding="utf-8"), re.S)
    return match.group(1) if match else ""


def _footer(path: Path) -> str:
    match = re.search(r'<div class="md-copyright__highlight">\s*(.*?)\s*</div>', path.read_text(encoding="utf-8"), re.S)
    return match.group(1) if match else ""


_NAV_LINK = re.compile(r'<a href="(?P<href>[^"]*)" class="md-nav__link[^"]*">(?P<body>.*?)</a>', re.S)


def _nav_links(site: Path, path: Path) -> dict[str, bool]:
    """Article (``articles/<slug>``) -> whether its link in the page's navigation carries the draft status."""
    page_url = "http://site/" + path.parent.relative_to(site).as_posix() + "/"
    out: dict[str, bool] = {}
    for m in _NAV_LINK.finditer(path.read_text(encoding="utf-8")):
        found = re.search(r"/articles/([a-z0-9-]+)/$", urljoin(page_url, m["href"]))
        if found:
            key = f"articles/{found[1]}"
            out[key] = out.get(key, False) or "md-status--draft" in m["body"]
    return out


def _strings(lang: str) -> dict:
    return json.loads((STRING_TABLES / f"{lang}.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------------------------
# Not connected (the repository as it is): every article a draft, in both languages
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_not_connected_every_article_is_a_draft(built_site, lang):
    assert not cms.is_connected(cms.read_config(ROOT / "cms" / "config.yml"))
    for stem in ARTICLES:
        path = built_path(built_site, stem, lang)
        doc = parse(path)
        assert doc.banner and _robots(doc) == ["noindex"], f"{lang}/{stem}"
        assert _banner_text(path) == _strings(lang)["draft_text"]
    assert _footer(built_path(built_site, "index", lang)) == _strings(lang)["footer_note"]


# ---------------------------------------------------------------------------------------------------------------
# Connected: each article's own `draft` decides, in both languages at once
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_connected_draft_false_publishes_the_article(connected_site, lang):
    doc = parse(built_path(connected_site, PUBLISHED, lang))
    assert not doc.banner, f"{lang}/{PUBLISHED} still carries the draft banner"
    assert _robots(doc) == [], f"{lang}/{PUBLISHED} is still noindex"
    # The navigation of every page shows the status beside the remaining draft only.
    for stem in source_pages():
        links = _nav_links(connected_site, built_path(connected_site, stem, lang))
        assert links.get(PUBLISHED, False) is False and links.get(DRAFT, True) is True, f"{lang}/{stem}: {links}"
        assert set(links) & {PUBLISHED, DRAFT}, f"{lang}/{stem}: no navigation link to the articles"


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_connected_draft_true_keeps_the_article_a_draft(connected_site, lang):
    path = built_path(connected_site, DRAFT, lang)
    doc = parse(path)
    assert doc.banner and _robots(doc) == ["noindex"], f"{lang}/{DRAFT}"
    assert _banner_text(path) == _strings(lang)["draft_text_connected"]
    assert _footer(built_path(connected_site, "index", lang)) == _strings(lang)["footer_note_connected"]


def test_connected_admin_edits_the_repository(connected_site):
    served = yaml.safe_load((connected_site / "admin" / "config.yml").read_text(encoding="utf-8"))
    assert served["backend"] == {"name": "github", "repo": "example/gpu-guide", "branch": "main"}


def test_connected_admin_has_no_sandbox(connected_site):
    """Connected, the admin page is cms/admin.html as it is: it names no sandbox files, so its script never loads the
    sandbox module, and the build ships neither."""
    admin = connected_site / "admin"
    assert (admin / "index.html").read_bytes() == (ROOT / "cms" / "admin.html").read_bytes()
    assert [m for m in parse(admin / "index.html").metas if m.get("name") == cms.SANDBOX_META] == []
    assert (admin / "cms.js").is_file() and not list(admin.glob("sandbox*"))


def test_a_misspelt_switch_fails_the_build(tmp_path):
    config = _variant(tmp_path / "project", cms_config=(ROOT / "cms" / "config.yml").read_text(encoding="utf-8"),
                      extra_yaml="extra:\n  draft_defualt: false\n")
    proc = _mkdocs_build(config, tmp_path / "site")
    assert proc.returncode != 0
    assert "unknown key `draft_defualt` (did you mean `draft_default`?)" in proc.stdout + proc.stderr
    assert not (tmp_path / "site" / "index.html").exists()


# ---------------------------------------------------------------------------------------------------------------
# The admin app in the site
# ---------------------------------------------------------------------------------------------------------------
def test_admin_page_is_noindex_and_loads_only_its_own_files(built_site):
    admin = built_site / "admin"
    doc = parse(admin / "index.html")
    assert _robots(doc) and "noindex" in _robots(doc)[0]
    assert doc.html_attrs.get("lang") == "ar" and doc.html_attrs.get("dir") == "rtl"
    for url in doc.resource_urls:  # relative: the admin works under any sub-path
        assert not re.match(r"^([a-z]+:)?/", url), url
        assert (admin / url.split("?")[0]).resolve().is_file(), url
    assert (admin / "cms.js").is_file() and (admin / "LICENSE.txt").is_file()
    fonts = {p.suffix for p in (admin / "assets").iterdir()}
    assert ".woff2" in fonts  # the UI and icon fonts are served by the site


# What the collections edit, found from the files themselves: every article in both languages, home, glossary.
SANDBOX_SOURCES = sorted(str(p.relative_to(ROOT)) for pattern in ("docs/articles/*.md", "docs/index*.md",
                                                                   "docs/glossary*.md") for p in ROOT.glob(pattern))


def test_the_sandbox_starts_with_the_sites_sources(built_site):
    """Not connected, the admin page names one file of the site's sources (relative, beside it), holding every file
    the CMS edits with the bytes of docs/; the page's script loads the sandbox module only when it finds that name."""
    admin = built_site / "admin"
    (meta,) = [m for m in parse(admin / "index.html").metas if m.get("name") == cms.SANDBOX_META]
    name = meta["content"]
    assert re.fullmatch(r"sandbox-[0-9a-f]{16}\.json", name), name
    assert [p.name for p in admin.glob("sandbox-*.json")] == [name]
    files = json.loads((admin / name).read_bytes())["files"]
    assert sorted(files) == SANDBOX_SOURCES
    for path, text in files.items():
        assert text.encode("utf-8") == (ROOT / path).read_bytes(), path
    # The page differs from cms/admin.html by that one line only.
    page = (admin / "index.html").read_text(encoding="utf-8").split("\n")
    source = (ROOT / "cms" / "admin.html").read_text(encoding="utf-8").split("\n")
    assert [line for line in page if line not in source] == [f'  <meta name="cms-sandbox" content="{name}">']
    assert len(page) == len(source) + 1
    assert (admin / "sandbox.js").is_file() and 'import("./sandbox.js")' in (admin / "cms.js").read_text("utf-8")


def test_admin_reads_the_cms_configuration_with_the_facts_of_mkdocs_yml(built_site):
    served = yaml.safe_load((built_site / "admin" / "config.yml").read_text(encoding="utf-8"))
    source = cms.read_config(ROOT / "cms" / "config.yml")
    assert served["backend"] == source["backend"] == {"name": "test-repo"}
    assert served["collections"] == cms.admin_config(
        source, locales=["ar", "en"], default_locale="ar", draft_default=True, root=ROOT,
        calc_labels=_strings("ar")["calc"]["fields"])["collections"]
    assert served["i18n"]["locales"] == ["ar", "en"] and served["i18n"]["default_locale"] == "ar"


def test_admin_has_no_cdn_in_any_code_path(built_site):
    offenders = []
    for path in (built_site / "admin").rglob("*"):
        if path.is_file() and path.suffix in (".js", ".html", ".css", ".json", ".yml"):
            text = path.read_text(encoding="utf-8", errors="replace")
            offenders += [f"{path.name}: {host}" for host in CDN_HOSTS if host in text]
    assert not offenders, offenders


def test_no_reader_page_loads_or_lists_the_admin(built_site):
    for path in built_site.rglob("*"):
        rel = path.relative_to(built_site)
        if rel.parts[0] == "admin" or not path.is_file() or path.suffix not in (".html", ".xml", ".json", ".js"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"""["'/]admin/""", text), f"{rel} mentions admin/"
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    assert "admin" not in sitemap
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not [d["location"] for d in index["docs"] if "admin" in d["location"]]


def test_admin_lets_editors_zoom(built_site):
    """Sveltia's app shell writes a viewport tag with maximum-scale=1; cms/build.mjs drops that term (WCAG 1.4.4)."""
    for path in (built_site / "admin").rglob("*"):
        if path.is_file() and path.suffix in (".js", ".html"):
            text = path.read_text(encoding="utf-8", errors="replace")
            assert "maximum-scale" not in text and "user-scalable" not in text, path.name
