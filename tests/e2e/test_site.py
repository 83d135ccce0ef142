"""The built site in Debian Chromium: both languages, offline, mirrored, searchable (each language its own index),
with the draft banner, under a sub-path (every link and asset, the 404 page)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from calc_pages import loaded, url

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
WIDE = {"width": 1400, "height": 900}


def page_paths() -> list[str]:
    stems = sorted(str(p.relative_to(DOCS).with_suffix("")) for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md"))
    return ["" if s == "index" else f"{s}/" for s in stems]


ARTICLES = [path for path in page_paths() if path.startswith("articles/")]   # every article of docs/articles/


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_page_loads_offline_without_errors(page, guard, site_url, lang):
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for path in page_paths():
        page.goto(url(site_url, lang, path))
        loaded(page)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
        expect(page.locator("h1").first).to_be_visible()
    assert not failed, failed
    # Self-hosted fonts were actually used by the browser (no system fallback, nothing fetched elsewhere).
    page.goto(url(site_url, lang, "articles/vram-guide/"))
    loaded(page)
    family = "Noto Naskh Arabic" if lang == "ar" else "Inter"
    assert page.evaluate(f"document.fonts.ready.then(() => document.fonts.check('16px \"{family}\"', 'a'))")
    families = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert any(family in f for f in families), families


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
    loaded(page)                              # fonts in and layout final before the section's place is read
    expect(page.locator(f"#{anchor}")).to_be_in_viewport()
    box = page.locator(f"#{anchor}").bounding_box()
    assert box is not None and 0 <= box["y"] < WIDE["height"], "the section is not in view after switching"


# Queries, each on one page: English and Arabic pages both mention QLoRA; an Arabic word on an Arabic page.
SEARCHES = [("en", "", "QLoRA"), ("en", "articles/vram-guide/", "QLoRA"),
            ("ar", "", "QLoRA"), ("ar", "articles/five-ways/", "التنشيطات")]
SEARCH_MS = 60_000  # the most to wait for the worker's answer (it indexes first; slow on 2 busy cores)


def search_hits(page, query: str) -> list[str]:
    """Type ``query`` into Material's search and return the result links once the worker has answered it.

    Material reads the field on keyup (and again when its index is ready), so the query is typed and then a key is
    released; the wait is on the worker's answer itself: the count line under the field switches from "Initializing
    search"/"Type to start searching" to the page language's "N matching documents" (or "No matching documents")."""
    translations = json.loads(page.locator("#__config").text_content())["translations"]
    answered = "|".join(re.escape(translations[k]).replace("\\#", r"\d+")
                        for k in ("search.result.none", "search.result.one", "search.result.other"))
    field = page.locator(".md-search__input")
    field.click()
    field.fill(query)
    field.press("End")
    meta = page.locator(".md-search-result__meta")
    expect(meta).to_have_text(re.compile(f"^(?:{answered})$"), timeout=SEARCH_MS)
    if meta.text_content() == translations["search.result.none"]:
        # Under load the worker can answer the query before its index is complete; Material queries again on the
        # next keyup. A query that still finds nothing then fails here.
        field.press("End")
        expect(meta).not_to_have_text(translations["search.result.none"], timeout=SEARCH_MS)
    assert meta.text_content() != translations["search.result.none"], f"no result for {query!r}"
    return page.locator(".md-search-result__item > .md-search-result__link").evaluate_all("els => els.map(e => e.href)")


@pytest.mark.parametrize("lang,path,query", SEARCHES)
def test_search_finds_only_pages_in_the_page_language(page, guard, site_url, lang, path, query):
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/search/search_index.json") else None)
    page.goto(url(site_url, lang, path))
    loaded(page)
    page.wait_for_timeout(500)                # Material's script has run and would have asked by now
    assert not asked, f"the search index was fetched before the reader touched search: {asked}"
    hits = search_hits(page, query)
    assert hits
    index = site_url + ("en/" if lang == "en" else "") + "search/search_index.json"
    assert asked == [index], asked            # asked for once, when the reader searched, in the page's language
    english = site_url + "en/"
    wrong = [h for h in hits if h.startswith(english) != (lang == "en") or not h.startswith(site_url)]
    assert not wrong, f"{lang} page, {query!r}: results in the other language: {wrong}"


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


OK = (200, 304)  # 304: the browser revalidated a file it already has


