"""The smaller things a reader meets (issue 24, the UX review's rows 10 to 18): messages that say what is wrong in the
reader's terms, limits written as people write numbers, the number as read beside a typed field, remedies that
explain a step which raises the peak alone, a page that says nothing contradictory without JavaScript, unique
landmarks, the side-by-side of the methods, and the Arabic the review flagged."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from calculator.page import WIDGET_KINDS, Page, render_results, render_widget
from calculator.page.form import read_form, readings
from calculator.page.kinds.compare import variants
from calculator.page.kinds.estimator import framework_form
from calculator.page.messages import message_for
from calculator.page.text import Strings, counted, plain_text
from sitebuild.strings import LANGUAGES, calc_strings, load_strings
from tests.lazy import OnFirstUse

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
S = OnFirstUse(LANGUAGES, lambda lang: Strings(calc_strings(lang), lang))


def page_answer(lang: str, raw: dict, kind: str = "estimator") -> dict:
    return json.loads(Page(json.dumps(calc_strings(lang)), lang).render(json.dumps({"kind": kind, "raw": raw,
                                                                                     "fixed": {}})))


# ---------------------------------------------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_flag_written_as_a_string_in_a_pasted_config_is_not_asked_to_be_a_whole_number(lang):
    config = {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 8192,
              "tie_word_embeddings": "true"}
    answer = page_answer(lang, {"model": {"source": "paste", "value": json.dumps(config)}})
    assert [(e["field"], e["code"]) for e in answer["errors"]] == [("model.tie_word_embeddings", "wrong_type")]
    message = plain_text(answer["errors"][0]["message"])
    assert S[lang].get("errors.wrong_type.model_bool") in message
    assert S[lang].get("errors.wrong_type.int") not in message


def test_a_custom_model_type_stays_text():
    values = {"hidden_size": "2048", "num_hidden_layers": "16", "num_attention_heads": "32", "vocab_size": "32000",
              "model_type": "0"}
    state, errors = read_form(("model",), {}, {"model": {"source": "custom", "value": values}})
    assert not errors and state["model"]["model_type"] == "0" and state["model"]["hidden_size"] == 2048


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("raw,field,key", [
    ({"method": "lora", "lora_targets": []}, "lora_targets", "errors.by_field.lora_targets"),
    ({"dataset_tokens": "1000000", "dataset_examples": "1000"}, "dataset_examples",
     "errors.by_field.dataset_examples"),
])
def test_conflicts_and_empty_choices_say_what_to_change(lang, raw, field, key):
    answer = page_answer(lang, raw)
    assert [e["field"] for e in answer["errors"]] == [field]
    assert answer["errors"][0]["message"] == S[lang].get(key)
    assert S[lang].get("errors.out_of_range") not in answer["errors"][0]["message"]
    assert S[lang].get("errors.contradiction") not in answer["errors"][0]["message"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_too_large_states_the_limits(lang):
    text = plain_text(message_for(S[lang], "too_large", "model"))
    assert "200,000" in text and "100,000" in text, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ranges_are_written_as_people_write_numbers(lang):
    html = render_widget(S[lang], "estimator", "calc-estimator-1", WIDGET_KINDS["estimator"].state({}), {})
    assert not re.search(r"\de[+-]\d", plain_text(html)), re.findall(r".{40}\de[+-]\d.{10}", plain_text(html))
    assert "4,194,304" in plain_text(message_for(S[lang], "out_of_range", "mean_tokens_per_example"))
    estimator_md = (ROOT / "ESTIMATOR.md").read_text(encoding="utf-8")
    assert "4.1943e+06" not in estimator_md and "1 – 4,194,304 tokens" in estimator_md


# ---------------------------------------------------------------------------------------------------------------
# The number as read
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_typed_number_is_shown_as_read_beside_its_field(lang):
    answer = page_answer(lang, {"epochs": "1,5", "seq_len": "٤٠٩٦", "micro_batch_size": "2", "dataset_tokens": "1000000"})
    assert answer["ok"]
    assert plain_text(answer["read"]["epochs"]) == plain_text(S[lang].get("fields.read_as")).replace("{n}", "1.5")
    assert "4,096" in plain_text(answer["read"]["seq_len"])
    assert "micro_batch_size" not in answer["read"] and "dataset_tokens" not in answer["read"]  # typed plainly
    refused = page_answer(lang, {"seq_len": "1,5"})          # a whole number asked: refused, and shown as read
    assert not refused["ok"] and "1.5" in plain_text(refused["read"]["seq_len"])
    html = render_widget(S[lang], "estimator", "calc-estimator-1", WIDGET_KINDS["estimator"].state({}), {})
    assert 'data-calc-read-for="epochs"' in html and 'data-calc-read-for="seq_len"' in html


def test_custom_fields_are_shown_as_read_too():
    raw = {"model": {"source": "custom", "value": {"hidden_size": "4,096", "model_type": "llama"}}}
    assert set(readings(S["en"], ("model",), raw)) == {"model.hidden_size"}


# ---------------------------------------------------------------------------------------------------------------
# Remedies
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_remedy_that_raises_the_peak_alone_is_marked_and_explained(lang):
    """Llama 3.1 8B full fine-tuning in pure bf16 with no framework at 8,192 tokens without checkpointing: QLoRA alone is above today's peak (its
    adapters' activations), yet on top of the steps above it lowers it: the page says both."""
    # with no framework's defaults (plain PyTorch: pure bf16, unfused loss), where the adapters' activations show
    state = WIDGET_KINDS["estimator"].state({"framework": "none", **framework_form("none", "full"), "method": "full",
                                             "seq_len": 8192, "gradient_checkpointing": False})
    fragment, results, _ = render_results(S[lang], "estimator", state)
    r = results[0]
    qlora = next(x for x in r["remedies"] if x["remedy"] == "qlora")
    assert qlora["peak_bytes_alone"] > r["peak_bytes_per_gpu"]
    assert re.search(r'data-remedy="qlora" data-alternative data-raises', str(fragment)) is None  # not an alternative
    assert re.search(r'data-remedy="qlora" data-raises', str(fragment))
    assert S[lang].get("out.remedy_raises") in plain_text(fragment)
    steps = [x for x in r["remedies"] if x["peak_bytes_cumulative"] is not None]
    before = r["peak_bytes_per_gpu"]
    for x in steps:        # each step says what it saves on top of the ones before it
        assert f'class="calc-remedy__saved" data-value="{before - x["peak_bytes_cumulative"]}"' in str(fragment)
        before = x["peak_bytes_cumulative"]


