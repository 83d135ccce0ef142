#!/usr/bin/env python3
"""League table for time: our estimate and the public calculators that estimate training time, on the same measured
training speeds, in one command.

    python benchmarks/peers_time.py                 # the table: our figures now against the peers' committed answers
    python benchmarks/peers_time.py --rows          # plus one line per measured run
    python benchmarks/peers_time.py --json          # machine output
    python benchmarks/peers_time.py --markdown [--lang ar]   # the table of docs/accuracy*.md and benchmarks/README.md
    python benchmarks/peers_time.py --run-peers     # run the peers again (in their venv) and rewrite their answers

The rows are those of ``benchmarks/time_accuracy.py`` (same CSV, same exclusions, same reading of each row). Each tool
answers tokens per second per GPU for a row, or "unsupported" with the reason; the score is the absolute percentage
error against the row's measured tokens per second per GPU. Our estimate is scored twice: with the shipped
coefficients (fitted on these rows) and leave-one-source-out (each source with coefficients fitted on the others),
which is the fair comparison with peers that never saw the rows. The peers' answers are read from
``benchmarks/peer_adapters/results/time.json`` (what each adapter answered the last time the peers were run, keyed to
the configuration it read; ``--run-peers`` runs them again), the scoring and the tables are ``benchmarks/league.py``'s.

Peers (from PyPI, in ``.cache/peers-venv``, pinned in ``benchmarks/peer_adapters/requirements*.txt``; adapters
``benchmarks/peer_adapters/time_*.py``):

* ftune (``ftuneai``): ``Estimator(...).estimate_time(gpu=...)``: 6·P FLOPs per token (x 0.75 for LoRA) over bf16
  peak x a fixed MFU, a multi-GPU scaling factor.
* llm-analysis: ``train(...)["latency_per_iter"]`` with ``flops_efficiency=0.5`` (its README's figure for large-scale
  training): FLOPs of forward, backward and recompute over peak x efficiency; full fine-tuning only.

Not run: the other calculators of ``benchmarks/peers.py`` estimate memory only (FitCheck, accelerate); gpu_poor's
time figures live in a web page's JavaScript (``peers.NOT_RUN``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from benchmarks import league
from benchmarks import time_accuracy as bench
from benchmarks.league import DEFAULT_VENV, OURS, RESULTS_DIR, Measured, Peer, StaleAnswers
from benchmarks.peers import hf_config

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = RESULTS_DIR / "time.json"
COMMAND = "python benchmarks/peers_time.py"
OURS_LOSO = "ours-loso"
WITHIN = (25.0, 50.0)
VALUE = "tokens_per_second_per_gpu"


PEERS: tuple[Peer, ...] = (
    Peer("ftuneai", "ftune", "ftuneai", "time_ftuneai.py", "https://github.com/ritikmahy5/ftune",
         "6·P FLOPs per token (x 0.75 for LoRA/QLoRA), bf16 peak x MFU 0.35 (QLoRA 0.30), a per-GPU scaling factor "
         "by sharding strategy",
         "no attention FLOPs or sequence length effect, no recompute, no host or communication time, no batch-size "
         "effect; its GPU table has no L40S, RTX A6000, RTX 6000 Ada or A5000; LoRA targets are three presets"),
    Peer("llm-analysis", "llm-analysis", "llm-analysis", "time_llm_analysis.py",
         "https://github.com/cli99/llm-analysis",
         "FLOPs of forward, backward and recompute (attention included) over peak x flops_efficiency 0.5",
         "no LoRA or QLoRA; no communication, host or optimizer time in the training latency; cards outside its "
         "gpu_configs (RTX 3090/4090, L4, L40S, ...) not supported"),
)
PEER_KEYS = tuple(p.key for p in PEERS)


def time_config(row: bench.Row) -> dict[str, Any]:
    """The peer-neutral configuration of one row (the memory league's schema, plus grad_accum): what each adapter
    reads. The model is its config.json: the catalogue's own for presets, MPT's native one for llm-foundry rows."""
    s = row.setup
    if s is None or row.gpu is None:
        raise ValueError(f"row {row.id}: no setup or GPU to configure")
    m = s.model
    if m.family == "MPT":
        cfg = {"model_type": "mpt", "architectures": ["MPTForCausalLM"], "d_model": m.hidden_size,
               "n_heads": m.num_attention_heads, "n_layers": m.num_hidden_layers,
               "expansion_ratio": m.intermediate_size // m.hidden_size, "max_seq_len": max(s.seq_len, 2048),
               # the Llama-style names too, for peers that read only those (as hf_config rebuilds every model)
               "hidden_size": m.hidden_size, "num_hidden_layers": m.num_hidden_layers,
               "num_attention_heads": m.num_attention_heads, "intermediate_size": m.intermediate_size,
               "max_position_embeddings": max(s.seq_len, 2048), "tie_word_embeddings": True,
               "vocab_size": m.vocab_size, "torch_dtype": "bfloat16"}
    else:
        cfg = hf_config(m, min_positions=s.seq_len)
    weights = "nf4" if s.method.value == "qlora" else ("bf16" if s.precision.value == "bf16" else "fp32")
    opt = s.optimizer.value
    optimizer = {"adamw_torch": "adamw", "adamw_torch_fused": "adamw", "paged_adamw_32bit": "adamw",
                 "adamw_8bit": "adamw_8bit", "paged_adamw_8bit": "adamw_8bit"}.get(opt, opt)
    states = "8bit" if optimizer == "adamw_8bit" else ("bf16" if s.precision.value == "bf16" and
                                                       s.method.value == "full" else "fp32")
    sharding = s.sharding.value
    if sharding == "none" and s.num_gpus > 1:
        sharding = "ddp"
    offload = [name for flag, name in ((s.cpu_offload, "optimizer"), (s.offload_params, "params"),
                                       (s.activation_offloading, "activations")) if flag]
    special = [name for flag, name in ((s.optimizer_in_backward, "optimizer_in_backward"), (s.dpo, "dpo")) if flag]
    return {
        "id": row.id, "method": s.method.value, "model": m.name, "published_params": None, "mlp_gated": m.mlp_gated,
        "hf_config": cfg, "weights": weights, "compute": "bf16", "double_quant": s.double_quant,
        "qlora_backend": s.qlora_backend.value, "optimizer": optimizer, "optimizer_states": states,
        "paged": opt.startswith("paged"), "lora_rank": s.lora_rank if s.method.value != "full" else None,
        "lora_targets": list(s.lora_targets) if s.method.value != "full" else [], "micro_batch": s.micro_batch_size,
        "seq_len": s.seq_len, "grad_accum": s.grad_accum_steps, "grad_checkpointing": s.gradient_checkpointing,
        "attention": s.attention.value, "num_gpus": s.num_gpus, "sharding": sharding, "offload": offload,
        "special": special, "chunked_cross_entropy": s.chunked_cross_entropy, "gpu": row.gpu.id,
    }


def outcomes(rows: list[bench.Row], peer_docs: dict[str, dict[str, Any]],
             held_out: list[bench.Scored] | None = None) -> list[league.Outcome]:
    """Ours (shipped and leave-one-source-out) and every peer's answer, per row. ``held_out``: the
    leave-one-source-out scores if already computed (``bench.loso``; a minute of fitting otherwise)."""
    usable = [r for r in rows if r.setup is not None]
    out = [league.Outcome(s.row.id, s.row.method, OURS, "ok", s.estimate, s.row.measured) for s in bench.score(usable)]
    if held_out is None:
        held_out, _ = bench.loso(usable)
    out += [league.Outcome(s.row.id, s.row.method, OURS_LOSO, "ok", s.estimate, s.row.measured) for s in held_out]
    measured = [Measured(r.id, r.method, r.measured) for r in usable]
    for key, doc in peer_docs.items():
        out += league.answer_outcomes(measured, key, doc.get("results", []), VALUE)
    return out


def build_report(rows: list[bench.Row], peer_docs: dict[str, dict[str, Any]], versions: dict[str, str],
                 *, data: str, command: str = COMMAND, held_out: list[bench.Scored] | None = None,
                 answers: dict[str, str] | None = None) -> dict[str, Any]:
    outs = outcomes(rows, peer_docs, held_out)
    tools = [OURS, OURS_LOSO, *[k for k in PEER_KEYS if k in peer_docs]]
    per_row = league.per_row(outs, VALUE)
    usable = [r for r in rows if r.setup is not None]
    return {
        "command": command, "data": data, "answers": answers or {}, "versions": versions,
        "counts": {"scored": len(usable), "excluded": len(rows) - len(usable)},
        "peers": [{"key": p.key, "label": p.label, "version": versions.get(p.distribution), "docs": p.docs,
                   "covers": p.covers, "leaves_out": p.leaves_out} for p in PEERS if p.key in peer_docs],
        "summary": league.summary_json(league.summarise(outs, tools, within=WITHIN, references=(OURS, OURS_LOSO))),
        "rows": [{"id": r.id, "method": r.method, "gpu": r.gpu.id if r.gpu else None, "measured": r.measured,
                  "tools": per_row.get(r.id, {})} for r in usable],
    }


def configs_of(rows: list[bench.Row]) -> list[dict[str, Any]]:
    return [time_config(r) for r in rows if r.setup is not None]


def report(data: Path = bench.DEFAULT_DATA, *, held_out: list[bench.Scored] | None = None,
           command: str = COMMAND) -> dict[str, Any]:
    """The time league from our figures now and the peers' committed answers (no venv; ``StaleAnswers`` when a
    run's configuration changed since the peers answered)."""
    rows = bench.load_rows(data)
    ans = league.load_answers(ANSWERS, configs_of(rows), PEER_KEYS, refresh=f"{COMMAND} --run-peers")
    return build_report(rows, ans.docs, ans.versions, data=league.shown_path(data), command=command,
                        held_out=held_out, answers={"path": league.shown_path(ANSWERS), "date": ans.date})


TABLE = league.Table(
    within=WITHIN, references=(OURS, OURS_LOSO),
    labels={"en": {OURS: "ours (calculator)", OURS_LOSO: "ours, each source held out"},
            "ar": {OURS: "حاسبتنا", OURS_LOSO: "حاسبتنا، كل مصدر بمعاملات من غيره"}},
    text_head=("method", "tool", "rows", "median", "worst", "≤25 %", "≤50 %", "ours, same rows",
               "ours held out, same rows"),
    md_head={
        "en": ("Method", "Tool", "Rows", "Median error", "Worst error", "Within 25%", "Within 50%",
               "Ours on the same rows", "Ours, sources held out, same rows"),
        "ar": ("الطريقة", "الأداة", "الصفوف", "الخطأ الوسيط", "أسوأ خطأ", 'ضمن <bdi dir="ltr">25%</bdi>',
               'ضمن <bdi dir="ltr">50%</bdi>', "حاسبتنا على صفوفها", "حاسبتنا بمصادر محجوبة على صفوفها"),
    },
    stamp={
        "en": "Printed by `{command}` from `{data}` ({scored} measured runs) and the peers' answers of {answered} "
              "(`{answers}`). Absolute percentage error of the tokens per second per GPU; “Rows” = runs the tool can "
              "express / runs in the group.",
        "ar": 'طبعه الأمر <bdi>`{command}`</bdi> من الملف <bdi>`{data}`</bdi> (<bdi dir="ltr">{scored}</bdi> قياسًا '
              'منشورًا) ومن أجوبة الحاسبات الأخرى المحفوظة في <bdi>`{answers}`</bdi> (شُغّلت في '
              '<bdi dir="ltr">{answered}</bdi>). النسب هي الخطأ المطلق بالنسبة المئوية في عدد الرموز في الثانية لكل '
              "بطاقة؛ و«الصفوف» عدد القياسات التي تستطيع الأداة التعبير عنها من قياسات المجموعة.",
    },
    empty_same_rows="",
)


def render_text(report: dict[str, Any], rows: bool = False) -> str:
    ans = report.get("answers") or {}
    lines = [f"Time league table: {report['command']}"
             + (f" (the peers' answers of {ans['date']}, {ans['path']})" if ans.get("date") else ""),
             f"data: {report['data']} ({report['counts']['scored']} runs scored); absolute % error of tokens/s/GPU", "",
             *league.text_table(report, TABLE)]
    if rows:
        tools = [OURS, OURS_LOSO, *[p["key"] for p in report["peers"]]]
        lines += ["", "Per run (tokens/s/GPU, signed error; n/s = not supported):"]
        for r in report["rows"]:
            parts = []
            for t in tools:
                o = r["tools"].get(t)
                parts.append("n/s" if not o or o["status"] != "ok" else f"{o[VALUE]:.0f} ({o['signed']:+.0f} %)")
            lines.append(f"  {r['id']:<7} {r['method']:<6} {r['gpu']:<13} {r['measured']:>9.1f}  " + "  ".join(
                f"{t}={p}" for t, p in zip(tools, parts)))
    return "\n".join(lines) + "\n"


def render_markdown(report: dict[str, Any], lang: str = "en") -> str:
    return league.markdown_table(report, TABLE, lang)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=bench.DEFAULT_DATA, help="throughput CSV (default: %(default)s)")
    ap.add_argument("--rows", action="store_true", help="also print one line per measured run")
    ap.add_argument("--json", action="store_true", help="machine output")
    ap.add_argument("--markdown", action="store_true", help="the Markdown table (what the documents' blocks hold)")
    ap.add_argument("--lang", choices=("en", "ar"), default="en")
    ap.add_argument("--run-peers", action="store_true",
                    help=f"run the peers in their venv instead of reading their committed answers, and rewrite "
                         f"{ANSWERS.relative_to(ROOT)} (on the default data)")
    ap.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="the peers' venv (default: %(default)s)")
    a = ap.parse_args(argv)
    argv_shown = " ".join(argv if argv is not None else sys.argv[1:])
    command = COMMAND + (f" {argv_shown}" if argv_shown else "")
    rows = bench.load_rows(a.data)
    configs = configs_of(rows)
    try:
        docs, versions, answers = league.answers_for(
            PEERS, configs, path=ANSWERS, league="time", value_key=VALUE, command=command,
            refresh=f"{COMMAND} --run-peers", run=a.run_peers, save=a.data == bench.DEFAULT_DATA, venv_dir=a.venv)
    except StaleAnswers as exc:
        print(f"peers_time: {exc}", file=sys.stderr)
        return 2
    rep = build_report(rows, docs, versions, data=league.shown_path(a.data), command=command, answers=answers)
    if a.json:
        print(json.dumps(rep, indent=1))
    elif a.markdown:
        sys.stdout.write(render_markdown(rep, a.lang))
    else:
        sys.stdout.write(render_text(rep, rows=a.rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
