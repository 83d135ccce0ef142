"""The article tables are drawn by the page's renderer on CPython (calculator/page/articles.py), from the estimator's
answers: the decision chart's smallest setup is the estimator's one solver (``api.smallest_setup``), which answers
what asking the estimator setup by setup answers, and the tables read the same in both languages."""
from __future__ import annotations

import re

import pytest

from calculator import api
from calculator.page import articles
from calculator.page.text import Strings
from sitebuild.strings import LANGUAGES, calc_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit
S = OnFirstUse(LANGUAGES, lambda lang: Strings(calc_strings(lang), lang))


def _ask(request):
    out = api.answer(request)
    assert out["ok"], out
    return out["result"]


def _first_comfortable(request, cards, counts):
    """Setup by setup, fewest cards first, then least memory: the first one the estimator calls comfortable."""
    ordered = sorted(((n, api.GPUS[g].memory_bytes, g) for g in cards for n in counts))
    for n, _memory, gpu in ordered:
        r = _ask({**request, "gpu": gpu, "num_gpus": n, "sharding": "zero3" if n > 1 else "none"})
        if r["gpu"]["verdict"] == "comfortable":
            return gpu, n
    return None


@pytest.mark.parametrize("method, extra, model", [
    ("qlora", {}, "llama-3.1-70b"), ("lora", {}, "qwen2.5-32b"), ("full", {}, "qwen2.5-14b"),
    ("full", {"precision": "mixed"}, "llama-3.1-8b"), ("full", {"seq_len": 8192}, "qwen2.5-32b")])
def test_the_smallest_setup_among_given_cards_is_the_first_comfortable_answer(method, extra, model):
    cards = tuple(articles.class_card(label) for label, *_band in articles.GPU_CLASSES)
    request = {**articles.TABLE_ASSUMPTIONS, **extra, "model": model, "method": method, "include": []}
    found = api.smallest_setup(request, cards, articles.TABLE_COUNTS)["comfortable"]
    expected = _first_comfortable(request, cards, articles.TABLE_COUNTS)
    assert (found and (found["gpu"], found["num_gpus"])) == expected


def test_the_decision_chart_ends_each_branch_in_the_estimators_smallest_setup():
    html = articles.table_html_for(S["en"], "decision", {}, {}, {}, _ask)
    answers = re.findall(r'data-model="([^"]+)" data-gpu="([^"]+)" data-num-gpus="(\d+)"', html)
    assert len(answers) == len(articles.DECISION_BRANCHES) * len(articles.TABLE_SIZES)
    first = articles.DECISION_BRANCHES[0]
    for (_size, model), (shown_model, gpu, n) in zip(articles.TABLE_SIZES, answers):
        request = {**articles.TABLE_ASSUMPTIONS, **first[2], "model": model, "method": first[0], "include": []}
        assert (shown_model, gpu, int(n)) == (model, *_first_comfortable(
            request, [articles.class_card(c[0]) for c in articles.GPU_CLASSES], articles.TABLE_COUNTS))


def test_a_needs_table_shows_the_estimators_peak_per_card():
    html = articles.table_html_for(S["en"], "needs-by-size", {"method": "qlora"}, {}, {}, _ask)
    shown = [int(v) for v in re.findall(r'data-calc-output="peak_bytes_per_gpu" data-value="(\d+)"', html)]
    asked = [_ask({**articles.TABLE_ASSUMPTIONS, "model": model, "method": "qlora", "gpu": articles.TABLE_CARD,
                   "num_gpus": n, "sharding": "zero3" if n > 1 else "none", "include": []})["peak_bytes_per_gpu"]
             for _size, model in articles.TABLE_SIZES for n in articles.TABLE_COUNTS]
    assert shown == asked


@pytest.mark.parametrize("name", sorted(articles.ARTICLE_TABLES))
def test_every_table_reads_the_same_figures_in_both_languages(name):
    options = {"method": "lora"} if name == "needs-by-size" else {}
    data = {lang: re.findall(r'data-(?:value|gpu|model|num-gpus|class)="([^"]*)"',
                             articles.table_html_for(S[lang], name, options, {}, {"seq_len": 2048}, _ask))
            for lang in LANGUAGES}
    assert data["ar"] and data["ar"] == data["en"]


def test_what_an_author_wrote_wrong_fails_the_build_naming_the_page():
    from mkdocs.exceptions import PluginError

    from calculator.errors import PageError
    from sitebuild import articles as routed, markers

    with pytest.raises(PageError):
        articles.table_html_for(S["en"], "needs-by-size", {"method": "nope"}, {}, {}, _ask)
    with pytest.raises(PluginError, match="^docs/x.md: calc:table needs-by-size method"):
        routed.render_table(S["en"], markers.parse("table needs-by-size method=nope", "x"), {}, "docs/x.md")
    with pytest.raises(PluginError, match="^docs/x.md: .*needs a `calc:` mapping"):
        routed.render_assumptions(S["en"], {}, "docs/x.md")


