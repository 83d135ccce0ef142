"""calculator.widgets: reading what readers type, planning the estimates, the words of every error, and markup that
carries the estimator's own numbers (checked here against calculator.api, not against a copy of the formatting)."""
from __future__ import annotations

import json
import re

import pytest

from calculator import api
from calculator import widgets as W
from calculator.catalog import MODELS
from calculator.display import Strings
from calculator.inputs import INPUTS
from sitebuild.strings import LANGUAGES, calc_strings, required_calc_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit
S = OnFirstUse(LANGUAGES, lambda lang: Strings(calc_strings(lang), lang))   # read by the tests, not at import


@pytest.mark.parametrize("typed,value", [
    ("4096", 4096), ("٤٠٩٦", 4096), ("۴۰۹۶", 4096), ("4,096", 4096), ("4٬096", 4096), (" 4 096 ", 4096),
    ("0٫05", 0.05), ("1e3", 1000.0), ("9" * 400, int("9" * 400)), ("-3", -3),
    ("abc", "abc"), ("", ""), ("4096 tokens", "4096 tokens"),
])
def test_numbers_people_type(typed, value):
    assert W.parse_number(typed) == value


def test_a_400_digit_number_is_out_of_range_not_an_error_of_its_own():
    state, errors = W.read_form("estimator", {"seq_len": "9" * 400})
    assert not errors
    _fragment, _results, errors = W.render_results(S["en"], "estimator", state)
    assert [(e.code, e.field) for e in errors] == [("out_of_range", "seq_len")]


@pytest.mark.parametrize("text,code,quiet", [
    ("", "missing_field", True), ("   ", "missing_field", True),          # nothing typed yet: no message
    ("[1,2,3]", "not_an_object", False), ("42", "not_an_object", False), ("null", "not_an_object", False),
    ('{"hidden_size": ', "invalid_json", False), ('{"a": NaN}', "invalid_json", False),
    ("[" * 100_000, "too_large", False),
])
def test_pasted_configs(text, code, quiet):
    _state, errors = W.read_form("estimator", {"model": {"source": "paste", "value": text}})
    assert [(e.field, e.code, e.quiet) for e in errors] == [("model", code, quiet)]


def test_an_empty_custom_field_is_a_field_the_config_does_not_set():
    values = W.custom_values(api.estimate_obj({"model": "mixtral-8x7b"})["result"]["model"])
    assert values["num_local_experts"] == "8" and values["head_dim"] == ""
    state, errors = W.read_form("estimator", {"model": {"source": "custom", "value": values}})
    assert not errors and "head_dim" not in state["model"]
    custom = api.estimate_obj({"model": state["model"]})["result"]
    preset = api.estimate_obj({"model": "mixtral-8x7b"})["result"]
    assert custom["peak_bytes_per_gpu"] == preset["peak_bytes_per_gpu"]


def test_requests_each_kind_needs():
    state = W.state_for("compare", {})
    assert [(r["method"], r["dpo"]) for r in W.requests_for("compare", state)] == list(W.COMPARE_VARIANTS)
    fits = W.requests_for("fits", W.state_for("fits", {}))
    assert len(fits) == len(MODELS) * len(W.FITS_METHODS)
    seqlen = W.requests_for("seqlen", W.state_for("seqlen", {}))
    assert seqlen[0]["include"] == ["inverse"] and [r["seq_len"] for r in seqlen[1:]] == list(W.SEQLEN_POINTS)
    # Keys fixed by the article go into every request; the reader's state goes on top.
    reqs = W.requests_for("compare", W.state_for("compare", {}), {"precision": "mixed", "seq_len": 64})
    assert all(r["precision"] == "mixed" and r["seq_len"] == 2048 for r in reqs)


def test_article_assumptions_set_the_widget_defaults_and_fix_the_rest():
    article = {"seq_len": 4096, "precision": "mixed", "optimizer": "adamw_torch_fused"}
    assert W.state_for("compare", {"model": "llama-2-7b"}, article)["seq_len"] == 4096
    assert W.fixed_for("compare", {"model": "llama-2-7b"}, article) == {"precision": "mixed",
                                                                          "optimizer": "adamw_torch_fused"}
    assert W.fixed_for("estimator", {}, article) == {}       # the estimator edits all three itself


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_required_string_exists(lang):
    missing = [p for p in required_calc_strings() if not S[lang].has(p)]
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(W.KINDS))
def test_every_kind_renders_in_both_languages_with_the_estimators_numbers(lang, kind):
    state = W.state_for(kind, {})
    html = W.render_widget(S[lang], kind, f"calc-{kind}-1", state, {}, first=True)
    text = re.sub(r'(data-calc-(defaults|fixed)|placeholder)="[^"]*"', "", html)
    assert not re.search(r"\{[a-z_]+\}", text)                                   # no unfilled {placeholder}
    peaks = [int(v) for v in re.findall(r'data-calc-output="peak_bytes_per_gpu" data-value="(\d+)"', html)]
    results = [api.estimate_obj(r)["result"] for r in W.requests_for(kind, state)]
    if kind == "seqlen":
        results = results[1:]
    assert peaks == [r["peak_bytes_per_gpu"] for r in results]


@pytest.mark.parametrize("spec", [s for s in INPUTS if s.control == "select" and s.kind == "enum"],
                         ids=lambda s: s.name)
def test_every_option_of_every_select_renders(spec):
    for value in spec.choices:
        if value in dict(spec.aliases):
            continue
        state = W.state_for("estimator", {spec.name: value,
                                          **({"num_gpus": 2} if spec.name == "sharding" and value != "none" else {})})
        fragment, _results, errors = W.render_results(S["ar"], "estimator", state)
        assert not errors, (spec.name, value, errors)
        assert fragment


def test_messages_are_per_type_and_say_the_range():
    s = S["en"]
    assert str(W.message_for(s, "wrong_type", "seq_len")) == s.get("errors.wrong_type.int")
    assert str(W.message_for(s, "wrong_type", "dpo")) == s.get("errors.wrong_type.bool")
    assert str(W.message_for(s, "wrong_type", "lora_targets")) == s.get("errors.wrong_type.modules")
    assert str(W.message_for(s, "wrong_type", "model")) == s.get("errors.wrong_type.model")
    assert "hidden_size" in W.message_for(s, "wrong_type", "model.hidden_size")
    rng = W.plain_text(W.message_for(s, "out_of_range", "seq_len"))
    assert "1" in rng and "4,194,304" in rng
    assert str(W.message_for(s, "contradiction", "sharding")) == s.get("errors.by_field.sharding")
    assert str(W.message_for(s, "unknown_gpu", "gpu")) == s.get("errors.unknown_gpu")


def test_the_page_entry_point_answers_json_and_never_raises():
    page = W.Page(json.dumps(calc_strings("en")), "en")
    ok = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {"seq_len": "٤٠٩٦"}, "fixed": {}})))
    assert ok["ok"] and ok["state"]["seq_len"] == 4096 and "summary" in ok["slots"]
    bad = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {"seq_len": "x"}, "fixed": {}})))
    assert bad == {"ok": False, "errors": [{"field": "seq_len", "code": "wrong_type", "quiet": False,
                                            "message": S["en"].get("errors.wrong_type.int")}]}
    broken = json.loads(page.render("{not json"))
    assert broken["errors"][0]["code"] == "internal_error" and broken["errors"][0]["message"]
