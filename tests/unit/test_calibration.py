"""benchmarks/calibration.py: CSV rows -> requests, like-for-like statistics and units."""
from __future__ import annotations

import csv
import json
import io

import pytest

from benchmarks.calibration import (
    CALIBRATION_ALIASES,
    CALIBRATION_GPU_ALIASES,
    GB,
    GIB,
    load_rows,
    row_to_request,
)
from calculator import api
from calculator.catalog import GPUS, MODELS

pytestmark = pytest.mark.unit

HEADER = ("id,source_url,source_quote,model,params_b,arch_hidden,arch_layers,arch_heads,arch_kv_heads,"
          "arch_intermediate,arch_vocab,method,weight_precision,compute_precision,optimizer,lora_rank,lora_targets,"
          "micro_batch,seq_len,grad_checkpointing,flash_attention,num_gpus,sharding,cpu_offload,gpu_model,"
          "measured_peak_gb,measure_kind,units,notes")


def rows_from(lines: list[str], tmp_path) -> list:
    p = tmp_path / "m.csv"
    p.write_text(HEADER + "\n" + "\n".join(lines) + "\n")
    return load_rows(p)


def test_units_and_statistics(tmp_path) -> None:
    rows = rows_from([
        'A-1,https://x/torchtune,q,Llama-2-7B,6.7,4096,32,32,32,11008,32000,lora,bf16,bf16,adamw_bf16,8,"q,v",2,512,'
        'yes,sdpa,1,none,none,A100,10.0,max_memory_reserved,GB,[tier A] x',
        'A-2,https://x/litgpt,q,Llama-2-7B,6.7,4096,32,32,32,11008,32000,lora,bf16,bf16,adamw_bf16,8,"q,v",2,512,'
        'no,sdpa,1,none,none,A100,10.0,active_peak (~max_memory_allocated),GiB,[tier A] x',
        'A-3,https://x/peft,q,Llama-2-7B,6.7,4096,32,32,32,11008,32000,lora,bf16,bf16,adamw,8,"q,v",2,512,'
        'no,fa2,8,zero3,none,H100,10.0,nvidia-smi (screenshot),GB,[tier B] x',
        'A-4,https://x/peft,q,Llama-2-7B,6.7,4096,32,32,32,11008,32000,full,bf16,bf16,adamw,,,2,512,'
        'no,sdpa,1,none,none,H100,10.0,unknown,G (unit as written),[tier B] x',
    ], tmp_path)
    assert [r.compare for r in rows] == ["reserved_bytes", "allocated_bytes", "peak_bytes_per_gpu",
                                         "allocated_bytes"]
    assert [r.measured_bytes for r in rows] == [10 * GB, 10 * GIB, 10 * GB, 10 * GB]
    assert any("unknown" in a for a in rows[3].assumptions)
    assert rows[2].request["attention"] == "flash" and rows[2].request["sharding"] == "zero3"
    for r in rows:
        assert json_ok(r.request)


def json_ok(req: dict) -> bool:
    import json
    return json.loads(api.answer_text(json.dumps(req)))["ok"]


def test_exclusions_and_capacity(tmp_path) -> None:
    rows = rows_from([
        'B-1,u,q,Llama-2-7B,6.7,4096,32,32,32,11008,32000,full,bf16,bf16,adamw_bf16,,,4,512,no,sdpa,1,none,none,'
        'A10G,8.7,max_memory_allocated,GB,[tier C] SUSPECT: below weights',
        'B-2,u,q,T0_3B,2.85,1024,24,32,32,16384,32128,full,fp32,fp32,adamw_fp32,,,8,,no,no (eager),1,none,none,'
        'A100,47,max_memory_allocated,GB,[tier B] x | ENCODER-DECODER (T5-3B arch)',
        'B-3,https://github.com/unslothai/unsloth,q,Llama-3.1-8B,8.03,4096,32,32,8,14336,128256,qlora,nf4,bf16,'
        'unknown,32,"q,k,v,o,gate,up,down",1,5789,unknown,fa2,1,none,none,unknown,24,capacity (max ctx that fits),'
        'GB,[tier C] x',
    ], tmp_path)
    assert rows[0].excluded_reason and "SUSPECT" in rows[0].excluded_reason
    assert rows[1].excluded_reason and "encoder" in rows[1].excluded_reason
    assert rows[2].kind == "capacity" and rows[2].request["gradient_checkpointing"] is True


