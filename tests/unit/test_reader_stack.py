"""Issue 42, H2 and H3: the stack is part of the answer, and the reader's values are the reader's.

* every answer lists the keys of its stack that move its figure away from the plain stack (``framework`` none), with
  what each adds or saves, and the widgets and the CLI say it, a key that adds much as a one-click remedy;
* every widget starts from one framework, so the estimator and the side-by-side give the same figure for the same
  visible inputs (driven through the page room's own request building);
* a framework picked fills only the regime fields the reader has not set; the others are kept and marked with the
  framework's default, with one action that takes its values, and the export carries what the form shows.
"""
from __future__ import annotations

import html
import itertools
import json
import re

import pytest

from calculator import api
from calculator.__main__ import render as cli_render
from calculator.page import Page, render_results
from calculator.page.kinds import WIDGET_KINDS
from calculator.page.kinds.estimator import FRAMEWORK_FORM_KEYS, REGIME_FIELD, framework_form
from calculator.page.text import Strings, plain_text
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit

EST, CMP = WIDGET_KINDS["estimator"], WIDGET_KINDS["compare"]
LANGS = ("ar", "en")


def _peak(request: dict) -> int:
    out = api.answer({**request, "include": []})
    assert out["ok"], out
    return out["result"]["peak_bytes_per_gpu"]


@pytest.mark.parametrize(("framework", "method"), list(itertools.product(
    ("none", "trl", "axolotl", "unsloth", "peft"), ("full", "lora", "qlora"))))
def test_every_answer_names_the_keys_that_move_it_from_the_plain_stack_and_what_each_adds(framework, method):
    request = {"model": "llama-3.1-8b", "method": method, "gpu": "rtx-4090", "framework": framework}
    r = api.answer({**request, "include": []})["result"]
    assert r["inputs"]["framework"] == framework
    if framework == "none":
        assert r["stack"] == []
    for x in r["stack"]:
        # the request with the entry's changes is the same setup with that key alone at the plain stack's value
        assert x["changes"][x["key"]] == x["plain"] == api.DEFAULTS[x["key"]] != x["value"]
        assert _peak({**request, **x["changes"]}) == r["peak_bytes_per_gpu"] - x["delta_bytes"] and x["delta_bytes"]
        assert x["large"] == (abs(x["delta_bytes"]) >= 0.05 * r["peak_bytes_per_gpu"])


def test_trls_fp32_load_and_mixed_precision_are_named_with_what_they_add():
    """The review's 8B full fine-tuning: 134.4 GB under TRL, about half under the plain stack; the answer says why."""
    request = {"model": "llama-3.1-8b", "method": "full", "gpu": "h100-80gb", "framework": "trl"}
    r = api.answer({**request, "include": []})["result"]
    moved = {x["key"]: x for x in r["stack"]}
    assert moved["precision"]["value"] == "mixed" and moved["precision"]["large"]
    assert moved["precision"]["delta_bytes"] > 0.4 * r["peak_bytes_per_gpu"]
    assert moved["gradient_checkpointing"]["delta_bytes"] < 0            # TRL's checkpointing saves memory
    moe = api.answer({"model": "qwen3-30b-a3b", "method": "qlora", "framework": "trl", "include": []})["result"]
    assert {x["key"] for x in moe["stack"] if x["large"] and x["delta_bytes"] > 0} >= {"base_fp32", "moe_layout"}


def _visible_state(kind, shared: dict, method: str | None = None) -> dict:
    state = kind.state({})
    state.update(shared)
    if method is not None:
        state["method"] = method
    return state


GRID = [dict(zip(("model", "gpu", "seq_len", "micro_batch_size", "gradient_checkpointing", "lora_rank"), values))
        for values in itertools.product(("llama-3.1-8b", "qwen2.5-1.5b"), ("rtx-4090", "h100-80gb"), (1024, 4096),
                                        (1, 2), (True, False), (8, 64))]


def test_the_estimator_and_the_side_by_side_give_the_same_figure_for_the_same_visible_inputs():
    """Every setting the side-by-side shows, set alike in both widgets as the page room builds their requests: the
    estimator's peak for each method is the side-by-side's row for it (issue 42, H2: LoRA with the defaults was
    36.7 GB in one and 21.9 GB in the other)."""
    assert set(CMP.fields) <= set(EST.fields)
    assert EST.defaults["framework"] == api.DEFAULTS["framework"] == "none"
    for shared in GRID:
        compare = CMP.requests_for(_visible_state(CMP, shared), {"dpo": False})
        by_method = {q["method"]: _peak(q) for q in compare}
        for method, want in by_method.items():
            estimator = EST.requests_for(_visible_state(EST, shared, method))
            assert {_peak(q) for q in estimator} == {want}, (shared, method)


S = {lang: Strings(calc_strings(lang), lang) for lang in LANGS}


