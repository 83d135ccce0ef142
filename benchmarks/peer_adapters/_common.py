"""What every peer adapter shares: the stdin/stdout protocol and the offline config.json folder.

The adapters in this folder run inside the peers' own virtual environment (``.cache/peers-venv``), one process per
peer, started by ``benchmarks/peers.py``. Each reads a JSON list of *normalised configurations* on stdin (the schema
is documented in ``benchmarks/peers.py``: ``id``, ``method``, ``hf_config`` — the model's ``config.json`` rebuilt from
our catalogue —, precision, optimizer, LoRA rank/targets, batch, sequence, checkpointing, attention, GPUs, sharding)
and prints one JSON object on stdout::

    {"peer": "ftuneai", "version": "0.4.1",
     "results": [{"id": "LG-R11", "status": "ok", "bytes": 23456789012, "detail": {...}},
                 {"id": "PF-06", "status": "unsupported", "reason": "..."},
                 {"id": "XX-01", "status": "error", "reason": "ValueError: ..."}]}

To try one adapter by hand (a Llama-2-7B LoRA, QLoRA and full fine-tuning run)::

    .cache/peers-venv/bin/python benchmarks/peer_adapters/run_ftuneai.py < benchmarks/peer_adapters/example_llama2_7b.json

``bytes`` is the peer's own total for that configuration, converted from the unit the peer states (ftune's "GB"
are GiB, FitCheck's MiB, llm-analysis and accelerate count bytes) and never rescaled otherwise.

Nothing here reaches a network: the model is handed to each peer as a local ``config.json`` folder, which is what
the peer would otherwise download from the Hugging Face Hub (unreachable here). Libraries that print to stdout are
silenced onto stderr so that stdout carries the JSON document only.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")          # the Hub is unreachable: fail fast, never wait on it
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

Config = dict[str, Any]

#: canonical LoRA target names used in the normalised configuration
ATTENTION = ("q_proj", "k_proj", "v_proj", "o_proj")
MLP = ("gate_proj", "up_proj", "down_proj")


class Unsupported(Exception):
    """The peer cannot express this configuration (its message says what is missing); never guessed."""


@contextlib.contextmanager
def config_dir(cfg: Config) -> Iterator[Path]:
    """A temporary folder holding ``config.json`` for this row's model, as the Hub would serve it."""
    with tempfile.TemporaryDirectory(prefix=f"peer-{cfg['id']}-") as tmp:
        path = Path(tmp)
        (path / "config.json").write_text(json.dumps(cfg["hf_config"], indent=2), encoding="utf-8")
        yield path


def targets(cfg: Config) -> frozenset[str]:
    return frozenset(cfg.get("lora_targets") or ())


SPECIAL = {  # techniques in the normalised configuration that none of the peers run here can express
    "optimizer_in_backward": "optimizer step fused into the backward pass",
    "dpo": "DPO (reference model, chosen + rejected)",
}


def check_special(cfg: Config, handled: frozenset[str] = frozenset()) -> None:
    missing = [SPECIAL.get(s, s) for s in cfg.get("special") or () if s not in handled]
    if missing:
        raise Unsupported(f"cannot express {', '.join(missing)}")


def check_no_offload(cfg: Config) -> None:
    """No peer run here can keep weights, gradients or optimizer states in host memory."""
    if cfg.get("offload"):
        raise Unsupported(f"offload to host memory ({', '.join(cfg['offload'])})")


def peer_sharding(cfg: Config, known: Mapping[str, Any]) -> Any:
    """The peer's own value for the row's sharding (``known``: our name -> the peer's); Unsupported without one."""
    value = known.get(cfg["sharding"])
    if value is None:
        raise Unsupported(f"sharding {cfg['sharding']}")
    return value


def run(peer: str, distribution: str, estimate: Callable[[Config], dict[str, Any]],
        handled: frozenset[str] = frozenset(), value_key: str = "bytes") -> None:
    """Read the configurations, estimate each one, print the JSON document. ``estimate`` returns
    ``{value_key: number, "detail": {...}}`` (``bytes`` for memory, ``tokens_per_second_per_gpu`` for time) or raises
    :class:`Unsupported`; any other exception is reported per row. Rows using a technique of ``SPECIAL`` that the
    peer does not handle are "unsupported" before it is called."""
    configs = json.load(sys.stdin)
    real_stdout = sys.stdout
    results: list[dict[str, Any]] = []
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    with contextlib.redirect_stdout(sys.stderr):
        for cfg in configs:
            try:
                check_special(cfg, handled)
                out = estimate(cfg)
                value = int(round(out[value_key])) if value_key == "bytes" else float(out[value_key])
                results.append({"id": cfg["id"], "status": "ok", value_key: value, "detail": out.get("detail", {})})
            except Unsupported as exc:
                results.append({"id": cfg["id"], "status": "unsupported", "reason": str(exc)})
            except Exception as exc:  # noqa: BLE001 - a peer crash on one row must not hide the other rows
                traceback.print_exc(file=sys.stderr)
                results.append({"id": cfg["id"], "status": "error",
                                "reason": f"{type(exc).__name__}: {exc}".strip()[:500]})
    json.dump({"peer": peer, "version": metadata.version(distribution), "results": results}, real_stdout)
    real_stdout.write("\n")
    real_stdout.flush()
