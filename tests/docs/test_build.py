"""The real site, built once with ``mkdocs build --strict`` (see tests/conftest.py), read from disk."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
REQUIRED_PAGES = {"index", "articles/vram-guide", "articles/five-ways", "calculator", "glossary"}


def source_pages() -> list[str]:
    """Page stems (``articles/vram-guide``) of every Arabic source file in docs/."""
    return sorted(
        str(p.relative_to(DOCS).with_suffix("")).replace("\\", "/")
        for p in DOCS.rglob("*.md")
        if not p.name.endswith(".en.md")
    )


#: Every article in docs/articles/ (a new one is checked without an edit here): drafts while no CMS is connected.
ARTICLES = tuple(stem for stem in source_pages() if stem.startswith("articles/"))


def built_path(site: Path, stem: str, lang: str) -> Path:
    base = site if lang == "ar" else site / "en"
    return base / "index.html" if stem == "index" else base / stem / "index.html"


class _Collector(HTMLParser):
    """Collects the attributes a test needs from one HTML document."""

    def __init__(self):
        super().__init__()
        self.html_attrs: dict[str, str | None] = {}
        self.body_attrs: dict[str, str | None] = {}
        self.heading_ids: list[str] = []
        self.resource_urls: list[str] = []
        self.metas: list[dict[str, str | None]] = []
        self.banner = False
        self.status_draft = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.html_attrs = a
        elif tag == "body":
            self.body_attrs = a
        elif tag == "meta":
            self.metas.append(a)
        if tag in {"h1", "h2", "h3", "h4", "h5", "h6"} and a.get("id"):
            self.heading_ids.append(a["id"])
        if a.get("data-draft-banner") is not None or "data-draft-banner" in a:
            self.banner = True
        if "md-status--draft" in (a.get("class") or ""):
            self.status_draft += 1
        # Everything the browser fetches by itself (not <a href>, which only the reader follows).
        for attr in ("src", "srcset", "poster", "data"):
            if a.get(attr):
                self.resource_urls.append(a[attr])
        if tag == "link" and a.get("href"):
            self.resource_urls.append(a["href"])
        if tag == "form" and a.get("action"):
            self.resource_urls.append(a["action"])


def parse(path: Path) -> _Collector:
    c = _Collector()
    c.feed(path.read_text(encoding="utf-8"))
    return c


# ------------------------------------------------------------------------------------------------------------
def test_every_page_exists_in_both_languages_in_source():
    stems = source_pages()
    assert REQUIRED_PAGES <= set(stems)
    for stem in stems:
        assert (DOCS / f"{stem}.en.md").is_file(), f"{stem}.md has no English translation"
    english = {str(p.relative_to(DOCS)).removesuffix(".en.md") for p in DOCS.rglob("*.en.md")}
    assert english == set(stems), "an English page has no Arabic source"


def test_generated_file_list(built_site):
    html = {str(p.relative_to(built_site)) for p in built_site.rglob("*.html")}
    expected = {str(built_path(built_site, s, lang).relative_to(built_site))
                for s in source_pages() for lang in ("ar", "en")}
    expected.add("404.html")
    expected.add("admin/index.html")  # the CMS's admin page (tests/docs/test_cms_build.py)
    assert expected <= html, f"missing: {sorted(expected - html)}"
    # Nothing else: no page leaked into one language only, no fallback copy.
    assert html == expected, f"unexpected: {sorted(html - expected)}"
    assert (built_site / "sitemap.xml").is_file()
    assert (built_site / "search" / "search_index.json").is_file()
    assert (built_site / "assets" / "fonts" / "fonts.css").is_file()


@pytest.mark.parametrize("lang,direction", [("ar", "rtl"), ("en", "ltr")])
def test_lang_and_dir_on_every_page(built_site, lang, direction):
    for stem in source_pages():
        doc = parse(built_path(built_site, stem, lang))
        assert doc.html_attrs.get("lang") == lang, stem
        assert doc.html_attrs.get("dir") == direction, stem
        assert doc.body_attrs.get("dir") == direction, stem


def test_translation_parity_of_heading_anchors(built_site):
    for stem in source_pages():
        ar = parse(built_path(built_site, stem, "ar")).heading_ids
        en = parse(built_path(built_site, stem, "en")).heading_ids
        assert ar == en, f"{stem}: heading anchors differ between languages"
        assert ar, f"{stem}: no heading anchors"
        for anchor in ar:
            assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", anchor), f"{stem}: anchor {anchor!r} is not ASCII kebab-case"


def test_every_heading_has_an_explicit_anchor_in_source():
    for path in DOCS.rglob("*.md"):
        in_fence = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                in_fence = not in_fence
            if not in_fence and re.match(r"^#{1,6} ", line):
                assert re.search(r"\{#[a-z0-9-]+\}\s*$", line), f"{path.relative_to(ROOT)}: {line!r}"


# A number and its unit in a heading ("24 GB", "8 GiB") are joined by the entity &nbsp;: the table of contents drops
# the heading's <bdi> and would otherwise break «24» / «GB» across two lines (content review §5.6). A literal U+00A0
# does not survive: Python-Markdown's toc joins the title's words with plain spaces (str.split()), an entity it keeps.
HEADING_UNIT = re.compile(r"\d(?P<space>[ \u00a0]|&nbsp;)(?:GB|GiB|MB|MiB|TB|TiB|غيغابايت)(?![A-Za-z])")


def test_a_number_and_its_unit_in_a_heading_do_not_break_apart():
    for path in DOCS.rglob("*.md"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"^#{1,6} ", line):
                for m in HEADING_UNIT.finditer(line):
                    assert m["space"] == "&nbsp;", f"{path.relative_to(ROOT)}: {m.group()!r} in {line!r} needs &nbsp;"


def test_the_table_of_contents_keeps_a_heading_s_no_break_space(built_site):
    html = built_path(built_site, "articles/vram-guide", "ar").read_text(encoding="utf-8")
    toc = re.search(r'<a href="#fsdp-qlora" class="md-nav__link">(.*?)</a>', html, re.S)
    assert toc and re.search(r"24(?:&nbsp;|&#160;|\u00a0)GB", toc.group(1)), toc and toc.group(1)


def test_the_pages_attach_the_percent_sign_to_its_number():
    """One style in both languages, as the articles and the widgets write it: "85%", never "85 %" (content review
    §5.5); the accuracy page's generated blocks are written so by their renderers (benchmarks/league.py)."""
    for path in DOCS.rglob("*.md"):
        spaced = re.findall(r".{0,20}\d[ \u00a0]%", path.read_text(encoding="utf-8"))
        assert not spaced, f"{path.relative_to(ROOT)}: {spaced[:3]}"


