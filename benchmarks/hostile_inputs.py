"""CPU time of the hostile inputs of the reliability review of 2026-12-07 (issue 36), each sent through the three doors
a pasted text comes in by: the API (``export.answer_read`` for an import, ``api.answer_text`` for a request), the page
(``Page.run`` for the import box, ``Page.render`` for a pasted config.json, and ``render``/``run``/``search`` for a
raw message) and the CLI (``--import`` / ``--config``, in this process). Prints figures; not a test.

    .venv/bin/python -m benchmarks.hostile_inputs [--families A,B,...] [--verbose]

The corpus is rebuilt here (``corpus()``): the review's ``hostile_import.py`` A-E (YAML bombs, nesting, size, tags;
JSON companions; YAML 1.1 values; Unsloth scripts; every read key's value replaced by one of another type), the
cases its ``pyodide_cases.py`` ran in Pyodide, the tables of its findings R2 (merge-key chains of 6 to 12 levels),
R3 (configs nested 900 to 100,000 deep, on every path that reads JSON) and R6 (slow YAML within the size limit), and
a few texts the fix itself had to hold (``X``: a quoted scalar over two lines, ``don't``, a file just under
``_yaml.MAX_NODES`` values). The issue's budget: every case answered within 200 ms of CPU on CPython
(``time.process_time``, so other work on a shared machine does not count), with a code naming the file. For each
family and door the worst time is printed, then every case beyond the budget and every ``internal_error`` (R5's
type confusion, family E, is another finding's).
"""
from __future__ import annotations

import argparse
import io
import json
import platform
import tempfile
import time
import warnings
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from calculator import api
from calculator.page import Page
from sitebuild.strings import calc_strings

BUDGET_MS = 200.0

AXO = """base_model: meta-llama/Llama-3.1-8B
adapter: qlora
load_in_4bit: true
lora_r: 16
lora_alpha: 32
lora_target_linear: true
datasets:
  - path: my/data
    type: alpaca
output_dir: ./out
sequence_len: 2048
sample_packing: false
micro_batch_size: 2
gradient_accumulation_steps: 4
num_epochs: 1
learning_rate: 0.0002
optimizer: adamw_torch
bf16: true
gradient_checkpointing: true
"""
TRL = """model_name_or_path: meta-llama/Llama-3.1-8B
dtype: bfloat16
use_peft: true
lora_r: 16
lora_target_modules: all-linear
dataset_name: my/data
output_dir: out
per_device_train_batch_size: 2
max_length: 2048
packing: false
bf16: true
activation_checkpointing: true
optim: adamw_torch
num_train_epochs: 1.0
"""
LF = """model_name_or_path: meta-llama/Llama-3.1-8B
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 16
lora_target: all
dataset: alpaca_en_demo
template: llama3
cutoff_len: 2048
output_dir: out
per_device_train_batch_size: 2
gradient_accumulation_steps: 4
learning_rate: 1.0e-4
num_train_epochs: 1.0
bf16: true
"""
TINY = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
        "intermediate_size": 256}


@dataclass(frozen=True)
class Case:
    """One hostile input: an import (``files``: {name: text}), a pasted config.json (``paste``) or a raw message to
    the page and the API (``message``)."""

    family: str
    label: str
    files: dict[str, str] | None = None
    paste: str | None = None
    message: str | None = None
    doors: tuple[str, ...] = field(default=("api", "page", "cli"))


def merge_chain(levels: int, keys: int = 500) -> str:
    """R2: a mapping of ``keys`` keys, then ``levels - 1`` mappings each merging the one before three times."""
    return "m0: &m0 {" + ", ".join(f"k{i}: {i}" for i in range(keys)) + "}\n" + "".join(
        f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}, *m{i - 1}], z{i}: 1}}\n" for i in range(1, levels))


LAUGHS = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]\n" for i in range(1, 10))


def _nest_block(depth: int) -> str:
    return "\n".join("  " * i + f"k{i}:" for i in range(depth)) + " 1\n"


