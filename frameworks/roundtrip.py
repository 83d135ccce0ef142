"""Counts of the round trip the frameworks tier holds (tests/frameworks/test_export_roundtrip.py): random requests
drawn from the input table (tests/strategies.py ``requests``), each exported to a random target with
``answer_export`` and its files read back with ``answer_read``; per target, how many were refused (with the
refusal's code and field), could not be read back, or read back with the same / another peak per GPU. Then the
review's cases (reviews/export.md defect 2, reliability.md R4): the peak stated beside the export, the peak of its
files read back, and the keys the export lists as what the files run instead.

    python -m frameworks.roundtrip [EXAMPLES]       # default 600
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import api
from calculator.export import TARGETS, answer_export, answer_read

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from strategies import requests  # noqa: E402

NARROW = {"seq_len": st.integers(1, 16_384), "micro_batch_size": st.integers(1, 32), "num_gpus": st.integers(1, 16)}


def _peak(request: dict) -> int | None:
    answer = api.answer({**request, "include": []})
    return answer["result"]["peak_bytes_per_gpu"] if answer["ok"] else None


def counts(examples: int) -> Counter:
    out: Counter = Counter()

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(requests(narrow=NARROW), st.sampled_from(TARGETS))
    def one(request: dict, target: str) -> None:
        got = answer_export({"request": request, "target": target})
        if not got["ok"]:
            out[(target, f"refused {got['error']['code']} ({got['error']['field']})")] += 1
            return
        e = got["export"]
        files = {n: t for n, t in e["files"].items() if n != "measure.py"}
        back = answer_read({"target": target, "files": files})
        if not back["ok"]:
            out[(target, f"not read back {back['error']['code']} ({back['error']['field']})")] += 1
            return
        read = dict(back["read"]["request"])
        for key in ("gpu", "cuda_context_bytes", "gpus_per_node", "internode_gb_s"):
            if key in e["request"]:
                read[key] = e["request"][key]
        read.setdefault("model", request["model"])
        out[(target, "same peak" if _peak(read) == _peak(e["request"]) else "another peak")] += 1

    one()
    return out


#: (target, request): the review's keys the exporters neither wrote nor listed, and Unsloth's kept TRL regime.
CASES = (
    ("trl", {"model": "llama-3.1-8b", "method": "full", "num_gpus": 2, "sharding": "zero2", "deepspeed": True,
             "deepspeed_bf16_master_weights": True, "deepspeed_bf16_optimizer_states": True, "gpu": "h100-80gb"}),
    ("trl", {"model": "mistral-7b-v0.1", "num_gpus": 8, "ddp_gradient_as_bucket_view": True}),
    ("trl", {"model": "llama-3.1-8b", "method": "full", "precision": "mixed", "half_dtype": "fp16",
             "gpu": "a100-80gb", "num_gpus": 2, "ddp_gradient_as_bucket_view": True}),
    ("unsloth", {"model": "mixtral-8x7b", "method": "qlora", "framework": "trl", "gpu": "h100-80gb"}),
    ("unsloth", {"model": "qwen3-30b-a3b", "method": "qlora", "framework": "trl", "gpu": "h100-80gb"}),
)


def _gb(request: dict) -> str:
    answer = api.answer({**request, "include": []})
    return f"{answer['result']['peak_gb']} GB" if answer["ok"] else answer["error"]["code"]


def cases() -> list[str]:
    lines = []
    for target, request in CASES:
        got = answer_export({"request": request, "target": target})
        if not got["ok"]:
            lines.append(f"{target} {request['model']}: refused {got['error']}")
            continue
        e = got["export"]
        files = {n: t for n, t in e["files"].items() if n != "measure.py"}
        back = answer_read({"target": target, "files": files})
        read = "not read back"
        if back["ok"]:
            req = dict(back["read"]["request"], gpu=request.get("gpu"))
            req.setdefault("model", request["model"])
            read = _gb(req)
        lines.append(f"{target:8} {request['model']:16} stated {_gb(e['request'])}, its files read back {read}; "
                     f"listed: {', '.join(c['key'] for c in e['cannot_express'])}")
    return lines


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    c = counts(n)
    print(f"{sum(c.values())} exports of random requests")
    for (target, outcome), k in sorted(c.items()):
        print(f"{target:13} {outcome:45} {k}")
    print("\n".join(cases()))
