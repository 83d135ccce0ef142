#!/usr/bin/env python3
"""League table for time: our estimate and the public calculators that estimate training time, on the same measured
training speeds, in one command.

    python benchmarks/peers_time.py                 # the table (installs the peers on first use, as peers.py does)
    python benchmarks/peers_time.py --rows          # plus one line per measured run
    python benchmarks/peers_time.py --json          # machine output
    python benchmarks/peers_time.py --markdown [--lang ar]   # the table of docs/accuracy*.md
    python benchmarks/peers_time.py --update-docs   # rewrites that table in docs/accuracy*.md and README.md

The rows are those of ``benchmarks/time_accuracy.py`` (same CSV, same exclusions, same reading of each row). Each tool
answers tokens per second per GPU for a row, or "unsupported" with the reason; the score is the absolute percentage
error against the row's measured tokens per second per GPU. Our estimate is scored twice: with the shipped
coefficients (fitted on these rows) and leave-one-source-out (each source with coefficients fitted on the others),
which is the fair comparison with peers that never saw the rows.

Peers (from PyPI, in ``.cache/peers-venv``, pinned in ``benchmarks/peers/requirements*.txt``; adapters
``benchmarks/peers/time_*.py``):

* ftune (``ftuneai``): ``Estimator(...).estimate_time(gpu=...)``: 6·P FLOPs per token (x 0.75 for LoRA) over bf16
  peak x a fixed MFU, a multi-GPU scaling factor.
* llm-analysis: ``train(...)["latency_per_iter"]`` with ``flops_efficiency=0.5`` (its README's figure for large-scale
  training): FLOPs of forward, backward and recompute over peak x efficiency; full fine-tuning only.

Not run: the other calculators of ``benchmarks/peers.py`` estimate memory only (FitCheck, accelerate); gpu_poor's
time figures live in a web page's JavaScript (``peers.NOT_RUN``).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import time_accuracy as bench
from benchmarks.peers import (
    DEFAULT_VENV,
    DOC_TARGETS,
    ROOT,
    Peer,
    ensure_venv,
    grouped_table_lines,
    hf_config,
    installed_versions,
    replace_block,
    run_peer,
)

COMMAND = "python benchmarks/peers_time.py"
METHODS = ("full", "lora", "qlora")
GROUPS = (*METHODS, "all")
OURS, OURS_LOSO = "ours", "ours-loso"

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
    assert s is not None and row.gpu is not None
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


@dataclass(frozen=True)
class Outcome:
    row_id: str
    method: str
    tool: str
    status: str                       # ok | unsupported | error
    predicted: float | None           # tokens per second per GPU
    measured: float
    reason: str = ""

    @property
    def ape(self) -> float | None:
        return None if self.predicted is None else abs(self.predicted - self.measured) / self.measured * 100

    @property
    def signed(self) -> float | None:
        return None if self.predicted is None else (self.predicted - self.measured) / self.measured * 100


def outcomes(rows: list[bench.Row], peer_docs: dict[str, dict[str, Any]]) -> list[Outcome]:
    """Ours (shipped and leave-one-source-out) and every peer's answer, per row."""
    usable = [r for r in rows if r.setup is not None]
    out = [Outcome(s.row.id, s.row.method, OURS, "ok", s.estimate, s.row.measured) for s in bench.score(usable)]
    held_out, _ = bench.loso(usable)
    out += [Outcome(s.row.id, s.row.method, OURS_LOSO, "ok", s.estimate, s.row.measured) for s in held_out]
    for key, doc in peer_docs.items():
        by_id = {r["id"]: r for r in doc.get("results", [])}
        for r in usable:
            res = by_id.get(r.id, {"status": "error", "reason": "no answer from the adapter"})
            value = res.get("tokens_per_second_per_gpu")
            status = res.get("status", "error")
            if status == "ok" and not (isinstance(value, (int, float)) and value > 0):
                status, value = "error", None
            out.append(Outcome(r.id, r.method, key, status, float(value) if status == "ok" else None, r.measured,
                               str(res.get("reason", ""))))
    return out