def family_a() -> list[Case]:
    """hostile_import.py A: the parser (bombs, nesting, size, tags)."""
    cases: list[Case] = []

    def add(label: str, text: str) -> None:
        cases.append(Case("A", label, {"config.yaml": text}))

    add("billion laughs (9 levels x 10 aliases)", AXO + LAUGHS)
    add("merge-key chain: 9 levels, 3 merges each, 500 keys", AXO + merge_chain(9))
    for levels in (6, 7, 8):
        add(f"merge-key chain: {levels} levels", AXO + merge_chain(levels))
    add("recursive alias a: &a [*a]", AXO + "r: &r [*r]\n")
    add("self-merging mapping", AXO + "s: &s {a: 1, <<: *s}\n")
    for d in (31, 33, 200, 5000):
        add(f"block mapping {d} levels deep", AXO + _nest_block(d))
    for d in (33, 1000, 50_000):
        add(f"flow sequence {d} levels deep", AXO + "x: " + "[" * d + "]" * d + "\n")
    for d in (1000, 60_000):
        add(f"flow sequence {d} deep behind 'a#b,'", AXO + "x: [a#b, " + "[" * d + "]" * d + "]\n")
    add("flow mapping 1000 deep behind 'a#b,'", AXO + "x: {a#b: " + "{k: " * 1000 + "1" + "}" * 1000 + "}\n")
    add("200,000 characters (a long comment)", (AXO + "# " + "x" * 200_000)[:200_000])
    add("200,001 characters", AXO + "# " + "x" * 200_000)
    add("one plain scalar of 199,000 chars", AXO + "z: " + "y" * 199_000 + "\n")
    add("19,990 keys", AXO + "".join(f"k{i}: {i}\n" for i in range(19_990)))
    add("a flow list of 60,000 ints", AXO + "z: [" + ",".join(["1"] * 60_000) + "]\n")
    add("a flow list of 66,000 empty strings ''", AXO + "z: [" + ",".join(["''"] * 66_000) + "]\n")
    add("6,000 anchors, each named once", AXO + "".join(f"k{i}: &a{i} v\nl{i}: *a{i}\n" for i in range(6_000)))
    for tag in ("!!python/object/apply:os.system ['echo PWNED']", "!!python/name:os.system",
                "!!python/object/new:list []", "!!python/tuple [1, 2]", "!ruby/object:Gem::Installer {}",
                "!!binary aGVsbG8=", "!!set {a, b}", "!!omap [a: 1]", "!!timestamp 2024-01-01", "!custom {a: 1}",
                "!<tag:yaml.org,2002:str> 5", "!!int '12'", "!!float '1e5'"):
        add(f"tag {tag[:40]}", AXO + "extra: " + tag + "\n")
    add("tag on a read key", AXO.replace("micro_batch_size: 2", "micro_batch_size: !!python/object/apply:os.system "
                                                                "['id']"))
    add("%TAG directive + local tag", "%TAG !e! tag:evil.com,2000:\n---\n" + AXO + "x: !e!obj {}\n")
    add("two documents", AXO + "---\n" + AXO)
    add("tabs for indentation", AXO.replace("  - path", "\t- path"))
    add("NUL byte", AXO + "x: a\x00b\n")
    add("lone surrogate", AXO + 'x: "\ud800"\n')
    add("BOM first", "\ufeff" + AXO)
    add("empty text", "")
    add("only a comment", "# nothing\n")
    add("top level a list", "- a\n- b\n")
    add("top level a scalar", "hello\n")
    add("complex key ? [1, 2]", AXO + "? [1, 2]\n: x\n")
    add("mapping as a key", AXO + "? {a: 1}\n: x\n")
    add("int and null keys", AXO + "1: x\n~: y\ntrue: z\n")
    add("duplicate key micro_batch_size", AXO + "micro_batch_size: 64\n")
    add("merge key into base_model", "base: &b {micro_batch_size: 7}\n<<: *b\n" +
        AXO.replace("micro_batch_size: 2\n", ""))
    cases.append(Case("A", "5 files (MAX_FILES is 4)", {f"f{i}.yaml": AXO for i in range(5)}, doors=("api", "cli")))
    cases.append(Case("A", "file name with a path and markup", {"../../etc/<img src=x onerror=alert(1)>.yaml": AXO},
                      doors=("api", "page")))
    return cases


