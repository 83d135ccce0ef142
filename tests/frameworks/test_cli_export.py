"""``python -m calculator --export TARGET --out DIR`` and ``--import FILE``, and the exporters' JSON boundary
(``calculator.export.answer_export`` / ``answer_read``): the files the CLI writes are the export's, under its names,
with cannot_express.json beside them; an imported file fills the request, flags win over it; every failure is a
code and exit status 2."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from calculator import api
from calculator.__main__ import CANNOT_FILE, main, read_text_file
from calculator.errors import FileRefused
from calculator.export import answer_export, answer_read, export
from calculator.page.text import STRING_TABLES
from export_grid import words

pytestmark = pytest.mark.unit

QLORA_2X = ["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "rtx-4090", "--num-gpus", "2",
            "--sharding", "zero3", "--seq-len", "4096", "--gradient-checkpointing"]
QLORA_2X_REQ = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090", "num_gpus": 2, "sharding": "zero3",
                "seq_len": 4096, "gradient_checkpointing": True}


def test_export_writes_the_targets_files_and_what_it_cannot_express(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    assert main([*QLORA_2X, "--export", "trl", "--out", str(out)]) == 0
    e = export(QLORA_2X_REQ, "trl", text=words("en"))
    assert sorted(p.name for p in out.iterdir()) == sorted([*e.files, CANNOT_FILE])
    for name, text in e.files.items():
        if name.endswith(".yaml"):                      # the header names the estimate in the CLI's own words
            lines = (out / name).read_text(encoding="utf-8").splitlines()
            assert lines[0].startswith("# Validated against trl 1.16.0")
            assert lines[2:] == text.splitlines()[2:], name
        else:
            assert (out / name).read_text(encoding="utf-8") == text, name
    cannot = json.loads((out / CANNOT_FILE).read_text(encoding="utf-8"))
    assert cannot["target"] == "trl" and cannot["framework_version"] == "1.16.0"
    assert [c["key"] for c in cannot["cannot_express"]] == [c.key for c in e.cannot_express]
    fused = next(c for c in cannot["cannot_express"] if c["key"] == "fused_linear_cross_entropy")
    assert fused["becomes"] is True and fused["reason"] == "trl_fused_lm_head_always"
    assert fused["reason_text"] == json.loads((STRING_TABLES / "en.json").read_text(encoding="utf-8"))[
        "calc"]["run"]["reasons"]["trl_fused_lm_head_always"]
    assert fused["what_to_do"] == "none" and fused["what_to_do_text"] is None     # nothing for the reader to do
    printed = capsys.readouterr().out
    assert str(out / "sft.yaml") in printed and "cannot express fused_linear_cross_entropy" in printed


def test_the_header_names_the_estimate_the_files_reach(tmp_path) -> None:
    assert main([*QLORA_2X, "--export", "trl", "--out", str(tmp_path)]) == 0
    adjusted = export(QLORA_2X_REQ, "trl").request
    r = api.answer({**adjusted, "include": []})["result"]
    from calculator.page.text import fmt_bytes
    header = (tmp_path / "sft.yaml").read_text(encoding="utf-8").splitlines()[1]
    assert header.startswith("# Estimate: Llama 3.1 8B, QLoRA (4-bit): peak ")
    assert f"peak {fmt_bytes(r['peak_bytes_per_gpu'])[0]} per GPU" in header and "2 x NVIDIA GeForce RTX 4090" in header


def test_import_reads_the_files_back_and_flags_win(tmp_path, capsys) -> None:
    assert main([*QLORA_2X, "--export", "trl", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    files = ["--import", str(tmp_path / "sft.yaml"), "--import", str(tmp_path / "accelerate.yaml")]
    assert main([*files, "--gpu", "rtx-4090", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    adjusted = export(QLORA_2X_REQ, "trl").request
    for key in ("method", "num_gpus", "sharding", "seq_len", "gradient_checkpointing", "double_quant"):
        assert out["result"]["inputs"][key] == adjusted[key], key
    assert out["imported"]["target"] == "trl" and out["result"]["model"]["id"] == "llama-3.1-8b"
    assert main([*files, "--gpu", "rtx-4090", "--seq-len", "1024", "--num-gpus", "4", "--json"]) == 0
    inputs = json.loads(capsys.readouterr().out)["result"]["inputs"]
    assert (inputs["seq_len"], inputs["num_gpus"], inputs["sharding"]) == (1024, 4, "zero3")


def test_import_then_export_to_another_target(tmp_path) -> None:
    assert main([*QLORA_2X, "--export", "trl", "--out", str(tmp_path / "trl")]) == 0
    assert main(["--import", str(tmp_path / "trl" / "sft.yaml"), "--import", str(tmp_path / "trl" / "accelerate.yaml"),
                 "--gpu", "rtx-4090", "--export", "axolotl", "--out", str(tmp_path / "ax")]) == 0
    assert (tmp_path / "ax" / "axolotl.yaml").is_file() and (tmp_path / "ax" / CANNOT_FILE).is_file()


@pytest.mark.parametrize("argv, code, field", [
    (["--model", "llama-3.1-8b", "--export", "trl"], "missing_field", "out"),
    (["--model", "llama-3.1-8b", "--out", "x"], "contradiction", "out"),
    (["--model", "nope", "--export", "trl", "--out", "{tmp}"], "unknown_model", "model"),
    (["--model", "llama-3.1-8b", "--sharding", "zero3", "--export", "trl", "--out", "{tmp}"], "contradiction",
     "sharding"),
    (["--import", "{tmp}/missing.yaml"], "missing_field", "import"),
    (["--import", "{tmp}"], "wrong_type", "import"),
    (["--import", "{tmp}/bad.yaml"], "invalid_yaml", "line 2"),
    (["--import", "{tmp}/unknown.yaml"], "missing_field", "model"),
    (["--model", "llama-3.1-8b", "--export", "trl", "--out", "{tmp}/bad.yaml"], "wrong_type", "out"),
])
def test_every_failure_is_a_code_and_exit_2(argv, code, field, tmp_path, capsys) -> None:
    (tmp_path / "bad.yaml").write_text("a: [1\n")
    (tmp_path / "unknown.yaml").write_text("model_name_or_path: someone/some-model\nuse_peft: true\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    assert f"error: {code} ({field})" in capsys.readouterr().err


# --- R9: --export never writes through a planted link, says what it replaced, and keeps no stale companions silently
ONE_GPU = ["--model", "llama-3.1-8b", "--method", "lora", "--gpu", "h100-80gb", "--export", "trl"]
TWO_GPUS = [*ONE_GPU, "--num-gpus", "2", "--sharding", "zero2"]        # adds accelerate.yaml and ds_config.json


def test_a_link_planted_under_any_name_is_never_written_through(tmp_path) -> None:
    """A world-writable folder may hold links under the names the export writes or once wrote as temporaries (the
    review's R9: sft.yaml.tmp -> victim replaced the victim and left sft.yaml a link)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("do not overwrite\n")
    out = tmp_path / "out"
    out.mkdir()
    for name in ("sft.yaml.tmp", "measure.py.tmp", "cannot_express.json.tmp", "sft.yaml"):
        (out / name).symlink_to(victim)
    assert main([*ONE_GPU, "--out", str(out)]) == 0
    assert victim.read_text() == "do not overwrite\n"
    for name in ("sft.yaml", "measure.py", CANNOT_FILE):
        assert not (out / name).is_symlink() and (out / name).is_file(), name
    assert (out / "sft.yaml").read_text(encoding="utf-8").startswith("# Validated against trl")
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]          # no temporary left behind


