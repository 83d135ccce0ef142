"""calculator.page: reading what readers type, planning the estimates, the words of every error, and markup that
carries the estimator's own numbers (checked here against calculator.api, not against a copy of the formatting)."""
from __future__ import annotations

import json
import re

import pytest

from calculator import api
from calculator.catalog import MODELS
from calculator.inputs import INCLUDE, INPUTS
from calculator.page import WIDGET_KINDS, Page, render_results, render_widget
from calculator.page.form import custom_values, read_form
from calculator.page.kinds.compare import COMPARE_VARIANTS
from calculator.page.kinds.fits import FITS_METHODS
from calculator.page.kinds.seqlen import SEQLEN_POINTS
from calculator.page.messages import message_for
from calculator.page.text import Strings, plain_text
from calculator.values import parse_number
from sitebuild.strings import LANGUAGES, calc_strings, required_calc_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit


def read_kind_form(kind, raw):
    return read_form(WIDGET_KINDS[kind].fields, WIDGET_KINDS[kind].defaults, raw)


S = OnFirstUse(LANGUAGES, lambda lang: Strings(calc_strings(lang), lang))   # read by the tests, not at import


@pytest.mark.parametrize("typed,value", [
    ("4096", 4096), ("٤٠٩٦", 4096), ("۴۰۹۶", 4096), ("4,096", 4096), ("4٬096", 4096), (" 4 096 ", 4096),
    ("0٫05", 0.05), ("1e3", 1000.0), ("9" * 40, int("9" * 40)), ("9" * 41, 10**40), ("9" * 4301, 10**40),
    ("-" + "9" * 5000, -10**40), ("٩" * 4301, 10**40), ("-3", -3),
    # the direction marks a number carries when copied from Arabic text (LRM, RLM, ALM) are not part of it (R12)
    ("\u200f4096", 4096), ("٤٠٩٦\u200e", 4096), ("\u061c٤٬٠٩٦\u200f", 4096), ("\u200f1,5\u200f", 1.5),
    ("abc", "abc"), ("", ""), ("4096 tokens", "4096 tokens"),
], ids=lambda v: repr(v) if len(str(v)) < 30 else f"{len(str(v))}-chars")
def test_numbers_people_type(typed, value):
    assert parse_number(typed) == value


@pytest.mark.parametrize("typed,value", [
    # a comma followed by exactly three digits groups thousands; any other comma is the decimal mark (issue 24)
    ("1,5", 1.5), ("0,75", 0.75), ("1,50", 1.5), ("2,0", 2.0), (",5", 0.5), ("1,2345", 1.2345),
    ("20,000,000", 20_000_000), ("1,234.5", 1234.5), ("1,234,5", 1234.5), ("1,5e3", 1500.0),
    # a lone leading 0 is never a group of thousands: its comma is the decimal mark (R12)
    ("0,125", 0.125), ("0,750", 0.75), ("-0,125", -0.125), ("٠,١٢٥", 0.125), ("10,125", 10125),
    ("١٫٥", 1.5), ("١,٥", 1.5), ("١٬٠٠٠٫٥", 1000.5), ("1،5", 1.5), ("4،096", 4096),
    # separators that cannot be one number are refused as typed (the estimator then says wrong_type)
    ("1.234,5", "1.234,5"), ("1,23,456", "1,23,456"), ("1,5,5", "1,5,5"), ("1.5.5", "1.5.5"), ("1,5.5", "1,5.5"),
])
def test_a_decimal_comma_is_a_decimal_mark_and_a_comma_before_three_digits_groups(typed, value):
    assert parse_number(typed) == value
    assert type(parse_number(typed)) is type(value)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key,typed,value", [("epochs", "1,5", 1.5), ("gpu_hour_price", "1,5", 1.5),
                                             ("epochs", "٠٫٥", 0.5), ("dataset_tokens", "20,000,000", 20_000_000),
                                             ("gpu_hour_price", "0,125", 0.125), ("epochs", "0,750", 0.75),
                                             ("dataset_tokens", "\u200f٢٠٠٠٠٠٠٠", 20_000_000)])
