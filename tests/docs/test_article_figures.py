"""The articles' figures come from the estimator, in both languages (issue 11, item 1).

Every GB/GiB figure, every verdict on a model and every percentage of a card in an article's prose must be
rendered from a computed element (``data-calc-value``, a ``data-calc-table`` table, a widget) or sit inside a
``<q>``/``<blockquote>`` that links to its source. A card's catalogue capacity used as its name ("a 24 GB card",
«بطاقة بسعة 24 GB») is exempt, and so are the comfort rule's two thresholds, which must equal the estimator's.
The tables must be computed from the same assumptions as the prose beside them (the page's ``calc:`` front matter).
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from calculator import api
from sitebuild.strings import calc_strings
from tests.docs.test_build import ARTICLES as ARTICLE_PAGES

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parents[2]
ARTICLES = tuple(stem.removeprefix("articles/") for stem in ARTICLE_PAGES)   # every article of docs/articles/
LANGS = ("ar", "en")

# Units of memory in either language's spelling. A figure is a number right before one of them.
_UNIT = r"(?:GiB|GB|MiB|MB|TB|TiB|غيغابايت|جيجابايت|غيغا بايت|جيجا بايت|ميغابايت|ميجابايت|تيرابايت)"
FIGURE = re.compile(rf"(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?:[-–]\s*)?{_UNIT}(?![A-Za-z])")
PERCENT = re.compile(r"(?P<num>\d+(?:[.,]\d+)?)\s*[%٪]")
# Time and money in either language (issue 12): "1.9 hours", "25 minutes", "3 days", "$2", "2.74 USD", «5 ساعات».
DURATION = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:hours?|hrs?|h\b|minutes?|mins?|days?|weeks?|"
                      r"ساعات|ساعة|ساعتين|دقائق|دقيقة|أيام|يومًا|يوم|أسابيع)", re.I)
# The units the new sections use (issue 22): an estimated figure per parameter (a decimal: "16.8 bytes per parameter";
# a dtype's width such as "4 bytes per parameter" is a definition, not an estimate), a speed in tokens per second,
# and a card's tensor peak in TFLOPS. Each must be a computed marker.
PER_PARAM = re.compile(r"\d+\.\d+\s*(?:bytes?|bits?|B)\s*(?:per|/)\s*param(?:eter)?s?\b"
                       r"|\d+\.\d+\s*(?:بايت|بت)\S*\s+لكل\s+معامل", re.I)
RATE = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:tokens?\s*/\s*s\b|tokens? per second|رمز\S*\s+في\s+الثانية)", re.I)
TFLOPS = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:T|P)FLOPS\b")
MONEY = re.compile(r"(?:\$|USD\s?)\s*\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s*(?:USD|dollars?|دولارًا|دولارات|دولار)",
                   re.I)
# A verdict on a model: a verdict word in a sentence that names a model size (7B, 13–34B, 70B, ...).
VERDICT = re.compile(
    r"\b(?:comfortabl[ey]|tight(?:ly)?|fits?|fitting|does(?:n't| not) fit|do(?:n't| not) fit|won't fit)\b"
    r"|(?:لا\s+)?[تي]تسع|مريح[اًة]?|ضيق[اًة]?|يتجاوز الذاكرة", re.I)
MODEL_SIZE = re.compile(r"\b\d+(?:\.\d+)?(?:\s*[–-]\s*\d+(?:\.\d+)?)?B\b")
# "a 24 GB card", "24 GB class", "a 48 GB L40S", "H100 80GB" / «بطاقة بسعة 24 GB», «فئة 48 GB», «ببطاقة 48 GB»
CARD_AFTER = re.compile(r"^\s*(?:cards?|GPUs?|class(?:es)?|[A-Z]+\s?\d)")
CARD_BEFORE = re.compile(r"(?:\b[A-Z]{1,4}\d{2,4}\s*|(?:بطاق\S*|ببطاق\S*|فئة|بسعة)\s*(?:\d+\s*[–-]\s*)?)$")   # «فئة 94–96 GB»
RULE_WORDS = re.compile(r"comfortable|tight|comfort rule|مريح|ضيق|قاعدة الراحة", re.I)
SENTENCE_END = re.compile(r"(?<=[.!?؟])\s+|\n")

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "caption", "figcaption",
          "summary", "label"}


def catalogue_capacities() -> set[int]:
    """Marketed capacities of the catalogue's cards: the numbers in their names and their memory in GiB."""
    caps = set()
    for g in api.schema()["gpus"]:
        caps.update(int(n) for n in re.findall(r"(\d+)\s*GB", g["name"]))
        caps.add(round(g["memory_bytes"] / 2**30))
    return caps


