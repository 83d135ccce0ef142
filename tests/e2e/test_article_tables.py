"""The VRAM guide's decision tables and charts on a phone and on a desktop, in both languages (issue 22, review §5.8
and §0 item 9): every answer cell of the GPU-class and needs-by-size tables lies on screen at 390 px (rows become
cards) and at 1280 px (the needs table no longer overflows its column), measured as boxes; and Arabic text is never
slanted by a synthetic italic (Noto Naskh Arabic has no italic face)."""
from __future__ import annotations

from pathlib import Path

import pytest

from calc_pages import loaded, url

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: The answer cells of each table: the GPU-class table's cells per method, the needs table's cells per card count.
ANSWERS = {"gpu-classes": "td[data-method]", "needs-by-size": "td[data-gpus]"}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_answer_cell_of_the_decision_tables_is_on_screen(page, guard, site_url, lang, viewport):
    page.set_viewport_size(viewport)
    page.goto(url(site_url, lang, "articles/vram-guide/"))
    loaded(page)
    report = page.evaluate("""(answers) => {
        // reference tables sit in closed disclosures (issue 43 point 9): measure them as a reader who opens them
        for (const d of document.querySelectorAll("article details")) d.open = true;
        const out = [];
        for (const [name, cells] of Object.entries(answers)) {
            for (const table of document.querySelectorAll(`[data-calc-table="${name}"]`)) {
                // a hidden tab's table has no box: show each table's tab before measuring it
                const tab = table.closest(".tabbed-block");
                const wrap = table.querySelector(".calc-table-wrap") || table;
                out.push({name, hiddenTab: !!tab && tab.offsetParent === null,
                          overflow: wrap.scrollWidth - wrap.clientWidth,
                          cells: [...table.querySelectorAll(cells)].map(td => {
                              const r = td.getBoundingClientRect();
                              const w = wrap.getBoundingClientRect();
                              return {left: r.left, right: r.right, wrapLeft: w.left, wrapRight: w.right,
                                      width: r.width, text: td.textContent.trim().slice(0, 40)};
                          })});
            }
        }
        return {tables: out, width: document.documentElement.clientWidth};
    }""", ANSWERS)
    seen = {t["name"] for t in report["tables"]}
    assert seen == set(ANSWERS), seen
    checked = 0
    for table in report["tables"]:
        if table["hiddenTab"]:
            continue            # measured when its tab is shown (below)
        assert table["overflow"] <= 1, f"{table['name']} overflows its column by {table['overflow']} px"
        for cell in table["cells"]:
            assert cell["width"] > 0, cell
            assert -1 <= cell["left"] and cell["right"] <= report["width"] + 1, (table["name"], cell)
            assert cell["wrapLeft"] - 1 <= cell["left"] and cell["right"] <= cell["wrapRight"] + 1, (table["name"], cell)
            checked += 1
    assert checked >= 6 * 4      # at least the class table's rows times its methods


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_each_needs_table_fits_when_its_tab_is_shown(page, guard, site_url, lang):
    """The four needs-by-size tables sit in tabs; each, once shown, keeps its card-count cells inside the column at
    1280 px and on a phone."""
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(url(site_url, lang, "articles/vram-guide/"))
        loaded(page)
        page.evaluate("for (const d of document.querySelectorAll('article details')) d.open = true")
        labels = page.locator(".tabbed-set .tabbed-labels label")
        count = labels.count()
        assert count >= 4
        for i in range(count):
            labels.nth(i).click()
            tables = page.locator('.tabbed-block:visible [data-calc-table="needs-by-size"]')
            if not tables.count():
                continue
            box = tables.first.evaluate("""t => {
                const w = (t.querySelector('.calc-table-wrap') || t);
                const wr = w.getBoundingClientRect();
                return {overflow: w.scrollWidth - w.clientWidth,
                        outside: [...t.querySelectorAll('td[data-gpus]')].filter(td => {
                            const r = td.getBoundingClientRect();
                            return r.width === 0 || r.left < wr.left - 1 || r.right > wr.right + 1;
                        }).length};
            }""")
            assert box["outside"] == 0 and box["overflow"] <= 1, (viewport, i, box)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_decision_flowchart_mirrors_and_stacks_on_a_phone(page, guard, site_url, lang, viewport):
    """The method -> precision -> class chart (calc:table decision) is drawn by CSS alone: on a desktop each method
    box stands beside its precisions, on the reading side (to the right in Arabic), and each precision beside its
    answers; at 390 px every box stacks under the one before it; at both widths every box lies inside the column."""
    page.set_viewport_size(viewport)
    page.goto(url(site_url, lang, "articles/vram-guide/"))
    loaded(page)
    rows = page.evaluate("""() => {
        const chart = document.querySelector('[data-calc-table="decision"]');
        const col = chart.getBoundingClientRect();
        const box = e => { const r = e.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom}; };
        return {col: box(chart), branches: [...chart.querySelectorAll('.calc-decision__branch')].map(b => ({
            method: box(b.closest('.calc-decision__method').querySelector('.calc-decision__step--method')),
            precision: box(b.querySelector('.calc-decision__step--precision')),
            answers: box(b.querySelector('.calc-decision__answers'))}))};
    }""")
    col = rows["col"]
    assert len(rows["branches"]) == 4
    for b in rows["branches"]:
        for name, r in b.items():
            assert col["l"] - 1 <= r["l"] and r["r"] <= col["r"] + 1, (name, r, col)
        m, p, a = b["method"], b["precision"], b["answers"]
        if viewport is PHONE:
            assert m["b"] <= p["t"] and p["b"] <= a["t"], b
        elif lang == "ar":
            assert m["l"] >= p["r"] - 1 and p["l"] >= a["r"] - 1, b
        else:
            assert m["r"] <= p["l"] + 1 and p["r"] <= a["l"] + 1, b


