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


def prepare(kind: str, raw: dict, budget_ms: float | None = None) -> int:
    message = json.dumps({"kind": kind, "raw": raw, "fixed": {}})
    return PAGE.prepare(message) if budget_ms is None else PAGE.prepare(message, budget_ms)


def test_a_change_answered_in_slices_asks_each_request_once_and_the_render_nothing_more(asked):
    """worker.mjs calls Page.prepare until it returns 0, then Page.render. With no time to spend, each call answers
    one request (the one it is in); with the page's own budget, at least one and fewer than all 216 of "what fits";
    either way each request is asked once in all, and the render asks nothing more."""
    raw, total = {"gpu": "rtx-4090", "seq_len": "1536"}, len(api.MODELS) * 3
    lefts = []
    while not lefts or lefts[-1]:
        lefts.append(prepare("fits", raw, 0))
    assert lefts == list(range(total - 1, -1, -1)) and len(asked) == total
    assert render("fits", raw)["ok"] and len(asked) == total              # drawn from the memo
    asked.clear()
    raw, lefts = {**raw, "seq_len": "1537"}, []
    while not lefts or lefts[-1]:
        lefts.append(prepare("fits", raw))                                # as the worker calls it
    assert len(lefts) > 1 and all(a > b for a, b in zip([total] + lefts, lefts))
    assert len(asked) == total == len({json.dumps(r, sort_keys=True) for r in asked})
    assert render("fits", raw)["ok"] and len(asked) == total


def test_the_estimator_is_asked_in_parts_one_call_each(asked):
    """Its answer comes in three parts (estimator.PARTS), so the worker spends at most one part per call."""
    raw = {"gpu": "rtx-4090", "seq_len": "1536"}
    assert [prepare("estimator", raw, 0) for _ in range(3)] == [2, 1, 0] and len(asked) == 3
    assert render("estimator", raw)["ok"] and len(asked) == 3


@pytest.mark.parametrize("kind", sorted(WIDGET_KINDS))
@pytest.mark.parametrize("budget_ms", [0, 2, 1e6])
def test_a_render_after_slices_is_the_render_of_a_fresh_page(kind, budget_ms, asked):
    raw = {"gpu": "rtx-3090", "seq_len": "3072"}
    expected = Page(json.dumps(calc_strings("en")), "en").render(json.dumps({"kind": kind, "raw": raw, "fixed": {}}))
    while prepare(kind, raw, budget_ms):
        pass
    assert PAGE.render(json.dumps({"kind": kind, "raw": raw, "fixed": {}})) == expected


def test_two_widgets_sliced_in_turn_each_draw_their_own_answers(asked):
    """The worker interleaves the slices of different widgets' changes (and a newer change may stop an older one
    halfway): whatever the order, each render is its own state's."""
    a, b = {"gpu": "rtx-4090", "seq_len": "1000"}, {"gpu": "l40s", "seq_len": "5000"}
    fresh = Page(json.dumps(calc_strings("en")), "en")
    expected = {k: fresh.render(json.dumps({"kind": "fits", "raw": r, "fixed": {}})) for k, r in (("a", a), ("b", b))}
    assert prepare("fits", a, 0) > 0 and prepare("fits", b, 0) > 0 and prepare("fits", a, 0) > 0
    # a stopped halfway: b goes on to its end and is drawn, then a is drawn with what its slices left
    while prepare("fits", b, 0):
        pass
    assert PAGE.render(json.dumps({"kind": "fits", "raw": b, "fixed": {}})) == expected["b"]
    assert PAGE.render(json.dumps({"kind": "fits", "raw": a, "fixed": {}})) == expected["a"]


@pytest.mark.parametrize("message", [
    "", "[]", "{", '{"kind": "nope"}', '{"kind": "fits", "raw": {"gpu": "no-such-card"}}',
    '{"kind": "fits", "raw": {"seq_len": "' + "9" * 5000 + '"}}', "[" * 5000, '{"kind": "fits", "raw": {"gpu": ""}}',
])
def test_a_message_the_render_refuses_has_nothing_to_prepare_and_prepare_never_raises(message, asked):
    assert PAGE.prepare(message, 24) == 0
    assert json.loads(PAGE.render(message))["ok"] is False           # the render says why, next to its control
