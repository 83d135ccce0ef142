"""Hostile, huge and private input (issue 23): each finding of the reliability review of 7f72dc3
(../shared/research/reviews/reliability.md: F1, F5, F6, F7, F9, F10), tried with the review's own inputs on every
path into the estimator -- the page's entry point (``Page.render``), the API, the CLI and the typed layer -- and
each answered with the API's code on the field that is wrong, never a traceback or ``internal_error``."""
from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from calculator import api
from calculator.__main__ import MAX_CONFIG_BYTES, main, printable
from calculator.catalog import MODELS
from calculator.errors import InputError
from calculator.inputs import check_setup
from calculator.memory import estimate
from calculator.models import Method, Precision, Sharding, TrainingSetup, replaced
from calculator.page import Page
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
TINY = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 172}
PAGE = Page(json.dumps(calc_strings("en")), "en")


def render(raw: dict, kind: str = "estimator") -> dict:
    text = PAGE.render(json.dumps({"kind": kind, "raw": {"gpu": "rtx-4090", **raw}, "fixed": {}}))
    text.encode("utf-8")                                   # no lone surrogate reaches the page
    return json.loads(text)


def refusals(out: dict) -> list[tuple[str | None, str]]:
    assert out["ok"] is False, out
    return [(e["field"], e["code"]) for e in out["errors"]]


def paste(text: str) -> dict:
    return render({"model": {"source": "paste", "value": text}})


# ---------------------------------------------------------------------------------------------------------------
# F1: the page's entry point goes through the API's guards
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["9" * 4301, "٩" * 4301, "-" + "9" * 5000], ids=["4301", "arabic-4301", "-5000"])
def test_a_number_of_more_than_4300_digits_is_refused_on_its_field(typed) -> None:
    """F1: more than 4,300 digits in a number field (typed or set by a link) was internal_error."""
    assert refusals(render({"seq_len": typed})) == [("seq_len", "too_large")]
    custom = {**{k: str(v) for k, v in TINY.items()}, "hidden_size": typed}
    assert refusals(render({"model": {"source": "custom", "value": custom}})) == [("model.hidden_size", "too_large")]


def test_a_long_number_within_the_fields_length_is_out_of_range() -> None:
    assert refusals(render({"seq_len": "9" * 1000})) == [("seq_len", "out_of_range")]
    assert refusals(render({"micro_batch_size": "-" + "٩" * 999})) == [("micro_batch_size", "out_of_range")]


def test_a_pasted_config_is_read_as_the_api_reads_a_request() -> None:
    """F1, the paste path: 950 nesting levels passed where the API stops at 32; a 4,301-digit number was
    invalid_json ("This is not valid JSON") where the API says out_of_range."""
    deep = json.dumps({**TINY, "junk": None}).replace("null", "[" * 950 + "]" * 950)
    assert refusals(paste(deep)) == [("model", "too_large")]
    assert refusals(paste(json.dumps(TINY).replace("100", "9" * 4301))) == [("model.vocab_size", "out_of_range")]
    assert refusals(paste(json.dumps(TINY)[:-1] + ', "x": NaN}')) == [("model", "invalid_json")]
    assert refusals(paste("{" + " " * api.MAX_INPUT_CHARS + "}")) == [("model", "too_large")]
    # the API says the same of the same texts
    assert json.loads(api.answer_text('{"model": ' + deep + "}"))["error"]["code"] == "too_large"
    big = json.loads(api.answer_text('{"model": ' + json.dumps(TINY).replace("100", "9" * 4301) + "}"))
    assert big["error"] == {"code": "out_of_range", "field": "model.vocab_size"}


def test_a_lone_surrogate_in_a_pasted_name_comes_back_escaped() -> None:
    out = paste(json.dumps({**TINY, "name": "\ud800<b>x</b>"}))
    assert out["ok"] and out["state"]["model"]["name"] == "\ud800<b>x</b>"
    assert "<b>" not in out["html"]


