"""The oracle's step with PEFT's prepare_model_for_kbit_training cast applied to a bf16 model without 4-bit layers:
every bf16 parameter that is not an nn.Linear weight (embeddings, lm_head, norms) cast to fp32 on the meta model
before it is materialised (peft 0.21.2 utils/other.py: `param.data = param.data.to(torch.float32)` for every
non-Params4bit 16-bit parameter; in a QLoRA model the Linears are Params4bit, lm_head is not).
Usage: kbit_oracle.py [--kbit-cast] <oracle.py arguments>"""
import os
import sys
sys.path.insert(0, os.environ.get("ORACLE_DIR", "."))   # the oracle folder (benchmarks/traces.py)
import fakecuda
fakecuda.preload()
import torch
import transformers

CAST = "--kbit-cast" in sys.argv
argv = [a for a in sys.argv[1:] if a != "--kbit-cast"]
orig = transformers.AutoModelForCausalLM.from_config


def patched(*a, **k):
    m = orig(*a, **k)
    if CAST:
        linear_weights = {id(mod.weight) for n, mod in m.named_modules()
                          if isinstance(mod, torch.nn.Linear) and not n.endswith("lm_head")}
        for name, p in m.named_parameters():
            if p.dtype in (torch.bfloat16, torch.float16) and id(p) not in linear_weights:
                p.data = p.data.to(torch.float32)
    return m


transformers.AutoModelForCausalLM.from_config = patched
import oracle
oracle.main(argv)
