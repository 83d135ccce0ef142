"""``axolotl train axolotl.yaml`` on the CPU, for tests/frameworks/test_axolotl_runs.py: the module the export's Run
line starts (``axolotl.cli.train``, run as ``__main__`` with the file as its argument), with one change: every
``TrainingArguments`` is made with ``use_cpu=True``. Axolotl has no key for it (it builds the arguments from the
YAML, axolotl/core/builders/base.py), and transformers refuses ``bf16`` without a GPU unless it is set ("Your setup
doesn't support bf16/gpu. You need to assign use_cpu"); LLaMA-Factory's run sets the same field from its command
line (``use_cpu=true``).

    python cpu_train.py axolotl.yaml
"""
from __future__ import annotations

import runpy
import sys

import transformers

_post_init = transformers.TrainingArguments.__post_init__


def _on_the_cpu(self) -> None:
    self.use_cpu = True
    _post_init(self)


transformers.TrainingArguments.__post_init__ = _on_the_cpu

if __name__ == "__main__":
    sys.argv = ["axolotl.cli.train", *sys.argv[1:]]
    runpy.run_module("axolotl.cli.train", run_name="__main__", alter_sys=True)
