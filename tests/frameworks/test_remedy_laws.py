"""The remedies' law at the API: a request with exactly a remedy's ``changes`` applied is the setup its figure was
estimated for, so re-asking it gives ``peak_bytes_alone``, for every kind of remedy, under every framework (whose
defaults may follow ``method``). Slow (each draw re-asks every remedy): the frameworks tier."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import api
from calculator.catalog import GPUS, MODELS
from calculator.inputs import BY_NAME

pytestmark = pytest.mark.frameworks


@st.composite
def requests(draw) -> dict[str, Any]:
    """A request that often does not fit its card (large batches and sequences), so that remedies are offered."""
    req: dict[str, Any] = {
        "model": draw(st.sampled_from(sorted(MODELS))), "gpu": draw(st.sampled_from(sorted(GPUS))),
        "method": draw(st.sampled_from(BY_NAME["method"].choices)),
        "micro_batch_size": draw(st.sampled_from([1, 2, 3, 8, 90])),
        "seq_len": draw(st.sampled_from([256, 2048, 8192, 65536])),
        "grad_accum_steps": draw(st.sampled_from([1, 1, 4])),
        "num_gpus": draw(st.sampled_from([1, 1, 2, 8])),
    }
    for key in ("optimizer", "framework", "sharding", "precision"):
        if draw(st.booleans()):
            req[key] = draw(st.sampled_from(BY_NAME[key].choices))
    for key in ("gradient_checkpointing", "optimizer_in_backward", "fused_linear_cross_entropy", "dpo"):
        if draw(st.booleans()):
            req[key] = draw(st.booleans())
    for _ in range(len(req)):                 # a key a cross-key rule names goes (its default, or the framework's)
        out = api.answer({**req, "include": []})
        if out["ok"] or out["error"]["code"] != "contradiction" or out["error"]["field"] not in req:
            break
        del req[out["error"]["field"]]
    return req


@given(requests())
def test_a_remedys_changes_are_its_figure(req: dict[str, Any]) -> None:
    out = api.answer({**req, "include": ["remedies"]})
    if not out["ok"]:
        return                                 # a model the card cannot run (unsupported_on_gpu), a LoRA target
    for x in out["result"].get("remedies", []):
        again = api.answer({**req, **x["changes"], "include": []})
        assert again["ok"], (x, again)
        assert again["result"]["peak_bytes_per_gpu"] == x["peak_bytes_alone"], x

    dp = out["result"].get("data_parallel")    # several cards without sharding: the change to ZeRO-3 is its figure
    if dp:
        again = api.answer({**req, **dp["changes"], "include": []})
        assert again["ok"], (dp, again)
        assert again["result"]["peak_bytes_per_gpu"] == dp["sharded_peak_bytes_per_gpu"], dp
