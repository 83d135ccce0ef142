"""Hypothesis law of the page's entry point: whatever the controls send, an answer or errors with the API's own
codes; never an exception, never internal_error (which would be a bug)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import api
from calculator.page import WIDGET_KINDS, Page
from calculator.inputs import BY_NAME
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.property

_raw_value = st.one_of(st.text(max_size=12), st.booleans(), st.none(), st.integers(), st.lists(st.text(max_size=8),
                                                                                              max_size=3))


@given(st.sampled_from(list(WIDGET_KINDS)), st.dictionaries(st.sampled_from(sorted(BY_NAME)), _raw_value, max_size=8))
def test_anything_a_form_can_send_is_answered_never_raised(kind, raw):
    """Any raw control values: an answer or errors with the API's codes; never internal_error (a bug)."""
    raw.pop("model", None)
    raw.pop("include", None)
    page = Page(json.dumps(calc_strings("ar")), "ar")
    out = json.loads(page.render(json.dumps({"kind": kind, "raw": raw, "fixed": {}})))
    if not out["ok"]:
        for e in out["errors"]:
            assert e["code"] in api.ERROR_CODES and e["code"] != "internal_error", (raw, out)
