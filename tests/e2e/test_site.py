"""The built site in Debian Chromium: both languages, offline, mirrored, searchable, with the draft banner."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
ARTICLES = ("articles/vram-guide/", "articles/five-ways/")
WIDE = {"width": 1400, "height": 900}


def page_paths() -> list[str]:
    stems = sorted(str(p.relative_to(DOCS).with_suffix("")) for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md"))
    return ["" if s == "index" else f"{s}/" for s in stems]


def url(base: str, lang: str, path: str) -> str:
    return f"{base}{'en/' if lang == 'en' else ''}{path}"


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_page_loads_offline_without_errors(page, guard, site_url, lang):
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for path in page_paths():
        page.goto(url(site_url, lang, path), wait_until="networkidle")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
        expect(page.locator("h1").first).to_be_visible()
    assert not failed, failed
    # Self-hosted fonts were actually used by the browser (no system fallback, nothing fetched elsewhere).
    page.goto(url(site_url, lang, "articles/vram-guide/"), wait_until="networkidle")
    family = "Noto Naskh Arabic" if lang == "ar" else "Inter"
    assert page.evaluate(f"document.fonts.ready.then(() => document.fonts.check('16px \"{family}\"', 'a'))")
    loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert any(family in f for f in loaded), loaded


@pytest.mark.parametrize("lang,needle", [("ar", "مسودة غير منشورة"), ("en", "Unpublished draft")])
def test_draft_banner_visible_on_each_article_in_its_language(page, guard, site_url, lang, needle):
    for path in ARTICLES:
        page.goto(url(site_url, lang, path))
        banner = page.locator("[data-draft-banner]")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(needle)
        assert page.locator('meta[name="robots"]').get_attribute("content") == "noindex"
    page.goto(url(site_url, lang, ""))
    expect(page.locator("[data-draft-banner]")).to_have_count(0)


@pytest.mark.parametrize("src,dst", [("ar", "en"), ("en", "ar")])
def test_language_switcher_lands_on_the_same_section(page, guard, site_url, src, dst):
    page.set_viewport_size(WIDE)
    page.goto(url(site_url, src, "articles/vram-guide/"))
    anchors = page.eval_on_selector_all("article h2[id]", "els => els.map(e => e.id)")
    assert len(anchors) >= 3
    anchor = anchors[2]
    page.goto(url(site_url, src, f"articles/vram-guide/#{anchor}"))
    page.locator(".md-header__option .md-select").hover()
    page.locator(f'.md-select__link[hreflang="{dst}"]').click()
    page.wait_for_url(f"**/articles/vram-guide/#{anchor}")
    assert page.url == url(site_url, dst, f"articles/vram-guide/#{anchor}")
    expect(page.locator("html")).to_have_attribute("lang", dst)
    box = page.locator(f"#{anchor}").bounding_box()
    assert box is not None and 0 <= box["y"] < WIDE["height"], "the section is not in view after switching"


@pytest.mark.parametrize(
    "lang,query,expected_path",
    [("ar", "التنشيطات", "articles/"), ("en", "activations", "en/articles/")],
)
def test_search_finds_text_in_each_language(page, guard, site_url, lang, query, expected_path):
    page.goto(url(site_url, lang, ""))
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").fill(query)
    results = page.locator(".md-search-result__item a")
    expect(results.first).to_be_visible(timeout=40_000)  # the search worker indexes first; slow on 2 busy cores
    hrefs = results.evaluate_all("els => els.map(e => e.href)")
    wanted = [h for h in hrefs if h.startswith(site_url + expected_path)]
    assert wanted, hrefs
    # The English query's hits are English pages, the Arabic query's Arabic pages.
    if lang == "ar":
        assert all("/en/" not in h for h in wanted)


def test_layout_is_mirrored_in_arabic(page, guard, site_url):
    page.set_viewport_size(WIDE)
    boxes = {}
    for lang in ("ar", "en"):
        page.goto(url(site_url, lang, "articles/vram-guide/"))
        nav = page.locator(".md-sidebar--primary").bounding_box()
        toc = page.locator(".md-sidebar--secondary").bounding_box()
        content = page.locator(".md-content").bounding_box()
        logo = page.locator(".md-header__button.md-logo").bounding_box()
        boxes[lang] = (nav, toc, content, logo)
    nav, toc, content, logo = boxes["en"]
    assert nav["x"] < content["x"] < toc["x"]          # English: navigation on the left
    nav, toc, content, logo_ar = boxes["ar"]
    assert toc["x"] < content["x"] < nav["x"]           # Arabic: navigation on the right
    assert logo_ar["x"] > WIDE["width"] / 2 > logo["x"]  # the logo sits at the start edge of each language
    # Text starts at the right edge in Arabic.
    page.goto(url(site_url, "ar", "articles/vram-guide/"))
    align = page.locator("article p").first.evaluate("e => getComputedStyle(e).direction")
    assert align == "rtl"


def test_site_works_under_a_sub_path(page, guard, subpath_site_url):
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for lang in ("ar", "en"):
        for path in ARTICLES:
            page.goto(url(subpath_site_url, lang, path), wait_until="networkidle")
            expect(page.locator("[data-draft-banner]")).to_be_visible()
            # Material's stylesheet applied: the header is a fixed bar, not unstyled text.
            assert page.locator(".md-header").evaluate("e => getComputedStyle(e).position") == "sticky"
    assert not failed, failed


def test_404_page_speaks_both_languages(page, site_url):
    response = page.goto(site_url + "no/such/page/")
    assert response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator("h1")).to_contain_text("الصفحة غير موجودة")
    expect(page.locator('[lang="en"]')).to_contain_text("Page not found")
