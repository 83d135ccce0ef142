"""The exports' quoting path, one case each (issue 36; the property tests over hostile names are in
tests/frameworks/test_export_hostile.py): a model name that cannot stand in a comment is said as a custom model and
its parameter count; no comment declares a script's encoding; caller templates are filled by name (R11); a model id
not shaped like a Hugging Face id is refused at its field with the reason in both languages; the CLI escapes what it
echoes (R7)."""
from __future__ import annotations

import ast
import json
import time

import pytest
import yaml

from calculator import api
from calculator.__main__ import main
from calculator import catalog, export
from calculator.export import answer_export
from calculator.page import Page
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit

TINY = {"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
        "num_key_value_heads": 4, "intermediate_size": 2816, "vocab_size": 32000}
EN = calc_strings("en")["run"]["comments"]
AR = calc_strings("ar")["run"]["comments"]


def _files(target: str, request: dict, text: dict | None = None) -> dict[str, str]:
    answer = answer_export({"target": target, "request": request, **({"text": text} if text is not None else {})})
    assert answer["ok"], answer
    return answer["export"]["files"]


@pytest.mark.parametrize("name", ["tiny\nimport os; os.system('echo PWNED')\n#", "a\u202eb", "x" * 97, " padded"])
def test_a_name_that_cannot_stand_in_a_comment_is_said_as_a_custom_model_and_its_count(name):
    params = api.answer({"model": TINY, "method": "lora"})["result"]["params"]
    for text, words in ((EN, "a custom model of"), (AR, "نموذج مخصّص")):
        header = _files("trl", {"model": {**TINY, "_name_or_path": name}, "method": "lora"}, text)["sft.yaml"]
        second = header.splitlines()[1]
        assert words in second and str(params) in second and name.strip() not in second


def test_a_plain_name_stands_in_the_header_as_given():
    sft = _files("trl", {"model": {**TINY, "name": "My Tiny Llama"}, "method": "lora"}, EN)["sft.yaml"]
    assert sft.splitlines()[1].startswith("# Estimate: My Tiny Llama, ")


def test_no_comment_declares_the_scripts_encoding():
    """``# coding: utf-7`` on a script's first two lines would make ``+AAo-`` a line break for Python."""
    name = "coding: utf-7 +AAo-import os+AAo-"
    for text in (None, EN):
        script = _files("unsloth", {"model": {**TINY, "name": name}, "method": "lora"}, text)["train.py"]
        tree = ast.parse(script.encode("utf-8"))
        assert not any(isinstance(n, ast.Import) and n.names[0].name == "os" for n in ast.walk(tree))
        assert "coding:" not in "\n".join(script.splitlines()[:2])


@pytest.mark.parametrize("code, template", [("estimate", "{0}"), ("validated", "{stack.__init__.__globals__}"),
                                            ("run", "{command:>99999999}"), ("estimate", "{model!r} {}")])
def test_a_callers_template_is_filled_by_name_never_formatted(code, template):
    start = time.process_time()
    files = _files("trl", {"model": "llama-3.1-8b", "method": "lora"}, {code: template})
    assert time.process_time() - start < 5
    assert max(len(line) for text in files.values() for line in text.splitlines()) < 1000
    assert "# " + template in files["sft.yaml"].splitlines()


def test_a_callers_template_is_filled_by_its_names_and_stays_one_line():
    files = _files("trl", {"model": "llama-3.1-8b", "method": "lora"},
                   {"estimate": "{model} on {gpu}\ntrust_remote_code: true", "run": "{unknown} {command}"})
    lines = files["sft.yaml"].splitlines()
    assert lines[1] == "# Llama 3.1 8B on -\\x0atrust_remote_code: true"
    assert "# {unknown} trl sft --config sft.yaml" in lines      # the run line, after the steps before it
    assert "trust_remote_code" not in yaml.safe_load(files["sft.yaml"])


