"""The answer's shape, one owner: what the API returns for one request, as JSON-ready values.

``result_json(setup, estimate, options)`` lays out the memory estimate (memory.py), the advice (recommend.py) and
the time and cost (throughput.py) of one request; ``gpu_json`` is a card of the schema. The physics modules return
numbers and dataclasses and never shape an answer; this module computes nothing of its own beyond prices, rounding
and the choice of the fastest and cheapest setups. ESTIMATOR.md documents every field. Standard library only.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import frameworks, recommend, rl, throughput
from .catalog import ALIAS_SOURCES, GPUS, MODELS, WEIGHT_NOTES, resolve
from .configs import model_json, unknown_type
from .errors import TimeNotModelled
from .evidence import time_evidence
from .inputs import DEFAULTS, inputs_json
from .memory import GB, GIB
from .models import Estimate, GpuSpec, TrainingSetup, replaced
from .throughput import Workload, effective_setup, run_time

__all__ = ["CURRENCY", "result_json", "remedies_json", "gpu_json", "resolution_json"]


# =====================================================================================================================
# The estimate
# =====================================================================================================================
def _sizes(b: int) -> dict[str, float]:
    return {"gb": round(b / GB, 2), "gib": round(b / GIB, 2)}


def resolution_json(model: Any) -> dict[str, Any] | None:
    """What a model id the request names resolved to (``catalog.resolve``), when it is not the entry's own id or repo:
    the id as typed (``from``), the entry (``model``, ``name``, ``repo``), how it was found (``via``), the weight format
    its suffix states (``weight_format``, else None) and, for a fine-tune or mirror, where its shapes are stated
    (``source``). None for a pasted config, an entry named by its id or repo, or an id that resolves to nothing."""
    if not isinstance(model, str):
        return None
    found = resolve(model)
    if found is None or not found.model:
        return None
    m = MODELS[found.model]
    if found.typed.lower() in (m.id, m.hf_id.lower()):
        return None
    return {"from": found.typed, "model": m.id, "name": m.name, "repo": m.hf_id, "via": found.via,
            "weight_format": found.weight_format or None, "source": ALIAS_SOURCES.get(found.typed.lower())}


def result_json(s: TrainingSetup, e: Estimate, options: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request: the estimate and its breakdown, the counts and files, the normalised inputs, and
    what ``options`` asks for: the verdict on a card, the GPU table, the smallest setup, the remedies, the inverse
    solver, and the time and cost of the run."""
    gpu = options.get("gpu")
    include = options.get("include", ())
    requested = options.get("requested") or s       # the setup as asked, before the chosen card adjusted it
    resolved = options.get("resolved")
    r: dict[str, Any] = {
        "peak_bytes_per_gpu": e.peak_bytes,
        "peak_gb": round(e.peak_bytes / GB, 2),
        "peak_gib": round(e.peak_bytes / GIB, 2),
        "allocated_bytes": e.allocated_bytes,
        "reserved_bytes": e.reserved_bytes,
        "range": {"low_bytes": e.low_bytes, "high_bytes": e.high_bytes,
                  "low_gb": round(e.low_bytes / GB, 2), "high_gb": round(e.high_bytes / GB, 2),
                  "low_gib": round(e.low_bytes / GIB, 2), "high_gib": round(e.high_bytes / GIB, 2)},
        "phase": e.phase.value,
        "phases_allocated_bytes": e.phases,
        "breakdown_bytes": e.breakdown,
        "params": e.params,
        "trainable_params": e.trainable_params,
        "trainable_share": e.trainable_params / e.params,
        "host_ram_bytes": e.host_ram_bytes,
        "host_ram": _sizes(e.host_ram_bytes),
        "host_ram_load_bytes": e.host_ram_load_bytes,
        "host_ram_load": _sizes(e.host_ram_load_bytes),
        "paged_optimizer_bytes": e.paged_optimizer_bytes,
        "driver_bytes": e.driver_bytes,
        "checkpoint_bytes": e.checkpoint_bytes,
        "checkpoint": _sizes(e.checkpoint_bytes),
        "adapter_bytes": e.adapter_bytes,
        "adapter": _sizes(e.adapter_bytes),
        "optimizer_state_file_bytes": e.optimizer_state_file_bytes,
        "effective_batch_size": s.micro_batch_size * s.grad_accum_steps * s.num_gpus,
        "notes": list(e.notes) + (["vision_tower_frozen"] if s.model.vision_params else [])
        + (["model_type_unknown"] if unknown_type(s.model) else [])
        + ([WEIGHT_NOTES[resolved["weight_format"]]] if resolved and resolved["weight_format"] in WEIGHT_NOTES else []),
        # what a model id other than the entry's own resolved to (a fine-tune, a mirror, a format suffix, no owner)
        **({"resolved": resolved} if resolved else {}),
        # what the chosen card changed to run the setup (recommend.runnable: ADJUSTMENTS), and its caveats
        "adjusted": list(options.get("adjusted", ())),
        "card_notes": list(options.get("card_notes", ())),
        "model": model_json(s.model),
        "inputs": {**inputs_json(s), "framework": (options.get("framework") or {}).get("id", "none")},
        "framework": options.get("framework"),
        "units": {"gb": 1_000_000_000, "gib": 1 << 30},
    }
    if s.grpo:
        # GRPO (calculator/rl.py): the headline is the training micro-step; the phases, their peak and the vLLM pool
        # (and, with a card, their time) are here. The GPU table, the smallest setup, the remedies and the inverse
        # solver are SFT's: not given.
        r["grpo"] = _grpo_json(s, e, GPUS[gpu] if gpu is not None else None)
        include = ()
    if not s.grpo:
        r.update(_supervised_notes(s, e, gpu, options))
    if "gpu_table" in include:
        r["gpu_table"] = recommend.gpu_table(requested)
    if "smallest_setup" in include:
        r["smallest_setup"] = recommend.smallest_setup(requested)
    if gpu is not None:
        spec = GPUS[gpu]
        # GRPO: the verdict is its phases' peak's, not the training micro-step's
        peak, driver = (r["grpo"]["peak_bytes_per_gpu"],) * 2 if s.grpo else (e.peak_bytes, e.driver_bytes)
        r["gpu"] = {"id": spec.id, "name": spec.name, "memory_bytes": spec.memory_bytes,
                    "verdict": recommend.verdict(peak, spec.memory_bytes, driver),
                    "share_of_memory": peak / spec.memory_bytes,
                    "range_share": recommend.range_share(peak, spec.memory_bytes)}
        if r["gpu"]["verdict"] == "fits_by_paging":
            r["gpu"]["paging"] = _paging_json(s, e, spec)
        if "remedies" in include:
            r["remedies"] = remedies_json(s, spec, options)
        if "inverse" in include:
            r["max_seq_len"] = recommend.max_seq_len(s, spec)
            r["max_micro_batch_size"] = recommend.max_micro_batch(s, spec)
    _time_fields(s, options, r)      # throughput, run, time and cost in the GPU table, fastest/cheapest
    return r