def test_the_form_reads_a_decimal_comma_in_both_languages(lang, key, typed, value):
    state, errors = read_kind_form("estimator", {"dataset_tokens": "1000000", key: typed})
    assert not errors and state[key] == value
    _fragment, results, errors = render_results(S[lang], "estimator", state)
    assert not errors and results[0]["inputs"][key] == value


def test_a_400_digit_number_is_out_of_range_not_an_error_of_its_own():
    state, errors = read_kind_form("estimator", {"seq_len": "9" * 400})
    assert not errors
    _fragment, _results, errors = render_results(S["en"], "estimator", state)
    assert [(e.code, e.field) for e in errors] == [("out_of_range", "seq_len")]


@pytest.mark.parametrize("text,code,quiet", [
    ("", "missing_field", True), ("   ", "missing_field", True),          # nothing typed yet: no message
    ("[1,2,3]", "not_an_object", False), ("42", "not_an_object", False), ("null", "not_an_object", False),
    ('{"hidden_size": ', "invalid_json", False), ('{"a": NaN}', "invalid_json", False),
    ("[" * 100_000, "too_large", False),
])
def test_pasted_configs(text, code, quiet):
    _state, errors = read_kind_form("estimator", {"model": {"source": "paste", "value": text}})
    assert [(e.field, e.code, e.quiet) for e in errors] == [("model", code, quiet)]


def test_an_empty_custom_field_is_a_field_the_config_does_not_set():
    values = custom_values(api.answer({"model": "mixtral-8x7b"})["result"]["model"])
    assert values["num_local_experts"] == "8" and values["head_dim"] == "" and values["hidden_size"] == "4096"
    state, errors = read_kind_form("estimator", {"model": {"source": "custom", "value": values}})
    assert not errors and state["model"]["head_dim"] is None        # a field that may be null is null (its fallback)
    blank, _ = read_kind_form("estimator", {"model": {"source": "custom",
                                                      "value": {**values, "num_key_value_heads": "  "}}})
    assert "num_key_value_heads" not in blank["model"]              # any other is left to the config's default
    custom = api.answer({"model": state["model"]})["result"]
    preset = api.answer({"model": "mixtral-8x7b"})["result"]
    assert custom["peak_bytes_per_gpu"] == preset["peak_bytes_per_gpu"]


@pytest.mark.parametrize("name", [f.name for f in api.MODEL_FIELDS if f.field_kind.number])
@pytest.mark.parametrize("typed, code", [("abc", "wrong_type"), ("1.5", "wrong_type"), ("-3", "out_of_range"),
                                         ("1" + "0" * 14, "out_of_range")])
def test_a_custom_number_field_refuses_what_is_no_count_even_where_the_model_does_not_read_it(name, typed, code):
    """A dense model's expert width, or an MLA rank of a model without MLA, is not read by the estimator: "abc" there
    was only listed among the ignored fields. The form refuses it at the field, as it does in a field that is read."""
    values = custom_values(api.answer({"model": "llama-3.1-8b"})["result"]["model"])
    _state, errors = read_kind_form("estimator", {"model": {"source": "custom", "value": {**values, name: typed}}})
    assert [(e.field, e.code) for e in errors] == [(f"model.{name}", code)]


@pytest.mark.parametrize("model_id", sorted(MODELS))
def test_every_catalogue_model_switched_to_custom_is_the_same_model(model_id):
    """The form fills the custom fields from the preset (custom_values) and reads them back (read_form): the same
    parameters and peak, for every model (DeepSeek-V2-Lite's empty q_lora_rank was left out, and its class default
    of 1536 added 42.5 M parameters)."""
    preset = api.answer({"model": model_id, "method": "qlora"})["result"]
    raw = {"model": {"source": "custom", "value": custom_values(preset["model"])}, "method": "qlora"}
    state, errors = read_kind_form("estimator", raw)
    assert not errors
    custom = api.answer({"model": state["model"], "method": "qlora"})["result"]
    assert (custom["params"], custom["peak_bytes_per_gpu"]) == (preset["params"], preset["peak_bytes_per_gpu"])


