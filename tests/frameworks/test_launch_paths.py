"""Each checker runs the code the export's command runs, up to the GPU (issue 38, point 1), and so refuses what that
command refuses: one export per target, changed the way a reader could change it, is sent beside the unchanged one
to the target's checker; the unchanged one passes and the changed one fails with the framework's own message, from a
step the field checks alone did not run (Axolotl's ``normalize_config``, LLaMA-Factory's OmegaConf reading of the
YAML, ``unsloth train``'s ``load_config``, TRL's GRPOConfig parsed in the world size ``accelerate launch`` gives each
rank). TRL's launch path is held by test_checks.py and test_trl_runs.py as well."""
from __future__ import annotations

import json

import pytest

from calculator.export import export
from calculator.export.axolotl import capabilities
from export_grid import GRID, words
from frameworks import venv

pytestmark = pytest.mark.frameworks

BASE = {"model": "llama-3.1-8b", "method": "lora", "gpu": "h100-80gb"}

#: target -> (the request, the file, the text replaced, its replacement, what the framework says)
MUTATIONS = {
    # validate_config's schema takes the name; normalize_config (run by load_cfg) refuses it for a causal LM
    "axolotl": (BASE, "axolotl.yaml", "attn_implementation: sdpa", "attn_implementation: varlen",
                "varlen is supported only for native full-sequence diffusion models"),
    # a key given twice (a reader adds a learning rate below the written one): PyYAML keeps the last value, the
    # CLI's OmegaConf loader refuses the file
    "llamafactory": (BASE, "llamafactory.yaml", "report_to: none\n", "report_to: none\nlearning_rate: 1.0e-4\n",
                     "found duplicate key learning_rate"),
    # the CLI's YAML has no optimizer key: Config forbids unknown keys, and load_config (not pydantic's own
    # "Extra inputs are not permitted", all the schema check said) is what the user reads
    # GRPO on two GPUs (issue 41): a reader who launches one process leaves a generation batch of 4 completions
    # for 8 generations per prompt, which GRPOConfig.__post_init__ refuses in the world size accelerate gives it
    "trl": (dict(GRID)["grpo-lora-server-2gpu"], "accelerate.yaml", "num_processes: 2\n", "num_processes: 1\n",
            "generation_batch_size (4) must be divisible by num_generations (8)"),
    "unsloth": (dict(GRID)["unsloth-cli-subset"], "unsloth.yaml", "training:\n",
                "training:\n  optimizer: adamw_8bit\n", "unknown key 'optimizer' in section 'training'"),
}


@pytest.mark.parametrize("target", sorted(MUTATIONS))
def test_the_check_refuses_what_the_launch_path_refuses(target: str) -> None:
    request, name, old, new, message = MUTATIONS[target]
    e = export(request, target, text=words("en"))
    files = {n: t for n, t in e.files.items() if n != "measure.py"}
    assert old in files[name], f"{target}: the export no longer writes {old!r}: pick another mutation"
    mutated = dict(files, **{name: files[name].replace(old, new, 1)})
    configs = [{"id": "as-exported", "files": files}, {"id": "mutated", "files": mutated}]
    if target == "axolotl":
        for c in configs:
            c["capabilities"] = capabilities(e.request, e.request.get("gpu"))
    out = json.loads(venv.run(target, json.dumps({"mode": "check", "configs": configs})))
    assert "fatal" not in out, out.get("fatal")
    ok, bad = out["results"]["as-exported"], out["results"]["mutated"]
    assert ok["ok"], ok["errors"]
    assert not bad["ok"]
    assert any(message in err for err in bad["errors"]), bad["errors"]
    if target == "axolotl":     # refused by the launch path (load_cfg), not by the schema alone
        assert all(err.startswith("axolotl train (load_cfg)") for err in bad["errors"]), bad["errors"]