def summarise(outs: list[Outcome], tools: list[str]) -> list[dict[str, Any]]:
    ours = {o.row_id: o for o in outs if o.tool == OURS}
    ours_loso = {o.row_id: o for o in outs if o.tool == OURS_LOSO}
    table = []
    for group in GROUPS:
        for tool in tools:
            mine = [o for o in outs if o.tool == tool and (group == "all" or o.method == group)]
            apes = sorted(a for o in mine if (a := o.ape) is not None)
            ids = [o.row_id for o in mine if o.ape is not None]
            table.append({
                "group": group, "tool": tool, "rows": len(apes), "of": len(mine),
                "median": statistics.median(apes) if apes else None, "worst": max(apes) if apes else None,
                "within25": sum(a <= 25 for a in apes), "within50": sum(a <= 50 for a in apes),
                "ours_same_rows": (statistics.median(ours[i].ape for i in ids) if ids and tool not in (OURS, OURS_LOSO)
                                   else None),
                "ours_loso_same_rows": (statistics.median(ours_loso[i].ape for i in ids)
                                        if ids and tool not in (OURS, OURS_LOSO) else None),
            })
    return table


def build_report(rows: list[bench.Row], peer_docs: dict[str, dict[str, Any]], versions: dict[str, str],
                 *, data: str, date: str) -> dict[str, Any]:
    outs = outcomes(rows, peer_docs)
    tools = [OURS, OURS_LOSO, *[k for k in PEER_KEYS if k in peer_docs]]
    per_row: dict[str, dict[str, Any]] = {}
    for o in outs:
        per_row.setdefault(o.row_id, {})[o.tool] = {"status": o.status, "tokens_per_second_per_gpu": o.predicted,
                                                    "signed": o.signed, "reason": o.reason}
    usable = [r for r in rows if r.setup is not None]
    return {
        "date": date, "command": COMMAND, "data": data, "versions": versions,
        "counts": {"scored": len(usable), "excluded": len(rows) - len(usable)},
        "peers": [{"key": p.key, "label": p.label, "version": versions.get(p.distribution), "docs": p.docs,
                   "covers": p.covers, "leaves_out": p.leaves_out} for p in PEERS if p.key in peer_docs],
        "summary": summarise(outs, tools),
        "rows": [{"id": r.id, "method": r.method, "gpu": r.gpu.id if r.gpu else None, "measured": r.measured,
                  "tools": per_row.get(r.id, {})} for r in usable],
    }


def _label(tool: str, versions: dict[str, str], lang: str = "en") -> str:
    if tool == OURS:
        return "حاسبتنا" if lang == "ar" else "ours (calculator)"
    if tool == OURS_LOSO:
        return "حاسبتنا، كل مصدر بمعاملات من غيره" if lang == "ar" else "ours, each source held out"
    peer = next(p for p in PEERS if p.key == tool)
    v = versions.get(peer.distribution)
    return f"{peer.label} {v}" if v else peer.label


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1f} %"


def render_text(report: dict[str, Any], rows: bool = False) -> str:
    head = ("group", "tool", "rows", "median", "worst", "<=25 %", "<=50 %", "ours same rows", "ours LOSO same rows")
    cells = [(s["group"], _label(s["tool"], report["versions"]), f"{s['rows']}/{s['of']}", _pct(s["median"]),
              _pct(s["worst"]), str(s["within25"]), str(s["within50"]), _pct(s["ours_same_rows"]),
              _pct(s["ours_loso_same_rows"])) for s in report["summary"]]
    lines = [f"Time league table, {report['date']}: {report['command']}",
             f"data: {report['data']} ({report['counts']['scored']} runs scored); absolute % error of tokens/s/GPU", "",
             *grouped_table_lines(head, cells)]
    if rows:
        tools = [OURS, OURS_LOSO, *[p["key"] for p in report["peers"]]]
        lines += ["", "Per run (tokens/s/GPU, signed error; n/s = not supported):"]
        for r in report["rows"]:
            parts = []
            for t in tools:
                o = r["tools"].get(t)
                parts.append("n/s" if not o or o["status"] != "ok" else
                             f"{o['tokens_per_second_per_gpu']:.0f} ({o['signed']:+.0f} %)")
            lines.append(f"  {r['id']:<7} {r['method']:<6} {r['gpu']:<13} {r['measured']:>9.1f}  " + "  ".join(
                f"{t}={p}" for t, p in zip(tools, parts)))
    return "\n".join(lines) + "\n"