def test_requests_each_kind_needs():
    state = WIDGET_KINDS["compare"].state({})
    assert [(r["method"], r["dpo"]) for r in WIDGET_KINDS["compare"].requests_for(state)] == list(COMPARE_VARIANTS)
    fits = WIDGET_KINDS["fits"].requests_for(WIDGET_KINDS["fits"].state({}))
    assert len(fits) == len(MODELS) * len(FITS_METHODS)
    seqlen = WIDGET_KINDS["seqlen"].requests_for(WIDGET_KINDS["seqlen"].state({}))
    assert seqlen[0]["include"] == ["inverse"] and [r["seq_len"] for r in seqlen[1:]] == list(SEQLEN_POINTS)
    # Keys fixed by the article go into every request; the reader's state goes on top.
    reqs = WIDGET_KINDS["compare"].requests_for(WIDGET_KINDS["compare"].state({}), {"precision": "mixed", "seq_len": 64})
    assert all(r["precision"] == "mixed" and r["seq_len"] == 2048 for r in reqs)


def test_article_assumptions_set_the_widget_defaults_and_fix_the_rest():
    article = {"seq_len": 4096, "precision": "mixed", "optimizer": "adamw_torch_fused"}
    assert WIDGET_KINDS["compare"].state({"model": "llama-2-7b"}, article)["seq_len"] == 4096
    assert WIDGET_KINDS["compare"].fixed({"model": "llama-2-7b"}, article) == {"precision": "mixed",
                                                                          "optimizer": "adamw_torch_fused"}
    assert WIDGET_KINDS["estimator"].fixed({}, article) == {}       # the estimator edits all three itself


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_required_string_exists(lang):
    missing = [p for p in required_calc_strings() if not S[lang].has(p)]
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(WIDGET_KINDS))
def test_every_kind_renders_in_both_languages_with_the_estimators_numbers(lang, kind):
    state = WIDGET_KINDS[kind].state({})
    html = render_widget(S[lang], kind, f"calc-{kind}-1", state, {})
    text = re.sub(r'(data-calc-(defaults|fixed)|placeholder)="[^"]*"', "", html)
    assert not re.search(r"\{[a-z_]+\}", text)                                   # no unfilled {placeholder}
    peaks = [int(v) for v in re.findall(r'data-calc-output="peak_bytes_per_gpu" data-value="(\d+)"', html)]
    results = WIDGET_KINDS[kind].combine([api.answer(r)["result"] for r in WIDGET_KINDS[kind].requests_for(state)])
    if kind == "seqlen":
        results = results[1:]
    assert peaks == [r["peak_bytes_per_gpu"] for r in results]


@pytest.mark.parametrize("spec", [s for s in INPUTS if s.control == "select" and s.kind == "enum"],
                         ids=lambda s: s.name)
def test_every_option_of_every_select_renders(spec):
    for value in spec.choices:
        if value in dict(spec.aliases):
            continue
        state = WIDGET_KINDS["estimator"].state({spec.name: value,
                                          **({"num_gpus": 2} if spec.name == "sharding" and value != "none" else {})})
        fragment, _results, errors = render_results(S["ar"], "estimator", state)
        assert not errors, (spec.name, value, errors)
        assert fragment


def test_messages_are_per_type_and_say_the_range():
    s = S["en"]
    assert str(message_for(s, "wrong_type", "seq_len")) == s.get("errors.wrong_type.int")
    assert str(message_for(s, "wrong_type", "dpo")) == s.get("errors.wrong_type.bool")
    assert str(message_for(s, "wrong_type", "lora_targets")) == s.get("errors.wrong_type.modules")
    assert str(message_for(s, "wrong_type", "model")) == s.get("errors.wrong_type.model")
    assert "hidden_size" in message_for(s, "wrong_type", "model.hidden_size")
    rng = plain_text(message_for(s, "out_of_range", "seq_len"))
    assert "1" in rng and "4,194,304" in rng
    assert str(message_for(s, "contradiction", "sharding")) == s.get("errors.by_field.sharding")
    assert str(message_for(s, "unknown_gpu", "gpu")) == s.get("errors.unknown_gpu")