class ProseParser(HTMLParser):
    """Collects the article's prose, block by block, leaving out computed elements, widgets, code and quotes
    that link to their source (a quote without a link is kept as prose)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []  # (tag, role): role "skip", "quote", "block" or ""
        self.blocks: list[str] = []
        self.current: list[str] = []
        self.quotes: list[dict] = []  # open quotes: {"text": [...], "linked": bool}

    def _skipping(self) -> bool:
        return any(role == "skip" for _, role in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag in VOID:
            return
        if self._skipping():
            role = "skip"
        elif ("data-calc-value" in a or "data-calc-table" in a or "data-calc-root" in a or "data-calc-slot" in a
              or "data-calc-config" in a or tag in ("pre", "script", "style", "svg") or "headerlink" in classes):
            role = "skip"
        elif tag in ("q", "blockquote"):
            role = "quote"
            self.quotes.append({"text": [], "linked": False})
        elif tag in BLOCKS:
            role = "block"
            self._flush()
        else:
            role = ""
        if tag == "a" and a.get("href") and self.quotes and not self._skipping():
            self.quotes[-1]["linked"] = True
        self.stack.append((tag, role))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            open_tag, role = self.stack.pop()
            if role == "quote":
                quote = self.quotes.pop()
                if not quote["linked"]:  # an unsourced quote is prose like any other
                    self.current.append("".join(quote["text"]))
            if role == "block":
                self._flush()
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self._skipping():
            return
        (self.quotes[-1]["text"] if self.quotes else self.current).append(data)

    def _flush(self):
        text = "".join(self.current).strip()
        if text:
            self.blocks.append(re.sub(r"\s+", " ", text))
        self.current = []

    def close(self):
        super().close()
        self._flush()


def article_html(site: Path, slug: str, lang: str) -> str:
    base = site if lang == "ar" else site / "en"
    page = (base / "articles" / slug / "index.html").read_text(encoding="utf-8")
    return page[page.index("<article"):page.index("</article>")]


def prose_blocks(fragment: str) -> list[str]:
    parser = ProseParser()
    parser.feed(fragment)
    parser.close()
    return parser.blocks


def uncomputed(blocks: list[str]) -> list[str]:
    """Every hand-written figure, verdict on a model or percentage of a card in these prose blocks."""
    caps = catalogue_capacities()
    headroom = api.schema()["headroom"]
    rule = {round(headroom["comfortable_max_share"] * 100), round(headroom["tight_max_share"] * 100)}
    found = []
    for block in blocks:
        for m in FIGURE.finditer(block):
            num = float(m["num"].replace(",", ""))
            before, after = block[:m.start()], block[m.end():]
            if num in caps and (CARD_AFTER.match(after) or CARD_BEFORE.search(before)):
                continue
            found.append(f"figure {m.group(0)!r} in: {block[:160]}")
        for sentence in SENTENCE_END.split(block):
            verdict = VERDICT.search(sentence)
            if verdict and MODEL_SIZE.search(sentence):
                found.append(f"verdict {verdict.group(0)!r} in: {sentence[:160]}")
            for pattern, what in ((DURATION, "time"), (MONEY, "cost"), (PER_PARAM, "per-parameter figure"),
                                  (RATE, "speed"), (TFLOPS, "tensor peak")):
                for m in pattern.finditer(sentence):
                    found.append(f"{what} {m.group(0)!r} in: {sentence[:160]}")
            for m in PERCENT.finditer(sentence):
                if float(m["num"].replace(",", ".")) in rule and RULE_WORDS.search(sentence):
                    continue
                found.append(f"percentage {m.group(0)!r} in: {sentence[:160]}")
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", ARTICLES)
def test_every_figure_verdict_and_share_in_the_prose_is_computed_or_a_sourced_quote(built_site, slug, lang):
    offenders = uncomputed(prose_blocks(article_html(built_site, slug, lang)))
    assert not offenders, "hand-written figures (use <!-- calc:value ... --> or quote the source):\n" + "\n".join(offenders)


def test_the_checker_catches_what_it_must_and_spares_what_it_may():
    """The rules of the test above, on known fragments (so that a regex change cannot silently pass everything)."""
    bad = prose_blocks(
        "<p>The weights take about <bdi>14 GB</bdi>.</p><p>ذروة تبلغ نحو 57 غيغابايت.</p>"
        "<p>Full fine-tuning of 13B fits one 80 GB card.</p><p>13B على بطاقة واحدة: لا تتسع.</p>"
        "<p>The run takes 97 % of the card.</p><blockquote><p>A 7B model needs 100 GB.</p></blockquote>"
        "<p>The run takes 1.9 hours and costs $1.39.</p><p>يستغرق التدريب 5 ساعات ويكلّف 3 دولارات.</p>"
        "<p>The peak is 16.8 bytes per parameter; it trains 1,234 tokens/s on a card of 989 TFLOPS.</p>"
        "<p>الثوابت 0.127 بت لكل معامل، والسرعة 7,146 رمزًا في الثانية.</p>")
    assert len(uncomputed(bad)) == 15
    good = prose_blocks(
        '<p>It needs <span class="calc-value" data-calc-value="57000000000">57.0 GB</span> on a 24 GB card, '
        "or one H100 80GB.</p><p>نموذج على بطاقة بسعة <bdi>24 GB</bdi> أو فئة 48 GB.</p>"
        '<blockquote><p>A 7B model needs 100 GB.</p><footer><a href="#key-facts">source</a></footer></blockquote>'
        "<p>A setup is comfortable at most at 85% of the card, tight up to 91%.</p>"
        '<p>It takes <span class="calc-value" data-calc-value="6771">1.9 hours</span> over 10 million tokens.</p>'
        '<pre><code>print(f"{x:.1f} GiB")  # 24 GB</code></pre>'
        "<p>fp32 takes 4 bytes per parameter, and bf16 2 + 2 + 4 = 8 bytes per parameter.</p>"
        '<p>It trains at <span class="calc-value" data-calc-value="1234">1,234 tokens/s</span>.</p>')
    assert uncomputed(good) == []


# -------------------------------------------------------------------------------------------------------------
# The computed elements: the same in both languages, one per marker, and the tables from the page's assumptions
# -------------------------------------------------------------------------------------------------------------
_VALUE_MARKER = re.compile(r"<!--\s*calc:value\b")
_TABLE_MARKER = re.compile(r"<!--\s*calc:table\s+(?P<name>[a-z-]+)(?P<attrs>[^>]*?)-->")
_RAW = re.compile(r'data-calc-value="([^"]*)"')


def front_matter_calc(slug: str) -> dict:
    """The article's shared assumptions (``calc:`` in the front matter, identical in both files)."""
    import yaml

    text = (ROOT / "docs" / "articles" / f"{slug}.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---", 2)[1]) or {}
    return dict(meta.get("calc") or {})


