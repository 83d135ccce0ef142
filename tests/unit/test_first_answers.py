"""What a reader meets first (issue 24): no speed, time or cost as the answer for a setup that does not fit (page and
CLI), the pointers to the fastest and cheapest setups that do, a first answer that fits, and the phase of the peak
said on the page. Checked against calculator.api's own answers, in both languages."""
from __future__ import annotations

import re

import pytest

from calculator import api
from calculator.__main__ import main as cli_main
from calculator.page import WIDGET_KINDS, render_results
from calculator.page.text import Strings, plain_text
from sitebuild.strings import LANGUAGES, calc_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit

S = OnFirstUse(LANGUAGES, lambda lang: Strings(calc_strings(lang), lang))

#: The review's case: Qwen2.5 14B full fine-tuning, 20 M tokens, on the RTX 4090 (612 % of its memory).
NO_FIT = {"model": "qwen2.5-14b", "method": "full", "gpu": "rtx-4090", "dataset_tokens": 20_000_000}


def estimator(lang: str, **keys):
    state = WIDGET_KINDS["estimator"].state(keys)
    fragment, results, errors = render_results(S[lang], "estimator", state)
    assert not errors, errors
    slots = WIDGET_KINDS["estimator"].slots(S[lang], results)
    return str(fragment), str(slots["summary"]), results[0]


def outputs(html: str) -> set[str]:
    return set(re.findall(r'data-calc-output="([^"]+)"', html))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("workload", [{"dataset_tokens": 20_000_000}, {}], ids=["run", "speed"])
def test_a_setup_that_does_not_fit_gets_no_speed_time_or_cost(lang, workload):
    keys = {k: v for k, v in NO_FIT.items() if k != "dataset_tokens"} | workload
    fragment, summary, r = estimator(lang, **keys)
    assert r["gpu"]["verdict"] == "does_not_fit" and r["throughput"]      # the API still has them; the page does not
    for html in (fragment, summary):
        assert not outputs(html) & {"run.seconds", "run.cost", "throughput.tokens_per_second_per_gpu",
                                    "throughput.mfu"}
    assert 'data-fits="false"' in summary and 'data-fits="false"' in fragment
    assert plain_text(S[lang].get("out.run_not_fit")) in plain_text(summary)
    # ... and it points to the fastest and the cheapest setups that fit, with their own time and cost.
    for key in ("fastest", "cheapest"):
        best = r[f"{key}_setup"]
        assert best["verdict"] != "does_not_fit"
        for html in (fragment, summary):
            assert re.search(rf'data-setup="{key}" data-gpu="{best["gpu"]}" data-num-gpus="{best["num_gpus"]}"', html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_setup_that_fits_keeps_its_time_and_cost(lang):
    fragment, summary, r = estimator(lang, model="qwen2.5-14b", method="full", precision="bf16", gpu="mi300x",
                                     dataset_tokens=20_000_000)
    assert r["gpu"]["verdict"] != "does_not_fit"
    assert {"run.seconds", "run.cost"} <= outputs(summary)
    assert {"run.seconds", "run.cost", "throughput.tokens_per_second_per_gpu"} <= outputs(fragment)


def test_nothing_that_fits_anywhere_is_said():
    fragment, summary, r = estimator("en", model="llama-3.1-405b", method="full", gpu="rtx-4090", seq_len=131072)
    assert r["fastest_setup"] is None and r["cheapest_setup"] is None
    for html in (fragment, summary):
        assert S["en"].get("out.smallest_none") in plain_text(html)


def test_the_cli_prints_no_time_or_cost_for_a_setup_that_does_not_fit(capsys):
    assert cli_main(["--model", "qwen2.5-14b", "--method", "full", "--gpu", "rtx-4090",
                     "--dataset-tokens", "20000000"]) == 0
    out = capsys.readouterr().out
    s = S["en"]
    assert s.get("out.run_time") not in out and f"{s.get('out.cost')}:" not in out
    assert s.get("out.tokens_per_second_per_gpu") not in out
    assert plain_text(s.get("out.time_not_fit")).split("{")[0] in out
    r = api.answer({**NO_FIT, "include": list(api.ENUMS["include"])})["result"]
    for key in ("fastest", "cheapest"):
        best = r[f"{key}_setup"]
        assert f"{s.get(f'out.{key}')} {best['num_gpus']} × {best['gpu']}" in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_answer_fits(lang):
    """The calculator opens on the setup most readers come for (an 8B model, QLoRA, a 24 GB card, with the
    checkpointing their framework turns on): it fits, in green or amber, not red."""
    state = WIDGET_KINDS["estimator"].state({})
    assert (state["model"], state["method"], state["gpu"]) == ("llama-3.1-8b", "qlora", "rtx-4090")
    _fragment, summary, r = estimator(lang)
    assert r["gpu"]["verdict"] == "comfortable", r["gpu"]
    assert {"run", "throughput.tokens_per_second_per_gpu"} & outputs(summary)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_says_when_the_peak_occurs(lang):
    """Full fine-tuning of Llama 3.1 8B in pure bf16 peaks at the optimizer step: checkpointing lowers the backward pass, which the
    page shows phase by phase, and leaves the peak where it is, which the page says."""
    s = S[lang]
    seen = {}
    for gc in (False, True):
        fragment, summary, r = estimator(lang, method="full", precision="bf16", gradient_checkpointing=gc)
        assert r["phase"] == "optimizer_step"
        assert 'data-calc-output="phase" data-value="optimizer_step"' in summary
        assert s.get("phase_at.optimizer_step") in plain_text(summary)
        phases = dict(re.findall(r'data-phase="(\w+)">.*?data-value="(\d+)"', fragment))
        assert phases == {p: str(b) for p, b in r["phases_allocated_bytes"].items()}
        assert re.search(r'class="calc-phase calc-phase--peak" data-phase="optimizer_step"', fragment)
        seen[gc] = (r["peak_bytes_per_gpu"], r["phases_allocated_bytes"]["backward_start"])
    assert seen[True][0] == seen[False][0] and seen[True][1] < seen[False][1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_speeds_say_their_noun_in_agreement_with_the_number(lang):
    s = S[lang]
    _fragment, summary, r = estimator(lang)
    n = round(r["throughput"]["tokens_per_second_per_gpu"])
    from calculator.page.text import counted
    assert plain_text(counted(s, "tokens_per_second", n)) in plain_text(summary)
    if lang == "ar":
        assert plain_text(counted(s, "tokens_per_second", 1580)) == "1,580 رمزًا في الثانية"
        assert plain_text(counted(s, "tokens_per_second", 265)) == "265 رمزًا في الثانية"
        assert plain_text(counted(s, "tokens_per_second", 104)) == "104 رموز في الثانية"
