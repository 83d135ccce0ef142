"""Honest instructions beside the exported files (issue 38, "What must hold" 5; reviews/export.md section 4 and
defect 8: "Only the values marked EDIT need editing" was untrue): every value a user must change is marked EDIT
(dataset, its format or chat template, output dir), LLaMA-Factory's dataset registration is generated beside its
YAML, the install is said with the validated versions, the Hub login for exactly the gated models, and every target
writes the learning rate its framework's own examples use for the method."""
from __future__ import annotations

import ast
import json
import re

import pytest
import yaml

from calculator import catalog, frameworks
from calculator.export import TARGETS, answer_export, answer_read
from sitebuild.strings import calc_strings

pytestmark = pytest.mark.unit

EN = calc_strings("en")["run"]["comments"]
AR = calc_strings("ar")["run"]["comments"]
#: One setup per method and trainer, on one GPU and on two with each sharding.
SETUPS = [
    {"model": "qwen3-8b", "method": "lora"},
    {"model": "qwen3-8b", "method": "qlora", "dpo": True},
    {"model": "qwen3-8b", "method": "full", "num_gpus": 2, "sharding": "zero2", "deepspeed": True},
    {"model": "qwen3-8b", "method": "qlora", "num_gpus": 2, "sharding": "zero3", "optimizer": "paged_adamw_8bit"},
    {"model": "qwen3-8b", "method": "lora", "attention": "flash", "gpu": "h100-80gb"},
]


def _files(target: str, request: dict, text: dict | None = EN) -> dict[str, str]:
    answer = answer_export({"target": target, "request": request, "text": text})
    assert answer["ok"], answer
    return answer["export"]["files"]


def _main(target: str, files: dict[str, str]) -> str:
    return next(n for n in ("sft.yaml", "dpo.yaml", "axolotl.yaml", "llamafactory.yaml", "train.py") if n in files)


def _line(text: str, key: str) -> str:
    """The line of a YAML (or a script) that sets ``key`` (an item of a list starts with ``- ``)."""
    found = [ln for ln in text.splitlines() if re.match(rf"\s*(- )?{re.escape(key)}\s*[:=]", ln)]
    assert len(found) == 1, (key, found)
    return found[0]


# --- every value to change is marked ------------------------------------------------------------------------------
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("request_", SETUPS, ids=range(len(SETUPS)))
def test_every_placeholder_is_marked_edit_on_its_line(target: str, request_: dict) -> None:
    for name, text in _files(target, request_).items():
        for ln in text.splitlines():
            if "<EDIT" in ln and not name.endswith(".json"):     # JSON has no comments: the YAML's header says it
                assert "# EDIT:" in ln, (target, name, ln)


@pytest.mark.parametrize("dpo", [False, True])
def test_the_formats_and_templates_the_user_must_choose_are_marked(dpo: bool) -> None:
    """Axolotl's ``datasets[].type`` and LLaMA-Factory's ``template`` are the user's data's and model's: the review
    found them fixed and unmarked (alpaca / chatml.intel, default)."""
    request = {"model": "llama-3.1-8b", "method": "lora", "dpo": dpo}
    assert "# EDIT:" in _line(_files("axolotl", request)["axolotl.yaml"], "type")
    assert "# EDIT:" in _line(_files("llamafactory", request)["llamafactory.yaml"], "template")
    for target in ("trl", "unsloth"):          # no format key: the header says which columns the data needs
        files = _files(target, request)
        assert EN["data_dpo" if dpo else ("data_trl_sft" if target == "trl" else "data_unsloth_sft")] in \
            files[_main(target, files)]