def test_stated_defaults_and_sibling_rows(tmp_path) -> None:
    rows = rows_from([
        'C-1,https://github.com/pytorch/torchtune/README.md,q,Llama-3.1-8B,8.03,4096,32,32,8,14336,128256,lora,bf16,'
        'bf16,adamw_bf16,unknown (config default 8),"unknown (config default q,v)",2,2048,unknown,sdpa,1,none,'
        'unknown,RTX 4090,16.2,unknown,GiB,[tier B] x',
        'C-2,https://github.com/pytorch/torchtune/README.md,q,Llama-3.1-8B,8.03,4096,32,32,8,14336,128256,lora,bf16,'
        'bf16,adamw_bf16,unknown,unknown,2,2048,unknown,sdpa,1,none,unknown,RTX A6000,30.3,unknown,GiB,[tier C] x',
    ], tmp_path)
    for r in rows:
        assert r.request["lora_rank"] == 8 and r.request["lora_targets"] == ["q_proj", "v_proj"]
        assert r.request["lora_dtype"] == "bf16"               # torchtune profile
        assert r.request["gradient_checkpointing"] is True     # torchtune configs enable AC


def test_bracket_when_seq_len_missing(tmp_path) -> None:
    rows = rows_from([
        'D-1,https://github.com/pytorch/torchtune/README.md,Baseline Max sequence length=4096,Llama-3.2-3B,3.2,3072,'
        '28,24,8,8192,128256,full,bf16,bf16,adamw_bf16,,,2,,no,sdpa,1,none,none,A100,25.5,active_peak,GiB,'
        '[tier B] x',
    ], tmp_path)
    assert rows[0].kind == "bracket" and rows[0].request["seq_len"] == 4096
    assert rows[0].bracket_low_request["seq_len"] == 1


def test_row_to_request_reads_notes_for_dropout_and_double_quant() -> None:
    raw = next(csv.DictReader(io.StringIO(
        HEADER + "\n" + 'E-1,https://github.com/Lightning-AI/lit-gpt/x,bnb.nf4-dq,Llama-2-7B,6.7,4096,32,32,32,11008,'
        '32000,qlora,nf4,bf16,paged_adamw_32bit (bnb PagedAdamW),8,"query,value",1,1304,no,sdpa,1,none,none,A100,'
        '13.84,max_memory_allocated,GB,"[tier A] finetune_lora defaults then: r=8, alpha=16, dropout 0.05"\n')))
    req = row_to_request(raw, [])
    assert req["lora_dropout"] == 0.05 and req["double_quant"] is True and req["optimizer"] == "paged_adamw_32bit"
    assert req["chunked_cross_entropy"] is True and req["lora_dtype"] == "bf16"


@pytest.mark.parametrize(("text", "compiled"), [
    ("all rows batch size 2, packed to 2048, torch.compile on; tokens/sec", True),
    ("packed 4096 + compile + CEWithChunkedOutputLoss; no AC", True),
    ("tune run ... dataset.packed=True compile=True enable_activation_checkpointing=True", True),
    ("packed to 4096; no compile; standard CE; no AC", False),
    ("configs = llama2 defaults; *=bnb PagedAdamW, **=torch.compile", False),   # a footnote legend, not this row
    ("no gradient checkpointing, no compile, attn_implementation None", False),
])
def test_compile_is_read_only_where_the_row_says_so(text: str, compiled: bool) -> None:
    raw = {"id": "X", "source_url": "https://x/torchtune", "source_quote": "q", "model": "Llama-2-7B",
           "method": "full", "weight_precision": "bf16", "compute_precision": "bf16", "optimizer": "adamw_bf16",
           "micro_batch": "2", "seq_len": "512", "grad_checkpointing": "no", "flash_attention": "sdpa",
           "num_gpus": "1", "sharding": "none", "cpu_offload": "none", "notes": "[tier A] " + text}
    assert bool(row_to_request(raw, []).get("torch_compile")) is compiled


