"""The LLaMA-Factory exports of an SFT LoRA and a DPO LoRA setup train on the CPU, unchanged, through the export's
own Run line (``llamafactory-cli train llamafactory.yaml``, the real ``llamafactory.cli.main``: frameworks/
llamafactory/lf_cli.py), with a tiny Llama built from a config (random weights, a temporary folder, no hub) and a
tiny local dataset registered in its own ``dataset_info.json``. Only these overrides go on the command line, as the
CLI takes them (``key=value``): model path, dataset name and folder, output dir, and ``use_cpu``; the framework's own
parse (through the same CLI path) confirms that nothing else differs."""
from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest

from calculator.export import export
from export_grid import words
from frameworks import venv
from tiny import MAKE_MODEL, env

pytestmark = pytest.mark.frameworks

BATCH = 2
SETUPS = {
    "sft-lora": {"model": "llama-3.2-1b", "method": "lora", "micro_batch_size": BATCH, "seq_len": 64,
                 "gradient_checkpointing": True, "lora_dropout": 0.05},
    "dpo-lora": {"model": "llama-3.2-1b", "method": "lora", "dpo": True, "micro_batch_size": BATCH, "seq_len": 64,
                 "optimizer": "adamw_torch"},
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny-lf")
    subprocess.run([str(venv.ensure("llamafactory")), "-c", MAKE_MODEL, str(root / "model")], check=True,
                   timeout=600, env=env(), capture_output=True)
    data = root / "data"
    data.mkdir()
    line = " ".join(f"w{i % 200}" for i in range(40))
    (data / "sft.json").write_text(json.dumps([{"instruction": f"w{j} w1 w2", "input": "", "output": line}
                                               for j in range(2 * BATCH)]))
    (data / "dpo.json").write_text(json.dumps([{"instruction": f"w{j} w1 w2", "chosen": "w3 w4 w5",
                                                "rejected": "w6 w7"} for j in range(2 * BATCH)]))
    # LLaMA-Factory reads a dataset by its name in dataset_dir/dataset_info.json (its data/README.md formats)
    (data / "dataset_info.json").write_text(json.dumps({
        "tiny_sft": {"file_name": "sft.json"},
        "tiny_dpo": {"file_name": "dpo.json", "ranking": True,
                     "columns": {"prompt": "instruction", "chosen": "chosen", "rejected": "rejected"}}}))
    return {"model": root / "model", "data": data}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_export_trains_two_steps_on_the_cpu(name: str, tiny, tmp_path) -> None:
    e = export(SETUPS[name], "llamafactory", text=words("ar"))   # as an Arabic reader downloads it
    for fname, text in e.files.items():
        (tmp_path / fname).write_text(text)
    dpo = SETUPS[name].get("dpo", False)
    overrides = {"model_name_or_path": str(tiny["model"]), "dataset": "tiny_dpo" if dpo else "tiny_sft",
                 "dataset_dir": str(tiny["data"]), "output_dir": str(tmp_path / "out"), "use_cpu": "true"}
    args = [f"{k}={v}" for k, v in overrides.items()]
    changed = json.loads(venv.run("llamafactory", json.dumps({"mode": "overrides", "dir": str(tmp_path),
                                                              "config": "llamafactory.yaml", "args": args})))
    assert "fatal" not in changed, changed.get("fatal")
    allowed = {"ModelArguments.model_name_or_path", "DataArguments.dataset", "DataArguments.dataset_dir",
               "DataArguments.media_dir",                      # DataArguments: media_dir defaults to dataset_dir
               "TrainingArguments.output_dir", "TrainingArguments.use_cpu",
               "TrainingArguments.dataloader_pin_memory"}     # TrainingArguments turns pinning off under use_cpu
    assert set(changed["changed"]) <= allowed, changed
    proc = subprocess.run([str(venv.ensure("llamafactory")), str(venv.HERE / "llamafactory" / "lf_cli.py"), "train",
                           "llamafactory.yaml", *args], cwd=tmp_path, capture_output=True, text=True, timeout=900,
                          env=env())
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-6000:]
    state = json.loads((tmp_path / "out" / "trainer_state.json").read_text())
    assert state["global_step"] == 2, state        # 2 * BATCH examples, BATCH a step, one epoch
    losses = [h["loss"] for h in state["log_history"] if "loss" in h] + \
             [json.loads((tmp_path / "out" / "train_results.json").read_text())["train_loss"]]
    assert all(math.isfinite(x) for x in losses), losses
