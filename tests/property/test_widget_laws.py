"""Hypothesis laws of the page's entry point, ``Page.render``, fuzzed as the API is (tests/property/test_laws.py):
whatever the controls send -- typed text of any length and alphabet, a pasted config.json of any shape, a link's
values, a message that is not one the page script writes -- an answer or errors with the API's own codes; never an
exception, never ``internal_error`` (which would be a bug), and every refusal of a control's value names a field
that a control of that widget shows (calc.js puts the message next to it)."""
from __future__ import annotations

import json
import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from calculator import api
from calculator.inputs import BY_NAME
from calculator.page import WIDGET_KINDS, Page
from calculator.page.form import MAX_FIELD_CHARS
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.property

PAGES = {lang: Page(json.dumps(calc_strings(lang)), lang) for lang in ("ar", "en")}

#: Typed text a reader, a paste into a number box or a crafted link can put in a control.
_typed = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=string.digits + "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹,._ ٫٬-+eE", max_size=60),
    st.sampled_from([
        "9" * 4301, "٩" * 4301, "-" + "9" * 5000, "9" * MAX_FIELD_CHARS, "9" * (MAX_FIELD_CHARS + 1),
        " " * 2000 + "1", "1e999999", "-1e999999", "1e-999999", "NaN", "Infinity", "-0", "-0.0", "0x10", "1_0",
        "\x00", "\x1b[2J\x1b]0;pwned\x07", "\ud800", "\udfff1", "\u202e1", "<img src=x onerror=alert(1)>",
        "١٬٢٣٤", "1,5", "1.5.5", "--1", "+", "", "   ",
    ]),
)
_scalar = st.one_of(_typed, st.booleans(), st.none(), st.integers(), st.integers(-10**50, 10**50),
                    st.floats(allow_nan=False, allow_infinity=False))
_raw_value = st.one_of(_scalar, st.lists(_scalar, max_size=4), st.dictionaries(st.text(max_size=6), _scalar,
                                                                              max_size=3))


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


_config = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
#: What the paste box can hold: any JSON, a real-looking config with a hostile field, any text.
_pasted = st.one_of(
    _json_values.map(json.dumps),
    st.dictionaries(st.sampled_from(sorted(_config) + ["name", "model_type", "junk", "num_key_value_heads"]),
                    _scalar, max_size=4).map(lambda extra: json.dumps({**_config, **extra})),
    st.text(max_size=40),
    st.sampled_from([
        json.dumps({**_config, "junk": None}).replace("null", _nested(31)),
        json.dumps({**_config, "junk": None}).replace("null", _nested(950)),
        "[" * 100_000,
        json.dumps(_config).replace("100", "9" * 4301),
        json.dumps(_config)[:-1] + ', "x": NaN}',
        json.dumps({**_config, "name": "\ud800\x1b[31m"}),
        json.dumps({**_config, "junk": list(range(20_000))}),
        " " * (api.MAX_INPUT_CHARS + 1),
        "\ufeff" + json.dumps(_config),
    ]),
)
_model = st.one_of(
    st.sampled_from(sorted(api.MODELS)), st.text(max_size=12),
    st.fixed_dictionaries({"source": st.just("paste"), "value": _pasted}),
    st.fixed_dictionaries({"source": st.just("custom"),
                           "value": st.dictionaries(st.sampled_from([f.name for f in api.MODEL_FIELDS]),
                                                    st.one_of(_typed, st.booleans()), max_size=6)
                           .map(lambda d: {**{k: str(v) for k, v in _config.items()}, **d})}),
    st.fixed_dictionaries({"source": st.sampled_from(["preset", "nope", None]), "value": _raw_value}),
)


def _has_control(kind: str, field: str) -> bool:
    """The field names a control this widget kind shows (the model's box takes every ``model.<field>``)."""
    fields = WIDGET_KINDS[kind].fields
    return field in fields or ("model" in fields and (field == "model" or field.startswith("model.")))


