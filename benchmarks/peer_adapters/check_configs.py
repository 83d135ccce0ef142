"""Check, inside the peers' venv, that the config.json files peers.py rebuilds from our catalogue give every
catalogue model its published parameter count when transformers builds it (meta device, no weights, offline).

    python benchmarks/peers.py --check-configs
"""
from __future__ import annotations

import json
import sys

import _common  # noqa: F401 - sets the offline environment variables first
from accelerate import init_empty_weights
from transformers import AutoConfig, AutoModelForCausalLM


def main() -> int:
    models = json.load(sys.stdin)          # {catalogue id: [config.json dict, published parameter count]}
    bad = 0
    for mid, (cfg, published) in models.items():
        config = AutoConfig.for_model(**cfg)
        with init_empty_weights():
            model = AutoModelForCausalLM.from_config(config)
        model.tie_weights()                 # init_empty_weights breaks the tie that from_config made
        n = sum(p.numel() for p in model.parameters())
        ok = n == published
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {mid:24s} {n:>16,d} {published:>16,d}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