def _supervised_notes(s: TrainingSetup, e: Estimate, gpu: str | None, options: dict[str, Any]) -> dict[str, Any]:
    """What a supervised answer says beside its figure: several cards without sharding (DDP's full copies, and what
    ZeRO-3 gives), the MoE QLoRA's experts quantized, and the keys of its stack that move the figure away from the
    plain stack's, each with what it adds or saves."""
    out: dict[str, Any] = {}
    if dp := recommend.data_parallel(s, GPUS[gpu] if gpu is not None else None):
        _complete(dp["changes"], options)
        out["data_parallel"] = dp
    if "experts_not_quantized" in e.notes:
        out["experts_quantized"] = _experts_quantized_json(s)
    out["stack"] = [{**x, "changes": _complete(dict(x["changes"]), options)} for x in recommend.stack(s)]
    return out


def _experts_quantized_json(s: TrainingSetup) -> dict[str, Any]:
    """A QLoRA whose fused experts stay 16/32-bit (issue 42, point 4): what quantizing them gives, shown at the
    result beside the note (Axolotl 0.15 and later: quantize_moe_experts)."""
    fixed = recommend.cached_estimate(replaced(s, quantize_experts=True))
    return {"changes": {"quantize_experts": True}, "peak_bytes_per_gpu": fixed.peak_bytes}


def _grpo_json(s: TrainingSetup, e: Estimate, gpu: GpuSpec | None) -> dict[str, Any]:
    """The answer's ``grpo`` block (``rl.estimate_json``) with the peak as nvidia-smi would show it: the allocated
    peak of the peak phase plus the training micro-step's allocator reserve and the CUDA context (the card's verdict
    in ``gpu`` is this peak's);     ``gpu``'s memory for a vLLM engine's claim."""
    out = rl.estimate_json(s, gpu.memory_bytes if gpu is not None else None)
    peak = out["peak_allocated_bytes"] + (e.peak_bytes - e.allocated_bytes)
    out["peak_bytes_per_gpu"] = peak
    out["peak_gib"] = round(peak / GIB, 2)
    return out