def _raw(state: dict, regime: str) -> dict:
    """The raw controls of an estimator showing ``state`` (as calc.js reads them: text for numbers, the hidden
    control naming the pair the regime was filled from)."""
    raw = {k: ("" if v is None else v if isinstance(v, (bool, list)) else str(v)) for k, v in state.items()}
    raw.update({"model_source": "preset", REGIME_FIELD: regime})
    return raw


def _render(lang: str, raw: dict, imported: dict | None = None) -> dict:
    page = Page(json.dumps(calc_strings(lang)), lang)
    return json.loads(page.render(json.dumps({"kind": "estimator", "raw": raw, "fixed": {},
                                              "imported": imported or {}, "edited": "framework"})))


@pytest.mark.parametrize("lang", LANGS)
def test_a_framework_picked_fills_only_what_the_reader_has_not_set_and_marks_the_rest(lang):
    """The review's H3: rank 32 and micro-batch 2 typed under LoRA, then Axolotl picked. The rank stays 32 and is
    marked with Axolotl's default; what the reader left at the form's values takes Axolotl's; one button takes
    Axolotl's values for the rest; the state the answer (and so the export and the link) carries is the form's."""
    state = {**EST.state({}), "method": "lora", "lora_rank": 32, "micro_batch_size": 2, "framework": "axolotl"}
    answer = _render(lang, _raw(state, "none lora"))
    assert answer["ok"], answer
    axolotl, plain = framework_form("axolotl", "lora"), framework_form("none", "lora")
    assert answer["state"]["lora_rank"] == 32 and answer["state"]["micro_batch_size"] == 2
    switched = {k for k in FRAMEWORK_FORM_KEYS if plain[k] != axolotl[k] and EST.state({})[k] == plain[k]}
    assert switched and "lora_rank" not in switched
    for key in switched:                      # not set by the reader: the framework's value, written into the form
        assert answer["state"][key] == axolotl[key] == answer["controls"][key], key
    assert answer["controls"][REGIME_FIELD] == "axolotl lora" and "lora_rank" not in answer["controls"]
    name = S[lang].get("options.framework.axolotl")
    mark = plain_text(answer["read"]["lora_rank"])
    assert plain_text(S[lang].get("out.framework_default")).replace("{framework}", name).replace("{value}", "16") \
        == mark
    # gradient checkpointing: the form's (on) is not Axolotl's (off): the reader's, kept and marked
    assert answer["state"]["gradient_checkpointing"] is True and "gradient_checkpointing" in answer["read"]
    button = re.search(r'data-calc-write="([^"]+)"', answer["read"]["framework"])
    assert button and name in plain_text(answer["read"]["framework"])
    write = json.loads(html.unescape(button.group(1)))
    assert write == {"controls": {"lora_rank": 16, "gradient_checkpointing": False}, "imported": {}}
    # the same framework and method again: nothing switches, the reader's values stay
    again = _render(lang, _raw(answer["state"], "axolotl lora"))
    assert again["state"] == answer["state"] and REGIME_FIELD not in again["controls"]
    # taking the framework's values: no mark is left
    taken = _render(lang, _raw({**answer["state"], **write["controls"]}, "axolotl lora"))
    assert taken["ok"] and taken["state"]["lora_rank"] == 16 and not taken["read"]


def test_a_links_state_tells_the_form_which_framework_filled_it_and_switches_nothing():
    page = Page(json.dumps(calc_strings("en")), "en")
    state = {**EST.state({}), "framework": "trl", "method": "lora", "lora_rank": 64}
    answer = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {}, "fixed": {}, "state": state})))
    assert answer["ok"] and answer["controls"][REGIME_FIELD] == "trl lora" and answer["controls"]["lora_rank"] == 64


@pytest.mark.parametrize("lang", LANGS)
def test_the_stack_and_its_remedies_are_shown_and_a_remedy_applies_what_it_says(lang):
    """LoRA under TRL on the calculator page's card: the strip and the fragment name TRL and its fp32 load with what
    it adds; the remedy's button, applied as calc.js applies it (controls into the form, keys beyond it beside),
    gives the figure lowered by that much."""
    s = S[lang]
    state = {**EST.state({}), "method": "lora", "framework": "trl", **framework_form("trl", "lora")}
    fragment, results, errors = render_results(s, "estimator", state, {})
    assert not errors
    strip = str(EST.slots(s, results)["summary"])
    r = results[0]
    for shown in (strip, str(fragment)):
        assert 'data-calc-output="stack"' in shown and 'data-framework="trl"' in shown
        assert s.get("options.framework.trl") in plain_text(shown)
    load = next(x for x in r["stack"] if x["key"] == "base_fp32")
    item = re.search(r'<li data-key="base_fp32" data-value="(\d+)">(.*?)</li>', strip)
    assert item and int(item.group(1)) == load["delta_bytes"] > 0
    write = json.loads(html.unescape(re.search(r'data-calc-write="([^"]+)"', item.group(2)).group(1)))
    assert write == {"controls": {}, "imported": {"base_fp32": False}}
    after = _render(lang, _raw(state, "trl lora"), imported=write["imported"])
    assert after["ok"]
    peak = re.search(r'data-calc-output="peak_bytes_per_gpu" data-value="(\d+)"', after["slots"]["summary"])
    assert int(peak.group(1)) == r["peak_bytes_per_gpu"] - load["delta_bytes"]
    # the side-by-side names its stack too, and the plain stack names itself with nothing moved
    cmp_fragment, _, _ = render_results(s, "compare", CMP.state({}), {"dpo": False})
    assert s.get("options.framework.none") in plain_text(cmp_fragment)


