"""The dataset_info.json the LLaMA-Factory export writes beside its YAML, read by LLaMA-Factory 0.9.5's own
``get_dataset_list`` (``llamafactory/data/parser.py``, what its loader calls with the YAML's ``dataset`` and
``dataset_dir``) in its venv: the dataset the YAML names is found, from the Hub, in the alpaca format, with the
columns written (issue 38, "honest instructions"; reviews/export.md: the run failed with *Cannot open
data/dataset_info.json* until the dataset was registered by hand)."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml

from calculator.export import export
from frameworks import venv

pytestmark = pytest.mark.frameworks

#: Run in the folder of the exported files, as the YAML's ``dataset_dir: .`` says; torchaudio (imported by
#: llamafactory.data's multimodal plugin, absent from the checker's venv) is stubbed, as frameworks/ checks do.
_READ = """
import importlib.machinery, json, sys, types, yaml
stub = types.ModuleType("torchaudio"); stub.__spec__ = importlib.machinery.ModuleSpec("torchaudio", None)
sys.modules.setdefault("torchaudio", stub)
from llamafactory.data.parser import get_dataset_list
cfg = yaml.safe_load(open("llamafactory.yaml"))
out = {}
for a in get_dataset_list([cfg["dataset"]], cfg["dataset_dir"]):
    out = {k: getattr(a, k) for k in ("load_from", "dataset_name", "formatting", "ranking", "prompt", "query",
                                      "response", "chosen", "rejected")}
print(json.dumps(out))
"""


@pytest.mark.parametrize("dpo", [False, True], ids=["sft", "dpo"])
def test_llamafactory_reads_the_exported_dataset_registration(tmp_path: Path, dpo: bool) -> None:
    e = export({"model": "qwen3-8b", "method": "lora", "dpo": dpo}, "llamafactory")
    for name, text in e.files.items():
        (tmp_path / name).write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update({"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "CUDA_VISIBLE_DEVICES": ""})
    proc = subprocess.run([str(venv.ensure("llamafactory")), "-c", _READ], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    info = json.loads(e.files["dataset_info.json"])[yaml.safe_load(e.files["llamafactory.yaml"])["dataset"]]
    assert got["load_from"] == "hf_hub" and got["dataset_name"] == info["hf_hub_url"]
    assert got["formatting"] == "alpaca" and got["ranking"] is dpo
    assert (got["prompt"], got["query"]) == ("instruction", "input")
    if dpo:
        assert (got["chosen"], got["rejected"], got["response"]) == ("chosen", "rejected", None)
    else:
        assert (got["response"], got["chosen"]) == ("output", None)