def test_cumulative_table_carries_compile_and_chunked_ce(tmp_path) -> None:
    common = ('Llama-2-7B,6.7,4096,32,32,32,11008,32000,full,bf16,bf16,adamw_bf16,,,2,4096,{ac},sdpa,1,none,none,'
              'A100,{gb},active_peak (~max_memory_allocated),GiB,"[tier A] techniques added cumulatively; {note}"')
    rows = rows_from([
        "C-1,https://x/torchtune/README.md,q," + common.format(ac="no", gb="60", note="packed; no compile"),
        "C-2,https://x/torchtune/README.md,q," + common.format(ac="no", gb="43", note="packed + compile + chunked CE"),
        "C-3,https://x/torchtune/README.md,q," + common.format(ac="yes", gb="25", note="+ AC"),
    ], tmp_path)
    assert not rows[0].request.get("torch_compile") and not rows[0].request.get("chunked_cross_entropy")
    for r in rows[1:]:
        assert r.request["torch_compile"] is True and r.request["chunked_cross_entropy"] is True


def test_notes_settle_an_unknown_checkpointing_cell(tmp_path) -> None:
    row = ('N-1,https://x/torchtune/README.md,q,Llama-3.1-8B,8.03,4096,32,32,8,14336,128256,lora,bf16,bf16,'
           'adamw_bf16,8,"q,v",2,2048,unknown,sdpa,1,none,unknown,RTX A6000,30.3,unknown,GiB,'
           '"[tier C] differs from 4090 row => different (unpublished) flags, probably AC off"')
    (r,) = rows_from([row], tmp_path)
    assert r.request["gradient_checkpointing"] is False
    assert any("probably AC off" in a for a in r.assumptions)


def test_deepspeed_rows_get_the_zero3_bucket_and_fsdp_rows_do_not(tmp_path) -> None:
    base = ('Llama-2-7B,6.7,4096,32,32,32,11008,32000,lora,bf16,bf16,adamw,8,"q,v",2,512,no,sdpa,2,zero3,none,'
            'A100,10.0,max_memory_allocated,GB,[tier B] x')
    ds, fsdp = rows_from(["D-1,https://x/peft/docs/accelerate/deepspeed.md,q," + base,
                          "D-2,https://x/peft/docs/accelerate/fsdp.md,q," + base], tmp_path)
    assert ds.request["deepspeed"] is True and "deepspeed" not in fsdp.request
    assert json.loads(api.answer_text(json.dumps(ds.request)))["ok"] is True


def test_calibration_aliases_target_existing_models() -> None:
    for name, target in CALIBRATION_ALIASES.items():
        assert target in MODELS, (name, target)
    for name, target in CALIBRATION_GPU_ALIASES.items():
        assert target in GPUS, (name, target)


def test_missing_calibration_data_fails_with_a_clear_message(tmp_path) -> None:
    missing = tmp_path / "nowhere" / "measurements.csv"
    with pytest.raises(FileNotFoundError, match="calibration data not found at .*nowhere"):
        load_rows(missing)


def test_source_readings_apply_to_their_sources_only(tmp_path) -> None:
    """What a source states at its commit (calibration.SOURCE_READINGS): torchtune's May-2024 README table is
    max_memory_reserved and its recipes kept the logits and used foreach AdamW; the PEFT FSDP page's LoRA launch
    command loads an fp32 base with dropout 0.1 and 4 accumulation steps. Another commit of the same file gets
    none of it."""
    tt = ("https://github.com/pytorch/torchtune/blob/0217d44c2e1e372b34628767745c1f6538086a81/README.md,q,Llama-2-7B,"
          "6.7,4096,32,32,32,11008,32000,full,bf16,bf16,adamw_bf16 (torch AdamW),,,4,2048,yes,sdpa,4,fsdp (full shard),"
          "none,RTX 4090,24.1,unknown,GB,[tier B] x")
    later = tt.replace("0217d44c2e1e372b34628767745c1f6538086a81", "30b8519e86d2094879576e16ab1f8d21a6f6f9f7")
    pd = ("https://github.com/huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/docs/source/accelerate/"
          "fsdp.md,q,Llama-2-70B,69,8192,80,64,8,28672,32000,lora,bf16,bf16 (accelerate mixed_precision bf16),adamw,8,"
          "all-linear,8,2048,yes,fa2,8,fsdp,none,H100 80GB,72,nvidia-smi (screenshot),GB,[tier C] x")
    early, late, fsdp = rows_from(["T-1," + tt, "T-2," + later, "P-1," + pd], tmp_path)
    assert early.compare == "reserved_bytes" and late.compare == "allocated_bytes"
    assert early.request["keeps_logits"] is True and early.request["optimizer"] == "adamw_torch"
    assert "keeps_logits" not in late.request and late.request["optimizer"] == "adamw_torch_fused"
    assert fsdp.request["base_fp32"] is True and fsdp.request["precision"] == "mixed"
    assert fsdp.request["lora_dropout"] == 0.1 and fsdp.request["grad_accum_steps"] == 4
    assert fsdp.compare == "peak_bytes_per_gpu"
    for r in (early, late, fsdp):
        assert json_ok(r.request)


