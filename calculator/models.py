"""Typed inputs and outputs of the estimator: frozen, keyword-only dataclasses and Enums.

Nothing here computes memory; see ``memory.py``. Nothing here imports a browser API.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class ModelArch:
    """A decoder-only transformer's architecture, with Hugging Face ``config.json`` field names.

    ``head_dim`` is ``None`` when the config does not set it (then ``hidden_size // num_attention_heads``).
    Dense models have ``num_local_experts == 0``; MoE models give the expert count and the number routed per token.
    ``mlp_gated`` is True for SwiGLU/GeGLU MLPs (gate, up, down projections), False for a plain up/down MLP.
    """

    id: str                      # catalogue id, e.g. "llama-3.1-8b" ("custom" for a pasted config)
    name: str                    # display name, e.g. "Llama 3.1 8B"
    family: str                  # group label for the picker, e.g. "Llama 3"
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    intermediate_size: int
    vocab_size: int
    tie_word_embeddings: bool = False
    head_dim: int | None = None
    num_local_experts: int = 0
    num_experts_per_tok: int = 0
    mlp_gated: bool = True
    attention_bias: bool = False       # q/k/v projections carry a bias (Qwen2)
    published_params: int | None = None  # the count the model card / safetensors index states, for tests
    source: str = ""                     # where the numbers come from (official config.json URL)


@dataclass(frozen=True, kw_only=True)
class GpuSpec:
    """One GPU model. ``memory_gb`` is the marketed capacity in decimal GB (1e9 bytes) unless ``memory_bytes`` says
    the exact figure (e.g. an "80 GB" A100 exposes 85,899,345,920 bytes = 80 GiB)."""

    id: str                # e.g. "a100-80gb"
    name: str              # e.g. "NVIDIA A100 80GB"
    memory_bytes: int      # total device memory in bytes, as the driver reports it
    klass: str             # "consumer" | "workstation" | "datacenter"
    nvlink: bool           # NVLink / Infinity Fabric between cards of a node
    source: str = ""
