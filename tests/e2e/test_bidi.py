"""Generated strings in Arabic pages read in the right visual order in Chromium: a card count and its card ("2 × H100
80GB"), a figure and its unit ("57 GB"), a range ("13–34B") stay one left-to-right run inside the right-to-left
sentence, on one line. Checked by where the browser actually draws each character, not by the markup, on the session's
started pages (their widgets ready, so nothing is redrawn while it is measured)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

# In one go (one layout): the x of the first drawn box of the i-th and the j-th character of an element's text, and
# how many lines its characters are drawn on.
MEASURE = """(el, [i, j]) => {
  const charX = (k) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node, seen = 0;
    while ((node = walker.nextNode())) {
      if (k < seen + node.length) {
        const r = document.createRange();
        r.setStart(node, k - seen);
        r.setEnd(node, k - seen + 1);
        const box = r.getClientRects()[0];
        return box ? box.x : null;
      }
      seen += node.length;
    }
    return null;
  };
  const all = document.createRange();
  all.selectNodeContents(el);
  const lines = new Set([...all.getClientRects()].map(b => Math.round(b.top))).size;
  return {xi: charX(i), xj: charX(j), lines, text: el.textContent};
}"""


def laid_out(page) -> None:
    """The page's web fonts are loaded (a font swapping in moves every glyph): what is measured is the final layout."""
    assert page.evaluate("document.fonts.ready.then(() => document.fonts.status)") == "loaded"


def reads_left_to_right(locator, first: str, last: str) -> None:
    locator.scroll_into_view_if_needed()     # off-screen tables are not laid out (content-visibility: auto)
    text = locator.text_content()
    i, j = text.index(first), text.rindex(last)
    m = locator.evaluate(MEASURE, [i, j])
    assert m["text"] == text, (text, m["text"])
    assert m["xi"] is not None and m["xj"] is not None and m["xi"] < m["xj"], (text, first, m["xi"], last, m["xj"])
    assert m["lines"] == 1, text


def test_card_counts_figures_and_ranges_keep_their_order_in_arabic(started):
    article = started("ar", "articles/vram-guide/")
    page = article.page
    page.set_viewport_size({"width": 1280, "height": 900})
    try:
        laid_out(page)
        _article_runs(page)
    finally:
        article.restore_viewport()
    # The estimator's smallest setup: "N × <card>", as the started widget shows it.
    page = started("ar", "calculator/").page
    laid_out(page)
    setup = page.locator('#calc-estimator-1 [data-calc-output="smallest_setup"] li bdi').filter(has_text="×").first
    text = setup.text_content()
    reads_left_to_right(setup, text[0], text[-1])


def _article_runs(page) -> None:
    # the reference tables sit in closed disclosures (issue 43 point 9): read them as a reader who opens them
    page.evaluate("for (const d of document.querySelectorAll('article details')) d.open = true")
    # Column headers of the size table: "1 × 80 GB" … "8 × 80 GB" (count first, reading left to right).
    headers = page.locator('[data-calc-table="needs-by-size"] thead th:visible').filter(has_text="×")
    assert headers.count() >= 4
    for k in range(headers.count()):
        header = headers.nth(k)
        reads_left_to_right(header, header.text_content().strip()[0], "GB")
    # Computed figures inside sentences: the number, then its unit.
    values = page.locator('.calc-value[data-calc-out="peak"] bdi:visible')
    assert values.count() >= 3
    for k in range(min(values.count(), 6)):
        reads_left_to_right(values.nth(k), values.nth(k).text_content()[0], "GB")
    # A size range written in the prose stays one run on one line.
    ranges = page.locator("article bdi:visible").filter(has_text="–")
    found = 0
    for k in range(ranges.count()):
        text = ranges.nth(k).text_content()
        if text[0].isdigit():
            reads_left_to_right(ranges.nth(k), text[0], text[-1])
            found += 1
    assert found >= 1


def test_a_phone_cards_column_label_is_a_run_of_its_own_in_arabic(started):
    """On a phone each article table's row is a card whose answers stand under their column's name, drawn by a
    ``::before`` from ``data-label``. Inheriting the Arabic page's direction unisolated, "1 × 80 GB" read «GB 80 × 1»
    (content review 2026-12-07, §7): the label is isolated and takes its direction from its own first letter."""
    article = started("ar", "articles/vram-guide/")
    page = article.page
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.evaluate("for (const d of document.querySelectorAll('article details')) d.open = true")
        labels = page.evaluate("""() => [...document.querySelectorAll('[data-calc-table] td[data-label]')].map(td => {
            const before = getComputedStyle(td, '::before');
            return {label: td.dataset.label, content: before.content, bidi: before.unicodeBidi};
        })""")
        assert any("×" in item["label"] for item in labels), labels[:3]
        for item in labels:
            assert item["content"].strip('"') == item["label"], item
            assert item["bidi"] in ("plaintext", "isolate"), item
    finally:
        article.restore_viewport()
