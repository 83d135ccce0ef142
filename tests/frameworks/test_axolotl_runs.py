"""The Axolotl export of an SFT LoRA setup trains 2 steps on the CPU, unchanged but for the documented substitutions,
through the module its Run line starts (``axolotl train axolotl.yaml``: ``axolotl.cli.train``, run by
frameworks/axolotl/cpu_train.py, which makes transformers' arguments ``use_cpu``: Axolotl has no key for it), with a
tiny Llama built from a config (random weights, a temporary folder, no hub) and a tiny local alpaca dataset. The
substitutions: ``base_model`` (the local model), the dataset's ``path`` (a local JSON file, with ``ds_type: json``)
and ``output_dir``; the test holds that no other key of the file differs."""
from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest
import yaml

from calculator.export import export
from export_grid import words
from frameworks import venv
from tiny import MAKE_MODEL, env

pytestmark = pytest.mark.frameworks

BATCH = 2
SETUP = {"model": "llama-3.2-1b", "method": "lora", "micro_batch_size": BATCH, "seq_len": 64,
         "gradient_checkpointing": True, "lora_dropout": 0.05}


def test_the_sft_lora_export_trains_two_steps_on_the_cpu(tmp_path: Path) -> None:
    py = venv.ensure("axolotl")
    subprocess.run([str(py), "-c", MAKE_MODEL, str(tmp_path / "model")], check=True, timeout=600, env=env(),
                   capture_output=True)
    data = tmp_path / "sft.json"      # short rows: Axolotl drops those longer than sequence_len (64)
    data.write_text(json.dumps([{"instruction": f"w{j} w1 w2", "input": "", "output": " ".join(
        f"w{i}" for i in range(10))} for j in range(2 * BATCH)]))
    e = export(SETUP, "axolotl", text=words("ar"))           # as an Arabic reader downloads it
    original = yaml.safe_load(e.files["axolotl.yaml"])
    cfg = json.loads(json.dumps(original))
    cfg["base_model"] = str(tmp_path / "model")
    cfg["datasets"][0].update(path=str(data), ds_type="json")
    cfg["output_dir"] = str(tmp_path / "out")
    changed = {k for k in set(original) | set(cfg) if original.get(k) != cfg.get(k)}
    assert changed == {"base_model", "datasets", "output_dir"}
    assert {k for k in cfg["datasets"][0] if cfg["datasets"][0][k] != original["datasets"][0].get(k)} == \
        {"path", "ds_type"}
    run = tmp_path / "run"
    run.mkdir()
    (run / "axolotl.yaml").write_text(yaml.safe_dump(cfg))
    proc = subprocess.run([str(py), str(venv.HERE / "axolotl" / "cpu_train.py"), "axolotl.yaml"], cwd=run,
                          capture_output=True, text=True, timeout=900,
                          env={**env(), "AXOLOTL_DO_NOT_TRACK": "1", "WANDB_DISABLED": "true", "DO_NOT_TRACK": "1"})
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-6000:]
    state = json.loads(next((tmp_path / "out").glob("checkpoint-*/trainer_state.json")).read_text())
    assert state["global_step"] == 2, state        # 2 * BATCH rows, BATCH a step, one epoch
    losses = [h["loss"] for h in state["log_history"] if "loss" in h]
    assert losses and all(math.isfinite(x) for x in losses), losses
    assert (tmp_path / "out" / "adapter_model.safetensors").is_file()     # the LoRA adapter it trained