def test_the_page_entry_point_answers_json_and_never_raises():
    page = Page(json.dumps(calc_strings("en")), "en")
    ok = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {"seq_len": "٤٠٩٦"}, "fixed": {}})))
    assert ok["ok"] and ok["state"]["seq_len"] == 4096 and "summary" in ok["slots"]
    bad = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {"seq_len": "x"}, "fixed": {}})))
    assert bad == {"ok": False, "errors": [{"field": "seq_len", "code": "wrong_type", "quiet": False,
                                            "message": S["en"].get("errors.wrong_type.int"),
                                            "slots": ["seq_len"]}], "read": {}}
    three = json.loads(page.render(json.dumps({"kind": "estimator", "fixed": {},
                                               "raw": {"seq_len": "0", "micro_batch_size": "abc", "lora_rank": "-1"}})))
    assert [(e["field"], e["code"]) for e in three["errors"]] == [
        ("lora_rank", "out_of_range"), ("micro_batch_size", "wrong_type"), ("seq_len", "out_of_range")]
    assert all(e["message"] for e in three["errors"])        # each shown next to its own control
    broken = json.loads(page.render("{not json"))          # not a message the page script writes: still the API's
    assert broken["errors"][0]["code"] == "invalid_json" and broken["errors"][0]["message"]      # own code, in words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seqlen_chart_stacks_each_column_by_component_to_its_peak(lang):
    """Issue 22: each column of the sequence-length chart is the peak cut into its components (weights, states,
    activations, logits…), so the growth with the tokens is seen; the pieces add up to the column, every piece is a
    component the estimator reports for that length, Arabic runs the lengths right to left, and a scale in GB stands
    beside the chart."""
    state = WIDGET_KINDS["seqlen"].state({"model": "llama-3.1-8b", "method": "qlora"})
    fragment, results, errors = render_results(S[lang], "seqlen", state)
    assert not errors
    html = str(fragment)
    rows = results[1:]
    columns = re.findall(r'<g class="calc-col calc-col--[a-z_]+" data-seq-len="(\d+)">(.*?)</g>', html, re.S)
    assert [int(n) for n, _ in columns] == list(SEQLEN_POINTS)
    scale = max(max(r["peak_bytes_per_gpu"] for r in rows), rows[0]["gpu"]["memory_bytes"])
    xs = []
    for (n, body), r in zip(columns, rows):
        parts = re.findall(r'<rect class="calc-c calc-c--([a-z_]+)" x="([\d.]+)" y="[\d.]+" width="\d+" '
                           r'height="([\d.]+)"', body)
        assert {k for k, _x, _h in parts} == {k for k, v in r["breakdown_bytes"].items() if v > 0}, n
        drawn = sum(float(h) for _k, _x, h in parts)
        assert abs(drawn - r["peak_bytes_per_gpu"] / scale * 205) < 0.05 * len(parts), n    # 205: the plot's height
        xs.append(float(parts[0][1]))
    assert xs == sorted(xs, reverse=(lang == "ar"))
    logits = [r["breakdown_bytes"]["logits_loss"] for r in rows]
    assert logits == sorted(logits) and logits[-1] > 10 * logits[0]       # what the 8k paragraph points at
    assert re.search(r'class="calc-yaxis"', html) and re.search(r"\d GB", html)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_time_resting_on_a_datasheet_says_so_where_it_is_shown(lang):
    """The summary's run line, the fastest/cheapest lines and the GPU table's card names carry the datasheet note
    exactly where the answer's ``evidence`` says the card has no measured run; the measured winners sit beside
    datasheet-only ones."""
    s = S[lang]
    state = {"model": "qwen2.5-14b", "method": "full", "gpu": "rtx-4090", "dataset_tokens": 20_000_000}
    html, results, errors = render_results(s, "estimator", read_kind_form("estimator", state)[0])
    assert not errors
    text, r = str(html), results[0]
    note, mark = plain_text(s.get("out.datasheet_only")), plain_text(s.get("out.datasheet_mark"))
    for row in r["gpu_table"]:
        drawn = re.search(rf'<tr data-gpu="{re.escape(row["gpu"])}".*?</tr>', text, re.S).group(0)
        datasheet = any(st.get("evidence", {}).get("basis") == "datasheet" for st in row["setups"])
        assert (mark in drawn) == datasheet, row["gpu"]
    lines = {m.group(1): m.group(0) for m in re.finditer(r'class="calc-elsewhere" data-setup="(\w+)".*?</li>', text,
                                                           re.S)}
    for key in ("fastest", "cheapest"):
        best = r[f"{key}_setup"]
        assert (note in lines[key]) == (best["evidence"]["basis"] == "datasheet"), key
        if best["evidence"]["basis"] == "datasheet":
            measured = plain_text(lines[f"{key}_measured"])
            assert note not in measured and r[f"{key}_measured_setup"]["name"] in measured, key
    # The results' "smallest setup" block says them as the summary does (it had its own copy, without the note).
    block = re.search(r'data-calc-output="smallest_setup".*?</ul>', text, re.S).group(0)
    items = {m.group(1): plain_text(m.group(0)) for m in re.finditer(r'<li[^>]*data-setup="(\w+)".*?</li>', block, re.S)}
    for key in ("fastest", "cheapest"):
        assert (note in items[key]) == (r[f"{key}_setup"]["evidence"]["basis"] == "datasheet"), (key, items)
        if r[f"{key}_setup"]["evidence"]["basis"] == "datasheet":
            assert r[f"{key}_measured_setup"]["name"] in items[f"{key}_measured"], items
    page = Page(json.dumps(calc_strings(lang)), lang)
    run_line = {}
    for gpu in ("rtx-4090", "mi300x"):
        raw = {"model": "llama-3.1-8b", "method": "qlora", "gpu": gpu, "dataset_tokens": "20000000"}
        out = json.loads(page.render(json.dumps({"kind": "estimator", "raw": raw, "fixed": {}})))
        drawn = out["html"] + "".join((out.get("slots") or {}).values())
        run_line[gpu] = plain_text(re.search(r'class="calc-peak__run".*?</p>', drawn, re.S).group(0))
    assert note not in run_line["rtx-4090"] and note in run_line["mi300x"]


