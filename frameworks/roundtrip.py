"""Counts of the round trip the frameworks tier holds (tests/frameworks/test_export_roundtrip.py): random requests
drawn from the input table (tests/strategies.py ``requests``), each exported to a random target with
``answer_export`` and its files read back with ``answer_read``; per target, how many were refused (with the
refusal's code and field), could not be read back, or read back with the same / another peak per GPU.

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


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    c = counts(n)
    print(f"{sum(c.values())} exports of random requests")
    for (target, outcome), k in sorted(c.items()):
        print(f"{target:13} {outcome:45} {k}")