_MD = {
    "en": {"head": ("Method", "Tool", "Rows", "Median error", "Worst error", "Within 25 %", "Within 50 %",
                    "Ours on the same rows", "Ours, sources held out, same rows"),
           "groups": {"full": "full", "lora": "LoRA", "qlora": "QLoRA", "all": "all"},
           "stamp": "Generated on {date} by `{command} --markdown` from `{data}` ({scored} measured runs). Absolute "
                    "percentage error of the tokens per second per GPU; “Rows” = runs the tool can express / runs in "
                    "the group."},
    "ar": {"head": ("الطريقة", "الأداة", "الصفوف", "الخطأ الوسيط", "أسوأ خطأ", 'ضمن <bdi dir="ltr">25 %</bdi>',
                    'ضمن <bdi dir="ltr">50 %</bdi>', "حاسبتنا على صفوفها", "حاسبتنا بمصادر محجوبة على صفوفها"),
           "groups": {"full": "ضبط كامل", "lora": "<bdi>LoRA</bdi>", "qlora": "<bdi>QLoRA</bdi>", "all": "الكل"},
           "stamp": 'أُنتج في <bdi dir="ltr">{date}</bdi> بالأمر <bdi>`{command} --markdown --lang ar`</bdi> من '
                    'الملف <bdi>`{data}`</bdi> (<bdi dir="ltr">{scored}</bdi> قياسًا منشورًا). النسب هي الخطأ المطلق '
                    "بالنسبة المئوية في عدد الرموز في الثانية لكل بطاقة؛ و«الصفوف» عدد القياسات التي تستطيع الأداة "
                    "التعبير عنها من قياسات المجموعة."},
}


def render_markdown(report: dict[str, Any], lang: str = "en") -> str:
    t = _MD[lang]

    def cell(x: str) -> str:
        return f'<bdi dir="ltr">{x}</bdi>' if lang == "ar" and x else x

    lines = [t["stamp"].format(date=report["date"], command=report["command"], data=report["data"],
                               scored=report["counts"]["scored"]), "",
             "| " + " | ".join(t["head"]) + " |", "| " + " | ".join(["---", "---"] + ["---:"] * 7) + " |"]
    for s in report["summary"]:
        tool = _label(s["tool"], report["versions"], lang)
        if lang == "ar" and s["tool"] not in (OURS, OURS_LOSO):
            tool = cell(tool)
        vals = [f"{s['rows']}/{s['of']}", _pct(s["median"]), _pct(s["worst"]), str(s["within25"]),
                str(s["within50"]), "" if s["ours_same_rows"] is None else _pct(s["ours_same_rows"]),
                "" if s["ours_loso_same_rows"] is None else _pct(s["ours_loso_same_rows"])]
        lines.append("| " + " | ".join([t["groups"][s["group"]], tool, *(cell(v) for v in vals)]) + " |")
    return "\n".join(lines) + "\n"


BLOCK = "time-league"


def update_docs(report: dict[str, Any]) -> list[Path]:
    """Write the table between the ``<!-- peers:begin time-league -->`` / ``end`` markers of the pages that have
    them (the memory league's targets: docs/accuracy.md, docs/accuracy.en.md, README.md)."""
    written = []
    for path, lang in DOC_TARGETS:
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        if f"<!-- peers:begin {BLOCK} -->" not in text:
            continue
        path.write_text(replace_block(text, BLOCK, render_markdown(report, lang)), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=bench.DEFAULT_DATA, help="throughput CSV (default: %(default)s)")
    ap.add_argument("--rows", action="store_true", help="also print one line per measured run")
    ap.add_argument("--json", action="store_true", help="machine output")
    ap.add_argument("--markdown", action="store_true", help="the Markdown table of docs/accuracy*.md")
    ap.add_argument("--lang", choices=("en", "ar"), default="en")
    ap.add_argument("--update-docs", action="store_true",
                    help="write the table into docs/accuracy.md, docs/accuracy.en.md and README.md")
    ap.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="the peers' venv (default: %(default)s)")
    a = ap.parse_args(argv)
    rows = bench.load_rows(a.data)
    configs = [time_config(r) for r in rows if r.setup is not None]
    py = ensure_venv(a.venv)
    versions = installed_versions(py)
    docs = {}
    for peer in PEERS:
        print(f"peers_time: running {peer.label} on {len(configs)} runs ...", file=sys.stderr)
        docs[peer.key] = run_peer(py, peer, configs)
    try:
        data = str(a.data.relative_to(ROOT.parent))
    except ValueError:
        data = str(a.data)
    report = build_report(rows, docs, versions, data=data,
                          date=_dt.datetime.now(_dt.timezone.utc).date().isoformat())
    if a.update_docs:
        for path in update_docs(report):
            print(f"peers_time: wrote {path.relative_to(ROOT)}", file=sys.stderr)
    if a.json:
        print(json.dumps(report, indent=1))
    elif a.markdown:
        sys.stdout.write(render_markdown(report, a.lang))
    else:
        sys.stdout.write(render_text(report, rows=a.rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