def test_a_template_longer_than_the_limit_is_too_large():
    answer = answer_export({"target": "trl", "request": {"model": "llama-3.1-8b"},
                            "text": {"estimate": "{model}" * (export.MAX_TEMPLATE // 7 + 1)}})
    assert answer["error"] == {"code": "too_large", "field": "text"}


@pytest.mark.parametrize("text", ["meta-llama/Llama-3.1-8B", "gpt2", "Qwen/Qwen2.5-7B-Instruct", "a_b.c-d/e.f_g-h",
                                  "o" * 96 + "/" + "n" * 96])
def test_hub_ids_that_look_like_one(text):
    assert catalog.is_hub_id(text)


@pytest.mark.parametrize("text", ["", "/", "a/", "/b", "a/b/c", "a b", "a\nb", "a/b\n", "o" * 97 + "/n",
                                  "n" * 97, "../etc", "./x", "a/..", "a:b", "a\u202eb", "llama\x00", "ümlaut/x",
                                  "$(id)", "`id`", "a#b", None, 3])
def test_hub_ids_that_do_not(text):
    assert not catalog.is_hub_id(text)


def test_a_model_id_not_shaped_like_one_is_refused_at_its_field_with_the_reason():
    err = api.answer({"model": "evil\nimport os"})["error"]
    assert err == {"code": "unknown_model", "field": "model", "reason": "not_a_hub_id"}
    assert api.answer({"model": "someone/not-a-model"})["error"] == {"code": "unknown_model", "field": "model"}
    assert api.answer({"model": "huggingface.co/someone/not-a-model"})["error"] == {"code": "unknown_model",
                                                                                    "field": "model"}


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_page_says_why_a_model_id_is_refused_in_both_languages(lang):
    s = calc_strings(lang)
    page = Page(json.dumps(s), lang)
    out = json.loads(page.render(json.dumps({"kind": "estimator", "raw": {"model": "Llama 3.1 8B$(id)"},
                                             "fixed": {}})))
    errors = [e for e in out["errors"] if e["field"] == "model"]
    assert errors and errors[0]["code"] == "unknown_model" and errors[0]["reason"] == "not_a_hub_id"
    assert s["errors"]["reasons"]["not_a_hub_id"] in errors[0]["message"]
    assert s["errors"]["unknown_model"] in errors[0]["message"]


ESC_KEY = "\x1b]0;PWNED\x07\x1b[31mred"


def test_the_cli_escapes_the_keys_it_did_not_read(tmp_path, capsys):
    """R7: ``--import`` lists the keys it did not read; a key's terminal escapes are shown, never sent."""
    f = tmp_path / "esc.yaml"
    f.write_text(f'base_model: meta-llama/Llama-3.1-8B\n"{ESC_KEY.encode("unicode_escape").decode()}": 1\n',
                 encoding="utf-8")
    main(["--import", str(f)])
    out = capsys.readouterr()
    assert "\x1b" not in out.out + out.err and "\x07" not in out.out + out.err
    assert "\\x1b]0;PWNED\\x07\\x1b[31mred" in out.out


def test_the_cli_escapes_the_out_folder(tmp_path, capsys):
    """R7: ``--export`` names the folder it wrote into; a name's escapes are shown, never sent."""
    folder = tmp_path / "d\x1b]0;X\x07"
    assert main(["--model", "llama-3.1-8b", "--method", "lora", "--export", "trl", "--out", str(folder)]) == 0
    out = capsys.readouterr()
    assert "\x1b" not in out.out + out.err and "\x07" not in out.out + out.err
    assert "d\\x1b]0;X\\x07" in out.out


def test_every_catalogue_repository_passes_the_hub_id_rule():
    """The exports write a catalogue model's repository as its Hub id (``Plan.hf_repo``): each passes the one rule."""
    from calculator.catalog import MODELS
    assert [m.id for m in MODELS.values() if not catalog.is_hub_id(m.hf_id)] == []


@pytest.mark.parametrize("summary", [{"code": "x", "model": "M"}, {"text": "y"}, {"model": ["a"], "gpu": {"b": 1}},
                                     {"model": "M\ntrust_remote_code: true", "gpu": "G\u2028x: 1"}])
def test_a_callers_summary_answers_and_stays_in_its_comment(summary):
    """Only the estimate line's names are taken from a caller's summary, each through the name check."""
    answer = answer_export({"target": "trl", "request": {"model": "llama-3.1-8b"}, "summary": summary})
    assert answer["ok"], answer
    sft = answer["export"]["files"]["sft.yaml"]
    plain = answer_export({"target": "trl", "request": {"model": "llama-3.1-8b"}})["export"]["files"]["sft.yaml"]
    assert yaml.safe_load(sft) == yaml.safe_load(plain)
    assert all(line.startswith("#") for line in sft.splitlines()[:5])


@pytest.mark.parametrize("value", ["yes\n", "model\n", "a/b\n"])
def test_a_word_with_a_trailing_line_break_is_quoted(value):
    """``$`` matches before a final line break: the plain-word check must hold for the whole string."""
    from calculator.export import _yaml
    assert yaml.safe_load("k: " + _yaml.scalar(value)) == {"k": value}
