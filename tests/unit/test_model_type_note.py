"""Issue 42, point 8: a pasted config whose model_type is free text ("0", markup, a typo) is read as a generic
decoder, and the answer says so (``model_type_unknown``) in both languages and in the CLI; a known type, a config
without a type and a catalogue model say nothing."""
from __future__ import annotations

import json

import pytest

from calculator import api
from calculator.__main__ import main
from calculator.page.text import Strings
from sitebuild.strings import LANGUAGES, calc_strings

pytestmark = pytest.mark.unit

BASE = {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000,
        "intermediate_size": 11008}


def notes(model) -> list[str]:
    out = api.answer({"model": model})
    assert out["ok"], out
    return out["result"]["notes"]


@pytest.mark.parametrize("model_type", ["0", "<script>alert(1)</script>", "lama"])
def test_an_unknown_model_type_is_said(model_type) -> None:
    assert "model_type_unknown" in notes({**BASE, "model_type": model_type})


@pytest.mark.parametrize("model", [{**BASE, "model_type": "llama"}, BASE, "llama-3.1-8b"])
def test_a_known_type_no_type_or_a_catalogue_model_says_nothing(model) -> None:
    assert "model_type_unknown" not in notes(model)


def test_the_note_has_words_in_both_tables_and_the_cli_prints_them(tmp_path, capsys) -> None:
    for lang in LANGUAGES:
        assert "model_type" in Strings(calc_strings(lang), lang).get("notes.model_type_unknown")
    p = tmp_path / "config.json"
    p.write_text(json.dumps({**BASE, "model_type": "0"}))
    assert main(["--config", str(p)]) == 0
    assert Strings(calc_strings("en"), "en").get("notes.model_type_unknown") in capsys.readouterr().out