def family_b() -> list[Case]:
    """hostile_import.py B: JSON companions."""
    main = AXO + "deepspeed: ds_config.json\n"
    ds = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto"}
    texts = {
        "ds_config.json with // comments": "// zero 3\n" + json.dumps(ds),
        "ds_config.json with /* */ comments": '{/* z */ "zero_optimization": {"stage": 3}}',
        "ds_config.json trailing comma": '{"zero_optimization": {"stage": 3},}',
        "ds_config.json duplicate key (stage 1 then 3)": '{"zero_optimization": {"stage": 1, "stage": 3}}',
        "ds_config.json NaN": '{"zero_optimization": {"stage": NaN}}',
        "ds_config.json 5,000-digit stage": '{"zero_optimization": {"stage": ' + "9" * 5000 + "}}",
        "ds_config.json 100,000 deep": "[" * 100_000,
        "ds_config.json 3,000 deep (closed)": "[" * 3000 + "]" * 3000,
        "ds stage 3.0 (a float)": '{"zero_optimization": {"stage": 3.0}}',
        "ds stage true": '{"zero_optimization": {"stage": true}}',
        "ds stage '3' (a string)": '{"zero_optimization": {"stage": "3"}}',
        "ds offload_optimizer a string": '{"zero_optimization": {"stage": 3, "offload_optimizer": "cpu"}}',
        "ds bf16 true (not an object)": '{"zero_optimization": {"stage": 2}, "bf16": true}',
        "ds_config.json a list": "[1]",
    }
    out = [Case("B", label, {"config.yaml": main, "ds_config.json": text}) for label, text in texts.items()]
    out.append(Case("B", "TRL JSON file (the main file as JSON)",
                    {"sft.json": json.dumps({"model_name_or_path": "Qwen/Qwen2.5-7B", "use_peft": True,
                                             "max_length": 4096})}, doors=("api", "cli")))
    return out


def family_c() -> list[Case]:
    """hostile_import.py C: YAML 1.1 values of read keys (the review compared each with PyYAML 6)."""
    lines = ["sample_packing: yes", "sample_packing: on", "sample_packing: y", "bf16: off", "bf16: No",
             "gradient_checkpointing: NO", "lora_r: 010", "lora_r: 0o10", "lora_r: 0x10", "lora_r: 1_6",
             "lora_r: 0b1000", "lora_r: 1:00", "lora_r: 16.0", "lora_r: '16'", "sequence_len: 08",
             "sequence_len: 4_096", "sequence_len: 2048.5", "sequence_len: 4e3", "num_epochs: 1e-1",
             "num_epochs: 1.5e+0", "num_epochs: .inf", "num_epochs: .nan", "num_epochs: 1:30.5",
             "micro_batch_size: ~", "micro_batch_size: null", "micro_batch_size: -2", "micro_batch_size: 2024-01-01",
             "micro_batch_size: 99999999999999999999", "micro_batch_size: " + "9" * 5000,
             "lora_target_linear: 'true'", "load_in_4bit: True", "load_in_4bit: TRUE", "load_in_4bit: tRUE"]
    out = []
    for line in lines:
        key = line.split(":")[0]
        text = "\n".join(ln for ln in AXO.splitlines() if not ln.startswith(key + ":")) + "\n" + line + "\n"
        out.append(Case("C", line[:50], {"config.yaml": text}))
    return out