# --- LLaMA-Factory's dataset_info.json ----------------------------------------------------------------------------
@pytest.mark.parametrize("request_", SETUPS, ids=range(len(SETUPS)))
def test_llamafactory_registers_the_dataset_its_yaml_names(request_: dict) -> None:
    files = _files("llamafactory", request_)
    cfg = yaml.safe_load(files["llamafactory.yaml"])
    info = json.loads(files["dataset_info.json"])
    assert cfg["dataset_dir"] == "."                  # the folder the run starts in, which holds dataset_info.json
    assert list(info) == [cfg["dataset"]]
    entry = info[cfg["dataset"]]
    assert entry["hf_hub_url"].startswith("<EDIT")
    dpo = bool(request_.get("dpo"))
    assert entry.get("ranking", False) is dpo         # LLaMA-Factory's preference format: chosen and rejected
    assert ({"chosen", "rejected"} <= set(entry["columns"])) is dpo
    assert ("response" in entry["columns"]) is not dpo
    assert "dataset_info.json" in files["llamafactory.yaml"].split("\nmodel_name_or_path")[0]   # said in the header


def test_a_pasted_llamafactory_export_with_its_dataset_info_reads_back() -> None:
    """The registry is a companion the reader passes over (it was an unknown file, refusing the whole paste)."""
    yaml_text = "model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfinetuning_type: lora\ndataset: mine\n"
    info = json.dumps({"mine": {"file_name": "data.json", "formatting": "alpaca"}})
    out = answer_read({"target": "auto", "files": {"llamafactory.yaml": yaml_text, "dataset_info.json": info}})
    assert out["ok"], out
    assert out["read"]["target"] == "llamafactory" and out["read"]["request"]["model"] == "qwen3-8b"


# --- installs -----------------------------------------------------------------------------------------------------
def _install(files: dict[str, str], target: str) -> str:
    lines = [ln for ln in files[_main(target, files)].splitlines() if ln.startswith("# " + EN["install"][:9])]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("request_", SETUPS, ids=range(len(SETUPS)))
def test_the_install_pins_the_validated_stack(target: str, request_: dict) -> None:
    files = _files(target, request_)
    line = _install(files, target)
    stack = frameworks.get(target).stack
    pins = dict(re.findall(r"\b([A-Za-z0-9_.-]+)==([0-9][^\s]*)", line))
    assert pins, line
    assert all(stack.get(p) == v for p, v in pins.items()), (pins, stack)      # every pin is the validated one
    assert pins[target] == frameworks.LATEST[target]
    assert {"transformers"} <= set(pins)
    exported = answer_export({"target": target, "request": request_})["export"]["request"]
    assert ("deepspeed" in pins) is bool(exported["deepspeed"])
    bnb = exported["method"] == "qlora" or exported["optimizer"] in ("adamw_8bit", "paged_adamw_8bit",
                                                                      "paged_adamw_32bit")
    if "bitsandbytes" in stack:
        assert ("bitsandbytes" in pins) is bnb
    assert ("flash-attn" in line) is (exported["attention"] == "flash")


# --- the Hub login for gated models -------------------------------------------------------------------------------
def test_the_gated_table_holds_every_llama_and_gemma_repository() -> None:
    """Meta's Llama and Google's Gemma repositories are all gated behind their licences on the Hub."""
    for m in catalog.MODELS.values():
        if m.hf_id.startswith(("meta-llama/", "google/gemma")):
            assert m.id in catalog.GATED, m.id
        if m.hf_id.startswith(("Qwen/", "allenai/", "microsoft/", "deepseek-ai/", "openai/")):
            assert m.id not in catalog.GATED, m.id      # open repositories: no login said


@pytest.mark.parametrize("target", TARGETS)
def test_the_login_is_said_for_exactly_the_gated_models(target: str) -> None:
    for model in catalog.MODELS:
        try:
            files = _files(target, {"model": model, "method": "qlora"})
        except AssertionError:                  # a model the target refuses (too large for its one GPU…)
            continue
        text = files[_main(target, files)]
        said = [ln for ln in text.splitlines() if "hf auth login" in ln]
        assert len(said) == (model in catalog.GATED), (target, model, said)
        if said:
            assert said[0].startswith("# ") and catalog.MODELS[model].hf_id in said[0]


def test_a_custom_model_says_no_login() -> None:
    tiny = {"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
            "num_key_value_heads": 4, "intermediate_size": 2816, "vocab_size": 32000}
    files = _files("trl", {"model": tiny, "method": "lora"})
    assert "hf auth login" not in files["sft.yaml"]


