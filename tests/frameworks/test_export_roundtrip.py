"""The estimate stated beside an export is the estimate of its files read back through the project's own reader
(``answer_read``), for random requests drawn from the whole input table (tests/strategies.py ``requests``): through
``answer_export`` (the page's worker and any caller), the CLI's ``export_answer`` (its header's estimate) and the
Run-it tab's ``target_exports`` (what ``Page.run`` renders for every target, in both languages).
Unsloth's two files (the script, and ``unsloth train``'s YAML when the setup fits it) are read together and each alone.
Issue 38 point 2; reviews/reliability.md R4. Slow (hundreds of exports and readings): the frameworks tier."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculator import api
from calculator.__main__ import english, export_answer
from calculator.export import TARGETS, answer_export, answer_read
from calculator.page.run import target_exports
from calculator.page.text import STRING_TABLES, Strings, fmt_bytes
from strategies import requests

pytestmark = pytest.mark.frameworks

#: Keys narrowed to what a run is (a million-token sequence draws the same code paths, far slower).
NARROW = {"seq_len": st.integers(1, 16_384), "micro_batch_size": st.integers(1, 32), "num_gpus": st.integers(1, 16)}


def _peak(request: dict[str, Any]) -> int:
    answer = api.answer({**request, "include": []})
    assert answer["ok"], answer
    return answer["result"]["peak_bytes_per_gpu"]


def _readings(target: str, files: dict[str, str]) -> list[dict[str, str]]:
    """The files read together, and for Unsloth each alone too (the script, or ``unsloth train``'s YAML). The
    measuring script and TRL GRPO's fixed placeholder reward are no configs."""
    files = {n: t for n, t in files.items() if n not in ("measure.py", "reward.py")}
    if target == "unsloth" and len(files) > 1:
        return [files] + [{n: t} for n, t in files.items()]
    return [files]


def _check(target: str, export: dict[str, Any], request: dict[str, Any]) -> None:
    stated = _peak(export["request"])
    for files in _readings(target, export["files"]):
        back = answer_read({"target": target, "files": files})
        assert back["ok"], (sorted(files), back["errors"])
        read = dict(back["read"]["request"])
        for key in ("gpu", "cuda_context_bytes", "gpus_per_node", "internode_gb_s", "grpo_prompt_len"):
            if key in export["request"]:
                read[key] = export["request"][key]
        read.setdefault("model", request["model"])
        assert _peak(read) == stated, (sorted(files), {k: (export["request"].get(k), v) for k, v in read.items()
                                                       if export["request"].get(k) != v})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(requests(narrow=NARROW), st.sampled_from(TARGETS))
def test_answer_export_states_the_estimate_of_its_files(request: dict[str, Any], target: str) -> None:
    out = answer_export({"request": request, "target": target})
    if out["ok"]:
        _check(target, out["export"], request)
    else:       # a request the estimator refuses (the exporter refuses it too), with an error code
        assert out["error"]["code"] in api.ERROR_CODES


_EN: list = []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(requests(narrow=NARROW), st.sampled_from(TARGETS))
def test_the_cli_export_states_the_estimate_of_its_files(request: dict[str, Any], target: str) -> None:
    _EN or _EN.append(english())
    out = export_answer(target, request, _EN[0])
    if not out["ok"]:
        return
    _check(target, out["export"], request)
    header = next(t for n, t in out["export"]["files"].items() if n != "measure.py")
    assert fmt_bytes(_peak(out["export"]["request"]))[0] in header.splitlines()[1]    # the header's estimate


_STRINGS: dict[str, Strings] = {}


def _strings(lang: str) -> Strings:
    if lang not in _STRINGS:
        path = STRING_TABLES / f"{lang}.json"
        _STRINGS[lang] = Strings(json.loads(path.read_text(encoding="utf-8"))["calc"], lang)
    return _STRINGS[lang]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(requests(narrow=NARROW), st.sampled_from(("en", "ar")))
def test_the_run_tab_states_the_estimate_of_its_files(request: dict[str, Any], lang: str) -> None:
    for target, e, reached, refusal in target_exports(_strings(lang), request):
        if e is None:
            assert refusal is not None
            continue
        assert reached is not None and reached["peak_bytes_per_gpu"] == _peak(e.request)
        _check(target, e.as_json(), request)