def family_d() -> list[Case]:
    """hostile_import.py D: Unsloth scripts (read with ast, never run)."""
    from calculator.export import answer_export

    script = answer_export({"target": "unsloth", "request": {"model": "llama-3.1-8b", "method": "qlora"}})[
        "export"]["files"]["train.py"]
    variants = {
        "the exported train.py itself": script,
        "os.system in an argument": script.replace("max_seq_length=2048",
                                                   "max_seq_length=__import__('os').system('echo PWNED')"),
        "10**10**10 as code": script.replace("r=16", "r=10**10**10"),
        "r=1e999": script.replace("r=16", "r=1e999"),
        "lora_dropout=1e999": script.replace("lora_dropout=0.0", "lora_dropout=1e999"),
        "unknown keyword warmup=1e999": script.replace("r=16,", "r=16, warmup=1e999,"),
        "5000-digit int literal": script.replace("r=16", "r=" + "9" * 5000),
        "1000 nested parentheses": script.replace("r=16", "r=" + "(" * 1000 + "16" + ")" * 1000),
        "3000 parentheses after '#' in a string": script.replace("r=16", "r=16, x='#'" + "+(" * 3000 + "1" +
                                                                 ")" * 3000),
        "tuple 20,000 deep after a '#' string": script.replace("r=16,", "r=16, y='#', z=" + "(" * 20_000 +
                                                               ")" * 20_000 + ","),
        "syntax error": script + "\ndef (:\n",
        "null bytes": script + "\x00",
    }
    out = [Case("D", f"train.py: {label}", {"train.py": text}, doors=("api", "cli")) for label, text in
           variants.items()]
    out.append(Case("D", "the exported train.py pasted into the box", {"config.yaml": script}, doors=("page",)))
    out.append(Case("D", "a YAML file that mentions FastLanguageModel (R13)", {"config.yaml": AXO +
                                                                                 "# FastLanguageModel\n"}))
    out.append(Case("D", "unsloth CLI yaml with a list for training",
                    {"unsloth.yaml": "model: unsloth/x\ntraining: [1]\nlora: {}\n"}))
    return out