def test_a_remedy_that_saves_little_says_how_little():
    # under TRL (the 8-bit states are a small part of a 70B QLoRA whose frozen base TRL loads in fp32)
    state = WIDGET_KINDS["estimator"].state({"model": "llama-3.1-70b", "method": "qlora", "seq_len": 4096,
                                             **framework_form("trl", "qlora"), "framework": "trl",
                                             "gradient_checkpointing": True, "gpu": "rtx-a6000"})
    fragment, results, _ = render_results(S["en"], "estimator", state)
    steps = results[0]["remedies"]
    i = next(i for i, x in enumerate(steps) if x["remedy"] == "8bit_optimizer")
    before = steps[i - 1]["peak_bytes_cumulative"] if i else results[0]["peak_bytes_per_gpu"]
    saved = before - steps[i]["peak_bytes_cumulative"]          # what this step saves on top of the ones above it
    assert saved < 2e9 and f'data-value="{saved}"' in str(fragment)


def test_arabic_says_the_cards_a_chain_needs_in_the_right_case():
    s = S["ar"]
    phrase = plain_text(s.get("out.remedy_cumulative_cards")).replace("{n}", plain_text(counted(s, "cards", 2)))
    assert "بطاقتين" not in phrase or "على بطاقتين" in phrase      # genitive after على, never the subject
    assert "تكفي بطاقتين" not in phrase