@pytest.mark.parametrize("model", ["llama-3.2-1b", "qwen3-8b", "mixtral-8x7b", "llama-3.1-70b", "deepseek-v3"])
@pytest.mark.parametrize("change", [{}, {"method": "full"}, {"method": "lora", "gpu": "a100-80gb"},
                                    {"gpu": "t4", "dataset_tokens": 20_000_000}, {"num_gpus": 4, "sharding": "fsdp"},
                                    {"seq_len": 65536, "gpu": "h100-80gb"}, {"gpu": "no-such-card"}])
def test_the_estimators_answer_asked_in_parts_is_the_answer_asked_whole(model, change):
    """The estimator widget asks its answer in parts (estimator.PARTS, one Python call each in the worker) and joins
    them (its ``combine``): the joined answer is the API's answer to the one request with every part, key for key,
    refusals included."""
    kind = WIDGET_KINDS["estimator"]
    parts = kind.requests_for(kind.state({}))
    assert {json.dumps({**r, "include": None}, sort_keys=True) for r in parts} == \
        {json.dumps({**parts[0], "include": None}, sort_keys=True)}                # the parts differ in include alone
    whole = {k: v for k, v in parts[0].items() if k != "include"} | {"model": model, **change}
    answers = [api.answer(r) for r in kind.requests(whole)]
    assert len(answers) == 3 and sorted(k for r in kind.requests(whole) for k in r["include"]) == sorted(INCLUDE)
    expected = api.answer(whole)
    if not expected["ok"]:
        assert all(a == expected for a in answers)
        return
    assert kind.combine([a["result"] for a in answers]) == [expected["result"]]


