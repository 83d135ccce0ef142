"""The figures the articles state in prose agree with the tables the estimator computes at build time, in both
languages: if the estimator changes, the text is checked again."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.docs

_ROW = re.compile(r'<tr data-model="(?P<model>[^"]+)">(?P<body>.*?)</tr>', re.S)
_CELL = re.compile(r'<td data-gpus="(?P<n>\d+)">.*?data-value="(?P<bytes>\d+)".*?data-verdict="(?P<verdict>[a-z_]+)"',
                   re.S)


def page(site: Path, lang: str) -> str:
    base = site if lang == "ar" else site / "en"
    return (base / "articles" / "vram-guide" / "index.html").read_text(encoding="utf-8")


def needs_table(html: str, method: str) -> dict[str, dict[int, tuple[int, str]]]:
    start = html.index(f'data-calc-table="needs-by-size" data-method="{method}"')
    table = html[start:html.index("</table>", start)]
    return {m["model"]: {int(c["n"]): (int(c["bytes"]), c["verdict"]) for c in _CELL.finditer(m["body"])}
            for m in _ROW.finditer(table)}


def fewest_cards(cells: dict[int, tuple[int, str]]) -> int:
    return min(n for n, (_, verdict) in cells.items() if verdict != "does_not_fit")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_full_fine_tuning_prose_matches_the_computed_table(built_site, lang):
    html = page(built_site, lang)
    full = needs_table(html, "full")
    # Prose: "a 7B model onto a single 80 GB card (about 57 GB)".
    seven_b_one_card, verdict = full["llama-2-7b"][1]
    assert verdict != "does_not_fit"
    assert "57 GB" in html
    assert seven_b_one_card / 1e9 == pytest.approx(57, abs=1.0)
    # Prose: "13B needs two cards, 34B four and 70B eight".
    assert [fewest_cards(full[m]) for m in ("llama-2-13b", "qwen2.5-32b", "llama-2-70b")] == [2, 4, 8]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_gpu_class_recommendation_fits_its_card(built_site, lang):
    html = page(built_site, lang)
    start = html.index('data-calc-table="gpu-classes"')
    table = html[start:html.index("</table>", start)]
    verdicts = re.findall(r'data-verdict="([a-z_]+)"', table)
    assert len(verdicts) == 7  # 24 GB: two claims, 48 GB: three, 80 GB: two
    assert "does_not_fit" not in verdicts


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_qlora_70b_on_one_80gb_card_and_7_13b_on_24_48gb(built_site, lang):
    html = page(built_site, lang)
    qlora = needs_table(html, "qlora")
    assert fewest_cards(qlora["llama-2-70b"]) == 1
    lora = needs_table(html, "lora")
    assert lora["llama-2-7b"][1][0] <= 48e9 and lora["llama-2-13b"][1][0] <= 48e9