def test_widget_markers_are_the_same_in_both_languages():
    marker = re.compile(r"<!--\s*calc:[^>]*?-->")
    for stem in source_pages():
        ar = marker.findall((DOCS / f"{stem}.md").read_text(encoding="utf-8"))
        en = marker.findall((DOCS / f"{stem}.en.md").read_text(encoding="utf-8"))
        assert ar == en, stem


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_draft_articles_carry_banner_noindex_and_nav_status(built_site, lang):
    for stem in source_pages():
        doc = parse(built_path(built_site, stem, lang))
        robots = [m.get("content") for m in doc.metas if m.get("name") == "robots"]
        if stem in ARTICLES:
            assert robots == ["noindex"], f"{lang}/{stem}"
            assert doc.banner, f"{lang}/{stem}: no draft banner"
        else:
            assert robots == [], f"{lang}/{stem} is not an article but is marked noindex"
            assert not doc.banner
        # Every page's navigation shows the status beside each draft article.
        assert doc.status_draft >= len(ARTICLES), f"{lang}/{stem}: nav lacks the draft status"


def test_banner_is_in_the_page_language(built_site):
    ar = built_path(built_site, "articles/vram-guide", "ar").read_text(encoding="utf-8")
    en = built_path(built_site, "articles/vram-guide", "en").read_text(encoding="utf-8")
    assert "مسودة غير منشورة" in ar and "Unpublished draft" not in ar.split("data-draft-banner")[1][:400]
    assert "Unpublished draft" in en


# ------------------------------------------------------------------------------------------------------------
# Offline hosting: nothing the browser loads by itself may point to another host.
# ------------------------------------------------------------------------------------------------------------
_OFF_HOST = re.compile(r"^(https?:)?//", re.I)
_CSS_URL = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])(?P<u>[^"')\s]+)""", re.I)
# A quoted absolute URL in a script: something code could fetch. XML namespaces are names, not requests.
_JS_URL = re.compile(r"""["'`](?P<u>https?://[^"'`\s]+)""", re.I)
_NAMESPACES = ("http://www.w3.org/",)


def test_no_resource_points_off_the_host(built_site):
    offenders: list[str] = []
    for path in built_site.rglob("*"):
        rel = path.relative_to(built_site)
        if rel.parts[0] == "admin":
            continue  # the CMS talks to its backend's API by design; tests/docs/test_cms_build.py checks it has no CDN
        if path.suffix == ".html":
            for url in parse(path).resource_urls:
                for part in url.split(","):
                    if _OFF_HOST.match(part.strip()):
                        offenders.append(f"{rel}: {url}")
            text = path.read_text(encoding="utf-8")
            for m in re.finditer(r"<style[^>]*>(.*?)</style>", text, re.S):
                offenders += [f"{rel}: {u}" for u in _CSS_URL.findall(m.group(1)) if _OFF_HOST.match(u)]
        elif path.suffix == ".css":
            css = path.read_text(encoding="utf-8")
            offenders += [f"{rel}: {u}" for u in _CSS_URL.findall(css) if _OFF_HOST.match(u)]
        elif path.suffix in (".js", ".mjs"):
            js = path.read_text(encoding="utf-8", errors="replace")
            offenders += [f"{rel}: {m['u']}" for m in _JS_URL.finditer(js) if not m["u"].startswith(_NAMESPACES)]
    assert not offenders, "\n".join(offenders[:40])


def test_fonts_are_self_hosted(built_site):
    css = (built_site / "assets" / "fonts" / "fonts.css").read_text(encoding="utf-8")
    families = set(re.findall(r"font-family:\s*'([^']+)'", css))
    assert {"Noto Naskh Arabic", "Inter"} <= families
    for url in _CSS_URL.findall(css):
        assert not _OFF_HOST.match(url)
        assert (built_site / "assets" / "fonts" / url).is_file(), url