@pytest.mark.parametrize("weights,compute,precision,base_fp32", [
    ("fp32", "fp16 (amp)", "mixed", True),     # from_pretrained without a dtype, then 16-bit autocast
    ("fp32", "bf16", "mixed", True),           # fp32 weights under 16-bit compute, whatever the cell calls it
    ("fp32", "fp32", "fp32", None),
    ("bf16", "bf16 (amp)", "mixed", None),     # a 16-bit load under autocast: the 16-bit base of the default
    ("bf16", "bf16", "bf16", None),
])
def test_the_load_dtype_comes_from_the_rows_own_columns(tmp_path, weights, compute, precision, base_fp32) -> None:
    row = rows_from([f'B-1,https://x/peft,q,Llama-2-7B,6.7,4096,32,32,32,11008,32000,lora,{weights},"{compute}",'
                     'adamw,8,"q,v",1,512,no,sdpa,1,none,none,A100,10.0,max_memory_allocated,GB,[tier A] x'],
                    tmp_path)[0]
    assert row.request["precision"] == precision
    assert row.request.get("base_fp32") is base_fp32
    assert json_ok(row.request)


def test_speed_rows_read_not_stated_checkpointing_as_the_frameworks_default() -> None:
    """A speed row whose grad_checkpointing cell says "not stated" takes the framework's documented default
    (LLaMA-Factory: on), not a "no": "not stated" begins with "no" (issue 39, point 5: the LLaMA-Factory rows
    UN-01/02/04/05 were timed without the recomputed forward)."""
    from benchmarks.time_accuracy import _checkpointing, _yes
    assert _yes("not stated") is None and _yes("no (config)") is False and _yes("yes") is True
    notes: list[str] = []
    assert _checkpointing({"grad_checkpointing": "not stated",
                           "framework": "LLaMA-Factory (HF transformers/PEFT)"}, notes) is True
    assert any("LLaMA-Factory" in n for n in notes)
    assert _checkpointing({"grad_checkpointing": "no", "framework": "LLaMA-Factory"}, []) is False
    assert _checkpointing({"grad_checkpointing": "not stated", "framework": "HF Trainer"}, []) is False


def test_answerdotai_qlora_is_double_quantised() -> None:
    """fsdp_qlora train.py builds bitsandbytes' Linear4bit without compress_statistics, whose default is True."""
    from benchmarks.calibration import framework_fields
    assert framework_fields("answerdotai", "qlora")["double_quant"] is True
    assert framework_fields("peft", "qlora")["double_quant"] is False


def test_speed_rows_of_llama_factory_without_flash_attention_run_eager() -> None:
    """LLaMA-Factory's _configure_attn_implementation sets attn_implementation="eager" unless flash_attn is on: a
    LLaMA-Factory row whose attention is "not stated" and names no FlashAttention is eager; other frameworks' "not
    stated" rows keep their reading."""
    from benchmarks.time_accuracy import _attention
    from calculator.models import Attention
    lf = "LLaMA-Factory (HF transformers/PEFT)"
    assert _attention({"attention": "sdpa/eager (HF default; not stated)", "framework": lf}, []) is Attention.EAGER
    assert _attention({"attention": "flash-attention 2", "framework": lf}, []) is Attention.FLASH
    assert _attention({"attention": "flex_attention for packed batches if available, else sdpa (torchtune default; "
                                    "not stated)", "framework": "torchtune"}, []) is Attention.SDPA