def family_e() -> list[Case]:
    """hostile_import.py E: every key the readers read (nested ones too) given 17 values of other types."""
    import yaml as pyyaml      # PyYAML (mkdocs needs it): the frameworks' own writer and reader

    axo_rich = AXO + ("attn_implementation: sdpa\nbnb_config_kwargs:\n  bnb_4bit_use_double_quant: true\nrl: dpo\n"
                      "rl_beta: 0.1\noptim_args: momentum=0.9\nflash_attention: false\npeft_use_dora: false\n"
                      "load_in_8bit: false\nfsdp_version: 2\nfsdp_config:\n  offload_params: false\n"
                      "  reshard_after_forward: true\n  activation_checkpointing: true\n"
                      "chunked_cross_entropy: false\nactivation_offloading: false\nplugins: [a]\n")
    trl_rich = TRL + ("attn_implementation: sdpa\nload_in_4bit: true\nbnb_4bit_quant_type: nf4\n"
                      "bnb_4bit_quant_storage: bfloat16\nuse_bnb_nested_quant: true\nlora_dropout: 0.05\n"
                      "disable_dropout: true\nlora_modules_to_save: [lm_head]\ngradient_checkpointing: true\n"
                      "activation_checkpointing_kwargs:\n  offload: false\nactivation_offloading: false\n"
                      "torch_compile: false\noptim_args: momentum=0.9\naccelerator_config:\n"
                      "  gradient_accumulation_kwargs:\n    sync_each_batch: true\n"
                      "precompute_ref_log_probs: false\nfp16: false\nuse_dora: false\n")
    lf_rich = LF + ("quantization_bit: 4\nquantization_method: bnb\ndouble_quantization: true\ninfer_dtype: auto\n"
                    "flash_attn: auto\npure_bf16: false\nfp16: false\nuse_dora: false\npacking: false\n"
                    "optim: adamw_torch\noptim_args: momentum=0.9\ndisable_gradient_checkpointing: false\n"
                    "enable_liger_kernel: false\ndeepspeed: ds_config.json\nlora_dropout: 0.0\n")
    uns = ("model: unsloth/Llama-3.2-1B\ntraining:\n  training_type: lora\n  max_seq_length: 2048\n"
           "  load_in_4bit: true\n  batch_size: 2\n  gradient_accumulation_steps: 4\n  num_epochs: 1\n"
           "  packing: false\n  gradient_checkpointing: unsloth\nlora:\n  lora_r: 16\n  lora_dropout: 0.0\n"
           "  target_modules: q_proj,v_proj\n  use_dora: false\n")
    acc = ("compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 2\nmixed_precision: bf16\n"
           "fsdp_config:\n  fsdp_version: 2\n  fsdp_offload_params: false\n  fsdp_reshard_after_forward: true\n"
           "  fsdp_sharding_strategy: FULL_SHARD\n  fsdp_activation_checkpointing: true\n")
    acc_ds = ("distributed_type: DEEPSPEED\nnum_processes: 2\ndeepspeed_config:\n  zero_stage: 3\n"
              "  offload_optimizer_device: cpu\n  offload_param_device: none\n")
    dsj = ('{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": '
           '"none"}, "reduce_bucket_size": "auto"}, "bf16": {"enabled": "auto", "bf16_master_weights_and_grads": '
           'false}, "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}')
    values = ([1, 2], {"a": 1}, "text", "", -1, 0, 1.5, True, False, None, 10**30, "auto", "cpu", "nvme", [], {},
              float("inf"))
    sets = [("axolotl", {"axolotl.yaml": axo_rich}),
            ("axolotl+ds", {"axolotl.yaml": axo_rich + "deepspeed: ds_config.json\n", "ds_config.json": dsj}),
            ("axolotl+acc", {"axolotl.yaml": axo_rich, "accelerate.yaml": acc}),
            ("trl", {"sft.yaml": trl_rich}), ("trl+acc", {"sft.yaml": trl_rich, "accelerate.yaml": acc}),
            ("trl+acc(ds)", {"sft.yaml": trl_rich, "accelerate.yaml": acc_ds}),
            ("trl+acc(ds)+ds", {"sft.yaml": trl_rich, "accelerate.yaml": acc_ds.split("deepspeed_config:")[0] +
                                "deepspeed_config:\n  deepspeed_config_file: ds_config.json\n",
                                "ds_config.json": dsj}),
            ("llamafactory+ds", {"llamafactory.yaml": lf_rich, "ds_config.json": dsj}),
            ("llamafactory+acc", {"llamafactory.yaml": lf_rich.replace("deepspeed: ds_config.json\n", ""),
                                  "accelerate.yaml": acc}),
            ("unsloth yaml", {"unsloth.yaml": uns})]

    def paths(x: Any, p: tuple = ()) -> Any:
        if isinstance(x, dict):
            for k, v in x.items():
                yield p + (k,)
                yield from paths(v, p + (k,))

    out = []
    for set_name, files in sets:
        for fname, text in files.items():
            obj = json.loads(text) if fname.endswith(".json") else pyyaml.safe_load(text)
            for path in list(paths(obj)):
                for v in values:
                    if fname.endswith(".json") and v == float("inf"):
                        continue
                    changed = json.loads(json.dumps(obj))
                    cur = changed
                    for k in path[:-1]:
                        cur = cur[k]
                    cur[path[-1]] = v
                    new = json.dumps(changed) if fname.endswith(".json") else pyyaml.safe_dump(changed)
                    out.append(Case("E", f"{set_name} {fname} {'.'.join(map(str, path))} = {v!r}",
                                    {**files, fname: new}))
    return out


