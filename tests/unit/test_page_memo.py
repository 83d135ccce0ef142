"""The page's memo of answers (``Page._answered``, read by calculator/page/__init__.py ``render_results``): a
change of card alone in "what fits" estimates nothing again, and an answer from the memo renders exactly what a fresh estimate renders, in every widget
kind, however the reader goes back and forth."""
from __future__ import annotations

import json

import pytest

import calculator.page as page_module
from calculator import api
from calculator.page import WIDGET_KINDS, Page
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit

PAGE = Page(json.dumps(calc_strings("en")), "en")


def render(kind: str, raw: dict) -> dict:
    return json.loads(PAGE.render(json.dumps({"kind": kind, "raw": raw, "fixed": {}})))


@pytest.fixture
def asked(monkeypatch):
    """The requests the estimator was asked to answer (through ``api.answer_each``), from an empty memo."""
    PAGE.forget()
    seen: list[dict] = []
    real = api.answer_each

    def counting(objs):
        def noted():
            for o in objs:
                seen.append(o)
                yield o
        return real(noted())
    monkeypatch.setattr(page_module.api, "answer_each", counting)
    yield seen
    PAGE.forget()


def test_a_change_of_card_alone_in_what_fits_estimates_only_the_card(asked):
    first = render("fits", {"gpu": "rtx-4090", "seq_len": "1536"})
    assert first["ok"] and len(asked) == len(api.MODELS) * 3
    asked.clear()
    other = render("fits", {"gpu": "a100-80gb", "seq_len": "1536"})
    assert other["ok"] and len(asked) == 1 and asked[0]["gpu"] == "a100-80gb"   # the card's own request only
    assert other["html"] != first["html"]                                       # another card, other verdicts
    asked.clear()
    render("fits", {"gpu": "a100-80gb", "seq_len": "1024"})
    assert len(asked) == len(api.MODELS) * 3                                    # another setup: all asked again


@pytest.mark.parametrize("kind", sorted(WIDGET_KINDS))
def test_an_answer_from_the_memo_renders_what_a_fresh_estimate_renders(kind, asked):
    a = {"gpu": "rtx-4090", "seq_len": "2048"}
    b = {"gpu": "a100-80gb", "seq_len": "1024"}
    fresh_a = render(kind, a)
    PAGE.forget()
    fresh_b = render(kind, b)
    assert fresh_a["ok"] and fresh_b["ok"] and fresh_a != fresh_b
    again = [render(kind, x) for x in (a, b, a, b)]               # each now partly or wholly from the memo
    assert again == [fresh_a, fresh_b, fresh_a, fresh_b]


def test_the_memo_stays_bounded(asked):
    for seq in range(600, 600 + 64 * 8, 64):                      # eight "what fits" setups of 216 answers each
        assert render("fits", {"gpu": "l4", "seq_len": str(seq)})["ok"]
        assert len(PAGE._answered) <= page_module.MEMO_ANSWERS
    assert PAGE._answered                                  # and still holds the latest