@pytest.mark.parametrize("slug", ARTICLES)
def test_both_languages_render_the_same_computed_values_one_per_marker(built_site, slug):
    source = (ROOT / "docs" / "articles" / f"{slug}.md").read_text(encoding="utf-8")
    markers = len(_VALUE_MARKER.findall(source))
    ar = _RAW.findall(article_html(built_site, slug, "ar"))
    en = _RAW.findall(article_html(built_site, slug, "en"))
    assert markers > 0
    assert len(ar) == len(en) == markers
    assert ar == en  # the raw values do not depend on the language


def _coerce(value: str):
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    if re.fullmatch(r"-?\d+\.\d+", value):
        return float(value)
    return value


def estimate(request: dict) -> dict:
    out = json.loads(api.answer_text(json.dumps({**request, "include": []})))
    assert out["ok"], out
    return out["result"]


_ROW = re.compile(r'<tr data-model="(?P<model>[^"]+)">(?P<body>.*?)</tr>', re.S)
_CELL = re.compile(r'<td data-gpus="(?P<n>\d+)">.*?data-value="(?P<bytes>\d+)".*?data-verdict="(?P<verdict>[a-z_]+)"',
                   re.S)


@pytest.mark.parametrize("lang", LANGS)
def test_size_tables_use_the_assumptions_of_the_prose(built_site, lang):
    """Each needs-by-size table, cell by cell, is what the estimator gives under the page's front-matter
    assumptions plus the marker's own keys: the table cannot drift from the sentences around it."""
    source = (ROOT / "docs" / "articles" / "vram-guide.md").read_text(encoding="utf-8")
    markers = [m for m in _TABLE_MARKER.finditer(source) if m["name"] == "needs-by-size"]
    page = article_html(built_site, "vram-guide", lang)
    starts = [m.start() for m in re.finditer(r'data-calc-table="needs-by-size"', page)]
    assert len(starts) == len(markers) == 4  # full (bf16), full (mixed), LoRA, QLoRA
    shared = front_matter_calc("vram-guide")
    card = "h100-80gb"
    for marker, start in zip(markers, starts):
        keys = dict(tok.split("=", 1) for tok in marker["attrs"].split())
        keys = {k: _coerce(v) for k, v in keys.items()}
        table = page[start:page.index("</table>", start)]
        rows = list(_ROW.finditer(table))
        assert len(rows) == 4
        for row in rows:
            for cell in _CELL.finditer(row["body"]):
                n = int(cell["n"])
                want = estimate({**shared, **keys, "model": row["model"], "gpu": card, "num_gpus": n,
                                 "sharding": "zero3" if n > 1 else "none"})
                assert int(cell["bytes"]) == want["peak_bytes_per_gpu"], (keys, row["model"], n)
                assert cell["verdict"] == want["gpu"]["verdict"]