def family_p() -> list[Case]:
    """pyodide_cases.py: what the review ran in Pyodide (pastes, messages, imports)."""
    return [
        Case("P", "render: defaults", message=_render_message({}), doors=("page",)),
        Case("P", "render: seq_len of 4,301 digits", message=_render_message({"seq_len": "9" * 4301}),
             doors=("page",)),
        Case("P", "paste 4,000 '[' + ']'", paste="[" * 4000 + "]" * 4000),
        Case("P", "paste 199,999 '['", paste="[" * 199_999),
        Case("P", "paste 39,999 open objects", paste='{"a":' * 39_999),
        Case("P", "paste with a 30,000-int list", paste=json.dumps({**TINY, "junk": list(range(30_000))})),
        Case("P", "request 1,600,000 '['", message="[" * 1_600_000),
        Case("P", "page message 1,599,990 '['", message="[" * 1_599_990),
        Case("P", "import: flow sequence 50,000 deep", {"config.yaml": AXO + "x: " + "[" * 50_000 + "]" * 50_000}),
        Case("P", "import: 1,000 deep behind 'a#b,'", {"config.yaml": AXO + "x: [a#b, " + "[" * 1000 + "]" * 1000 +
                                                       "]\n"}),
        Case("P", "import: 60,000 deep behind 'a#b,'", {"config.yaml": AXO + "x: [a#b, " + "[" * 60_000 +
                                                        "]" * 60_000 + "]\n"}),
        Case("P", "import: flow list of 60,000 ints", {"config.yaml": AXO + "z: [" + ",".join(["1"] * 60_000) +
                                                       "]\n"}),
        Case("P", "import: billion laughs", {"config.yaml": AXO + LAUGHS}),
        *(Case("P", f"import: merge-key chain, {n} levels", {"config.yaml": AXO + merge_chain(n)}) for n in (6, 7, 8)),
    ]


def family_r() -> list[Case]:
    """The tables of findings R2 (merge-key chains), R3 (deep JSON, every path) and R6 (slow YAML paths)."""
    out = [Case("R2", f"merge-key chain, {n} levels ({len(merge_chain(n)):,} chars)",
                {"config.yaml": "base_model: x\n" + merge_chain(n)}) for n in (6, 7, 8, 9, 10, 12)]
    for d in (900, 3000, 10_000, 60_000, 100_000):
        out.append(Case("R3", f"pasted config.json {d:,} deep", paste="[" * d + "]" * d))
        out.append(Case("R3", f"DeepSpeed JSON {d:,} deep", {"config.yaml": AXO, "ds_config.json": "[" * d + "]" * d}))
        out.append(Case("R3", f"message {d:,} deep", message="[" * d + "]" * d))
    out.append(Case("R3", "request with a model 10,000 deep", message='{"model": ' + "[" * 10_000 + "]" * 10_000 +
                    "}"))
    out += [
        Case("R6", "a flow list of 60,000 ints (120 KB)", {"config.yaml": AXO + "z: [" + ",".join(["1"] * 60_000) +
                                                           "]\n"}),
        Case("R6", "x: [a#b, + 60,000 [", {"config.yaml": AXO + "x: [a#b, " + "[" * 60_000 + "]" * 60_000 + "]\n"}),
        Case("R6", "x: [a#b, + 1,000 [", {"config.yaml": AXO + "x: [a#b, " + "[" * 1000 + "]" * 1000 + "]\n"}),
        Case("R6", "19,000 duplicate keys (95 KB)", {"config.yaml": AXO + "k: 1\n" * 19_000}),
        Case("R6", "50,000 [ without the # trick", {"config.yaml": AXO + "x: " + "[" * 50_000 + "]" * 50_000 + "\n"}),
    ]
    return out


def family_x() -> list[Case]:
    """Texts the fix had to hold beyond the review's: other ways past the depth pre-check, and the largest file
    still read (just under ``_yaml.MAX_NODES`` values)."""
    from calculator.export._yaml import MAX_NODES

    n = MAX_NODES - 60                     # AXO and the mapping's own values take the rest
    return [
        Case("X", "a quoted scalar over two lines, then 60,000 [", {"config.yaml": AXO + 'x: ["abc\n  ", ' +
                                                                     "[" * 60_000 + "]" * 60_000 + "]\n"}),
        Case("X", "x: [don't, + 60,000 [", {"config.yaml": AXO + "x: [don't, " + "[" * 60_000 + "]" * 60_000 +
                                            "]\n"}),
        Case("X", '"a\\" [" then 60,000 [', {"config.yaml": AXO + 'x: ["a\\" [", ' + "[" * 60_000 + "]" * 60_000 +
                                              "]\n"}),
        Case("X", f"a flow list of {n:,} ints (read)", {"config.yaml": AXO + "z: [" + ",".join(["1"] * n) + "]\n"}),
        Case("X", f"a block list of {n:,} ints (read)", {"config.yaml": AXO + "z:\n" + "- 1\n" * n}),
        Case("X", "merge chain of 1,000 single merges", {"config.yaml": AXO + "m0: &m0 {a: 1}\n" + "".join(
            f"m{i}: &m{i} {{<<: *m{i - 1}, b{i}: 1}}\n" for i in range(1, 1000))}),
        Case("X", "message: 40 '[' then an open string of 500,000 escaped quotes", message="[" * 40 + '"' +
             '\\"' * 500_000),
        Case("X", "aliases 32 levels deep each, chained", {"config.yaml": AXO + "a0: &a0 " + "[" * 20 + "1" +
                                                           "]" * 20 + "\n" + "".join(f"a{i}: &a{i} " + "[" * 20 +
                                                                                     f"*a{i - 1}" + "]" * 20 + "\n"
                                                                                     for i in range(1, 5))}),
    ]


