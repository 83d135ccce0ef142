"""The TRL exports of a LoRA, a QLoRA (bitsandbytes' CPU kernels for NF4 and its 8-bit optimizer) and a DPO setup
train 2 steps on the CPU, unchanged, through the export's own measuring launcher: a tiny Llama built from a config
(random weights, a temporary folder, no hub) and a tiny local dataset. Only these overrides go on the command line:
dataset path, output dir, model path, ``use_cpu``, and ``attn_implementation: sdpa`` where the file says flash; the
framework's own parser confirms that nothing else differs. A ZeRO-2 export's measuring line runs as its rank 0
does (``test_zero2_export_trains_as_one_rank_does``)."""
from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import pytest

from calculator.export import export
from export_grid import words
from frameworks import venv
from tiny import MAKE_MODEL, env as _env

pytestmark = pytest.mark.frameworks

BATCH = 2
SETUPS = {
    "lora": {"model": "llama-3.2-1b", "method": "lora", "micro_batch_size": BATCH, "seq_len": 64,
             "gradient_checkpointing": True, "lora_dropout": 0.05, "attention": "flash"},
    "qlora": {"model": "llama-3.2-1b", "method": "qlora", "micro_batch_size": BATCH, "seq_len": 64,
              "optimizer": "paged_adamw_8bit", "gradient_checkpointing": True},
    "dpo": {"model": "llama-3.2-1b", "method": "lora", "dpo": True, "micro_batch_size": BATCH, "seq_len": 64,
            "optimizer": "adamw_torch"},
}



@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny")
    py = venv.ensure("trl")
    subprocess.run([str(py), "-c", MAKE_MODEL, str(root / "model")], check=True, timeout=600,
                   env=_env(), capture_output=True)
    sft, dpo, grpo = root / "sft-data", root / "dpo-data", root / "grpo-data"
    sft.mkdir()
    dpo.mkdir()
    grpo.mkdir()
    (grpo / "train.jsonl").write_text("".join(json.dumps({"prompt": f"w{j} w1 w2 w3"}) + "\n"
                                              for j in range(GRPO_STEPS)))
    line = " ".join(f"w{i % 200}" for i in range(40))
    (sft / "train.jsonl").write_text("".join(json.dumps({"text": f"w{j} {line}"}) + "\n" for j in range(2 * BATCH)))
    (dpo / "train.jsonl").write_text("".join(json.dumps({"prompt": f"w{j} w1 w2", "chosen": " w3 w4 w5",
                                                         "rejected": " w6 w7"}) + "\n" for j in range(2 * BATCH)))
    return {"model": root / "model", "sft": sft, "dpo": dpo, "grpo": grpo, "root": root}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_export_trains_two_steps_on_the_cpu(name: str, tiny, tmp_path) -> None:
    e = export(SETUPS[name], "trl", text=words("ar"))     # as an Arabic reader downloads it: UTF-8 comments
    config = "dpo.yaml" if SETUPS[name].get("dpo") else "sft.yaml"
    for fname, text in e.files.items():
        (tmp_path / fname).write_text(text)
    overrides = {"dataset_name": str(tiny["dpo" if config == "dpo.yaml" else "sft"]),
                 "output_dir": str(tmp_path / "out"), "model_name_or_path": str(tiny["model"]), "use_cpu": "true"}
    if "attn_implementation: flash_attention_2" in e.files[config]:
        overrides["attn_implementation"] = "sdpa"          # FlashAttention has no CPU kernel
    args = [x for k, v in overrides.items() for x in (f"--{k}", v)]
    changed = json.loads(venv.run("trl", json.dumps({"mode": "overrides", "config": e.files[config],
                                                     "dpo": config == "dpo.yaml", "args": args})))
    assert "fatal" not in changed, changed.get("fatal")
    trainer = "DPOConfig" if config == "dpo.yaml" else "SFTConfig"
    allowed = {"ScriptArguments.dataset_name", f"{trainer}.output_dir", f"{trainer}.use_cpu",
               "ModelConfig.model_name_or_path", "ModelConfig.attn_implementation",
               f"{trainer}.dataloader_pin_memory"}      # TrainingArguments turns pinning off under use_cpu
    assert set(changed["changed"]) <= allowed, changed
    module = "trl.scripts.dpo" if config == "dpo.yaml" else "trl.scripts.sft"
    proc = subprocess.run([str(venv.ensure("trl")), "measure.py", module, "--config", config, *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900, env=_env())
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-6000:]
    losses = [float(x) for x in re.findall(r"'train_loss': '?([-+0-9.eEnaif]+)", log)]
    assert losses and all(math.isfinite(x) for x in losses), log[-3000:]
    assert re.search(r'measure \{"step": 2,', log), log[-3000:]     # two steps, measured by the export's lines


