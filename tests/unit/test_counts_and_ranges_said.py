"""Issue 42, point 8 (the review's Lows): a data set's size typed as readers write it ("50M", "5e7", "1.5B",
"200k") is read as that count, while a sequence length's "4k" (4,000 or 4,096?) stays refused; an out-of-range or
too-large value, a pasted config's field included, is told the range it must lie in."""
from __future__ import annotations

import pytest

from calculator import api
from calculator.page.kinds import WIDGET_KINDS
from calculator.page.form import read_form
from calculator.page.messages import message_for
from calculator.page.text import Strings, plain_text
from sitebuild.strings import LANGUAGES, calc_strings

pytestmark = pytest.mark.unit

S = {lang: Strings(calc_strings(lang), lang) for lang in LANGUAGES}
KIND = WIDGET_KINDS["estimator"]


@pytest.mark.parametrize("typed,count", [("50M", 50_000_000), ("5e7", 50_000_000), ("1.5B", 1_500_000_000),
                                         ("200k", 200_000), ("٥٠M", 50_000_000), ("2,5M", 2_500_000)])
@pytest.mark.parametrize("key", ["dataset_tokens", "dataset_examples"])
def test_a_data_sets_size_reads_as_readers_write_it(key, typed, count) -> None:
    state, errors = read_form(KIND.fields, KIND.defaults, {key: typed})
    assert not errors and state[key] == count and type(state[key]) is int       # 5e7 as 5.0e7: "not whole"
    assert api.answer({"model": "llama-3.1-8b", key: state[key], "mean_tokens_per_example": 512})["ok"]


@pytest.mark.parametrize("typed", ["0.0001k", "1.5x", "M"])
def test_a_scaled_count_that_is_not_whole_stays_an_error(typed) -> None:
    state, _ = read_form(KIND.fields, KIND.defaults, {"dataset_tokens": typed})
    assert not isinstance(state["dataset_tokens"], int)          # as typed: the estimator says wrong_type
    assert api.answer({"model": "llama-3.1-8b", "dataset_tokens": state["dataset_tokens"]})["error"] == {
        "code": "wrong_type", "field": "dataset_tokens"}


def test_a_sequence_length_in_thousands_stays_refused() -> None:
    state, _ = read_form(KIND.fields, KIND.defaults, {"seq_len": "4k"})
    assert api.answer({"model": "llama-3.1-8b", "seq_len": state["seq_len"]})["error"]["field"] == "seq_len"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pasted_configs_field_out_of_range_says_the_range(lang) -> None:
    low, high = api.MODEL_LIMITS["hidden_size"]
    text = plain_text(message_for(S[lang], "out_of_range", "model.hidden_size"))
    assert f"{high:,}" in text and str(low) in text and "hidden_size" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_number_too_large_says_the_limit(lang) -> None:
    high = api.LIMITS["seq_len"][1]
    assert f"{int(high):,}" in plain_text(message_for(S[lang], "too_large", "seq_len"))