FAMILIES: dict[str, Callable[[], list[Case]]] = {"A": family_a, "B": family_b, "C": family_c, "D": family_d,
                                                 "E": family_e, "P": family_p, "R": family_r, "X": family_x}


def corpus(families: str = "ABCDEPRX") -> list[Case]:
    return [case for f in families for case in FAMILIES[f]()]


def _render_message(raw: dict[str, Any]) -> str:
    return json.dumps({"kind": "estimator", "raw": {"gpu": "rtx-4090", **raw}, "fixed": {}})


#: The page's import box: its three boxes, and the name the page gives each text (calculator/page/run.py).
_PARTS = {"accelerate.yaml": "accelerate", "ds_config.json": "deepspeed"}


def _box_parts(files: dict[str, str]) -> dict[str, str] | None:
    """The import box's texts for ``files``: the companions in their boxes, the one other file in ``main``."""
    parts: dict[str, str] = {}
    for name, text in files.items():
        part = _PARTS.get(name) or ("deepspeed" if name.endswith(".json") and len(files) > 1 else "main")
        if part in parts:
            return None
        parts[part] = text
    return parts


def _codes(answer: dict[str, Any]) -> list[tuple[Any, ...]]:
    if answer.get("ok"):
        return []
    errors = answer.get("errors") or [answer.get("error") or {"code": "refused"}]
    return [(e.get("code"), e.get("file") or e.get("field")) for e in errors]