#: The guide's sizes (calculator/page/articles.py TABLE_SIZES), written out here so that the test does not read them back.
GUIDE_SIZES = ["llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.1-70b"]
#: The classes by the memory their cards report (GiB): the band each class label stands for.
CLASS_BANDS = {"24 GB": (20, 26), "32 GB": (30, 34), "48 GB": (44, 50), "80 GB": (78, 82), "94–96 GB": (90, 100),
               "141 GB": (135, 150),
               "180–192 GB": (170, 200)}


@pytest.mark.parametrize("lang", LANGS)
def test_gpu_class_table_gives_the_largest_size_that_fits_per_method(built_site, lang):
    """Per class and method, the cell names the largest of the guide's sizes whose peak the card surely holds (tight
    counts, the edge does not), and the next size up does not; each class is checked on the member that reports the least memory,
    so what the row says holds on every card of the class (the L4 and A10 report less than the RTX 4090)."""
    page = article_html(built_site, "vram-guide", lang)
    start = page.index('data-calc-table="gpu-classes"')
    table = page[start:page.index("</table>", start)]
    rows = re.findall(r'<tr data-gpu="([^"]+)" data-class="([^"]+)">(.*?)</tr>', table, re.S)
    assert {c for _, c, _ in rows} >= {"24 GB", "32 GB", "48 GB", "80 GB", "94–96 GB", "141 GB"}
    schema = {g["id"]: g for g in api.schema()["gpus"]}
    shared = front_matter_calc("vram-guide")
    for gpu, klass, body in rows:
        lo, hi = CLASS_BANDS[klass]
        assert lo <= schema[gpu]["memory_bytes"] / 2**30 <= hi, (klass, gpu)
        smaller = [g for g, spec in schema.items() if lo <= spec["memory_bytes"] / 2**30 <= hi
                   and spec["memory_bytes"] < schema[gpu]["memory_bytes"] and g != "v100-32gb"]
        assert not smaller, f"class {klass} is checked on {gpu}, but {smaller} report less"
        cells = re.findall(r'<td data-method="([^"]+)"(?: data-optimizer="([^"]+)")?[^>]*>(.*?)</td>', body, re.S)
        assert {m for m, _, _ in cells} == {"full", "lora", "qlora"}, (klass, cells)
        for method, optimizer, cell in cells:
            extra = {"optimizer": optimizer} if optimizer else {}
            verdicts = [estimate({**shared, **extra, "model": m, "method": method, "gpu": gpu})["gpu"]["verdict"]
                        for m in GUIDE_SIZES]
            # surely fits: tight counts, the edge (the card inside the likely range) does not (issue 42, point 5)
            fitting = [m for m, v in zip(GUIDE_SIZES, verdicts) if v not in ("at_edge", "does_not_fit")]
            best = re.search(r'data-role="best"(?: data-model="([^"]*)")?', cell)
            assert best and (best.group(1) or None) == (fitting[-1] if fitting else None), (gpu, method, optimizer)


@pytest.mark.parametrize("lang", LANGS)
def test_the_memory_strip_lists_every_card_of_the_catalogue_by_what_it_reports(built_site, lang):
    """The strip under the class table is the catalogue's, smallest first: a card added to the catalogue appears."""
    page = article_html(built_site, "vram-guide", lang)
    start = page.index('data-calc-table="gpu-memory"')
    strip = page[start:page.index("</figure>", start)]
    found = [(g, int(v)) for g, v in re.findall(r'data-gpu="([^"]+)"[^>]*data-value="(\d+)"', strip)]
    want = sorted(((g["id"], g["memory_bytes"]) for g in api.schema()["gpus"]), key=lambda gv: gv[1])
    assert sorted(found) == sorted(want)
    assert [v for _, v in found] == sorted(v for _, v in found)