#: GRPO with LoRA and TRL's default generator (``use_vllm: false``): a generation batch of one prompt's 2 completions
#: per step, 8 tokens each, so each prompt of the dataset is one optimizer step (GRPO_STEPS prompts, one epoch).
GRPO_STEPS = 2
GRPO = {"model": "llama-3.2-1b", "method": "lora", "grpo": True, "micro_batch_size": 2, "grpo_num_generations": 2,
        "grpo_completion_len": 8, "grpo_prompt_len": 4, "epochs": 1.0}


def _written_with(e, tmp_path, overrides: dict[str, str], config: str, **mode) -> tuple[list[str], dict]:
    """The export's files written into ``tmp_path``; the command-line overrides a test adds, as arguments; and what
    TRL's own parser says they change in ``config`` (``mode``: the checker's other keys for that config)."""
    for fname, text in e.files.items():
        (tmp_path / fname).write_text(text)
    args = [x for k, v in overrides.items() for x in (f"--{k}", v)]
    changed = json.loads(venv.run("trl", json.dumps({"mode": "overrides", "config": e.files[config], **mode,
                                                     "args": args})))
    return args, changed


def test_grpo_export_trains_two_steps_on_the_cpu(tiny, tmp_path) -> None:
    """``trl grpo --config grpo.yaml`` through the export's measuring line, with the export's own ``reward.py``:
    GRPOTrainer generates with the trained model (transformers ``generate``), scores the completions and trains 2
    steps. Only the paths and ``use_cpu`` are overridden; TRL's own parser confirms that nothing else differs."""
    e = export(GRPO, "trl", text=words("ar"))
    assert {"grpo.yaml", "reward.py", "measure.py"} <= set(e.files)
    args, changed = _written_with(e, tmp_path, {"dataset_name": str(tiny["grpo"]), "output_dir": str(tmp_path / "out"),
                                                "model_name_or_path": str(tiny["model"]), "use_cpu": "true"},
                                  config="grpo.yaml", name="grpo.yaml")
    assert "fatal" not in changed, changed.get("fatal")
    assert set(changed["changed"]) <= {"GRPOScriptArguments.dataset_name", "GRPOConfig.output_dir",
                                       "GRPOConfig.use_cpu", "ModelConfig.model_name_or_path",
                                       "GRPOConfig.dataloader_pin_memory"}, changed
    proc = subprocess.run([str(venv.ensure("trl")), "measure.py", "trl.scripts.grpo", "--config", "grpo.yaml", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900, env=_env())
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-6000:]
    losses = [float(x) for x in re.findall(r"'train_loss': '?([-+0-9.eEnaif]+)", log)]
    assert losses and all(math.isfinite(x) for x in losses), log[-3000:]
    assert re.search(rf'measure \{{"step": {GRPO_STEPS},', log), log[-3000:]
    assert re.search(r"'rewards/length_reward/mean'", log), log[-3000:]      # the export's reward was called


#: A full fine-tune over ZeRO-2 on two cards: the files accelerate refused in every rank until issue 38.
ZERO2 = {"model": "llama-3.2-1b", "method": "full", "num_gpus": 2, "sharding": "zero2", "deepspeed": True,
         "micro_batch_size": BATCH, "seq_len": 64, "gpu": "h100-80gb"}


def test_zero2_export_trains_as_one_rank_does(tiny, tmp_path) -> None:
    """Rank 0 of the export's measuring line on the CPU: accelerate launch's own launch path, the TRL config parsed
    in that environment (TrainingArguments builds the DeepSpeedPlugin, whose checks refused ``mixed_precision``
    beside the JSON), ``SFTTrainer.train`` (``deepspeed.initialize`` makes the engine) and one step. The group has
    one process, not two (two would need the second rank's process), and DeepSpeed runs on its CPU accelerator."""
    e = export(ZERO2, "trl", text=words("en"))
    args, changed = _written_with(e, tmp_path, {"dataset_name": str(tiny["sft"]), "output_dir": str(tmp_path / "out"),
                                                "model_name_or_path": str(tiny["model"]), "max_steps": "1"},
                                  config="sft.yaml", dpo=False)
    assert set(changed["changed"]) <= {"ScriptArguments.dataset_name", "SFTConfig.output_dir", "SFTConfig.max_steps",
                                       "ModelConfig.model_name_or_path"}, changed
    got = json.loads(venv.run("trl", json.dumps({"mode": "rank", "dir": str(tmp_path), "module": "trl.scripts.sft",
                                                 "config": "sft.yaml", "args": args}), timeout=900))
    assert "error" not in got and got["stage"] == "trained", got
    assert got["plugin_zero_stage"] == 2 and got["engine"] == "DeepSpeedEngine" and got["steps"] == 1, got
    assert math.isfinite(got["loss"]), got