# ---------------------------------------------------------------------------------------------------------------
# The widget shell
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_javascript_nothing_promises_a_calculator_that_cannot_load(lang):
    html = render_widget(S[lang], "estimator", "calc-estimator-1", WIDGET_KINDS["estimator"].state({}), {})
    status = re.search(r'<p class="calc__status"[^>]*>(.*?)</p>', html).group(1)
    assert status == S[lang].get("status.prerendered")
    idle_only = S[lang].get("status.idle").replace(S[lang].get("status.prerendered"), "").strip()
    assert idle_only and idle_only not in html               # said by calc.js, which only runs with JavaScript


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_widget_names_its_own_landmarks(lang):
    labels = []
    for kind, wid in (("estimator", "calc-estimator-1"), ("compare", "calc-compare-1"), ("compare", "calc-compare-2")):
        html = render_widget(S[lang], kind, wid, WIDGET_KINDS[kind].state({}), {})
        labels += re.findall(r'<(?:form|section) [^>]*aria-label="([^"]+)"', html)
    assert len(labels) == 6 and len(set(labels)) == 6, labels


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_estimators_title_is_the_pages(lang):
    page = (ROOT / "docs" / ("calculator.md" if lang == "ar" else "calculator.en.md")).read_text(encoding="utf-8")
    title = re.search(r"^title: (.+)$", page, re.M).group(1).strip()
    assert S[lang].get("title.estimator") == title


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chart_across_sequence_lengths_does_not_list_a_sequence_length_as_set_by_the_article(lang):
    article = {"seq_len": 2048, "precision": "bf16"}
    fixed = WIDGET_KINDS["seqlen"].fixed({"model": "llama-3.1-8b"}, article)
    assert fixed == {"precision": "bf16"}
    assert WIDGET_KINDS["fits"].fixed({}, {"model": "llama-3.1-8b", "method": "lora", "seq_len": 512}) == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_draft_banner_does_not_call_our_articles_demo_content(lang):
    text = load_strings(lang)["draft_text"]
    assert "demo" not in text.lower() and "تجريبي" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_gpu_table_says_how_card_memory_is_counted(lang):
    fragment, results, _ = render_results(S[lang], "estimator", WIDGET_KINDS["estimator"].state({}))
    caption = plain_text(re.search(r'<figcaption class="calc-table-caption">(.*?)</figcaption>', str(fragment),
                                   re.S).group(1))
    assert "24.0 GiB" in caption and "25.8 GB" in caption          # the RTX 4090's 24 GiB, said in both units


# ---------------------------------------------------------------------------------------------------------------
# The side-by-side
# ---------------------------------------------------------------------------------------------------------------
def test_the_compare_kind_compares_the_three_methods_when_dpo_is_fixed():
    assert variants({}) == (("full", False), ("lora", False), ("qlora", False), ("full", True), ("lora", True),
                            ("qlora", True))
    assert variants({"dpo": False}) == (("full", False), ("lora", False), ("qlora", False))
    kind = WIDGET_KINDS["compare"]
    assert [(r["method"], r["dpo"]) for r in kind.requests_for(kind.state({}), {"dpo": False})] == \
        [("full", False), ("lora", False), ("qlora", False)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_side_by_side_gives_speed_time_and_cost_only_where_a_method_fits(lang):
    kind = WIDGET_KINDS["compare"]
    state = kind.state({"dataset_tokens": 10_000_000})
    fragment, results, errors = render_results(S[lang], "compare", state, {"dpo": False})
    assert not errors
    rows = re.findall(r'<li class="calc-row" data-variant="(\w+)">(.*?)</li>', str(fragment), re.S)
    assert [v for v, _ in rows] == ["full", "lora", "qlora"]
    for (variant, row), r in zip(rows, results):
        fits = r["gpu"]["verdict"] != "does_not_fit"
        assert ('class="calc-row__time"' in row) == fits, (variant, r["gpu"]["verdict"])
    assert results[0]["gpu"]["verdict"] == "does_not_fit" and results[2]["gpu"]["verdict"] != "does_not_fit"


def test_the_calculator_page_has_the_side_by_side_in_both_languages():
    for name in ("calculator.md", "calculator.en.md"):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert "<!-- calc:estimator -->" in text and "<!-- calc:compare dpo=false -->" in text, name


@pytest.mark.parametrize("lang, sep", [("ar", "، "), ("en", ", ")])
def test_a_list_of_lora_targets_in_the_assumptions_is_joined_with_the_languages_comma(lang, sep):
    """Content review §5.5: «وحدات LoRA المستهدفة: q_proj, k_proj, …» put Latin commas inside the Arabic sentence.
    Each module name is its own left-to-right run; the commas between them are the language's own."""
    from calculator.page.pieces import describe_assumptions

    html = describe_assumptions(S[lang], {"lora_targets": ["q_proj", "k_proj", "v_proj"]})
    runs = re.findall(r'<bdi dir="ltr">([^<]*)</bdi>', html)
    assert runs == ["q_proj", "k_proj", "v_proj"], html
    assert f"q_proj</bdi>{sep}<bdi" in html and f"k_proj</bdi>{sep}<bdi" in html, html
    if lang == "ar":
        assert "," not in plain_text(html), html