@pytest.mark.parametrize("message,code", [
    ("[" * 5000 + "]" * 5000, "too_large"), ("{not json", "invalid_json"), ("[]", "not_an_object"),
    ('{"kind": "nope"}', "unknown_value"), ('{"kind": "estimator", "raw": [1]}', "not_an_object"),
    ('{"kind": "estimator", "raw": {}, "fixed": "x"}', "not_an_object"),
    ('{"kind": "estimator", "raw": {"seq_len": NaN}}', "invalid_json"),
    (" " * (8 * api.MAX_INPUT_CHARS + 1), "too_large"),
], ids=["deep", "not-json", "array", "kind", "raw-list", "fixed-text", "nan", "too-long"])
def test_a_message_the_page_script_never_writes_gets_the_apis_code(message, code) -> None:
    out = json.loads(PAGE.render(message))
    assert refusals(out) == [(None, code)] and out["errors"][0]["message"]


def test_a_field_longer_than_any_number_is_refused_on_its_control() -> None:
    """calc.js cuts each value one character beyond its limit (form.TRANSPORT_LIMITS): what it cut is still too
    long, so it is refused, never read as the number it starts with."""
    from calculator.page.form import MAX_FIELD_CHARS, TRANSPORT_LIMITS
    cut = ("123" + " " * 5000 + "x")[:TRANSPORT_LIMITS["field"]]
    assert refusals(render({"seq_len": cut})) == [("seq_len", "too_large")]
    assert render({"seq_len": "1" + " " * (MAX_FIELD_CHARS - 1)})["state"]["seq_len"] == 1
    assert TRANSPORT_LIMITS["text"] == api.MAX_INPUT_CHARS + 1


# ---------------------------------------------------------------------------------------------------------------
# One set of guards, for a text of any format
# ---------------------------------------------------------------------------------------------------------------
def test_a_text_of_another_format_goes_through_the_same_guards() -> None:
    """api.read_text: the guards the JSON reader has, for any parser (the export room's YAML configs)."""
    def loader(value):
        return lambda text: value

    assert api.read_text("x", loader({"a": [1, {"b": None}]})) == {"a": [1, {"b": None}]}
    deep: list = []
    node = deep
    for _ in range(40):
        node.append([])
        node = node[0]
    with pytest.raises(InputError) as e:
        api.read_text("x", loader(deep), "model")
    assert (e.value.code, e.value.field) == ("too_large", "model")
    for odd in ({"when": datetime.date(2024, 1, 1)}, {1: "int key"}, {"s": {1, 2}}, b"bytes"):
        with pytest.raises(InputError) as e:
            api.read_text("x", loader(odd), "model")
        assert e.value.code == "invalid_json", odd

    def broken(text):
        raise RuntimeError("a YAML error")

    with pytest.raises(InputError) as e:
        api.read_text("x", broken, "model")
    assert e.value.code == "invalid_json"
    with pytest.raises(InputError) as e:
        api.read_text("x" * (api.MAX_INPUT_CHARS + 1), loader({}), "model")
    assert e.value.code == "too_large"


# ---------------------------------------------------------------------------------------------------------------
# F5, F6, F10: the CLI
# ---------------------------------------------------------------------------------------------------------------
def cli(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "calculator", *args], cwd=ROOT, capture_output=True, timeout=timeout)


def config(tmp_path, text: str | bytes, name: str = "config.json") -> str:
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    return str(p)


def refused(p: subprocess.CompletedProcess, code: str, field: str = "model") -> None:
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 2 and "Traceback" not in err, err
    assert err.startswith(f"error: {code} ({field})"), err


@pytest.mark.slow          # a CLI subprocess per file
def test_config_refuses_devices_fifos_and_directories_without_reading(tmp_path) -> None:
    """F5: /dev/zero was read until MemoryError (exit 1), a FIFO waited for ever."""
    refused(cli(["--config", "/dev/zero"], timeout=20), "wrong_type")
    refused(cli(["--config", str(tmp_path)], timeout=20), "wrong_type")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(cli(["--config", str(fifo)], timeout=20), "wrong_type")
    refused(cli(["--config", str(tmp_path / "missing.json")], timeout=20), "missing_field")


@pytest.mark.slow          # a CLI subprocess reading a file past the limit
def test_config_reads_at_most_the_apis_input_limit(tmp_path) -> None:
    """F5: a 100 MB file took 26.5 s and 718 MB before being refused. A file longer than the limit is refused
    from its size (a sparse 1 GiB file here: nothing of it is read)."""
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(1 << 30)
    refused(cli(["--config", str(huge)], timeout=20), "too_large")
    assert MAX_CONFIG_BYTES == 4 * api.MAX_INPUT_CHARS + 3
    over = config(tmp_path, json.dumps({**TINY, "pad": "x" * api.MAX_INPUT_CHARS}))
    refused(cli(["--config", over]), "too_large")


