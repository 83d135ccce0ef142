"""Exports for the whole grid, read back: the round trip, the refusals, the headers, the placeholders, the comments.

Pure Python (the package and PyYAML); the frameworks' own checks of the same files are in test_checks.py.
"""
from __future__ import annotations

import ast
import json

import pytest
import yaml

from calculator import api, frameworks
from calculator.errors import InputError
from calculator.catalog import GPUS
from calculator.export import TARGETS, export, read, relevant
from export_grid import CUSTOM_MODEL, GRID, REFUSED, words

pytestmark = pytest.mark.unit


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def strip_comments(files: dict[str, str]) -> dict[str, str]:
    """Every file without its comments (and a script without its docstrings), so a header cannot carry the answer."""
    out = {}
    for name, text in files.items():
        if name.endswith(".py"):
            tree = ast.parse(text)
            for node in ast.walk(tree):
                body = getattr(node, "body", None)
                if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                        body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                    body.pop(0)
                    if not body:
                        body.append(ast.Pass())
            out[name] = ast.unparse(tree)              # ast keeps no comment
        elif name.endswith(".json"):
            out[name] = text
        else:
            # libyaml's safe loader and dumper where PyYAML has them: the same YAML 1.1, read and written in C
            out[name] = yaml.dump(yaml.load(text, Loader=_LOADER), Dumper=_DUMPER, sort_keys=False)
    return out


def _pastes(files: dict[str, str]) -> list[dict[str, str]]:
    """What a reader pastes: the training file with its companions (the measuring file and TRL GRPO's fixed
    placeholder reward are no configs); the Unsloth CLI YAML on its own."""
    main = {n: t for n, t in files.items() if n not in ("measure.py", "reward.py", "unsloth.yaml")}
    return [main] + ([{"unsloth.yaml": files["unsloth.yaml"]}] if "unsloth.yaml" in files else [])


@pytest.mark.slow          # 3-4 s a target: every file written, then read back through the parser
@pytest.mark.parametrize("target", TARGETS)
def test_reading_an_export_gives_back_its_request(target: str) -> None:
    failures = []
    for rid, req in GRID:
        e = export(req, target)
        want = relevant(e.request)
        for paste in _pastes(e.files):
            r = read(target, strip_comments(paste))
            got = relevant(r.request or {})
            if rid == "custom-model":          # a pasted config.json has no Hub id: the file says <EDIT: model>
                assert r.request is not None and "model" not in r.request, (rid, r)
                got = dict(got, **{k: want[k] for k in want if k not in got})
            diff = {k: (want.get(k), got.get(k)) for k in set(want) | set(got)
                    if want.get(k) != got.get(k)}
            if r.errors or diff:
                failures.append((rid, sorted(paste), r.errors, diff))
    assert not failures, failures[:5]


@pytest.mark.parametrize("target", TARGETS)
def test_every_changed_key_is_listed(target: str) -> None:
    """A key the file gives another value than the request asked is a cannot-express entry or a same-regime
    adjustment: never changed silently. Cannot-express entries carry the value asked and the one given."""
    for rid, req in GRID:
        e = export(req, target)
        original = relevant(api.inputs_json(api.parse_request(req)[0]) | {"epochs": float(req.get("epochs", 1.0))})
        listed = {c.key for c in e.cannot_express} | {a[0] for a in e.adjustments}
        changed = {k for k, v in relevant(e.request).items() if k in original and _norm(original[k]) != _norm(v)}
        assert changed <= listed, (target, rid, changed - listed)
        for c in e.cannot_express:
            assert c.value != c.becomes and c.reason and c.what_to_do, (rid, c)
            assert _norm(e.request[c.key]) == _norm(c.becomes), (rid, c)


def _norm(v):
    return list(v) if isinstance(v, tuple) else v


@pytest.mark.parametrize("target", TARGETS)
def test_requests_the_estimator_refuses_are_refused(target: str) -> None:
    assert REFUSED, "the grid must hold refused combinations"
    for rid, req in REFUSED:
        with pytest.raises(InputError):
            export(req, target)


