"""What the frameworks' real CPU runs share (test_trl_runs.py, test_llamafactory_runs.py): a tiny Llama built from
a config (random weights, a word-level tokenizer, saved to a temporary folder: no hub) and the environment the runs
start in (offline, no GPU)."""
from __future__ import annotations

import os

#: ``python -c MAKE_MODEL FOLDER`` in a framework's venv saves the model and its tokenizer in FOLDER.
MAKE_MODEL = r'''
import json, sys
from pathlib import Path
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
out = Path(sys.argv[1])
words = ["<unk>", "<pad>", "<s>", "</s>"] + [f"w{i}" for i in range(200)]
tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", bos_token="<s>",
                               eos_token="</s>")
fast.save_pretrained(out)
cfg = LlamaConfig(vocab_size=len(words), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                  num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                  pad_token_id=1, bos_token_id=2, eos_token_id=3)
LlamaForCausalLM(cfg).save_pretrained(out)
'''


def env() -> dict[str, str]:
    """This process's environment without its Python settings, offline and without a GPU."""
    out = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    out.update({"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                "CUDA_VISIBLE_DEVICES": "", "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "2"})
    return out
