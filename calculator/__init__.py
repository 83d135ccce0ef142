"""GPU-memory estimator for fine-tuning LLMs (full, LoRA, QLoRA, DPO). Pure Python, standard library only.

The browser, the CLI and the site build all go through ``calculator.api`` (``answer_text``: JSON text in, JSON text
out; ``answer``: the same on a parsed object). Python callers may use the typed layer directly: build a
``TrainingSetup`` and call ``estimate`` (the memory of one step). What readers see is ``calculator.page``.

Installed alone, it is the distribution ``llm-vram-estimator`` (``pip install .``; the import name stays
``calculator``), with the ``vram-estimate`` command and its string tables (``calculator/strings/``).
"""
from __future__ import annotations

#: The one version of the estimator: the pip wheel's (pyproject.toml reads it here), the page's wheel's and the CLI's
#: ``--version``.
__version__ = "0.1.0"

from .api import ERROR_CODES, answer, answer_text, schema
from .catalog import GPUS, MODELS
from .memory import COEFFICIENTS, estimate
from .params import count_params, trainable_params
from .models import (
    Attention,
    Estimate,
    GpuSpec,
    Method,
    ModelArch,
    Optimizer,
    Phase,
    Precision,
    QloraBackend,
    Sharding,
    TrainingSetup,
)
from .recommend import gpu_table, max_micro_batch, max_seq_len, remedies, smallest_setup, verdict

__all__ = [
    "__version__",
    "COEFFICIENTS",
    "ERROR_CODES",
    "GPUS",
    "MODELS",
    "Attention",
    "Estimate",
    "GpuSpec",
    "Method",
    "ModelArch",
    "Optimizer",
    "Phase",
    "Precision",
    "QloraBackend",
    "Sharding",
    "TrainingSetup",
    "answer",
    "answer_text",
    "count_params",
    "estimate",
    "gpu_table",
    "max_micro_batch",
    "max_seq_len",
    "remedies",
    "schema",
    "smallest_setup",
    "trainable_params",
    "verdict",
]