@pytest.mark.parametrize("target", TARGETS)
def test_files_headers_placeholders_and_measuring_lines(target: str) -> None:
    english = words("en")
    for rid, req in GRID:
        e = export(req, target, text=english)
        for name, text in e.files.items():
            if name.endswith(".json"):
                json.loads(text)                        # accelerate reads it with json.load: no comment
                continue
            if name in ("measure.py", "reward.py"):       # fixed files, the same for every export
                continue
            lines = text.splitlines()
            assert lines[0].startswith("# Validated against ") and "." in lines[0], (rid, name)
            for package, version in _stack(target).items():
                assert f"{package} {version}" in lines[0], (rid, name, package)
            assert lines[1].startswith("# Estimate: "), (rid, name)
            if name in ("accelerate.yaml",):
                continue
            assert " GB per GPU (peak_bytes_per_gpu" in lines[1], (rid, lines[1])
            gpu = GPUS[req["gpu"]].name if "gpu" in req else "-"
            assert f"x {gpu}" in lines[1], (rid, lines[1])
            edits = [ln for ln in lines if "<EDIT:" in ln and not ln.startswith("#")]
            kinds = {"dataset", "output dir"} | ({"model"} if rid == "custom-model" else set())
            if name == "llamafactory.yaml":      # its dataset's EDIT is in the generated dataset_info.json
                kinds.discard("dataset")
                assert "<EDIT: dataset>" in e.files["dataset_info.json"], rid
            assert {ln.split("<EDIT: ")[1].split(">")[0] for ln in edits} == kinds, (rid, name, edits)
        assert "allocated_bytes" in "".join(e.files.values()) and "max_memory_reserved" in "".join(
            e.files.values()), (rid, target)


def _stack(target: str) -> dict[str, str]:
    return dict(frameworks.get(target).stack)


def test_framework_defaults_that_differ_are_written_with_a_reason() -> None:
    """The issue's regimes: TRL's fp32 load, BitsAndBytesConfig's no double quantisation, TRL's checkpointing on,
    FSDP2 with uint8 storage, LLaMA-Factory's checkpointing on: each written explicitly, with its comment."""
    req = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-a6000", "num_gpus": 2, "sharding": "zero3"}
    text = export(req, "trl", text=words("en")).files["sft.yaml"]
    line = {ln.split(":")[0]: ln for ln in text.splitlines() if not ln.startswith("#") and ":" in ln}
    assert line["dtype"].startswith("dtype: bfloat16  # TRL loads in float32 by default")
    assert line["use_bnb_nested_quant"].startswith("use_bnb_nested_quant: true  # ")
    assert line["bnb_4bit_quant_storage"].startswith("bnb_4bit_quant_storage: bfloat16  # ")
    assert line["activation_checkpointing"].startswith("activation_checkpointing: false  # ")
    lf = export({"model": "llama-3.1-8b", "method": "lora"}, "llamafactory", text=words("en")).files[
        "llamafactory.yaml"]
    assert any(ln.startswith("disable_gradient_checkpointing: true  # ") for ln in lf.splitlines())


def test_the_caller_passes_the_estimate_and_the_words() -> None:
    req = {"model": "llama-3.1-8b", "method": "lora"}
    summary = {"model": "M", "method": "LoRA", "peak": "1.5 GB", "statistic": "S", "count": 3, "gpu": "G"}
    table = dict(words("en"), estimate="Estimation : {model}, {peak} ({statistic}), {count} x {gpu}")
    text = export(req, "trl", summary=summary, text=table).files["sft.yaml"]
    assert text.splitlines()[1] == "# Estimation : M, 1.5 GB (S), 3 x G"


def test_every_catalogue_gpu_has_capabilities() -> None:
    from calculator.export._common import GPU_CAPS
    assert set(GPU_CAPS) == set(GPUS)


def test_unknown_target_and_custom_model() -> None:
    with pytest.raises(KeyError):
        export({"model": "llama-3.1-8b"}, "megatron")
    e = export({"model": CUSTOM_MODEL, "method": "lora"}, "axolotl")
    assert "base_model: \"<EDIT: model>\"" in e.files["axolotl.yaml"]


@pytest.mark.parametrize("target", TARGETS)
def test_the_files_estimate_is_their_frameworks_and_every_key_is_written(target: str) -> None:
    """The request an export realises names its target framework, so the estimate beside the files is that
    framework's (its id and version in the answer); and because every key is written, the framework's defaults fill
    nothing: the figures are those of the same keys without the framework."""
    for rid, req in GRID:
        adjusted = {**export(req, target).request, "include": []}
        assert adjusted["framework"] == target, rid
        named = api.answer(adjusted)
        unnamed = api.answer({k: v for k, v in adjusted.items() if k != "framework"})
        assert named["ok"] and unnamed["ok"], (rid, named.get("error"))
        fw = named["result"]["framework"]
        assert (fw["id"], fw["version"]) == (target, frameworks.get(target).version), rid
        assert fw["defaults"] == [], (rid, fw["defaults"])
        for key in ("peak_bytes_per_gpu", "allocated_bytes", "reserved_bytes", "host_ram_bytes", "throughput"):
            assert named["result"].get(key) == unnamed["result"].get(key), (rid, key)