def _stack_cells(html, row_attr):
    row = re.search(rf'<tr {row_attr}>(.*?)</tr>', html, re.S).group(1)
    return dict(re.findall(r'<td data-stack="([^"]+)"[^>]*>(.*?)</td>', row, re.S))


def test_the_stacks_table_reads_every_default_from_the_estimators_regime_table(monkeypatch):
    """Issue 43 point 1: each cell of the frameworks' defaults is calculator/frameworks.py's entry, never typed: the
    same table drawn after one framework's entry changes shows the change, and a key a framework's table leaves out
    shows a dash rather than the estimator's own default."""
    import dataclasses

    from calculator import frameworks
    html = articles.table_html_for(S["en"], "stacks", {}, {}, {}, _ask)
    cells = _stack_cells(html, 'data-key="gradient_checkpointing"')
    assert set(cells) == set(articles.STACKS)
    assert "off" in cells["axolotl"] and "on" in cells["trl"]
    assert _stack_cells(html, 'data-key="fsdp_version"')["unsloth"].strip() == "—"
    trl = frameworks.get("trl")
    flipped = tuple(dataclasses.replace(d, value=False) if d.key == "gradient_checkpointing" else d
                    for d in trl.defaults)
    monkeypatch.setitem(frameworks.FRAMEWORKS, ("trl", trl.version), dataclasses.replace(trl, defaults=flipped))
    again = articles.table_html_for(S["en"], "stacks", {}, {}, {}, _ask)
    assert "off" in _stack_cells(again, 'data-key="gradient_checkpointing"')["trl"]


def test_the_stacks_table_shows_the_estimators_answer_under_each_framework():
    html = articles.table_html_for(S["en"], "stacks", {}, {}, {"seq_len": 2048}, _ask)
    for name, workload in articles.STACK_WORKLOADS:
        cells = _stack_cells(html, f'data-workload="{name}"')
        for stack in articles.STACKS:
            request = {**workload, "micro_batch_size": 1, "grad_accum_steps": 1, "lora_rank": 16,
                       "lora_targets": "all-linear", "include": []}
            request = {**articles.TABLE_ASSUMPTIONS, **request} if stack == "guide" else {**request, "framework": stack}
            shown = re.search(r'data-calc-output="peak_bytes_per_gpu" data-value="(\d+)"', cells[stack]).group(1)
            assert int(shown) == _ask(request)["peak_bytes_per_gpu"], (name, stack)


def test_the_grpo_figures_read_the_cycle_the_estimator_computed():
    """Issue 43 point 7: the RL section's figures are the GRPO cycle's (calculator/rl.py): its peak and the phase it
    falls in, the generation's KV cache, the reference model, vLLM's claim; a request without GRPO has none."""
    from calculator.errors import FigureUnavailable
    from calculator.page.figures import figure_html
    request = {**articles.TABLE_ASSUMPTIONS, "model": "qwen3-8b", "method": "lora", "grpo": True,
               "grad_accum_steps": 8, "include": []}
    r = _ask(request)
    shown = figure_html(S["en"], "grpo_peak", r)
    assert f'data-calc-value="{r["grpo"]["peak_bytes_per_gpu"]}"' in shown
    kv = max(p["terms"].get("kv_cache", 0) for p in r["grpo"]["phases"])
    assert kv > 0 and f'data-calc-value="{kv}"' in figure_html(S["en"], "grpo_kv_cache", r)
    assert S["ar"].get(f'figure.grpo_phase.{r["grpo"]["peak_phase"]}') in figure_html(S["ar"], "grpo_peak_phase", r)
    colocated = _ask({**request, "grpo_generator": "vllm_colocate", "gpu": "h100-80gb"})
    assert f'data-calc-value="{colocated["grpo"]["vllm"]["claim_bytes"]}"' in figure_html(S["en"], "grpo_vllm", colocated)
    with pytest.raises(FigureUnavailable):
        figure_html(S["en"], "grpo_vllm", r)
    with pytest.raises(FigureUnavailable):
        figure_html(S["en"], "grpo_peak", _ask({**request, "grpo": False, "grad_accum_steps": 1}))


@pytest.mark.parametrize("share, shown", [(1.005, "100.5%"), (0.996, "99.6%"), (1.0, "100%"), (0.58, "58%"),
                                          (1.03, "103%")])
def test_a_table_cell_never_prints_100_percent_beside_does_not_fit(share, shown):
    """Content review 2026-12-07 §7: the class table read "✗ 100%" for 100.5%, a contradiction on its face."""
    verdict = "comfortable" if share <= 0.85 else "tight" if share <= 1.0 else "does_not_fit"
    html = articles._fit_cell(S["en"], {"gpu": {"verdict": verdict, "share_of_memory": share}})
    assert re.search(r'calc-fitcell__share"><bdi[^>]*>' + re.escape(shown) + "<", html), html