def _answer(lang: str, message: str) -> dict:
    text = PAGES[lang].render(message)
    text.encode("utf-8")                                   # the page can take it: no lone surrogate
    out = json.loads(text)
    assert isinstance(out, dict) and isinstance(out["ok"], bool)
    if not out["ok"]:
        assert out["errors"], out
        for e in out["errors"]:
            assert e["code"] in api.ERROR_CODES and e["code"] != "internal_error", out
    return out


@given(st.sampled_from(sorted(WIDGET_KINDS)), st.dictionaries(st.sampled_from(sorted(BY_NAME)), _raw_value,
                                                              max_size=8),
       _model, st.sampled_from(["ar", "en"]))
@example("estimator", {"seq_len": "9" * 4301}, "llama-3.1-8b", "en")          # the review's F1, always tried
@example("fits", {"micro_batch_size": "٩" * 4301}, "llama-3.1-8b", "ar")
@example("estimator", {}, {"source": "custom", "value": {**{k: str(v) for k, v in _config.items()},
                                                          "vocab_size": "9" * 4301}}, "en")
@example("compare", {}, {"source": "custom", "value": {**{k: str(v) for k, v in _config.items()},   # reads as inf:
                                                        "hidden_size": "1E٤00"}}, "ar")  # its "read as" raised
def test_anything_a_form_or_a_link_can_send_is_answered_next_to_its_control(kind, raw, model, lang):
    """Any raw control values: an answer, or errors with the API's codes, each on a control of the widget."""
    raw.pop("include", None)
    raw["model"] = model
    out = _answer(lang, json.dumps({"kind": kind, "raw": raw, "fixed": {}}))
    if out["ok"]:
        assert isinstance(out["html"], str) and isinstance(out["state"], dict)
    else:
        for e in out["errors"]:
            assert e["field"] is not None and _has_control(kind, e["field"]), (raw, e)
            assert e["quiet"] or e["message"], e


@given(st.one_of(_json_values.map(json.dumps), st.text(max_size=40),
                 st.sampled_from([_nested(5000), "", "null", "[]", '{"kind": "nope"}', '{"kind": "fits", "raw": []}',
                                  '{"kind": "estimator", "raw": {}, "fixed": 3}', '{"kind": ["fits"]}',
                                  '{"kind": "estimator", "raw": {"seq_len": NaN}}',
                                  '{"kind": "estimator", "raw": {"seq_len": ' + "9" * 5000 + "}}",
                                  " " * (8 * api.MAX_INPUT_CHARS + 1)])),
       st.sampled_from(["ar", "en"]))
def test_any_message_text_is_answered_never_raised(message, lang):
    """A message the page script would never write (any JSON, any text, too deep, too long): refused with the
    API's codes, never internal_error."""
    _answer(lang, message)


def test_a_message_that_is_not_text_is_answered() -> None:
    out = json.loads(PAGES["en"].render(None))             # type: ignore[arg-type]
    assert out["errors"][0]["code"] == "not_an_object"


# The page's markup escapes and reads its text without the ``html`` module (whose html.entities took 24 ms of the
# runtime's start in Pyodide): the same results as html.escape and html.unescape, for any text and any markup.
_markupish = st.lists(st.sampled_from([*"&<>\"';#x27ampltgquo b/=é٤", "&amp;", "&lt;", "&gt;", "&quot;", "&#x27;",
                                        "&#39;", "&nbsp;", "&lt", "&amp;lt;", "<b>", "</b>"]), max_size=12).map("".join)


@given(st.text(max_size=40) | _markupish, st.booleans())
@example("&amp;lt;<a title=\"x'y\">&nbsp;&#39;</a>", True)
def test_escape_and_plain_text_are_htmls(text, quote):
    import html
    import re

    from calculator.page.text import escape, plain_text
    assert escape(text, quote=quote) == html.escape(text, quote=quote)
    assert plain_text(text) == html.unescape(re.sub(r"<[^>]+>", "", text))
    assert plain_text(escape(text, quote=True)) == text