def test_the_files_it_replaces_are_named(tmp_path, capsys) -> None:
    assert main([*ONE_GPU, "--out", str(tmp_path)]) == 0
    assert "replaced" not in capsys.readouterr().out
    assert main([*ONE_GPU, "--out", str(tmp_path)]) == 0                  # the same export again: no refusal
    printed = capsys.readouterr().out
    assert f"{tmp_path / 'sft.yaml'} (replaced the file there)" in printed
    assert main([*ONE_GPU, "--out", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["replaced"]) == sorted(out["export"]["files"]) and out["left"] == []


def test_another_exports_companions_are_refused_unless_forced(tmp_path, capsys) -> None:
    """A 2-GPU DeepSpeed export, then a 1-GPU one into the same folder: the old accelerate.yaml and ds_config.json
    would sit beside the new sft.yaml (R9). Refused before anything is written; --force writes and names them."""
    assert main([*TWO_GPUS, "--out", str(tmp_path)]) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert {"accelerate.yaml", "ds_config.json"} <= set(before)
    capsys.readouterr()
    assert main([*ONE_GPU, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "error: contradiction (out)" in err and "accelerate.yaml, ds_config.json" in err and "--force" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before          # nothing written
    assert main([*ONE_GPU, "--out", str(tmp_path), "--force"]) == 0
    assert "left as they were (another export's, not this setup's): accelerate.yaml, ds_config.json" in \
        capsys.readouterr().out
    assert json.loads((tmp_path / CANNOT_FILE).read_text(encoding="utf-8"))["files"] == ["sft.yaml", "measure.py"]
    assert main([*ONE_GPU, "--out", str(tmp_path)]) == 0         # the folder now holds this export's own files


def test_a_folder_of_the_readers_own_files_is_written_into(tmp_path) -> None:
    """Only an earlier export's files count: a folder with the reader's data and no export in it is no conflict."""
    (tmp_path / "train.jsonl").write_text("{}\n")
    (tmp_path / "outputs").mkdir()
    assert main([*ONE_GPU, "--out", str(tmp_path)]) == 0
    assert (tmp_path / "train.jsonl").read_text() == "{}\n"


def test_force_goes_with_export(capsys) -> None:
    assert main(["--model", "llama-3.1-8b", "--force"]) == 2
    assert "error: contradiction (force)" in capsys.readouterr().err


def test_a_fifo_or_an_endless_device_is_refused_without_reading() -> None:
    with pytest.raises(FileRefused) as info:
        read_text_file("/dev/zero")
    assert info.value.code == "wrong_type"
    fifo = Path(os.environ.get("TMPDIR", "/tmp")) / f"export2-fifo-{os.getpid()}"
    os.mkfifo(fifo)
    try:
        with pytest.raises(FileRefused) as info:
            read_text_file(str(fifo))        # would block for ever if opened
        assert info.value.code == "wrong_type"
    finally:
        fifo.unlink()


def test_the_reader_reads_no_more_than_its_limit(tmp_path) -> None:
    p = tmp_path / "big.yaml"
    p.write_text("a: " + "x" * 200)
    assert read_text_file(str(p), limit=300).startswith("a: x")
    with pytest.raises(FileRefused) as info:
        read_text_file(str(p), limit=100)
    assert info.value.code == "too_large"
    p.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_text_file(str(p)) == "a: 1\n"                 # a BOM is allowed
    p.write_bytes(b"a: \xff\n")
    with pytest.raises(FileRefused) as info:
        read_text_file(str(p))
    assert info.value.code == "wrong_type"


# ---------------------------------------------------------------------------------------------------------------
# The JSON boundary
# ---------------------------------------------------------------------------------------------------------------
def test_answer_export_is_the_export_as_json() -> None:
    req = {"model": "llama-3.1-8b", "method": "lora", "gpu": "h100-80gb"}
    out = answer_export({"target": "axolotl", "request": req})
    assert out["ok"] and out["export"] == export(req, "axolotl").as_json()
    json.dumps(out)


@pytest.mark.parametrize("obj, code, field", [
    ([], "not_an_object", None),
    ({"target": "megatron", "request": {"model": "llama-3.1-8b"}}, "unknown_target", "target"),
    ({"target": "trl", "request": "x"}, "not_an_object", "request"),
    ({"target": "trl", "request": {"model": "llama-3.1-8b", "seq_len": -1}}, "out_of_range", "seq_len"),
    ({"target": "trl", "request": {"model": "llama-3.1-8b"}, "text": {"run": 3}}, "wrong_type", "text"),
])
def test_answer_export_refuses_with_codes(obj, code, field) -> None:
    out = answer_export(obj)
    assert not out["ok"] and out["error"] == {"code": code, "field": field}


def test_answer_read_gives_the_request_and_the_unread_keys() -> None:
    text = "model_name_or_path: meta-llama/Llama-3.1-8B\nuse_peft: true\nlearning_rate: 2.0e-4\nseed: 3\n"
    out = answer_read({"files": {"sft.yaml": text}})
    assert out["ok"] and out["read"]["target"] == "trl" and out["read"]["request"]["method"] == "lora"
    assert {u["key"] for u in out["read"]["unread"]} == {"learning_rate", "seed"}


@pytest.mark.parametrize("obj, code", [
    ("x", "not_an_object"),
    ({"files": {}}, "missing_field"),
    ({"files": {"a.yaml": 3}}, "wrong_type"),
    ({"files": {f"{i}.yaml": "a: 1" for i in range(5)}}, "too_large"),
    ({"target": "megatron", "files": {"a.yaml": "a: 1"}}, "unknown_target"),
    ({"files": {"a.yaml": "a: [1"}}, "invalid_yaml"),
    ({"files": {"a.json": "{\"a\": NaN}"}}, "invalid_json"),
    ({"files": {"a.json": "[" * 40 + "]" * 40}}, "too_large"),
    ({"files": {"a.yaml": "a:\n" + "".join("  " * (i + 1) + "-\n" for i in range(40)) + "  " * 41 + "x\n"}},
     "too_large"),
    ({"files": {"a.yaml": "a: " + "[" * 40 + "]" * 40}}, "too_large"),
    ({"files": {"a.yaml": "x: " + "y" * (api.MAX_INPUT_CHARS + 1)}}, "too_large"),
    ({"files": {"train.py": "x = " + "(" * 60 + ")" * 60}}, "too_large"),
])
def test_answer_read_refuses_with_codes(obj, code) -> None:
    out = answer_read(obj)
    assert not out["ok"] and out["error"]["code"] == code, out


def test_an_alias_bomb_is_too_large_not_slow() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    out = answer_read({"files": {"sft.yaml": "\n".join(lines) + "\n"}})   # 9^9 values once the aliases are followed
    assert not out["ok"] and out["error"]["code"] == "too_large"


def test_the_cli_says_the_peak_the_files_reach_as_their_framework_runs_them(tmp_path, capsys) -> None:
    """Where the target cannot express a key that changes the peak (TRL always fuses the loss), the CLI prints the
    files' peak under TRL's name and version and the request's own beside it; where it can, only the one peak."""
    from calculator.page.text import fmt_bytes
    unfused = ["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "rtx-4090"]      # framework none: no fusing
    assert main([*unfused, "--export", "trl", "--out", str(tmp_path / "trl")]) == 0
    request = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090"}
    reached = api.answer({**export(request, "trl").request, "include": []})["result"]["peak_bytes_per_gpu"]
    asked = api.answer({**request, "include": []})["result"]["peak_bytes_per_gpu"]
    assert reached < asked
    printed = capsys.readouterr().out
    assert f"as trl 1.16.0 runs them: peak {fmt_bytes(reached)[0]} per GPU (the request's own: " \
           f"{fmt_bytes(asked)[0]};" in printed, printed
    assert main([*unfused, "--export", "axolotl", "--out", str(tmp_path / "axolotl")]) == 0
    printed = capsys.readouterr().out
    assert f"as axolotl 0.21.0 runs them: peak {fmt_bytes(asked)[0]} per GPU\n" in printed, printed