def _article_widgets():
    import yaml

    from sitebuild.markers import find, front_matter
    root = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "articles"
    for path in sorted(root.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        article = front_matter(yaml.safe_load(text.split("---", 2)[1]), path.name)
        for _match, marker in find(text, path.name):
            if marker.kind in WIDGET_KINDS:
                yield pytest.param(article, marker, id=f"{path.name}:{marker.kind}")


@pytest.mark.parametrize("article, marker", list(_article_widgets()))
def test_an_articles_widget_starts_from_the_articles_assumptions_as_its_figures_do(article, marker):
    """content audit of issue 22: the VRAM guide's estimator started from the form's TRL defaults (fused loss, fp32
    load), which the article's stated assumptions do not include, so its longest sequence read 63,106 tokens where
    the article's own figures, computed with its assumptions, give 17,272. Every widget in an article starts from the
    article's assumptions over the estimator's own defaults, exactly as the article's inline figures are asked."""
    kind = WIDGET_KINDS[marker.kind]
    state = kind.state(marker.attrs, article)
    asked = kind.requests_for(state, kind.fixed(marker.attrs, article))[0]
    plain = {**article, **marker.attrs, "include": asked.get("include", [])}
    for key in kind.varies:
        plain[key] = asked[key]
    got, want = api.answer(asked)["result"]["inputs"], api.answer(plain)["result"]["inputs"]
    assert got == want, {k: (got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_several_cards_without_sharding_are_said_at_the_result_and_the_table_keeps_its_captions_rule(lang):
    """Issue 42, H1: at 8 cards with sharding left at none the strip says each card holds a full copy (DDP) and gives
    ZeRO-3's figure on the same cards; the GPU table's 8-card column is that ZeRO-3 figure (its caption's rule, not
    the reader's DDP peak) and the caption says the reader's own setup differs. One card: neither."""
    s = S[lang]
    page = Page(json.dumps(calc_strings(lang)), lang)

    def drawn(raw):
        out = json.loads(page.render(json.dumps({"kind": "estimator", "raw": raw, "fixed": {}})))
        return out["html"] + "".join((out.get("slots") or {}).values())

    raw = {"model": "llama-3.1-8b", "method": "full", "gpu": "h100-80gb", "num_gpus": "8"}
    asked = WIDGET_KINDS["estimator"].requests_for(read_kind_form("estimator", raw)[0])[0]
    r = api.answer({**asked, "include": []})["result"]
    zero3 = api.answer({**asked, "sharding": "zero3", "include": []})["result"]["peak_bytes_per_gpu"]
    text = drawn(raw)
    note = re.search(r'<p[^>]*data-note="data_parallel"[^>]*>.*?</p>', text, re.S)
    assert note and f'data-value="{zero3}"' in note.group(0) and "DDP" in plain_text(note.group(0))
    head = re.search(r'data-calc-output="gpu_table".*?</thead>', text, re.S).group(0)
    columns = {plain_text(c).split("×")[0].strip(): c for c in re.findall(r'<th scope="col">(.*?)</th>', head, re.S)}
    assert f'data-value="{zero3}"' in columns["8"] and zero3 < r["peak_bytes_per_gpu"]

    def caption(html):
        return plain_text(re.search(r'<figcaption class="calc-table-caption">.*?</figcaption>', html, re.S).group(0))

    yours = plain_text(s.get("out.gpu_table_ddp")).split("{")[0]       # "Your setup (" and its Arabic
    assert plain_text(s.get("out.gpu_table_caption")) in caption(text) and yours in caption(text)
    one = drawn({**raw, "num_gpus": "1"})
    assert 'data-note="data_parallel"' not in one and yours not in caption(one)