@pytest.mark.slow          # a CLI subprocess per file
@pytest.mark.parametrize("text,code", [
    ("[" * 100_000 + "]" * 100_000, "too_large"),                         # F5: RecursionError traceback, exit 1
    (json.dumps(TINY)[:-1] + ', "x": NaN}', "invalid_json"),             # was "invalid_json (None)"
    (json.dumps(TINY).replace("100", "9" * 5000), "out_of_range"),       # was "Exceeds the limit (4300 digits)"
    ("\xff\xfe{", "invalid_json"),
    ("", "invalid_json"),
], ids=["nested-100000-deep", "nan-inside", "5000-digit-integer", "latin-1", "empty"])
def test_bad_config_files_get_their_code_and_exit_2(tmp_path, text, code) -> None:
    p = cli(["--config", config(tmp_path, text.encode("latin-1") if text.startswith("\xff") else text)])
    refused(p, code, "model.vocab_size" if code == "out_of_range" else "model")


def test_a_config_saved_with_a_bom_is_read(tmp_path) -> None:
    p = cli(["--config", config(tmp_path, b"\xef\xbb\xbf" + json.dumps(TINY).encode()), "--json"])
    assert p.returncode == 0 and json.loads(p.stdout)["ok"] is True


@pytest.mark.parametrize("flags,field", [
    (["--epochs", "nan"], "epochs"), (["--epochs", "inf"], "epochs"), (["--lora-dropout", "nan"], "lora_dropout"),
    (["--gpu-hour-price=-inf", "--gpu", "rtx-4090"], "gpu_hour_price"),
    (["--seq-len", "9" * 5000], "seq_len"),
], ids=["epochs-nan", "epochs-inf", "dropout-nan", "price-minus-inf", "seq-len-5000-digits"])
def test_flag_values_the_api_refuses_say_which(flags, field, capsys) -> None:
    """F5: `--epochs nan` said "invalid_json (None)", losing the field; a 5,000-digit integer flag was argparse's
    error."""
    assert main(["--model", "llama-3.1-8b", *flags]) == 2
    assert capsys.readouterr().err.startswith(f"error: out_of_range ({field})")


def test_the_text_output_escapes_what_a_config_would_send_the_terminal(tmp_path) -> None:
    """F6: a config's name was printed raw (screen clear, window title, colours); a lone surrogate in it ended in
    a UnicodeEncodeError traceback (F5)."""
    name = "\x1b[2J\x1b]0;pwned\x07\x1b[31mRED\u009b\ud800\u202eevil"
    p = cli(["--config", config(tmp_path, json.dumps({**TINY, "name": name}))])
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode("utf-8")
    assert not any(c in out for c in "\x1b\x07\x9b\u202e"), out[:200]
    assert out.startswith("\\x1b[2J\\x1b]0;pwned\\x07\\x1b[31mRED\\x9b\\ud800\\u202eevil — ")
    assert printable("Llama 3.1 8B — ×") == "Llama 3.1 8B — ×"


def test_a_price_of_minus_zero_is_zero(capsys) -> None:
    """F10: `--gpu-hour-price -0.0` printed "-0.00 USD at -0 USD/GPU-hour"."""
    # a setup that fits its card (the CLI prices only what can run)
    assert main(["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "h100-80gb", "--gpu-hour-price", "-0.0",
                 "--dataset-tokens", "1000000"]) == 0
    out = capsys.readouterr().out
    assert "Cost: 0 USD (0 USD per GPU-hour, reader)" in out and "-0" not in out
    r = api.answer({"model": "llama-3.1-8b", "gpu": "rtx-4090", "gpu_hour_price": -0.0, "dataset_tokens": 10**6,
                    "include": []})["result"]
    assert str(r["run"]["price_per_gpu_hour"]) == "0.0" and str(r["inputs"]["gpu_hour_price"]) == "0.0"


