"""GRPO on the estimator's form and in its results (issue 41): the objective is a checkbox beside DPO, its RL fields
are a group shown only while it is ticked (vLLM's only for a vLLM generator), and the result shows each phase's memory
with the part resident across phases, the peak phase marked, and the time of one step by phase, in both languages."""
from __future__ import annotations

import json
import re

import pytest

from calculator import api
from calculator.inputs import INPUTS
from calculator.page import render_widget
from calculator.page.kinds import WIDGET_KINDS
from calculator.page.text import Strings
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit
EST = WIDGET_KINDS["estimator"]
S = {lang: Strings(calc_strings(lang), lang) for lang in ("en", "ar")}
#: A GRPO setup the estimator accepts: 8 completions per micro-step (a multiple of 8 generations), vLLM colocated.
GRPO = {"grpo": True, "method": "lora", "micro_batch_size": 8, "gpu": "h100-80gb", "grpo_generator": "vllm_colocate"}
RL_KEYS = [s.name for s in INPUTS if s.name.startswith(("grpo_", "vllm_"))]


def _group(html: str, group: str) -> str:
    return re.search(rf'<fieldset class="calc-group" data-calc-group="{group}"[^>]*>', html)[0]


def _widget(lang: str, state: dict) -> str:
    return str(render_widget(S[lang], "estimator", "calc-estimator-1", EST.state(state), {}))


def test_every_rl_key_is_a_control_of_the_form_in_a_group_shown_only_with_grpo():
    html = _widget("en", GRPO)
    assert 'data-calc-field="grpo"' in html
    for key in RL_KEYS:
        assert f'data-calc-field="{key}"' in html, key
    rl, vllm = _group(html, "rl"), _group(html, "vllm")
    assert json.loads(re.search(r'data-calc-when="([^"]*)"', rl)[1].replace("&quot;", '"')) == {"grpo": [True]}
    assert " hidden" not in rl and " hidden" not in vllm
    # every RL control sits inside one of the two groups, and nothing else does (none shown to a supervised run)
    inside = []
    for group in ("rl", "vllm"):
        start = html.index(_group(html, group))
        inside += re.findall(r'data-calc-field="([a-z_]+)"', html[start:html.index("</fieldset>", start)])
    assert sorted(set(inside)) == sorted(RL_KEYS)
    off = _widget("en", {"grpo": False})
    assert " hidden" in _group(off, "rl") and " hidden" in _group(off, "vllm")
    # vLLM's settings mean nothing when the trained model generates
    own = _widget("en", {**GRPO, "grpo_generator": "transformers"})
    assert " hidden" not in _group(own, "rl") and " hidden" in _group(own, "vllm")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_result_shows_each_grpo_phase_with_its_resident_part_and_the_time_split(lang):
    s = S[lang]
    html = _widget(lang, GRPO)
    answer = api.answer({**EST.state(GRPO), "model": "llama-3.1-8b"})["result"]["grpo"]
    figure = html[html.index('data-calc-output="grpo"'):]
    figure = figure[:figure.index("</figure>")]
    assert s.get("out.grpo.title").replace("'", "&#x27;") in figure           # the caption, in the reader's language
    rows = re.findall(r'<tr data-phase="([a-z]+)"( class="calc-table__current")?>(.*?)</tr>', figure)
    assert [p for p, _, _ in rows] == [ph["phase"] for ph in answer["phases"]]
    for (phase, current, row), ph in zip(rows, answer["phases"]):
        values = [int(v) for v in re.findall(r'class="calc-bytes" data-value="(\d+)"', row)]
        assert values == [ph["allocated_bytes"], min(answer["resident_bytes"], ph["allocated_bytes"])]
        peak = phase == answer["peak_phase"]
        assert bool(current) == peak and (s.get("out.grpo.peak_mark") in row) == peak
        assert s.get(f"out.grpo.phase.{phase}") in row
    assert 0 < answer["resident_bytes"] < max(ph["allocated_bytes"] for ph in answer["phases"])
    time = html[html.index('data-calc-output="grpo.time"'):]
    time = time[:time.index("</figure>")]
    shown = re.findall(r'<tr data-phase="([a-z]+)"', time)
    assert shown == [p for p, sec in answer["time"]["seconds"].items() if sec] and shown
    assert s.get("out.grpo.dominant") in time and s.get("out.grpo.step") in time
    assert s.get("out.grpo.vllm_pool") in html


def test_a_supervised_result_has_no_grpo_table():
    html = _widget("en", {})
    assert 'data-calc-output="grpo"' not in html and 'data-calc-output="grpo.time"' not in html