def remedies_json(s: TrainingSetup, gpu: GpuSpec, options: dict[str, Any]) -> list[dict[str, Any]]:
    """``recommend.remedies``, each one's ``changes`` completed for the request as given: a key the request left to
    its framework, whose default the changes would move (LLaMA-Factory's precision and torchtune's optimizer follow
    ``method``), keeps the value the remedy's figure was estimated with. The request with exactly a remedy's changes
    is then its figure (tests/property/test_remedy_laws.py)."""
    out = recommend.remedies(s, gpu)
    for x in out:
        _complete(x["changes"], options)
    return out


def _complete(changes: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``changes`` (a remedy's, or ``data_parallel``'s) completed in place for the request as given: a key the
    request left to its framework, whose default the changes would move, keeps the value the figure was estimated
    with."""
    fw, asked = options.get("framework") or {}, options.get("request")
    if fw.get("id", "none") == "none" or not isinstance(asked, dict):
        return changes
    before = {d["key"]: d["value"] for d in fw["defaults"]}
    changed = {**asked, **changes}
    after = frameworks.request_defaults(fw["id"], changed)
    for key in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(key, DEFAULTS.get(key)), after.get(key, DEFAULTS.get(key))
        if key not in changed and _listed(old) != _listed(new):
            changes[key] = _listed(old)
    return changes


def _listed(x: Any) -> Any:
    return list(x) if isinstance(x, tuple) else x


# =====================================================================================================================
# Time and cost: throughput and run for the chosen card, time and cost in the GPU table, the fastest and cheapest
# setups that fit
# =====================================================================================================================
CURRENCY = "USD"


def _price(gpu: GpuSpec, chosen: str | None, reader_price: float | None) -> tuple[float | None, str | None]:
    """The price of one GPU-hour of ``gpu``: the reader's for the chosen card, else the catalogue's reference."""
    if reader_price is not None and gpu.id == chosen:
        return reader_price, "reader"
    if gpu.price_per_hour is not None:
        return gpu.price_per_hour, "catalogue"
    return None, None


def _round(x: float, digits: int = 4) -> float:
    return float(f"{x:.{digits}g}")


def _paging_json(s: TrainingSetup, e: Estimate, gpu: GpuSpec) -> dict[str, Any]:
    """A paged optimizer's states that do not fit beside the rest: evicted to host RAM and brought back every step
    over the card's host link (throughput.paging: the seconds it adds and the step's slowdown; None when the time
    is refused)."""
    evicted = min(e.driver_bytes - gpu.memory_bytes, e.paged_optimizer_bytes)
    out: dict[str, Any] = {"evicted_bytes": int(evicted), "host_link_gb_s": throughput.host_link_gb_s(gpu),
                           "seconds_per_step": None, "slowdown": None}
    try:
        seconds, slowdown = throughput.paging(s, gpu)
    except TimeNotModelled:
        return out
    out.update({"seconds_per_step": _round(seconds), "slowdown": _round(slowdown, 3)})
    return out


def throughput_json(s: TrainingSetup, gpu: GpuSpec) -> dict[str, Any]:
    tp = throughput.throughput(s, gpu)
    return {
        "tokens_per_second_per_gpu": _round(tp["tokens_per_second_per_gpu"]),
        "tokens_per_second": _round(tp["tokens_per_second"]),
        "step_time_s": _round(tp["step_time_s"]),
        "mfu": round(tp["mfu"], 4),
        "range": [_round(tp["range"][0]), _round(tp["range"][1])],
        "tokens_per_step": int(tp["tokens_per_step"]),
        "breakdown_s": {k: _round(v) for k, v in tp["breakdown_s"].items()},
        "gpu": gpu.id,
        "num_gpus": s.num_gpus,
        "seq_len": s.seq_len,            # the length the GPU computes on average (padded, or packed seq_len)
        "evidence": time_evidence(gpu.id, s.method.value, s.num_gpus),
    }


def run_json(s: TrainingSetup, gpu: GpuSpec, w: Workload, price: float | None,
             price_source: str | None) -> dict[str, Any]:
    rt = run_time(s, gpu, w)
    cost = None if price is None else rt["gpu_hours"] * price
    return {
        "seconds": _round(rt["seconds"]),
        "hours": _round(rt["hours"]),
        "gpu_hours": _round(rt["gpu_hours"]),
        "range_seconds": [_round(x) for x in rt["range_seconds"]],
        "cost": None if cost is None else round(cost, 2),
        "cost_range": None if price is None else [round(x * s.num_gpus / 3600.0 * price, 2)
                                                  for x in rt["range_seconds"]],
        "currency": CURRENCY,
        "price_per_gpu_hour": price,
        "price_source": price_source,
        "dataset_tokens": int(round(rt["dataset_tokens"])),
        "computed_tokens": int(round(rt["computed_tokens"])),
        "padding_share": round(rt["padding_share"], 4),
        "epochs": w.epochs,
    }


def _setup_times(s: TrainingSetup, s_eff: TrainingSetup, work: throughput.StepCounts, gpu: GpuSpec, w: Workload | None,
                 price: float | None) -> dict[str, Any]:
    """Time and cost of one card and count (``s`` built by recommend.setup_for; ``s_eff`` its effective_setup,
    ``work`` the counts of ``s_eff``)."""
    try:
        tokens_per_second = throughput.setup_tokens_per_second(s_eff, gpu, work)
    except TimeNotModelled as err:
        return {"tokens_per_second": None, "time_error": err.code}
    out: dict[str, Any] = {"tokens_per_second": _round(tokens_per_second)}
    per_million = 1e6 / tokens_per_second / 3600.0 * s.num_gpus   # GPU-hours per million computed tokens
    out["cost_per_million_tokens"] = None if price is None else round(per_million * price, 4)
    if w is not None:
        rt = run_time(s, gpu, w, tp={"tokens_per_second": tokens_per_second})
        out["seconds"] = _round(rt["seconds"])
        out["gpu_hours"] = _round(rt["gpu_hours"])
        out["cost"] = None if price is None else round(rt["gpu_hours"] * price, 2)
    out["price_per_gpu_hour"] = price
    return out


def annotate_gpu_table(table: list[dict[str, Any]], s: TrainingSetup, w: Workload | None, chosen: str | None,
                       reader_price: float | None) -> None:
    """Add time and cost to every card and count of ``recommend.gpu_table`` (same setups: ``table_setup``). Each
    count's setup is counted once (``throughput.setup_counts``) and timed on every card."""
    setups: dict[tuple[TrainingSetup, GpuSpec, int], TrainingSetup] = {}
    for row in table:
        gpu = GPUS[row["gpu"]]
        price, source = _price(gpu, chosen, reader_price)
        row["price_per_gpu_hour"] = price
        row["price_source"] = source
        if not row["setups"]:
            continue                                   # a setup this card cannot run (row["unsupported"])
        base = recommend.runnable(s, gpu)[0]           # as the card runs it (fp16 where it has no bf16)
        for setup in row["setups"]:
            n = setup["num_gpus"]
            if (base, gpu, n) not in setups:
                setups[(base, gpu, n)] = recommend.table_setup(base, gpu, n)
            setup.update(_card_times(setups[(base, gpu, n)], gpu, w, price))
            if setup.get("tokens_per_second") is not None:
                setup["evidence"] = time_evidence(gpu.id, base.method.value, n)