# ---------------------------------------------------------------------------------------------------------------
# F7: an accepted input is echoed; an input that can have no effect is refused
# ---------------------------------------------------------------------------------------------------------------
def test_workload_inputs_are_echoed_as_given_without_a_data_size() -> None:
    """F7: epochs and mean_tokens_per_example came back as 1.0 and null when no data size was given."""
    r = api.answer({"model": "llama-3.1-8b", "epochs": 3, "mean_tokens_per_example": 500, "include": []})["result"]
    assert (r["inputs"]["epochs"], r["inputs"]["mean_tokens_per_example"]) == (3.0, 500.0)
    again = api.answer({**r["inputs"], "model": "llama-3.1-8b", "include": []})["result"]
    assert again["inputs"] == r["inputs"]


def test_a_price_without_a_card_is_refused() -> None:
    """F7: the reader's price was accepted with no `gpu` and used nowhere (every card was priced from the
    catalogue). It is the price of an hour of `gpu`: without one there is nothing to price."""
    out = api.answer({"model": "llama-3.1-8b", "gpu_hour_price": 0.01, "dataset_tokens": 10**9,
                      "include": ["gpu_table"]})
    assert out["error"] == {"code": "contradiction", "field": "gpu_hour_price"}
    ok = api.answer({"model": "llama-3.1-8b", "gpu": "rtx-4090", "gpu_hour_price": 0.01, "include": ["gpu_table"]})
    row = next(r for r in ok["result"]["gpu_table"] if r["gpu"] == "rtx-4090")
    assert row["price_per_gpu_hour"] == 0.01 and row["price_source"] == "reader"   # with a card, it prices it


# ---------------------------------------------------------------------------------------------------------------
# F9: the typed layer checks itself (each field's type and lowest value); what needs the tables above it
# (an enum key's choices, a hand-made model read as a pasted config) is the check the API runs
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fields,code,field", [
    ({"cuda_context_bytes": -10**12}, "out_of_range", "cuda_context_bytes"),      # peak -914,879,230,772
    ({"num_gpus": 0, "sharding": Sharding.ZERO3}, "out_of_range", "num_gpus"),  # ZeroDivisionError
    ({"num_gpus": -2, "sharding": Sharding.ZERO3}, "out_of_range", "num_gpus"),  # allocated -1
    ({"lora_rank": -16, "method": Method.LORA}, "out_of_range", "lora_rank"),      # a negative breakdown entry
    ({"micro_batch_size": -4}, "out_of_range", "micro_batch_size"),
    ({"method": "lora"}, "wrong_type", "method"),                              # compared by identity: full FT
    ({"sharding": "zero3"}, "wrong_type", "sharding"),
    ({"seq_len": 2.5}, "wrong_type", "seq_len"),
    ({"seq_len": True}, "wrong_type", "seq_len"),                              # a bool is no number
    ({"gradient_checkpointing": 1}, "wrong_type", "gradient_checkpointing"),
    ({"lora_dropout": float("nan")}, "out_of_range", "lora_dropout"),
    ({"internode_gb_s": float("inf")}, "out_of_range", "internode_gb_s"),
    ({"grpo_num_generations": 1}, "out_of_range", "grpo_num_generations"),    # its lowest is 2
    ({"lora_targets": ()}, "out_of_range", "lora_targets"),
    ({"lora_targets": ("up", )}, "unknown_value", "lora_targets"),
    ({"lora_targets": ["up_proj"]}, "wrong_type", "lora_targets"),
    ({"model": "llama-3.1-8b"}, "wrong_type", "model"),
])
def test_a_setup_the_api_would_refuse_cannot_be_made(fields, code, field) -> None:
    with pytest.raises(InputError) as e:
        TrainingSetup(**{"model": MODELS["llama-3.1-8b"], **fields})
    assert (e.value.code, e.value.field) == (code, field)
    good = TrainingSetup(model=MODELS["llama-3.1-8b"])
    with pytest.raises(InputError) as by_replace:             # nor derived from a good one
        replace(good, **fields)
    with pytest.raises(InputError) as by_replaced:            # nor by the estimator's own copy of replace
        replaced(good, **fields)
    assert (by_replace.value.code, by_replace.value.field) == (by_replaced.value.code, by_replaced.value.field)


def test_a_setup_at_its_lowest_values_and_with_none_where_allowed_can_be_made() -> None:
    s = TrainingSetup(model=MODELS["llama-3.1-8b"], micro_batch_size=1, cuda_context_bytes=0, lora_dropout=0,
                      grpo_num_generations=2, gpus_per_node=None, internode_gb_s=0.1, vllm_gpu_memory_utilization=0.01)
    assert estimate(s).peak_bytes > 0


