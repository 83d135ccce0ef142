"""calculator.page.text: the one place numbers become text and text becomes markup."""
from __future__ import annotations

import pytest

from calculator.errors import StringMissing
from calculator.page.text import Html, Strings, el, filled, fmt_bytes, fmt_count, fmt_number, \
    fmt_percent, join, ltr

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("x,digits,text", [
    (0.125, 2, "0.13"),            # half away from zero on the shortest decimal form (binary 0.125 is exact)
    (2.675, 2, "2.68"),            # repr is 2.675, as a reader would round it (float arithmetic says 2.67)
    (1234567.891, 1, "1,234,567.9"),
    (-1.5, 0, "-2"),
    (0.0, 1, "0.0"),
])
def test_fmt_number(x, digits, text):
    assert fmt_number(x, digits) == text


def test_fmt_bytes_decimal_and_binary():
    assert fmt_bytes(80 * 2**30) == ("85.9 GB", "80.0 GiB")
    assert fmt_bytes(17_000_000) == ("17 MB", "16 MiB")
    assert fmt_bytes(57_034_000_000, "gb", 0) == ("57 GB", "53 GiB")
    assert fmt_bytes(57_034_000_000, "gib", 1) == ("53.1 GiB", "53.1 GiB")


def test_fmt_percent_and_counts():
    assert fmt_percent(0.0059, 2) == "0.59%"
    assert fmt_count(6_738_415_616) == ("6.7", "billion")
    assert fmt_count(494_032_768) == ("494.0", "million")
    assert fmt_count(1234) == ("1,234", "")


def test_text_is_escaped_and_markup_is_not():
    out = el("p", {"title": '"><script>', "data-x": 3, "hidden": True, "skip": None}, "<b>&", el("i", {}, "x"))
    assert out == '<p title="&quot;&gt;&lt;script&gt;" data-x="3" hidden>&lt;b&gt;&amp;<i>x</i></p>'
    assert isinstance(out, Html)
    assert join("<", Html("<br>")) == "&lt;<br>"
    assert el("br") == "<br>"


def test_filled_isolates_values_and_keeps_unknown_placeholders_visible():
    assert filled("On {gpu}: {x}", {"gpu": "RTX <4090>"}) == 'On <bdi dir="ltr">RTX &lt;4090&gt;</bdi>: {x}'
    assert filled("{a}", {"a": Html("<b>1</b>")}) == "<b>1</b>"


def test_a_card_count_and_name_are_one_isolated_run():
    """"1 × 80 GB" isolated as a whole: an Arabic sentence cannot reorder it to "80 GB × 1"."""
    from calculator.page.pieces import setup_label
    assert setup_label(2, "H100 80GB") == '<bdi dir="ltr">2 × H100 80GB</bdi>'
    assert ltr("13–34B") == '<bdi dir="ltr">13–34B</bdi>'


def test_strings_find_dotted_keys_and_fail_loudly():
    s = Strings({"fields": {"model.hidden_size": {"label": "hidden_size"}, "seq_len": {"label": "Sequence"}}}, "ar")
    assert s.get("fields.model.hidden_size.label") == "hidden_size"
    assert s.get("fields.seq_len.label") == "Sequence"
    assert s.rtl
    with pytest.raises(StringMissing):
        s.get("fields.nope.label")
    assert s.get("fields.nope.label", "x") == "x"
    assert not s.has("fields.seq_len")        # a table, not a string
