"""One term per concept, in both languages (issue 22, review §5.3): the glossary's term table
(``docs/glossary.terms.yml``, beside the glossary and not published) lists, for each concept, the term the site uses
and the variants it rejects; no page and no string table may use a rejected variant, and the glossary's own table must
carry each Arabic term it fixes. The pages are read as written (Markdown) and the string tables as every string value
they hold, so a variant cannot hide in a widget's label either."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from calculator.page.text import STRING_TABLES

pytestmark = pytest.mark.docs

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
STRINGS = STRING_TABLES
_TASHKEEL = re.compile(r"[\u064b-\u0652\u0670\u0640]")     # harakat, shadda, sukun, dagger alif, tatweel


def terms() -> list[dict]:
    return yaml.safe_load((DOCS / "glossary.terms.yml").read_text(encoding="utf-8"))["terms"]


def body(path: Path) -> str:
    """A page without its front matter."""
    text = path.read_text(encoding="utf-8")
    return text.split("---", 2)[2] if text.startswith("---") else text


def strings_text(lang: str) -> str:
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            found.append(value)
    walk(json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8")))
    return "\n".join(found)


def texts(lang: str) -> dict[str, str]:
    """Every page of one language (Arabic: ``x.md``; English: ``x.en.md``) and its string table, by name."""
    pages = sorted(DOCS.rglob("*.md"))
    mine = [p for p in pages if p.name.endswith(".en.md") == (lang == "en")]
    assert len(mine) >= 6, mine
    return {**{str(p.relative_to(ROOT)): body(p) for p in mine}, str((STRINGS / f"{lang}.json").relative_to(ROOT)): strings_text(lang)}


def bare(text: str) -> str:
    """Arabic without its optional marks, so «المحسّن» and «المحسن» are one spelling to compare."""
    return _TASHKEEL.sub("", text)


def occurrences(variant: str, text: str, lang: str) -> int:
    if lang == "ar":
        return len(re.findall(rf"(?<![\w]){re.escape(bare(variant))}", bare(text)))
    return len(re.findall(rf"\b{re.escape(variant)}\b", text))


def test_the_table_is_well_formed():
    table = terms()
    assert len(table) >= 15
    for t in table:
        assert {"concept", "ar", "ar_rejected", "en", "en_rejected"} <= set(t), t
        for lang in ("ar", "en"):
            # a rejected variant may not be the term itself, once the marks are ignored
            assert all(bare(v) != bare(t[lang]) for v in t[f"{lang}_rejected"]), t


@pytest.mark.parametrize("lang", ("ar", "en"))
def test_no_page_and_no_string_uses_a_rejected_variant(lang):
    offenders = []
    for name, text in texts(lang).items():
        for t in terms():
            for variant in t[f"{lang}_rejected"]:
                n = occurrences(variant, text, lang)
                if n:
                    offenders.append(f"{name}: {variant!r} ({n}×) for {t['concept']!r}; the site's term is {t[lang]!r}")
    assert not offenders, "\n".join(offenders)


def test_the_glossary_carries_every_term_it_fixes():
    """The glossary fixes the Arabic terms: each one is in a row of its table (as the term or in a definition)."""
    page = body(DOCS / "glossary.md")
    rows = [line for line in page.splitlines() if line.startswith("|")]
    missing = [t["ar"] for t in terms() if not any(bare(t["ar"]) in bare(row) for row in rows)]
    assert not missing, f"terms fixed in the glossary's front matter but absent from its table: {missing}"


def test_the_checker_catches_a_variant_and_spares_the_term():
    assert occurrences("نسبة الإسقاط", "«نسبة الإسقاط في LoRA»", "ar") == 1
    assert occurrences("نسبة الإسقاط", "«نسبةُ الإسقاطِ»", "ar") == 1        # marks do not hide a variant
    assert occurrences("التعريف", "عمود التعريفات", "ar") == 1
    assert occurrences("microbatch", "a micro-batch of one", "en") == 0
    assert occurrences("fine tuning", "fine-tuning and fine tuning", "en") == 1


#: Generated phrasings that read as template tics (content review of 2026-12-07, §6; issue 43 point 8): the old fit
#: phrase «تسعه البطاقة» after «على بطاقة … واحدة» (the card named twice, a pronoun without its antecedent), a label
#: glued into a sentence, and the calques the review lists. Neither a page nor a string table may carry them again.
TICS = {
    "ar": ("تسعه البطاقة", "تسعه كل بطاقة", "تسعه البطاقات", "لا تسعه", "حالة النموذج:",
           # the calques of the review's §6
           "الذاكرة المضيفة", "تلفّها", "بطاقات المستهلكين", "ينقل الانتقال", "وما يراه كل إحصاء", "في كفّة الحساب",
           "تعيد إعادة", "الملاحظات البشرية", "من حاسبة واحدة"),
    "en": ("model states:",),
}


@pytest.mark.parametrize("lang", ("ar", "en"))
def test_no_page_and_no_string_carries_a_template_tic(lang):
    offenders = [f"{name}: {tic!r} ({n}×)" for name, text in texts(lang).items() for tic in TICS[lang]
                 if (n := occurrences(tic, text, lang))]
    assert not offenders, "\n".join(offenders)