@pytest.mark.parametrize("lang", LANGS)
def test_the_cli_says_the_stack_and_what_each_key_adds(lang):
    r = api.answer({"model": "llama-3.1-8b", "method": "full", "gpu": "h100-80gb", "framework": "trl"})["result"]
    text = cli_render(r, S[lang])
    assert S[lang].get("options.framework.trl") in text and S[lang].get("out.stack_moved") in text
    precision = next(x for x in r["stack"] if x["key"] == "precision")
    from calculator.page.text import fmt_bytes
    assert f"(+{fmt_bytes(precision['delta_bytes'])[0]})" in text


def test_the_gpu_table_times_several_cards_that_hold_the_setup_as_data_parallelism():
    """Issue 42, point 3 (the review's M6): QLoRA of Llama 3.1 8B fits one RTX 4090, so two of them are data
    parallelism (DDP): the same setup on each card, the batches shared, more tokens per second than one card (ZeRO-3
    made two look slower: 1,391 against 1,801); a card that cannot hold the setup alone is sharded; a stage the reader
    chose is used at every count."""
    request = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090", "gradient_checkpointing": True,
               "include": ["gpu_table"]}
    rows = {row["gpu"]: {st["num_gpus"]: st for st in row["setups"]}
            for row in api.answer(request)["result"]["gpu_table"]}
    card = rows["rtx-4090"]
    assert card[1]["parallelism"] == "none" and card[2]["parallelism"] == card[8]["parallelism"] == "ddp"
    ddp = {k: v for k, v in request.items() if k != "include"}
    assert card[2]["peak_bytes_per_gpu"] == _peak({**ddp, "num_gpus": 2})     # the reader's own DDP, as answered
    assert card[2]["tokens_per_second"] > 1.5 * card[1]["tokens_per_second"]
    assert card[8]["tokens_per_second"] > 3 * card[2]["tokens_per_second"]
    longer = api.answer({**request, "gpu": "h100-80gb", "seq_len": 8192})["result"]["gpu_table"]
    small = [row["setups"] for row in longer if row["setups"] and row["setups"][0]["verdict"] == "does_not_fit"
             and len(row["setups"]) > 1]
    assert small and all(st["parallelism"] == "zero3" for setups in small for st in setups[1:])
    staged = api.answer({**request, "num_gpus": 2, "sharding": "zero2"})["result"]
    assert {st["parallelism"] for row in staged["gpu_table"] for st in row["setups"] if st["num_gpus"] > 1} \
        == {"zero2"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_gpu_tables_ddp_cells_are_marked_and_its_caption_says_the_rule(lang):
    s = S[lang]
    state = {**EST.state({}), "gpu": "h100-80gb"}
    fragment, _results, errors = render_results(s, "estimator", state, {})
    assert not errors
    row = re.search(r'<tr data-gpu="h100-80gb".*?</tr>', str(fragment)).group(0)
    cells = re.findall(r'<td class="calc-cell[^"]*" data-parallelism="(\w+)">(.*?)</td>', row)
    assert [p for p, _ in cells] == ["none", "ddp", "ddp", "ddp"]
    assert all((s.get("out.ddp_mark") in plain_text(c)) == (p == "ddp") for p, c in cells)
    caption = plain_text(re.search(r'<figcaption class="calc-table-caption">.*?</figcaption>', str(fragment),
                                   re.S).group(0))
    assert plain_text(s.get("out.gpu_table_caption")) in caption and s.get("options.framework.none") in caption


def test_a_pasted_file_tells_the_form_which_framework_filled_it_so_the_next_render_keeps_what_the_file_says():
    """A TRL file read into a form last filled for the plain stack: the import's controls carry the regime record
    of the file's framework and method, as a link's do, so the render that follows switches nothing over the file's
    values (without it, every regime key the file left at the old default took TRL's)."""
    from calculator import export
    request = {**EST.state({}), "framework": "none", "method": "qlora", "seq_len": 4096, "micro_batch_size": 2}
    files = export.export(request, "trl").files
    page = Page(json.dumps(calc_strings("en")), "en")
    read = json.loads(page.run(json.dumps({"action": "import", "kind": "estimator", "files": {"main": files["sft.yaml"]}})))
    assert read["ok"], read
    assert read["controls"][REGIME_FIELD] == f'{read["state"]["framework"]} {read["state"]["method"]}'
    answer = _render("en", _raw(read["state"], read["controls"][REGIME_FIELD]))
    assert answer["ok"], answer
    for key in FRAMEWORK_FORM_KEYS:
        assert answer["state"][key] == read["state"][key], key
