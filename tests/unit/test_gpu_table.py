"""The GPU table and the "what fits" table with the longer catalogue (issue 20): one column per card count that some
card is offered in, "—" where a card is not, a group per card class (per model family) with its name as a row
header, the reader's card marked, a card that cannot run the setup saying why across its row, one that runs it
adjusted marked; the estimator says above its figures what the chosen card changed."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from calculator import api, vocab
from calculator.page import render_results
from calculator.page.kinds import WIDGET_KINDS
from calculator.page.text import STRING_TABLES, Strings

pytestmark = pytest.mark.unit

STRINGS = STRING_TABLES
S = {lang: Strings(json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))["calc"], lang)
     for lang in ("ar", "en")}


class Table(HTMLParser):
    """The GPU table's groups: [(class, [(gpu, attrs, [cell class, colspan, text])])] and the filter's options."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[tuple[str, list]] = []
        self.options: list[tuple[str, str]] = []
        self.cols: list[str] = []
        self._cell: list | None = None
        self._in_gpus = False
        self._in_head = False
        self._option: list | None = None
        self._th: list | None = None
        self._sel = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self._in_gpus = a.get("data-calc-output") == "gpu_table"
        if tag == "select" and "data-calc-gpu-class" in a:
            self._sel = "data-calc-gpu-class"
        if tag == "option" and self._sel:
            self._option = [a["value"], ""]
        if not self._in_gpus:
            return
        if tag == "thead":
            self._in_head = True
        if tag == "th" and self._in_head:
            self._th = [""]
        if tag == "tbody":
            self.groups.append((a["data-gpu-class"], []))
        if tag == "tr" and a.get("data-gpu"):
            self.groups[-1][1].append((a["data-gpu"], a, []))
        if tag == "td" and self.groups and self.groups[-1][1]:
            self._cell = [a.get("class", ""), int(a.get("colspan", 1)), ""]
            self.groups[-1][1][-1][2].append(self._cell)

    def handle_endtag(self, tag):
        if tag == "select":
            self._sel = ""
        if tag == "option" and self._option:
            self.options.append(tuple(self._option))
            self._option = None
        if tag == "td":
            self._cell = None
        if tag == "thead":
            self._in_head = False
        if tag == "th" and self._th is not None:
            self.cols.append(self._th[0])
            self._th = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data
        if self._option is not None:
            self._option[1] += data
        if self._th is not None:
            self._th[0] += data


def estimator(lang: str, **state) -> tuple[str, dict]:
    k = WIDGET_KINDS["estimator"]
    html, results, errors = render_results(S[lang], "estimator", {**k.defaults, **state}, {})
    assert not errors, errors
    return str(html), results[0]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_card_is_in_its_class_group_with_a_cell_per_count_offered(lang):
    html, r = estimator(lang, gpu="t4")
    t = Table()
    t.feed(html)
    counts = sorted({n for g in api.GPUS.values() for n in g.counts})
    assert len(t.cols) == 2 + len(counts)
    assert [k for k, _ in t.groups] == list(dict.fromkeys(g.klass for g in api.GPUS.values()))
    seen = []
    for klass, rows in t.groups:
        for gpu, attrs, cells in rows:
            g = api.GPUS[gpu]
            seen.append(gpu)
            assert g.klass == klass
            assert len(cells) == 1 + len(counts)          # memory + one per count
            for n, (cls, _span, text) in zip(counts, cells[1:]):
                if n in g.counts:
                    assert "calc-cell--none" not in cls and re.search(
                        "calc-cell--(" + "|".join(vocab.VERDICTS) + ")", cls)
                else:
                    assert "calc-cell--none" in cls and S[lang].get("out.not_offered") in text
    assert sorted(seen) == sorted(api.GPUS)
    current = [gpu for _, rows in t.groups for gpu, attrs, _ in rows if attrs.get("aria-current") == "true"]
    assert current == ["t4"]
    # the filter: every class, the reader's own named as such
    assert [v for v, _ in t.options] == ["all", *dict.fromkeys(g.klass for g in api.GPUS.values())]
    yours = dict(t.options)[api.GPUS["t4"].klass]
    assert yours == S[lang].get("out.gpu_class_yours").replace("{klass}", S[lang].get(
        f"options.gpu_class.{api.GPUS['t4'].klass}"))


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_card_that_cannot_run_the_setup_says_why_and_one_that_adjusts_it_is_marked(lang):
    html, r = estimator(lang, gpu="a100-80gb", attention="flash")
    t = Table()
    t.feed(html)
    rows = {gpu: cells for _, group in t.groups for gpu, _, cells in group}
    counts = sorted({n for g in api.GPUS.values() for n in g.counts})
    pre_ampere = {g.id for g in api.GPUS.values() if g.arch in ("pascal", "volta", "turing")}
    assert pre_ampere >= {"t4", "p100"}
    for gpu, cells in rows.items():
        if gpu in pre_ampere:
            (cls, span, text), = cells[1:]
            assert "calc-cell--unsupported" in cls and span == len(counts)
            assert S[lang].get("errors.reasons.flash_needs_ampere") in text
        else:
            assert len(cells) == 1 + len(counts)
    # bf16 on a T4: the row is marked, and the estimator on the T4 says what it computed instead
    # (with bf16 adapters, TRL's cast of a 4-bit model's, they become fp32 on a card without bf16)
    html, r = estimator(lang, gpu="t4", precision="bf16", lora_dtype="bf16")
    assert r["adjusted"] == ["bf16_to_fp16_mixed", "adapters_fp32"] and r["inputs"]["precision"] == "mixed"
    assert 'data-note="bf16_to_fp16_mixed"' in html
    row = re.search(r'<tr data-gpu="t4".*?</tr>', html).group(0)
    assert S[lang].get("out.adjusted_mark") in row
    assert S[lang].get("out.adjusted_mark") not in re.search(r'<tr data-gpu="a100-80gb".*?</tr>', html).group(0)


def test_what_fits_groups_the_models_by_family_in_catalogue_order():
    k = WIDGET_KINDS["fits"]
    html, _, errors = render_results(S["en"], "fits", dict(k.defaults), {})
    assert not errors
    bodies = re.findall(r'<tbody data-family="([^"]+)">(.*?)</tbody>', str(html))
    assert [f for f, _ in bodies] == list(dict.fromkeys(m.family for m in api.MODELS.values()))
    for family, body in bodies:
        assert re.findall(r'data-model="([^"]+)"', body) == [m.id for m in api.MODELS.values() if m.family == family]