@pytest.mark.parametrize("lang", LANGS)
def test_the_decision_chart_ends_each_branch_in_a_comfortable_setup(built_site, lang):
    """Each answer of the method -> precision -> class chart is a setup the estimator calls comfortable, and no
    setup with fewer cards of the listed classes is."""
    page = article_html(built_site, "vram-guide", lang)
    start = page.index('data-calc-table="decision"')
    chart = page[start:page.index("</figure>", start)]
    shared = front_matter_calc("vram-guide")
    branches = re.findall(r'data-method="([^"]+)" data-precision="([^"]+)">(.*?)</ul>', chart, re.S)
    assert [(m, p) for m, p, _ in branches] == [("qlora", "nf4"), ("lora", "base16"), ("full", "bf16"),
                                                ("full", "mixed")]
    for method, precision, body in branches:
        extra = {"precision": "mixed"} if precision == "mixed" else {}
        answers = re.findall(r'data-model="([^"]+)" data-gpu="([^"]+)" data-num-gpus="(\d+)"', body)
        assert answers, (method, precision)
        for model, gpu, n in answers:
            n = int(n)
            r = estimate({**shared, **extra, "model": model, "method": method, "gpu": gpu, "num_gpus": n,
                          "sharding": "zero3" if n > 1 else "none"})
            assert r["gpu"]["verdict"] == "comfortable", (method, precision, model, gpu, n)


@pytest.mark.parametrize("lang", LANGS)
def test_the_decision_chart_is_a_tree_of_lists_method_then_precision_then_answers(built_site, lang):
    """The flowchart is semantic HTML a screen reader reads as it is (content review §6, "pictures"): one list item
    per method, holding the list of its precisions, each holding the list of its answers; no script, no image."""
    page = article_html(built_site, "vram-guide", lang)
    start = page.index('data-calc-table="decision"')
    chart = page[start:page.index("</figure>", start)]
    assert "<script" not in chart and "<img" not in chart and "<svg" not in chart
    methods = re.findall(r'<li class="calc-decision__method" data-method="([^"]+)">(.*?)</ol></li>', chart, re.S)
    assert [m for m, _ in methods] == ["qlora", "lora", "full"], methods
    for method, body in methods:
        assert body.startswith('<p class="calc-decision__step calc-decision__step--method">'), body[:80]
        assert '<ol class="calc-decision__precisions">' in body
        precisions = re.findall(rf'data-method="{method}" data-precision="([^"]+)">', body)
        assert precisions == {"qlora": ["nf4"], "lora": ["base16"], "full": ["bf16", "mixed"]}[method]


def test_the_decision_charts_style_mirrors_and_its_arrows_are_silent():
    """calc.css draws the chart with logical properties only (no left/right), so it mirrors in Arabic, and every
    arrow it generates has an empty alternative text, so a screen reader does not read "right arrow"."""
    css = (ROOT / "docs" / "assets" / "calc" / "calc.css").read_text(encoding="utf-8")
    start = css.index("/* The decision chart")
    block = css[start:css.index("/* Time and cost", start)]
    assert not re.search(r"(?<![\w-])(?:margin|padding|border)-(?:left|right)\b|(?<![\w-])(?:left|right)\s*:", block)
    arrows = re.findall(r'content:\s*("[^"]*"(?:\s*/\s*"[^"]*")?)\s*;', block)
    assert arrows, block
    for i, value in enumerate(arrows):
        if "/" not in value:     # the plain fallback must be followed at once by the silent form
            assert arrows[i + 1].startswith(value) and arrows[i + 1].endswith('/ ""'), (value, arrows[i + 1])


@pytest.mark.parametrize("lang", LANGS)
def test_a_decision_answer_on_one_card_speaks_of_that_card(built_site, lang):
    """"1 card (…: 48% of each)" read wrong: a one-card answer gives the share of its card's memory, an answer on
    several cards the share of each card's (the string table's decision_answer_one / decision_answer)."""
    page = article_html(built_site, "vram-guide", lang)
    start = page.index('data-calc-table="decision"')
    chart = page[start:page.index("</figure>", start)]
    table = calc_strings(lang)["table"]
    one, several = (re.split(r"\{[a-z]+\}", table[k])[-1].rstrip(")") for k in ("decision_answer_one", "decision_answer"))
    answers = re.findall(r'data-num-gpus="(\d+)"[^>]*>(.*?)</li>', chart, re.S)
    assert {n == "1" for n, _ in answers} == {True, False}, "the chart must hold one-card and several-card answers"
    for n, body in answers:
        text = re.sub(r"<[^>]+>", "", body)
        assert (one if n == "1" else several) in text and (several if n == "1" else one) not in text, (n, text)
