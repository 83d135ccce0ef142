"""One list per vocabulary (calculator/vocab.py), and every reader agrees with it: the codes the estimator produces,
the strings both tables must have, a colour per component and a style per verdict in calc.css, the stages of
protocol.mjs."""
from __future__ import annotations

import json

import pytest

from calculator import api, vocab
from calculator.catalog import GPUS
from sitebuild.calc_assets import missing_styles, protocol_stages
from sitebuild.strings import required_calc_strings

pytestmark = pytest.mark.unit

REQUESTS = [
    {"model": "llama-3.1-8b", "gpu": "rtx-4090", "micro_batch_size": 4, "seq_len": 8192},
    {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090", "optimizer": "paged_adamw_8bit"},
    {"model": "llama-3.1-8b", "gpu": "h100-80gb", "precision": "fp32"},
    {"model": "mixtral-8x7b", "method": "lora", "gpu": "a100-80gb", "dpo": True, "precision": "mixed"},
    {"model": "llama-3.1-70b", "gpu": "l4", "seq_len": 32768},
    # 84 GB with every paged state resident, 30 GB without: only by paging on a 48 GB card
    {"model": "llama-2-7b", "gpu": "rtx-a6000", "optimizer": "paged_adamw_32bit", "gradient_checkpointing": True},
    {"model": "qwen2.5-0.5b", "gpu": next(g for g, spec in GPUS.items() if not spec.peak_tflops) if any(
        not spec.peak_tflops for spec in GPUS.values()) else "rtx-4090"},
]


@pytest.fixture(scope="module")
def results():
    return [json.loads(api.answer_text(json.dumps(r)))["result"] for r in REQUESTS]


def test_a_breakdown_is_the_components_in_their_order(results):
    for r in results:
        assert list(r["breakdown_bytes"]) == list(vocab.COMPONENTS)
        assert sum(r["breakdown_bytes"].values()) == r["peak_bytes_per_gpu"]


def test_every_code_the_estimator_gives_is_in_its_list(results):
    names = {x.name for x in vocab.REMEDIES}
    seen = {"notes": set(), "time_error": set(), "verdict": set(), "remedy": set()}
    for r in results:
        seen["notes"] |= set(r["notes"])
        seen["time_error"] |= {r["time_error"]} if "time_error" in r else set()
        seen["verdict"] |= {r["gpu"]["verdict"]} | {st["verdict"] for row in r["gpu_table"] for st in row["setups"]}
        for x in r["remedies"]:
            seen["remedy"].add(x["remedy"])
            amount = vocab.remedy(x["remedy"]).amount
            assert amount is None or amount in x["changes"], x
    assert seen["notes"] <= set(vocab.NOTES) and seen["notes"]
    assert seen["time_error"] <= set(vocab.TIME_ERRORS) and seen["time_error"]
    assert seen["verdict"] == set(vocab.VERDICTS)
    assert seen["remedy"] <= names and {"sharding", "shorter_sequences"} <= seen["remedy"]


def test_the_remedies_are_listed_in_the_order_they_are_offered(results):
    """The chain by what each step saves alone (issue 42, point 5), then the alternatives in the vocabulary's order."""
    order = [x.name for x in vocab.REMEDIES]
    for r in results:
        chain = [x for x in r["remedies"] if x["peak_bytes_cumulative"] is not None]
        assert [x["peak_bytes_alone"] for x in chain] == sorted(x["peak_bytes_alone"] for x in chain)
        rest = [x["remedy"] for x in r["remedies"][len(chain):]]
        assert rest == sorted(rest, key=order.index) and all(x["peak_bytes_cumulative"] is None
                                                             for x in r["remedies"][len(chain):])


def test_every_entry_needs_its_strings():
    wanted = set(required_calc_strings())
    assert {f"components.{c}" for c in vocab.COMPONENTS} <= wanted
    assert {f"remedies.{r.name}" for r in vocab.REMEDIES} <= wanted
    assert {f"units.{r.noun}.other" for r in vocab.REMEDIES if r.noun} <= wanted
    assert {f"notes.{n}" for n in vocab.NOTES} <= wanted
    assert {f"out.time_error.{e}" for e in vocab.TIME_ERRORS} <= wanted
    assert {f"verdict.{v}" for v in vocab.VERDICTS} <= wanted
    assert {f"status.{s}" for s in vocab.STAGES} <= wanted
    assert {f"{t}.{p}" for p in vocab.PHASES for t in ("phases", "phase_at")} <= wanted


def test_the_phases_are_the_estimators_in_the_order_of_a_step(results):
    from calculator.models import Phase
    assert vocab.PHASES == tuple(p.value for p in Phase)
    for r in results:
        assert r["phase"] in vocab.PHASES
        assert set(r["phases_allocated_bytes"]) <= set(vocab.PHASES) and r["phase"] in r["phases_allocated_bytes"]


def test_calc_css_colours_every_component_and_styles_every_verdict():
    assert missing_styles() == []
    # the check reads the rules themselves: a component without its colour is named
    css = ".calc-c--weights { --calc-c: #4263eb; }\n.calc-verdict--tight { color: red; }"
    missing = missing_styles(css)
    assert ".calc-c--weights" not in missing and ".calc-c--gradients" in missing
    assert ".calc-verdict--tight" not in missing and ".calc-col--tight" in missing


def test_the_page_protocol_has_the_stages_of_the_vocabulary():
    assert protocol_stages() == vocab.STAGES
    assert protocol_stages('export const STATUS = Object.freeze({\n  IDLE: "idle", // x\n  READY: "ready",\n});') \
        == ("idle", "ready")