class Doors:
    """The three doors, each timed on one case: ``time(door, case)`` -> (CPU ms, the answer's codes)."""

    def __init__(self, folder: Path) -> None:
        self.page = Page(json.dumps(calc_strings("en")), "en")
        self.folder = folder

    def api(self, case: Case) -> list[tuple[Any, ...]]:
        from calculator.export import answer_read

        if case.files is not None:
            return _codes(answer_read({"target": "auto", "files": case.files}))
        text = case.message if case.message is not None else '{"model": ' + str(case.paste) + ', "gpu": "rtx-4090"}'
        return _codes(json.loads(api.answer_text(text)))

    def page_(self, case: Case) -> list[tuple[Any, ...]]:
        p = self.page
        if case.files is not None:
            parts = _box_parts(case.files)
            if parts is None:
                return [("skipped", None)]
            out = json.loads(p.run(json.dumps({"action": "import", "kind": "estimator", "files": parts})))
            return [(e["code"], e.get("message", "")[:60]) for e in out.get("errors", [])]
        if case.paste is not None:
            return _codes(json.loads(p.render(_render_message({"model": {"source": "paste",
                                                                         "value": case.paste}}))))
        msg = str(case.message)                  # the three entry points together
        answers = [json.loads(p.render(msg)), json.loads(p.run(msg)), json.loads(p.search(msg))]
        return [c for a in answers[:2] for c in _codes(a)]

    def cli(self, case: Case) -> list[tuple[Any, ...]]:
        from calculator.__main__ import main

        args: list[str] = []
        for i, (name, text) in enumerate((case.files or {}).items()):
            path = self.folder / str(i) / Path(name).name.replace("<", "_").replace(">", "_")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            args += ["--import", str(path)]
        if case.files is None:
            path = self.folder / "config.json"
            path.write_text(str(case.paste if case.paste is not None else case.message), encoding="utf-8",
                            errors="surrogatepass")
            args += ["--config", str(path)]
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = main(args + ["--gpu", "rtx-4090"] if case.files is None else args)
        lines = err.getvalue().strip().splitlines()
        if rc == 0:
            return []
        code = lines[-1].split(" ")[1] if lines and lines[-1].startswith("error: ") else "exit"
        return [(code, rc, lines[-1][:80] if lines else "")]

    def time(self, door: str, case: Case) -> tuple[float, list[tuple[Any, ...]]]:
        run = {"api": self.api, "page": self.page_, "cli": self.cli}[door]
        t = time.process_time()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # ruamel's about YAML 1.1 floats (family A's !!float '1e5')
                codes = run(case)
        except BaseException as exc:  # noqa: BLE001 - a door that raised is a finding, printed
            codes = [("RAISED", type(exc).__name__)]
        return (time.process_time() - t) * 1000, codes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default="ABCDEPRX", help="which families (letters of FAMILIES)")
    parser.add_argument("--verbose", action="store_true", help="every case, door by door")
    parser.add_argument("--json", action="store_true", help="the worst time per family and door, as JSON")
    args = parser.parse_args(argv)
    cases = corpus(args.families)
    if not args.json:
        print(f"{platform.python_implementation()} {platform.python_version()}: {len(cases)} hostile inputs, CPU time "
          f"of each door's answer (time.process_time), budget {BUDGET_MS:g} ms")
    worst: dict[tuple[str, str], tuple[float, str]] = {}
    over, broken = [], []
    with tempfile.TemporaryDirectory() as tmp:
        doors = Doors(Path(tmp))
        doors.time("api", Case("-", "warm-up", {"config.yaml": AXO}))     # ruamel's first import is not a case's
        for case in cases:
            for door in case.doors:
                ms, codes = doors.time(door, case)
                if args.verbose and not args.json:
                    print(f"  {ms:8.1f} ms  {case.family:<2} {door:<4} {case.label[:70]}: {codes[:2]}")
                key = (case.family, door)
                worst[key] = max(worst.get(key, (0.0, "")), (ms, case.label))
                if ms > BUDGET_MS:
                    over.append((ms, case.family, door, case.label))
                if any(c and c[0] in ("internal_error", "RAISED") for c in codes):
                    broken.append((case.family, door, case.label, codes[:2]))
    if args.json:
        print(json.dumps({"budget_ms": BUDGET_MS, "cases": len(cases),
                          "worst": [{"family": f, "door": d, "ms": round(ms, 1), "case": label}
                                    for (f, d), (ms, label) in worst.items()],
                          "beyond_budget": [{"ms": round(ms, 1), "family": f, "door": d, "case": label}
                                            for ms, f, d, label in over],
                          "internal_error_or_raised": len(broken)}, indent=1))
        return 0
    print(f"{'family':<8}{'cases':>6}   " + "".join(f"{d:>34}" for d in ("api", "page", "cli")))
    for fam in dict.fromkeys(c.family for c in cases):
        n = sum(1 for c in cases if c.family == fam)
        cells = []
        for door in ("api", "page", "cli"):
            ms, label = worst.get((fam, door), (None, ""))
            cells.append(f"{'-':>34}" if ms is None else f"{ms:9.1f} ms {label[:21]:>21}")
        print(f"{fam:<8}{n:>6}   " + "".join(cells))
    top = max(worst.items(), key=lambda kv: kv[1][0])
    print(f"worst: {top[1][0]:.1f} ms ({top[0][0]}, {top[0][1]}: {top[1][1]})")
    print(f"beyond {BUDGET_MS:g} ms: {len(over)}")
    for ms, fam, door, label in sorted(over, reverse=True)[:20]:
        print(f"  {ms:8.1f} ms  {fam} {door}: {label}")
    print(f"internal_error or raised: {len(broken)}")
    for fam, door, label, codes in broken[:20]:
        print(f"  {fam} {door}: {label[:80]}: {codes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
