"""The ``framework`` request key (issue 19): the frameworks table (calculator/frameworks.py) fills every key a request
leaves out, an explicit key wins, the answer says what was filled and from which source, and the estimator form
starts from TRL's defaults."""
from __future__ import annotations

import json

import pytest

from calculator import api, frameworks
from calculator.inputs import BY_NAME, DEFAULTS
from calculator.page.kinds import estimator

pytestmark = pytest.mark.unit

QLORA_70B = {"model": "llama-3.1-70b", "method": "qlora", "gpu": "rtx-a6000", "include": []}


def result(req: dict) -> dict:
    out = api.answer(req)
    assert out["ok"], out
    return out["result"]


def test_the_choices_are_the_tables_frameworks() -> None:
    assert BY_NAME["framework"].choices == frameworks.IDS
    assert DEFAULTS["framework"] == "none"
    assert {fw for fw, _v in frameworks.FRAMEWORKS} == set(frameworks.IDS)


def test_none_is_the_estimators_own_defaults() -> None:
    plain = result(QLORA_70B)
    none = result({**QLORA_70B, "framework": "none"})
    assert none["peak_bytes_per_gpu"] == plain["peak_bytes_per_gpu"]
    assert none["framework"] == {"id": "none", "version": "", "defaults": []}


@pytest.mark.parametrize("fw", [f for f in frameworks.IDS if f != "none"])
@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
def test_each_framework_fills_the_keys_the_request_leaves_out(fw: str, method: str) -> None:
    req = {"model": "llama-3.1-8b", "method": method, "include": []}
    r = result({**req, "framework": fw})
    table = frameworks.defaults(fw, request={**frameworks.defaults(fw, request=req), **req})
    echoed = r["inputs"]
    for key, value in table.items():
        if key in frameworks.REGIME_REQUEST:
            key, value = frameworks.REGIME_REQUEST[key][0], frameworks.REGIME_REQUEST[key][1][value]
        if key not in BY_NAME or key == "method" or key not in echoed:
            continue
        if key == "lora_targets":
            assert echoed[key] == list(api.check_value(BY_NAME[key], list(value))), (fw, key)
        elif key == "lora_dtype" and echoed["precision"] == "fp32":
            assert echoed[key] == "fp32"          # adapters follow an fp32 model (api.parse_request)
        else:
            assert echoed[key] == value, (fw, key, echoed[key], value)
    # the answer names each filled key's source in the table
    for d in r["framework"]["defaults"]:
        assert d["source"], (fw, d)
    assert r["framework"]["version"] == frameworks.LATEST[fw]


def test_trl_qlora_is_the_fp32_load_and_fp32_compute_with_uint8_storage() -> None:
    echoed = result({**QLORA_70B, "framework": "trl"})["inputs"]
    assert (echoed["base_fp32"], echoed["qlora_compute_dtype"], echoed["quant_storage"]) == (True, "fp32", "uint8")
    assert echoed["gradient_checkpointing"] is True and echoed["lora_dropout"] == 0.05
    assert result({**QLORA_70B, "framework": "trl", "dpo": True})["inputs"]["lora_dropout"] == 0.0
    axo = result({**QLORA_70B, "framework": "axolotl"})["inputs"]
    assert (axo["base_fp32"], axo["qlora_compute_dtype"], axo["quant_storage"]) == (False, "bf16", "bf16")


def test_an_explicit_key_wins_and_the_echo_gives_the_same_answer() -> None:
    trl = result({**QLORA_70B, "framework": "trl"})
    off = result({**QLORA_70B, "framework": "trl", "gradient_checkpointing": False})
    assert off["inputs"]["gradient_checkpointing"] is False
    assert off["peak_bytes_per_gpu"] > trl["peak_bytes_per_gpu"]
    assert "gradient_checkpointing" not in {d["key"] for d in off["framework"]["defaults"]}
    # feeding the echoed inputs back, framework none, is the same estimate: every filled key is in the echo
    back = result({**{k: v for k, v in trl["inputs"].items()}, "framework": "none", "model": "llama-3.1-70b",
                   "gpu": "rtx-a6000", "include": []})
    assert back["peak_bytes_per_gpu"] == trl["peak_bytes_per_gpu"]


def test_a_framework_the_table_does_not_hold_is_refused() -> None:
    out = api.answer({"model": "llama-3.1-8b", "framework": "deepspeed-chat"})
    assert not out["ok"] and out["error"] == {"code": "unknown_value", "field": "framework"}


def test_the_form_starts_from_the_plain_stack_and_knows_every_frameworks_regime() -> None:
    """One default framework for every widget and article (issue 42, H2): none, the plain stack."""
    d = estimator.KIND.defaults
    assert d["framework"] == estimator.DEFAULT_FRAMEWORK == "none"
    for key in estimator.FRAMEWORK_FORM_KEYS:
        want = DEFAULTS[key] if key != "gradient_checkpointing" else True      # FIRST_SETUP turns it on
        if key == "lora_targets":
            want = list(api.check_value(BY_NAME[key], want))
        assert d[key] == want, key
    assert estimator.framework_form("none", "full")["gradient_checkpointing"] is False
    assert estimator.framework_form("torchtune", "full")["optimizer"] == "paged_adamw_8bit"
    assert estimator.framework_form("torchtune", "lora")["optimizer"] == "adamw_torch_fused"
    assert estimator.framework_form("trl", "qlora")["gradient_checkpointing"] is True
    for fw in frameworks.IDS:
        assert set(estimator.framework_form(fw, "lora")) == set(estimator.FRAMEWORK_FORM_KEYS)


@pytest.mark.parametrize(("change", "rule"), [
    ({"key": "no_such_key"}, "names a request key or a regime key"),
    ({"source": ""}, "says where the framework sets it"),
    ({"when": {"no_such_key": True}}, "its `when` names request keys"),
    ({"key": "optimizer", "value": "no_such_optimizer"}, "an enum's value is one of its choices"),
])
def test_a_wrong_table_entry_fails_with_its_rule_even_under_python_O(monkeypatch, change, rule) -> None:
    """The table checks itself with real checks (TypeError naming the framework, the key and the rule), not
    ``assert``, which ``python -O`` strips."""
    import dataclasses

    (fw_id, version), fw = next((k, f) for k, f in frameworks.FRAMEWORKS.items() if f.defaults)
    wrong = dataclasses.replace(fw.defaults[0], **change)
    monkeypatch.setitem(frameworks.FRAMEWORKS, (fw_id, version),
                        dataclasses.replace(fw, defaults=(wrong, *fw.defaults[1:])))
    with pytest.raises(TypeError, match=f"{fw_id} {version}: {wrong.key}: {rule}"):
        frameworks._check_table()