def test_no_synthetic_italics_on_arabic_text(page, guard, site_url):
    """Captions, assumption lines and emphasis in the Arabic pages are set upright; the English ones keep Material's
    italic captions (the rule is about the script, not the layout)."""
    page.set_viewport_size(DESKTOP)
    for path in ("articles/vram-guide/", "calculator/"):
        page.goto(url(site_url, "ar", path))
        loaded(page)
        slanted = page.evaluate("""() => [...document.querySelectorAll(
                'article figcaption, article .calc-assumption, article em, article i, article cite')]
            .filter(e => getComputedStyle(e).fontStyle !== 'normal')
            .map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 40))""")
        assert not slanted, f"{path}: {slanted}"
    page.goto(url(site_url, "en", "articles/vram-guide/"))
    loaded(page)
    assert page.locator("article figcaption").count() > 0


#: Every page of the site, by its path under a language's root.
PAGES = tuple(("" if p.stem == "index" else f"{p.stem}/") if p.parent.name == "docs" else f"articles/{p.stem}/"
              for p in sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "articles").glob("*.md"))
              if not p.stem.endswith(".en"))


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_no_page_is_wider_than_a_phones_screen(page, guard, site_url, lang):
    """At 390 px nothing pushes a page sideways: a figure that reads as a phrase ("no run has been measured on that
    card, so its speed comes from the datasheet alone") wraps with its sentence, where it was kept on one line and
    made the English guide 662 px wide (a phone then zooms the whole page out); wide tables scroll in their own box."""
    page.set_viewport_size(PHONE)
    wide = {}
    for path in PAGES:
        page.goto(url(site_url, lang, path))
        loaded(page)
        width = page.evaluate("""() => {
            const e = document.scrollingElement;
            if (e.scrollWidth <= e.clientWidth + 1) return null;
            const out = [...document.querySelectorAll('.md-content *')].filter(x => {
                const r = x.getBoundingClientRect();
                return r.right > innerWidth + 1 || r.left < -1;
            }).slice(0, 3).map(x => x.className + ': ' + x.textContent.trim().slice(0, 60));
            return [e.scrollWidth, out];
        }""")
        if width:
            wide[path] = width
    assert len(PAGES) >= 6 and not wide, wide