@pytest.mark.parametrize("fields,code,field", [
    ({"lora_dtype": Precision.MIXED}, "unknown_value", "lora_dtype"),
    ({"model": replace(MODELS["llama-3.1-8b"], hidden_size=-4096)}, "out_of_range", "model.hidden_size"),
    ({"model": replace(MODELS["mixtral-8x7b"], num_experts_per_tok=9)}, "contradiction", "model.num_experts_per_tok"),
])
def test_what_the_setup_cannot_know_alone_is_refused_by_the_apis_check(fields, code, field) -> None:
    with pytest.raises(InputError) as e:
        check_setup(TrainingSetup(**{"model": MODELS["llama-3.1-8b"], **fields}))
    assert (e.value.code, e.value.field) == (code, field)


def test_the_api_runs_the_setup_check_on_every_setup_it_reads(monkeypatch) -> None:
    """The check is the boundary's: a request is refused with the check's code and field (here made to refuse
    every setup, so that a request the per-key reading lets through shows where the check runs)."""
    def refuse(setup):
        raise InputError("out_of_range", "seq_len")
    monkeypatch.setattr(api, "check_setup", refuse)
    out = api.answer({"model": "llama-3.1-8b"})
    assert out["ok"] is False and out["error"] == {"code": "out_of_range", "field": "seq_len"}, out


def test_a_setup_beyond_the_apis_highest_values_is_still_a_setup() -> None:
    """The API's highest values bound what it reads; the estimator itself derives setups beyond them (DPO's two
    sequences per example in the time model), and a Python caller may too: the figures stay defined."""
    s = TrainingSetup(model=MODELS["llama-3.2-1b"], micro_batch_size=100_000, grad_accum_steps=10**7)
    assert estimate(s).peak_bytes > 0


def test_no_string_of_the_package_holds_a_lone_surrogate() -> None:
    """Pyodide cannot import a module with a lone surrogate among its constants (a docstring's "\\ud800" written
    without its backslash escaped): the page's worker would fail to start while every CPython test passed."""
    def constants(code):
        for c in code.co_consts:
            if isinstance(c, str):
                yield c
            elif hasattr(c, "co_consts"):
                yield from constants(c)

    for path in sorted((ROOT / "calculator").rglob("*.py")):
        code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
        bad = [c[:60] for c in constants(code) if any(0xD800 <= ord(ch) <= 0xDFFF for ch in c)]
        assert not bad, f"{path.relative_to(ROOT)}: {bad}"


# ---------------------------------------------------------------------------------------------------------------
# R3 (review of 2026-12-07, issue 36): a JSON text nested deeper than the limit never reaches the decoder, on every
# path the page and the CLI read JSON by. In the page's WebAssembly the decoder's recursion overflows the JavaScript
# stack near 8,000 levels, before Python's recursion limit can raise, and the runtime is dead for every later call
# (tests/docs/test_pyodide_guards.py runs it there); here the decoder is watched.
# ---------------------------------------------------------------------------------------------------------------
AXO = "base_model: meta-llama/Llama-3.1-8B\nmicro_batch_size: 2\n"


@pytest.fixture
def decoded(monkeypatch) -> list[str]:
    """Every text the JSON decoder is given (``api._loads``, which ``api.read_json`` calls)."""
    seen: list[str] = []
    real = api._loads

    def watched(text: str):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(api, "_loads", watched)
    return seen


def _read_json(deep: str, tmp_path) -> tuple[str, object]:
    with pytest.raises(InputError) as e:
        api.read_json(deep, "model")
    return deep, (e.value.field, e.value.code)


def _request(deep: str, tmp_path) -> tuple[str, object]:
    text = '{"model": ' + deep + "}"
    return text, [(e["field"], e["code"]) for e in json.loads(api.answer_text(text))["errors"]]


def _paste(deep: str, tmp_path) -> tuple[str, object]:
    return deep, refusals(paste(deep))


def _render_message(deep: str, tmp_path) -> tuple[str, object]:
    return deep, refusals(json.loads(PAGE.render(deep)))


def _run_message(deep: str, tmp_path) -> tuple[str, object]:
    return deep, refusals(json.loads(PAGE.run(deep)))


