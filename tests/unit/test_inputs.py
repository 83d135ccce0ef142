"""The input specs are the one declaration of every request key: the parser, the schema, the CLI, TrainingSetup's
defaults and ESTIMATOR.md's key table (a generated block: tests/unit/test_doc_blocks.py) all agree with them."""
from __future__ import annotations

import dataclasses
import json

import pytest

from calculator import api
from calculator.__main__ import build_parser
from calculator.catalog import MODELS
from calculator.inputs import BY_NAME, DEFAULTS, INPUTS
from calculator.models import Method, TrainingSetup

pytestmark = pytest.mark.unit

SETUP_FIELDS = {f.name: f for f in dataclasses.fields(TrainingSetup)}


def test_every_setup_field_is_declared_once_and_every_setup_spec_is_a_field():
    declared = {spec.name for spec in INPUTS if spec.setup}
    assert declared == set(SETUP_FIELDS)


@pytest.mark.parametrize("spec", [s for s in INPUTS if s.setup and s.name != "model"], ids=lambda s: s.name)
def test_training_setup_default_is_the_spec_default(spec):
    """A request without the key and a TrainingSetup without the argument mean the same thing."""
    field = SETUP_FIELDS[spec.name]
    setup_default = field.default
    parsed, _ = api.parse_request({"model": "llama-2-7b"})
    assert getattr(parsed, spec.name) == setup_default, spec.name
    expected = spec.enum(spec.default) if spec.enum else spec.default
    if spec.kind == "modules":
        expected = api.check_value(spec, spec.default)
    assert setup_default == expected


def test_a_setup_keys_default_has_one_home_its_training_setup_field():
    """No InputSpec of a TrainingSetup field states a default (the model has none): it reads the field's, so a
    changed default is one edit (issue 37)."""
    import ast
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "calculator" / "inputs.py").read_text(encoding="utf-8")
    stated = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InputSpec":
            kw = {k.arg: k.value for k in node.keywords}
            name = kw["name"].value
            if name in SETUP_FIELDS and name != "model" and "default" in kw:
                stated.append(name)
    assert stated == [], f"state these defaults on the TrainingSetup field only: {stated}"


def test_a_setup_keys_lowest_value_has_one_home_its_training_setup_field():
    """F9 and issue 37: a number key of a TrainingSetup field states no ``low`` in the input table; the spec reads
    the field's (``models.at_least``), the value below which the setup refuses itself. So the request's lowest value
    and the setup's are one figure, and one stated again is refused when the table is read."""
    from calculator.errors import InputError
    from calculator.inputs import InputSpec

    numbers = [spec for spec in INPUTS if spec.setup and spec.kind in ("int", "float")]
    assert numbers
    for spec in numbers:
        low = SETUP_FIELDS[spec.name].metadata["lowest"]
        assert spec.low == low and type(spec.low) is type(low), spec.name
        below = low - (1 if spec.kind == "int" else 0.001)
        assert api.answer({"model": "llama-3.2-1b", spec.name: below})["error"]["field"] == spec.name
        with pytest.raises(InputError) as e:
            TrainingSetup(model=MODELS["llama-3.2-1b"], **{spec.name: below})
        assert (e.value.code, e.value.field) == ("out_of_range", spec.name)
    with pytest.raises(TypeError, match="lowest value"):
        InputSpec(name="seq_len", kind="int", low=1, high=10, doc="stated twice")


def test_defaults_echo_in_the_result():
    inputs = json.loads(api.answer_text(json.dumps({"model": "llama-3.1-8b"})))["result"]["inputs"]
    for key, value in DEFAULTS.items():
        if key in ("gpu", "include"):
            continue
        if key == "lora_targets":
            value = list(api.check_value(BY_NAME[key], value))
        assert inputs[key] == value, key


@pytest.mark.parametrize("spec", [s for s in INPUTS if s.cli], ids=lambda s: s.name)
def test_every_cli_spec_has_its_flag_and_reaches_the_request(spec):
    parser = build_parser()
    dests = {a.dest: a for a in parser._actions}
    assert spec.name in dests and spec.flag in dests[spec.name].option_strings
    # A value given on the command line lands in the request under the key's own name.
    from calculator.__main__ import request_from_args
    samples = {"bool": lambda: [spec.flag], "int": lambda: [spec.flag, str(int(spec.low) + 1)],
               "float": lambda: [spec.flag, "0.1"], "enum": lambda: [spec.flag, spec.choices[-1]],
               "modules": lambda: [spec.flag, "q_proj,v_proj"], "gpu": lambda: [spec.flag, "rtx-4090"]}
    sample = samples[spec.kind]()
    req = request_from_args(parser.parse_args(["--model", "llama-2-7b", *sample]))
    assert spec.name in req


def test_cli_has_no_flag_without_a_spec():
    known = {s.name for s in INPUTS} | {"help", "model", "config", "json", "describe",
                                        "imports", "export", "out", "force", "version",   # the export room's (calculator/export)
                                        "fetch"}                                           # the Hub's (calculator/hub.py)
    assert {a.dest for a in build_parser()._actions} <= known


def test_schema_publishes_every_spec():
    sch = api.schema()
    assert [i["name"] for i in sch["inputs"]] == [s.name for s in INPUTS]
    seq = next(i for i in sch["inputs"] if i["name"] == "seq_len")
    assert (seq["min"], seq["max"], seq["unit"]) == (1, 4_194_304, "tokens")
    assert sch["defaults"] == DEFAULTS


def test_inverse_solver_searches_the_range_the_api_accepts():
    """One cap for the sequence length: the longest that fits can always be fed back to the API."""
    from calculator.recommend import SEQ_LEN_CAP, max_seq_len
    from calculator.catalog import GPUS
    assert SEQ_LEN_CAP == BY_NAME["seq_len"].high
    tiny = dataclasses.replace(MODELS["llama-3.2-1b"], hidden_size=64, num_hidden_layers=1, num_attention_heads=1,
                               num_key_value_heads=1, head_dim=None, intermediate_size=64, vocab_size=8)
    s = TrainingSetup(model=tiny, method=Method.LORA, gradient_checkpointing=True)
    longest = max_seq_len(s, GPUS["h100-80gb"])
    assert 1_048_576 < longest <= SEQ_LEN_CAP      # beyond the old search cap, within the API's