@pytest.mark.parametrize("text,lang", [(EN, "en"), (AR, "ar")])
def test_the_steps_are_said_in_the_readers_language(text: dict, lang: str) -> None:
    files = _files("llamafactory", {"model": "llama-3.1-8b", "method": "qlora"}, text)
    head = files["llamafactory.yaml"].split("\nmodel_name_or_path")[0]
    for code in ("install", "login", "data_llamafactory", "placeholders"):
        words = max(re.split(r"\{[a-z_]+\}", text[code]), key=len).strip()
        assert words and words in head, (lang, code)
    assert "pip install llamafactory==0.9.5" in head and "hf auth login" in head
    if lang == "ar":
        assert re.search("[\u0600-\u06ff]", text["install"] + text["login"] + text["edit_template"])


# --- learning rates -----------------------------------------------------------------------------------------------
#: (target, method, dpo) -> the learning rate of the framework's own docs and examples (sources in
#: calculator/frameworks.py RECOMMENDED): TRL's trl/scripts/sft.py and dpo.py docstrings; Axolotl's examples/llama-3
#: lora-1b / fft-8b / instruct-dpo-lora-8b; LLaMA-Factory's examples/train_lora, train_qlora, train_full; Unsloth's
#: notebooks (Llama3.1_(8B)-Alpaca, Zephyr_(7B)-DPO) and Studio's full_finetune.yaml; full DPO where a framework has
#: no example: TRL's dpo.py full-training command, whose DPOTrainer each one runs.
LEARNING_RATES = {
    ("trl", "full", False): 2.0e-5, ("trl", "lora", False): 2.0e-4, ("trl", "qlora", False): 2.0e-4,
    ("trl", "full", True): 5.0e-7, ("trl", "lora", True): 5.0e-6, ("trl", "qlora", True): 5.0e-6,
    ("axolotl", "full", False): 2.0e-5, ("axolotl", "lora", False): 2.0e-4, ("axolotl", "qlora", False): 2.0e-4,
    ("axolotl", "full", True): 5.0e-7, ("axolotl", "lora", True): 2.0e-4, ("axolotl", "qlora", True): 2.0e-4,
    ("llamafactory", "full", False): 1.0e-5, ("llamafactory", "lora", False): 1.0e-4,
    ("llamafactory", "qlora", False): 1.0e-4, ("llamafactory", "full", True): 5.0e-7,
    ("llamafactory", "lora", True): 5.0e-6, ("llamafactory", "qlora", True): 5.0e-6,
    ("unsloth", "full", False): 2.0e-5, ("unsloth", "lora", False): 2.0e-4, ("unsloth", "qlora", False): 2.0e-4,
    ("unsloth", "full", True): 5.0e-7, ("unsloth", "lora", True): 5.0e-6, ("unsloth", "qlora", True): 5.0e-6,
}


def _written_rates(target: str, files: dict[str, str]) -> list[float]:
    """Every learning rate the files set, as the framework reads it."""
    rates = []
    for name, text in files.items():
        if name.endswith(".yaml") and name != "accelerate.yaml":
            cfg = yaml.safe_load(text)
            section = cfg.get("training", cfg) if name == "unsloth.yaml" else cfg
            rates.append(float(section["learning_rate"]))
        elif name == "train.py":
            calls = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call)
                     and getattr(n.func, "id", "").endswith("Config")]
            rates += [ast.literal_eval(kw.value) for c in calls for kw in c.keywords if kw.arg == "learning_rate"]
    return rates


@pytest.mark.parametrize("key,expected", sorted(LEARNING_RATES.items()), ids=lambda v: str(v))
def test_each_target_writes_its_frameworks_learning_rate_for_the_method(key: tuple, expected: float) -> None:
    target, method, dpo = key
    files = _files(target, {"model": "qwen3-8b", "method": method, "dpo": dpo, "optimizer": "adamw_8bit",
                            "epochs": 1})
    rates = _written_rates(target, files)
    assert rates and all(r == pytest.approx(expected, rel=1e-12) for r in rates), (key, rates)
    assert str(frameworks.recommended(target, "learning_rate", {"method": method, "dpo": dpo}).value) in \
        {str(expected)} and frameworks.recommended(target, "learning_rate", {"method": method, "dpo": dpo}).source