def _search_message(deep: str, tmp_path) -> tuple[str, object]:
    return deep, json.loads(PAGE.search(deep))["ok"]


def _hub_message(deep: str, tmp_path) -> tuple[str, object]:
    return deep, json.loads(PAGE.hub(deep))["ok"]


def _hub_reply(deep: str, tmp_path) -> tuple[str, object]:
    """A config.json the Hub (the page's button, the CLI's --fetch) answers with: read as a paste is."""
    from calculator import hub

    return deep, hub.step("acme/x", {hub.url("acme/x"): {"status": 200, "text": deep}})


def _import_box(deep: str, tmp_path) -> tuple[str, object]:
    out = json.loads(PAGE.run(json.dumps({"action": "import", "kind": "estimator",
                                          "files": {"main": AXO, "deepspeed": deep}})))
    return deep, [(e["field"], e["code"], "ds_config.json" in e["message"]) for e in out["errors"]]


def _answer_read(deep: str, tmp_path) -> tuple[str, object]:
    from calculator.export import answer_read

    out = answer_read({"target": "auto", "files": {"config.yaml": AXO, "ds_config.json": deep}})
    return deep, [(e["file"], e["code"]) for e in out["errors"]]


def _cli_config(deep: str, tmp_path) -> tuple[str, object]:
    return deep, _main(["--config", config(tmp_path, deep)])


def _cli_import(deep: str, tmp_path) -> tuple[str, object]:
    return deep, _main(["--import", config(tmp_path, AXO, "axolotl.yaml"),
                        "--import", config(tmp_path, deep, "ds_config.json")])


def _main(args: list[str]) -> tuple[int, str, str]:
    """The CLI in this process (the decoder watched): its exit status, the code and field it names, and the rest."""
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(args)
    _, said, rest = (err.getvalue().splitlines()[0] + ": ").split(": ", 2)
    return rc, said, rest.split(":")[0]


@pytest.mark.parametrize("depth", [3000, 10_000])
@pytest.mark.parametrize("path,answer", [
    (_read_json, ("model", "too_large")),
    (_request, [(None, "too_large")]),
    (_paste, [("model", "too_large")]),
    (_render_message, [(None, "too_large")]),
    (_run_message, [(None, "too_large")]),              # was internal_error
    (_search_message, False),
    (_hub_message, False),
    (_hub_reply, {"error": "too_large", "repo": "acme/x"}),
    (_import_box, [("import.main", "too_large", True)]),
    (_answer_read, [("ds_config.json", "too_large")]),
    (_cli_config, (2, "too_large (model)", "--config ")),
    (_cli_import, (2, "too_large (None)", "in ds_config.json")),
], ids=["api.read_json", "request", "pasted-config.json", "render-message", "run-message", "search-message",
        "hub-message", "hub-reply", "import-box-deepspeed", "answer_read-deepspeed", "cli-config", "cli-import-deepspeed"])
def test_deep_json_is_refused_before_the_decoder_sees_it(path, answer, depth, decoded, tmp_path) -> None:
    deep = "[" * depth + "]" * depth
    text, got = path(deep, tmp_path)
    if path is _cli_config:
        got = got[:2] + (got[2][:len("--config ")],)          # then the file's path
    assert got == answer
    assert text not in decoded


def test_the_depth_count_is_exact_for_json_and_never_below_the_decoders() -> None:
    """``api.check_depth`` counts brackets outside strings: those inside a string, escaped quotes included, are
    text; the deepest JSON the tree check accepts (33 brackets, the innermost empty) passes; one more is refused."""
    assert api.check_depth("[" * 33 + "]" * 33) and api.read_json("[" * 33 + "]" * 33) == \
        json.loads("[" * 33 + "]" * 33)
    with pytest.raises(InputError):
        api.check_depth("[" * 34 + "]" * 34, "model")
    for text in ['["' + "[" * 100 + '"]', '{"a": "' + "{" * 100 + '"}', '["\\"' + "[" * 100 + '"]',
                 '["\\\\", ' + '"' + "[" * 100 + '"]']:
        assert api.read_json(text) == json.loads(text)
    with pytest.raises(InputError) as e:       # an escaped quote does not end the string: the brackets after count
        api.read_json('["\\\\", ' + "[" * 100 + "1" + "]" * 100 + "]", "model")
    assert e.value.code == "too_large"