def internal(href: str, base: str) -> bool:
    return urlsplit(href).scheme in ("http", "https") and urlsplit(href).netloc == urlsplit(base).netloc


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_link_and_asset_resolves_inside_a_sub_path(page, guard, subpath_site_url, site_pages, missing_path,
                                                         lang):
    """The built site served under /guide/: every page of this language (from the built files), every request it
    makes (stylesheets, scripts, fonts, the search index, the calculator's runtime) and every link on it stays
    under /guide/ and answers 200; links to a section find it on the target page."""
    prefix = subpath_site_url
    bad: list[str] = []
    page.on("request", lambda r: bad.append(f"request outside {prefix}: {r.url}")
            if internal(r.url, prefix) and not r.url.startswith(prefix) else None)
    page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status not in OK else None)
    queue = [prefix + path for path, page_lang in site_pages if page_lang == lang and path != missing_path]
    assert queue, f"no built page in {lang}"
    known = {prefix + path for path, _ in site_pages}
    visited: dict[str, set[str]] = {}   # page -> the ids on it
    wanted: dict[str, set[str]] = {}    # page -> the fragments links ask for
    checked: set[str] = set()
    while queue:
        target = queue.pop(0)
        if target in visited:
            continue
        response = page.goto(target)
        loaded(page)
        assert response.status == 200, f"{response.status} {target}"
        visited[target] = set(page.eval_on_selector_all("[id], a[name]", "els => els.map(e => e.id || e.name)"))
        for href in page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)"):
            if not internal(href, prefix):
                continue
            assert href.startswith(prefix), f"{target}: link {href} leaves {prefix}"
            link, fragment = urldefrag(href)
            if fragment and not fragment.startswith("calc="):
                wanted.setdefault(link, set()).add(unquote(fragment))
            if link.endswith("/") and link not in known:
                queue.append(link)  # a page no built file accounts for: visiting it fails the test
            elif link not in visited and link not in checked and not (link in known and link in queue):
                status = page.request.get(link).status
                assert status in OK, f"{target}: link {link} answers {status}"
                checked.add(link)
    for link, fragments in wanted.items():
        if link in visited:
            missing = fragments - visited[link]
            assert not missing, f"links to {link} ask for sections it does not have: {sorted(missing)}"
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("missing", ["no/such/page/", "en/missing"])
def test_404_page_under_a_sub_path_is_styled_and_its_links_work(page, guard, subpath_site_url, missing):
    """The host serves 404.html for a missing address at any depth. The page finds the site root by asking for
    assets/site.js in each folder of the address, deepest first (those folders' misses are the only other 404s),
    then loads its stylesheets and scripts from there."""
    prefix = subpath_site_url
    address = prefix + missing
    guard.allow_console.append("Failed to load resource: the server responded with a status of 404")
    responses: list[tuple[int, str]] = []
    page.on("response", lambda r: responses.append((r.status, r.url)))
    response = page.goto(address)
    assert response.status == 404
    # Shown, with Material's script running (the page stays hidden until its stylesheets have loaded).
    try:
        page.wait_for_function("() => document.documentElement.classList.contains('js')"
                               " && getComputedStyle(document.documentElement).visibility === 'visible'")
    except PlaywrightTimeoutError:
        pytest.fail(f"the 404 page never ran Material's script; its requests: {responses}")
    loaded(page)                         # its fonts too: every request it makes is in `responses`
    expect(page.locator("h1")).to_contain_text("الصفحة غير موجودة")
    expect(page.locator('[lang="en"] h2')).to_contain_text("Page not found")
    # Material's stylesheet and script ran: a sticky header, the palette set on <body>.
    assert page.locator(".md-header").evaluate("e => getComputedStyle(e).position") == "sticky"
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")
    folders = {prefix + "/".join(missing.split("/")[:i]) + ("/" if i else "") for i in range(1, missing.count("/") + 1)}
    probes = {folder + "assets/site.js" for folder in folders}
    for status, requested in responses:
        assert requested.startswith(prefix), f"request outside {prefix}: {requested}"
        if status == 404:
            assert requested == address or requested in probes, f"404 {requested}"
        else:
            assert status in OK, f"{status} {requested}"
    hrefs = [h for h in page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)") if internal(h, prefix)]
    assert prefix in hrefs and prefix + "en/" in hrefs, hrefs  # both languages' home pages
    for href in sorted(set(hrefs)):
        assert href.startswith(prefix), f"link {href} leaves {prefix}"
        assert page.request.get(urldefrag(href)[0]).status == 200, href


def test_404_page_speaks_both_languages(page, site_url):
    response = page.goto(site_url + "no/such/page/")
    assert response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator("h1")).to_contain_text("الصفحة غير موجودة")
    expect(page.locator('[lang="en"]')).to_contain_text("Page not found")