@lru_cache(maxsize=4096)
def _card_times(sn: TrainingSetup, gpu: GpuSpec, w: Workload | None, price: float | None) -> dict[str, Any]:
    """_setup_times of one card and count, remembered: a page recomputing after each change asks for the same cards
    and counts again (setups, cards and workloads are frozen, so they are their own key). Read-only: callers copy."""
    s_eff = effective_setup(sn, w)
    return _setup_times(sn, s_eff, throughput.setup_counts(s_eff), gpu, w, price)


def fastest_and_cheapest(table: list[dict[str, Any]]) -> dict[str, Any]:
    """Among the setups of an annotated GPU table that fit (recommend's rule: tight allowed, the edge not), the fastest (most
    tokens per second, the shortest run) and the cheapest (lowest cost, or cost per million tokens without a
    workload); ties go to fewer cards, then the table's order."""
    fits = [(row, st) for row in table for st in row["setups"]
            if recommend.surely_fits(st["verdict"]) and st.get("tokens_per_second")]

    def entry(row: dict[str, Any], st: dict[str, Any]) -> dict[str, Any]:
        keys = ("tokens_per_second", "seconds", "gpu_hours", "cost", "cost_per_million_tokens", "price_per_gpu_hour",
                "verdict", "evidence")
        return {"gpu": row["gpu"], "name": row["name"], "num_gpus": st["num_gpus"],
                **{k: st.get(k) for k in keys if k in st}}

    def best(among: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        fastest = max(among, key=lambda x: (x[1]["tokens_per_second"], -x[1]["num_gpus"]), default=None)
        priced = [x for x in among if x[1].get("cost_per_million_tokens") is not None]
        cost_key = "cost" if priced and "cost" in priced[0][1] else "cost_per_million_tokens"
        cheapest = min(priced, key=lambda x: (x[1][cost_key], x[1]["num_gpus"]), default=None)
        return (entry(*fastest) if fastest else None), (entry(*cheapest) if cheapest else None)

    fastest, cheapest = best(fits)
    # the same choice among the cards whose speed a measured run backs (a datasheet-only card can win the first)
    fastest_measured, cheapest_measured = best([x for x in fits if x[1]["evidence"]["basis"] == "measured"])
    return {"fastest_setup": fastest, "cheapest_setup": cheapest,
            "fastest_measured_setup": fastest_measured, "cheapest_measured_setup": cheapest_measured}


def _time_fields(s: TrainingSetup, options: dict[str, Any], r: dict[str, Any]) -> None:
    """Add the time and cost fields to the answer ``r`` (result_json calls this last).

    * ``throughput`` (with a ``gpu``): tokens per second per GPU and in all, step time, MFU, range.
    * ``run`` (with a ``gpu`` and a workload): seconds, GPU-hours, cost and currency, at the reader's price
      (``gpu_hour_price``) or the catalogue's reference price of that card; ``cost`` is null without either.
    * the GPU table's setups get ``tokens_per_second``, ``cost_per_million_tokens`` and, with a workload,
      ``seconds``, ``gpu_hours``, ``cost``; ``fastest_setup`` and ``cheapest_setup`` sit beside
      ``smallest_setup``.
    * ``time_error``: the code of a time that is refused (``fp32_not_modelled``, ``no_peak``).
    * GRPO: ``grpo.time``, the seconds of one optimizer step by phase (``rl.step_time``), instead of the above."""
    w: Workload | None = options.get("workload")
    reader_price = options.get("gpu_hour_price")
    chosen = options.get("gpu")
    if "inputs" in r:   # echo the time keys in request form, as given (feeding the inputs back gives the same result)
        given = options.get("workload_inputs") or {
            "dataset_tokens": w.dataset_tokens if w else None, "dataset_examples": w.dataset_examples if w else None,
            "mean_tokens_per_example": w.mean_tokens_per_example if w else None, "epochs": w.epochs if w else options.get("epochs", 1.0)}
        r["inputs"].update({**given, "gpu_hour_price": reader_price})
    if chosen is not None and s.grpo:
        # GRPO: its phases' time per optimizer step (rl.step_time); the supervised throughput and run are not its
        try:
            r["grpo"]["time"] = rl.step_time(s, GPUS[chosen])
        except TimeNotModelled as err:
            r["time_error"] = err.code
    elif chosen is not None:
        gpu = GPUS[chosen]
        try:
            throughput.check(s, gpu)
            r["throughput"] = throughput_json(effective_setup(s, w), gpu)
            if w is not None:
                price, source = _price(gpu, chosen, reader_price)
                r["run"] = run_json(s, gpu, w, price, source)
        except TimeNotModelled as err:
            r["time_error"] = err.code
    if "gpu_table" in r:
        annotate_gpu_table(r["gpu_table"], options.get("requested") or s, w, chosen, reader_price)
        if "smallest_setup" in r:
            r.update(fastest_and_cheapest(r["gpu_table"]))


def gpu_json(g: GpuSpec) -> dict[str, Any]:
    """One card of the catalogue as the schema lists it: its memory and class, its speed and price fields (the
    form's price placeholder)."""
    return {"id": g.id, "name": g.name, "memory_bytes": g.memory_bytes, "klass": g.klass, "nvlink": g.nvlink,
            "arch": g.arch, "compute_capability": g.compute_capability, "bf16": g.bf16,
            "gpus_per_node": g.gpus_per_node, "counts": list(g.counts), "counts_source": g.counts_source,
            "host_link": g.host_link, **_speed_json(g)}


def _speed_json(g: GpuSpec) -> dict[str, Any]:
    return {"peak_tflops": g.peak_tflops, "memory_gb_s": g.memory_gb_s, "interconnect_gb_s": g.interconnect_gb_s,
            "host_link_gb_s": g.host_link_gb_s, "price_per_hour": g.price_per_hour,
            "price_source": g.price_source or None, "price_date": g.price_date or None, "currency": CURRENCY}
